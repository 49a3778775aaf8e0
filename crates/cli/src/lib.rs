//! The `scryptic` command line. It lives in the library so that the end-to-end tests can run
//! it in-process; `main.rs` only hands it the process's arguments and streams.
//!
//! Exit codes: 0 success, 1 the input has problems (they are printed), 2 the command was
//! misused.

#![deny(missing_docs)]

// The other crates' modules, named as the rest of the runtime names them.
use scryptic_ai as ai;
use scryptic_core::{board, diag, fsutil, game, lexicon, map, ronfile, rules, save, scenario};
use scryptic_pack as pack;
use scryptic_render::{render, tileset};
use scryptic_script as script;

mod ai_cmd;
mod at_once;
mod balance_cmd;
mod campaign_cmd;
mod game_cmd;
mod join_cmd;
mod join_help;
mod join_screen;
mod keyboard;
mod lexicon_cmd;
mod map_cmd;
mod pack_cmd;
mod play_cmd;
mod position;
mod rules_cmd;
mod screen;
mod script_cmd;
mod serve_cmd;
mod table_play;
mod table_report;
mod tileset_cmd;

pub use screen::{TerminalOptions, Terminals};

use clap::{Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;

/// Exit code when the files given have problems.
pub const EXIT_PROBLEMS: i32 = 1;
/// Exit code when the command line itself is wrong.
pub const EXIT_USAGE: i32 = 2;

/// `--version`: the program's version and the scripting API a pack's `scryptic:` requirement
/// is checked against.
fn version_text() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| {
        format!(
            "{} (scripting API {})",
            env!("CARGO_PKG_VERSION"),
            crate::pack::manifest::API_VERSION
        )
    })
}

/// Scryptic's command line: rule sets, maps, the lexicon, tilesets, and games in the terminal.
#[derive(Parser, Debug)]
#[command(
    name = "scryptic",
    version = version_text(),
    about,
    long_about = None,
    after_help = "Exit codes: 0 success, 1 a refused file or action (the problems are printed, \
with file:line:column where there is one), 2 misuse (bad flags or values)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List, show and check rule sets.
    #[command(subcommand)]
    Rules(rules_cmd::RulesCommand),
    /// Validate, inspect, render, format and generate maps.
    #[command(subcommand)]
    Map(map_cmd::MapCommand),
    /// Build, check and search the dictionary and its connotation lists.
    #[command(subcommand)]
    Lexicon(lexicon_cmd::LexiconCommand),
    /// Check Lua scripts.
    #[command(subcommand)]
    Script(script_cmd::ScriptCommand),
    /// Replay a saved game and print where it stands.
    Replay(game_cmd::ReplayArgs),
    /// Preview a commit in a saved game: strengths, modifiers and the expected outcome.
    Preview(game_cmd::PreviewArgs),
    /// Play a map in the terminal: two people take turns at one keyboard.
    Play(play_cmd::PlayArgs),
    /// Play a campaign's maps in order, carrying the scripts' storage from one to the next.
    Campaign(campaign_cmd::CampaignArgs),
    /// List or count every legal placement for the player to move in a saved game.
    Moves(ai_cmd::MovesArgs),
    /// Play AI against AI on a map over many seeds and report the balance.
    Simulate(ai_cmd::SimulateArgs),
    /// The first player's advantage on a map over many AI games, with its 95% interval;
    /// `--tune KEY=LO..HI` searches a rule constant for the value that evens it.
    Balance(balance_cmd::BalanceArgs),
    /// Build tilesets.
    #[command(subcommand)]
    Tileset(tileset_cmd::TilesetCommand),
    /// Make, check, list, show and export packs (the README's "Packs" tells how).
    #[command(subcommand)]
    Pack(pack_cmd::PackCommand),
    /// Referee online matches: a lobby and a connection per seat (docs/PROTOCOL.md).
    Serve(serve_cmd::ServeArgs),
    /// Make an online match of a pack's mode and play a seat of it here (serving it from
    /// this terminal unless --server names a server).
    Host(join_cmd::HostArgs),
    /// Play a seat of an online match (or watch it) from this terminal.
    Join(join_cmd::JoinArgs),
    /// List a server's matches, with the address to join those with open seats.
    Matches(join_cmd::MatchesArgs),
}

/// Where a command reads and writes: its input, its normal output and its error messages,
/// and what the terminal behind them can do.
pub struct Streams<'a> {
    /// Input (what a person types to `scryptic play`).
    pub input: &'a mut dyn std::io::BufRead,
    /// Normal output (results, JSON).
    pub out: &'a mut dyn Write,
    /// Error messages and notices.
    pub err: &'a mut dyn Write,
    /// Colour, the hot-seat pause, line editing.
    pub terminal: TerminalOptions,
}

/// Runs the command line `args` (the first is the program's name) reading `input`, as if
/// on a plain pipe (no colour, no pause, no line editing); returns the exit code.
pub fn run<I, T>(
    args: I,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with(args, TerminalOptions::default(), input, out, err)
}

/// Runs the command line `args` on a terminal that can do what `terminal` says (the
/// `scryptic` binary passes `TerminalOptions::detect()`); returns the exit code.
pub fn run_with<I, T>(
    args: I,
    terminal: TerminalOptions,
    input: &mut dyn std::io::BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { 0 };
            let target: &mut dyn Write = if e.use_stderr() { err } else { out };
            let _ = write!(target, "{}", e.render());
            return code;
        }
    };
    let mut io = Streams {
        input,
        out,
        err,
        terminal,
    };
    let result = match cli.command {
        Command::Rules(cmd) => rules_cmd::run(cmd, &mut io),
        Command::Map(cmd) => map_cmd::run(cmd, &mut io),
        Command::Lexicon(cmd) => lexicon_cmd::run(cmd, &mut io),
        Command::Tileset(cmd) => tileset_cmd::run(cmd, &mut io),
        Command::Pack(cmd) => pack_cmd::run(cmd, &mut io),
        Command::Replay(args) => game_cmd::replay(args, &mut io),
        Command::Preview(args) => game_cmd::preview(args, &mut io),
        Command::Script(cmd) => script_cmd::run(cmd, &mut io),
        Command::Play(args) => play_cmd::play(args, &mut io),
        Command::Moves(args) => ai_cmd::moves(args, &mut io),
        Command::Simulate(args) => ai_cmd::simulate(args, &mut io),
        Command::Balance(args) => balance_cmd::balance(args, &mut io),
        Command::Campaign(args) => campaign_cmd::campaign(args, &mut io),
        Command::Serve(args) => serve_cmd::serve(args, &mut io),
        Command::Host(args) => join_cmd::host(args, &mut io),
        Command::Join(args) => join_cmd::join(args, &mut io),
        Command::Matches(args) => join_cmd::matches(args, &mut io),
    };
    match result {
        Ok(code) => code,
        // The reader went away (`scryptic lexicon query ... | head`): nothing to report, as
        // with any Unix tool.
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            let _ = writeln!(io.err, "error: {e:#}");
            EXIT_PROBLEMS
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The saved game at `path`, replayed (scripts included), with every event; `None` after
/// printing why if the file cannot be read, is out of bounds, or does not replay.
fn load_saved_game(
    path: &std::path::Path,
    io: &mut Streams,
) -> anyhow::Result<Option<(crate::script::ScriptedGame, Vec<crate::game::Event>)>> {
    load_saved_game_with(path, &SaveLoading::default(), io)
}

/// How a command loads a save (see `load_saved_game_with`).
#[derive(Default)]
struct SaveLoading<'a> {
    /// Packs (folders, archives or ids) to compare with those the save records.
    packs: &'a [String],
    /// Whether scripts that are not the files the game was played with may run.
    allow_changed_scripts: bool,
    /// Whether a replay stopped before the save's end (Ctrl-C, its scripts' time) still
    /// gives the game as it stands there (to look at it; never to play on).
    partial: bool,
}

/// Set by Ctrl-C while a save replays (see `replay_interrupted`).
static REPLAY_INTERRUPTED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
/// Whether a save is being replayed: Ctrl-C then stops the replay, else it ends the program.
static REPLAYING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes Ctrl-C stop a replay cleanly (once per process; at a terminal only).
fn catch_ctrl_c_in_replays() {
    static SET: std::sync::Once = std::sync::Once::new();
    SET.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            use std::sync::atomic::Ordering::Relaxed;
            if REPLAYING.load(Relaxed) {
                REPLAY_INTERRUPTED.store(true, Relaxed);
            } else {
                // As if no handler were set: Ctrl-C ends the program.
                std::process::exit(130);
            }
        });
    });
}

/// As `load_saved_game`, as `how` says: comparing the packs the save records with those found
/// and those named, noting each that differs; checking its settings against its pack's;
/// replaying with a progress bar at a terminal, which Ctrl-C stops; and warning where the
/// replay departs from the game the save recorded.
fn load_saved_game_with(
    path: &std::path::Path,
    how: &SaveLoading<'_>,
    io: &mut Streams,
) -> anyhow::Result<Option<(crate::script::ScriptedGame, Vec<crate::game::Event>)>> {
    use std::sync::atomic::Ordering::Relaxed;
    let save = match crate::save::SaveFile::load(path) {
        Ok(save) => save,
        Err(e) => {
            for p in e.problems() {
                writeln!(io.err, "{p}")?;
            }
            return Ok(None);
        }
    };
    if !save.packs.is_empty() {
        let (mut catalog, _) = crate::pack::Catalog::discover();
        let mut opened = Vec::new();
        for pack in how.packs {
            opened.extend(pack_cmd::open(pack, &mut catalog, io)?);
        }
        for note in crate::pack::record::record_notes(&save.packs, &catalog) {
            writeln!(io.err, "note: {note}")?;
        }
        let refused = crate::pack::record::setting_problems(&save, &catalog);
        if !refused.is_empty() {
            for problem in refused {
                writeln!(io.err, "{}: {problem}", path.display())?;
            }
            return Ok(None);
        }
    }
    let lexicon = match crate::lexicon::Lexicon::for_save(save.words.as_ref()) {
        Ok(lexicon) => std::sync::Arc::new(lexicon),
        Err(e) => {
            writeln!(io.err, "{}: {e}", path.display())?;
            return Ok(None);
        }
    };
    let bar = ai_cmd::progress_bar(save.actions.len() as u64, io.terminal);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} actions replayed  {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    if io.terminal.progress {
        catch_ctrl_c_in_replays();
    }
    REPLAY_INTERRUPTED.store(false, Relaxed);
    REPLAYING.store(true, Relaxed);
    let mut look = |at: usize, _: usize| {
        bar.set_position(at as u64);
        !REPLAY_INTERRUPTED.load(Relaxed)
    };
    let options = crate::script::ReplayOptions {
        allow_changed_scripts: how.allow_changed_scripts,
        progress: Some(&mut look),
        ..crate::script::ReplayOptions::default()
    };
    let replayed = crate::script::ScriptedGame::from_save_with(&save, lexicon, options);
    REPLAYING.store(false, Relaxed);
    bar.finish_and_clear();
    let replayed = match replayed {
        Ok(replayed) => replayed,
        Err(e) => {
            writeln!(io.err, "{}: {e}", path.display())?;
            return Ok(None);
        }
    };
    for changed in &replayed.changed_scripts {
        writeln!(io.err, "warning: {changed}; it runs as you allowed")?;
    }
    if let Some(departure) = replayed.game.departure() {
        writeln!(io.err, "warning: {}: {departure}", path.display())?;
    }
    if let Some(stop) = &replayed.stopped {
        if !how.partial {
            writeln!(io.err, "{}: {stop}", path.display())?;
            return Ok(None);
        }
        writeln!(
            io.err,
            "note: {}: {stop}; the game is shown as it stands there",
            path.display()
        )?;
    }
    Ok(Some((replayed.game, replayed.events)))
}

/// The folder where the command line keeps what it remembers between runs (campaign progress,
/// the play prompt's history): `$SCRYPTIC_DATA`, else `$XDG_DATA_HOME/scryptic`, else
/// `~/.local/share/scryptic`.
fn data_dir() -> Option<std::path::PathBuf> {
    crate::pack::places::data_dir()
}

/// Writes `value` as pretty JSON followed by a newline.
fn print_json<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> anyhow::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)?;
    Ok(())
}

//! `scryptic replay SAVE` and `scryptic play MAP`: the engine without the editor.

use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::board::{Player, Pos};
use crate::game::describe::{board_text, describe, describe_result, player_line};
use crate::game::notation::{COMMANDS, cell_name, parse_command};
use crate::game::{Event, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::script::live::{LiveFiles, RulesFile, load_connotations};
use crate::script::{ScriptedGame, read_map_scripts};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// A save file written by `scryptic play` (or the editor).
    save: PathBuf,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub(super) struct PlayArgs {
    /// The map to play.
    map: Option<PathBuf>,
    /// The seed for the pools and everything else left to chance.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A rule-set file to play with instead of the map's rules.
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Continue a saved game instead of starting one.
    #[arg(long, conflicts_with_all = ["map", "rules"])]
    load: Option<PathBuf>,
    /// A folder of connotation lists (NAME.txt, one base word a line) that replace the
    /// built-in lists of the same names; saving one while playing reloads it.
    #[arg(long, conflicts_with = "load")]
    connotations: Option<PathBuf>,
}

#[derive(Serialize)]
struct PlayerReport {
    player: Player,
    score: i64,
    word_score: i64,
    base_score: i64,
    rack: String,
    tokens: Vec<String>,
    pool: usize,
    cities: Vec<String>,
    spies_left: i64,
}

#[derive(Serialize)]
struct LetterReport {
    player: Player,
    cell: String,
    at: Pos,
    letter: char,
}

#[derive(Serialize)]
struct GameReport {
    turn: u32,
    to_play: Player,
    over: bool,
    winner: Option<Player>,
    result: Option<String>,
    players: Vec<PlayerReport>,
    letters: Vec<LetterReport>,
    events: Vec<String>,
    console: Vec<String>,
}

fn report(game: &Game, events: &[Event]) -> GameReport {
    let players = Player::BOTH
        .iter()
        .map(|&p| {
            let score = game.score(p);
            PlayerReport {
                player: p,
                score: score.total,
                word_score: score.word,
                base_score: score.base,
                rack: game.rack_letters(p),
                tokens: game
                    .player(p)
                    .tokens()
                    .map(|(id, _)| id.to_string())
                    .collect(),
                pool: game.player(p).pool.len(),
                cities: game
                    .board()
                    .cities
                    .iter()
                    .filter(|c| !c.destroyed && c.owner == p.into())
                    .map(|c| c.id.clone())
                    .collect(),
                spies_left: game.spies_left(p),
            }
        })
        .collect();
    let letters = game
        .board()
        .letters
        .positions()
        .filter_map(|at| {
            game.board().letters[at].map(|t| LetterReport {
                player: t.player,
                cell: cell_name(at),
                at,
                letter: t.letter,
            })
        })
        .collect();
    GameReport {
        turn: game.turn(),
        to_play: game.to_act(),
        over: game.result().is_some(),
        winner: game.result().and_then(|r| r.winner),
        result: game.result().map(describe_result),
        players,
        letters,
        events: events.iter().map(describe).collect(),
        console: Vec::new(),
    }
}

pub(super) fn replay(args: ReplayArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some((scripted, events)) = super::load_saved_game(&args.save, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let console: Vec<String> = scripted
        .host()
        .drain_console()
        .iter()
        .map(ToString::to_string)
        .collect();
    let game = scripted.game();
    if args.json {
        let mut report = report(game, &events);
        report.console = console;
        print_json(io.out, &report)?;
        return Ok(0);
    }
    write_status(game, io)?;
    writeln!(io.out, "events:")?;
    for (i, e) in events.iter().enumerate() {
        writeln!(io.out, "{:>4}. {}", i + 1, describe(e))?;
    }
    if !console.is_empty() {
        writeln!(io.out, "scripts:")?;
        for line in &console {
            writeln!(io.out, "  {line}")?;
        }
    }
    Ok(0)
}

fn write_status(game: &Game, io: &mut Streams) -> anyhow::Result<()> {
    match game.result() {
        Some(result) => writeln!(io.out, "{}", describe_result(result))?,
        None => writeln!(io.out, "turn {}: {} to play", game.turn(), game.to_act())?,
    }
    for p in Player::BOTH {
        writeln!(io.out, "{}", player_line(game, p))?;
    }
    write!(io.out, "{}", board_text(game))?;
    Ok(())
}

fn start(args: &PlayArgs, io: &mut Streams) -> anyhow::Result<Option<ScriptedGame>> {
    if let Some(path) = &args.load {
        return Ok(super::load_saved_game(path, io)?.map(|(game, _)| game));
    }
    let lexicon = Arc::new(Lexicon::english());
    let Some(map_path) = &args.map else {
        writeln!(
            io.err,
            "name a map to play (scryptic play maps/tutorial.ron) or --load a save"
        )?;
        return Ok(None);
    };
    let Some((map, rules)) = super::load_map_and_rules(map_path, args.rules.as_deref(), io)? else {
        return Ok(None);
    };
    let (sources, unreadable) = read_map_scripts(
        map_path.parent().unwrap_or(std::path::Path::new(".")),
        &map.scripts,
    );
    let (game, errors) = match ScriptedGame::start(&map, rules, lexicon, args.seed, sources, None) {
        Ok(started) => started,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(None);
        }
    };
    for e in unreadable.iter().chain(&errors) {
        writeln!(io.err, "{e}")?;
    }
    Ok(Some(game))
}

fn write_console(game: &ScriptedGame, io: &mut Streams) -> anyhow::Result<()> {
    for line in game.host().drain_console() {
        writeln!(io.out, "  {line}")?;
    }
    Ok(())
}

pub(super) fn play(args: PlayArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(mut scripted) = start(&args, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let connotation_files = match &args.connotations {
        Some(dir) => match load_connotations(&mut scripted, dir) {
            Ok(files) => files,
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(EXIT_PROBLEMS);
            }
        },
        None => Vec::new(),
    };
    let live = match (&args.load, &args.map) {
        (None, Some(map)) => LiveFiles::new(
            &scripted,
            map.parent().unwrap_or(std::path::Path::new(".")),
            args.rules.clone().map(RulesFile::RuleSet),
            connotation_files,
        ),
        _ => LiveFiles::none(),
    };
    writeln!(
        io.out,
        "{}: type `help` for the commands.",
        scripted.game().map().name
    )?;
    play_loop(&mut scripted, &live, io)?;
    Ok(0)
}

/// Plays `scripted` at the terminal until the player leaves; returns whether the game ended
/// (rather than the player leaving it unfinished). A finished game can still be shown and
/// saved: the loop goes on taking `board`, `save` and `quit` until the player leaves.
fn play_loop(
    scripted: &mut ScriptedGame,
    live: &LiveFiles,
    io: &mut Streams,
) -> anyhow::Result<bool> {
    write_console(scripted, io)?;
    write_status(scripted.game(), io)?;
    let mut announced_end = false;
    let mut line = String::new();
    loop {
        if let Some(result) = scripted.game().result()
            && !announced_end
        {
            writeln!(io.out, "{}", describe_result(result))?;
            writeln!(
                io.out,
                "the game is over: `board` shows it, `save FILE` keeps it, `quit` leaves"
            )?;
            announced_end = true;
        }
        if !announced_end {
            for notice in live.poll(scripted) {
                writeln!(io.out, "  {notice}")?;
            }
            write_console(scripted, io)?;
        }
        let prompt = if announced_end {
            "game over".to_string()
        } else {
            scripted.game().to_act().to_string()
        };
        write!(io.out, "{prompt}> ")?;
        io.out.flush()?;
        line.clear();
        if io.input.read_line(&mut line)? == 0 {
            writeln!(io.out)?;
            break;
        }
        let command = line.trim();
        match command.split_whitespace().next().unwrap_or("") {
            "" => {}
            "help" => writeln!(
                io.out,
                "{COMMANDS}\nboard                            show the board and both players\nsave FILE                        save the game\nquit                             leave (unsaved moves are lost)"
            )?,
            "board" => write_status(scripted.game(), io)?,
            "quit" => break,
            "save" => save(scripted, command, io)?,
            _ if announced_end => {
                writeln!(io.out, "  the game is over: `board`, `save FILE` or `quit`")?
            }
            _ => play_command(scripted, command, io)?,
        }
    }
    Ok(scripted.game().result().is_some())
}

fn play_command(
    scripted: &mut ScriptedGame,
    command: &str,
    io: &mut Streams,
) -> anyhow::Result<()> {
    let applied = parse_command(scripted.game(), command)
        .map_err(|e| e.to_string())
        .and_then(|a| scripted.apply(a).map_err(|e| e.to_string()));
    match applied {
        Ok(events) => {
            // The end of the game is told once, by the loop, with what can still be done.
            let told = events
                .iter()
                .filter(|e| !matches!(e, Event::GameOver { .. }));
            for e in told {
                writeln!(io.out, "  {}", describe(e))?;
            }
            write_console(scripted, io)?;
            if events
                .iter()
                .any(|e| matches!(e, Event::TurnStarted { .. }))
            {
                write_status(scripted.game(), io)?;
            }
        }
        Err(e) => writeln!(io.out, "  refused: {e}")?,
    }
    Ok(())
}

#[derive(Args, Debug)]
pub(super) struct CampaignArgs {
    /// A folder of campaign maps, played in the order of their file names.
    folder: PathBuf,
    /// The seed for the first chapter (each chapter adds one).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Plays a campaign's maps in order; gold must win each chapter to go on, and the scripts'
/// storage is carried from one chapter to the next.
pub(super) fn campaign(args: CampaignArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let mut maps: Vec<PathBuf> = std::fs::read_dir(&args.folder)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.folder.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    maps.sort();
    if maps.is_empty() {
        writeln!(io.err, "{} holds no maps", args.folder.display())?;
        return Ok(EXIT_PROBLEMS);
    }
    let lexicon = Arc::new(Lexicon::english());
    let mut storage: Option<String> = None;
    for (chapter, path) in maps.iter().enumerate() {
        let map = match Map::load(path) {
            Ok(map) => map,
            Err(e) => {
                for p in e.problems() {
                    writeln!(io.err, "{p}")?;
                }
                return Ok(EXIT_PROBLEMS);
            }
        };
        let rules = map.rule_set().map_err(|ps| {
            anyhow::anyhow!(
                "{}: {}",
                path.display(),
                ps.first().map(|p| p.message.clone()).unwrap_or_default()
            )
        })?;
        let map_dir = path.parent().unwrap_or(std::path::Path::new("."));
        let (sources, unreadable) = read_map_scripts(map_dir, &map.scripts);
        let (mut scripted, errors) = ScriptedGame::start(
            &map,
            rules,
            lexicon.clone(),
            args.seed + chapter as u64,
            sources,
            storage.as_deref(),
        )?;
        for e in unreadable.iter().chain(&errors) {
            writeln!(io.err, "{e}")?;
        }
        writeln!(
            io.out,
            "== {} ({} of {}): type `help` for the commands.",
            map.name,
            chapter + 1,
            maps.len()
        )?;
        let live = LiveFiles::new(&scripted, map_dir, None, Vec::new());
        if !play_loop(&mut scripted, &live, io)? {
            writeln!(io.out, "the campaign stops here")?;
            return Ok(0);
        }
        if scripted.game().result().and_then(|r| r.winner) != Some(crate::board::Player::Gold) {
            writeln!(
                io.out,
                "the campaign is lost; play this chapter again to go on"
            )?;
            return Ok(0);
        }
        storage = Some(
            scripted
                .host()
                .storage_json()
                .map_err(|e| anyhow::anyhow!(e))?,
        );
    }
    writeln!(io.out, "the campaign is won")?;
    Ok(0)
}

fn save(game: &ScriptedGame, command: &str, io: &mut Streams) -> anyhow::Result<()> {
    let Some(path) = command.split_whitespace().nth(1) else {
        writeln!(io.out, "  write: save FILE")?;
        return Ok(());
    };
    match game.save().save(std::path::Path::new(path)) {
        Ok(()) => writeln!(io.out, "  saved to {path}")?,
        Err(e) => writeln!(io.out, "  cannot save to {path}: {e}")?,
    }
    Ok(())
}

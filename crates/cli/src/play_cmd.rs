//! `scryptic play MAP`: two people play a map at one keyboard (hot-seat).
//!
//! Each player sees only their own rack: when the keyboard must change hands, the game says so
//! and (at a real terminal) clears the screen and waits for the next player to press Enter.
//! A finished game can still be shown and saved until the players leave.

use super::at_once::{AT_ONCE_COMMANDS, AtOnce};
use super::keyboard::Typed;
use super::pack_cmd;
use super::screen::Screen;
use super::{EXIT_PROBLEMS, Streams};
use crate::board::Player;
use crate::game::describe::{describe_award, describe_match, describe_result};
use crate::game::notation::{COMMANDS, SIMULTANEOUS_COMMANDS, parse_command_as};
use crate::game::{Action, Event, Game};
use crate::lexicon::Lexicon;
use crate::pack::{Catalog, Level};
use crate::script::ScriptedGame;
use crate::script::live::{LiveFiles, load_connotations};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

mod output;
mod seats;

#[derive(Args, Debug)]
pub(super) struct PlayArgs {
    /// The map to play (with --pack: a map of the pack or of one it loads,
    /// `maps/duel-40.ron` or `core:maps/tutorial.ron`).
    map: Option<PathBuf>,
    /// Play a pack's mode: its id (or its folder), and which mode (`core:classic`,
    /// `./my-pack:standard`); without a mode, the pack's first.
    #[arg(long, value_name = "ID[:MODE]", conflicts_with_all = ["load", "rules"])]
    pack: Option<String>,
    #[command(flatten)]
    picks: super::pack_cmd::PackPicks,
    /// The seed for the pools and everything else left to chance; without it, one drawn
    /// from the system, which the game prints (so that it can be played again).
    #[arg(long)]
    seed: Option<u64>,
    /// A rule-set file to play with instead of the map's rules.
    #[arg(long)]
    rules: Option<PathBuf>,
    /// Continue a saved game instead of starting one.
    #[arg(long, conflicts_with_all = ["map", "rules"])]
    load: Option<PathBuf>,
    /// With --load: replay scripts the save carries though they are not the files its game
    /// was played with (the save records other hashes for them): only for a save you trust.
    #[arg(long, requires = "load")]
    allow_changed_scripts: bool,
    /// Your own word list (a text file, one word a line) instead of the toolkit's dictionary;
    /// a save records it and replays only with the same list.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    words: Option<PathBuf>,
    /// A folder of connotation lists (NAME.txt, one base word a line) that replace the
    /// built-in lists of the same names; saving one while playing reloads it.
    #[arg(long, conflicts_with = "load")]
    connotations: Option<PathBuf>,
    /// A seat the AI plays (`brown`, `silver:hard`, `silver:hard:2s`; the level easy,
    /// normal or hard, normal if not given; then how long the hard level thinks a move: a
    /// time such as `2s` or `500ms`, or a number of sampled worlds, off if not given); in a
    /// game played at once (Lexicon Crossing) each AI acts once for every line typed; repeat
    /// for more. The others are people at the keyboard, who see their
    /// own side.
    #[arg(long, value_name = "SEAT[:LEVEL[:THINK]]")]
    ai: Vec<String>,
}

/// A table of commands with their descriptions in one column: each line is a command, two
/// spaces or more, and what it does.
pub(super) fn aligned(table: &str) -> String {
    fn split(line: &str) -> Option<(&str, &str)> {
        let at = line.find("  ")?;
        Some((&line[..at], line[at..].trim_start()))
    }
    let width = table
        .lines()
        .filter_map(split)
        .map(|(command, _)| command.chars().count())
        .max()
        .unwrap_or(0);
    table
        .lines()
        .map(|line| match split(line) {
            Some((command, what)) => format!("{command:<width$}  {what}"),
            None => line.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The commands of the table itself, beside the game's.
const TABLE_COMMANDS: &str =
    "preview CELL across|down WORD    what committing it would lead to, without committing
board                            show the board and your rack
save FILE                        save the game
quit                             leave (unsaved moves are lost)";

/// The end of `game` as `told` says it, said as a round's end in a match of rounds: which
/// round is over, and what comes next.
fn round_end(game: &Game, told: &str) -> String {
    let rounds = game.rules().series.rounds;
    if rounds <= 1 {
        return told.to_string();
    }
    let n = game.round_number();
    let rest = told.strip_prefix("game over: ").unwrap_or(told);
    let next = if game.match_goes_on() {
        format!("; `next` starts round {} of {rounds}", n + 1)
    } else {
        "; it was the last: the match is over".to_string()
    };
    format!("round {n} of {rounds} is over: {rest}{next}")
}

/// The prompt once the game has ended: a round's, a match's or a game's.
fn ended_prompt(game: &Game) -> &'static str {
    if game.match_goes_on() {
        "round over> "
    } else if game.rules().series.rounds > 1 {
        "match over> "
    } else {
        "game over> "
    }
}

/// The commands of a game of turns its rules and board allow, from `COMMANDS`.
pub(super) fn turn_commands(game: &Game, combat: bool) -> String {
    let rules = game.rules();
    let flow = &rules.flow;
    let allowed = |line: &str| match line.split_whitespace().next().unwrap_or("") {
        "defend" => combat,
        "redeploy" => rules.turn.redeploys_per_turn > 0,
        // Only a rack drawn onto turn by turn can go over its limit.
        "discard" => rules.supply.draw != crate::rules::DrawModel::RefillHand,
        "exchange" => rules.exchange.allowed,
        "invoke" => !game.board().tokens.is_empty(),
        "spy" => rules.turn.spies_per_game > 0,
        "forfeit" => flow.forfeit,
        "sudden" | "accept" => flow.sudden_death,
        // Without passing, a play ends the turn itself.
        "end" => flow.may_pass || !flow.one_play_per_turn,
        _ => true,
    };
    COMMANDS
        .lines()
        .filter(|line| allowed(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether words fight in `game` (a game of turns with separate crosswords): `defend` and
/// `preview` have a use.
pub(super) fn has_combat(game: &Game) -> bool {
    let flow = &game.rules().flow;
    game.rules().crossword.model == crate::rules::CrosswordModel::Separate
        && !flow.scripted
        && !flow.simultaneous
}

/// Whether `game` is a round of a match: `next` has a use.
pub(super) fn in_rounds(game: &Game) -> bool {
    game.match_before().is_match() || game.rules().series.rounds > 1
}

/// How cells are named, said once where both styles can meet (map files count from 0).
pub(super) const CELL_NAMES: &str = "Cells are named by column letter and row number: A1 is the top-left cell \
(x 0, y 0 in map files), B3 the second column's third row.";

/// The game the arguments ask for, and its level (none for a saved game); `None` after
/// saying why not.
fn start(
    args: &PlayArgs,
    io: &mut Streams,
) -> anyhow::Result<Option<(ScriptedGame, Option<Level>)>> {
    if let Some(path) = &args.load {
        let how = super::SaveLoading {
            allow_changed_scripts: args.allow_changed_scripts,
            ..super::SaveLoading::default()
        };
        let game = super::load_saved_game_with(path, &how, io)?.map(|(game, _)| game);
        return Ok(game.map(|g| (g, None)));
    }
    let Some(level) = level_from(
        args.pack.as_deref(),
        args.map.as_deref(),
        args.rules.as_deref(),
        &args.picks,
        io,
    )?
    else {
        return Ok(None);
    };
    let Some(lexicon) = open_lexicon(args.words.as_deref(), io)? else {
        return Ok(None);
    };
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            // A fixed default would deal the same tiles (and the same ids to hidden pieces)
            // every game: a player who saw one replay would know them. It is told when the
            // players leave (`drawn_seed_told`), not now: with it, anyone could deal the game
            // again elsewhere and read the other side's tiles.
            rand::random::<u64>() >> 11
        }
    };
    let (game, problems) = match ScriptedGame::start_level(&level, lexicon, seed, None) {
        Ok(started) => started,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(None);
        }
    };
    for p in &problems {
        writeln!(io.err, "{p}")?;
    }
    if io.terminal.line_editing {
        // A person at a terminal: the spy's first answer comes at once.
        crate::ai::warm_spy(game.game());
    }
    Ok(Some((game, Some(level))))
}

/// The dictionary, or the player's own word list (`--words`); `None` after saying why not.
pub(super) fn open_lexicon(
    words: Option<&Path>,
    io: &mut Streams,
) -> anyhow::Result<Option<Arc<Lexicon>>> {
    let Some(path) = words else {
        return Ok(Some(Arc::new(Lexicon::english())));
    };
    match Lexicon::open_word_list(path) {
        Ok((lexicon, warnings)) => {
            for w in warnings {
                writeln!(io.err, "warning: {w}")?;
            }
            Ok(Some(Arc::new(lexicon)))
        }
        Err(e) => {
            for p in e.problems() {
                writeln!(io.err, "{p}")?;
            }
            Ok(None)
        }
    }
}

/// The level the arguments name: a pack's mode (`--pack`, with `map` another board of it), or
/// a map file (with `rules` its rule set); `None` after saying why not.
pub(super) fn level_from(
    pack: Option<&str>,
    map: Option<&Path>,
    rules: Option<&Path>,
    picks: &pack_cmd::PackPicks,
    io: &mut Streams,
) -> anyhow::Result<Option<Level>> {
    let (mut catalog, _) = Catalog::discover();
    let assembled = match (pack, map) {
        (Some(spec), map) => {
            let map = map.map(|m| m.to_string_lossy().into_owned());
            let Some((choice, _opened)) =
                pack_cmd::choose(spec, map.as_deref(), picks, &mut catalog, io)?
            else {
                return Ok(None);
            };
            // Everything the level needs is read now, so an unpacked archive may go after.
            Level::from_pack(&catalog, &choice)
        }
        (None, Some(map)) => Level::from_map_file(map, rules, &catalog),
        (None, None) => {
            writeln!(
                io.err,
                "name a map to play (maps/tutorial.ron), a pack (--pack core:classic) or a save (--load)"
            )?;
            return Ok(None);
        }
    };
    match assembled {
        Ok(level) => Ok(Some(level)),
        Err(e) => {
            writeln!(io.err, "{e}")?;
            Ok(None)
        }
    }
}

pub(super) fn play(args: PlayArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some((mut scripted, level)) = start(&args, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let extra_lists = match &args.connotations {
        Some(dir) => match load_connotations(&mut scripted, dir) {
            Ok(files) => files,
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(EXIT_PROBLEMS);
            }
        },
        None => Vec::new(),
    };
    let live = match level {
        Some(mut level) => {
            level.watch.connotation_files.extend(extra_lists);
            LiveFiles::for_level(&scripted, &level)
        }
        None => LiveFiles::none(),
    };
    writeln!(
        io.out,
        "{}: type `help` for the commands. {CELL_NAMES}",
        scripted.game().map().name
    )?;
    let mut table = Table::new(io, AfterEnd::Leave);
    if let Err(e) = table.seat_ais(scripted.game(), &args.ai, scripted.game().seed()) {
        writeln!(io.err, "{e}")?;
        return Ok(EXIT_PROBLEMS);
    }
    let drawn_seed = (args.seed.is_none() && args.load.is_none()).then(|| scripted.game().seed());
    let left = play_rounds(&mut table, scripted, &live, io)?;
    if let Some(seed) = drawn_seed {
        writeln!(
            io.out,
            "this game's seed was {seed}: `--seed {seed}` plays it again"
        )?;
    }
    Ok(left)
}

/// Plays `scripted` and, in a match, its next rounds, until the players leave; the exit code.
fn play_rounds(
    table: &mut Table,
    mut scripted: ScriptedGame,
    live: &LiveFiles,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    while table.play(&mut scripted, live, io)? == Left::Next {
        match scripted.next_round() {
            Some(Ok((round, problems))) => {
                for p in &problems {
                    writeln!(io.err, "{p}")?;
                }
                scripted = round;
            }
            Some(Err(e)) => {
                writeln!(io.err, "the next round cannot start: {e}")?;
                return Ok(EXIT_PROBLEMS);
            }
            None => break,
        }
    }
    Ok(0)
}

/// What a finished game's prompt offers besides `board` and `save`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterEnd {
    /// `quit` leaves (a single game).
    Leave,
    /// `next` goes on to the next chapter, `quit` stops the campaign.
    NextChapter,
}

/// How the players left a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Left {
    /// Before the game ended.
    Unfinished,
    /// After it ended, to stop.
    Stopped,
    /// After it ended, to go on (`next` in a campaign).
    Next,
}

/// What help says of the AI seats of a game played at once: their pace, the game's or each
/// level's.
fn ai_pace_help(game: &Game) -> String {
    let seconds = |ms: u64| format!("{} s", ms as f64 / 1000.0);
    let rules = game.rules();
    let pace = if rules.flow.ai_letter_ms > 0 {
        let ms = u64::try_from(rules.flow.ai_letter_ms).unwrap_or(0);
        format!(
            "{} a letter, as the game's ai_pace setting says",
            seconds(ms)
        )
    } else {
        let levels: Vec<String> = (crate::ai::Level::ALL.iter())
            .map(|&l| {
                let ms = crate::ai::Pace::of(l, rules).letter_ms;
                format!("{l} {}", seconds(ms))
            })
            .collect();
        format!(
            "{} a letter; --set ai_pace=2s gives them all one",
            levels.join(", ")
        )
    };
    format!(
        "The AI seats play at a person's pace: each looks new tiles over, then lays its \
         crossword a few letters at a time ({pace}) and calls a light only once its crossword \
         is laid."
    )
}

/// The terminal as the players share it: what it draws, where lines come from, and whose
/// rack it last showed.
pub(super) struct Table {
    screen: Screen,
    keyboard: super::keyboard::Keyboard,
    /// The player whose rack the screen shows now.
    shown_to: Option<Player>,
    pause: bool,
    /// Whether the output is a terminal whose screen can be cleared.
    clear_screen: bool,
    after_end: AfterEnd,
    /// Simultaneous play's keyboard and clock.
    at_once: AtOnce,
    /// The seats the AI plays (`--ai`).
    ais: Vec<(Player, crate::ai::AiPlayer)>,
    /// In simultaneous play, the AI seat asked next, and how many actions the AIs made since
    /// the last line typed (none before the first).
    ai_turn: usize,
    ai_streak: usize,
    /// In simultaneous play with people at a keyboard that can wait: each AI seat's pace
    /// (`crate::ai::pace`), counted in milliseconds since `began`, and when the next may act.
    pacers: crate::ai::Pacers,
    began: Instant,
    ai_due: Option<Instant>,
    /// Whether the screen is a spectator's (online, no seat): no rack is its own.
    watching: bool,
    /// What the scripts told the players since the keyboard last passed: told again after a
    /// hand-over clears the screen (a `turn_start` message is for the player it hands to).
    told: Vec<String>,
}

impl Table {
    pub(super) fn new(io: &Streams, after_end: AfterEnd) -> Table {
        Table {
            screen: Screen::new(io.terminal),
            keyboard: super::keyboard::Keyboard::new(io.terminal),
            shown_to: None,
            pause: io.terminal.pause_between_players,
            clear_screen: io.terminal.line_editing,
            after_end,
            at_once: AtOnce::new(),
            ais: Vec::new(),
            ai_turn: 0,
            ai_streak: usize::MAX,
            pacers: Default::default(),
            began: Instant::now(),
            ai_due: None,
            watching: false,
            told: Vec::new(),
        }
    }

    /// The screen of one seat of an online match (none: a spectator's): it shows only that
    /// seat's side, nobody hands the keyboard over, and lines are read on a thread so that
    /// the server's news shows while one is awaited (`Keyboard::threaded`).
    pub(super) fn for_seat(io: &Streams, seat: Option<Player>) -> Table {
        let mut table = Table {
            screen: Screen::new(io.terminal),
            keyboard: super::keyboard::Keyboard::threaded(io.terminal),
            shown_to: None,
            pause: false,
            clear_screen: false,
            after_end: AfterEnd::Leave,
            at_once: AtOnce::new(),
            ais: Vec::new(),
            ai_turn: 0,
            ai_streak: usize::MAX,
            pacers: Default::default(),
            began: Instant::now(),
            ai_due: None,
            watching: false,
            told: Vec::new(),
        };
        table.sit(seat);
        table
    }

    /// Shows the game from `seat`'s side from now on (none: a spectator's).
    pub(super) fn sit(&mut self, seat: Option<Player>) {
        self.shown_to = seat;
        self.watching = seat.is_none();
        if let Some(seat) = seat {
            self.at_once.hand_to(seat);
        }
        self.at_once.shared = false;
    }

    /// The keyboard, and the clock of simultaneous play (for an online seat).
    pub(super) fn keyboard_and_clock(&mut self) -> (&mut super::keyboard::Keyboard, &mut AtOnce) {
        (&mut self.keyboard, &mut self.at_once)
    }

    /// The screen's colours and names.
    pub(super) fn screen(&mut self) -> &mut Screen {
        &mut self.screen
    }

    /// The commands, as `help` lists them for this game: only those its rules and its board
    /// allow (no `defend` or `preview` without combat, no `spy` without spies, ...), and
    /// `next` in a match of rounds.
    pub(super) fn help(&self, game: &Game) -> String {
        let combat = has_combat(game);
        let table = TABLE_COMMANDS
            .lines()
            .filter(|l| combat || !l.starts_with("preview"))
            .collect::<Vec<_>>()
            .join("\n");
        let next = if in_rounds(game) {
            "\nnext                             start the next round, once a round is over"
        } else {
            ""
        };
        let own = if game.rules().flow.scripted {
            super::table_play::TABLE_GAME_COMMANDS.to_string()
        } else if game.rules().flow.simultaneous {
            format!("{SIMULTANEOUS_COMMANDS}\n{AT_ONCE_COMMANDS}")
        } else {
            turn_commands(game, combat)
        };
        let commands = aligned(&format!("{own}\n{table}{next}"));
        let commands = if game.rules().flow.simultaneous && !self.ais.is_empty() {
            format!("{commands}\n{}", ai_pace_help(game))
        } else {
            commands
        };
        // A scripted game's rules say how it is played, if they do; then how moves are typed.
        match game.mode_help().filter(|_| game.rules().flow.scripted) {
            Some(rules) => format!("{rules}\n\n{commands}\n{CELL_NAMES}"),
            None => format!("{commands}\n{CELL_NAMES}"),
        }
    }

    /// Plays `scripted` until the players leave (see [`Left`]).
    pub(super) fn play(
        &mut self,
        scripted: &mut ScriptedGame,
        live: &LiveFiles,
        io: &mut Streams,
    ) -> anyhow::Result<Left> {
        self.shown_to = None;
        self.write_console(scripted, io)?;
        let mut announced_end = false;
        loop {
            // The rules (reloaded, or a new round's) name and colour the seats.
            self.screen.use_seats_of(scripted.game());
            self.run_clock(scripted, io)?;
            if scripted.game().result().is_some() {
                if !announced_end {
                    self.announce_end(scripted.game(), io)?;
                    announced_end = true;
                }
            } else {
                for notice in live.poll(scripted) {
                    writeln!(io.out, "  {notice}")?;
                }
                self.write_console(scripted, io)?;
                if let Some((seat, action)) = self.ai_action(scripted.game()) {
                    self.play_ai(scripted, seat, action, io)?;
                    continue;
                }
                if !self.hand_over(scripted.game(), io)? {
                    return Ok(Left::Unfinished);
                }
            }
            let prompt = if announced_end {
                ended_prompt(scripted.game()).to_string()
            } else {
                format!("{}> ", self.screen.seat_name(self.actor(scripted.game())))
            };
            let grace = self.at_once.grace_deadline(scripted.game());
            let deadline = [grace, self.ai_due.filter(|_| !announced_end)]
                .into_iter()
                .flatten()
                .min();
            let line = match self.keyboard.read_until(&prompt, deadline, io)? {
                Typed::Line(line) => line,
                Typed::Ended => {
                    writeln!(io.out)?;
                    return Ok(left(announced_end));
                }
                // An AI's time came while a line is typed: it acts (told above the line).
                Typed::TimeUp if !self.at_once.time_is_up(scripted.game()) => continue,
                Typed::TimeUp => {
                    if self.time_up_while_typing(scripted, io)? {
                        continue;
                    }
                    return Ok(left(true));
                }
            };
            // A line that came after the grace period ended is late, however it was typed.
            if !announced_end && self.at_once.time_is_up(scripted.game()) {
                self.run_clock(scripted, io)?;
                writeln!(
                    io.out,
                    "  too late: the grace period ended before that line; it counts for nothing"
                )?;
                continue;
            }
            // A file saved while the player typed is in force before the command runs (not
            // after it: the old handler would answer the command).
            if !announced_end {
                for notice in live.poll_all(scripted) {
                    writeln!(io.out, "  {notice}")?;
                }
                self.write_console(scripted, io)?;
            }
            let command = line.trim();
            // A line typed: the AIs of a simultaneous game may act again.
            self.ai_streak = 0;
            match command.split_whitespace().next().unwrap_or("") {
                "" => {}
                "help" => writeln!(io.out, "{}", self.help(scripted.game()))?,
                "pass" if !announced_end && scripted.game().rules().flow.simultaneous => {
                    let people = self.people(scripted.game());
                    if let Err(e) = self.at_once.pass(scripted.game(), command, &people) {
                        writeln!(io.out, "  {e}")?;
                    }
                }
                "board" => self.write_status(scripted.game(), io)?,
                "moves" if !announced_end && scripted.game().rules().flow.scripted => {
                    let game = scripted.game();
                    writeln!(
                        io.out,
                        "{}",
                        self.screen
                            .render(&super::table_play::moves_text(game, self.actor(game)))
                    )?;
                }
                "quit" => return Ok(left(announced_end)),
                "next" if announced_end && self.goes_on(scripted.game()) => {
                    return Ok(Left::Next);
                }
                "save" => save(scripted, command, io)?,
                "preview" if !announced_end => preview(scripted.game(), command, io)?,
                _ if announced_end => writeln!(io.out, "  {}", self.end_hint(scripted.game()))?,
                _ => self.play_command(scripted, command, io)?,
            }
        }
    }

    /// Whether `next` goes on from the ended `game`: to a campaign's next chapter, or to the
    /// match's next round.
    fn goes_on(&self, game: &Game) -> bool {
        self.after_end == AfterEnd::NextChapter || game.match_goes_on()
    }

    fn end_hint(&self, game: &Game) -> &'static str {
        match self.after_end {
            AfterEnd::Leave if game.match_goes_on() => {
                "the round is over: `next` starts the next round, `board`, `save FILE`, or `quit` stops the match"
            }
            AfterEnd::Leave if game.match_before().is_match() => {
                "the match is over: `board`, `save FILE` or `quit`"
            }
            AfterEnd::Leave => "the game is over: `board`, `save FILE` or `quit`",
            AfterEnd::NextChapter => {
                "the chapter is over: `next` goes on, `board`, `save FILE`, or `quit` stops here"
            }
        }
    }

    fn play_command(
        &mut self,
        scripted: &mut ScriptedGame,
        command: &str,
        io: &mut Streams,
    ) -> anyhow::Result<()> {
        let actor = self.actor(scripted.game());
        if let Some(refusal) = self.acting_for_another(scripted.game(), actor, command) {
            writeln!(io.out, "  refused: {}", self.screen.render(&refusal))?;
            return Ok(());
        }
        let applied = parse_command_as(scripted.game(), actor, command)
            .map_err(|e| e.to_string())
            .and_then(|a| {
                self.at_once.check_typed(scripted.game(), &a)?;
                scripted.apply(a).map_err(|e| e.to_string())
            });
        match applied {
            Ok(events) => {
                self.at_once.note(&events);
                self.tell(scripted, &events, io)?;
                // A secret choice is made move by move: the chooser sees their table grow.
                let game = scripted.game();
                if game.rules().flow.scripted
                    && game.result().is_none()
                    && self.actor(game) == actor
                {
                    self.write_status(game, io)?;
                }
                // At once, the player sees their crossword as it now stands.
                if scripted.game().rules().flow.simultaneous && scripted.game().result().is_none() {
                    self.write_status_at_once(scripted.game(), false, io)?;
                }
            }
            Err(e) => writeln!(io.out, "  refused: {}", self.screen.render(&e))?,
        }
        Ok(())
    }

    /// Why `command` is refused if it names another seat than `actor`'s to act for (`silver
    /// layout ...`, `brown field 1 A1`): the keyboard acts for the seat whose turn or screen it
    /// is, never for another person's seat and never for an AI's.
    fn acting_for_another(&self, game: &Game, actor: Player, command: &str) -> Option<String> {
        let mut words = command.split_whitespace();
        let (first, rest) = (words.next()?, words.next());
        rest?;
        let named = crate::game::SeatNames::of(game.rules()).seat_named(first)?;
        if named == actor || !game.seats().any(|s| s == named) {
            return None;
        }
        Some(if self.ais.iter().any(|(seat, _)| *seat == named) {
            format!("{named} is played by the AI: you act for {actor} only")
        } else {
            format!(
                "{actor} is at the keyboard and acts for {actor} only: {named} acts for themselves (leave out the seat's name)"
            )
        })
    }
}

/// How players leave who type `quit` or end the input.
fn left(ended: bool) -> Left {
    if ended {
        Left::Stopped
    } else {
        Left::Unfinished
    }
}

/// `preview commit H8 across SWORD` (or `preview H8 across SWORD`): the combat preview.
pub(super) fn preview(game: &Game, command: &str, io: &mut Streams) -> anyhow::Result<()> {
    let rest = command.trim_start_matches("preview").trim();
    match super::position::preview(game, rest) {
        Ok(preview) => write!(io.out, "{}", preview.describe())?,
        Err(e) => writeln!(io.out, "  cannot preview: {e}")?,
    }
    Ok(())
}

fn save(game: &ScriptedGame, command: &str, io: &mut Streams) -> anyhow::Result<()> {
    let Some(path) = command.split_whitespace().nth(1) else {
        writeln!(io.out, "  write: save FILE")?;
        return Ok(());
    };
    match game.save().save(Path::new(path)) {
        Ok(()) => writeln!(io.out, "  saved to {path}")?,
        Err(e) => writeln!(io.out, "  cannot save to {path}: {e}")?,
    }
    Ok(())
}

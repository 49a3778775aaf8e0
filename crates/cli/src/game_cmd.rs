//! `scryptic replay SAVE`: a saved game replayed, and where it stands, for people or (with
//! `--json`) for tools: the whole position, every word with its strength explained.

use super::position::Position;
use super::screen::Screen;
use super::{EXIT_PROBLEMS, Streams, print_json};
use crate::board::{Player, Pos};
use crate::game::describe::{describe, describe_match, describe_result};
use crate::game::notation::cell_name;
use crate::game::{Event, Game};
use clap::Args;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// A save file written by `scryptic play` (or the editor).
    save: PathBuf,
    /// A pack (folder, .zip or id) to compare with the one the save records: a note names the
    /// file that changed (the save carries what it used, so it replays as played either way).
    #[arg(long, value_name = "ID|DIR|ZIP")]
    pack: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Show the game and its events as this seat saw them (`silver`, `white`): the others'
    /// racks, draws, hidden values and secret moves stay hidden (and in simultaneous play,
    /// their regions). Without it a replay shows the whole truth, as the save holds it.
    #[arg(long = "as", value_name = "SEAT")]
    as_seat: Option<String>,
    /// Replay scripts the save carries though they are not the files its game was played with
    /// (the save records other hashes for them): only for a save you trust.
    #[arg(long)]
    allow_changed_scripts: bool,
    /// Print every event, however many: a replay of more than 200 shows the first and last
    /// hundred and counts the rest.
    #[arg(long)]
    events: bool,
}

/// How many events a replay prints before it shows only the first and last half of them.
const EVENTS_SHOWN: usize = 200;

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
    /// Terrain, cities, token spots and every word with its strength.
    position: Position,
    events: Vec<String>,
    console: Vec<String>,
    /// A scripted game's table (the truth, or the `--as` seat's view).
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<super::table_report::TableReport>,
}

fn report(game: &Game, events: &[Event]) -> GameReport {
    let players = game
        .seats()
        .map(|p| {
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
                pool: game.pool_letters(p).len(),
                cities: game
                    .board()
                    .cities
                    .iter()
                    .filter(|c| !c.destroyed && c.owner == p.into())
                    .map(|c| c.id.to_string())
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
        position: Position::of(game),
        events: events.iter().map(describe).collect(),
        console: Vec::new(),
        table: super::table_report::TableReport::of(game, None),
    }
}

/// The seat `--as` names, if it names one of a scripted game's seats.
fn replay_viewer(game: &Game, as_seat: Option<&str>) -> Result<Option<Player>, String> {
    let Some(seat) = as_seat else {
        return Ok(None);
    };
    game.seat_called(seat)
        .map(Some)
        .map_err(|e| format!("--as {seat}: {e}"))
}

pub(super) fn replay(args: ReplayArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let how = super::SaveLoading {
        packs: &args.pack,
        allow_changed_scripts: args.allow_changed_scripts,
        partial: true,
    };
    let Some((scripted, events)) = super::load_saved_game_with(&args.save, &how, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let console = console_without_token_messages(scripted.host().drain_console(), &events);
    let game = scripted.game();
    let viewer = match replay_viewer(game, args.as_seat.as_deref()) {
        Ok(viewer) => viewer,
        Err(message) => {
            writeln!(io.err, "error: {message}")?;
            return Ok(super::EXIT_USAGE);
        }
    };
    // As one seat saw it: the events without what was hidden from it.
    let events: Vec<Event> = match viewer {
        Some(_) => events.iter().filter_map(|e| e.shown_to(viewer)).collect(),
        None => events,
    };
    if args.json {
        let mut report = match viewer {
            // Made from the seat's view of the game: what it hides is not there to report.
            Some(_) => {
                let mut report = report(&game.seen_by(viewer), &events);
                report.table = super::table_report::TableReport::of(game, viewer);
                report
            }
            None => report(game, &events),
        };
        report.console = console;
        print_json(io.out, &report)?;
        return Ok(0);
    }
    if let Some(seat) = viewer {
        replay_status_as(game, seat, io)?;
    } else {
        write_status(game, io)?;
    }
    let mut screen = Screen::new(io.terminal);
    screen.use_seats_of(game);
    writeln!(io.out, "events:")?;
    // A long replay shows its first and last half of `EVENTS_SHOWN`, and counts the rest.
    let half = if args.events || events.len() <= EVENTS_SHOWN {
        events.len()
    } else {
        EVENTS_SHOWN / 2
    };
    let tail_from = events.len().saturating_sub(half).max(half);
    for i in (0..half).chain(tail_from..events.len()) {
        if i == tail_from && tail_from > half {
            writeln!(
                io.out,
                "      ... {} not shown (`--events` prints them all)",
                crate::diag::counted(tail_from - half, "event")
            )?;
        }
        writeln!(
            io.out,
            "{:>4}. {}",
            i + 1,
            screen.render(&describe(&events[i]))
        )?;
    }
    if !console.is_empty() {
        writeln!(io.out, "scripts:")?;
        for line in &console {
            writeln!(io.out, "  {line}")?;
        }
    }
    Ok(0)
}

/// The console's lines without the tokens' messages, which a replay tells with their events
/// (each once, in the place it was said).
fn console_without_token_messages(
    console: Vec<crate::script::ConsoleLine>,
    events: &[Event],
) -> Vec<String> {
    let mut told: Vec<&String> = events
        .iter()
        .flat_map(|e| match e {
            Event::TokenInvoked { messages, .. } => messages.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    console
        .into_iter()
        .filter(|line| match line {
            crate::script::ConsoleLine::Message(m) => match told.iter().position(|t| *t == m) {
                Some(i) => {
                    told.remove(i);
                    false
                }
                None => true,
            },
            _ => true,
        })
        .map(|line| line.to_string())
        .collect()
}

/// The game's status as `seat` saw it at the end of the replay: its own rack (every rack once
/// the game is over), and in simultaneous play its own region.
fn replay_status_as(game: &Game, seat: Player, io: &mut Streams) -> anyhow::Result<()> {
    if let Some(result) = game.result() {
        writeln!(io.out, "{}", describe_result(result))?;
    }
    let mut screen = Screen::new(io.terminal);
    screen.use_seats_of(game);
    let over = game.result().is_some();
    let seen = game.seen_by(Some(seat));
    if game.rules().flow.scripted {
        write!(
            io.out,
            "{}",
            super::table_play::status(&screen, &seen, seat, over)
        )?;
        return Ok(());
    }
    if !over {
        writeln!(io.out, "turn {}: {} to play", game.turn(), game.to_act())?;
    }
    for p in game.seats() {
        writeln!(
            io.out,
            "{}",
            screen.player_line(&seen, p, over || p == seat)
        )?;
    }
    let board = if over || !game.rules().flow.simultaneous {
        screen.board(&seen)
    } else {
        screen.board_seen(&seen, game.own_region_bounds(seat))
    };
    write!(io.out, "{}", screen.render(&board))?;
    Ok(())
}

/// The replay's status: the result or whose turn, both players with their racks (a replay
/// hides nothing), and the board.
fn write_status(game: &Game, io: &mut Streams) -> anyhow::Result<()> {
    match game.result() {
        Some(result) => writeln!(io.out, "{}", describe_result(result))?,
        None if game.rules().flow.scripted => {
            let names = game.seat_names();
            let movers: Vec<&str> = game.choosing().into_iter().map(|p| names.name(p)).collect();
            writeln!(
                io.out,
                "move {}: {} to move",
                game.turn(),
                movers.join(" and ")
            )?
        }
        None => writeln!(io.out, "turn {}: {} to play", game.turn(), game.to_act())?,
    }
    // A round of a match says where the match stands (its earlier rounds are in the save).
    if let Some(standing) = describe_match(game) {
        writeln!(io.out, "{standing}")?;
    }
    let mut screen = Screen::new(io.terminal);
    screen.use_seats_of(game);
    if game.rules().flow.scripted {
        let mover = super::table_play::mover(game);
        let truth = super::table_play::status(&screen, game, mover, true);
        write!(io.out, "{truth}")?;
        return Ok(());
    }
    for p in game.seats() {
        writeln!(io.out, "{}", screen.player_line(game, p, true))?;
    }
    write!(io.out, "{}", screen.board(game))?;
    Ok(())
}

#[derive(Args, Debug)]
pub(super) struct PreviewArgs {
    /// A save file written by `scryptic play` (or the editor).
    save: PathBuf,
    /// The commit to preview for the player to act, in play notation
    /// (`commit H8 across SWORD`, or `H8 across SWORD`; quotes are not needed).
    #[arg(required = true, num_args = 1..)]
    action: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `scryptic preview SAVE ACTION`: what a commit would lead to in a saved game.
pub(super) fn preview(args: PreviewArgs, io: &mut Streams) -> anyhow::Result<i32> {
    let Some((scripted, _)) = super::load_saved_game(&args.save, io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    match super::position::preview(scripted.game(), &args.action.join(" ")) {
        Ok(preview) if args.json => print_json(io.out, &preview)?,
        Ok(preview) => write!(io.out, "{}", preview.describe())?,
        Err(e) => {
            writeln!(io.err, "{}: {e}", args.save.display())?;
            return Ok(EXIT_PROBLEMS);
        }
    }
    Ok(0)
}

//! What an online seat's screen shows of the server's frames: the welcome, each view (the
//! game rebuilt from its snapshot and checked whole, then drawn by `play`'s `Table`: what
//! happened, and the status when this seat's side changed or it is its turn), the seats, and
//! refusals.

use super::Streams;
use super::play_cmd::Table;
use crate::board::Player;
use crate::game::{Event, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use scryptic_protocol::{MatchInfo, MatchState, Occupant, ServerFrame, View};
use std::sync::Arc;
use std::time::Duration;

/// The seat's side of the match, as the server tells it.
pub(super) struct Seen {
    pub(super) map: Map,
    pub(super) rules: RuleSet,
    pub(super) seat: Option<Player>,
    pub(super) help: Option<String>,
    pub(super) info: MatchInfo,
    pub(super) game: Option<Game>,
    pub(super) moves: Vec<String>,
    pub(super) actions: u64,
    pub(super) announced_end: bool,
    /// What this seat saw of its own side in the last view (see `own_side`).
    pub(super) side: String,
    /// When the move the server's clock waits on runs out (a match with a move's time).
    pub(super) move_due: Option<std::time::Instant>,
}

/// The seat's status (whose turn, the players, the board), as `board` shows it.
pub(super) fn status(seen: &Seen, table: &mut Table, io: &mut Streams) -> anyhow::Result<()> {
    let Some(game) = &seen.game else {
        return Ok(());
    };
    if game.rules().flow.simultaneous && game.result().is_none() {
        table.write_status_at_once(game, false, io)?;
    } else {
        table.write_status(game, io)?;
    }
    if let Some(due) = seen.move_due {
        let left = due.saturating_duration_since(std::time::Instant::now());
        let whose = if to_act(game, seen.seat) {
            "your move"
        } else {
            "this move"
        };
        let words = scryptic_protocol::time_words(left.as_millis() as u64);
        writeln!(io.out, "  {whose}: {words} left on the server's clock")?;
    }
    Ok(())
}

/// What a frame from the server changes and shows.
pub(super) fn on_frame(
    frame: ServerFrame,
    seen: &mut Option<Seen>,
    table: &mut Table,
    lexicon: &Arc<Lexicon>,
    io: &mut Streams,
) -> anyhow::Result<()> {
    if let Some(welcome) = scryptic_client::Welcome::read(&frame) {
        let scryptic_client::Welcome {
            info: match_info,
            seat,
            map,
            rules,
            help,
            ..
        } = welcome.map_err(|e| anyhow::anyhow!(e))?;
        let names = crate::game::SeatNames::of(&rules);
        if let Some(at) = seen.as_mut() {
            // Connected again: the same match, seen afresh.
            at.info = match_info;
            at.seat = seat;
            at.help = help;
            return Ok(());
        }
        table.sit(seat);
        let who = match seat {
            Some(p) => format!("you play {}", names.name(p)),
            None => "you are watching".to_string(),
        };
        writeln!(
            io.out,
            "{} ({}): {who}. Type `help` for the commands.",
            match_info.title, match_info.mode
        )?;
        writeln!(io.out, "{}", seats_line(&match_info))?;
        *seen = Some(Seen {
            map,
            rules,
            seat,
            help,
            info: match_info,
            game: None,
            moves: Vec::new(),
            actions: 0,
            announced_end: false,
            side: String::new(),
            move_due: None,
        });
        return Ok(());
    }
    match frame {
        ServerFrame::Welcome { .. } => {}
        ServerFrame::View(view) => {
            let Some(at) = seen.as_mut() else {
                anyhow::bail!("the server sent a view before its welcome");
            };
            on_view(*view, at, table, lexicon, io)?;
        }
        ServerFrame::Seats { match_info } => {
            if let Some(at) = seen.as_mut()
                && at.info.seats != match_info.seats
            {
                writeln!(io.out, "  {}", seats_line(&match_info))?;
                if at.info.state == MatchState::Waiting && match_info.state == MatchState::Playing {
                    writeln!(io.out, "  every seat is taken: the match is on")?;
                }
                at.info = match_info;
            }
        }
        ServerFrame::Refused { message } => {
            writeln!(io.out, "  refused: {}", table.screen().render(&message))?;
        }
        ServerFrame::Error { message } => writeln!(io.out, "  the server: {message}")?,
    }
    Ok(())
}

/// Whether `seat` is to act in `game` (in simultaneous play, everyone is, always).
fn to_act(game: &Game, seat: Option<Player>) -> bool {
    let Some(seat) = seat else {
        return false;
    };
    if game.result().is_some() {
        return false;
    }
    if game.rules().flow.simultaneous {
        return true;
    }
    if game.rules().flow.scripted && !game.choosing().is_empty() {
        return game.choosing().contains(&seat);
    }
    game.to_act() == seat
}

/// What `seat` sees of its own side of `game`: in simultaneous play its line (score, rack)
/// and its crossword (the others' change all the time); else the whole status, which only
/// its own actions change while it is to act.
fn own_side(
    game: &Game,
    seat: Option<Player>,
    table: &mut Table,
    terminal: super::TerminalOptions,
) -> String {
    let Some(me) = seat else {
        return String::new();
    };
    if game.rules().flow.simultaneous {
        let line = table.screen().player_line(game, me, true);
        return format!("{line}{:?}", game.laid_letters(me));
    }
    let mut text = Vec::new();
    let mut io = Streams {
        input: &mut std::io::empty(),
        out: &mut text,
        err: &mut std::io::sink(),
        terminal,
    };
    // Written to memory, which cannot fail.
    let _ = table.write_status(game, &mut io);
    String::from_utf8_lossy(&text).into_owned()
}

fn on_view(
    view: View,
    seen: &mut Seen,
    table: &mut Table,
    lexicon: &Arc<Lexicon>,
    io: &mut Streams,
) -> anyhow::Result<()> {
    let game = Game::from_snapshot(
        &seen.map,
        seen.rules.clone(),
        lexicon.clone(),
        view.snapshot,
    )
    .map_err(|e| anyhow::anyhow!("the server sent a view that does not fit its match: {e}"))?;
    // The rules name and colour the seats.
    table.screen().use_seats_of(&game);
    let first = seen.game.is_none();
    // Whether this seat's side changed: its own action's view is told by what it changed,
    // whoever's views came between.
    let side = own_side(&game, seen.seat, table, io.terminal);
    let mine_changed = seen.game.is_some() && side != seen.side;
    seen.side = side;
    let was_to_act = seen.game.as_ref().is_some_and(|g| to_act(g, seen.seat));
    if view.events_dropped > 0 {
        writeln!(
            io.out,
            "  ({} earlier actions not shown)",
            view.events_dropped
        )?;
    }
    let simultaneous = game.rules().flow.simultaneous;
    let (_, clock) = table.keyboard_and_clock();
    clock.note(&view.events);
    if let Some(left) = view.grace_left_ms {
        clock.grace_left_is(&game, Duration::from_millis(left));
    }
    for line in table.told_lines(&view.events) {
        writeln!(io.out, "  {line}")?;
    }
    for line in &view.console {
        writeln!(io.out, "  {line}")?;
    }
    seen.moves = view.moves;
    seen.actions = view.actions;
    seen.move_due = view
        .move_left_ms
        .map(|left| std::time::Instant::now() + Duration::from_millis(left));
    let now_to_act = to_act(&game, seen.seat);
    let signal = view.events.iter().any(|e| {
        matches!(
            e,
            Event::GreenLight { .. } | Event::RedLight { .. } | Event::Drew { .. }
        )
    });
    seen.game = Some(game);
    let over = seen.game.as_ref().is_some_and(|g| g.result().is_some());
    if over {
        if !seen.announced_end {
            seen.announced_end = true;
            if let Some(g) = &seen.game {
                table.announce_end(g, io)?;
            }
        }
        return Ok(());
    }
    if seen.announced_end {
        // A new round began.
        seen.announced_end = false;
        writeln!(io.out, "the next round has begun")?;
        return status(seen, table, io);
    }
    let show = if simultaneous {
        first || mine_changed || signal
    } else {
        first || (now_to_act && (!was_to_act || mine_changed))
    };
    if show {
        status(seen, table, io)?;
    }
    if first && seen.info.state == MatchState::Waiting {
        writeln!(io.out, "{}", waiting_line(&seen.info))?;
    }
    Ok(())
}

/// Who the match waits for.
fn waiting_line(info: &MatchInfo) -> String {
    let open: Vec<&str> = info
        .seats
        .iter()
        .filter(|s| s.occupant == Occupant::Open)
        .map(|s| s.seat.as_str())
        .collect();
    format!(
        "the match begins once every seat is taken: waiting for {}",
        open.join(", ")
    )
}

pub(super) fn seats_line(info: &MatchInfo) -> String {
    let seats: Vec<String> = info
        .seats
        .iter()
        .map(|s| match &s.occupant {
            Occupant::Open => format!("{} open", s.seat),
            Occupant::Person { name, connected } => {
                let away = if *connected { "" } else { ", away" };
                format!("{} {name}{away}", s.seat)
            }
            Occupant::Ai { level } => format!("{} AI ({level})", s.seat),
        })
        .collect();
    format!("seats: {}", seats.join("; "))
}

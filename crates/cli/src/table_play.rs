//! A scripted game at one keyboard (Scryper): whoever moves holds the keyboard and sees the
//! table as they may, their own values and what has been shown; in a secret choice each
//! player makes theirs in turn, seeing only their own, and the keyboard passes between them.

use super::screen::Screen;
use crate::board::Player;
use crate::game::Game;

/// The commands of a scripted game, for `help`.
pub(super) const TABLE_GAME_COMMANDS: &str = crate::game::MOVE_COMMANDS;

/// Who moves now, for the prompt and the keyboard: the first seat whose move it is.
pub(super) fn mover(game: &Game) -> Player {
    game.choosing().first().copied().unwrap_or(game.to_act())
}

/// What `viewer` sees: who moves, the rules' variables, every player's pits (the values they
/// may see), and the board.
pub(super) fn status(screen: &Screen, game: &Game, viewer: Player, over: bool) -> String {
    let table = if over {
        game.table().clone()
    } else {
        game.table_for(Some(viewer))
    };
    let mut out = String::new();
    if !over {
        out.push_str(&screen.render(&to_move_line(game, viewer)));
        out.push('\n');
    }
    // The rules' variables say where a game in play stands (its set, who starts it); once it
    // is over they would tell of a set that never comes.
    if let Some(vars) = table.vars_text().filter(|_| !over) {
        out.push_str(&screen.render(&vars));
        out.push('\n');
    }
    for p in game.seats() {
        out.push_str(&format!("{}: {}\n", screen.seat(p), table.pieces_text(p)));
    }
    out.push_str(&screen.table_board(game, &table));
    out
}

fn to_move_line(game: &Game, viewer: Player) -> String {
    let choosing = game.choosing();
    if game.table().secret() {
        let others: Vec<String> = choosing
            .iter()
            .filter(|&&p| p != viewer)
            .map(|p| p.to_string())
            .collect();
        // "As", not "then": online they choose at the same time.
        let then = match others.len() {
            0 => String::new(),
            1 => format!(", as {} does", others[0]),
            _ => format!(", as {} do", others.join(" and ")),
        };
        return format!(
            "move {}: {viewer} chooses in secret{then} (no one else sees your choices until all are made)",
            game.turn()
        );
    }
    format!("move {}: {viewer} to move", game.turn())
}

/// `moves`: the legal moves of the player at the keyboard.
pub(super) fn moves_text(game: &Game, player: Player) -> String {
    match game.legal_moves(player) {
        Ok(moves) if moves.is_empty() => format!("  {player} has no move now"),
        Ok(moves) => format!("  {}", moves.join(", ")),
        Err(e) => format!("  {e}"),
    }
}

/// A piece leaving the board for a pit, perhaps shown as it goes: told together with the
/// others of a run like it.
struct Retired {
    owner: Player,
    kind: String,
    cell: crate::board::Pos,
    pit: String,
    /// The value shown as it went (`Some(None)`: shown, to someone else), and to whom.
    shown: Option<(Option<i64>, crate::game::SeatSet)>,
}

/// A piece coming out of a pit onto the board (a brick fielded): told together with the others
/// of a run like it.
struct Fielded {
    owner: Player,
    kind: String,
    pit: String,
    cell: crate::board::Pos,
}

/// What a run of events tells: pieces retired alike, pieces fielded alike, or a line.
enum Told {
    Retired(Retired),
    Fielded(Fielded),
    Line(String),
}

/// The lines that tell `events` (as the screen's reader may see them): a piece that goes to a
/// pit and is shown there is one line, a run of pieces that do so alike is one line
/// (`white's bricks on B3, D3 and F7 go to the used pit, shown to white and brown: a 2, a 3
/// and a 1`), so is a run of pieces coming out of one pit (`brown's bricks go from the
/// available pit to A1, B1 and C1`), and a line repeated one after another is written once
/// with a count.
pub(super) fn told_lines(events: &[crate::game::Event]) -> Vec<String> {
    let items = told_items(events);
    let mut lines: Vec<String> = Vec::new();
    let mut at = 0;
    while at < items.len() {
        let line = match &items[at] {
            Told::Line(line) => {
                at += 1;
                line.clone()
            }
            Told::Retired(first) => {
                let alike = items[at..]
                    .iter()
                    .map_while(|i| match i {
                        Told::Retired(r)
                            if r.owner == first.owner
                                && r.kind == first.kind
                                && r.pit == first.pit
                                && r.shown.map(|s| s.1) == first.shown.map(|s| s.1) =>
                        {
                            Some(r)
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>();
                at += alike.len();
                retired_line(&alike)
            }
            Told::Fielded(first) => {
                let alike = items[at..]
                    .iter()
                    .map_while(|i| match i {
                        Told::Fielded(f)
                            if f.owner == first.owner
                                && f.kind == first.kind
                                && f.pit == first.pit =>
                        {
                            Some(f)
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>();
                at += alike.len();
                fielded_line(&alike)
            }
        };
        match lines.last_mut() {
            Some(last) if strip_count(last) == line => *last = counted(&line, last),
            _ => lines.push(line),
        }
    }
    lines
}

/// `events` as what they tell, each piece retired with the showing of its value that follows.
fn told_items(events: &[crate::game::Event]) -> Vec<Told> {
    use crate::game::{Event, Place};
    let mut items = Vec::new();
    let mut rest = events.iter().peekable();
    while let Some(event) = rest.next() {
        let item = match event {
            Event::PieceMoved {
                piece,
                owner,
                kind,
                from: Place::Cell(cell),
                to: Place::Pit(pit),
            } => {
                let shown = match rest.peek() {
                    Some(Event::PieceShown {
                        piece: p,
                        value,
                        to,
                        ..
                    }) if p == piece => {
                        let shown = Some((*value, *to));
                        rest.next();
                        shown
                    }
                    _ => None,
                };
                Told::Retired(Retired {
                    owner: *owner,
                    kind: kind.clone(),
                    cell: *cell,
                    pit: pit.clone(),
                    shown,
                })
            }
            Event::PieceMoved {
                owner,
                kind,
                from: Place::Pit(pit),
                to: Place::Cell(cell),
                ..
            } if !pit.is_empty() => Told::Fielded(Fielded {
                owner: *owner,
                kind: kind.clone(),
                pit: pit.clone(),
                cell: *cell,
            }),
            _ => Told::Line(crate::game::describe::describe(event)),
        };
        items.push(item);
    }
    items
}

/// One line for a run of pieces alike coming out of a pit onto the board.
fn fielded_line(run: &[&Fielded]) -> String {
    let first = run[0];
    let (pieces, go) = whose_pieces(first.owner, &first.kind, run.len());
    let cells: Vec<crate::board::Pos> = run.iter().map(|f| f.cell).collect();
    format!(
        "{pieces} {go} from the {} pit to {}",
        first.pit,
        cells_list(&cells)
    )
}

/// `owner`'s `count` pieces of `kind` and the verb they go with (`white's brick`, `goes`;
/// `white's bricks`, `go`).
fn whose_pieces(owner: Player, kind: &str, count: usize) -> (String, &'static str) {
    if count == 1 {
        (format!("{owner}'s {kind}"), "goes")
    } else {
        (format!("{owner}'s {kind}s"), "go")
    }
}

/// Cells by name: `A1`, `A1 and B2`, `A1, B2 and C3`.
fn cells_list(cells: &[crate::board::Pos]) -> String {
    let names: Vec<String> = cells
        .iter()
        .map(|&c| crate::game::notation::cell_name(c))
        .collect();
    and_list(&names)
}

/// One line for a run of pieces alike going to a pit.
fn retired_line(run: &[&Retired]) -> String {
    let first = run[0];
    let (pieces, go) = whose_pieces(first.owner, &first.kind, run.len());
    let cells: Vec<crate::board::Pos> = run.iter().map(|r| r.cell).collect();
    let mut line = format!(
        "{pieces} on {} {go} to the {} pit",
        cells_list(&cells),
        first.pit
    );
    if let Some((_, to)) = first.shown {
        let seats: Vec<String> = to.seats().map(|p| p.to_string()).collect();
        line.push_str(&format!(", shown to {}", seats.join(" and ")));
        let values: Option<Vec<String>> = run
            .iter()
            .map(|r| {
                r.shown
                    .and_then(|s| s.0)
                    .map(crate::game::table_words::a_value)
            })
            .collect();
        if let Some(values) = values {
            line.push_str(&format!(": {}", and_list(&values)));
        }
    }
    line
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A told line without the count `counted` gave it.
fn strip_count(line: &str) -> &str {
    match line.rsplit_once(" (") {
        Some((text, count)) if count.ends_with(" times)") => text,
        _ => line,
    }
}

/// `line` once more than `last` (the same line, perhaps with a count) says.
fn counted(line: &str, last: &str) -> String {
    let times = match last.rsplit_once(" (") {
        Some((_, count)) => count
            .trim_end_matches(" times)")
            .parse::<usize>()
            .unwrap_or(1),
        None => 1,
    };
    format!("{line} ({} times)", times + 1)
}

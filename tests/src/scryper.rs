//! Scryper's baseline players, for measuring the AI: a random legal player, and the greedy
//! player of issue 25 (always attack a brick it knows to be weaker, else advance), which
//! reads the table only as its seat sees it.

use rand::RngExt;
use scryptic::board::{Player, Pos};
use scryptic::game::notation::parse_cell;
use scryptic::game::{Action, Game, Table};

/// Who attacking `attack` against `defence` wins (SC-7): a 1 beats a 4, equal values the
/// attacker, else the higher.
fn attacker_wins(attack: i64, defence: i64) -> bool {
    match (attack, defence) {
        (1, 4) => true,
        (4, 1) => false,
        _ => attack >= defence,
    }
}

fn cells(mv: &str, sep: char) -> Option<(Pos, Pos)> {
    let (from, to) = mv.split_once(sep)?;
    Some((parse_cell(from).ok()?, parse_cell(to).ok()?))
}

fn value_at(view: &Table, at: Pos) -> Option<i64> {
    view.piece_at(at)
        .and_then(|id| view.piece(id))
        .and_then(|p| p.value)
}

/// The greedy player's move for whoever moves in `game`.
pub fn greedy_move(game: &Game, rng: &mut rand_chacha::ChaCha8Rng) -> Option<Action> {
    let player = *game.choosing().first()?;
    let moves = game.legal_moves(player).ok()?;
    let view = game.table_for(Some(player));
    let pick = |mv: &str| {
        Some(Action::Move {
            player,
            mv: mv.to_string(),
        })
    };
    if view.secret() {
        // Its set-up: its three highest bricks, then ready.
        let fielded = view
            .pieces()
            .iter()
            .filter(|p| p.owner == player && matches!(p.place, scryptic::game::Place::Cell(_)))
            .count();
        let best = moves
            .iter()
            .filter(|m| m.starts_with("field"))
            .max_by_key(|m| m.as_bytes()[6]);
        return match best {
            Some(mv) if fielded < 3 => pick(mv),
            _ => pick(moves.iter().find(|m| *m == "ready").unwrap_or(&moves[0])),
        };
    }
    let attack = moves.iter().find(|mv| {
        cells(mv, 'x').is_some_and(|(from, to)| {
            match (value_at(&view, from), value_at(&view, to)) {
                (Some(mine), Some(theirs)) => attacker_wins(mine, theirs),
                _ => false,
            }
        })
    });
    if let Some(mv) = attack {
        return pick(mv);
    }
    // Advance: the move that gains the most rows towards the far line (any plain move).
    let forward = |to: Pos, from: Pos| -> i64 {
        let gain = i64::from(from.y) - i64::from(to.y);
        if player == Player::Gold { gain } else { -gain }
    };
    let advance = moves
        .iter()
        .filter_map(|mv| cells(mv, '-').map(|(from, to)| (forward(to, from), mv)))
        .filter(|(gain, _)| *gain > 0)
        .max_by_key(|(gain, _)| *gain);
    match advance {
        Some((_, mv)) => pick(mv),
        None => pick(&moves[rng.random_range(0..moves.len())]),
    }
}

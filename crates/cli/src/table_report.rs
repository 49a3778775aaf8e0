//! A scripted game's table as JSON for tools (`replay --json`): every piece with its owner,
//! kind, value and place, the rules' variables, who moves and their legal moves; the truth, or
//! one seat's view (`--as SEAT`), where every value hidden from it is null.

use super::position::Cell;
use crate::board::Player;
use crate::game::{Game, Place, Table, Var};
use serde::Serialize;
use std::collections::BTreeMap;

/// One piece.
#[derive(Debug, Serialize)]
struct PieceReport {
    /// Its id, as the scripts and the save know it.
    id: usize,
    /// Whose it is (the engine's word for the seat) and the name the mode gives that seat.
    owner: Player,
    owner_name: String,
    kind: String,
    /// Its value; null when it has none or it is hidden from the viewer.
    value: Option<i64>,
    /// Whether it has a value the viewer may not see.
    hidden: bool,
    /// On a cell, or null.
    cell: Option<Cell>,
    /// In its owner's pit of this name, or null.
    pit: Option<String>,
}

/// One seat's legal moves.
#[derive(Debug, Serialize)]
struct MovesReport {
    player: Player,
    moves: Vec<String>,
}

/// The table.
#[derive(Debug, Serialize)]
pub(super) struct TableReport {
    /// The seat whose view this is (its mode name), or null for the truth.
    viewer: Option<String>,
    pieces: Vec<PieceReport>,
    vars: BTreeMap<String, serde_json::Value>,
    /// The seats whose move it is.
    to_move: Vec<Player>,
    /// Whether they choose in secret (each one's moves seen only by them until all are made).
    secret: bool,
    /// The legal moves of each seat to move (only the viewer's, in a seat's view).
    moves: Vec<MovesReport>,
}

impl TableReport {
    /// `game`'s table as `viewer` sees it (`None`: the truth), if its game is scripted.
    pub(super) fn of(game: &Game, viewer: Option<Player>) -> Option<TableReport> {
        if !game.has_game_mode() {
            return None;
        }
        let table = match viewer {
            Some(_) => game.table_for(viewer),
            None => game.table().clone(),
        };
        let names = game.seat_names();
        let to_move = game.choosing();
        let moves = to_move
            .iter()
            .filter(|&&p| viewer.is_none_or(|v| v == p))
            .map(|&p| MovesReport {
                player: p,
                moves: game.legal_moves(p).unwrap_or_default(),
            })
            .collect();
        Some(TableReport {
            viewer: viewer.map(|p| names.name(p).to_string()),
            pieces: pieces(&table, &names),
            vars: vars(&table),
            to_move,
            secret: table.secret(),
            moves,
        })
    }
}

fn pieces(table: &Table, names: &crate::game::SeatNames) -> Vec<PieceReport> {
    table
        .pieces()
        .iter()
        .enumerate()
        .map(|(id, p)| {
            let (cell, pit) = match &p.place {
                Place::Cell(at) => (Some(Cell::from(*at)), None),
                Place::Pit(name) => (None, Some(name.clone())),
            };
            PieceReport {
                id,
                owner: p.owner,
                owner_name: names.name(p.owner).to_string(),
                kind: p.kind.to_string(),
                value: p.value,
                hidden: p.hidden,
                cell,
                pit,
            }
        })
        .collect()
}

/// The variables as plain JSON values (`3`, `"white"`, `true`).
fn vars(table: &Table) -> BTreeMap<String, serde_json::Value> {
    table
        .vars()
        .iter()
        .map(|(name, var)| {
            let value = match var {
                Var::Int(i) => serde_json::Value::from(*i),
                Var::Text(t) => serde_json::Value::from(t.as_str()),
                Var::Bool(b) => serde_json::Value::from(*b),
            };
            (name.clone(), value)
        })
        .collect()
}

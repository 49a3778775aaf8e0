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
    if let Some(vars) = table.vars_text() {
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
        let then = if others.is_empty() {
            String::new()
        } else {
            format!(", then {}", others.join(" and "))
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

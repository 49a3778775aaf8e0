//! How good a position is for a player, and trying an action on a copy of the game to see.

use crate::board::{Owner, Player};
use crate::game::{Action, Game, opponent};

/// A position's worth for `player`: the score lead, plus the cities held on each side (each
/// worth what capturing it from the opponent would bring), and the result once the game ends.
pub fn value(game: &Game, player: Player) -> f64 {
    let enemy = opponent(player);
    if let Some(result) = game.result() {
        let decided = match result.winner {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        return decided * 1e6 + lead(game, player, enemy);
    }
    lead(game, player, enemy)
}

fn lead(game: &Game, player: Player, enemy: Player) -> f64 {
    let score = game.score(player).total - game.score(enemy).total;
    let city_worth = game.rules().capture.city_capture_bonus.max(1) as f64;
    let cities = |p: Player| {
        game.board()
            .cities
            .iter()
            .filter(|c| !c.destroyed && c.owner == Owner::from(p))
            .count() as f64
    };
    score as f64 + city_worth * (cities(player) - cities(enemy))
}

/// The game after `action` and, if a combat then waits for the defender, after the engine's
/// own choice of defence order; `None` if the action is refused.
pub fn after(game: &Game, action: Action) -> Option<Game> {
    let mut next = game.clone();
    next.apply(action).ok()?;
    if next.to_act() != next.active() && next.result().is_none() {
        next.apply(Action::Defend { order: None }).ok()?;
    }
    Some(next)
}

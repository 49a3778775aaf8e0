//! The spy (RULES.md section 3): the strongest placement for the rack, by attack strength and
//! then face value.

use super::movegen::{Move, MoveGen};
use crate::board::Player;
use crate::game::strength::{Role, WordFacts, strength};
use crate::game::{Advisor, Game, Placement};
use std::sync::Mutex;

/// The engine's advisor for `Action::Spy`.
#[derive(Default)]
pub struct Spy {
    generator: Mutex<MoveGen>,
}

impl Advisor for Spy {
    fn strongest_placement(&self, game: &Game) -> Option<Vec<Placement>> {
        let mut generator = match self.generator.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let player = game.active();
        strongest(&mut generator, game, player, &game.rack_letters(player)).map(|m| m.placements())
    }
}

/// The strongest placement of `rack` for `player`: highest attack strength, then face value,
/// then the first found. Placements are tried from the highest face value down, and the
/// search stops once no placement left could be stronger than the best found.
pub fn strongest(generator: &mut MoveGen, game: &Game, player: Player, rack: &str) -> Option<Move> {
    let mut moves: Vec<(i64, Move)> = Vec::new();
    generator.generate(game, player, rack, &mut |m| moves.push((m.face(), *m)));
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    let bound = strongest_factor(game);
    let mut best: Option<(i64, i64, Move)> = None;
    for (face, m) in moves {
        if let Some((strength, _, _)) = best
            && bound.is_some_and(|f| (face as f64 * f).ceil() < strength as f64)
        {
            break;
        }
        let Ok(attack) = game.attack_strength(&m.placements()) else {
            continue;
        };
        if best.is_none_or(|(s, f, _)| (attack.value, face) > (s, f)) {
            best = Some((attack.value, face, m));
        }
    }
    best.map(|(_, _, m)| m)
}

/// The most a word's attack strength can be per point of face value under the rules (every
/// letter on a mountain, every strengthening connotation), worked out by the engine's own
/// strength function; `None` when scripts add modifiers, which cannot be bounded.
fn strongest_factor(game: &Game) -> Option<f64> {
    if game.has_strength_modifiers() {
        return None;
    }
    const FACE: i64 = 1_000_000;
    let connotations = game
        .rules()
        .strength
        .connotations
        .iter()
        .filter(|(_, c)| c.attack > 1.0)
        .map(|(name, _)| name.clone())
        .collect();
    let facts = WordFacts {
        letters: vec![(FACE, true)],
        connotations,
        ..WordFacts::default()
    };
    Some(strength(game.rules(), &facts, Role::Attack).value as f64 / FACE as f64 + 1e-9)
}

//! The spy (RULES.md section 3): the strongest placement for the rack, by attack strength and
//! then face value.
//!
//! A branch-and-bound search over the move generator. Only a word with a connotation can take
//! a connotation's multiplier, and those words are few, so they are searched first on their
//! own graph (with every strengthening multiplier in the bound); the whole dictionary is then
//! searched with a bound that leaves connotations out, which cuts almost every branch once a
//! strong placement is known.

use super::movegen::{Floor, Move, MoveGen};
use crate::board::Player;
use crate::game::{Advisor, Game, Placement};
use crate::rules::{Mountain, RuleSet};
use std::cell::Cell;
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

/// The strongest placement of `rack` (which need not be the player's own rack) for `player`:
/// highest attack strength, then face value, then the first found.
pub fn strongest(generator: &mut MoveGen, game: &Game, player: Player, rack: &str) -> Option<Move> {
    let mut best = Best::default();
    let Some(bound) = StrengthBound::of(game) else {
        // Scripts' strength modifiers cannot be bounded: every placement is weighed.
        generator.generate(game, player, rack, &mut |m| {
            best.consider(game, player, m);
        });
        return best.found.map(|(_, _, m)| m);
    };
    generator.prepare(game, player, rack);
    let floor = bound.open_floor();
    let lexicon = game.lexicon();
    let connoted = lexicon.connoted_graph(&bound.strengthening);
    for (graph, with_connotations) in [(&*connoted, true), (lexicon.graph(), false)] {
        let least = |best: &Best| bound.least_base(best.found.as_ref(), with_connotations);
        floor.least.set(least(&best));
        generator.search(game, graph, Some(&floor), &mut |m| {
            if best.consider(game, player, m) {
                floor.least.set(least(&best));
            }
        });
    }
    best.found.map(|(_, _, m)| m)
}

/// The strongest placement so far: its attack strength, face value and move.
#[derive(Default)]
struct Best {
    found: Option<(i64, i64, Move)>,
}

impl Best {
    /// Weighs `m`; whether it is the new best.
    fn consider(&mut self, game: &Game, player: Player, m: &Move) -> bool {
        let attack = game.word_attack_strength(player, m.key(), m.word()).value;
        let better = self
            .found
            .is_none_or(|(s, f, _)| (attack, m.face()) > (s, f));
        if better {
            self.found = Some((attack, m.face(), *m));
        }
        better
    }
}

/// The most attack strength a word can have under the rules for its strength before
/// multipliers (RULES.md section 5: mountains first, then multipliers, rounded down, then
/// additions): what the spy's floor is worked out from.
struct StrengthBound<'a> {
    rules: &'a RuleSet,
    /// The connotations whose attack multiplier is above 1.
    strengthening: Vec<&'a str>,
}

impl<'a> StrengthBound<'a> {
    /// `None` when scripts add strength modifiers, which cannot be bounded.
    fn of(game: &'a Game) -> Option<StrengthBound<'a>> {
        if game.has_strength_modifiers() {
            return None;
        }
        let rules = game.rules();
        let strengthening = rules
            .strength
            .connotations
            .iter()
            .filter(|(_, c)| c.attack > 1.0)
            .map(|(name, _)| name.as_str())
            .collect();
        Some(StrengthBound {
            rules,
            strengthening,
        })
    }

    /// A floor that lets everything through, with the rule set's mountain weights.
    fn open_floor(&self) -> Floor {
        let (letter, word) = match self.rules.strength.mountain {
            Mountain::PerLetter { factor } => (factor.max(1.0), 1.0),
            Mountain::WordAverage { mountain_weight } => (1.0, mountain_weight.max(1.0)),
        };
        Floor {
            least: Cell::new(f64::NEG_INFINITY),
            letter_on_mountain: letter,
            word_on_mountain: word,
        }
    }

    /// The least strength before multipliers with which a word could reach `best`'s attack
    /// (a tie may still win on face value), with or without every strengthening connotation.
    /// Water is tried both ways, since a rule set may reward it.
    fn least_base(&self, best: Option<&(i64, i64, Move)>, with_connotations: bool) -> f64 {
        let Some(&(attack, _, _)) = best else {
            return f64::NEG_INFINITY;
        };
        if attack <= 0 {
            // Strength is never below 0, so every word ties.
            return f64::NEG_INFINITY;
        }
        let s = &self.rules.strength;
        let connotations: f64 = if with_connotations {
            self.strengthening
                .iter()
                .filter_map(|name| s.connotations.get(*name))
                .map(|c| c.attack)
                .product()
        } else {
            1.0
        };
        let dry = (connotations, 0);
        let wet = (connotations * s.water_attack_multiplier, -s.water_penalty);
        [dry, wet]
            .into_iter()
            .map(|(multiplier, added)| {
                let needed = (attack - added) as f64;
                if needed <= 0.0 {
                    f64::NEG_INFINITY
                } else if multiplier > 0.0 {
                    needed / multiplier
                } else {
                    f64::INFINITY
                }
            })
            .fold(f64::INFINITY, f64::min)
    }
}

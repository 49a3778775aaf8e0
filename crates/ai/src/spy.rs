//! The spy (docs/RULES.md section 3): the strongest placement for the rack, by attack strength and
//! then face value.
//!
//! A branch-and-bound search over the move generator. Only a word with a connotation can take
//! a connotation's multiplier, and those words are few, so they are searched first on their
//! own graph (with every strengthening multiplier in the bound); the whole dictionary is then
//! searched with a bound that leaves connotations out, which cuts almost every branch once a
//! strong placement is known. A placement that could only tie the best found on attack
//! strength must bring more face value, so the many placements of equal strength (every
//! anagram of a rack on an empty board) are cut, not weighed.

use super::movegen::{Floor, Move, MoveGen};
use crate::board::Player;
use crate::game::strength::{Role, WordFacts, least_base_reaching};
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
    strongest_through(generator, game, player, rack, Graphs::Gaddag)
}

/// [`strongest`] searched through the words' graphs, as it is for a word list too large for a
/// GADDAG (`Lexicon::gaddag`): the same strength, perhaps another placement among equals.
/// Public so that the tests hold both searches to weighing every placement.
pub fn strongest_through_words_graph(
    generator: &mut MoveGen,
    game: &Game,
    player: Player,
    rack: &str,
) -> Option<Move> {
    strongest_through(generator, game, player, rack, Graphs::Words)
}

/// Which graphs the spy's search walks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Graphs {
    /// The GADDAGs, where the lexicon has one.
    Gaddag,
    /// The words' graphs.
    Words,
}

fn strongest_through(
    generator: &mut MoveGen,
    game: &Game,
    player: Player,
    rack: &str,
    graphs: Graphs,
) -> Option<Move> {
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
    let least = |best: &Best, with_connotations| {
        bound.least_base(best.attack_and_face(), with_connotations)
    };
    let consider = |m: &Move, best: &mut Best, with_connotations: bool| {
        if best.consider(game, player, m) {
            floor.least.set(least(best, with_connotations));
        }
    };
    let Some(gaddag) = lexicon.gaddag().filter(|_| graphs == Graphs::Gaddag) else {
        // A word list too large for a GADDAG: the same search through the words' graphs.
        let connoted = lexicon.connoted_graph(&bound.strengthening);
        for (graph, with_connotations) in [(&*connoted, true), (lexicon.graph(), false)] {
            floor.least.set(least(&best, with_connotations));
            generator.search(game, graph, Some(&floor), &mut |m| {
                consider(m, &mut best, with_connotations)
            });
        }
        return best.found.map(|(_, _, m)| m);
    };
    let connoted = lexicon.connoted_gaddag(&bound.strengthening);
    floor.least.set(least(&best, true));
    generator.search_gaddag(game, &connoted, &floor, None, &mut |m| {
        consider(m, &mut best, true)
    });
    // Aspiration: the whole dictionary searched first for a stronger attack than the
    // connotations' best, which finds it without weighing the many placements that only
    // equal that attack; given up after a few steps if there is none.
    if let Some((attack, _)) = best.attack_and_face() {
        floor
            .least
            .set(bound.least_reaching_attack(attack.saturating_add(1), false));
        let complete =
            generator.search_gaddag(game, gaddag, &floor, Some(ASPIRATION_STEPS), &mut |m| {
                consider(m, &mut best, false)
            });
        if complete && best.attack_and_face().is_some_and(|(a, _)| a > attack) {
            return best.found.map(|(_, _, m)| m);
        }
    }
    floor.least.set(least(&best, false));
    generator.search_gaddag(game, gaddag, &floor, None, &mut |m| {
        consider(m, &mut best, false)
    });
    best.found.map(|(_, _, m)| m)
}

/// How many steps the aspiration search may take without finding a stronger attack before it
/// gives up (see [`strongest`]): enough to find DATARIES on the small mid-game golden position,
/// little beside a big board's search (on the 64x64 golden position, whose connotations' best
/// is the best, giving up costs 1.4%; PERFORMANCE.md).
const ASPIRATION_STEPS: u64 = 1000;

/// The strongest placement so far: its attack strength, face value and move.
#[derive(Default)]
struct Best {
    found: Option<(i64, i64, Move)>,
}

impl Best {
    /// The best's attack strength and face value.
    fn attack_and_face(&self) -> Option<(i64, i64)> {
        self.found.map(|(attack, face, _)| (attack, face))
    }

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

/// What the spy's floor is worked out from: how mountains can weigh a word, and the most
/// attack strength a word can have for its strength before multipliers.
struct StrengthBound<'a> {
    rules: &'a RuleSet,
    /// The connotations whose attack multiplier is above 1.
    strengthening: Vec<&'a str>,
    /// The words a bound is worked out for: without connotations, then with every
    /// strengthening one; each off water and on it.
    words: [[WordFacts; 2]; 2],
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
        Some(StrengthBound::new(rules, strengthening))
    }

    fn new(rules: &'a RuleSet, strengthening: Vec<&'a str>) -> StrengthBound<'a> {
        let word = |connotations: &[&str], on_water| WordFacts {
            connotations: connotations.iter().map(|c| c.to_string()).collect(),
            on_water,
            ..WordFacts::default()
        };
        let words = [
            [word(&[], false), word(&[], true)],
            [word(&strengthening, false), word(&strengthening, true)],
        ];
        StrengthBound {
            rules,
            strengthening,
            words,
        }
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

    /// The least strength before multipliers with which a word could beat `best`: a higher
    /// attack, or the same attack with a higher face value, with or without every
    /// strengthening connotation, by the engine's own strength function. The search's bound
    /// on a word's strength before multipliers is never below its face value (it weighs a
    /// letter on a mountain at one or more), so a word that can only tie on attack must reach
    /// `best`'s face value and one more; ties on both are never searched (the first found
    /// stays the strongest).
    fn least_base(&self, best: Option<(i64, i64)>, with_connotations: bool) -> f64 {
        let Some((attack, face)) = best else {
            return f64::NEG_INFINITY;
        };
        let stronger = self.least_reaching_attack(attack.saturating_add(1), with_connotations);
        let as_strong = self.least_reaching_attack(attack, with_connotations);
        let more_face = just_below(face.saturating_add(1) as f64);
        stronger.min(as_strong.max(more_face))
    }

    /// The least strength before multipliers with which a word reaches `attack`, by the
    /// engine's own strength function: water tried both ways, since a rule set may reward it.
    fn least_reaching_attack(&self, attack: i64, with_connotations: bool) -> f64 {
        self.words[usize::from(with_connotations)]
            .iter()
            .map(|facts| least_base_reaching(self.rules, facts, Role::Attack, attack))
            .fold(f64::INFINITY, f64::min)
    }
}

/// A value just below `x`: a bound that lets a little more through is still a bound.
fn just_below(x: f64) -> f64 {
    x - 1e-6
}

#[cfg(test)]
mod tests {
    use super::StrengthBound;
    use crate::rules::RuleSet;

    /// Table: the least strength before multipliers a word must reach to beat the best found
    /// (classic, plain words: strength is the face value): a higher attack, or the same attack
    /// with more face value; nothing found yet lets everything through.
    #[test]
    fn the_floor_lets_through_only_what_can_beat_the_best() {
        let rules = RuleSet::preset("classic").unwrap();
        let bound = StrengthBound::new(&rules, Vec::new());
        let cases = [
            (None, f64::NEG_INFINITY),
            // As strong as 7 needs a face of 8, which is also stronger.
            (Some((7, 7)), 8.0),
            // A face of 7 made 10 by a multiplier: any plain word needs 10 to tie, with
            // more face value than 7, which 10 already has.
            (Some((10, 7)), 10.0),
        ];
        for (best, floor) in cases {
            let least = bound.least_base(best, false);
            let just_below = least <= floor && least > floor - 1e-3;
            assert!(
                just_below || least == floor,
                "{best:?}: {least} (expected just below {floor})"
            );
        }
    }
}

//! How good a position is for a player, and trying an action on a copy of the game to see.

use crate::board::{Owner, Player};
use crate::game::{Action, Game, Score, opponent};

/// A position's worth for `player`: the score lead, plus the cities held on each side (each
/// worth what capturing it from the opponent would bring), and the result once the game ends.
/// In a race (rules where the player left unable to make a word loses), the letters the
/// player keeps count against them as far as they are hard to play out.
pub fn value(game: &Game, player: Player) -> f64 {
    value_with(game, player, &game.scores())
}

/// [`value`], with the game's `scores` already counted.
fn value_with(game: &Game, player: Player, scores: &[Score]) -> f64 {
    let enemy = opponent(player);
    if let Some(result) = game.result() {
        let decided = match result.winner {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        return decided * 1e6 + lead(game, scores, player, enemy);
    }
    let race = game.rules().flow.no_word_ends_turns_in_a_row;
    let keeping = if race {
        LEAVE_WEIGHT * leave_cost(&game.rack_letters(player))
    } else {
        0.0
    };
    lead(game, scores, player, enemy) - keeping
}

/// The outcomes of one position weighed as [`value`] weighs them, each score counted beside
/// the position (`Game::scores_beside`): an AI weighs hundreds of outcomes of a position, each
/// differing from it in a few rows and columns.
pub struct Beside<'a> {
    base: &'a Game,
    scores: Vec<Score>,
}

impl<'a> Beside<'a> {
    /// Outcomes of `base` to weigh.
    pub fn new(base: &'a Game) -> Beside<'a> {
        Beside {
            base,
            scores: base.scores(),
        }
    }

    /// The base's scores, by seat.
    pub fn base_scores(&self) -> &[Score] {
        &self.scores
    }

    /// [`value`] of `outcome`, a game that came from the base by a few actions.
    pub fn value(&self, outcome: &Game, player: Player) -> f64 {
        let scores = outcome.scores_beside(self.base, &self.scores);
        value_with(outcome, player, &scores)
    }
}

/// What a point of [`leave_cost`] is worth against a point of score.
const LEAVE_WEIGHT: f64 = 5.0;

/// How hard `rack` is to play out: letters few words take, a letter held twice, and vowels and
/// consonants out of balance. Zero for an empty rack.
pub fn leave_cost(rack: &str) -> f64 {
    let mut cost = 0.0;
    let mut seen = [0u8; 26];
    let (mut vowels, mut consonants) = (0i32, 0i32);
    for c in rack.chars() {
        cost += match c {
            'Q' => 4.0,
            'Z' | 'J' => 3.0,
            'X' | 'V' => 2.0,
            'K' | 'W' | 'Y' | 'F' | 'C' => 1.0,
            _ => 0.0,
        };
        if let Some(i) = (c as usize).checked_sub('A' as usize).filter(|&i| i < 26) {
            if seen[i] > 0 {
                cost += 1.0;
            }
            seen[i] = seen[i].saturating_add(1);
        }
        if "AEIOU".contains(c) {
            vowels += 1;
        } else {
            consonants += 1;
        }
    }
    // A rack plays out best with about two consonants to a vowel.
    let imbalance = (2 * vowels - consonants).abs() as f64 / 2.0;
    cost + imbalance
}

fn lead(game: &Game, scores: &[Score], player: Player, enemy: Player) -> f64 {
    let total = |p: Player| scores.get(p.index()).map_or(0, |s| s.total);
    let score = total(player) - total(enemy);
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
    settled(game.clone(), action)
}

/// The same outcome as [`after`] on a copy without the game's log (`Game::trial_copy`):
/// cheaper, for an outcome that is only weighed, never played on by an AI that reads the log.
pub fn tried(game: &Game, action: Action) -> Option<Game> {
    settled(game.trial_copy(), action)
}

fn settled(mut next: Game, action: Action) -> Option<Game> {
    next.apply(action).ok()?;
    if next.to_act() != next.active() && next.result().is_none() {
        next.apply(Action::Defend { order: None }).ok()?;
    }
    Some(next)
}

#[cfg(test)]
mod tests {
    use super::leave_cost;

    /// Table: racks from easy to hard to play out.
    #[test]
    fn awkward_letters_repeats_and_imbalance_cost() {
        let cases = [
            ("", 0.0),
            ("RET", 0.0),
            ("STARE", 0.5),
            ("EEE", 5.0),
            ("QZ", 8.0),
        ];
        for (rack, cost) in cases {
            assert_eq!(leave_cost(rack), cost, "{rack}");
        }
        assert!(leave_cost("QIRT") > leave_cost("SIRT"));
    }
}

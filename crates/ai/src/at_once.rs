//! The AI in simultaneous play: it lays out the best crossword its search finds for all its
//! tiles, calls green light as soon as that crossword is complete (red light once the pool
//! runs low), and jaywalks the dearest tile it cannot place.

use crate::board::Player;
use crate::crossing::{Plan, Search, best_plan, tiles_of};
use crate::game::{Action, Game};
use rand_chacha::ChaCha8Rng;

/// How hard a level searches for its crossword.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Effort {
    /// Fresh attempts at a crossword when the one laid cannot take the new tiles.
    pub attempts: usize,
    /// Fresh attempts at the last crossword, once the pool can serve no more green lights
    /// (the crossword that is scored); 0: it grows the one laid as ever.
    pub final_attempts: usize,
    /// What a point of a crossed letter counts for (`Search::crossing_weight`).
    pub crossing_weight: i64,
    /// Rounds of improvement of the last crossword (`Search::improve`).
    pub improve: usize,
    /// How many of the best next words it picks among at random (`Search::among`).
    pub among: usize,
}

/// How hard each level searches for its crossword in simultaneous play, weakest first.
/// Easy grows long words, any of its three best at random, blind to what a crossing is worth;
/// normal weighs crossings and searches its last crossword (the one scored) afresh; hard
/// weighs them more, searches more, and improves its last crossword by the iterated greedy.
/// Measured over 100 games of two players from seed 70001 (PERFORMANCE.md): ten attempts or
/// two hundred at the last crossword, at any weight, left hard and normal alike (a plateau
/// near 3.9 a crossword); words crossing two laid letters at once won nothing more.
pub(crate) const LEVEL_EFFORT: [Effort; 3] = [
    Effort {
        attempts: 1,
        final_attempts: 0,
        crossing_weight: 0,
        improve: 0,
        among: 3,
    },
    Effort {
        attempts: 4,
        final_attempts: 4,
        crossing_weight: 25,
        improve: 0,
        among: 1,
    },
    Effort {
        attempts: 8,
        final_attempts: 8,
        crossing_weight: 60,
        improve: 40,
        among: 1,
    },
];

/// The plan made for a set of tiles, kept until the tiles change (or the last crossword's
/// time comes).
#[derive(Debug, Default)]
pub(crate) struct PlanCache {
    tiles: Vec<char>,
    last: bool,
    plan: Option<Plan>,
}

/// What `player` does now, or `None` to wait (their crossword is as good as they can make it
/// and no signal is theirs to call).
pub(crate) fn choose(
    cache: &mut PlanCache,
    effort: Effort,
    rng: &mut ChaCha8Rng,
    game: &Game,
    player: Player,
) -> Option<Action> {
    if game.result().is_some() {
        return None;
    }
    let plan = cache.plan_for(game, player, effort, rng);
    if plan.letters != game.laid_letters(player) && beats_what_is_laid(game, player, &plan) {
        return Some(Action::Layout {
            player,
            letters: plan.letters,
        });
    }
    if game.crossword_lacks(player).is_none() {
        if game.red_light_caller().is_some() {
            return None;
        }
        return Some(if game.green_light_possible() {
            Action::GreenLight { player }
        } else {
            Action::RedLight { player }
        });
    }
    let rack = game.rack_letters(player);
    let dearest = plan
        .leftovers
        .iter()
        .filter(|c| rack.contains(**c))
        .max_by_key(|&&c| game.rules().letter_value(c).unwrap_or(0))?;
    game.may_jaywalk(player).then_some(Action::Jaywalk {
        player,
        letter: *dearest,
    })
}

impl PlanCache {
    /// The plan for `player`'s tiles: the one kept if the tiles are the same, else a new one;
    /// once the pool serves no more green lights, the last crossword searched afresh with the
    /// level's final attempts.
    fn plan_for(
        &mut self,
        game: &Game,
        player: Player,
        effort: Effort,
        rng: &mut ChaCha8Rng,
    ) -> Plan {
        let mut tiles = tiles_of(game, player);
        tiles.sort_unstable();
        let last = effort.final_attempts > 0 && !game.green_light_possible();
        if tiles != self.tiles || last != self.last || self.plan.is_none() {
            let (attempts, rebuild) = if last {
                (effort.final_attempts, true)
            } else {
                (effort.attempts, false)
            };
            let search = Search {
                attempts,
                rebuild,
                crossing_weight: effort.crossing_weight,
                improve: if last { effort.improve } else { 0 },
                among: effort.among,
            };
            self.plan = Some(best_plan(game, player, search, rng));
            self.tiles = tiles;
            self.last = last;
        }
        self.plan.clone().unwrap_or_default()
    }
}

/// Whether laying `plan` out leaves `player` better off than what is laid now.
fn beats_what_is_laid(game: &Game, player: Player, plan: &Plan) -> bool {
    let now = game.crossing_score(player);
    let now_complete = game.crossword_lacks(player).is_none();
    match (plan.is_complete(), now_complete) {
        (true, false) => true,
        (false, true) => false,
        _ => {
            let planned = i128::from(plan.points) * i128::from(now.divisor().max(1));
            let current = i128::from(now.points)
                * i128::from((plan.words + plan.leftovers.len() as i64).max(1));
            let fewer_left = (plan.leftovers.len() as i64).cmp(&now.leftovers);
            match fewer_left {
                std::cmp::Ordering::Less => !now_complete,
                std::cmp::Ordering::Equal => planned > current,
                std::cmp::Ordering::Greater => false,
            }
        }
    }
}

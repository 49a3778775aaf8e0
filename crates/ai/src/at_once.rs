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

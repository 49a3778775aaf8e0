//! The AI in simultaneous play: it lays out the best crossword its search finds for all its
//! tiles, calls green light as soon as that crossword is complete (red light once the pool
//! runs low), and jaywalks the dearest tile it cannot place.

use crate::board::Player;
use crate::crossing::{Plan, best_plan, tiles_of};
use crate::game::{Action, Game};
use rand_chacha::ChaCha8Rng;

/// The plan made for a set of tiles, kept until the tiles change.
#[derive(Debug, Default)]
pub(crate) struct PlanCache {
    tiles: Vec<char>,
    plan: Option<Plan>,
}

/// What `player` does now, or `None` to wait (their crossword is as good as they can make it
/// and no signal is theirs to call).
pub(crate) fn choose(
    cache: &mut PlanCache,
    attempts: usize,
    rebuild: bool,
    rng: &mut ChaCha8Rng,
    game: &Game,
    player: Player,
) -> Option<Action> {
    if game.result().is_some() {
        return None;
    }
    let plan = cache.plan_for(game, player, (attempts, rebuild), rng);
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
    /// The plan for `player`'s tiles: the one kept if the tiles are the same, else a new one.
    fn plan_for(
        &mut self,
        game: &Game,
        player: Player,
        (attempts, rebuild): (usize, bool),
        rng: &mut ChaCha8Rng,
    ) -> Plan {
        let mut tiles = tiles_of(game, player);
        tiles.sort_unstable();
        if tiles != self.tiles || self.plan.is_none() {
            self.plan = Some(best_plan(game, player, attempts, rebuild, rng));
            self.tiles = tiles;
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

//! What one player can know of a game of letters, for a search that must not peek: the letters
//! they cannot see (the other players' racks, every pile's order) dealt again at random from
//! those they could be, and chance reseeded. A search plays on such games, never on the truth.

use super::{Game, PlayerState, RackItem};
use crate::board::Player;
use crate::rules::PoolModel;
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

impl Game {
    /// A game `viewer` might be in, as far as they can tell: the board, the scores and their
    /// own rack as they are; their own pile with its letters in an order drawn from `rng`; each
    /// other player's rack and pile (or, with one shared pile, every other rack and the pile)
    /// dealt again from the same letters; chance drawn from `rng` from here on. What they
    /// cannot see is shuffled from a sorted list, so the deal depends only on `rng` and what
    /// they see, never on how the truth lies. A scripted game is sampled as its table is
    /// (`sample_for`).
    pub fn sample_for(&self, viewer: Player, rng: &mut impl rand::Rng) -> Game {
        if self.rules.flow.scripted {
            return self.sample_table_for(viewer, rng);
        }
        let mut game = self.clone();
        let seats: Vec<usize> = (0..game.players.len()).collect();
        let others: Vec<usize> = seats
            .iter()
            .copied()
            .filter(|&i| i != viewer.index())
            .collect();
        match game.rules.supply.pool {
            PoolModel::Shared => {
                redeal(&mut game.players, &others, &mut game.shared_pool, rng);
            }
            PoolModel::CopyEach | PoolModel::Split => {
                for &i in &seats {
                    let mut pile = std::mem::take(&mut game.players[i].pool);
                    // The viewer keeps their rack; the pile alone is shuffled.
                    let racks: &[usize] = if i == viewer.index() { &[] } else { &[i] };
                    redeal(&mut game.players, racks, &mut pile, rng);
                    game.players[i].pool = pile;
                }
            }
        }
        game.rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(rng.random::<u64>());
        game
    }
}

/// Gathers the letters on the racks of `seats` and in `pile`, sorts them, shuffles them with
/// `rng` and deals them back: each rack as many letters as it held (its tokens kept), the pile
/// the rest.
fn redeal(
    players: &mut [PlayerState],
    seats: &[usize],
    pile: &mut std::collections::VecDeque<char>,
    rng: &mut impl rand::Rng,
) {
    let mut letters: Vec<char> = pile.drain(..).collect();
    for &i in seats {
        letters.extend(players[i].rack.iter().filter_map(|item| match item {
            RackItem::Letter(c) => Some(*c),
            RackItem::Token { .. } => None,
        }));
    }
    letters.sort_unstable();
    letters.shuffle(rng);
    let mut dealt = letters.into_iter();
    for &i in seats {
        for item in &mut players[i].rack {
            if let (RackItem::Letter(c), Some(next)) = (&mut *item, dealt.next()) {
                *c = next;
            }
        }
    }
    pile.extend(dealt);
}

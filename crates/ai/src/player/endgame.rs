//! The hard level's endgame: with few letters left to place, both sides together, its best
//! candidates are played to the game's end in worlds sampled from what it cannot see, both
//! sides by normal AIs, and it keeps the one that wins most (PERFORMANCE.md, issue 55).

use super::{AiPlayer, Level, Move, after, value};
use crate::board::Player;
use crate::game::{Action, Game};

/// Candidates the hard level plays out to the end in the endgame (measured on Word Wars
/// against normal over 40 matches: 6 candidates in 8 worlds from 16 letters won 12 and drew
/// 26; 12 in 4 from 32, 23 and 16, in the same time as 16 in 4 from 24; PERFORMANCE.md).
pub(super) const ROLLED_OUT: usize = 12;
/// Worlds each is played out in.
const ENDGAME_WORLDS: usize = 4;
/// Letters left to place, both sides together, from which the endgame is played out.
const ENDGAME_LETTERS: usize = 32;
/// Actions a playout of the endgame takes at most.
const ENDGAME_ACTIONS: usize = 200;

impl AiPlayer {
    /// The endgame's choice: each of `candidates` played in the same worlds sampled from what
    /// `player` cannot see, the rest of the game played out by two normal AIs; the candidate
    /// that wins most (a draw half), ties to the earlier (better by its immediate outcome).
    pub(super) fn rolled_out(
        &mut self,
        game: &Game,
        player: Player,
        candidates: &[(f64, Move)],
    ) -> Option<Move> {
        let mut rng = self.rng(game);
        let worlds: Vec<Game> = (0..ENDGAME_WORLDS)
            .map(|_| game.sample_for(player, &mut rng))
            .collect();
        let mut replier = (self.replier.take())
            .unwrap_or_else(|| Box::new(AiPlayer::new(Level::Normal, self.seed)));
        let mut best: Option<(f64, Move)> = None;
        for &(_, m) in candidates {
            let mut total = 0.0;
            for (played, world) in worlds.iter().enumerate() {
                // Past the point where even winning every world left could not beat the best
                // (a tie keeps the earlier), the rest need no play: the choice is the same.
                let left = (worlds.len() - played) as f64;
                if best.is_some_and(|(b, _)| total + left <= b) {
                    break;
                }
                let commit = Action::Commit {
                    letters: m.placements(),
                };
                total +=
                    after(world, commit).map_or(0.0, |next| played_out(next, player, &mut replier));
            }
            if best.is_none_or(|(b, _)| total > b) {
                best = Some((total, m));
            }
            // A candidate that wins in every world is as good as any: the rest need no play.
            if total >= worlds.len() as f64 {
                break;
            }
        }
        self.replier = Some(replier);
        best.map(|(_, m)| m)
    }
}

/// Whether few enough letters are left to place, by both sides, that the hard level plays the
/// game out to its end to choose (the racks and piles as the player sees their sizes).
pub(super) fn in_endgame(game: &Game) -> bool {
    let left: usize = game
        .seats()
        .map(|p| game.rack_letters(p).chars().count() + game.pool_letters(p).len())
        .sum();
    left <= ENDGAME_LETTERS
}

/// `game` played on by `replier` for every side to its end (within `ENDGAME_ACTIONS`): 1 for
/// `player`'s win, 0 for a loss, a half for a draw; with no end by then, between by the score
/// lead.
fn played_out(mut game: Game, player: Player, replier: &mut AiPlayer) -> f64 {
    for _ in 0..ENDGAME_ACTIONS {
        if game.result().is_some() {
            break;
        }
        let action = replier.choose_seen(&game);
        if game.apply(action).is_err() {
            break;
        }
    }
    match game.result() {
        Some(r) if r.winner == Some(player) => 1.0,
        Some(r) if r.winner.is_some() => 0.0,
        Some(_) => 0.5,
        None => 0.5 + 0.5 * (value(&game, player) / 20.0).tanh(),
    }
}

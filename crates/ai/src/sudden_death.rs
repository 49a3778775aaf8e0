//! The AI's sudden death: when stuck, whether to call it; when offered it, whether to accept,
//! by searching whether it can use every tile.
//!
//! The search plays the sudden death out on copies of the game, the taker's face-down pile
//! shuffled anew in each (the AI knows which letters its pile holds, not their order), always
//! placing the word that uses the most tiles. It accepts when enough play-outs use them all.

use super::movegen::MoveGen;
use crate::game::{Action, Game, Prompt, opponent};
use rand_chacha::ChaCha8Rng;

/// Play-outs of an offer accepted.
const PLAY_OUTS: usize = 4;
/// Of which this many must use every tile for the AI to accept.
const TO_ACCEPT: usize = 3;
/// Turns a play-out may last before it counts as failed.
const MOST_TURNS: usize = 64;

/// The answer to an offer of sudden death waiting on the AI: accept when play-outs show it
/// likely uses every tile.
pub(crate) fn answer(generator: &mut MoveGen, game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let Some(Prompt::SuddenDeath { caller }) = game.prompt() else {
        return Action::Answer { accept: false };
    };
    let taker = opponent(caller);
    let used_all = (0..PLAY_OUTS)
        .filter(|_| play_out(generator, &game.with_pool_shuffled(taker, rng)))
        .count();
    Action::Answer {
        accept: used_all >= TO_ACCEPT,
    }
}

/// Whether the taker uses every tile when the offer in `game` is accepted and they always
/// place the word using the most tiles.
fn play_out(generator: &mut MoveGen, game: &Game) -> bool {
    let mut game = game.clone();
    let taker = game.to_act();
    if game.apply(Action::Answer { accept: true }).is_err() {
        return false;
    }
    for _ in 0..MOST_TURNS {
        if let Some(result) = game.result() {
            return result.winner == Some(taker);
        }
        let rack = game.rack_letters(taker);
        let moves = generator.all(&game, taker, &rack);
        let Some(most) = moves.iter().max_by_key(|m| (m.placed_count(), m.face())) else {
            return false;
        };
        let commit = Action::Commit {
            letters: most.placements(),
        };
        if game.apply(commit).is_err() {
            return false;
        }
        // Where a word does not end the turn, the taker ends it.
        if game.result().is_none() && game.committed_this_turn() {
            let _ = game.apply(Action::EndTurn);
        }
    }
    false
}

/// Whether the AI, stuck, calls sudden death: where the rules have it, its offer was not just
/// refused, and the opponent still holds at least a full hand (what they can see: counts), so
/// that using every tile is hard for them.
pub(crate) fn worth_calling(game: &Game) -> bool {
    if !game.sudden_death_open() {
        return false;
    }
    let other = opponent(game.active());
    let their_tiles = game.rack_letters(other).chars().count() + game.pool_letters(other).len();
    let hand = usize::try_from(game.rules().turn.start_rack).unwrap_or(0);
    !game.rack_letters(game.active()).is_empty() && their_tiles >= hand
}

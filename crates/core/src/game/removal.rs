//! Letters leaving the board (combat, ice, effects, a lifted word) and the bookkeeping that
//! follows: the runs left behind marked as fragments when the rules say so, and the marks of
//! words that no longer stand forgotten.

use super::Game;
use super::words::{self, WordKey};
use crate::board::{Player, Pos};
use std::collections::BTreeSet;

impl Game {
    /// Whose each word on the board is and where it stands, without its letters: what the
    /// bookkeeping after a removal and combat's count of letters lost need (a text made for
    /// every word of the board was a tenth of an AI's game, which plays each candidate's
    /// combat out).
    pub(super) fn board_word_keys(&self) -> Vec<(Player, WordKey)> {
        let mut keys = Vec::new();
        let (min, runs) = (self.min_word_len(), self.runs());
        words::for_each_word(&self.board.letters, min, runs, |player, key, _| {
            keys.push((player, key));
        });
        keys
    }

    /// Removes `player`'s letters at `cells` from the board; they are lost.
    pub(super) fn remove_letters(&mut self, cells: &[Pos]) {
        for &c in cells {
            if let Some(tile) = self.board.tile(c) {
                self.board.letters.set(c, None);
                self.player_mut(tile.player).lost += 1;
            }
        }
    }

    /// After letters were removed: marks the runs they left behind as fragments (when the
    /// rules say so) and forgets marks of words that no longer stand.
    pub(super) fn after_removal(&mut self, before: &[(Player, WordKey)]) {
        self.after_removal_sparing(before, Player::Gold, &[]);
    }

    /// [`Game::after_removal`], where the words `made` by `player`'s commit just now count as
    /// standing before: they are committed words, not fragments.
    pub(super) fn after_removal_sparing(
        &mut self,
        before: &[(Player, WordKey)],
        player: Player,
        made: &[WordKey],
    ) {
        let standing: BTreeSet<(Player, WordKey)> = self.board_word_keys().into_iter().collect();
        if self.rules.validity.fragments == crate::rules::Fragments::InvalidUntilTurnEnd {
            let old: BTreeSet<(Player, WordKey)> = (before.iter().copied())
                .chain(made.iter().map(|&k| (player, k)))
                .collect();
            self.marks
                .fragments
                .extend(standing.difference(&old).copied());
        }
        self.marks.defeated.retain(|k| standing.contains(k));
        self.marks.fragments.retain(|k| standing.contains(k));
        self.marks
            .penalties
            .retain(|p| standing.contains(&(p.player, p.key)));
    }
}

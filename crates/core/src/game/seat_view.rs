//! What one seat may see of a game, as a game: the one place that decides it. The hot-seat
//! screens, `replay --as` and an online seat's view all read the copy `Game::seen_by` makes,
//! never the truth, so that a secret has one gate to pass and a test can look at it.

use super::{Game, HIDDEN_LETTER, RackItem};
use crate::board::Player;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The seed of every view's generator: a view draws nothing the truth will draw.
const VIEW_SEED: u64 = 0;

impl Game {
    /// The game as `viewer` may see it (`None`: a spectator, who sees what every seat may):
    /// the board (in simultaneous play, the others' letters face down as
    /// [`HIDDEN_LETTER`]), the scores, their own rack, the others' racks and every pile as
    /// that many hidden letters, a scripted table with only the values shown to them, their
    /// own secret choice under way and nobody else's. Chance is reseeded and the log and the
    /// seed are left out (the log holds the others' layouts and secret moves; with the seed
    /// anyone could deal the game again). Once the game is over every letter and every value
    /// is face up.
    ///
    /// A view is for reading: it cannot go on as the game does (its generator is not the
    /// game's).
    pub fn seen_by(&self, viewer: Option<Player>) -> Game {
        let mut view = self.trial_copy();
        view.rng = ChaCha8Rng::seed_from_u64(VIEW_SEED);
        view.seed = VIEW_SEED;
        view.listed = None;
        if self.result.is_some() {
            // Once the game is over, every letter and every value is face up.
            return view;
        }
        view.table = self.table.seen_by(viewer);
        view.secret = self
            .secret
            .as_ref()
            .map(|s| Box::new(s.seen_by(viewer, &self.table)));
        view.lights = self.lights.seen();
        let hide = |c: &mut char| *c = HIDDEN_LETTER;
        view.shared_pool.iter_mut().for_each(hide);
        for (i, player) in view.players.iter_mut().enumerate() {
            player.pool.iter_mut().for_each(hide);
            if viewer.is_some_and(|p| p.index() == i) {
                continue;
            }
            for item in &mut player.rack {
                if let RackItem::Letter(c) = item {
                    hide(c);
                }
            }
        }
        view.pending = self.pending.as_ref().map(|p| p.seen_by(viewer));
        if self.rules.flow.simultaneous {
            view.hide_other_crosswords(self, viewer);
        }
        view
    }

    /// In simultaneous play each crossword is its player's own: the others' letters stay on
    /// their cells face down, and every seat's crossing score is the one the truth counts.
    fn hide_other_crosswords(&mut self, truth: &Game, viewer: Option<Player>) {
        let scores: Vec<_> = truth.seats().map(|p| truth.crossing_score(p)).collect();
        self.seen_scores = Some(Arc::new(scores));
        let cells: Vec<_> = self.board.letters.positions().collect();
        for at in cells {
            if let Some(mut tile) = self.board.letters[at]
                && Some(tile.player) != viewer
            {
                tile.letter = HIDDEN_LETTER;
                self.board.letters.set(at, Some(tile));
            }
        }
    }
}

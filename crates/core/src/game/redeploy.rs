//! Redeployment (docs/RULES.md section 8): lifting one own word back to the rack.

use super::words::{WordKey, connected, find_runs};
use super::{ActionError, Event, Game, RackItem};
use crate::board::Player;
use crate::rules::{LiftCheck, Limit};

impl Game {
    pub(super) fn redeploy(
        &mut self,
        key: WordKey,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let player = self.active;
        let limit = self.rules.turn.redeploys_per_turn;
        if self.turn_state.redeploys >= limit {
            return Err(ActionError::RedeployLimit { limit });
        }
        let words = self.board_words();
        let word = words
            .iter()
            .find(|w| w.player == player && w.key == key)
            .ok_or(ActionError::NoSuchWord { at: key.start })?
            .clone();
        let refuse = |reason: String| ActionError::CannotLift {
            word: word.text.clone(),
            reason,
        };
        let connected_now = self.connected_grid(player);
        if !self.rules.redeploy.lift_invalid && !self.is_valid(&word) {
            return Err(refuse("it is not a valid word".into()));
        }
        if !self.rules.redeploy.lift_disconnected && !word.key.cells().any(|c| connected_now[c]) {
            return Err(refuse("it is cut off from your cities".into()));
        }
        let crossings = words
            .iter()
            .filter(|w| w.player == player && w.key != key && w.key.cells().any(|c| key.covers(c)))
            .count();
        if let Limit::AtMost(n) = self.rules.redeploy.max_crossing_words
            && crossings as i64 > n
        {
            return Err(refuse(format!(
                "{crossings} words cross it; at most {n} may cross a word you lift"
            )));
        }
        let keys: Vec<_> = words.iter().map(|w| (w.player, w.key)).collect();
        let lifted = self.letters_only_in(player, key, &keys);
        if self.rules.redeploy.after_lift == LiftCheck::KeepValidAndConnected {
            self.check_lift_leaves_crossword_sound(player, &lifted)
                .map_err(refuse)?;
        }
        let returned: String = lifted
            .iter()
            .filter_map(|&c| self.board.tile(c))
            .map(|t| t.letter)
            .collect();
        for &c in &lifted {
            self.board.letters.set(c, None);
        }
        self.player_mut(player)
            .rack
            .extend(returned.chars().map(RackItem::Letter));
        self.turn_state.redeploys += 1;
        self.after_removal(&keys);
        events.push(Event::WordLifted {
            player,
            word: word.text,
            returned,
        });
        Ok(())
    }

    /// After lifting `lifted`, every own word must be valid and every connected letter must
    /// still be connected (the `gdd-1.6` rule).
    fn check_lift_leaves_crossword_sound(
        &self,
        player: Player,
        lifted: &[crate::board::Pos],
    ) -> Result<(), String> {
        let mut letters = self.board.letters.clone();
        for &c in lifted {
            letters.set(c, None);
        }
        for w in find_runs(&letters, self.min_word_len(), self.runs())
            .iter()
            .filter(|w| w.player == player)
        {
            if !self.is_valid(w) {
                return Err(format!("it would leave {} invalid", w.text));
            }
        }
        let before = self.connected_grid(player);
        let after = connected(&letters, player, self.board.city_cells(player));
        let cut_off = letters
            .positions()
            .find(|&p| letters[p].is_some_and(|t| t.player == player) && before[p] && !after[p]);
        match cut_off {
            Some(p) => Err(format!(
                "it would cut your letter at {p} off from your cities"
            )),
            None => Ok(()),
        }
    }
}

//! Sudden death (the rule set's `flow.sudden_death`): a player who cannot make a word offers
//! their hand to the other, and the game waits on the other's answer (a prompt, as a combat
//! waits on the defender's order). Refused, play goes on as before. Accepted, the hand is the
//! taker's, who takes every turn until they have used every tile (and win, their award
//! multiplied by `flow.sudden_death_factor`) or cannot make a word (and the caller wins).

use super::{ActionError, EndReason, Event, Game, GameResult, Prompt, RackItem, opponent};
use crate::board::Player;

impl Game {
    /// Refuses a turn's action while an offer of sudden death waits for its answer.
    pub(super) fn require_no_offer(&self) -> Result<(), ActionError> {
        match self.offer {
            Some(caller) => {
                let prompt = Prompt::SuddenDeath { caller };
                Err(ActionError::AnswerFirst {
                    player: prompt.player(),
                    question: prompt.question(),
                })
            }
            None => Ok(()),
        }
    }

    /// The active player offers their hand; the other must answer.
    pub(super) fn call_sudden_death(&mut self, events: &mut Vec<Event>) -> Result<(), ActionError> {
        let caller = self.active;
        if let Some(reason) = self.why_no_sudden_death(caller) {
            return Err(ActionError::CannotCallSuddenDeath { reason });
        }
        self.offer = Some(caller);
        events.push(Event::SuddenDeathCalled {
            caller,
            hand: self.rack_letters(caller),
        });
        Ok(())
    }

    /// Why `caller` may not call sudden death now, if they may not.
    fn why_no_sudden_death(&self, caller: Player) -> Option<String> {
        let flow = &self.rules.flow;
        let state = &self.turn_state;
        let reason = if !flow.sudden_death {
            "these rules have no sudden death (flow.sudden_death is false)".to_string()
        } else if self.sudden_death.is_some() {
            "a sudden death is already under way".to_string()
        } else if state.committed || state.exchanged || state.redeploys > 0 {
            "you have already played this turn; sudden death is called instead of a play".into()
        } else if state.offer_refused {
            "your offer was refused this turn: play a word, trade or forfeit".to_string()
        } else if self.rack_letter_count(caller) == 0 {
            "your hand is empty: there is nothing to offer".to_string()
        } else if self.out_of_letters(opponent(caller)) {
            format!("{} has no tiles left to take the offer", opponent(caller))
        } else if flow.judge_no_word && self.active_can_make_a_word() {
            "you can still make a word: sudden death is for a player who cannot (you may trade)"
                .to_string()
        } else {
            return None;
        };
        Some(reason)
    }

    /// Whether the active player can make a word, as the game's advisor (the move generator)
    /// finds; a game without one cannot judge, and leaves it to the players.
    fn active_can_make_a_word(&self) -> bool {
        self.advisor
            .as_ref()
            .is_some_and(|advisor| advisor.strongest_placement(self).is_some())
    }

    /// The answer to the offer waiting: refused, the caller's turn goes on (they play, trade or
    /// forfeit); accepted, the caller's hand goes to the taker and the caller's turn ends.
    pub(super) fn answer(
        &mut self,
        accept: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let Some(caller) = self.offer else {
            return Err(ActionError::NothingToAnswer);
        };
        let taker = opponent(caller);
        self.offer = None;
        events.push(Event::SuddenDeathAnswered {
            taker,
            accepted: accept,
        });
        if !accept {
            self.turn_state.offer_refused = true;
            return Ok(());
        }
        self.sudden_death = Some(caller);
        let (letters, kept): (Vec<RackItem>, Vec<RackItem>) =
            std::mem::take(&mut self.player_mut(caller).rack)
                .into_iter()
                .partition(|item| matches!(item, RackItem::Letter(_)));
        self.player_mut(caller).rack = kept;
        self.player_mut(taker).rack.extend(letters);
        self.end_turn(events);
        Ok(())
    }

    /// A copy of the game whose pool for `player` is shuffled with `rng`: the game as a player
    /// may imagine it who knows which letters a face-down pile holds but not their order (an
    /// AI's search). The copy's own generator is untouched.
    pub fn with_pool_shuffled(&self, player: Player, rng: &mut impl rand::Rng) -> Game {
        use rand::seq::SliceRandom;
        let mut copy = self.clone();
        copy.pool_and_rng(player).0.make_contiguous().shuffle(rng);
        copy
    }

    /// Whether the moment lets the active player call sudden death: the rules have it, none is
    /// under way, nothing is played this turn and no offer was refused in it. (Whether they can
    /// still make a word, which costs a search, is judged only when they call.)
    pub fn sudden_death_open(&self) -> bool {
        let state = &self.turn_state;
        let played = state.committed || state.exchanged || state.redeploys > 0;
        self.rules.flow.sudden_death
            && self.sudden_death.is_none()
            && !played
            && !state.offer_refused
    }

    /// The taker of a sudden death under way, if one is.
    pub fn sudden_death_taker(&self) -> Option<Player> {
        self.sudden_death.map(opponent)
    }

    /// Under sudden death: the taker who has used every tile ends the game (and wins).
    pub(super) fn sudden_death_end(&self) -> Option<EndReason> {
        let taker = self.sudden_death_taker()?;
        self.out_of_letters(taker)
            .then_some(EndReason::SuddenDeath { taker, won: true })
    }

    /// The player who must make a word and cannot, as the advisor judges (the taker of a
    /// sudden death, or a player taking turns in a row under `flow.no_word_ends_turns_in_a_row`):
    /// the game ends against them. Nothing is judged without an advisor or `flow.judge_no_word`.
    pub(super) fn end_if_no_word(&mut self, events: &mut Vec<Event>) {
        let flow = &self.rules.flow;
        let in_sudden_death = self.sudden_death.is_some();
        if !flow.judge_no_word || !(in_sudden_death || flow.no_word_ends_turns_in_a_row) {
            return;
        }
        if self.advisor.is_none() || self.active_can_make_a_word() {
            return;
        }
        let player = self.active;
        let reason = if in_sudden_death {
            EndReason::SuddenDeath {
                taker: player,
                won: false,
            }
        } else {
            EndReason::NoWord { player }
        };
        let result = GameResult {
            winner: Some(opponent(player)),
            reason,
        };
        self.finish(result, events);
    }
}

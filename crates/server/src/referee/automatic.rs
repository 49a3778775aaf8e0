//! What plays itself in a match: the AI seats' actions, the grace period's end on the
//! server's clock, and the start of a match's next round; each is an entry in the log like a
//! person's action. The match's driver (`crate::driver`) asks when the next is due and calls
//! `step`.

use super::Match;
use super::thinking::Stepped;
use crate::store::{Entry, Listing, LoggedAction, Store};
use scryptic_core::board::Player;
use scryptic_core::game::{Action, MoveClock};
use scryptic_protocol::{MatchState, Occupant};
use scryptic_script::ScriptedGame;

impl Match {
    /// When the grace period after red light ends, while it runs.
    pub(crate) fn grace_deadline_ms(&self) -> Option<u64> {
        let game = self.game();
        if game.result().is_some() || game.red_light_caller().is_none() {
            return None;
        }
        let grace = u64::try_from(game.rules().flow.grace_seconds).unwrap_or(0);
        Some(self.red_light_at_ms.unwrap_or_else(|| self.clock.now_ms()) + grace * 1000)
    }

    /// Sets what the server's options decide for the match (the pause between its rounds, its
    /// AIs' pace, its clock), and starts the first move's time if the match is under way.
    pub(crate) fn served_with(&mut self, options: &crate::Options) {
        self.round_pause_ms = options.round_pause.as_millis() as u64;
        self.ai_pace_ms = options.ai_pace.as_millis() as u64;
        self.ai_letter_ms = options.ai_letter.map(|d| d.as_millis() as u64);
        self.clock = options.clock.clone();
        let now = self.clock.now_ms();
        self.quiet_since_ms = now;
        self.start_move_clock(now);
    }

    /// After a replay: the move clock as it ran, though a seat taken after the last entry
    /// (the match's first move, or a seat given up and taken again) started it anew then.
    pub(super) fn resume_move_clock(&mut self) {
        let taken = self.seats.iter().filter_map(|s| s.taken_ms).max();
        if let Some(taken) = taken.filter(|t| *t > self.last_moved_ms) {
            self.move_clock = MoveClock::default();
            self.start_move_clock(taken);
        }
    }

    /// What the lobby lists of the match, and when it must next be woken.
    pub(crate) fn listing(&self) -> Listing {
        Listing {
            info: self.info(),
            wake_at_ms: self.wake_at_ms(),
        }
    }

    /// When the match needs its driver though nobody comes: an AI seat to act (at once), a
    /// clock to run out, the next round to begin.
    fn wake_at_ms(&self) -> Option<u64> {
        let ai_now = self.ai_due().then_some(self.last_moved_ms);
        let clocks = [
            ai_now,
            self.grace_deadline_ms(),
            self.next_round_due_ms(),
            self.ai_plan_due_ms(),
            self.move_runs_out().map(|(_, at)| at),
        ];
        clocks.into_iter().flatten().min()
    }

    /// When the match may go to sleep, `after_ms` after it fell quiet: none while someone is
    /// connected or an AI seat is to act.
    pub(crate) fn sleeps_at_ms(&self, after_ms: u64) -> Option<u64> {
        let busy = !self.connections.is_empty() || self.ai_due() || self.ai_wake_ms.is_some();
        (!busy).then(|| self.quiet_since_ms.saturating_add(after_ms))
    }

    /// Writes the listing (someone came or went), as well as it can: a listing behind is
    /// written again with the next change.
    pub(crate) fn keep_listing(&mut self, store: &dyn Store) {
        self.quiet_since_ms = self.clock.now_ms();
        let _ = store.set_listing(&self.id, &self.listing());
    }

    /// Who runs out of time for a move first, and when (`flow.move_seconds`), while the
    /// match is under way.
    pub(crate) fn move_runs_out(&self) -> Option<(Player, u64)> {
        if !self.under_way() {
            return None;
        }
        self.move_clock.runs_out(self.game())
    }

    /// The move clock as the game stands after something at `at_ms`: a seat newly waited on
    /// starts its time then (a seat still waited on keeps its start); nobody's runs while
    /// the match waits for players.
    pub(super) fn start_move_clock(&mut self, at_ms: u64) {
        if self.under_way() {
            self.move_clock.update(self.game.game(), at_ms);
        } else {
            self.move_clock = MoveClock::default();
        }
    }

    /// Plays the AI seats' and the clocks' actions that are due: whether one was played (the
    /// AIs thinking here, the match held; the driver thinks off it, `step_or_think`).
    pub(crate) fn step(&mut self, store: &dyn Store) -> bool {
        match self.step_or_think(store) {
            Stepped::Played(played) => played,
            Stepped::Think(mut thinking) => {
                let chose = thinking.think();
                self.thought(*thinking, chose, store)
            }
        }
    }

    /// Plays the clocks' actions that are due; else the AIs due to act, to think off the
    /// match (`Thinking`).
    pub(crate) fn step_or_think(&mut self, store: &dyn Store) -> Stepped {
        let now = self.clock.now_ms();
        if let Some(at) = self.next_round_due_ms()
            && now >= at
        {
            return Stepped::Played(self.begin_next_round(store).is_ok());
        }
        if let Some(deadline) = self.grace_deadline_ms()
            && now >= deadline
        {
            return Stepped::Played(self.act(None, Action::GraceOver, store).is_ok());
        }
        if let Some((player, deadline)) = self.move_runs_out()
            && now >= deadline
        {
            let out = Action::OutOfTime { player };
            return Stepped::Played(self.act(None, out, store).is_ok());
        }
        match self.next_thinking(now) {
            Some(thinking) => Stepped::Think(thinking),
            None => Stepped::Played(false),
        }
    }

    /// When the next AI seat may act, in simultaneous play with people.
    pub(crate) fn ai_plan_due_ms(&self) -> Option<u64> {
        self.ai_wake_ms
    }

    /// Whether an AI seat is to act now.
    pub(crate) fn ai_due(&self) -> bool {
        if !self.under_way() {
            return false;
        }
        let game = self.game();
        if self.thinking {
            return true;
        }
        let is_ai = |p: Player| self.ais.iter().any(|(a, _)| *a == p);
        if game.rules().flow.simultaneous {
            return !self.ais.is_empty();
        }
        if game.rules().flow.scripted && !game.choosing().is_empty() {
            return game.choosing().into_iter().any(is_ai);
        }
        is_ai(game.to_act())
    }

    /// Whether its seats are playing a round now (every seat taken, the round not over, the
    /// log whole).
    pub(super) fn under_way(&self) -> bool {
        self.state() == MatchState::Playing
            && self.game().result().is_none()
            && self.broken.is_none()
    }

    /// When the match's next round begins, between rounds: at once when every person is
    /// ready, else after the pause.
    pub(crate) fn next_round_due_ms(&self) -> Option<u64> {
        if self.broken.is_some() || !self.game().match_goes_on() {
            return None;
        }
        let people = self
            .seats
            .iter()
            .filter(|s| matches!(s.occupant, Occupant::Person { .. }));
        let all_ready = people.clone().all(|s| self.ready.contains(&s.player));
        let ended = self.round_over_at_ms.unwrap_or_else(|| self.clock.now_ms());
        Some(if all_ready {
            ended
        } else {
            ended + self.round_pause_ms
        })
    }

    /// `seat` is ready for the next round: whether it was between rounds.
    pub(crate) fn ready_for_next(&mut self, seat: Player) -> Result<(), String> {
        if !self.game().match_goes_on() {
            return Err("`next` is for the pause between a match's rounds".to_string());
        }
        if !self.ready.contains(&seat) {
            self.ready.push(seat);
        }
        Ok(())
    }

    pub(super) fn next_round(&self) -> Result<ScriptedGame, String> {
        match self.game.next_round() {
            Some(Ok((round, _problems))) => Ok(round),
            Some(Err(e)) => Err(format!("the next round cannot start: {e}")),
            None => Err("the match has no next round".to_string()),
        }
    }

    /// Starts the match's next round, logged like an action.
    fn begin_next_round(&mut self, store: &dyn Store) -> Result<(), String> {
        let round = match self.next_round() {
            Ok(round) => round,
            Err(why) => {
                self.broken = Some(why.clone());
                return Err(why);
            }
        };
        let logged = LoggedAction {
            entry: Entry::NextRound,
            at_ms: self.clock.now_ms(),
        };
        let seq = self.actions;
        self.game = round;
        self.record(Vec::new(), logged.at_ms);
        self.log(store, seq, &logged)?;
        self.send_views();
        Ok(())
    }
}

//! The move clock (`flow.move_seconds`): whoever must act has that long to do it, or the
//! referee plays `Action::OutOfTime` and they lose the game, as a player who lets their flag
//! fall in correspondence chess. The engine keeps no time (it does no I/O): a referee tells
//! `MoveClock` when each action happened and asks it when the next time runs out, and the
//! action that ends a game on time is in the log like any other, so a replay is exact.

use super::simultaneous::not_now;
use super::{ActionError, EndReason, Event, Game, GameResult, opponent};
use crate::board::Player;

impl Game {
    /// The players the move clock waits on now: the one to act (an answer or a defence
    /// included), or in a scripted game every seat still choosing. None when the game is over,
    /// the rules have no move clock, or the players act at once (the grace period after red
    /// light is that flow's clock).
    pub fn on_the_clock(&self) -> Vec<Player> {
        let flow = &self.rules.flow;
        if self.result.is_some() || flow.move_seconds == 0 || flow.simultaneous {
            return Vec::new();
        }
        if flow.scripted {
            return self.choosing();
        }
        vec![self.to_act()]
    }

    /// `player` let their time run out: they lose (in a game of more than two seats nobody
    /// wins alone: a draw).
    pub(super) fn out_of_time(
        &mut self,
        player: Player,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.rules.flow.move_seconds == 0 {
            return not_now("these rules have no move clock (flow.move_seconds is 0)");
        }
        if self.rules.flow.simultaneous {
            return not_now("the players act at once here: the grace period is the only clock");
        }
        if !self.on_the_clock().contains(&player) {
            return not_now(format!("the clock is not waiting on {player}"));
        }
        let winner = (self.players.len() == 2).then(|| opponent(player));
        let result = GameResult {
            winner,
            reason: EndReason::OutOfTime { loser: player },
        };
        self.finish(result, events);
        Ok(())
    }
}

/// When each player the move clock waits on began to wait, in the referee's milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveClock {
    since: Vec<(Player, u64)>,
}

impl MoveClock {
    /// The game stands as it does after something that happened at `at_ms` (an action, a
    /// round's start, the match's seats filled): a player still waited on keeps their start,
    /// one newly waited on starts now, so that in a secret choice the second to choose gets no
    /// time back when the first has chosen.
    pub fn update(&mut self, game: &Game, at_ms: u64) {
        let waited_on = game.on_the_clock();
        self.since.retain(|(p, _)| waited_on.contains(p));
        for player in waited_on {
            if !self.since.iter().any(|(p, _)| *p == player) {
                self.since.push((player, at_ms));
            }
        }
    }

    /// Who runs out of time first under `game`'s rules, and when (milliseconds); none
    /// without a move clock or while nobody is waited on.
    pub fn runs_out(&self, game: &Game) -> Option<(Player, u64)> {
        let seconds = u64::try_from(game.rules().flow.move_seconds).ok()?;
        if seconds == 0 {
            return None;
        }
        self.since
            .iter()
            .map(|(p, since)| (*p, since.saturating_add(seconds.saturating_mul(1000))))
            .min_by_key(|(p, at)| (*at, p.index()))
    }

    /// When `player`'s time runs out, if the clock waits on them.
    pub fn runs_out_for(&self, game: &Game, player: Player) -> Option<u64> {
        let seconds = u64::try_from(game.rules().flow.move_seconds).ok()?;
        let (_, since) = self.since.iter().find(|(p, _)| *p == player)?;
        (seconds > 0).then(|| since.saturating_add(seconds.saturating_mul(1000)))
    }
}

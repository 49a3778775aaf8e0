//! A match as the lobby lists it: where it stands, who sits where, and the scores.

use super::*;
use scryptic_protocol::MatchEnd;

impl Match {
    /// Where the match stands.
    pub(crate) fn state(&self) -> MatchState {
        if self.game().result().is_some() && !self.game().match_goes_on() {
            MatchState::Over
        } else if self.seats.iter().any(|s| s.occupant == Occupant::Open) {
            MatchState::Waiting
        } else {
            MatchState::Playing
        }
    }

    pub(crate) fn info(&self) -> MatchInfo {
        let names = self.game().seat_names();
        let mode = if self.request.mode.is_empty() {
            self.request.pack.clone()
        } else {
            format!("{}:{}", self.request.pack, self.request.mode)
        };
        MatchInfo {
            id: self.id.clone(),
            title: self.title.clone(),
            mode,
            packs: self.packs.clone(),
            settings: self.request.settings.clone(),
            seats: self
                .seats
                .iter()
                .map(|s| SeatInfo {
                    seat: names.name(s.player).to_string(),
                    occupant: s.occupant.clone(),
                })
                .collect(),
            state: self.state(),
            actions: self.actions,
            log_after_end: self.request.log_after_end,
            turn: self.game().turn(),
            to_act: self
                .to_act()
                .iter()
                .map(|p| names.name(*p).to_string())
                .collect(),
            scores: self.scores(),
            ended: self.game().result().map(|result| MatchEnd {
                winner: result.winner.map(|p| names.name(p).to_string()),
                why: names.render(&scryptic_core::game::describe::end_reason(result)),
            }),
            started_ms: self.created_ms,
            last_moved_ms: self.last_moved_ms,
            move_due_ms: self.move_runs_out().map(|(_, at)| at),
            // The lobby names the serving process where several share the database.
            server: None,
        }
    }

    /// The seats that must act now: none while the match waits for players or is over, nor in
    /// a game played at once (every seat acts when it will); in a scripted game those choosing
    /// in secret, else the one whose move it is.
    fn to_act(&self) -> Vec<Player> {
        let game = self.game();
        if self.state() != MatchState::Playing || game.result().is_some() {
            return Vec::new();
        }
        if game.rules().flow.simultaneous {
            return Vec::new();
        }
        let choosing = game.choosing();
        if game.rules().flow.scripted && !choosing.is_empty() {
            return choosing.to_vec();
        }
        vec![game.to_act()]
    }

    /// Each seat's score, in seat order; none in a scripted game, whose rules keep their own
    /// count (the table's pits) rather than the engine's score.
    fn scores(&self) -> Vec<i64> {
        let game = self.game();
        if game.rules().flow.scripted {
            return Vec::new();
        }
        game.seats().map(|p| game.score(p).total).collect()
    }
}

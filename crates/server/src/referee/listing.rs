//! A match as the lobby lists it: where it stands, who sits where, and the scores.

use super::*;

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
        }
    }
}

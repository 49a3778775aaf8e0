//! What the session takes in from its referee between frames ([`Heard`]): an action the
//! referee played itself, a view from a server, the scripts' console, a notice, a refusal, the
//! seats changing, the connection lost and back.

use crate::referee::Heard;
use crate::session::{LOG_LIMIT, Session};
use scryptic_core::game::Event;

impl Session {
    pub(crate) fn hear(&mut self, heard: Heard) {
        match heard {
            Heard::Played(events) => {
                self.generation += 1;
                self.take_events(&events);
            }
            Heard::View {
                events,
                dropped,
                console,
                new_round,
            } => self.take_view(&events, dropped, console, new_round),
            Heard::Console(lines) => self.console_lines(lines),
            Heard::Notice(text) => {
                self.generation += 1;
                self.console_lines(vec![text.clone()]);
                self.notice = Some(text);
            }
            Heard::Refused(why) => {
                self.awaiting = None;
                self.sent_layout = None;
                self.log.push(format!("refused: {why}"));
                self.refusal = Some(why);
            }
            Heard::Problem(why) => {
                self.log.push(why.clone());
                self.refusal = Some(why);
            }
            Heard::Seats(line) => {
                self.log.push(format!("seats: {line}"));
                self.generation += 1;
            }
            Heard::Lost { why, retrying } => {
                let then = if retrying { "; connecting again" } else { "" };
                self.notice = Some(format!("{why}{then}"));
                self.log.push(format!("{why}{then}"));
            }
            Heard::Back => {
                self.notice = None;
                self.log.push("connected again".into());
            }
        }
    }

    fn take_view(&mut self, events: &[Event], dropped: u64, console: Vec<String>, new_round: bool) {
        self.generation += 1;
        if dropped > 0 {
            self.log
                .push(format!("({dropped} earlier events not shown)"));
        }
        // The first view after this seat's action is its answer: the letters laid were
        // played (a spy's suggestion is laid by its event).
        if let Some(spy) = self.awaiting.take() {
            if !spy {
                self.placed.clear();
            }
            self.discard_pick.clear();
            self.refusal = None;
        }
        if new_round {
            self.combat = None;
            self.log_round_start();
        }
        self.take_events(events);
        self.catch_up_layout();
        self.console_lines(console);
    }

    pub(crate) fn log_round_start(&mut self) {
        let game = self.game();
        let first = game.seat_names().name(game.to_act()).to_string();
        let round = game.round_number();
        self.log
            .push(format!("round {round} begins: {first} starts"));
    }

    pub(crate) fn console_lines(&mut self, lines: Vec<String>) {
        self.console.extend(lines);
        let excess = self.console.len().saturating_sub(LOG_LIMIT);
        self.console.drain(..excess);
    }
}

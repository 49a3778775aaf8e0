//! Who answers for an event whose scripts spent its whole budget or ran past its time: the
//! handler (or else the pack) that spent the most, named on the console, and switched off with
//! its pack once it has done so as often as a failing handler may fail.

use super::ScriptHost;
use crate::{ConsoleLine, sandbox};

impl ScriptHost {
    /// Names the pack that spent the most of an event the scripts stopped (and its handler
    /// that spent the most, if a handler did); a pack named so `failures_before_disable`
    /// times has its handlers and win conditions switched off, as a failing handler is.
    pub(super) fn blame(&mut self, spent: &sandbox::Spent) {
        let Some(why) = spent.stopped else {
            return;
        };
        let event = self.event.event_id();
        // The handler whose calls spent the most (with what they made other packs' interfaces
        // do) answers for the event; if no handler ran, the pack that spent the most.
        let top_handler = self
            .states
            .iter()
            .enumerate()
            .filter_map(|(at, s)| {
                s.top_handler_of(event)
                    .map(|(index, used)| (at, index, used))
            })
            .max_by_key(|&(at, _, used)| (used, std::cmp::Reverse(at)));
        let top_pack = spent
            .by_slot
            .iter()
            .enumerate()
            .max_by_key(|(slot, used)| (**used, std::cmp::Reverse(*slot)))
            .and_then(|(slot, used)| {
                let at = self.states.iter().position(|s| s.slot() == slot)?;
                Some((at, *used))
            });
        let (at, handler, used) = match (top_handler, top_pack) {
            (Some((at, index, used)), _) => (at, Some(index), used),
            (None, Some((at, used))) => (at, None, used),
            (None, None) => return,
        };
        let state = &mut self.states[at];
        let limit = match why {
            sandbox::Stop::Budget => format!(
                "spent the whole budget of the event ({} instructions, shared by every script it runs)",
                spent.granted
            ),
            sandbox::Stop::Deadline => format!(
                "ran the event past its time limit ({} ms, shared by every script it runs)",
                self.limits.deadline.as_millis()
            ),
        };
        let by = match handler {
            Some(index) => {
                let (handler, place) = state.handler_place(index);
                let own = spent.by_slot.get(state.slot()).copied().unwrap_or(0);
                let others = if own < used {
                    format!(", {} of them in other packs' interfaces", used - own)
                } else {
                    String::new()
                };
                format!(" in its {handler} handler at {place}{others}")
            }
            None => String::new(),
        };
        let pack = state.shown_pack();
        let strikes = self.spenders.entry(state.pack.clone()).or_default();
        *strikes += 1;
        let strikes = *strikes;
        let mut message = format!(
            "{pack} {limit}: it spent {used} instructions{by}; the rest of the event's script \
             work was cut"
        );
        if strikes == self.limits.failures_before_disable {
            state.switch_off();
            message.push_str(&format!(
                "; {pack} has done so {strikes} times: its handlers and win conditions are \
                 switched off"
            ));
        }
        self.push_notice(ConsoleLine::Notice(message));
    }
}

//! The console's notices and the scripts' errors, shared by a game's states so that they stay
//! in order, a line repeated one after another counted instead of kept again.

use crate::{ConsoleLine, text};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// The host's notices and the scripts' errors, for the console, shared by a game's states so
/// that they stay in order.
pub(crate) type Notices = Arc<Mutex<NoticeLines>>;

/// The console's notices and errors, with a line repeated one after another (an error of one
/// script with one message, or a notice) counted instead of kept again: 256 handlers failing
/// alike make one line and a count, not 256.
#[derive(Default)]
pub(crate) struct NoticeLines {
    lines: VecDeque<ConsoleLine>,
    /// How many times the last error was repeated since it was kept.
    repeats: usize,
}

impl NoticeLines {
    fn push(&mut self, line: ConsoleLine) {
        let same = match (&line, self.lines.back()) {
            (ConsoleLine::Error(new), Some(ConsoleLine::Error(last))) => {
                new.script == last.script && new.message == last.message
            }
            (ConsoleLine::Notice(new), Some(ConsoleLine::Notice(last))) => new == last,
            _ => false,
        };
        if same {
            self.repeats += 1;
            return;
        }
        self.flush_repeats();
        self.keep(line);
    }

    /// Writes how often the last error was repeated, if it was.
    fn flush_repeats(&mut self) {
        if self.repeats > 0 {
            let repeats = std::mem::take(&mut self.repeats);
            self.keep(ConsoleLine::Notice(format!(
                "the same again {repeats} more time{}",
                if repeats == 1 { "" } else { "s" }
            )));
        }
    }

    fn keep(&mut self, line: ConsoleLine) {
        if self.lines.len() >= text::MAX_CONSOLE_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    pub(crate) fn drain(&mut self) -> Vec<ConsoleLine> {
        self.flush_repeats();
        self.lines.drain(..).collect()
    }
}

/// Keeps a notice or an error for the console; past `MAX_CONSOLE_LINES` the oldest goes, so a
/// flood of errors cannot grow the host.
pub(crate) fn push_notice(notices: &Notices, line: ConsoleLine) {
    let mut notices = match notices.lock() {
        Ok(n) => n,
        Err(poisoned) => poisoned.into_inner(),
    };
    notices.push(line);
}

//! The server's clock, in milliseconds since 1970: the system's, or one that moves only when
//! told, so that a test can let a day pass at once (a move's time in correspondence play)
//! and wait for what the clock makes happen rather than for time.

use std::sync::Arc;
use tokio::sync::watch;

/// The time every match's clock reads: the system's unless made with [`Clock::manual`].
#[derive(Clone, Debug, Default)]
pub struct Clock {
    manual: Option<Arc<watch::Sender<u64>>>,
}

impl Clock {
    /// A clock that stands at `at_ms` until [`Clock::advance`] moves it.
    pub fn manual(at_ms: u64) -> Clock {
        Clock {
            manual: Some(Arc::new(watch::Sender::new(at_ms))),
        }
    }

    /// Milliseconds since 1970.
    pub fn now_ms(&self) -> u64 {
        match &self.manual {
            Some(at) => *at.borrow(),
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
        }
    }

    /// Moves a manual clock `ms` on (the system's moves by itself: nothing is done).
    pub fn advance(&self, ms: u64) {
        if let Some(at) = &self.manual {
            at.send_modify(|t| *t = t.saturating_add(ms));
        }
    }

    /// What a task waiting on the clock watches: the manual clock's moves (none for the
    /// system's, which tokio's timers follow).
    pub(crate) fn watch(&self) -> Option<watch::Receiver<u64>> {
        self.manual.as_ref().map(|at| at.subscribe())
    }
}

/// Waits until `moves` sees the clock move (for ever without a manual clock).
pub(crate) async fn moved(moves: &mut Option<watch::Receiver<u64>>) {
    if let Some(moves) = moves
        && moves.changed().await.is_ok()
    {
        return;
    }
    std::future::pending().await
}

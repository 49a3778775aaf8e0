//! One event's allowance of instructions and time, shared by every state of a host (the
//! hook that every thread of a sandboxed state carries spends it): the frame of the event under
//! way, what each state spent of it, and why it stopped.

use super::{BUDGET_MESSAGE, DEADLINE_MESSAGE, MEMORY_MESSAGE};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Nanoseconds since the first call, on a monotonic clock.
fn now_nanos() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// The most states one host's frame counts spending for (see `host::MAX_STATES`).
const MAX_SLOTS: usize = 64;

/// One event's allowance, shared by every state of one host: the instructions left, the
/// deadline, why it stopped, and what each state (by slot) spent of it. Kept per thread, so
/// that an AI looking ahead on another thread with the same host spends its own.
struct Frame {
    /// The host (the address of its shared links) whose event this is.
    host: usize,
    /// How many opens are under way: the frame is reset when the first one opens it.
    depth: u32,
    /// Counts the events this frame has held, so that a state can tell one from the next.
    id: u64,
    remaining: i64,
    /// 0 while the event may go on, else 1 (budget) or 2 (deadline).
    stopped: u8,
    /// When the event must end (0: its clock has not started).
    deadline_nanos: u64,
    /// How long the event may run, from its first charge.
    allowed_nanos: u64,
    /// Whether the host refused to build something past the memory cap during this event.
    out_of_memory: bool,
    /// What each state spent of the event's instructions, by slot.
    spent: [u64; MAX_SLOTS],
    /// What all of them spent.
    total: u64,
    /// The instructions the event was granted.
    granted: u64,
    /// Which slots of `spent` are not 0 (one bit a slot): only those are cleared.
    charged: u64,
}

thread_local! {
    /// The frames of the hosts whose events run on this thread: an open one per host, and
    /// the last closed one of each (read for the error that ended it).
    static FRAMES: std::cell::RefCell<Vec<Frame>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// What an event spent, as its frame closes.
#[derive(Clone, Debug)]
pub struct Spent {
    /// Why it was stopped, if it was.
    pub stopped: Option<Stop>,
    /// What all states spent.
    pub total: u64,
    /// What each state spent, by slot (only when the event was stopped: then it is read).
    pub by_slot: Vec<u64>,
    /// Which states spent anything (one bit a slot).
    pub charged: u64,
    /// The instructions the event was granted.
    pub granted: u64,
}

/// What a host counts as its states run, read without a look at the frames (a handler's
/// work is measured by `units` around its call, with the host held, so no other thread's
/// work falls in between).
#[derive(Debug, Default)]
pub struct Counters {
    /// Calls into the states: a game reads it to know whether an action ran any script.
    pub calls: AtomicU64,
    /// Units charged to the states.
    pub units: AtomicU64,
}

/// Where the event under way stands, read at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct Standing {
    /// Whether it (or the last one) was stopped.
    pub stopped: bool,
    /// Its number (see `event_id`).
    pub id: u64,
}

/// One state's handle on its host's events: the instructions left for the event under way
/// and its deadline, shared by every state of the host (handlers, timers, custom events and
/// interface calls into other packs all spend one allowance), with what this state spent.
///
/// The budget is deterministic: the same scripts spend the same units on every machine. The
/// deadline is the last guard against work the units do not count (copying long strings), so
/// that no event runs much past it whatever it calls.
#[derive(Debug)]
pub struct Budget {
    /// The host whose frames this state spends.
    host: usize,
    /// This state's place among the host's states.
    slot: usize,
    /// Whether a call into the state is under way (see `enter`).
    busy: AtomicBool,
    /// The host's counts, shared by its states' budgets (see `Counters`).
    counters: Arc<Counters>,
    /// Whether this is a state's budget (its opens are calls into a state), or the host's
    /// own handle on its events.
    counts_calls: bool,
}

/// Why the running event was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It spent its instruction budget.
    Budget,
    /// It ran past its wall-clock deadline.
    Deadline,
}

impl Frame {
    fn stop(&mut self, why: Stop) {
        if self.stopped == 0 {
            self.stopped = match why {
                Stop::Budget => 1,
                Stop::Deadline => 2,
            };
        }
    }

    fn stopped(&self) -> Option<Stop> {
        match self.stopped {
            0 => None,
            1 => Some(Stop::Budget),
            _ => Some(Stop::Deadline),
        }
    }

    /// Whether the event's deadline has passed (its clock starting now if it had not).
    fn past_deadline(&mut self) -> bool {
        let now = now_nanos();
        if self.deadline_nanos == 0 {
            self.deadline_nanos = now.saturating_add(self.allowed_nanos).max(1);
            return false;
        }
        now > self.deadline_nanos
    }
}

impl Budget {
    /// The handle of the state in `slot` of the host identified by `host`, counting its calls
    /// in `calls`.
    pub fn new(host: usize, slot: usize, counters: Arc<Counters>) -> Budget {
        Budget {
            host,
            slot: slot.min(MAX_SLOTS - 1),
            busy: AtomicBool::new(false),
            counters,
            counts_calls: true,
        }
    }

    /// The host's own handle on its events (opening one is no call into a state).
    pub fn of_host(host: usize, counters: Arc<Counters>) -> Budget {
        Budget {
            counts_calls: false,
            ..Budget::new(host, 0, counters)
        }
    }

    /// The calls into the host's states so far (see `Counters`).
    pub fn calls(&self) -> u64 {
        self.counters.calls.load(Ordering::Relaxed)
    }

    /// The units the host's states were charged so far (see `Counters`).
    pub fn units(&self) -> u64 {
        self.counters.units.load(Ordering::Relaxed)
    }

    /// Joins the host's event under way as this state (it counts among those that ran in
    /// it), and says where it stands: whether it is stopped, and its number.
    pub fn join(&self) -> Standing {
        self.counters.calls.fetch_add(1, Ordering::Relaxed);
        let slot = self.slot;
        self.with_frame(|f| {
            f.charged |= 1 << slot;
            Standing {
                stopped: f.stopped != 0,
                id: f.id,
            }
        })
        .unwrap_or_default()
    }

    /// Runs `read` on this host's frame on this thread, if it has one.
    fn with_frame<R>(&self, read: impl FnOnce(&mut Frame) -> R) -> Option<R> {
        FRAMES.with(|frames| {
            let mut frames = frames.borrow_mut();
            frames
                .iter_mut()
                .rev()
                .find(|f| f.host == self.host)
                .map(read)
        })
    }

    /// Marks a call into the state as under way; returns whether one already was.
    pub fn enter(&self) -> bool {
        self.busy.swap(true, Ordering::Relaxed)
    }

    /// Ends the call `enter` began (`was_busy`: what it returned).
    pub fn leave(&self, was_busy: bool) {
        self.busy.store(was_busy, Ordering::Relaxed);
    }

    /// Whether a call into the state is under way: another state's interface call must not
    /// come back into it (its budget is being spent).
    pub fn busy(&self) -> bool {
        self.busy.load(Ordering::Relaxed)
    }

    /// Opens the host's event on this thread, granting it `instructions` and `time` if none is
    /// open; inside an open one (an engine action, a handler calling into another pack),
    /// joins it. Every `open` is matched by a `close`. Returns where the event stands: whether
    /// it is stopped (its work is then cut), and what was spent of it so far.
    pub fn open(&self, instructions: u64, time: Duration) -> Standing {
        if self.counts_calls {
            self.counters.calls.fetch_add(1, Ordering::Relaxed);
        }
        FRAMES.with(|frames| {
            let mut frames = frames.borrow_mut();
            // Closed frames of other hosts are no longer read: keep the list short.
            let host = self.host;
            // Nearly always the one frame there is, the host's.
            if frames.len() > 1 && frames.last().is_none_or(|f| f.host != host) {
                frames.retain(|f| f.depth > 0 || f.host == host);
            }
            let frame = match frames.iter_mut().rposition(|f| f.host == host) {
                Some(at) => &mut frames[at],
                None => {
                    frames.push(Frame {
                        host,
                        depth: 0,
                        id: 0,
                        remaining: 0,
                        stopped: 0,
                        deadline_nanos: 0,
                        allowed_nanos: 0,
                        out_of_memory: false,
                        spent: [0; MAX_SLOTS],
                        total: 0,
                        granted: 0,
                        charged: 0,
                    });
                    let last = frames.len() - 1;
                    &mut frames[last]
                }
            };
            if frame.depth == 0 {
                frame.id = frame.id.wrapping_add(1);
                frame.remaining = i64::try_from(instructions).unwrap_or(i64::MAX);
                frame.granted = instructions;
                frame.stopped = 0;
                frame.out_of_memory = false;
                // The clock starts at the first charge, not here: most events end before
                // their first charge (the hook's first comes after 256 instructions).
                frame.allowed_nanos = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
                frame.deadline_nanos = 0;
                let mut charged = frame.charged;
                while charged != 0 {
                    frame.spent[charged.trailing_zeros() as usize] = 0;
                    charged &= charged - 1;
                }
                frame.charged = 0;
                frame.total = 0;
            }
            frame.depth += 1;
            Standing {
                stopped: frame.stopped != 0,
                id: frame.id,
            }
        })
    }

    /// Closes what `open` opened; when that ends the event, what it spent.
    pub fn close(&self) -> Option<Spent> {
        self.with_frame(|frame| {
            frame.depth = frame.depth.saturating_sub(1);
            (frame.depth == 0).then(|| Spent {
                stopped: frame.stopped(),
                total: frame.total,
                charged: frame.charged,
                by_slot: if frame.stopped == 0 {
                    Vec::new()
                } else {
                    frame.spent.to_vec()
                },
                granted: frame.granted,
            })
        })
        .flatten()
    }

    /// Whether an event of the host is open on this thread.
    pub fn in_event(&self) -> bool {
        self.with_frame(|f| f.depth > 0).unwrap_or(false)
    }

    /// The event under way (or the last one), as a number that differs from one to the next.
    pub fn event_id(&self) -> u64 {
        self.with_frame(|f| f.id).unwrap_or(0)
    }

    /// Why the event under way (or the last one) was stopped, if it was.
    pub fn stopped(&self) -> Option<Stop> {
        self.with_frame(|f| f.stopped()).flatten()
    }

    /// Whether the event was stopped (budget or deadline).
    pub fn exhausted(&self) -> bool {
        self.stopped().is_some()
    }

    /// What is left, in instructions (0 once spent, or outside any event).
    pub fn remaining(&self) -> u64 {
        self.with_frame(|f| u64::try_from(f.remaining).unwrap_or(0))
            .unwrap_or(0)
    }

    /// Charges `units` of work to the event, as this state's: an error (which pcall cannot
    /// catch) if that is more than is left, or the deadline has passed, or the event was
    /// already stopped, or no event is open (no script runs outside one).
    pub fn charge(&self, units: u64) -> mlua::Result<()> {
        self.counters.units.fetch_add(units, Ordering::Relaxed);
        let units = i64::try_from(units).unwrap_or(i64::MAX);
        let stopped = self.with_frame(|frame| {
            if frame.depth == 0 {
                frame.stop(Stop::Budget);
                return frame.stopped();
            }
            frame.spent[self.slot] = frame.spent[self.slot].saturating_add(units.unsigned_abs());
            frame.charged |= 1 << self.slot;
            frame.total = frame.total.saturating_add(units.unsigned_abs());
            let left = frame.remaining.saturating_sub(units);
            // Kept from wrapping however often a stopped script is charged again.
            frame.remaining = left.max(-1);
            if left < 0 {
                frame.stop(Stop::Budget);
            } else if frame.past_deadline() {
                frame.stop(Stop::Deadline);
            }
            frame.stopped()
        });
        match stopped {
            Some(None) => Ok(()),
            Some(Some(why)) => Err(stop_error(why)),
            None => Err(stop_error(Stop::Budget)),
        }
    }

    /// The error for a result the host will not build because it is past the memory cap;
    /// like Lua's own memory errors, pcall cannot catch it.
    pub fn refuse_memory(&self, what: &str) -> mlua::Error {
        self.with_frame(|f| f.out_of_memory = true);
        mlua::Error::MemoryError(format!("{MEMORY_MESSAGE} ({what})"))
    }

    /// Whether the call must not be allowed to catch its failure: a spent budget, a passed
    /// deadline or a refused allocation.
    pub fn uncatchable(&self) -> bool {
        self.with_frame(|f| f.stopped != 0 || f.out_of_memory)
            .unwrap_or(true)
    }

    /// The error every instruction raises once the event is stopped.
    pub fn spent_error(&self) -> mlua::Error {
        let why = self
            .with_frame(|f| {
                f.stop(Stop::Budget);
                f.stopped()
            })
            .flatten()
            .unwrap_or(Stop::Budget);
        stop_error(why)
    }
}

/// The error a stopped event raises.
fn stop_error(why: Stop) -> mlua::Error {
    match why {
        Stop::Deadline => mlua::Error::runtime(DEADLINE_MESSAGE),
        Stop::Budget => mlua::Error::runtime(BUDGET_MESSAGE),
    }
}

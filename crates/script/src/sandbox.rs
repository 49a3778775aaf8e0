//! The sandboxed Lua state: only table, string, math, utf8 and coroutine; no io, os, package,
//! debug, load, loadfile, dofile, string.dump, collectgarbage or finalizers (`__gc`); chunks as
//! text only; a memory cap; and an instruction budget per event enforced by a hook that every
//! thread carries, which neither coroutines nor pcall can escape.

use super::text::{MAX_CONSOLE_LINES, MAX_PRINT_BYTES, shown_prefix};
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often (in VM instructions) the budget and the deadline are checked: often enough that
/// instructions which copy long strings (`..`) cannot run long between two checks.
const BUDGET_STEP: u32 = 256;

/// The message of the error raised when the budget runs out; pcall cannot hide it.
pub const BUDGET_MESSAGE: &str = "instruction budget exceeded";

/// The message of the error raised when an event runs past its wall-clock deadline.
pub const DEADLINE_MESSAGE: &str = "time limit exceeded";

/// The message Lua raises when the memory cap is reached.
pub const MEMORY_MESSAGE: &str = "not enough memory";

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

/// The error for a value the host will not make for a script because it would pass the
/// memory cap (uncatchable, as Lua's own memory errors are).
pub fn refuse_memory(lua: &Lua, what: &str) -> mlua::Error {
    match lua.app_data_ref::<Arc<Budget>>() {
        Some(budget) => budget.refuse_memory(what),
        None => mlua::Error::MemoryError(format!("{MEMORY_MESSAGE} ({what})")),
    }
}

/// Charges `units` of host work (cells listed, entries built) to the state's budget.
pub fn charge_host_work(lua: &Lua, units: usize) -> mlua::Result<()> {
    match lua.app_data_ref::<Arc<Budget>>() {
        Some(budget) => budget.charge(u64::try_from(units).unwrap_or(u64::MAX)),
        None => Ok(()),
    }
}

/// Where `print` goes: one line per call, with the script that printed it.
pub type Console = Arc<Mutex<std::collections::VecDeque<(String, String)>>>;

/// A new sandboxed state with the given memory cap, budget, console and random seed.
pub fn new_state(
    memory_bytes: usize,
    budget: Arc<Budget>,
    console: Console,
    seed: u64,
) -> mlua::Result<Lua> {
    let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8 | StdLib::COROUTINE;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    let globals = lua.globals();
    for name in [
        "load",
        "loadfile",
        "dofile",
        "collectgarbage",
        "require",
        "module",
    ] {
        globals.raw_set(name, Value::Nil)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set("dump", Value::Nil)?;
    lock_string_metatable(&lua)?;
    install_stable_names(&lua)?;
    refuse_finalizers(&lua)?;
    // Host functions that build results (cells, lists) charge their work through this.
    lua.set_app_data(budget.clone());
    install_print(&lua, console, budget.clone())?;
    install_random(&lua, seed)?;
    install_threads(&lua)?;
    guard_pcall(&lua, budget.clone())?;
    super::bounded::install(&lua, budget.clone(), memory_bytes)?;
    let near = NearTheCap::default();
    lua.set_app_data(near.clone());
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(BUDGET_STEP),
        move |lua, _| {
            // Lua's own memory errors name no place: near the cap, the hook keeps the
            // script's, so that the error can say where the memory ran out.
            if lua.used_memory() > memory_bytes / 10 * 9 {
                near.keep(script_place(lua));
            }
            if let Err(e) = budget.charge(u64::from(BUDGET_STEP)) {
                // Raised by the hook, the error has no place of its own: give it the script's.
                return Err(match script_place(lua) {
                    Some((file, line)) => mlua::Error::runtime(format!("{file}:{line}: {e}")),
                    None => e,
                });
            }
            Ok(VmState::Continue)
        },
    )?;
    lua.set_memory_limit(memory_bytes)?;
    // A collection cycle marks the whole API as well as the scripts' data, which is small:
    // waiting for the heap to grow fourfold instead of twofold halves the cycles. The memory
    // cap still holds, since an allocation it refuses first runs a full collection.
    lua.gc_set_mode(mlua::state::GcMode::Incremental(
        mlua::state::GcIncParams::default().pause(400),
    ));
    Ok(lua)
}

/// The host's own Lua code (the sandbox's, the API's, the standard elementals), compiled once
/// per process and loaded as bytecode afterwards: parsing it was most of what making a state
/// cost. Only the host's code goes this way; scripts always load as text, and the sandbox
/// refuses their bytecode.
pub fn host_chunk<'a>(
    lua: &'a Lua,
    name: &str,
    source: &str,
) -> mlua::Result<mlua::chunk::Chunk<'a>> {
    use std::hash::{Hash, Hasher};
    static COMPILED: std::sync::LazyLock<Mutex<std::collections::HashMap<u64, Vec<u8>>>> =
        std::sync::LazyLock::new(Mutex::default);
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (name, source).hash(&mut hasher);
    let key = hasher.finish();
    let cached = COMPILED
        .lock()
        .ok()
        .and_then(|compiled| compiled.get(&key).cloned());
    let bytes = match cached {
        Some(bytes) => bytes,
        None => {
            let compiled = lua
                .load(source)
                .set_name(name)
                .set_mode(mlua::chunk::ChunkMode::Text)
                .into_function()?
                .dump(false);
            if let Ok(mut cache) = COMPILED.lock() {
                cache.insert(key, compiled.clone());
            }
            compiled
        }
    };
    Ok(lua
        .load(bytes)
        .set_name(name)
        .set_mode(mlua::chunk::ChunkMode::Binary))
}

/// `getmetatable("")` would hand scripts the string library to rewrite for everyone.
fn lock_string_metatable(lua: &Lua) -> mlua::Result<()> {
    host_chunk(
        lua,
        "=sandbox",
        r#"local mt = getmetatable(""); mt.__metatable = "locked""#,
    )?
    .exec()
}

/// `tostring` names a table, function, thread or userdata by a number given the first time it
/// is shown (`table: #3`) instead of its address, which differs between runs: a script that
/// shows or compares such names behaves the same in a game and in its replay. The names are
/// kept in a weak table (the sandbox's own; scripts cannot make one), so naming keeps nothing
/// alive, and a number is never given twice.
fn install_stable_names(lua: &Lua) -> mlua::Result<()> {
    host_chunk(lua, "=sandbox", r#"
        local raw_tostring, type, setmetatable, find, sub = tostring, type, setmetatable, string.find, string.sub
        local names = setmetatable({}, { __mode = "k" })
        local count = 0
        local referenced = { table = true, ["function"] = true, thread = true, userdata = true }
        tostring = function(...)
            local v = ...
            local s = raw_tostring(...)
            if not referenced[type(v)] then return s end
            local at = find(s, ": 0x", 1, true)
            if not at or find(s, "[^%x]", at + 4) then return s end
            local name = names[v]
            if name == nil then
                count = count + 1
                name = count
                names[v] = name
            end
            return sub(s, 1, at - 1) .. ": #" .. name
        end
        "#)?
    .exec()
}

/// Where the registry keeps the unguarded `setmetatable`, for the sandbox's own code.
pub const RAW_SETMETATABLE: &str = "scryptic.raw_setmetatable";

/// `setmetatable` refuses a `__gc` field: a finalizer would run script code whenever the
/// collector happens to run (inside the host's own work, outside any event), and games must
/// not depend on when that is.
fn refuse_finalizers(lua: &Lua) -> mlua::Result<()> {
    // The sandbox's own code may still make weak tables (see `isolation`).
    let raw: Function = lua.globals().get("setmetatable")?;
    lua.set_named_registry_value(RAW_SETMETATABLE, raw)?;
    host_chunk(lua, "=sandbox", r#"
        local raw_setmetatable, rawget, type, error = setmetatable, rawget, type, error
        setmetatable = function(t, mt)
            if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
                error("finalizers (__gc) are not available to scripts", 2)
            end
            if type(mt) == "table" and rawget(mt, "__close") ~= nil then
                error("to-be-closed handlers (__close) are not available to scripts", 2)
            end
            if type(mt) == "table" and rawget(mt, "__mode") ~= nil then
                error("weak tables (__mode) are not available to scripts: what they hold would depend on when the collector runs", 2)
            end
            return raw_setmetatable(t, mt)
        end
        "#)?
    .exec()
}

fn install_print(lua: &Lua, console: Console, budget: Arc<Budget>) -> mlua::Result<()> {
    // The library's own `tostring`, taken now: a script's replacement must not run here, and
    // an error it raises (a spent budget among them) goes on up instead of being printed.
    let tostring: Function = lua.globals().get("tostring")?;
    let print = lua.create_function(move |lua, args: MultiValue| {
        // Only the first bytes of a long value are copied out of Lua, and the console keeps
        // the latest lines only, so printing cannot grow the host.
        let (mut line, mut more) = (Vec::new(), 0);
        for (i, value) in args.into_iter().enumerate() {
            let text = tostring.call::<mlua::LuaString>(value)?;
            let bytes = text.as_bytes();
            if i > 0 {
                line.push(b'\t');
            }
            let kept = bytes.len().min(MAX_PRINT_BYTES.saturating_sub(line.len()));
            line.extend_from_slice(&bytes[..kept]);
            more += bytes.len() - kept;
        }
        // Escaping and keeping a line is work the instruction count does not see.
        budget.charge(line.len() as u64 / 4 + 1)?;
        let script = current_script(lua).unwrap_or_default();
        if let Ok(mut lines) = console.lock() {
            if lines.len() >= MAX_CONSOLE_LINES {
                lines.pop_front();
            }
            lines.push_back((
                script,
                shown_prefix(&line, more, MAX_PRINT_BYTES, super::text::Lines::Kept),
            ));
        }
        Ok(())
    })?;
    lua.globals().raw_set("print", print)
}

/// Where a script ran when its state last came near its memory cap: where a memory error,
/// which names no place, most likely happened.
#[derive(Clone, Default)]
pub struct NearTheCap(Arc<Mutex<Option<(String, usize)>>>);

impl NearTheCap {
    fn keep(&self, place: Option<(String, usize)>) {
        if let (Some(place), Ok(mut kept)) = (place, self.0.lock()) {
            *kept = Some(place);
        }
    }

    /// The place kept, taken (the next error starts afresh).
    pub fn take(lua: &Lua) -> Option<(String, usize)> {
        let near = lua.app_data_ref::<NearTheCap>()?;
        let mut kept = near.0.lock().ok()?;
        kept.take()
    }
}

/// The file and line of the innermost script frame (not the sandbox's own code).
fn script_place(lua: &Lua) -> Option<(String, usize)> {
    nearest_script_frame(lua, 0..16, |d, file| Some((file, d.current_line()?)))
}

/// The script whose code called into Rust: the chunk name of the nearest Lua frame.
pub fn current_script(lua: &Lua) -> Option<String> {
    nearest_script_frame(lua, 1..8, |_, file| Some(file))
}

/// What `read` makes of the nearest frame among stack `levels` that is a script's own code
/// (not a C function's, nor the sandbox's), given the frame and its file's name.
fn nearest_script_frame<R>(
    lua: &Lua,
    levels: std::ops::Range<usize>,
    read: impl Fn(&mlua::debug::Debug<'_>, String) -> Option<R>,
) -> Option<R> {
    levels.into_iter().find_map(|level| {
        lua.inspect_stack(level, |d| {
            let file = d
                .source()
                .source?
                .trim_start_matches(['@', '='])
                .to_string();
            if file.starts_with('[') || file == "sandbox" {
                return None;
            }
            read(d, file)
        })
        .flatten()
    })
}

/// The scripts' random generator (`math.random`'s), for the API's random draws.
pub struct ScriptRng(pub Arc<Mutex<ChaCha8Rng>>);

/// Runs `call` with the state's random draws (`math.random`, a token's random region) taken
/// from `game_rng` (the game's generator, which they move on), and puts the state's own stream
/// back after. A token's effect draws this way, as a built-in token does: a copy of the game
/// (the AI looking ahead) that invokes a token moves its own copy's generator, never the
/// stream the game goes on with, and a Lua elemental draws exactly what the built-in one would.
pub fn with_random_stream<R>(lua: &Lua, game_rng: &mut ChaCha8Rng, call: impl FnOnce() -> R) -> R {
    let Some(rng) = lua.app_data_ref::<ScriptRng>().map(|r| r.0.clone()) else {
        return call();
    };
    let saved = match rng.lock() {
        Ok(mut stream) => std::mem::replace(&mut *stream, game_rng.clone()),
        Err(_) => return call(),
    };
    let result = call();
    if let Ok(mut stream) = rng.lock() {
        *game_rng = std::mem::replace(&mut *stream, saved);
    }
    result
}

/// `math.random` draws from a seeded ChaCha generator, so scripted games replay exactly.
fn install_random(lua: &Lua, seed: u64) -> mlua::Result<()> {
    let rng = Arc::new(Mutex::new(ChaCha8Rng::seed_from_u64(seed)));
    // The API's own random draws (a token's random region) come from the same generator.
    lua.set_app_data(ScriptRng(rng.clone()));
    let random = lua.create_function(move |_, (m, n): (Option<i64>, Option<i64>)| {
        let mut rng = rng
            .lock()
            .map_err(|_| mlua::Error::runtime("random generator unavailable"))?;
        match (m, n) {
            (None, _) => Ok(Value::Number(rng.random::<f64>())),
            (Some(m), None) if m >= 1 => Ok(Value::Integer(rng.random_range(1..=m))),
            (Some(m), Some(n)) if m <= n => Ok(Value::Integer(rng.random_range(m..=n))),
            _ => Err(mlua::Error::runtime(
                "bad argument to 'random' (interval is empty)",
            )),
        }
    })?;
    let math: Table = lua.globals().get("math")?;
    math.raw_set("random", random)?;
    math.raw_set("randomseed", Value::Nil)
}

/// Threads made by `coroutine.create` and `coroutine.wrap` are made by mlua, so that they
/// carry the budget hook (Lua 5.4 hooks are per thread).
fn install_threads(lua: &Lua) -> mlua::Result<()> {
    let create = lua.create_function(|lua, f: Function| lua.create_thread(f))?;
    let coroutine: Table = lua.globals().get("coroutine")?;
    coroutine.raw_set("create", create)?;
    host_chunk(lua, "=sandbox", r#"
        local create, resume, pack, unpack = coroutine.create, coroutine.resume, table.pack, table.unpack
        coroutine.wrap = function(f)
            local co = create(f)
            return function(...)
                local r = pack(resume(co, ...))
                if r[1] then return unpack(r, 2, r.n) end
                error(r[2], 0)
            end
        end
        "#)?
    .exec()
}

/// `pcall`, `xpcall` and `coroutine.resume` (which all catch errors) re-raise a spent budget
/// and a full memory, so a script cannot catch its way past its limits.
fn guard_pcall(lua: &Lua, budget: Arc<Budget>) -> mlua::Result<()> {
    let spent = lua.create_function(move |_, ()| Ok(budget.uncatchable()))?;
    let guard: Function = host_chunk(
        lua,
        "=sandbox",
        r#"
            local spent, memory, raw_pcall, raw_resume, raw_close, pack, unpack = ...
            local function checked(r)
                if not r[1] and (spent() or r[2] == memory) then error(r[2], 0) end
                return r
            end
            local function check(r) r = checked(r) return unpack(r, 1, r.n) end
            pcall = function(f, ...) return check(pack(raw_pcall(f, ...))) end
            -- The handler runs once the error has unwound, as a plain call: Lua would run it
            -- inside the budget hook when the hook raised the error, where no hook fires.
            xpcall = function(f, h, ...)
                local r = checked(pack(raw_pcall(f, ...)))
                if r[1] then return unpack(r, 1, r.n) end
                return false, h(r[2])
            end
            coroutine.resume = function(co, ...) return check(pack(raw_resume(co, ...))) end
            coroutine.close = function(co) return check(pack(raw_close(co))) end
            "#,
    )?
    .into_function()?;
    let g = lua.globals();
    let table: Table = g.get("table")?;
    let coroutine: Table = g.get("coroutine")?;
    let raw = (
        g.get::<Function>("pcall")?,
        coroutine.get::<Function>("resume")?,
        coroutine.get::<Function>("close")?,
    );
    guard.call::<()>((
        spent,
        MEMORY_MESSAGE,
        raw.0,
        raw.1,
        raw.2,
        table.get::<Function>("pack")?,
        table.get::<Function>("unpack")?,
    ))
}

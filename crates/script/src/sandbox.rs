//! The sandboxed Lua state: only table, string, math, utf8 and coroutine; no io, os, package,
//! debug, load, loadfile, dofile, string.dump, collectgarbage or finalizers (`__gc`); chunks as
//! text only; a memory cap; and an instruction budget per event enforced by a hook that every
//! thread carries, which neither coroutines nor pcall can escape.

use super::text::{MAX_CONSOLE_LINES, MAX_PRINT_BYTES, shown_prefix};
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU64, Ordering};
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

/// Why the running event was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It spent its instruction budget.
    Budget,
    /// It ran past its wall-clock deadline.
    Deadline,
}

/// Nanoseconds since the first call, on a monotonic clock.
fn now_nanos() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// The instructions left for the running event, and its deadline.
///
/// The budget is deterministic: the same script spends the same units on every machine. The
/// deadline is the last guard against work the units do not count (copying long strings), so
/// that no event runs much past it whatever it calls.
#[derive(Debug, Default)]
pub struct Budget {
    remaining: AtomicI64,
    /// 0 while the event may go on, else 1 (budget) or 2 (deadline).
    stopped: AtomicU8,
    /// When the event must end (0: its clock has not started).
    deadline_nanos: AtomicU64,
    /// How long an event may run, from its first charge.
    allowed_nanos: AtomicU64,
    /// Whether the host refused to build something past the memory cap for this call.
    out_of_memory: AtomicBool,
    /// Whether a call into the state is under way (see `enter`).
    busy: AtomicBool,
}

impl Budget {
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

    /// Grants `instructions` and `time` for the next call.
    pub fn reset(&self, instructions: u64, time: Duration) {
        self.remaining.store(
            i64::try_from(instructions).unwrap_or(i64::MAX),
            Ordering::Relaxed,
        );
        self.stopped.store(0, Ordering::Relaxed);
        self.out_of_memory.store(false, Ordering::Relaxed);
        // The clock starts at the first charge, not here: most events end before their first
        // charge (the hook's first comes after 256 instructions), and then never read it.
        let time = u64::try_from(time.as_nanos()).unwrap_or(u64::MAX);
        self.allowed_nanos.store(time, Ordering::Relaxed);
        self.deadline_nanos.store(0, Ordering::Relaxed);
    }

    /// Whether the event's deadline has passed (its clock starting now if it had not).
    fn past_deadline(&self) -> bool {
        let now = now_nanos();
        let deadline = self.deadline_nanos.load(Ordering::Relaxed);
        if deadline == 0 {
            let allowed = self.allowed_nanos.load(Ordering::Relaxed);
            self.deadline_nanos
                .store(now.saturating_add(allowed).max(1), Ordering::Relaxed);
            return false;
        }
        now > deadline
    }

    /// Why the last call was stopped, if it was.
    pub fn stopped(&self) -> Option<Stop> {
        match self.stopped.load(Ordering::Relaxed) {
            0 => None,
            1 => Some(Stop::Budget),
            _ => Some(Stop::Deadline),
        }
    }

    /// Whether the last call was stopped (budget or deadline).
    pub fn exhausted(&self) -> bool {
        self.stopped().is_some()
    }

    /// What is left, in instructions (0 once spent).
    pub fn remaining(&self) -> u64 {
        u64::try_from(self.remaining.load(Ordering::Relaxed)).unwrap_or(0)
    }

    /// Charges `units` of work: an error (which pcall cannot catch) if that is more than is
    /// left, or the deadline has passed, or the event was already stopped.
    pub fn charge(&self, units: u64) -> mlua::Result<()> {
        let units = i64::try_from(units).unwrap_or(i64::MAX);
        let left = self
            .remaining
            .fetch_sub(units, Ordering::Relaxed)
            .saturating_sub(units);
        if left < 0 {
            // Keep it from wrapping however often a stopped script is charged again.
            self.remaining.store(-1, Ordering::Relaxed);
            self.stop(Stop::Budget);
        } else if self.past_deadline() {
            self.stop(Stop::Deadline);
        }
        match self.stopped() {
            None => Ok(()),
            Some(_) => Err(self.spent_error()),
        }
    }

    fn stop(&self, why: Stop) {
        let code = match why {
            Stop::Budget => 1,
            Stop::Deadline => 2,
        };
        let _ = self
            .stopped
            .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The error for a result the host will not build because it is past the memory cap;
    /// like Lua's own memory errors, pcall cannot catch it.
    pub fn refuse_memory(&self, what: &str) -> mlua::Error {
        self.out_of_memory.store(true, Ordering::Relaxed);
        mlua::Error::MemoryError(format!("{MEMORY_MESSAGE} ({what})"))
    }

    /// Whether the call must not be allowed to catch its failure: a spent budget, a passed
    /// deadline or a refused allocation.
    pub fn uncatchable(&self) -> bool {
        self.exhausted() || self.out_of_memory.load(Ordering::Relaxed)
    }

    /// The error every instruction raises once the event is stopped.
    pub fn spent_error(&self) -> mlua::Error {
        match self.stopped() {
            Some(Stop::Deadline) => mlua::Error::runtime(DEADLINE_MESSAGE),
            _ => {
                self.stop(Stop::Budget);
                mlua::Error::runtime(BUDGET_MESSAGE)
            }
        }
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
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(BUDGET_STEP),
        move |lua, _| {
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
            lines.push_back((script, shown_prefix(&line, more, MAX_PRINT_BYTES)));
        }
        Ok(())
    })?;
    lua.globals().raw_set("print", print)
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

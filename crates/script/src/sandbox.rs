//! The sandboxed Lua state: only table, string, math, utf8 and coroutine; no io, os, package,
//! debug, load, loadfile, dofile, string.dump, collectgarbage or finalizers (`__gc`); chunks as
//! text only; a memory cap; and an instruction budget per event enforced by a hook that every
//! thread carries, which neither coroutines nor pcall can escape.

use super::text::{MAX_CONSOLE_LINES, MAX_PRINT_BYTES, shown_prefix};
use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};

mod budget;

pub use budget::{Budget, Counters, Spent, Stop};

/// How often (in VM instructions) the budget and the deadline are checked: often enough that
/// instructions which copy long strings (`..`) cannot run long between two checks.
const BUDGET_STEP: u32 = 256;

/// The message of the error raised when the budget runs out; pcall cannot hide it.
pub const BUDGET_MESSAGE: &str = "instruction budget exceeded";

/// The message of the error raised when an event runs past its wall-clock deadline.
pub const DEADLINE_MESSAGE: &str = "time limit exceeded";

/// The message Lua raises when the memory cap is reached.
pub const MEMORY_MESSAGE: &str = "not enough memory";

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

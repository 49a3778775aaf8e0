//! The sandboxed Lua state: only table, string, math, utf8 and coroutine; no io, os, package,
//! debug, load, loadfile, dofile, string.dump, collectgarbage or finalizers (`__gc`); chunks as
//! text only; a memory cap; and an instruction budget per event enforced by a hook that every
//! thread carries, which neither coroutines nor pcall can escape.

use mlua::{Function, HookTriggers, Lua, LuaOptions, MultiValue, StdLib, Table, Value, VmState};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

/// How often (in VM instructions) the budget is checked.
const BUDGET_STEP: u32 = 1000;

/// The message of the error raised when the budget runs out; pcall cannot hide it.
pub const BUDGET_MESSAGE: &str = "instruction budget exceeded";

/// The message Lua raises when the memory cap is reached.
pub const MEMORY_MESSAGE: &str = "not enough memory";

/// The instructions left for the running event.
#[derive(Debug, Default)]
pub struct Budget {
    remaining: AtomicI64,
    exhausted: AtomicBool,
}

impl Budget {
    /// Grants `instructions` for the next call.
    pub fn reset(&self, instructions: u64) {
        self.remaining.store(
            i64::try_from(instructions).unwrap_or(i64::MAX),
            Ordering::Relaxed,
        );
        self.exhausted.store(false, Ordering::Relaxed);
    }

    /// Whether the last call ran out.
    pub fn exhausted(&self) -> bool {
        self.exhausted.load(Ordering::Relaxed)
    }

    fn spend(&self) -> bool {
        let left = self
            .remaining
            .fetch_sub(i64::from(BUDGET_STEP), Ordering::Relaxed)
            - i64::from(BUDGET_STEP);
        if left < 0 {
            self.exhausted.store(true, Ordering::Relaxed);
        }
        left >= 0
    }
}

/// Where `print` goes: one line per call, with the script that printed it.
pub type Console = Arc<Mutex<Vec<(String, String)>>>;

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
    refuse_finalizers(&lua)?;
    install_print(&lua, console)?;
    install_random(&lua, seed)?;
    install_threads(&lua)?;
    guard_pcall(&lua, budget.clone())?;
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(BUDGET_STEP),
        move |_, _| {
            if budget.spend() {
                Ok(VmState::Continue)
            } else {
                Err(mlua::Error::runtime(BUDGET_MESSAGE))
            }
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

/// `getmetatable("")` would hand scripts the string library to rewrite for everyone.
fn lock_string_metatable(lua: &Lua) -> mlua::Result<()> {
    lua.load(r#"local mt = getmetatable(""); mt.__metatable = "locked""#)
        .set_name("=sandbox")
        .exec()
}

/// `setmetatable` refuses a `__gc` field: a finalizer would run script code whenever the
/// collector happens to run (inside the host's own work, outside any event), and games must
/// not depend on when that is.
fn refuse_finalizers(lua: &Lua) -> mlua::Result<()> {
    lua.load(
        r#"
        local raw_setmetatable, rawget, type, error = setmetatable, rawget, type, error
        setmetatable = function(t, mt)
            if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
                error("finalizers (__gc) are not available to scripts", 2)
            end
            return raw_setmetatable(t, mt)
        end
        "#,
    )
    .set_name("=sandbox")
    .exec()
}

fn install_print(lua: &Lua, console: Console) -> mlua::Result<()> {
    let print = lua.create_function(move |lua, args: MultiValue| {
        let parts: Vec<String> = args.iter().map(|v| display(lua, v)).collect();
        let script = current_script(lua).unwrap_or_default();
        if let Ok(mut lines) = console.lock() {
            lines.push((script, parts.join("\t")));
        }
        Ok(())
    })?;
    lua.globals().raw_set("print", print)
}

/// A value as `tostring` would show it.
fn display(lua: &Lua, value: &Value) -> String {
    match lua
        .globals()
        .get::<Function>("tostring")
        .and_then(|f| f.call::<String>(value.clone()))
    {
        Ok(s) => s,
        Err(_) => format!("{value:?}"),
    }
}

/// The script whose code called into Rust: the chunk name of the nearest Lua frame.
pub fn current_script(lua: &Lua) -> Option<String> {
    (1..8).find_map(|level| {
        lua.inspect_stack(level, |d| {
            d.source()
                .source
                .map(|s| s.trim_start_matches(['@', '=']).to_string())
        })
        .flatten()
        .filter(|s| !s.starts_with('[') && s != "sandbox")
    })
}

/// `math.random` draws from a seeded ChaCha generator, so scripted games replay exactly.
fn install_random(lua: &Lua, seed: u64) -> mlua::Result<()> {
    let rng = Arc::new(Mutex::new(ChaCha8Rng::seed_from_u64(seed)));
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
    lua.load(
        r#"
        local create, resume, pack, unpack = coroutine.create, coroutine.resume, table.pack, table.unpack
        coroutine.wrap = function(f)
            local co = create(f)
            return function(...)
                local r = pack(resume(co, ...))
                if r[1] then return unpack(r, 2, r.n) end
                error(r[2], 0)
            end
        end
        "#,
    )
    .set_name("=sandbox")
    .exec()
}

/// `pcall`, `xpcall` and `coroutine.resume` (which all catch errors) re-raise a spent budget
/// and a full memory, so a script cannot catch its way past its limits.
fn guard_pcall(lua: &Lua, budget: Arc<Budget>) -> mlua::Result<()> {
    let spent = lua.create_function(move |_, ()| Ok(budget.exhausted()))?;
    let guard: Function = lua
        .load(
            r#"
            local spent, memory, raw_pcall, raw_xpcall, raw_resume, pack, unpack = ...
            local function check(r)
                if not r[1] and (spent() or r[2] == memory) then error(r[2], 0) end
                return unpack(r, 1, r.n)
            end
            pcall = function(f, ...) return check(pack(raw_pcall(f, ...))) end
            xpcall = function(f, h, ...) return check(pack(raw_xpcall(f, h, ...))) end
            coroutine.resume = function(co, ...) return check(pack(raw_resume(co, ...))) end
            "#,
        )
        .set_name("=sandbox")
        .into_function()?;
    let g = lua.globals();
    let table: Table = g.get("table")?;
    let coroutine: Table = g.get("coroutine")?;
    let raw = (
        g.get::<Function>("pcall")?,
        g.get::<Function>("xpcall")?,
        coroutine.get::<Function>("resume")?,
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

//! Declared interfaces between scripts (and the packs they come from), as Factorio's remote
//! interfaces: `scryptic.provide(name, table)` offers a table of functions and values;
//! `scryptic.use(name)` returns a view of it in which every value is a copy and every function
//! copies what it is given and what it returns. So no script reaches another's tables: what
//! crosses an interface is strings, numbers, booleans and tables of them. An interface another
//! pack provides lives in that pack's state: `use` finds it there (its own pack's first), copies
//! between the states, and calls its functions under that state's budget.

use super::text::Name;
use super::{Definition, Registry, current_script, lock};
use crate::limits::{MAX_DEFINITIONS_PER_SCRIPT, MAX_ID_CHARS};
use mlua::{Function, Lua, Table, Value};
use std::sync::{Arc, Mutex};

/// The host's Lua for views: a copy bounded in depth that refuses functions and other
/// references, and a wrapper that copies a function's arguments and results.
const VIEW_MAKER: &str = r#"
local type, next, error, pack, unpack = type, next, error, table.pack, table.unpack
local function copy(v, depth)
    local t = type(v)
    if t == "table" then
        if depth > 16 then
            error("a value passed through an interface is nested more than 16 tables deep", 0)
        end
        local out = {}
        for k, x in next, v do
            local kt = type(k)
            if kt ~= "string" and kt ~= "number" then
                error("a table passed through an interface has keys that are strings or numbers", 0)
            end
            out[k] = copy(x, depth + 1)
        end
        return out
    elseif t == "function" or t == "thread" or t == "userdata" then
        error("an interface passes values only (strings, numbers, booleans and tables of them), not a " .. t, 0)
    end
    return v
end
local function wrap(f)
    return function(...)
        local args = pack(...)
        for i = 1, args.n do args[i] = copy(args[i], 0) end
        local results = pack(f(unpack(args, 1, args.n)))
        for i = 1, results.n do results[i] = copy(results[i], 0) end
        return unpack(results, 1, results.n)
    end
end
return function(provided)
    local view = {}
    for k, v in next, provided do
        if type(v) == "function" then view[k] = wrap(v) else view[k] = copy(v, 0) end
    end
    return view
end, function(v) return copy(v, 0) end
"#;

/// The most custom events waiting to be handled at once (a handler that emits the event it
/// handles would otherwise never end).
pub(super) const MAX_EMITTED: usize = 256;

/// Whether `name` is a custom event's (namespaced: `economy:payday`).
pub(super) fn is_custom_event(name: &str) -> bool {
    name.contains(':')
        && name.chars().count() <= MAX_ID_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

/// Installs `scryptic.provide`, `scryptic.use` and `scryptic.emit` into `api`.
pub(super) fn install(lua: &Lua, api: &Table, registry: &Arc<Mutex<Registry>>) -> mlua::Result<()> {
    let (make_view, copy): (Function, Function) =
        super::sandbox::host_chunk(lua, "=sandbox", VIEW_MAKER)?.eval()?;
    let reg = registry.clone();
    api.raw_set(
        "emit",
        lua.create_function(move |lua, (name, fields): (Name, Option<Table>)| {
            if !is_custom_event(&name) {
                return Err(mlua::Error::runtime(format!(
                    "scryptic.emit sends custom events, named with a `:` (`economy:payday`), not `{}`",
                    crate::diag::shorten(&name, 64)
                )));
            }
            let fields: Table = match fields {
                Some(fields) => copy.call(fields)?,
                None => lua.create_table()?,
            };
            let (links, slot) = {
                let r = lock(&reg)?;
                (r.links.clone(), r.slot)
            };
            links.emit(name.into_string(), slot, fields)
        })?,
    )?;
    let reg = registry.clone();
    api.raw_set(
        "provide",
        lua.create_function(move |lua, (name, table): (Name, Table)| {
            provide(lua, &reg, name.into_string(), table)
        })?,
    )?;
    let reg = registry.clone();
    api.raw_set(
        "use",
        lua.create_function(move |lua, name: Name| {
            let (own, links, slot, name) = {
                let r = lock(&reg)?;
                let name = full_name(&r.own_pack, &name);
                let own = r.interfaces.iter().find(|d| d.id == name);
                (own.map(|d| d.table.clone()), r.links.clone(), r.slot, name)
            };
            if let Some(provided) = own {
                return make_view.call::<Table>(provided);
            }
            match links.provided(&name, slot) {
                Some((pack, provided)) => foreign_view(lua, &pack, &name, &provided),
                None => Err(mlua::Error::runtime(format!(
                    "no script provides interface `{}`; provided: {} (a script that uses one at \
                     load time must load after the one that provides it)",
                    crate::diag::shorten(&name, 64),
                    match links.interface_names() {
                        names if names.is_empty() => "none".to_string(),
                        names => names.join(", "),
                    }
                ))),
            }
        })?,
    )?;
    Ok(())
}

/// The most tables deep a value passed through an interface may nest (as `VIEW_MAKER`'s).
const MAX_COPY_DEPTH: usize = 16;

/// A copy of `value` made in the state `to`: strings, numbers, booleans and tables of them
/// (keyed by strings or numbers), nested at most `MAX_COPY_DEPTH` tables deep. Copying is
/// charged to `to`'s budget, so a table shared many times over cannot copy without end.
pub(super) fn transfer(value: &Value, to: &Lua, depth: usize) -> mlua::Result<Value> {
    Ok(match value {
        Value::Nil => Value::Nil,
        Value::Boolean(b) => Value::Boolean(*b),
        Value::Integer(i) => Value::Integer(*i),
        Value::Number(n) => Value::Number(*n),
        Value::String(text) => {
            let bytes = text.as_bytes();
            super::sandbox::charge_host_work(to, 1 + bytes.len() / 64)?;
            Value::String(to.create_string(&bytes)?)
        }
        Value::Table(table) => {
            if depth > MAX_COPY_DEPTH {
                return Err(mlua::Error::runtime(format!(
                    "a value passed through an interface is nested more than {MAX_COPY_DEPTH} tables deep"
                )));
            }
            let out = to.create_table()?;
            for pair in table.pairs::<Value, Value>() {
                let (key, item) = pair?;
                if !matches!(key, Value::String(_) | Value::Integer(_) | Value::Number(_)) {
                    return Err(mlua::Error::runtime(
                        "a table passed through an interface has keys that are strings or numbers",
                    ));
                }
                super::sandbox::charge_host_work(to, 1)?;
                out.raw_set(
                    transfer(&key, to, depth + 1)?,
                    transfer(&item, to, depth + 1)?,
                )?;
            }
            Value::Table(out)
        }
        other => {
            return Err(mlua::Error::runtime(format!(
                "an interface passes values only (strings, numbers, booleans and tables of them), not a {}",
                other.type_name()
            )));
        }
    })
}

/// A view, in the state `lua`, of interface `name` that another pack's state provides: its
/// values copied here, its functions called there (see `foreign_function`).
fn foreign_view(lua: &Lua, pack: &str, name: &str, provided: &Table) -> mlua::Result<Table> {
    let view = lua.create_table()?;
    for pair in provided.pairs::<Value, Value>() {
        let (key, value) = pair?;
        let value = match value {
            Value::Function(f) => Value::Function(foreign_function(lua, pack, name, f)?),
            other => transfer(&other, lua, 0)?,
        };
        view.raw_set(transfer(&key, lua, 0)?, value)?;
    }
    Ok(view)
}

/// A function of the state `lua` that calls `f` in the state of pack `pack`: the arguments
/// copied there, the results copied back, within the caller's event (one budget and deadline
/// for everything an event runs). A call that would come back into a state whose script is
/// running (a cycle of interfaces) is refused.
fn foreign_function(lua: &Lua, pack: &str, name: &str, f: Function) -> mlua::Result<Function> {
    let (pack, name) = (pack.to_string(), name.to_string());
    lua.create_function(move |lua, args: mlua::MultiValue| -> mlua::Result<mlua::MultiValue> {
        let Some(there) = f.weak_lua().try_upgrade() else {
            return Err(mlua::Error::runtime(format!(
                "interface `{name}` of pack `{pack}` is gone"
            )));
        };
        let (budget, limits) = match (
            there.app_data_ref::<Arc<super::sandbox::Budget>>(),
            there.app_data_ref::<super::ScriptLimits>(),
        ) {
            (Some(budget), Some(limits)) => (budget.clone(), *limits),
            _ => return Err(mlua::Error::runtime("the script host is unavailable")),
        };
        if budget.busy() {
            return Err(mlua::Error::runtime(format!(
                "interface `{name}` of pack `{pack}` would call back into a pack whose script is \
                 running (interfaces used in a cycle): break the cycle"
            )));
        }
        // Within the caller's event: what the callee spends comes out of the one allowance
        // (counted as the callee's pack's), and its deadline is the event's.
        budget.open(limits.instructions, limits.deadline);
        let was_busy = budget.enter();
        let called = args
            .iter()
            .map(|v| transfer(v, &there, 0))
            .collect::<mlua::Result<mlua::MultiValue>>()
            .and_then(|args| f.call::<mlua::MultiValue>(args));
        budget.leave(was_busy);
        budget.close();
        match called {
            Ok(results) => results.iter().map(|v| transfer(v, lua, 0)).collect(),
            Err(e) => {
                let _ = there.gc_collect();
                Err(mlua::Error::runtime(format!(
                    "interface `{name}` of pack `{pack}`: {e}"
                )))
            }
        }
    })
}

/// The whole name of interface `name` as a script of pack `pack` writes it: `pack:name` for a
/// name without a pack (its own pack's), the name itself otherwise (and in a level outside
/// any pack).
fn full_name(pack: &str, name: &str) -> String {
    if pack.is_empty() || name.contains(':') {
        name.to_string()
    } else {
        format!("{pack}:{name}")
    }
}

/// Registers interface `name` as `table`, offered by the script now running. An interface
/// belongs to the pack that provides it (`economy:bank`, or `bank` written in pack `economy`):
/// a pack may not provide another pack's, and no two states provide one name.
fn provide(
    lua: &Lua,
    registry: &Arc<Mutex<Registry>>,
    name: String,
    table: Table,
) -> mlua::Result<()> {
    let valid = !name.is_empty()
        && name.chars().count() <= MAX_ID_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'));
    if !valid {
        return Err(mlua::Error::runtime(format!(
            "an interface's name is 1 to {MAX_ID_CHARS} letters, digits, `_`, `-`, `.` or `:` \
             (`bank` or `economy:bank`), not `{}`",
            crate::diag::shorten(&name, 64)
        )));
    }
    for pair in table.pairs::<Value, Value>() {
        let (key, _) = pair?;
        if !matches!(key, Value::String(_)) {
            return Err(mlua::Error::runtime(format!(
                "interface `{name}` is a table of named functions and values: its keys are strings"
            )));
        }
    }
    let script = current_script(lua).unwrap_or_default();
    let (name, links, slot) = {
        let r = lock(registry)?;
        (full_name(&r.own_pack, &name), r.links.clone(), r.slot)
    };
    let own_pack = lock(registry)?.own_pack.clone();
    if let Some((owner, _)) = name.split_once(':')
        && !own_pack.is_empty()
        && owner != own_pack
    {
        return Err(mlua::Error::runtime(format!(
            "pack `{own_pack}` provides interfaces named `{own_pack}:NAME` (or `NAME`), not \
             `{name}`, which belongs to pack `{owner}`"
        )));
    }
    if let Some((pack, script)) = links.provider(&name, slot) {
        return Err(mlua::Error::runtime(format!(
            "interface `{name}` is already provided by {script} of {}: one provider an \
             interface; name yours differently",
            if pack.is_empty() {
                "the level".to_string()
            } else {
                format!("pack `{pack}`")
            }
        )));
    }
    let mut r = lock(registry)?;
    if let Some(other) = r
        .interfaces
        .iter()
        .find(|d| d.id == name && d.script != script)
    {
        return Err(mlua::Error::runtime(format!(
            "interface `{name}` is already provided by {}; name yours differently",
            other.script
        )));
    }
    r.interfaces.retain(|d| d.id != name);
    if r.interfaces.iter().filter(|d| d.script == script).count() >= MAX_DEFINITIONS_PER_SCRIPT {
        return Err(mlua::Error::runtime(format!(
            "{script} already provides {MAX_DEFINITIONS_PER_SCRIPT} interfaces, the most one script may"
        )));
    }
    r.interfaces.push(Definition {
        script,
        id: name,
        table,
        failures: 0,
    });
    Ok(())
}

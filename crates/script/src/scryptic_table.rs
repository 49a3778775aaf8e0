//! The `scryptic` table scripts find (read-only to them): `scryptic.on` and the other
//! functions through which scripts register handlers, token kinds, win conditions and
//! strength modifiers in their state's registry, each within its cap.

use super::{
    Definition, Handler, Registry, events, filter, game_mode, interfaces, locale, sandbox, text,
};
use crate::limits::{MAX_DEFINITIONS_PER_SCRIPT, MAX_HANDLERS_PER_SCRIPT};
use crate::sandbox::current_script;
use mlua::{Function, Lua, Table, Value};
use std::sync::{Arc, Mutex};

/// Registers `func` as a handler of `event` for the script now running, within its cap.
fn register_handler(
    lua: &Lua,
    registry: &Arc<Mutex<Registry>>,
    event: String,
    filter: filter::EventFilter,
    func: Function,
) -> mlua::Result<()> {
    let script = current_script(lua).unwrap_or_default();
    let mut r = lock(registry)?;
    let mine = r.handlers.iter().filter(|h| h.script == script).count();
    if mine >= MAX_HANDLERS_PER_SCRIPT {
        return Err(mlua::Error::runtime(format!(
            "{script} already has {mine} handlers, the most one script may register"
        )));
    }
    r.handlers.push(Handler {
        script,
        event,
        filter,
        func,
        failures: 0,
        disabled: false,
    });
    r.changed();
    Ok(())
}

/// Installs the `scryptic` table in `lua`, registering into `registry`.
pub(super) fn install_api(lua: &Lua, registry: Arc<Mutex<Registry>>) -> mlua::Result<()> {
    let api = lua.create_table()?;
    let reg = registry.clone();
    api.raw_set(
        "on",
        lua.create_function(
            move |lua, (event, func, filter): (text::Name, Function, Option<Table>)| {
                let event = event.into_string();
                if interfaces::is_custom_event(&event) {
                    if filter.is_some() {
                        return Err(mlua::Error::runtime(format!(
                            "custom event `{event}` takes no filter: look at its fields in the handler"
                        )));
                    }
                    return register_handler(lua, &reg, event, filter::EventFilter::default(), func);
                }
                if !events().any(|e| e == event) {
                    let all: Vec<&str> = events().collect();
                    return Err(mlua::Error::runtime(format!(
                        "unknown event `{event}`; the events are {} (a custom event is named with a `:`, `economy:payday`)",
                        all.join(", ")
                    )));
                }
                let filter = filter::EventFilter::from_lua(&event, filter)?;
                register_handler(lua, &reg, event, filter, func)
            },
        )?,
    )?;
    interfaces::install(lua, &api, &registry)?;
    locale::install(lua, &api, &registry)?;
    // Timers are handlers of `turn_start` whose filter names the turns: `after` the one turn
    // `turns` from now, `every` each multiple of `turns`.
    for timer in ["after", "every"] {
        let reg = registry.clone();
        api.raw_set(
            timer,
            lua.create_function(move |lua, (turns, func): (i64, Function)| {
                let turns = u32::try_from(turns)
                    .ok()
                    .filter(|&t| t >= 1)
                    .ok_or_else(|| {
                        mlua::Error::runtime(format!(
                            "scryptic.{timer} needs a number of turns from 1, not {turns}"
                        ))
                    })?;
                let filter = lua.create_table()?;
                if timer == "after" {
                    let now = lock(&reg)?.turn.max(1);
                    filter.raw_set("turn", now.saturating_add(turns))?;
                } else {
                    let every = lua.create_table()?;
                    every.raw_set("every", turns)?;
                    filter.raw_set("turn", every)?;
                }
                let filter = filter::EventFilter::from_lua("turn_start", Some(filter))?;
                register_handler(lua, &reg, "turn_start".into(), filter, func)
            })?,
        )?;
    }
    for (name, needs) in [
        ("token", "invoke"),
        ("win_condition", "check"),
        ("strength_modifier", "apply"),
    ] {
        let reg = registry.clone();
        api.raw_set(
            name,
            lua.create_function(move |lua, table: Table| {
                let id: text::Name = table.get("id").map_err(|_| {
                    mlua::Error::runtime(format!("scryptic.{name} needs an `id` (a string)"))
                })?;
                let id = id.into_string();
                if !matches!(table.get::<Value>(needs)?, Value::Function(_)) {
                    return Err(mlua::Error::runtime(format!(
                        "scryptic.{name} `{id}` needs `{needs}` (a function)"
                    )));
                }
                let script = current_script(lua).unwrap_or_default();
                let mut r = lock(&reg)?;
                let list = match name {
                    "token" => &mut r.tokens,
                    "win_condition" => &mut r.win_conditions,
                    _ => &mut r.modifiers,
                };
                list.retain(|d| d.id != id);
                let mine = list.iter().filter(|d| d.script == script).count();
                if mine >= MAX_DEFINITIONS_PER_SCRIPT {
                    return Err(mlua::Error::runtime(format!(
                        "{script} already defines {mine} of scryptic.{name}, the most one script may"
                    )));
                }
                list.push(Definition {
                    script,
                    id,
                    table,
                    failures: 0,
                });
                r.changed();
                Ok(())
            })?,
        )?;
    }
    game_mode::install(lua, &api, &registry)?;
    let helpers: Function = sandbox::host_chunk(
        lua,
        "=sandbox",
        r#"
            local api = ...
            -- Iterates a table in a fixed order (numbers, then strings, each sorted), so that
            -- scripts behave the same on every run.
            api.sorted_pairs = function(t)
                local keys = {}
                for k in pairs(t) do keys[#keys + 1] = k end
                table.sort(keys, function(a, b)
                    local ta, tb = type(a), type(b)
                    if ta ~= tb then return ta < tb end
                    if ta == "number" or ta == "string" then return a < b end
                    return tostring(a) < tostring(b)
                end)
                local i = 0
                return function()
                    i = i + 1
                    local k = keys[i]
                    if k ~= nil then return k, t[k] end
                end
            end
            -- Frozen, with the other libraries, when the scripts' environments are made.
            scryptic = api
            "#,
    )?
    .into_function()?;
    helpers.call::<()>(api)
}

pub(super) fn lock(
    registry: &Arc<Mutex<Registry>>,
) -> mlua::Result<std::sync::MutexGuard<'_, Registry>> {
    registry
        .lock()
        .map_err(|_| mlua::Error::runtime("the script registry is unavailable"))
}

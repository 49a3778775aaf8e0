//! One environment per script: each file's globals are its own, over a shared standard
//! environment whose library tables (`string`, `table`, `math`, `utf8`, `coroutine`,
//! `scryptic`) are frozen, read-only proxies, as Luau's safe environment gives each script.
//! A script that replaces `ipairs` or `string.format`, or wraps `scryptic.on`, changes what it
//! sees itself and nothing another script (or the built-in elementals) sees. Only `storage` is
//! shared on purpose.
//!
//! The raw functions that would reach behind a proxy (`rawset`, `rawget`, `rawlen`, `next`)
//! are replaced by versions that treat a proxy as the table it shows, read-only; the proxies'
//! metatables are locked, so `setmetatable` and `getmetatable` cannot reach them either.

use mlua::{Function, Lua, Table};

/// The shared standard environment and the way to make a script's own.
pub(super) struct Environments {
    /// What every script's globals fall back on: the frozen libraries, the basic functions
    /// and `storage`.
    pub shared: Table,
    /// Makes a new, empty script environment over `shared`.
    new_env: Function,
    /// `see_through(proxy, table)`: from now on the raw functions treat `proxy` as `table`
    /// (read-only); for proxies made later, such as storage's.
    pub see_through: Function,
    /// Each script's environment, by name (the latest, after a reload).
    by_script: Vec<(String, Table)>,
}

impl Environments {
    /// Freezes the state's globals as they are now into the shared environment. Call it once
    /// the sandbox and the API are installed: later changes to the raw globals reach no script.
    pub fn install(lua: &Lua) -> mlua::Result<Environments> {
        let raw_setmetatable: Function =
            lua.named_registry_value(super::sandbox::RAW_SETMETATABLE)?;
        let (shared, new_env, see_through) =
            super::sandbox::host_chunk(lua, "=sandbox", ISOLATION)?
                .call::<(Table, Function, Function)>((lua.globals(), raw_setmetatable))?;
        Ok(Environments {
            shared,
            new_env,
            see_through,
            by_script: Vec::new(),
        })
    }

    /// Keeps `env` as script `name`'s environment.
    pub fn remember(&mut self, name: &str, env: Table) {
        self.by_script.retain(|(n, _)| n != name);
        self.by_script.push((name.to_string(), env));
    }

    /// Script `name`'s environment, if it was loaded.
    pub fn of_script(&self, name: &str) -> Option<&Table> {
        self.by_script
            .iter()
            .find_map(|(n, env)| (n == name).then_some(env))
    }

    /// A fresh environment for one script: its own globals, `_G` itself.
    pub fn for_script(&self) -> mlua::Result<Table> {
        self.new_env.call(())
    }
}

const ISOLATION: &str = r##"
local G, raw_setmetatable = ...
local setmetatable, type, error, next, pairs = setmetatable, type, error, next, pairs
local rawget, rawset, rawlen = rawget, rawset, rawlen

-- Each proxy, and the table it shows. Weak keys, so that a storage table dropped by its
-- script is collected; nothing a script sees depends on when (a proxy it can still reach is
-- still here).
local shown = raw_setmetatable({}, { __mode = "k" })

local function freeze(t, name)
    local proxy = setmetatable({}, {
        __index = t,
        __newindex = function() error(name .. " is read-only", 2) end,
        __len = function() return #t end,
        __pairs = function() return next, t, nil end,
        __metatable = "locked",
    })
    shown[proxy] = t
    return proxy
end

local function refuse_proxy(t, what)
    if shown[t] ~= nil then error(what .. ": the table is read-only", 3) end
end

local shared = {}
for name, value in next, G do
    if name ~= "_G" then
        if type(value) == "table" and name ~= "storage" then
            shared[name] = freeze(value, name)
        else
            shared[name] = value
        end
    end
end

shared.rawset = function(t, k, v)
    refuse_proxy(t, "rawset")
    return rawset(t, k, v)
end
shared.rawget = function(t, k)
    return rawget(shown[t] or t, k)
end
shared.rawlen = function(t)
    return rawlen(shown[t] or t)
end
shared.next = function(t, k)
    return next(shown[t] or t, k)
end

local script_meta = { __index = shared, __metatable = "locked" }
local function new_env()
    local env = setmetatable({}, script_meta)
    rawset(env, "_G", env)
    return env
end
local function see_through(proxy, t)
    shown[proxy] = t
end
return shared, new_env, see_through
"##;

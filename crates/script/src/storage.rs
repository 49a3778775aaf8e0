//! The `storage` table: what scripts keep between reloads, in saves, and from one campaign map
//! to the next, shared by the scripts of one pack (each pack's state has its own, and a save
//! keeps each under its pack's id).
//!
//! It keeps exactly what a save can hold: booleans, integers, floats, any byte string, and
//! tables of them keyed by strings or whole numbers. What it cannot keep is refused when it is
//! stored, naming the key (`storage.army[3]: storage cannot keep a function`), not later when
//! the game is saved. Every table in storage is a proxy (Lua side, below) whose writes are
//! checked; a plain table a script stores becomes such a proxy in place, so the script's own
//! reference goes on working. Storage is written as tagged JSON that round-trips exactly
//! (integers stay integers, floats floats, bytes bytes); the plain JSON of earlier versions is
//! still read.

use super::State;
use mlua::{Function, Lua, Table, Value};
use serde_json::{Map, Value as Json, json};

/// How deep storage tables may nest.
pub const MAX_DEPTH: usize = 32;

/// The most entries (values, in all of a pack's storage tables) a save keeps: written out,
/// each becomes a tree of JSON values many times its size, so their number is bounded before
/// any is made.
pub const MAX_ENTRIES: usize = 100_000;

/// The version tag of the storage format.
const FORMAT_VERSION: i64 = 2;

/// Why storage cannot be kept or restored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// Tables inside tables too deep.
    #[error("storage nests deeper than {most} tables; keep it shallower")]
    TooDeep {
        /// The deepest nesting kept.
        most: usize,
    },
    /// A key that is neither a string nor a whole number.
    #[error("storage keys are strings or whole numbers, not {kind}")]
    BadKey {
        /// The key's Lua type.
        kind: String,
    },
    /// A value storage cannot keep (a function, a userdata...).
    #[error("storage cannot keep a {kind}; keep strings, numbers, booleans and tables")]
    BadValue {
        /// The value's Lua type.
        kind: String,
    },
    /// Storage text (from a save or a campaign) that is not storage.
    #[error("storage is not valid: {message}")]
    NotJson {
        /// What is wrong with it.
        message: String,
    },
    /// The written storage would be larger than a save may carry.
    #[error("storage is {bytes} bytes written out; a save carries at most {most}")]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The most.
        most: usize,
    },
    /// More entries than a save carries: counted before the text is made, which would hold a
    /// copy of each.
    #[error(
        "storage holds more than {most} entries (the values in all its tables): keep less, or \
         keep a summary"
    )]
    TooManyEntries {
        /// The most.
        most: usize,
    },
    /// The Lua state refused (out of memory, for one).
    #[error("the scripts' state refused storage: {message}")]
    Lua {
        /// What Lua said.
        message: String,
    },
}

fn lua_error(e: mlua::Error) -> StorageError {
    StorageError::Lua {
        message: e.to_string(),
    }
}

fn invalid(message: impl Into<String>) -> StorageError {
    StorageError::NotJson {
        message: message.into(),
    }
}

/// The table a storage table shows (a proxy's own table is empty), or `t` itself.
fn contents(t: &Table) -> Table {
    t.metatable()
        .filter(|mt| mt.raw_get::<bool>("__storage").unwrap_or(false))
        .and_then(|mt| mt.raw_get::<Table>("__index").ok())
        .unwrap_or_else(|| t.clone())
}

/// Text as JSON: a string if it is UTF-8, else its bytes in hex.
fn text_json(bytes: &[u8]) -> Json {
    match std::str::from_utf8(bytes) {
        Ok(s) => Json::String(s.to_string()),
        Err(_) => json!({ "bytes": hex(bytes) }),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Result<Vec<u8>, StorageError> {
    if !text.len().is_multiple_of(2) {
        return Err(invalid("a byte string has an odd number of hex digits"));
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                .ok_or_else(|| invalid(format!("`{text}` is not hex")))
        })
        .collect()
}

/// A stored value as tagged JSON: booleans, integers and UTF-8 strings as themselves, floats
/// as `{"float": "0.1"}` (the shortest text that reads back as the same float, `inf` and `NaN`
/// included), other byte strings as `{"bytes": HEX}`, tables as `{"table": [[key, value], ...]}`
/// in a fixed order (whole-number keys ascending, then string keys by bytes).
fn to_tagged(value: &Value, depth: usize, entries: &mut usize) -> Result<Json, StorageError> {
    if depth > MAX_DEPTH {
        return Err(StorageError::TooDeep { most: MAX_DEPTH });
    }
    *entries += 1;
    if *entries > MAX_ENTRIES {
        return Err(StorageError::TooManyEntries { most: MAX_ENTRIES });
    }
    Ok(match value {
        Value::Boolean(b) => Json::Bool(*b),
        Value::Integer(i) => Json::from(*i),
        Value::Number(n) => json!({ "float": float_text(*n) }),
        Value::String(s) => text_json(&s.as_bytes()),
        Value::Table(t) => {
            let mut pairs = Vec::new();
            for pair in contents(t).pairs::<Value, Value>() {
                let (k, v) = pair.map_err(lua_error)?;
                pairs.push((key_order(&k)?, to_tagged(&v, depth + 1, entries)?));
            }
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            let pairs: Vec<Json> = pairs
                .into_iter()
                .map(|(k, v)| Json::Array(vec![k.into_json(), v]))
                .collect();
            json!({ "table": pairs })
        }
        other => {
            return Err(StorageError::BadValue {
                kind: other.type_name().to_string(),
            });
        }
    })
}

/// A float as text that reads back as the same bits: the shortest decimal, `inf`, `NaN`, or a
/// NaN of other bits (Lua's `0/0` is a negative one) as `NaN:` and its bits in hex.
fn float_text(n: f64) -> String {
    if n.is_nan() && n.to_bits() != f64::NAN.to_bits() {
        format!("NaN:{:016x}", n.to_bits())
    } else {
        format!("{n:?}")
    }
}

/// The float `float_text` wrote.
fn float_of(text: &str) -> Option<f64> {
    match text.strip_prefix("NaN:") {
        Some(bits) => u64::from_str_radix(bits, 16)
            .ok()
            .map(f64::from_bits)
            .filter(|n| n.is_nan()),
        None => text.parse::<f64>().ok(),
    }
}

/// A key, ordered: whole numbers first, then byte strings.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Int(i64),
    Text(Vec<u8>),
}

impl Key {
    fn into_json(self) -> Json {
        match self {
            Key::Int(i) => Json::from(i),
            Key::Text(bytes) => text_json(&bytes),
        }
    }
}

fn key_order(key: &Value) -> Result<Key, StorageError> {
    match key {
        Value::Integer(i) => Ok(Key::Int(*i)),
        Value::String(s) => Ok(Key::Text(s.as_bytes().to_vec())),
        other => Err(StorageError::BadKey {
            kind: other.type_name().to_string(),
        }),
    }
}

/// A tagged JSON value as a plain Lua value (tables plain, made into storage by `adopt`).
fn from_tagged(lua: &Lua, value: &Json, depth: usize) -> Result<Value, StorageError> {
    if depth > MAX_DEPTH {
        return Err(StorageError::TooDeep { most: MAX_DEPTH });
    }
    let text = |bytes: &[u8]| lua.create_string(bytes).map(Value::String);
    Ok(match value {
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => Value::Integer(
            n.as_i64()
                .ok_or_else(|| invalid(format!("{n} is not a whole number that fits")))?,
        ),
        Json::String(s) => text(s.as_bytes()).map_err(lua_error)?,
        Json::Object(map) => match tag(map)? {
            ("float", Json::String(f)) => {
                Value::Number(float_of(f).ok_or_else(|| invalid(format!("`{f}` is not a float")))?)
            }
            ("bytes", Json::String(h)) => text(&unhex(h)?).map_err(lua_error)?,
            ("table", Json::Array(pairs)) => {
                let t = lua.create_table().map_err(lua_error)?;
                for pair in pairs {
                    let [k, v] = pair.as_array().map(Vec::as_slice).unwrap_or_default() else {
                        return Err(invalid("a table entry is not [key, value]"));
                    };
                    let key = match from_tagged(lua, k, depth + 1)? {
                        Value::Table(_) | Value::Boolean(_) | Value::Number(_) => {
                            return Err(invalid("a key is a string or a whole number"));
                        }
                        key => key,
                    };
                    t.raw_set(key, from_tagged(lua, v, depth + 1)?)
                        .map_err(lua_error)?;
                }
                Value::Table(t)
            }
            (other, _) => return Err(invalid(format!("`{other}` holds the wrong kind of value"))),
        },
        Json::Null | Json::Array(_) => return Err(invalid("null or a bare list is not a value")),
    })
}

/// The one tag of a tagged object and its content.
fn tag(map: &Map<String, Json>) -> Result<(&str, &Json), StorageError> {
    let mut entries = map.iter();
    match (entries.next(), entries.next()) {
        (Some((tag, content)), None) if ["float", "bytes", "table"].contains(&tag.as_str()) => {
            Ok((tag.as_str(), content))
        }
        _ => Err(invalid(
            "an object is one of {\"float\": ...}, {\"bytes\": ...}, {\"table\": [...]}",
        )),
    }
}

/// Storage in the plain JSON of version 1 (lossy; still read): numbers with a fraction are
/// floats, `#N` keys whole numbers.
fn from_plain_json(lua: &Lua, value: &Json, depth: usize) -> Result<Value, StorageError> {
    if depth > MAX_DEPTH {
        return Err(StorageError::TooDeep { most: MAX_DEPTH });
    }
    let made = |r: mlua::Result<Value>| r.map_err(lua_error);
    Ok(match value {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Boolean(*b),
        Json::Number(n) => n
            .as_i64()
            .map_or_else(|| Value::Number(n.as_f64().unwrap_or(0.0)), Value::Integer),
        Json::String(s) => made(lua.create_string(s).map(Value::String))?,
        Json::Array(items) => {
            let t = lua.create_table().map_err(lua_error)?;
            for (i, v) in items.iter().enumerate() {
                t.raw_set(i + 1, from_plain_json(lua, v, depth + 1)?)
                    .map_err(lua_error)?;
            }
            Value::Table(t)
        }
        Json::Object(map) => {
            let t = lua.create_table().map_err(lua_error)?;
            for (k, v) in map {
                let v = from_plain_json(lua, v, depth + 1)?;
                match k.strip_prefix('#').and_then(|n| n.parse::<i64>().ok()) {
                    Some(i) => t.raw_set(i, v),
                    None => t.raw_set(k.as_str(), v),
                }
                .map_err(lua_error)?;
            }
            Value::Table(t)
        }
    })
}

/// The storage functions of a state: `adopt(plain)` makes a plain tree the new root;
/// `begin`, `commit` and `rollback` make a script's loading one transaction, so that a load
/// that fails leaves storage as it was.
pub(super) struct Storage {
    adopt: Function,
    begin: Function,
    commit: Function,
    rollback: Function,
}

impl Storage {
    /// Installs the storage proxies; the root starts empty, in `shared.storage`.
    pub fn install(lua: &Lua, envs: &super::isolation::Environments) -> mlua::Result<Storage> {
        let raw_setmetatable: Function =
            lua.named_registry_value(super::sandbox::RAW_SETMETATABLE)?;
        let (adopt, begin, commit, rollback) =
            super::sandbox::host_chunk(lua, "=sandbox", STORAGE)?.call((
                raw_setmetatable,
                envs.see_through.clone(),
                i64::try_from(MAX_DEPTH).unwrap_or(i64::MAX),
            ))?;
        let storage = Storage {
            adopt,
            begin,
            commit,
            rollback,
        };
        envs.shared
            .raw_set("storage", storage.root(lua.create_table()?)?)?;
        Ok(storage)
    }

    /// `plain` (a tree of plain tables) as a storage root, checked as a store would be.
    fn root(&self, plain: Table) -> mlua::Result<Table> {
        self.adopt.call(plain)
    }

    /// From now on every write to storage is recorded, to be undone by `rollback`.
    pub fn begin(&self) -> mlua::Result<()> {
        self.begin.call(())
    }

    /// Keeps the writes since `begin`.
    pub fn commit(&self) -> mlua::Result<()> {
        self.commit.call(())
    }

    /// Undoes the writes since `begin`, latest first.
    pub fn rollback(&self) -> mlua::Result<()> {
        self.rollback.call(())
    }
}

/// The version tag of a game's storage: each pack's table (in `FORMAT_VERSION`'s tagged
/// form) under its pack's id.
const PACKS_FORMAT_VERSION: i64 = 3;

/// One state's storage as text holds it, before it is made a table of that state.
pub(super) enum StoredTable {
    /// The tagged form (`to_tagged`'s `table`).
    Tagged(Json),
    /// The plain JSON of version 1.
    Plain(Json),
}

/// The storage text's parts: each pack's table by id, or one table (versions 1 and 2) for the
/// level's own pack.
pub(super) enum StoredTables {
    /// Version 3: by pack.
    ByPack(Vec<(String, StoredTable)>),
    /// Versions 1 and 2: the level's own.
    Own(StoredTable),
}

/// Reads storage text (any version this build reads) into its tables.
pub(super) fn parse_storage(text: &str) -> Result<StoredTables, StorageError> {
    if text.len() > crate::limits::MAX_STORAGE_BYTES {
        return Err(StorageError::TooLarge {
            bytes: text.len(),
            most: crate::limits::MAX_STORAGE_BYTES,
        });
    }
    // Every entry opens a bracket or a brace: counting them bounds the tree of JSON values
    // before it is made (16 MiB of `[0,0],` would make one of hundreds of megabytes).
    let opened = text.bytes().filter(|&b| b == b'[' || b == b'{').count();
    if opened > 4 * MAX_ENTRIES {
        return Err(StorageError::TooManyEntries { most: MAX_ENTRIES });
    }
    let json: Json = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    let Some(version) = json.as_object().and_then(|o| o.get("storage_version")) else {
        return Ok(StoredTables::Own(StoredTable::Plain(json)));
    };
    match version.as_i64() {
        Some(FORMAT_VERSION) => {
            let table = json.get("table").cloned().unwrap_or(Json::Null);
            Ok(StoredTables::Own(StoredTable::Tagged(table)))
        }
        Some(PACKS_FORMAT_VERSION) => {
            let packs = json
                .get("packs")
                .and_then(Json::as_object)
                .ok_or_else(|| invalid("storage of version 3 holds `packs`, an object"))?;
            Ok(StoredTables::ByPack(
                packs
                    .iter()
                    .map(|(id, t)| (id.clone(), StoredTable::Tagged(t.clone())))
                    .collect(),
            ))
        }
        other => Err(invalid(format!(
            "storage version {other:?} is not one this build reads ({FORMAT_VERSION} or {PACKS_FORMAT_VERSION})"
        ))),
    }
}

/// A game's storage as text: each pack's tagged table under its id (empty ones left out), at
/// most `limits::MAX_STORAGE_BYTES`.
pub(super) fn storage_text(tables: Vec<(String, Json)>) -> Result<String, StorageError> {
    let packs: Map<String, Json> = tables
        .into_iter()
        .filter(|(_, t)| t.as_array().is_none_or(|a| !a.is_empty()))
        .collect();
    let text = serde_json::to_string(&json!({
        "storage_version": PACKS_FORMAT_VERSION,
        "packs": packs,
    }))
    .map_err(|e| invalid(e.to_string()))?;
    if text.len() > crate::limits::MAX_STORAGE_BYTES {
        return Err(StorageError::TooLarge {
            bytes: text.len(),
            most: crate::limits::MAX_STORAGE_BYTES,
        });
    }
    Ok(text)
}

impl State {
    /// The `storage` table in its tagged form.
    pub(super) fn storage_tagged(&self) -> Result<Json, StorageError> {
        let storage: Value = self.envs.shared.raw_get("storage").map_err(lua_error)?;
        let table = to_tagged(&storage, 0, &mut 0)?;
        Ok(table
            .get("table")
            .cloned()
            .unwrap_or(Json::Array(Vec::new())))
    }

    /// `stored` made a storage root of this state, checked as a store would be; it replaces
    /// the `storage` table only when `set_storage_root` is given it.
    pub(super) fn storage_root(&self, stored: &StoredTable) -> Result<Table, StorageError> {
        let value = match stored {
            StoredTable::Tagged(table) => from_tagged(&self.lua, &json!({ "table": table }), 0)?,
            StoredTable::Plain(json) => from_plain_json(&self.lua, json, 0)?,
        };
        let Value::Table(plain) = value else {
            return Err(invalid(
                "storage is a table (an object), not a single value",
            ));
        };
        self.guarded(|| self.storage.root(plain))
            .map_err(|e| invalid(e.to_string()))
    }

    /// Replaces the `storage` table with `root` (from `storage_root`).
    pub(super) fn set_storage_root(&self, root: Table) -> Result<(), StorageError> {
        self.envs.shared.raw_set("storage", root).map_err(lua_error)
    }
}

/// The Lua side: storage tables are empty proxies whose metatable holds the contents
/// (`__index`) and checks every write (`__newindex`); `adopt` checks a whole value first and
/// only then turns its plain tables into proxies, so a refused store changes nothing.
const STORAGE: &str = r##"
local raw_setmetatable, see_through, MAX_DEPTH = ...
local type, next, error, tostring, getmetatable = type, next, error, tostring, getmetatable
local math_type, find, format = math.type, string.find, string.format
local KEEP = "; keep strings, numbers, booleans and tables of them"
local SCALAR = { string = true, number = true, boolean = true, ["nil"] = true }

-- Each storage proxy, and its contents (weak keys: a proxy no one reaches is collected).
local contents = raw_setmetatable({}, { __mode = "k" })

local function child_path(path, key)
    if type(key) == "string" and find(key, "^[%a_][%w_]*$") then return path .. "." .. key end
    if type(key) == "string" then return path .. "[" .. format("%q", key) .. "]" end
    return path .. "[" .. tostring(key) .. "]"
end

local function key_problem(key, path)
    local t = type(key)
    if t == "string" or math_type(key) == "integer" then return nil end
    local what = t == "number" and ("the fraction " .. tostring(key)) or ("a " .. t)
    return path .. ": storage keys are strings or whole numbers, not " .. what
end

-- Why `value` (to be stored at `path`, `depth` tables down) cannot be kept, or nil.
local function problem(value, path, depth, open)
    local t = type(value)
    if t == "string" or t == "number" or t == "boolean" or t == "nil" then return nil end
    if t ~= "table" then return path .. ": storage cannot keep a " .. t .. KEEP end
    if depth > MAX_DEPTH then
        return path .. ": storage nests deeper than " .. MAX_DEPTH .. " tables; keep it shallower"
    end
    local inside = contents[value]
    if inside == nil and getmetatable(value) ~= nil then
        return path .. ": storage cannot keep a table with a metatable (it would not survive a save)"
    end
    inside = inside or value
    if open[inside] then return path .. ": storage cannot keep a table that holds itself" end
    open[inside] = true
    for k, v in next, inside do
        local why = key_problem(k, path) or problem(v, child_path(path, k), depth + 1, open)
        if why then return why end
    end
    open[inside] = nil
    return nil
end

local proxy_of

-- While a script loads: each write's table, key and old value, to undo if the load fails.
local journal = nil

-- A checked value as storage keeps it: a plain table becomes a proxy in place (so references
-- the script holds go on working); a table already in storage is copied, since a save keeps a
-- tree, not shared tables.
local function kept(value, path, depth)
    if type(value) ~= "table" then return value end
    local inside = contents[value]
    local proxy, source = value, value
    if inside ~= nil then
        proxy, source = {}, inside
    end
    local held = {}
    for k, v in next, source do held[k] = kept(v, child_path(path, k), depth + 1) end
    if inside == nil then
        for k in next, held do value[k] = nil end
    end
    return proxy_of(proxy, held, path, depth)
end

proxy_of = function(proxy, held, path, depth)
    raw_setmetatable(proxy, {
        __index = held,
        __newindex = function(_, k, v)
            local tk, tv = type(k), type(v)
            -- The common case first, without building the key's path (only errors and tables
            -- need it).
            if (tk ~= "string" and math_type(k) ~= "integer") or not SCALAR[tv] then
                local why = key_problem(k, path) or problem(v, child_path(path, k), depth + 1, {})
                if why then error(why, 2) end
            end
            if journal then
                local n = journal.n + 1
                journal.n, journal[3 * n - 2], journal[3 * n - 1], journal[3 * n] = n, held, k, held[k]
            end
            if tv == "table" then
                held[k] = kept(v, child_path(path, k), depth + 1)
            else
                held[k] = v
            end
        end,
        __len = function() return #held end,
        __pairs = function() return next, held, nil end,
        __metatable = "locked",
        __storage = true,
    })
    contents[proxy] = held
    see_through(proxy, held)
    return proxy
end

-- A new root from a plain tree (from a save or a campaign), checked first.
local function adopt(plain)
    local why = problem(plain, "storage", 0, {})
    if why then error(why, 0) end
    return kept(plain, "storage", 0)
end
local function begin() journal = { n = 0 } end
local function commit() journal = nil end
local function rollback()
    local j = journal
    journal = nil
    if not j then return end
    for n = j.n, 1, -1 do
        j[3 * n - 2][j[3 * n - 1]] = j[3 * n]
    end
end
return adopt, begin, commit, rollback
"##;

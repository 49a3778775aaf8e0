//! The standard library bounded by what each function will do before it does it.
//!
//! The instruction hook never runs inside a C function, so a single call could otherwise hang
//! the game (`string.rep("", math.maxinteger)`, `table.move` over a huge range, a backtracking
//! pattern) or do megabytes of work for one instruction in a loop. Here every library function
//! whose work is not a small constant either charges the event's budget for that work first
//! (the wrappers below) or is replaced by a Rust version that counts its steps (patterns,
//! `string.rep`). What is left (copying strings with `..`) is bounded by the memory cap and by
//! the wall-clock deadline the hook checks.

use super::patterns::{self, Capture, Matcher, PatternError};
use super::sandbox::Budget;
use mlua::{Function, Lua, LuaString, MultiValue, Table, Value};
use std::sync::Arc;

/// Bytes copied per unit of budget: copying 64 bytes costs about one VM instruction.
pub const BYTES_PER_UNIT: usize = 64;

/// Installs the bounded functions into the `string` and `table` libraries. `max_bytes` is the
/// largest string the host builds for a script (the memory cap): nothing larger is made.
pub fn install(lua: &Lua, budget: Arc<Budget>, max_bytes: usize) -> mlua::Result<()> {
    let string: Table = lua.globals().get("string")?;
    install_patterns(lua, &string, &budget, max_bytes)?;
    let rep_budget = budget.clone();
    string.raw_set(
        "rep",
        lua.create_function(
            move |lua, (s, n, sep): (LuaString, i64, Option<LuaString>)| {
                rep(lua, &rep_budget, max_bytes, &s, n, sep.as_ref())
            },
        )?,
    )?;
    let charge = lua.create_function(move |_, units: f64| charge(&budget, units))?;
    let wrap: Function = super::sandbox::host_chunk(lua, "=sandbox", WRAPPERS)?.into_function()?;
    wrap.call::<()>((charge, string, lua.globals().get::<Table>("table")?))
}

/// Charges `units` (a float from Lua: any size, negative is nothing) to the budget.
fn charge(budget: &Budget, units: f64) -> mlua::Result<()> {
    // Saturating: a range of 2^63 elements is simply more than any budget.
    let units = if units.is_nan() || units <= 0.0 {
        0
    } else {
        units.min(u64::MAX as f64) as u64
    };
    budget.charge(units)
}

/// Lua wrappers that charge for a C function's work before calling it: one unit per element
/// moved, shifted, sorted (times log2 n) or unpacked, one per 64 bytes copied.
const WRAPPERS: &str = r##"
local charge, string, table = ...
local type, select, floor, log = type, select, math.floor, math.log
local tostring, error, find = tostring, error, string.find
local raw = {
    move = table.move, insert = table.insert, remove = table.remove, sort = table.sort,
    unpack = table.unpack, concat = table.concat, upper = string.upper,
    lower = string.lower, reverse = string.reverse, sub = string.sub, byte = string.byte,
    format = string.format, char = string.char,
}
local BYTES = 64
local function bytes(s) if type(s) == "string" then charge(#s // BYTES) end end
local function len(t) if type(t) == "table" then return #t end return 0 end
local function int(v, default) if type(v) == "number" then return v end return default end

table.move = function(a1, f, e, t, a2)
    if type(f) == "number" and type(e) == "number" and e >= f then charge(e - f + 1) end
    return raw.move(a1, f, e, t, a2)
end
table.insert = function(t, ...)
    if select("#", ...) == 2 then charge(len(t) - int((...), 0) + 1) end
    return raw.insert(t, ...)
end
table.remove = function(t, ...)
    if select("#", ...) >= 1 then charge(len(t) - int((...), 0) + 1) end
    return raw.remove(t, ...)
end
table.sort = function(t, comp)
    local n = len(t)
    if n > 1 then charge(n * floor(log(n, 2) + 1)) end
    return raw.sort(t, comp)
end
table.unpack = function(t, i, j)
    i = int(i, 1)
    j = int(j, nil) or len(t)
    if j >= i then charge(j - i + 1) end
    return raw.unpack(t, i, j)
end
table.concat = function(t, sep, i, j)
    local first, last = int(i, 1), int(j, nil) or len(t)
    if last >= first then charge(last - first + 1) end
    local s = raw.concat(t, sep, i, j)
    charge(#s // BYTES)
    return s
end
string.upper = function(s, ...) bytes(s) return raw.upper(s, ...) end
string.lower = function(s, ...) bytes(s) return raw.lower(s, ...) end
string.reverse = function(s, ...) bytes(s) return raw.reverse(s, ...) end
string.sub = function(s, ...) bytes(s) return raw.sub(s, ...) end
string.char = function(...) charge(select("#", ...) // BYTES) return raw.char(...) end
string.byte = function(s, i, j)
    i = int(i, 1)
    j = int(j, i)
    if j >= i then charge(j - i + 1) end
    return raw.byte(s, i, j)
end
-- `%p` prints an address and `%s` of a table its address too: addresses differ between runs,
-- so `%p` is refused and a table, function, thread or userdata is shown by its stable name.
local referenced = { table = true, ["function"] = true, thread = true, userdata = true }
local function refuse_addresses(fmt)
    if type(fmt) ~= "string" or not find(fmt, "p", 1, true) then return end
    local at = 1
    while true do
        local _, last, spec = find(fmt, "%%[-+ #0]*%d*%.?%d*(.)", at)
        if not last then return end
        if spec == "p" then
            error("string.format's %p is not available (addresses differ between runs)", 3)
        end
        at = last + 1
    end
end
string.format = function(fmt, ...)
    refuse_addresses(fmt)
    local n, s = select("#", ...), nil
    for i = 1, n do
        if referenced[type((select(i, ...)))] then
            local args = { ... }
            for j = i, n do
                if referenced[type(args[j])] then args[j] = tostring(args[j]) end
            end
            s = raw.format(fmt, raw.unpack(args, 1, n))
            break
        end
    end
    s = s or raw.format(fmt, ...)
    charge(#s // BYTES)
    return s
end
"##;

/// `string.rep` that refuses a result over `max_bytes` before building it and never loops
/// over an empty result.
fn rep(
    lua: &Lua,
    budget: &Budget,
    max_bytes: usize,
    s: &LuaString,
    n: i64,
    sep: Option<&LuaString>,
) -> mlua::Result<LuaString> {
    let s = s.as_bytes();
    let sep = sep.map(|v| v.as_bytes().to_vec()).unwrap_or_default();
    let Ok(count) = usize::try_from(n) else {
        return lua.create_string("");
    };
    if count == 0 || (s.is_empty() && sep.is_empty()) {
        return lua.create_string("");
    }
    let total = s
        .len()
        .checked_mul(count)
        .and_then(|t| t.checked_add(sep.len().checked_mul(count - 1)?))
        .filter(|&t| t <= max_bytes)
        .ok_or_else(|| budget.refuse_memory("string.rep"))?;
    budget.charge((total / BYTES_PER_UNIT) as u64 + 1)?;
    lua.create_string(repeated(&s, &sep, count, total))
}

/// `s` `count` times with `sep` between, `total` bytes in all: the repeated part doubles
/// at each copy, so even a million one-byte copies are a few dozen.
fn repeated(s: &[u8], sep: &[u8], count: usize, total: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(s);
    if count > 1 {
        out.extend_from_slice(sep);
        out.extend_from_slice(s);
    }
    // Past the first `s`, the text is whole units of `sep` + `s`, as is what remains to add.
    while out.len() < total {
        let take = (out.len() - s.len()).min(total - out.len());
        out.extend_from_within(s.len()..s.len() + take);
    }
    out
}

fn install_patterns(
    lua: &Lua,
    string: &Table,
    budget: &Arc<Budget>,
    max_bytes: usize,
) -> mlua::Result<()> {
    let b = budget.clone();
    string.raw_set(
        "find",
        lua.create_function(
            move |lua, (s, p, init, plain): (LuaString, LuaString, Option<i64>, Option<Value>)| {
                let plain = plain.is_some_and(|v| !matches!(v, Value::Nil | Value::Boolean(false)));
                find(lua, &b, &s, &p, init, plain, true)
            },
        )?,
    )?;
    let b = budget.clone();
    string.raw_set(
        "match",
        lua.create_function(
            move |lua, (s, p, init): (LuaString, LuaString, Option<i64>)| {
                find(lua, &b, &s, &p, init, false, false)
            },
        )?,
    )?;
    let b = budget.clone();
    string.raw_set(
        "gmatch",
        lua.create_function(
            move |lua, (s, p, init): (LuaString, LuaString, Option<i64>)| {
                gmatch(lua, b.clone(), s, p, init)
            },
        )?,
    )?;
    let b = budget.clone();
    string.raw_set(
        "gsub",
        lua.create_function(
            move |lua, (s, p, repl, max): (LuaString, LuaString, Value, Option<i64>)| {
                gsub(lua, &b, max_bytes, &s, &p, &repl, max)
            },
        )?,
    )
}

/// A pattern error as Lua raises it, or the spent budget.
fn pattern_error(budget: &Budget, error: PatternError) -> mlua::Error {
    match error {
        PatternError::Malformed(message) => mlua::Error::runtime(message),
        PatternError::TooMuchWork => budget.spent_error(),
    }
}

/// A matcher allowed what is left of the budget.
fn matcher<'a>(budget: &Budget, src: &'a [u8], pat: &'a [u8]) -> Matcher<'a> {
    Matcher::new(src, pat, budget.remaining())
}

/// Charges a matcher's steps so far and lets it go on with what is left.
fn settle(budget: &Budget, m: &mut Matcher<'_>) -> mlua::Result<()> {
    budget.charge(m.steps())?;
    m.settled(budget.remaining());
    Ok(())
}

fn capture_value(lua: &Lua, capture: Capture<'_>) -> mlua::Result<Value> {
    Ok(match capture {
        Capture::Text(t) => Value::String(lua.create_string(t)?),
        Capture::Position(p) => Value::Integer(p),
    })
}

/// The captures of the match from `at` to `end` (the whole match if the pattern has none).
fn all_captures(
    lua: &Lua,
    budget: &Budget,
    m: &Matcher<'_>,
    at: usize,
    end: usize,
) -> mlua::Result<MultiValue> {
    m.captures(at, end)
        .map_err(|e| pattern_error(budget, e))?
        .into_iter()
        .map(|c| capture_value(lua, c))
        .collect()
}

fn split_anchor(pat: &[u8]) -> (bool, &[u8]) {
    match pat.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, pat),
    }
}

fn lua_index(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX)
}

fn nil() -> MultiValue {
    MultiValue::from_iter([Value::Nil])
}

/// `string.find` (`with_indices`) and `string.match`.
fn find(
    lua: &Lua,
    budget: &Budget,
    s: &LuaString,
    p: &LuaString,
    init: Option<i64>,
    plain: bool,
    with_indices: bool,
) -> mlua::Result<MultiValue> {
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let start = patterns::start_position(init.unwrap_or(1), src.len()) - 1;
    if start > src.len() {
        return Ok(nil());
    }
    if with_indices && (plain || patterns::has_no_specials(&pat)) {
        budget.charge(((src.len() - start) / BYTES_PER_UNIT) as u64 + 1)?;
        return Ok(match patterns::find_plain(&src, &pat, start) {
            Some(at) => MultiValue::from_iter([
                Value::Integer(lua_index(at) + 1),
                Value::Integer(lua_index(at + pat.len())),
            ]),
            None => nil(),
        });
    }
    let (anchor, body) = split_anchor(&pat);
    let mut m = matcher(budget, &src, body);
    for at in start..=src.len() {
        if let Some(end) = m.match_at(at).map_err(|e| pattern_error(budget, e))? {
            settle(budget, &mut m)?;
            if !with_indices {
                return all_captures(lua, budget, &m, at, end);
            }
            let mut out = MultiValue::from_iter([
                Value::Integer(lua_index(at) + 1),
                Value::Integer(lua_index(end)),
            ]);
            if m.capture_count() > 0 {
                out.extend(all_captures(lua, budget, &m, at, end)?);
            }
            return Ok(out);
        }
        if anchor {
            break;
        }
    }
    settle(budget, &mut m)?;
    Ok(nil())
}

/// `string.gmatch`: an iterator over the matches (a `^` is an ordinary character here, as in
/// Lua 5.4).
fn gmatch(
    lua: &Lua,
    budget: Arc<Budget>,
    s: LuaString,
    p: LuaString,
    init: Option<i64>,
) -> mlua::Result<Function> {
    let len = s.as_bytes().len();
    let mut position = (patterns::start_position(init.unwrap_or(1), len) - 1).min(len + 1);
    let mut last_match: Option<usize> = None;
    lua.create_function_mut(move |lua, ()| {
        let (src, pat) = (s.as_bytes(), p.as_bytes());
        let mut m = matcher(&budget, &src, &pat);
        while position <= src.len() {
            let at = position;
            match m.match_at(at).map_err(|e| pattern_error(&budget, e))? {
                Some(end) if Some(end) != last_match => {
                    position = end;
                    last_match = Some(end);
                    settle(&budget, &mut m)?;
                    return all_captures(lua, &budget, &m, at, end);
                }
                _ => position += 1,
            }
        }
        settle(&budget, &mut m)?;
        Ok(nil())
    })
}

/// What `string.gsub` puts in place of a match.
enum Replacement {
    /// A string with `%0`-`%9` and `%%`.
    Text(Vec<u8>),
    /// A table indexed by the first capture.
    Table(Table),
    /// A function called with the captures.
    Function(Function),
}

impl Replacement {
    fn from_value(lua: &Lua, repl: &Value) -> mlua::Result<Replacement> {
        Ok(match repl {
            Value::String(s) => Replacement::Text(s.as_bytes().to_vec()),
            Value::Integer(_) | Value::Number(_) => match lua.coerce_string(repl.clone())? {
                Some(s) => Replacement::Text(s.as_bytes().to_vec()),
                None => Replacement::Text(Vec::new()),
            },
            Value::Table(t) => Replacement::Table(t.clone()),
            Value::Function(f) => Replacement::Function(f.clone()),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "bad argument #3 to 'gsub' (string/function/table expected, got {})",
                    other.type_name()
                )));
            }
        })
    }

    /// Appends the replacement of the match from `at` to `end`; whether it changed anything.
    fn append(
        &self,
        lua: &Lua,
        budget: &Budget,
        m: &Matcher<'_>,
        (at, end): (usize, usize),
        out: &mut Vec<u8>,
    ) -> mlua::Result<()> {
        let whole = &m.subject()[at..end];
        let value = match self {
            Replacement::Text(text) => return append_text(budget, m, (at, end), text, out),
            Replacement::Table(t) => {
                let key = capture_value(
                    lua,
                    m.capture(0, at, end)
                        .map_err(|e| pattern_error(budget, e))?,
                )?;
                t.get::<Value>(key)?
            }
            Replacement::Function(f) => f.call::<Value>(all_captures(lua, budget, m, at, end)?)?,
        };
        match value {
            Value::Nil | Value::Boolean(false) => out.extend_from_slice(whole),
            Value::String(s) => out.extend_from_slice(&s.as_bytes()),
            Value::Integer(_) | Value::Number(_) => {
                if let Some(s) = lua.coerce_string(value)? {
                    out.extend_from_slice(&s.as_bytes());
                }
            }
            other => {
                return Err(mlua::Error::runtime(format!(
                    "invalid replacement value (a {})",
                    other.type_name()
                )));
            }
        }
        Ok(())
    }
}

/// Appends a replacement string, its `%n` replaced by the captures.
fn append_text(
    budget: &Budget,
    m: &Matcher<'_>,
    (at, end): (usize, usize),
    text: &[u8],
    out: &mut Vec<u8>,
) -> mlua::Result<()> {
    let mut bytes = text.iter();
    while let Some(&c) = bytes.next() {
        if c != b'%' {
            out.push(c);
            continue;
        }
        match bytes.next() {
            Some(b'%') => out.push(b'%'),
            Some(&d) if d.is_ascii_digit() => {
                let capture = if d == b'0' {
                    Capture::Text(&m.subject()[at..end])
                } else {
                    m.capture(usize::from(d - b'1'), at, end)
                        .map_err(|e| pattern_error(budget, e))?
                };
                match capture {
                    Capture::Text(t) => out.extend_from_slice(t),
                    Capture::Position(p) => out.extend_from_slice(p.to_string().as_bytes()),
                }
            }
            _ => {
                return Err(mlua::Error::runtime(
                    "invalid use of '%' in replacement string",
                ));
            }
        }
    }
    Ok(())
}

/// `string.gsub`, refusing a result over `max_bytes` as it grows.
fn gsub(
    lua: &Lua,
    budget: &Budget,
    max_bytes: usize,
    s: &LuaString,
    p: &LuaString,
    repl: &Value,
    max: Option<i64>,
) -> mlua::Result<(LuaString, i64)> {
    let repl = Replacement::from_value(lua, repl)?;
    let (src, pat) = (s.as_bytes(), p.as_bytes());
    let (anchor, body) = split_anchor(&pat);
    let max = max.unwrap_or(lua_index(src.len()) + 1);
    let mut out: Vec<u8> = Vec::new();
    let (mut position, mut last_match, mut count) = (0, None, 0i64);
    let mut m = matcher(budget, &src, body);
    while count < max {
        match m.match_at(position).map_err(|e| pattern_error(budget, e))? {
            Some(end) if Some(end) != last_match => {
                count += 1;
                settle(budget, &mut m)?;
                repl.append(lua, budget, &m, (position, end), &mut out)?;
                // A replacement function may have spent some of the budget.
                m.settled(budget.remaining());
                position = end;
                last_match = Some(end);
            }
            _ if position < src.len() => {
                out.push(src[position]);
                position += 1;
            }
            _ => break,
        }
        if out.len() > max_bytes {
            return Err(budget.refuse_memory("string.gsub"));
        }
        if anchor {
            break;
        }
    }
    settle(budget, &mut m)?;
    out.extend_from_slice(&src[position..]);
    if out.len() > max_bytes {
        return Err(budget.refuse_memory("string.gsub"));
    }
    budget.charge((out.len() / BYTES_PER_UNIT) as u64)?;
    Ok((lua.create_string(out)?, count))
}

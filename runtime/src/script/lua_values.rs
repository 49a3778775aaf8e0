//! Lua values the API hands scripts again and again, made cheaply. Under the memory limit
//! every string made and every field set from Rust is a protected call of its own, so fixed
//! words (terrain and player names, event field names) are made once per state, and lists of
//! cells (a table per cell) are built by a Lua-side builder, in one call per batch. (A
//! Lua-side builder for event tables, a few fields each, measured slower than setting them.)

use crate::board::Pos;
use mlua::{Function, Lua, LuaString, Table, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// The builders and fixed words of one state, kept in its app data.
struct Made {
    /// `append(list, x1, y1, x2, y2, ...)` adds `{x = x1, y = y1}, ...` to `list`.
    append_cells: Function,
    fixed: RefCell<HashMap<&'static str, LuaString>>,
}

const APPEND_CELLS: &str = "return function(list, ...)
    local flat, n = { ... }, #list
    for i = 1, #flat, 2 do
        n = n + 1
        list[n] = { x = flat[i], y = flat[i + 1] }
    end
end";

/// How many cells go to the builder per call (its arguments sit on the Lua stack).
const CELLS_PER_CALL: usize = 64;

/// Makes the builders of `lua`, once per state.
pub(super) fn install(lua: &Lua) -> mlua::Result<()> {
    let append_cells = lua.load(APPEND_CELLS).set_name("=sandbox").eval()?;
    lua.set_app_data(Made {
        append_cells,
        fixed: RefCell::default(),
    });
    Ok(())
}

fn made(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, Made>> {
    lua.app_data_ref::<Made>()
        .ok_or_else(|| mlua::Error::runtime("the API's builders are missing"))
}

/// `name` (one of a fixed few words) as a Lua string, made on first use.
pub(super) fn fixed_name(lua: &Lua, name: &'static str) -> mlua::Result<LuaString> {
    let made = made(lua)?;
    if let Some(s) = made.fixed.borrow().get(name) {
        return Ok(s.clone());
    }
    let s = lua.create_string(name)?;
    made.fixed.borrow_mut().insert(name, s.clone());
    Ok(s)
}

/// `{ {x = .., y = ..}, ... }` for the cells.
pub(super) fn cells_table(lua: &Lua, cells: impl Iterator<Item = Pos>) -> mlua::Result<Table> {
    let append = made(lua)?.append_cells.clone();
    let flat: Vec<u32> = cells.flat_map(|p| [p.x, p.y]).collect();
    // Sized up front: a list grown cell by cell is rehashed again and again.
    let list = lua.create_table_with_capacity(flat.len() / 2, 0)?;
    for batch in flat.chunks(2 * CELLS_PER_CALL) {
        append.call::<()>((&list, mlua::Variadic::from_iter(batch.iter().copied())))?;
    }
    Ok(list)
}

/// A field of a record: its value.
pub(super) enum Field<'a> {
    /// One of a fixed few words (a player, a direction).
    Name(&'static str),
    /// Any other text.
    Text(std::borrow::Cow<'a, str>),
    Int(i64),
    Bool(bool),
}

/// `{name = value, ...}` for the fields (fixed names, so each is made once per state).
pub(super) fn record(lua: &Lua, fields: &[(&'static str, Field<'_>)]) -> mlua::Result<Table> {
    let record = lua.create_table_with_capacity(0, fields.len())?;
    for (name, field) in fields {
        let value = match field {
            Field::Name(word) => Value::String(fixed_name(lua, word)?),
            Field::Text(text) => Value::String(lua.create_string(text.as_ref())?),
            Field::Int(n) => Value::Integer(*n),
            Field::Bool(b) => Value::Boolean(*b),
        };
        record.raw_set(fixed_name(lua, name)?, value)?;
    }
    Ok(record)
}

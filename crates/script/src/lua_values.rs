//! Lua values the API hands scripts again and again, made cheaply. Under the memory cap every
//! string made and every field set from Rust is a protected call of its own, so the values the
//! host makes unasked (an event's fields: few, small and bounded by the board) are made with
//! the cap lifted (`uncapped`; what a script asks for is made so too, once the state is seen
//! to have room for it under the cap, `asked_for`;
//! the sandbox refuses finalizers, so no script code runs meanwhile), fixed words (terrain and
//! player names, field names) are Lua strings made once per state, and an event's table is made
//! by a Lua-side caller of its own, generated from the API registry, which makes the table and
//! calls the handler in one call.

use crate::board::Pos;
use mlua::{Function, Lua, LuaString, Table, Value, Variadic};
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// The event callers and fixed words of one state, kept in its app data.
struct Made {
    /// Fixed words by text (Fx-hashed: they are looked up at every API call that names one).
    fixed: RefCell<FxHashMap<&'static str, LuaString>>,
    /// Per event of the registry, in its order, `caller(handler, game, f1, ...)` calls
    /// `handler(game, {name1 = f1, ...})`.
    callers: Vec<Function>,
    /// `appenders[k - 1](list, n, x1, y1, ..., xk, yk)` sets `list[n + i] = {x = xi, y = yi}`.
    appenders: Vec<Function>,
    /// `piece(id, owner, kind, value, hidden, x, y, pit)` makes a scripted game's piece's table.
    piece: Function,
}

/// The most cells one appender call adds.
const CELLS_PER_CALL: usize = 8;

/// The most fields an event has (a test holds the registry to it).
pub(super) const MOST_EVENT_FIELDS: usize = 6;

/// Makes the event callers of `lua`, once per state.
pub(super) fn install(lua: &Lua) -> mlua::Result<()> {
    // One chunk for all the callers and appenders: compiling is most of their cost.
    let callers = super::api::EVENT_FIELDS.iter().map(|(_, _, fields)| {
        let names: Vec<&str> = fields.iter().map(|(name, _, _)| *name).collect();
        caller_source(&names)
    });
    let appenders = (1..=CELLS_PER_CALL).map(appender_source);
    let list = |sources: Vec<String>| format!("{{\n{}\n}}", sources.join(",\n"));
    let chunk = format!(
        "return {}, {}, {PIECE_SOURCE}",
        list(callers.collect()),
        list(appenders.collect())
    );
    let (callers, appenders, piece): (Table, Table, Function) =
        super::sandbox::host_chunk(lua, "=sandbox", &chunk)?.eval()?;
    lua.set_app_data(Made {
        fixed: RefCell::default(),
        callers: callers.sequence_values().collect::<mlua::Result<_>>()?,
        appenders: appenders.sequence_values().collect::<mlua::Result<_>>()?,
        piece,
    });
    Ok(())
}

/// The maker of a piece's table: a table constructor in Lua costs a few VM instructions, made
/// from Rust a call into mlua (and a key string) per field.
const PIECE_SOURCE: &str = "function(id, owner, kind, value, hidden, x, y, pit) \
    return {id = id, owner = owner, kind = kind, value = value, hidden = hidden, x = x, y = y, pit = pit} end";

/// A scripted game's piece as the table scripts read (see `game_mode`).
#[allow(clippy::too_many_arguments)]
pub(super) fn piece_table(lua: &Lua, id: usize, piece: &crate::game::Piece) -> mlua::Result<Table> {
    let made = made(lua)?;
    let owner = made.fixed_name(lua, piece.owner.name())?;
    let (x, y, pit) = match &piece.place {
        crate::game::Place::Cell(p) => (Some(p.x), Some(p.y), None),
        crate::game::Place::Pit(name) => (None, None, Some(name.as_str())),
    };
    made.piece.call((
        id,
        owner,
        &*piece.kind,
        piece.value,
        piece.hidden,
        x,
        y,
        pit,
    ))
}

/// The Lua text of the appender of `cells` cells (see `Made::appenders`).
fn appender_source(cells: usize) -> String {
    let params: String = (1..=cells).map(|i| format!(", x{i}, y{i}")).collect();
    let sets: String = (1..=cells)
        .map(|i| format!(" list[n + {i}] = {{x = x{i}, y = y{i}}}"))
        .collect();
    format!("function(list, n{params}){sets} end")
}

/// The Lua text of an event's caller: its fields arrive as arguments in the registry's order
/// and become the table the handler gets (a nil argument leaves its field out). The handler
/// is called in tail position, so the caller leaves no frame in tracebacks.
fn caller_source(fields: &[&str]) -> String {
    let params: String = (1..=fields.len()).map(|i| format!(", f{i}")).collect();
    let entries: Vec<String> = fields
        .iter()
        .enumerate()
        .map(|(i, name)| format!("[\"{name}\"] = f{}", i + 1))
        .collect();
    format!(
        "function(handler, game{params}) return handler(game, {{{}}}) end",
        entries.join(", ")
    )
}

fn made(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, Made>> {
    lua.app_data_ref::<Made>()
        .ok_or_else(|| mlua::Error::runtime("the API's event callers are missing"))
}

/// `name` (one of a fixed few words) as a Lua string, made on first use.
pub(super) fn fixed_name(lua: &Lua, name: &'static str) -> mlua::Result<LuaString> {
    made(lua)?.fixed_name(lua, name)
}

impl Made {
    fn fixed_name(&self, lua: &Lua, name: &'static str) -> mlua::Result<LuaString> {
        if let Some(s) = self.fixed.borrow().get(name) {
            return Ok(s.clone());
        }
        let s = lua.create_string(name)?;
        self.fixed.borrow_mut().insert(name, s.clone());
        Ok(s)
    }
}

/// `{ {x = .., y = ..}, ... }` for the cells, made by the appenders (a table made in Lua
/// costs a few VM instructions; made from Rust, one call into mlua per field).
pub(super) fn cells_table(lua: &Lua, cells: impl Iterator<Item = Pos>) -> mlua::Result<Table> {
    let cells: Vec<Pos> = cells.collect();
    let made = made(lua)?;
    // The appenders are Lua, so the budget counts the work.
    asked_for(
        lua,
        cells.len().saturating_mul(BYTES_PER_CELL),
        "a list of cells",
        || {
            // Sized up front: a list grown cell by cell is rehashed again and again.
            let list = lua.create_table_with_capacity(cells.len(), 0)?;
            for (batch, chunk) in cells.chunks(CELLS_PER_CALL).enumerate() {
                let append = &made.appenders[chunk.len() - 1];
                let coordinates = chunk.iter().flat_map(|p| [p.x, p.y]);
                append.call::<()>((
                    &list,
                    batch * CELLS_PER_CALL,
                    Variadic::from_iter(coordinates),
                ))?;
            }
            Ok(list)
        },
    )
}

/// About what one cell of a list takes in Lua's heap (its table of two fields and its slot).
const BYTES_PER_CELL: usize = 160;

/// Makes a value a script asked for, about `bytes` large, with the cap lifted (under it every
/// value made from Rust is a protected call of its own), after checking that the state could
/// hold it under its cap: if not, it is refused as running out of memory. Made, it counts
/// against the cap like the script's own tables, so results kept call after call still run
/// into the cap.
pub(super) fn asked_for<R>(
    lua: &Lua,
    bytes: usize,
    what: &str,
    make: impl FnOnce() -> mlua::Result<R>,
) -> mlua::Result<R> {
    let lifted = CapLifted {
        lua,
        cap: lua.set_memory_limit(0)?,
    };
    if lifted.cap > 0 && lua.used_memory().saturating_add(bytes) > lifted.cap {
        return Err(super::sandbox::refuse_memory(lua, what));
    }
    make()
}

/// An event ready for its handlers: the caller that makes its table, and its fields as Lua
/// values in the registry's order (nil where a field is absent).
pub(super) struct PreparedEvent {
    caller: Function,
    values: [Value; MOST_EVENT_FIELDS],
}

impl PreparedEvent {
    /// Calls `handler(game, event)` (`game` nil if none).
    pub(super) fn call(
        &self,
        handler: &Function,
        game: Option<&mlua::AnyUserData>,
    ) -> mlua::Result<()> {
        let [a, b, c, d, e, f] = &self.values;
        self.caller.call((handler, game, a, b, c, d, e, f))
    }
}

/// Event `event` with fields `fields` (by name, in any order; a field the registry does not
/// list for the event is an error), made ready for its handlers. The values are made with the
/// memory cap lifted: they are few and small, and under the cap each string made would be a
/// protected call of its own.
pub(super) fn prepare_event(
    lua: &Lua,
    event: &str,
    fields: &[(&'static str, EventField<'_>)],
) -> mlua::Result<PreparedEvent> {
    let index = check_event(event, fields)?;
    let names = super::api::EVENT_FIELDS[index].2;
    let made = made(lua)?;
    let caller = made
        .callers
        .get(index)
        .cloned()
        .ok_or_else(|| mlua::Error::runtime(format!("no caller for event `{event}`")))?;
    let mut values: [Value; MOST_EVENT_FIELDS] = Default::default();
    uncapped(lua, || {
        for ((name, _, _), slot) in names.iter().zip(&mut values) {
            if let Some((_, field)) = fields.iter().find(|(f, _)| f == name) {
                *slot = field_value(lua, &made, field)?;
            }
        }
        Ok(())
    })?;
    Ok(PreparedEvent { caller, values })
}

/// The registry's index of `event`, if it is an event and `fields` are among its fields.
pub(super) fn check_event(
    event: &str,
    fields: &[(&'static str, EventField<'_>)],
) -> mlua::Result<usize> {
    let index = super::api::EVENT_FIELDS
        .iter()
        .position(|(name, _, _)| *name == event)
        .ok_or_else(|| mlua::Error::runtime(format!("`{event}` is not an event")))?;
    let names = super::api::EVENT_FIELDS[index].2;
    if let Some((stray, _)) = fields
        .iter()
        .find(|(f, _)| !names.iter().any(|n| n.0 == *f))
    {
        return Err(mlua::Error::runtime(format!(
            "`{stray}` is not a field of event `{event}`"
        )));
    }
    Ok(index)
}

/// Runs `make` with the state's memory cap lifted, for values the host makes unasked (an
/// event's fields, the token being invoked: few, small and bounded by the board), never for
/// what a script asks for, which a script could keep call after call; the cap holds again for the scripts' own allocations afterwards (if
/// the host's values took the state past it, the script's next allocation fails).
pub(super) fn uncapped<R>(lua: &Lua, make: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
    let _lifted = CapLifted {
        lua,
        cap: lua.set_memory_limit(0)?,
    };
    make()
}

/// The cap, lifted until this is dropped (so that it comes back however `make` ends).
struct CapLifted<'a> {
    lua: &'a Lua,
    cap: usize,
}

impl Drop for CapLifted<'_> {
    fn drop(&mut self) {
        // Only a state without memory control refuses, and then it had no cap to lift.
        let _ = self.lua.set_memory_limit(self.cap);
    }
}

fn field_value(lua: &Lua, made: &Made, field: &EventField<'_>) -> mlua::Result<Value> {
    Ok(match field {
        EventField::Word(word) => Value::String(made.fixed_name(lua, word)?),
        EventField::Text(text) => Value::String(lua.create_string(text.as_ref())?),
        EventField::Int(n) => Value::Integer(*n),
        EventField::Bool(b) => Value::Boolean(*b),
    })
}

/// The value of an event's field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventField<'a> {
    /// One of a fixed few words (a player, a direction): made once per state.
    Word(&'static str),
    /// Any other text.
    Text(std::borrow::Cow<'a, str>),
    /// A whole number.
    Int(i64),
    /// A flag.
    Bool(bool),
}

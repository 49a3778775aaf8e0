//! Per-pack string tables for translations: `scryptic.t(key, args)` gives the text of `key` in
//! the game's language from the string table of the calling script's pack (`locale/en.ron`,
//! or the language's own file over it), with `{name}` replaced by `args.name`.

use super::text::Name;
use super::{Registry, current_script, lock};
use mlua::{Lua, Table, Value};
use std::sync::{Arc, Mutex};

/// Installs `scryptic.t` into `api`.
pub(super) fn install(lua: &Lua, api: &Table, registry: &Arc<Mutex<Registry>>) -> mlua::Result<()> {
    let reg = registry.clone();
    api.raw_set(
        "t",
        lua.create_function(move |lua, (key, args): (Name, Option<Table>)| {
            let script = current_script(lua).unwrap_or_default();
            let text = {
                let r = lock(&reg)?;
                // A script of another pack is named `ID:path`; the level's own, by its path.
                let pack = match crate::pack::manifest::split_reference(&script) {
                    (Some(id), _) => id.to_string(),
                    (None, _) => r.own_pack.clone(),
                };
                r.strings
                    .get(&pack)
                    .and_then(|table| table.get(key.as_str()))
                    .cloned()
            };
            // A missing key shows itself, so that a missing translation is seen, not hidden.
            let Some(text) = text else {
                return Ok(key.into_string());
            };
            fill(lua, &text, args.as_ref())
        })?,
    )?;
    Ok(())
}

/// The most bytes a text `scryptic.t` makes may have: past it, the call is refused before
/// anything is built (a text of 1,300 placeholders filled with a 4 MiB value would be 5 GiB).
pub const MAX_TRANSLATED_BYTES: usize = 64 * 1024;

/// A placeholder's value as text: a string, number or boolean (`None`: left as written).
fn arg_text(args: &Table, name: &str) -> mlua::Result<Option<Vec<u8>>> {
    Ok(match args.raw_get::<Value>(name)? {
        Value::String(s) => Some(s.as_bytes().to_vec()),
        Value::Integer(n) => Some(n.to_string().into_bytes()),
        Value::Number(n) => Some(n.to_string().into_bytes()),
        Value::Boolean(b) => Some(b.to_string().into_bytes()),
        _ => None,
    })
}

/// The length of each argument a placeholder names, without copying it.
fn arg_len(args: &Table, name: &str) -> mlua::Result<usize> {
    Ok(match args.raw_get::<Value>(name)? {
        Value::String(s) => s.as_bytes().len(),
        Value::Integer(_) | Value::Number(_) => 24,
        Value::Boolean(_) => 5,
        _ => name.len() + 2,
    })
}

/// The pieces of `text`: literal runs and `{name}` placeholders, in order.
fn pieces(text: &str) -> impl Iterator<Item = Result<&str, &str>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let piece = match rest.find('{') {
            Some(0) => match rest[1..].find('}') {
                Some(close) => {
                    let name = &rest[1..=close];
                    rest = &rest[close + 2..];
                    return Some(Err(name));
                }
                None => std::mem::take(&mut rest),
            },
            Some(open) => {
                let (literal, after) = rest.split_at(open);
                rest = after;
                literal
            }
            None => std::mem::take(&mut rest),
        };
        Some(Ok(piece))
    })
}

/// `text` with each `{name}` replaced by `args.name` (a string, number or boolean); a name
/// without a value stays as written. The length is counted first, without copying anything,
/// and the work is charged to the budget: a text past `MAX_TRANSLATED_BYTES` is refused.
fn fill(lua: &Lua, text: &str, args: Option<&Table>) -> mlua::Result<String> {
    let Some(args) = args else {
        return Ok(text.to_string());
    };
    let mut length = 0usize;
    for piece in pieces(text) {
        length = length.saturating_add(match piece {
            Ok(literal) => literal.len(),
            Err(name) => arg_len(args, name)?,
        });
        if length > MAX_TRANSLATED_BYTES {
            return Err(mlua::Error::runtime(format!(
                "scryptic.t would make a text of more than {MAX_TRANSLATED_BYTES} bytes: fill \
                 its placeholders with shorter values"
            )));
        }
    }
    super::sandbox::charge_host_work(lua, 1 + length / 64)?;
    let mut out = Vec::with_capacity(length);
    for piece in pieces(text) {
        match piece {
            Ok(literal) => out.extend_from_slice(literal.as_bytes()),
            Err(name) => match arg_text(args, name)? {
                Some(value) => out.extend_from_slice(&value),
                None => {
                    out.push(b'{');
                    out.extend_from_slice(name.as_bytes());
                    out.push(b'}');
                }
            },
        }
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

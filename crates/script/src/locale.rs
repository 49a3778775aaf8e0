//! Per-pack string tables for translations: `scryptic.t(key, args)` gives the text of `key` in
//! the game's language from the string table of the calling script's pack (`locale/en.ron`,
//! or the language's own file over it), with `{name}` replaced by `args.name`.

use super::{Registry, current_script, lock};
use mlua::{Lua, Table, Value};
use std::sync::{Arc, Mutex};

/// Installs `scryptic.t` into `api`.
pub(super) fn install(lua: &Lua, api: &Table, registry: &Arc<Mutex<Registry>>) -> mlua::Result<()> {
    let reg = registry.clone();
    api.raw_set(
        "t",
        lua.create_function(move |lua, (key, args): (String, Option<Table>)| {
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
                    .and_then(|table| table.get(&key))
                    .cloned()
            };
            // A missing key shows itself, so that a missing translation is seen, not hidden.
            let Some(text) = text else {
                return Ok(key);
            };
            fill(&text, args.as_ref())
        })?,
    )?;
    Ok(())
}

/// `text` with each `{name}` replaced by `args.name` (a string, number or boolean); a name
/// without a value stays as written.
fn fill(text: &str, args: Option<&Table>) -> mlua::Result<String> {
    let Some(args) = args else {
        return Ok(text.to_string());
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return Ok(out);
        };
        let name = &after[..close];
        match args.raw_get::<Value>(name)? {
            Value::String(s) => out.push_str(&s.to_string_lossy()),
            Value::Integer(n) => out.push_str(&n.to_string()),
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Boolean(b) => out.push_str(&b.to_string()),
            _ => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

//! The scripting API, described once: what scripts can call and what events carry. The LuaLS
//! definitions in `scripts/types/` are generated from it (`scryptic script types`), and tests
//! check both that they are up to date and that every method listed here exists.

/// A function or method scripts can call.
pub struct ApiFunction {
    /// Its name.
    pub name: &'static str,
    /// Parameters: name, LuaLS type, meaning.
    pub params: &'static [(&'static str, &'static str, &'static str)],
    /// The LuaLS type returned (`nil` for nothing).
    pub returns: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// A field of an event's table.
pub type Field = (&'static str, &'static str, &'static str);

mod functions;
mod tables;

pub use functions::{GAME, MODE_GAME, SCRYPTIC, TOKEN_GAME};
pub use tables::{CLASSES, EVENT_FIELDS, GLOBALS, OBJECTS};

fn function_doc(out: &mut String, f: &ApiFunction) {
    out.push_str(&format!("--- {}\n", f.doc));
    if f.name == "rule" {
        // A checker takes the first signature that fits: a number constant's key gives a
        // number; any other key, what the constant is.
        out.push_str("---@param key ScrypticNumberRule a number constant, `section.name`\n---@return number\n");
        out.push_str(&format!(
            "---@overload fun(self: SELF, key: string): {}\n",
            f.returns
        ));
        return;
    }
    for (name, ty, doc) in f.params {
        out.push_str(&format!("---@param {name} {ty} {doc}\n"));
    }
    if f.returns != "nil" {
        out.push_str(&format!("---@return {}\n", f.returns));
    }
    out.push_str(&overloads(f.name));
}

/// The overloads that tie an argument's value to a precise type: `scryptic.on("turn_start",
/// ...)` hands its handler a `ScrypticEvent_turn_start` (so that a checker knows `event.player`
/// and flags `event.plyaer`), and `game:rule` of a number constant returns a number.
fn overloads(name: &str) -> String {
    match name {
        "on" => EVENT_FIELDS
            .iter()
            .map(|(event, _, _)| {
                format!(
                    "---@overload fun(event: \"{event}\", handler: fun(game: ScrypticGame, event: ScrypticEvent_{event}), filter?: ScrypticEventFilter)\n"
                )
            })
            .chain(std::iter::once(
                "---@overload fun(event: string, handler: fun(game: ScrypticGame, event: table<string, any>))\n".to_string(),
            ))
            .collect(),
        _ => String::new(),
    }
}

fn method_class(out: &mut String, class: &str, doc: &str, methods: &[ApiFunction]) {
    out.push_str(&format!(
        "--- {doc}\n---@class {class}\nlocal {class} = {{}}\n\n"
    ));
    for m in methods {
        let mut doc = String::new();
        function_doc(&mut doc, m);
        out.push_str(&doc.replace("SELF", class));
        let params: Vec<&str> = m.params.iter().map(|p| p.0).collect();
        out.push_str(&format!(
            "function {class}:{}({}) end\n\n",
            m.name,
            params.join(", ")
        ));
    }
}

/// A table type scripts are handed or hand over: its fields (a name ending in `?` may be
/// left out).
pub struct ApiClass {
    /// Its LuaLS name.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Its fields: name, LuaLS type, meaning.
    pub fields: &'static [Field],
}

/// A name for a type, with the type it stands for.
pub struct ApiAlias {
    /// Its LuaLS name.
    pub name: &'static str,
    /// The type, in LuaLS notation.
    pub ty: String,
    /// What it is.
    pub doc: &'static str,
}

/// A group of methods on a `game` object scripts are handed.
pub struct ApiObject {
    /// Its LuaLS name.
    pub name: &'static str,
    /// Where scripts meet it.
    pub doc: &'static str,
    /// Its methods.
    pub methods: &'static [ApiFunction],
}

/// The type names the API uses.
pub fn aliases() -> Vec<ApiAlias> {
    fn quoted(names: impl Iterator<Item = String>) -> String {
        names
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join("|")
    }
    let seats = (0..crate::board::MAX_SEATS)
        .filter_map(crate::board::Player::seat)
        .map(|p| p.to_string());
    let owners = crate::board::Owner::ALL
        .iter()
        .map(|o| o.name().to_string());
    let terrains = crate::board::Terrain::ALL
        .iter()
        .map(|t| t.name().to_string());
    let events = EVENT_FIELDS.iter().map(|(e, _, _)| e.to_string());
    let constants = crate::rules::RuleSet::constants();
    let numbers = constants
        .iter()
        .filter(|c| c.range.is_some())
        .map(|c| c.key.to_string());
    vec![
        ApiAlias {
            name: "ScrypticPlayer",
            ty: quoted(seats),
            doc: "a seat",
        },
        ApiAlias {
            name: "ScrypticOwner",
            ty: quoted(owners),
            doc: "who holds a city",
        },
        ApiAlias {
            name: "ScrypticTerrain",
            ty: quoted(terrains),
            doc: "a cell's terrain",
        },
        ApiAlias {
            name: "ScrypticEvent",
            ty: quoted(events),
            doc: "an event's name",
        },
        ApiAlias {
            name: "ScrypticNumberRule",
            ty: quoted(numbers),
            doc: "a rule constant that is a number, `section.name`",
        },
        ApiAlias {
            name: "ScrypticEventFilter",
            ty: "table<string, string|integer|boolean|{every: integer}>".into(),
            doc: "fields an event must have: a value must be equal, `{every = n}` a multiple of n",
        },
    ]
}

fn field_line(out: &mut String, (name, ty, doc): &Field) {
    out.push_str(&format!("---@field {name} {ty} {doc}\n"));
}

/// The LuaLS definitions (`---@meta`) of the whole API.
pub fn luals_definitions() -> String {
    let mut out = String::from(
        "---@meta\n-- Generated by `scryptic script types` from crates/script/src/api.rs; do not edit.\n\n",
    );
    for alias in aliases() {
        out.push_str(&format!(
            "--- {}\n---@alias {} {}\n\n",
            alias.doc, alias.name, alias.ty
        ));
    }
    for class in CLASSES {
        out.push_str(&format!("--- {}\n---@class {}\n", class.doc, class.name));
        class.fields.iter().for_each(|f| field_line(&mut out, f));
        out.push('\n');
    }
    for (event, doc, fields) in EVENT_FIELDS {
        out.push_str(&format!("--- {doc}\n---@class ScrypticEvent_{event}\n"));
        fields.iter().for_each(|f| field_line(&mut out, f));
        out.push('\n');
    }
    for object in OBJECTS {
        method_class(&mut out, object.name, object.doc, object.methods);
    }
    out.push_str(&format!(
        "--- {}\n---@class scryptic\nscryptic = {{}}\n\n",
        GLOBALS[0].2
    ));
    for f in SCRYPTIC {
        function_doc(&mut out, f);
        let params: Vec<&str> = f.params.iter().map(|p| p.0).collect();
        out.push_str(&format!(
            "function scryptic.{}({}) end\n\n",
            f.name,
            params.join(", ")
        ));
    }
    let (name, ty, doc) = GLOBALS[1];
    out.push_str(&format!("--- {doc}\n---@type {ty}\n{name} = {{}}\n"));
    out
}

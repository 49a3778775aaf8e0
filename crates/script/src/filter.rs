//! Event filters: `scryptic.on`'s optional third argument says which of an event's
//! occurrences a handler wants, by the event's fields (`{player = "silver"}`, or
//! `{turn = {every = 6}}` for every sixth turn), as Factorio's event filters and Wesnoth's
//! `[filter]` do. The host tests them before calling into Lua, so a handler that wants few
//! occurrences costs nothing on the others.

use super::lua_values::EventField;
use mlua::{Table, Value};

/// What an occurrence of an event must match for a handler to be called (nothing, if empty).
#[derive(Clone, Debug, Default)]
pub(super) struct EventFilter {
    tests: Vec<(&'static str, FieldTest)>,
}

/// A test of one field.
#[derive(Clone, Debug)]
enum FieldTest {
    /// The field equals this text (a player, a city's id, a word...).
    Text(String),
    /// The field equals this number.
    Int(i64),
    /// The field equals this flag.
    Bool(bool),
    /// The field is a multiple of this number (`{every = n}`).
    Every(i64),
}

/// What a field of the registry holds, as far as filters care.
enum FieldKind {
    /// Any text (a city's id, a word).
    Text,
    /// One of a few words (a player, an owner, a direction): a filter with another word
    /// could never match, so it is refused.
    Word(Vec<&'static str>),
    Int,
    Bool,
}

impl FieldKind {
    /// The kind of a field from its LuaLS type in the registry.
    fn of(luals_type: &'static str) -> FieldKind {
        use crate::board::{Owner, Player};
        match luals_type.trim_end_matches('?') {
            "integer" => FieldKind::Int,
            "boolean" => FieldKind::Bool,
            "ScrypticPlayer" => FieldKind::Word(Player::BOTH.iter().map(|p| p.name()).collect()),
            "ScrypticOwner" => FieldKind::Word(Owner::ALL.iter().map(|o| o.name()).collect()),
            words if words.starts_with('"') => {
                FieldKind::Word(words.split('|').map(|w| w.trim_matches('"')).collect())
            }
            _ => FieldKind::Text,
        }
    }

    fn describe(&self) -> String {
        match self {
            FieldKind::Text => "a string".into(),
            FieldKind::Word(words) => format!("one of \"{}\"", words.join("\", \"")),
            FieldKind::Int => "an integer or {every = n}".into(),
            FieldKind::Bool => "a boolean".into(),
        }
    }
}

impl EventFilter {
    /// The filter `table` describes for `event` (no table: everything matches). Unknown
    /// fields and values of the wrong kind are refused with a message that says what fits.
    pub(super) fn from_lua(event: &str, table: Option<Table>) -> mlua::Result<EventFilter> {
        let Some(table) = table else {
            return Ok(EventFilter::default());
        };
        let fields = super::api::EVENT_FIELDS
            .iter()
            .find(|(name, _, _)| *name == event)
            .map_or(&[][..], |(_, _, fields)| *fields);
        // Checked in the keys' order, so that a filter with several mistakes is always
        // refused for the same one (`pairs` order differs from one state to the next).
        let mut entries = table
            .pairs::<Value, Value>()
            .map(|pair| pair.and_then(|(key, value)| Ok((key.to_string()?, value))))
            .collect::<mlua::Result<Vec<_>>>()?;
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut tests = Vec::new();
        for (key, value) in entries {
            let Some((name, ty, _)) = fields.iter().find(|(name, _, _)| *name == key) else {
                return Err(unknown_field(event, &key, fields));
            };
            let kind = FieldKind::of(ty);
            let test = field_test(&kind, &value).ok_or_else(|| {
                mlua::Error::runtime(format!(
                    "the filter's `{name}` of event `{event}` must be {}",
                    kind.describe()
                ))
            })?;
            tests.push((*name, test));
        }
        Ok(EventFilter { tests })
    }

    /// Whether an occurrence with `fields` matches (a field it lacks matches nothing).
    pub(super) fn matches(&self, fields: &[(&'static str, EventField<'_>)]) -> bool {
        self.tests.iter().all(|(name, test)| {
            fields
                .iter()
                .find(|(field, _)| field == name)
                .is_some_and(|(_, value)| test.accepts(value))
        })
    }
}

impl FieldTest {
    fn accepts(&self, value: &EventField<'_>) -> bool {
        match (self, value) {
            (FieldTest::Text(want), EventField::Word(got)) => want == got,
            (FieldTest::Text(want), EventField::Text(got)) => want == got,
            (FieldTest::Int(want), EventField::Int(got)) => want == got,
            (FieldTest::Bool(want), EventField::Bool(got)) => want == got,
            (FieldTest::Every(n), EventField::Int(got)) => got % n == 0,
            _ => false,
        }
    }
}

/// The test `value` makes of a field of `kind`, if it fits.
fn field_test(kind: &FieldKind, value: &Value) -> Option<FieldTest> {
    match (kind, value) {
        (FieldKind::Text, Value::String(s)) => Some(FieldTest::Text(s.to_str().ok()?.to_owned())),
        (FieldKind::Word(words), Value::String(s)) => {
            let word = s.to_str().ok()?;
            words
                .contains(&&*word)
                .then(|| FieldTest::Text(word.to_owned()))
        }
        (FieldKind::Int, Value::Integer(n)) => Some(FieldTest::Int(*n)),
        (FieldKind::Int, Value::Number(n)) if n.fract() == 0.0 => Some(FieldTest::Int(*n as i64)),
        (FieldKind::Int, Value::Table(t)) => every(t),
        (FieldKind::Bool, Value::Boolean(b)) => Some(FieldTest::Bool(*b)),
        _ => None,
    }
}

/// `{every = n}` with a whole `n` of 1 or more, and nothing else.
fn every(table: &Table) -> Option<FieldTest> {
    let n: i64 = table.get("every").ok()?;
    let only_every = table
        .pairs::<Value, Value>()
        .all(|pair| matches!(pair, Ok((Value::String(k), _)) if k == "every"));
    (n >= 1 && only_every).then_some(FieldTest::Every(n))
}

fn unknown_field(event: &str, key: &str, fields: &[super::api::Field]) -> mlua::Error {
    let names: Vec<&str> = fields.iter().map(|(name, _, _)| *name).collect();
    let has = if names.is_empty() {
        "has no fields to filter by".to_string()
    } else {
        format!("has {}", names.join(", "))
    };
    mlua::Error::runtime(format!(
        "the filter names `{key}`, which is not a field of event `{event}` (it {has})"
    ))
}

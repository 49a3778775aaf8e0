//! The schema of what the engine's own types carry (a seat's snapshot, the events, an action)
//! is made from those types (schemars, from their serde attributes and doc comments), so that
//! docs/protocol.schema.json says every field a client receives and cannot fall behind them.
//! `SCRYPTIC_WRITE_SCHEMA=1 cargo test -p scryptic-protocol schema` writes it after a change.

use scryptic_core::game::{Action, Event, Snapshot};
use serde_json::Value;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/protocol.schema.json"
);

/// The definitions the engine's types make, by name (`Snapshot`, `Event`, `Action` and what
/// they hold), as they stand under `$defs`.
fn generated() -> serde_json::Map<String, Value> {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    let mut generator = schemars::SchemaGenerator::new(settings);
    generator.subschema_for::<Snapshot>();
    generator.subschema_for::<Event>();
    generator.subschema_for::<Action>();
    generator.take_definitions(true)
}

#[test]
fn the_schema_of_views_and_events_is_the_engines_own() {
    let mut docs: Value = serde_json::from_str(&std::fs::read_to_string(SCHEMA).unwrap()).unwrap();
    let made = generated();
    let defs = docs["$defs"].as_object_mut().unwrap();
    let stale: Vec<&String> = made
        .iter()
        .filter(|(name, def)| defs.get(*name) != Some(def))
        .map(|(name, _)| name)
        .collect();
    if stale.is_empty() {
        return;
    }
    if std::env::var_os("SCRYPTIC_WRITE_SCHEMA").is_some() {
        for (name, def) in &made {
            defs.insert(name.clone(), def.clone());
        }
        let text = serde_json::to_string_pretty(&docs).unwrap() + "\n";
        std::fs::write(SCHEMA, text).unwrap();
        return;
    }
    panic!(
        "docs/protocol.schema.json does not say what the engine's types are now: {stale:?} \
         differ; write it with SCRYPTIC_WRITE_SCHEMA=1 cargo test -p scryptic-protocol schema"
    );
}

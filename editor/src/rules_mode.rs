//! Rules mode: pick a preset, override any constant (its description and valid range shown
//! beside it), see what differs from the preset, and save the rules into the map or as a
//! rule-set file.
//!
//! Constants are edited through their serialized form (the same keys rule files use), so the
//! editor knows no constant by name: what the runtime describes is what can be edited.

use crate::document::Document;
use scryptic::RuleSet;
use scryptic::rules::{RuleFile, RuleOverrides, RuleSpec};
use serde_json::{Map as JsonMap, Value};
use std::path::Path;

/// The rule set being edited.
#[derive(Debug, Default)]
pub struct RulesMode {
    /// Text typed into a constant's field, by key, until it is committed (Enter, or leaving
    /// the field).
    pub drafts: std::collections::BTreeMap<String, String>,
    /// Why the value last committed into a field was refused, by key, shown beside it until
    /// a value is taken.
    pub refusals: std::collections::BTreeMap<String, String>,
    /// Where "Save as rule-set file" writes.
    pub file_path: String,
    /// The last message.
    pub message: Option<String>,
    /// Only constants that differ from the preset are listed.
    pub only_changed: bool,
    /// The table constant open beside the list, if one is (`letters.tiles`).
    pub open_table: Option<String>,
    /// The map's rules and the preset's, serialized, for the spec they were made from: made
    /// again only when the map's rules change, not on every frame.
    shown: Option<(RuleSpec, Value, Value)>,
}

/// The value at `section.field` of a serialized rule set.
fn value_at<'a>(root: &'a Value, key: &str) -> Option<&'a Value> {
    let (section, field) = key.split_once('.')?;
    root.get(section)?.get(field)
}

/// The overrides of `spec` as JSON: `{section: {field: value}}`.
fn overrides_json(overrides: &RuleOverrides) -> Value {
    serde_json::to_value(overrides).unwrap_or(Value::Object(JsonMap::new()))
}

/// `overrides` with `key` set to `value` (or removed with `None`); an error when the runtime
/// refuses the value's form.
pub fn with_override(
    overrides: &RuleOverrides,
    key: &str,
    value: Option<Value>,
) -> Result<RuleOverrides, String> {
    let (section, field) = key
        .split_once('.')
        .ok_or_else(|| format!("'{key}' is not section.field"))?;
    let mut json = overrides_json(overrides);
    let root = json.as_object_mut().ok_or("overrides are not a table")?;
    let entry = root
        .entry(section.to_string())
        .or_insert_with(|| Value::Object(JsonMap::new()));
    if entry.is_null() {
        *entry = Value::Object(JsonMap::new());
    }
    let table = entry.as_object_mut().ok_or("a section is not a table")?;
    match value {
        Some(v) => {
            table.insert(field.to_string(), v);
        }
        None => {
            table.remove(field);
        }
    }
    if table.is_empty() {
        root.remove(section);
    }
    serde_json::from_value(json).map_err(|e| format!("{key}: {e}"))
}

/// A rule set's constants as JSON.
fn rules_json(rules: &RuleSet) -> Value {
    serde_json::to_value(rules).unwrap_or(Value::Null)
}

/// The rule set a spec makes, or its problems as text.
fn resolve(spec: &RuleSpec) -> Result<RuleSet, String> {
    RuleSet::from_spec(spec).map_err(|problems| {
        problems
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })
}

impl RulesMode {
    /// Sets one constant of the map's rules as an undoable step; the runtime's range checks
    /// refuse a bad value and nothing changes.
    pub fn set(
        &mut self,
        doc: &mut Document,
        key: &str,
        value: Option<Value>,
    ) -> Result<(), String> {
        let overrides = with_override(&doc.map.rules.overrides, key, value)?;
        let spec = RuleSpec {
            preset: doc.map.rules.preset.clone(),
            overrides,
        };
        resolve(&spec)?;
        doc.edit_objects(&format!("set {key}"), |m| m.rules = spec);
        Ok(())
    }

    /// Changes the preset, keeping the overrides.
    pub fn set_preset(&mut self, doc: &mut Document, preset: &str) -> Result<(), String> {
        let spec = RuleSpec {
            preset: preset.to_string(),
            overrides: doc.map.rules.overrides.clone(),
        };
        resolve(&spec)?;
        doc.edit_objects("change preset", |m| m.rules = spec);
        Ok(())
    }

    /// Writes the map's rules as a rule-set file (atomically).
    pub fn save_file(&self, doc: &Document, path: &Path) -> Result<(), String> {
        let file = RuleFile {
            version: 1,
            name: doc.map.name.clone(),
            description: format!("The rules of {}", doc.map.name),
            preset: doc.map.rules.preset.clone(),
            overrides: doc.map.rules.overrides.clone(),
        };
        let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::default())
            .map_err(|e| e.to_string())?;
        RuleSet::from_file_text(path, &text).map_err(|e| e.to_string())?;
        scryptic::fsutil::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Loads a rule-set file's preset and overrides into the map, as one step.
    pub fn load_file(&self, doc: &mut Document, path: &Path) -> Result<(), String> {
        let text = scryptic::fsutil::read_text(path).map_err(|e| e.to_string())?;
        RuleSet::from_file_text(path, &text).map_err(|e| e.to_string())?;
        let file: RuleFile = scryptic::ronfile::options()
            .from_str(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        doc.edit_objects("load rule set", |m| {
            m.rules = RuleSpec {
                preset: file.preset,
                overrides: file.overrides,
            }
        });
        Ok(())
    }

    /// The mode's panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        self.refresh_shown(doc);
        let open = self.open_table.clone().zip(self.shown.clone());
        if let Some((key, (_, current, preset))) = open
            && let (Some(now), Some(base)) = (value_at(&current, &key), value_at(&preset, &key))
        {
            let mut change = None;
            egui::Panel::right("rule table")
                .default_size(340.0)
                .show(ui, |ui| change = self.table_panel(ui, &key, (now, base)));
            if let Some(value) = change {
                let value = (value != *base).then_some(value);
                self.apply(doc, key, value);
            }
        }
        egui::CentralPanel::default_margins().show(ui, |ui| {
            self.header_ui(ui, doc);
            ui.separator();
            self.constants_ui(ui, doc);
        });
    }

    /// The map's rules and the preset's as JSON, made again when the map's rules changed.
    fn refresh_shown(&mut self, doc: &Document) {
        if self
            .shown
            .as_ref()
            .is_some_and(|(spec, _, _)| *spec == doc.map.rules)
        {
            return;
        }
        self.shown = match (
            resolve(&doc.map.rules),
            RuleSet::preset(&doc.map.rules.preset),
        ) {
            (Ok(current), Ok(preset)) => Some((
                doc.map.rules.clone(),
                rules_json(&current),
                rules_json(&preset),
            )),
            _ => None,
        };
    }

    /// Sets constant `key` to `value` (the preset's with `None`); a refusal is said beside
    /// the field it came from, as well as above.
    fn apply(&mut self, doc: &mut Document, key: String, value: Option<Value>) {
        match self.set(doc, &key, value) {
            Ok(()) => {
                self.message = None;
                // The constant's refusals go, its table's fields' (`key[...]`) with them.
                let cell = format!("{key}[");
                self.refusals
                    .retain(|field, _| *field != key && !field.starts_with(&cell));
            }
            Err(refusal) => {
                self.refusals.insert(key, refusal.clone());
                self.message = Some(refusal);
            }
        }
    }

    fn header_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        ui.heading("Rules");
        ui.horizontal(|ui| {
            let mut preset = doc.map.rules.preset.clone();
            egui::ComboBox::from_label("preset")
                .selected_text(&preset)
                .show_ui(ui, |ui| {
                    for name in RuleSet::preset_names() {
                        ui.selectable_value(&mut preset, name.to_string(), name);
                    }
                });
            if preset != doc.map.rules.preset {
                self.message = self.set_preset(doc, &preset).err();
            }
            let changed = doc.map.rules.overrides.count();
            let verb = if changed == 1 { "differs" } else { "differ" };
            ui.label(format!(
                "{} {verb} from the preset",
                scryptic::diag::counted(changed, "constant")
            ));
            ui.checkbox(&mut self.only_changed, "only those");
            if ui
                .add_enabled(changed > 0, egui::Button::new("Reset all to the preset"))
                .clicked()
            {
                let preset = doc.map.rules.preset.clone();
                doc.edit_objects("reset rules", |m| {
                    m.rules = RuleSpec {
                        preset,
                        overrides: RuleOverrides::default(),
                    }
                });
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("rule-set file");
            ui.text_edit_singleline(&mut self.file_path)
                .labelled_by(label.id);
            let path = std::path::PathBuf::from(&self.file_path);
            if ui.button("Save as rule-set file").clicked() {
                self.message = Some(match self.save_file(doc, &path) {
                    Ok(()) => format!("saved {}", path.display()),
                    Err(e) => e,
                });
            }
            if ui.button("Load rule-set file").clicked() {
                self.message = self.load_file(doc, &path).err();
            }
        });
        ui.label("Changes are saved into the map (File > Save).");
        if let Some(m) = &self.message {
            ui.colored_label(egui::Color32::from_rgb(240, 160, 80), m);
        }
    }

    fn constants_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        self.refresh_shown(doc);
        let Some((_, current, preset)) = self.shown.clone() else {
            ui.label("The map's rules do not resolve; pick a preset.");
            return;
        };
        let mut change: Option<(String, Option<Value>)> = None;
        egui::ScrollArea::vertical().show(ui, |ui| {
            egui::Grid::new("constants")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for constant in RuleSet::constants() {
                        let (Some(now), Some(base)) = (
                            value_at(&current, constant.key),
                            value_at(&preset, constant.key),
                        ) else {
                            continue;
                        };
                        let differs = now != base;
                        if self.only_changed && !differs {
                            continue;
                        }
                        let label = ui
                            .label(if differs {
                                format!("{} *", constant.key)
                            } else {
                                constant.key.to_string()
                            })
                            .on_hover_text(constant.description);
                        if let Some(v) =
                            self.value_ui(ui, constant.key, now, constant.range, label.id)
                        {
                            // The preset's value again is no override at all.
                            let v = (v != *base).then_some(v);
                            change = Some((constant.key.to_string(), v));
                        }
                        let range = constant
                            .range
                            .map(|(lo, hi)| format!("{lo} to {hi}"))
                            .unwrap_or_default();
                        ui.label(format!("{range}  preset: {}", short(constant.key, base)));
                        if differs && ui.small_button("reset").clicked() {
                            change = Some((constant.key.to_string(), None));
                        }
                        ui.end_row();
                    }
                });
        });
        if let Some((key, value)) = change {
            self.apply(doc, key, value);
        }
    }

    /// An editor for one value: a number box with its range, a checkbox, a drop-down of the
    /// values it may take, a table's button (its rows open beside the list), or the text of a
    /// value with data.
    fn value_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        now: &Value,
        range: Option<(f64, f64)>,
        label: egui::Id,
    ) -> Option<Value> {
        // A value with data (`PerLetter(factor: 1.5)`) is one of a list too; a table is not.
        let listed = !RuleSet::constant_choices(key).is_empty();
        match now {
            Value::Bool(b) => {
                let mut b = *b;
                ui.checkbox(&mut b, "")
                    .labelled_by(label)
                    .changed()
                    .then_some(Value::Bool(b))
            }
            Value::Number(n) => self.number_ui(ui, key, n, range, label),
            Value::String(current) if listed => self.choice_ui(ui, key, current, label),
            Value::Array(_) => {
                self.table_button(ui, key, now, label);
                None
            }
            Value::Object(_) if !listed => {
                self.table_button(ui, key, now, label);
                None
            }
            other => self.text_ui(ui, key, other, label),
        }
    }

    /// A constant that is one of a list: a drop-down of its values (typing one wrong was
    /// silently undone).
    fn choice_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        current: &str,
        label: egui::Id,
    ) -> Option<Value> {
        let mut chosen = current.to_string();
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt(("rule", key))
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for &choice in RuleSet::constant_choices(key) {
                        ui.selectable_value(&mut chosen, choice.to_string(), choice);
                    }
                })
                .response
                .labelled_by(label);
            if let Some(refusal) = self.refusals.get(key) {
                ui.colored_label(ui.visuals().error_fg_color, refusal);
            }
        });
        (chosen != current).then_some(Value::String(chosen))
    }

    /// Any other constant (a table, a value with data) as text, written as a rule file writes
    /// it (`Table`, `{'A': (value: 1, count: 9)}`) or as JSON; Enter or leaving the field
    /// commits it, and text that is not such a value is refused beside the field.
    fn text_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        now: &Value,
        label: egui::Id,
    ) -> Option<Value> {
        let shown = ron_text(key, now).unwrap_or_else(|| now.to_string());
        self.typed_ui(ui, (key, &[label]), (&shown, 260.0), |draft| {
            parse_value(key, draft).map(|value| (value != *now).then_some(value))
        })
    }

    /// A constant typed as text (`shown` its value, in a field `width` wide): nothing applies
    /// while it is typed; Enter or leaving the field reads it with `read` (a value that
    /// changes the constant, none that does not, or why the text is refused), and a refusal
    /// is said beside the field, changing nothing.
    pub(crate) fn typed_ui(
        &mut self,
        ui: &mut egui::Ui,
        (key, labels): (&str, &[egui::Id]),
        (shown, width): (&str, f32),
        read: impl FnOnce(&str) -> Result<Option<Value>, String>,
    ) -> Option<Value> {
        let mut committed = None;
        ui.horizontal(|ui| {
            // A draft is kept only while the field is typed into; otherwise it shows the value
            // (after an undo, a reset).
            let mut draft = self.drafts.remove(key).unwrap_or_else(|| shown.to_string());
            // A stable id: a message shown above must not make the field another widget.
            let mut response = ui.add(
                egui::TextEdit::singleline(&mut draft)
                    .id_salt(("rule", key))
                    .desired_width(width),
            );
            for label in labels {
                response = response.labelled_by(*label);
            }
            if response.lost_focus() {
                committed = Some(read(&draft));
            } else if response.has_focus() {
                self.drafts.insert(key.to_string(), draft);
            }
            if let Some(refusal) = self.refusals.get(key) {
                ui.colored_label(ui.visuals().error_fg_color, refusal);
            }
        });
        match committed? {
            // The refusal goes when a value is taken (`ui` clears it), not when the field is
            // left holding the value it had.
            Ok(value) => value,
            Err(refusal) => {
                self.refusals.insert(key.to_string(), refusal);
                None
            }
        }
    }
}

/// The value `value` of the constant `key` as a rule file writes it (`PerLetter(factor: 1.5)`),
/// if the rule set's writer takes it.
fn ron_text(key: &str, value: &Value) -> Option<String> {
    let (section, field) = key.split_once('.')?;
    let overrides = with_override(&RuleOverrides::default(), key, Some(value.clone())).ok()?;
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let config = ron::ser::PrettyConfig::new()
        .compact_structs(true)
        .compact_maps(true)
        .compact_arrays(true);
    let text = options.to_string_pretty(&overrides, config).ok()?;
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let inner = text
        .strip_prefix(&format!("({section}: ({field}: "))?
        .strip_suffix("))")?;
    Some(inner.trim_end_matches(',').to_string())
}

/// `text` as the value of the constant `key`: JSON, or as a rule file writes it (RON).
fn parse_value(key: &str, text: &str) -> Result<Value, String> {
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        return Ok(value);
    }
    let overrides = RuleSet::constant_override(key, text.trim())
        .map_err(|e| format!("`{}` is not a value of {key}: {e}", text.trim()))?;
    value_at(&overrides_json(&overrides), key)
        .cloned()
        .ok_or_else(|| format!("`{}` is not a value of {key}", text.trim()))
}

impl RulesMode {
    /// A number typed as text: nothing applies while it is typed; Enter or leaving the field
    /// commits it, and a value that is not a number or lies outside `range` is refused beside
    /// the field, changing nothing.
    fn number_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        now: &serde_json::Number,
        range: Option<(f64, f64)>,
        label: egui::Id,
    ) -> Option<Value> {
        self.typed_ui(ui, (key, &[label]), (&now.to_string(), 80.0), |draft| {
            parse_number(draft, now.is_i64(), range)
                .map(|value| (value.as_f64() != now.as_f64()).then_some(value))
        })
    }
}

/// `text` as a rule's number (a whole number when `integer`), within `range`.
pub(crate) fn parse_number(
    text: &str,
    integer: bool,
    range: Option<(f64, f64)>,
) -> Result<Value, String> {
    let text = text.trim();
    let (value, x) = if integer {
        let v: i64 = text
            .parse()
            .map_err(|_| format!("`{text}` is not a whole number"))?;
        (Value::from(v), v as f64)
    } else {
        let v: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| format!("`{text}` is not a number"))?;
        (Value::from(v), v)
    };
    match range {
        Some((lo, hi)) if x < lo || x > hi => Err(format!("{text} is outside {lo} to {hi}")),
        _ => Ok(value),
    }
}

/// The value `v` of constant `key` in a few words: a word without quotes, a table by its
/// count of entries, a value with data as a rule file writes it.
fn short(key: &str, v: &Value) -> String {
    let s = match v {
        Value::String(word) => word.clone(),
        Value::Array(items) => scryptic::diag::counted(items.len(), "entry"),
        // A value with data is one of a list; a table is not.
        Value::Object(entries) if RuleSet::constant_choices(key).is_empty() => {
            scryptic::diag::counted(entries.len(), "entry")
        }
        Value::Object(_) => ron_text(key, v).unwrap_or_else(|| v.to_string()),
        other => other.to_string(),
    };
    scryptic::diag::shorten(&s, 40)
}

#[cfg(test)]
mod tests {
    use super::*;
    use scryptic::Map;

    #[test]
    fn a_constant_is_overridden_checked_and_undone() {
        let mut doc = Document::new(Map::new("t", 10, 10));
        let mut mode = RulesMode::default();
        mode.set(&mut doc, "turn.rack_limit", Some(Value::from(12)))
            .unwrap();
        assert_eq!(doc.map.rule_set().unwrap().turn.rack_limit, 12);
        let refused = mode.set(&mut doc, "turn.rack_limit", Some(Value::from(0)));
        assert!(refused.is_err(), "0 is out of range");
        assert_eq!(
            doc.map.rule_set().unwrap().turn.rack_limit,
            12,
            "a refused value changes nothing"
        );
        mode.set(&mut doc, "turn.rack_limit", None).unwrap();
        assert!(doc.map.rules.overrides.is_empty());
        doc.undo();
        assert_eq!(doc.map.rule_set().unwrap().turn.rack_limit, 12);
    }

    /// A value with data is shown as a rule file writes it, and read back the same.
    #[test]
    fn a_value_with_data_reads_as_a_rule_file_writes_it() {
        let json: Value = serde_json::json!({"PerLetter": {"factor": 1.5}});
        let text = ron_text("strength.mountain", &json).unwrap();
        assert_eq!(text, "PerLetter(factor: 1.5)");
        assert_eq!(parse_value("strength.mountain", &text).unwrap(), json);
    }

    #[test]
    fn rules_save_as_a_file_the_runtime_loads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fast.ron");
        let mut doc = Document::new(Map::new("t", 10, 10));
        let mut mode = RulesMode::default();
        mode.set(&mut doc, "turn.draw_per_turn", Some(Value::from(4)))
            .unwrap();
        mode.save_file(&doc, &path).unwrap();
        assert_eq!(RuleSet::load(&path).unwrap().turn.draw_per_turn, 4);
        let mut other = Document::new(Map::new("u", 10, 10));
        mode.load_file(&mut other, &path).unwrap();
        assert_eq!(other.map.rules, doc.map.rules);
    }
}

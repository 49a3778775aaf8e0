//! Rules mode's editor of a table constant (`letters.tiles`, `strength.connotations`,
//! `supply.opening_table`, `seats.names`): its row in the list of constants is a button with
//! its count of entries, which opens it in a panel beside the list, a row per entry with a
//! field per value, rows removed with a button and added from a last row, as LDtk's and
//! Tiled's property editors show lists. A field commits on Enter or on leaving it; every
//! change sets the whole constant as one undoable step, and a table the rules refuse is said
//! below it, changing nothing.
//!
//! The editor knows no constant: the entries' shapes are read from the value (or, for an
//! empty table, the preset's, else a probe of the rule set's reader).

use crate::rules_mode::{RulesMode, parse_number};
use scryptic::RuleSet;
use serde_json::{Map as JsonMap, Value};

/// How wide a value's field is in a table.
const CELL_WIDTH: f32 = 64.0;

impl RulesMode {
    /// The table constant `key`'s row in the list: a button with its count of entries that
    /// opens it beside the list (and closes it again).
    pub(crate) fn table_button(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        now: &Value,
        label: egui::Id,
    ) {
        let open = self.open_table.as_deref() == Some(key);
        let text = format!("{} {}", summary(now), if open { "<" } else { ">" });
        let button = ui.selectable_label(open, text).labelled_by(label);
        if button.clicked() {
            self.open_table = (!open).then(|| key.to_string());
        }
    }

    /// The open table's panel: what the constant is, its rows, the rules' refusal, Close.
    /// The table it was changed to, if it was.
    pub(crate) fn table_panel(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        (now, base): (&Value, &Value),
    ) -> Option<Value> {
        let mut changed = None;
        ui.horizontal(|ui| {
            ui.heading(format!("{key} ({})", summary(now)));
            if ui.button("Close").clicked() {
                self.open_table = None;
            }
        });
        if let Some(constant) = RuleSet::constants().into_iter().find(|c| c.key == key) {
            ui.label(constant.description);
        }
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("rule table rows")
            .show(ui, |ui| {
                changed = match now {
                    Value::Array(items) => self.list_ui(ui, key, items, base),
                    Value::Object(entries) => self.entries_ui(ui, key, entries, base),
                    _ => None,
                };
                if let Some(refusal) = self.refusals.get(key) {
                    ui.colored_label(ui.visuals().error_fg_color, refusal);
                }
            });
        changed
    }

    /// A list: a numbered row per item.
    fn list_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        items: &[Value],
        base: &Value,
    ) -> Option<Value> {
        let mut changed = None;
        let template = items
            .first()
            .or_else(|| base.as_array().and_then(|b| b.first()))
            .cloned()
            .or_else(|| probe_item(key));
        egui::Grid::new(("rule list", key))
            .striped(true)
            .show(ui, |ui| {
                let columns = header_row(ui, "", template.as_ref());
                for (i, item) in items.iter().enumerate() {
                    let row = ui.label(format!("{}", i + 1)).id;
                    let id = format!("{key}[{i}]");
                    if let Some(value) = self.item_ui(ui, (&id, row, &columns), item) {
                        let mut items = items.to_vec();
                        items[i] = value;
                        changed = Some(Value::Array(items));
                    }
                    if ui.small_button("Remove").clicked() {
                        let mut items = items.to_vec();
                        items.remove(i);
                        changed = Some(Value::Array(items));
                    }
                    ui.end_row();
                }
            });
        let added = match &template {
            // A list of words or numbers: the new item is typed on the last row.
            Some(item) if !item.is_object() => self.new_item_ui(ui, key, item),
            // A list of records: a copy of the last one, to be edited.
            Some(item) => ui
                .button("Add a row")
                .clicked()
                .then(|| items.last().unwrap_or(item).clone()),
            None => None,
        };
        if let Some(item) = added {
            let mut items = items.to_vec();
            items.push(item);
            changed = Some(Value::Array(items));
        }
        changed
    }

    /// A table by name (`'A'`, `"attacking"`): a row per entry, in the order of its names;
    /// entries are added, and those the preset (`base`) lacks removed.
    fn entries_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        entries: &JsonMap<String, Value>,
        base: &Value,
    ) -> Option<Value> {
        let mut changed = None;
        let template = entries
            .values()
            .next()
            .or_else(|| base.as_object().and_then(|b| b.values().next()))
            .cloned();
        egui::Grid::new(("rule entries", key))
            .striped(true)
            .show(ui, |ui| {
                let columns = header_row(ui, "name", template.as_ref());
                for (name, entry) in entries {
                    let row = ui.label(name).id;
                    let id = format!("{key}[{name}]");
                    if let Some(value) = self.item_ui(ui, (&id, row, &columns), entry) {
                        let mut entries = entries.clone();
                        entries.insert(name.clone(), value);
                        changed = Some(Value::Object(entries));
                    }
                    // A rule set changes the preset's entries one by one and never takes
                    // one away (removing it would bring the preset's back): only an entry
                    // the preset lacks may be removed.
                    let own = base.get(name).is_none();
                    if own && ui.small_button("Remove").clicked() {
                        let mut entries = entries.clone();
                        entries.remove(name);
                        changed = Some(Value::Object(entries));
                    }
                    ui.end_row();
                }
            });
        if let Some(template) = template
            && let Some(name) = self.new_name_ui(ui, key, entries)
        {
            // The new entry starts as a copy of the last one, to be edited.
            let entry = entries.values().next_back().cloned().unwrap_or(template);
            let mut entries = entries.clone();
            entries.insert(name, entry);
            changed = Some(Value::Object(entries));
        }
        changed
    }

    /// One entry's fields (`id` names them for drafts and refusals): a record's, each
    /// labelled by its row and column (`Q value`), or the value alone, by its row.
    fn item_ui(
        &mut self,
        ui: &mut egui::Ui,
        (id, row, columns): (&str, egui::Id, &[(String, egui::Id)]),
        item: &Value,
    ) -> Option<Value> {
        let Value::Object(fields) = item else {
            return self.cell_ui(ui, (id, &[row]), item);
        };
        let mut changed = None;
        for (field, value) in fields {
            let column = columns.iter().find(|(name, _)| name == field);
            let labels: Vec<egui::Id> = std::iter::once(row)
                .chain(column.map(|(_, id)| *id))
                .collect();
            if let Some(value) = self.cell_ui(ui, (&format!("{id}.{field}"), &labels), value) {
                let mut fields = fields.clone();
                fields.insert(field.clone(), value);
                changed = Some(Value::Object(fields));
            }
        }
        changed
    }

    /// One value's field: a checkbox, a number or a word typed as they read (no quotes).
    fn cell_ui(
        &mut self,
        ui: &mut egui::Ui,
        (id, labels): (&str, &[egui::Id]),
        value: &Value,
    ) -> Option<Value> {
        match value {
            Value::Bool(b) => {
                let mut b = *b;
                let mut response = ui.checkbox(&mut b, "");
                for label in labels {
                    response = response.labelled_by(*label);
                }
                response.changed().then_some(Value::Bool(b))
            }
            Value::Number(n) => {
                let integer = n.is_i64() || n.is_u64();
                self.typed_ui(ui, (id, labels), (&n.to_string(), CELL_WIDTH), |draft| {
                    parse_number(draft, integer, None)
                        .map(|v| (v.as_f64() != n.as_f64()).then_some(v))
                })
            }
            Value::String(s) => self.typed_ui(ui, (id, labels), (s, CELL_WIDTH * 1.5), |draft| {
                let draft = draft.trim();
                Ok((draft != s).then(|| Value::String(draft.to_string())))
            }),
            other => {
                ui.label(other.to_string());
                None
            }
        }
    }

    /// The last row of a list of words or numbers: the next item typed, added on Enter or
    /// with Add.
    fn new_item_ui(&mut self, ui: &mut egui::Ui, key: &str, like: &Value) -> Option<Value> {
        let typed = self.new_text_ui(ui, key, "New item")?;
        match like {
            Value::Number(n) => match parse_number(&typed, n.is_i64() || n.is_u64(), None) {
                Ok(value) => Some(value),
                Err(why) => {
                    self.refusals.insert(key.to_string(), why);
                    None
                }
            },
            _ => Some(Value::String(typed)),
        }
    }

    /// The last row of a table by name: the new entry's name, refused when the table has it.
    fn new_name_ui(
        &mut self,
        ui: &mut egui::Ui,
        key: &str,
        entries: &JsonMap<String, Value>,
    ) -> Option<String> {
        let name = self.new_text_ui(ui, key, "New entry")?;
        if entries.contains_key(&name) {
            self.refusals
                .insert(key.to_string(), format!("{key} already has {name}"));
            return None;
        }
        Some(name)
    }

    /// A field (`what` it is for) and an Add button for what a table gets next; the text,
    /// once given (Enter in the field, or the button).
    fn new_text_ui(&mut self, ui: &mut egui::Ui, key: &str, what: &str) -> Option<String> {
        let id = format!("{key}[+]");
        let mut given = None;
        ui.horizontal(|ui| {
            let label = ui.label(what);
            let mut draft = self.drafts.remove(&id).unwrap_or_default();
            let field = ui
                .add(
                    egui::TextEdit::singleline(&mut draft)
                        .id_salt(("rule new", key))
                        .desired_width(CELL_WIDTH * 1.5),
                )
                .labelled_by(label.id);
            let pressed = ui.button("Add").clicked();
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (pressed || entered) && !draft.trim().is_empty() {
                given = Some(draft.trim().to_string());
            } else if !draft.is_empty() {
                self.drafts.insert(id, draft);
            }
        });
        given
    }
}

/// A table's line when folded: its count of entries.
fn summary(table: &Value) -> String {
    let count = match table {
        Value::Array(items) => items.len(),
        Value::Object(entries) => entries.len(),
        _ => 0,
    };
    scryptic::diag::counted(count, "entry")
}

/// The names of a record's fields over their columns (nothing for plain values), with the
/// ids of their headings.
fn header_row(ui: &mut egui::Ui, first: &str, like: Option<&Value>) -> Vec<(String, egui::Id)> {
    let Some(Value::Object(fields)) = like else {
        return Vec::new();
    };
    ui.label(first);
    let columns = fields
        .keys()
        .map(|field| {
            let heading = ui.label(egui::RichText::new(field).strong());
            (field.clone(), heading.id)
        })
        .collect();
    ui.end_row();
    columns
}

/// What an item of the empty list `key` is like: a number or a word, whichever the rule
/// set's reader takes.
fn probe_item(key: &str) -> Option<Value> {
    [Value::from(0), Value::String(String::new())]
        .into_iter()
        .find(|item| RuleSet::constant_override(key, &format!("[{item}]")).is_ok())
}

//! The cell inspector: what is on one cell (terrain, forest density, ice thickness, the city
//! or token and their ids) and the fields to change them.

use crate::document::Document;
use crate::tools::owner_name;
use scryptic::{Owner, Pos, Terrain};

/// The inspector panel (it keeps no state of its own: the cell is the map mode's).
#[derive(Debug, Default)]
pub struct Inspector;

impl Inspector {
    /// The panel for `cell`.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document, cell: Option<Pos>) {
        ui.heading("Inspector");
        let Some(cell) = cell.filter(|c| doc.map.terrain.contains(*c)) else {
            ui.label("Click a cell with the Inspect tool (N).");
            return;
        };
        let terrain = doc
            .map
            .terrain
            .get(cell)
            .copied()
            .unwrap_or(Terrain::Plains);
        // The play notation's name (what play mode's messages say) and the map file's x, y.
        ui.label(format!(
            "cell {} (x {}, y {}): {}",
            scryptic::game::notation::cell_name(cell),
            cell.x,
            cell.y,
            terrain.name()
        ));
        let rules = doc.map.rule_set().ok();
        if terrain == Terrain::Forest {
            let default = rules.as_ref().map_or(0, |r| r.board.default_forest_density);
            cell_value(ui, doc, cell, "forest density", default, |m| {
                &mut m.forest_density
            });
        }
        if terrain == Terrain::Ice {
            let default = rules.as_ref().map_or(0, |r| r.board.default_ice_thickness);
            cell_value(ui, doc, cell, "ice thickness", default, |m| {
                &mut m.ice_thickness
            });
        }
        city_fields(ui, doc, cell, rules.as_ref());
        token_fields(ui, doc, cell);
    }
}

type ValueMap = std::collections::BTreeMap<Pos, i64>;

/// A per-cell value with the rule set's default: shown, changed, or reset to the default.
fn cell_value(
    ui: &mut egui::Ui,
    doc: &mut Document,
    cell: Pos,
    name: &str,
    default: i64,
    values: fn(&mut scryptic::Map) -> &mut ValueMap,
) {
    let own = values(&mut doc.map).get(&cell).copied();
    let mut value = own.unwrap_or(default);
    ui.horizontal(|ui| {
        let label = ui.label(name);
        let changed = ui
            .add(egui::DragValue::new(&mut value).range(0..=999))
            .labelled_by(label.id)
            .changed();
        if changed {
            doc.edit_objects(&format!("set {name}"), |m| {
                values(m).insert(cell, value);
            });
        }
        if own.is_some()
            && ui
                .button("default")
                .on_hover_text(format!("the rule set's {default}"))
                .clicked()
        {
            doc.edit_objects(&format!("reset {name}"), |m| {
                values(m).remove(&cell);
            });
        }
    });
}

fn city_fields(
    ui: &mut egui::Ui,
    doc: &mut Document,
    cell: Pos,
    rules: Option<&scryptic::rules::RuleSet>,
) {
    let Some(index) = doc.map.cities.iter().position(|c| c.at == cell) else {
        return;
    };
    ui.separator();
    let mut city = doc.map.cities[index].clone();
    ui.horizontal(|ui| {
        let label = ui.label("city name");
        ui.text_edit_singleline(&mut city.name)
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let label = ui.label("city id");
        ui.text_edit_singleline(&mut city.id).labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        for owner in [Owner::Neutral, Owner::Gold, Owner::Silver] {
            ui.radio_value(&mut city.owner, owner, owner_name(owner));
        }
    });
    capture_bonus(ui, &mut city, rules);
    if city != doc.map.cities[index] {
        doc.edit_objects("edit city", |m| m.cities[index] = city);
    }
}

/// The city's capture bonus: its own, or the rule set's for a city held as this one is at
/// the start (shown, and taken as its own once changed; "default" gives the rule set's back).
fn capture_bonus(
    ui: &mut egui::Ui,
    city: &mut scryptic::City,
    rules: Option<&scryptic::rules::RuleSet>,
) {
    let default = rules.map_or(0, |r| r.capture.bonus_from(city.owner));
    let mut value = city.bonus.unwrap_or(default);
    ui.horizontal(|ui| {
        let label = ui.label("capture bonus");
        let changed = ui
            .add(egui::DragValue::new(&mut value).range(scryptic::limits::CITY_BONUS))
            .labelled_by(label.id)
            .on_hover_text("What capturing this city adds to the base score")
            .changed();
        if changed {
            city.bonus = Some(value);
        }
        if city.bonus.is_some()
            && ui
                .button("default")
                .on_hover_text(format!("the rule set's {default}"))
                .clicked()
        {
            city.bonus = None;
        }
    });
}

fn token_fields(ui: &mut egui::Ui, doc: &mut Document, cell: Pos) {
    let Some(index) = doc.map.tokens.iter().position(|t| t.at == cell) else {
        return;
    };
    ui.separator();
    let mut token = doc.map.tokens[index].clone();
    ui.label(format!("token: {}", token.kind));
    ui.horizontal(|ui| {
        let label = ui.label("token id");
        ui.text_edit_singleline(&mut token.id).labelled_by(label.id);
    });
    if token != doc.map.tokens[index] {
        doc.edit_objects("edit token", |m| m.tokens[index] = token);
    }
}

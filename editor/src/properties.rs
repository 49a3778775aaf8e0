//! The Map properties panel: name, author, description, rule-set preset, tileset and scripts,
//! and resizing with an anchor (rows and columns added or removed on the sides the anchor
//! leaves free, as Tiled's and LDtk's resize do). Every change is one undoable step; text is
//! committed when its field is left, not at every keystroke.

use crate::document::Document;
use scryptic::{Grid, Map, Pos, Terrain};

/// Where the old map sits in the resized one: each axis's side (0: start, 1: centre, 2: end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// 0 keeps the left edge, 1 the centre, 2 the right edge.
    pub x: u8,
    /// 0 keeps the top edge, 1 the centre, 2 the bottom edge.
    pub y: u8,
}

impl Default for Anchor {
    fn default() -> Anchor {
        Anchor { x: 1, y: 1 }
    }
}

/// The panel's state: drafts of the text fields and of the new size.
#[derive(Debug, Default)]
pub struct PropertiesPanel {
    /// The size asked for, until Resize is clicked (`None`: the map's).
    pub size: Option<(u32, u32)>,
    /// The map's size when `size` was typed: a map resized since (an undo, a redo) drops the
    /// draft, so the fields show the map.
    drafted_on: Option<(u32, u32)>,
    /// Which side stays put when resizing.
    pub anchor: Anchor,
    /// A script path to add.
    pub new_script: String,
    /// The last refusal (a size the rules do not allow).
    pub message: Option<String>,
}

/// How far the old map moves, on one axis, when its side `old` becomes `new` with `anchor`.
fn shift(old: u32, new: u32, anchor: u8) -> i64 {
    let grown = i64::from(new) - i64::from(old);
    match anchor {
        0 => 0,
        1 => grown / 2,
        _ => grown,
    }
}

/// `map` resized to `width` x `height`, the old map placed as `anchor` says: new cells are
/// plains; cells, cities, token spots, cell values and scenario words that fall off go.
pub fn resized(map: &Map, width: u32, height: u32, anchor: Anchor) -> Map {
    let (dx, dy) = (
        shift(map.width(), width, anchor.x),
        shift(map.height(), height, anchor.y),
    );
    let moved = |p: Pos| -> Option<Pos> {
        let (x, y) = (i64::from(p.x) + dx, i64::from(p.y) + dy);
        let inside = x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height);
        inside.then(|| Pos::new(x as u32, y as u32))
    };
    let mut terrain = Grid::new(width, height, Terrain::Plains);
    for y in 0..map.height() {
        for x in 0..map.width() {
            let p = Pos::new(x, y);
            if let Some(to) = moved(p) {
                terrain.set(to, map.terrain[p]);
            }
        }
    }
    let mut out = map.clone();
    out.terrain = terrain;
    out.cities = map
        .cities
        .iter()
        .filter_map(|c| {
            Some(scryptic::City {
                at: moved(c.at)?,
                ..c.clone()
            })
        })
        .collect();
    out.tokens = map
        .tokens
        .iter()
        .filter_map(|t| {
            Some(scryptic::TokenSpot {
                at: moved(t.at)?,
                ..t.clone()
            })
        })
        .collect();
    let values = |v: &std::collections::BTreeMap<Pos, i64>| {
        v.iter()
            .filter_map(|(p, n)| Some((moved(*p)?, *n)))
            .collect()
    };
    out.forest_density = values(&map.forest_density);
    out.ice_thickness = values(&map.ice_thickness);
    out.scenario.words = map
        .scenario
        .words
        .iter()
        .filter_map(|w| {
            let end = w
                .dir
                .step(w.at, w.text.chars().count().saturating_sub(1) as u32)?;
            moved(end)?;
            Some(scryptic::map::PlacedWord {
                at: moved(w.at)?,
                ..w.clone()
            })
        })
        .collect();
    out
}

impl PropertiesPanel {
    /// The panel for `doc`'s map.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        text_property(ui, doc, "Name", |m| &mut m.name, false);
        text_property(ui, doc, "Author", |m| &mut m.author, false);
        text_property(ui, doc, "Description", |m| &mut m.description, true);
        text_property(ui, doc, "Tileset", |m| &mut m.tileset, false);
        self.preset_ui(ui, doc);
        self.scripts_ui(ui, doc);
        ui.separator();
        self.resize_ui(ui, doc);
    }

    fn preset_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        let mut preset = doc.map.rules.preset.clone();
        egui::ComboBox::from_label("Rule set")
            .selected_text(preset.as_str())
            .show_ui(ui, |ui| {
                for name in scryptic::RuleSet::preset_names() {
                    ui.selectable_value(&mut preset, name.to_string(), name);
                }
            });
        if preset != doc.map.rules.preset {
            doc.edit_objects("change preset", |m| m.rules.preset = preset);
        }
    }

    fn scripts_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        ui.label("Scripts (paths from the map's folder):");
        let mut remove = None;
        for (i, script) in doc.map.scripts.iter().enumerate() {
            ui.horizontal(|ui| {
                ui.monospace(script);
                if ui.small_button("remove").clicked() {
                    remove = Some(i);
                }
            });
        }
        if let Some(i) = remove {
            doc.edit_objects("remove script", |m| {
                m.scripts.remove(i);
            });
        }
        ui.horizontal(|ui| {
            let label = ui.label("add");
            // Room left for the button beside it: the field never widens the panel.
            let room = (ui.available_width() - 90.0).max(60.0);
            ui.add(egui::TextEdit::singleline(&mut self.new_script).desired_width(room))
                .labelled_by(label.id);
            let path = self.new_script.trim().to_string();
            if ui.button("Add script").clicked() && !path.is_empty() {
                match scryptic::limits::relative_path_problem(&path) {
                    Some(problem) => self.message = Some(format!("{path}: {problem}")),
                    None => {
                        doc.edit_objects("add script", |m| m.scripts.push(path));
                        self.new_script.clear();
                        self.message = None;
                    }
                }
            }
        });
    }

    fn resize_ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        let current = (doc.map.width(), doc.map.height());
        if self.drafted_on.is_some_and(|base| base != current) {
            self.size = None;
        }
        let (mut w, mut h) = self.size.unwrap_or(current);
        ui.horizontal(|ui| {
            let label = ui.label("Width");
            ui.add(egui::DragValue::new(&mut w).range(1..=1024))
                .labelled_by(label.id);
            let label = ui.label("Height");
            ui.add(egui::DragValue::new(&mut h).range(1..=1024))
                .labelled_by(label.id);
        });
        // A draft is kept only while it differs from the map.
        (self.size, self.drafted_on) = if (w, h) == current {
            (None, None)
        } else {
            (Some((w, h)), Some(current))
        };
        ui.label("Anchor (the side that stays):");
        egui::Grid::new("resize anchor").show(ui, |ui| {
            for y in 0..3u8 {
                for x in 0..3u8 {
                    let here = Anchor { x, y };
                    let mark = ["NW", "N", "NE", "W", "C", "E", "SW", "S", "SE"]
                        [usize::from(y) * 3 + usize::from(x)];
                    if ui
                        .selectable_label(self.anchor == here, mark)
                        .on_hover_text(anchor_name(here))
                        .clicked()
                    {
                        self.anchor = here;
                    }
                }
                ui.end_row();
            }
        });
        let changed = (w, h) != (doc.map.width(), doc.map.height());
        if ui
            .add_enabled(changed, egui::Button::new("Resize"))
            .clicked()
        {
            self.message = self.resize(doc, w, h).err();
        }
        if let Some(message) = &self.message {
            ui.colored_label(ui.visuals().error_fg_color, message);
        }
    }

    /// Resizes the map to `width` x `height` around the anchor, as one step; a size the rule
    /// set does not allow is refused and nothing changes.
    pub fn resize(&mut self, doc: &mut Document, width: u32, height: u32) -> Result<(), String> {
        let rules = doc
            .map
            .rule_set()
            .map_err(|_| "the map's rules do not resolve; fix them in Rules mode".to_string())?;
        let (lo, hi) = (rules.board.min_side, rules.board.max_side);
        let fits = |side: u32| (lo..=hi).contains(&i64::from(side));
        if !fits(width) || !fits(height) {
            return Err(format!(
                "{width}x{height}: the rules allow sides of {lo} to {hi} cells"
            ));
        }
        let anchor = self.anchor;
        doc.edit_all(&format!("resize to {width}x{height}"), |map| {
            *map = resized(map, width, height, anchor);
        });
        (self.size, self.drafted_on) = (None, None);
        Ok(())
    }
}

/// The anchor said in words (its tooltip).
fn anchor_name(anchor: Anchor) -> String {
    let x = ["left", "centre", "right"][usize::from(anchor.x.min(2))];
    let y = ["top", "middle", "bottom"][usize::from(anchor.y.min(2))];
    format!("keep the {y} {x}")
}

/// A text field for one property of the map, committed as one step when it is left.
fn text_property(
    ui: &mut egui::Ui,
    doc: &mut Document,
    label: &str,
    field: impl Fn(&mut Map) -> &mut String,
    multiline: bool,
) {
    let id = egui::Id::unique(("map property", label));
    let mut draft: String = ui
        .data_mut(|d| d.get_temp::<String>(id))
        .unwrap_or_else(|| field(&mut doc.map).clone());
    let shown = ui.label(label);
    let edit = if multiline {
        egui::TextEdit::multiline(&mut draft).desired_rows(3)
    } else {
        egui::TextEdit::singleline(&mut draft)
    };
    // As wide as the panel is, no wider: a field wider than the panel widened it, and the
    // canvas beside it shrank.
    let edit = edit.desired_width(ui.available_width());
    let response = ui.add(edit.id_salt(id)).labelled_by(shown.id);
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, draft));
    } else {
        ui.data_mut(|d| d.remove::<String>(id));
        if response.lost_focus() && draft != *field(&mut doc.map) {
            doc.edit_objects(&format!("change {}", label.to_lowercase()), |m| {
                *field(m) = draft;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scryptic::{City, Owner};

    fn city(x: u32, y: u32) -> City {
        City {
            id: format!("c{x}_{y}"),
            name: "C".into(),
            at: Pos::new(x, y),
            owner: Owner::Neutral,
            bonus: None,
        }
    }

    /// Growing keeps the anchored side; the centre anchor shares the new rows and columns
    /// between both sides; shrinking drops what falls off.
    #[test]
    fn resizing_places_the_old_map_by_its_anchor() {
        let mut map = Map::new("r", 4, 4);
        map.terrain.set(Pos::new(0, 0), Terrain::Lava);
        map.cities = vec![city(3, 3)];
        map.forest_density.insert(Pos::new(1, 1), 3);
        let top_left = resized(&map, 6, 6, Anchor { x: 0, y: 0 });
        assert_eq!(top_left.terrain[Pos::new(0, 0)], Terrain::Lava);
        assert_eq!(top_left.cities[0].at, Pos::new(3, 3));
        let centre = resized(&map, 6, 6, Anchor::default());
        assert_eq!(centre.terrain[Pos::new(1, 1)], Terrain::Lava);
        assert_eq!(centre.cities[0].at, Pos::new(4, 4));
        assert_eq!(centre.forest_density.get(&Pos::new(2, 2)), Some(&3));
        let bottom_right = resized(&map, 6, 5, Anchor { x: 2, y: 2 });
        assert_eq!(bottom_right.terrain[Pos::new(2, 1)], Terrain::Lava);
        let shrunk = resized(&map, 3, 3, Anchor { x: 0, y: 0 });
        assert!(shrunk.cities.is_empty(), "the city fell off");
        assert_eq!((shrunk.width(), shrunk.height()), (3, 3));
    }
}

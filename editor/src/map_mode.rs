//! Map mode: the tool palette, the canvas, the inspector, the validation panel and the
//! minimap, with the editing shortcuts (copy, cut, paste, delete, move, grid).

use crate::canvas::{Canvas, Scene};
use crate::clipboard::{Clip, Region, clear};
use crate::document::Document;
use crate::inspector::Inspector;
use crate::minimap::Minimap;
use crate::tools::Tools;
use crate::validation::ValidationPanel;
use crate::view::MapView;
use egui::Key;
use scryptic::Pos;

/// Everything map mode shows besides the map itself.
#[derive(Default)]
pub struct MapMode {
    /// The tool in hand.
    pub tools: Tools,
    /// Where the canvas looks.
    pub view: MapView,
    /// The selected region.
    pub selection: Option<Region>,
    /// What copy or cut took.
    pub clip: Option<Clip>,
    /// The cell under the pointer.
    pub hovered: Option<Pos>,
    /// The cell in the inspector.
    pub inspected: Option<Pos>,
    /// The validator's findings.
    pub validation: ValidationPanel,
    /// The canvas widget's state.
    pub canvas: Canvas,
    /// The Map properties panel.
    pub properties: crate::properties::PropertiesPanel,
    /// Which layers Paste writes (the Edit menu's choice).
    pub paste_layers: crate::clipboard::Layers,
    inspector: Inspector,
    minimap: Minimap,
}

impl MapMode {
    /// Forgets what belonged to the previous map (a map was opened or made).
    pub fn reset(&mut self) {
        self.view.fit_pending = true;
        self.selection = None;
        self.inspected = None;
        self.hovered = None;
        self.canvas.reset();
        self.validation = ValidationPanel::default();
        self.properties = crate::properties::PropertiesPanel::default();
    }

    /// Map mode's panels and canvas.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) {
        if !ui.ctx().egui_wants_keyboard_input() {
            ui.input(|i| self.tools.shortcuts(i));
            self.edit_shortcuts(ui, doc);
        }
        if !ui.input(|i| i.pointer.any_down()) {
            self.validation.refresh(doc, &self.tools.script_token_kinds);
        }
        egui::Panel::left("tools").show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| self.tools.ui(ui));
        });
        egui::Panel::right("inspector")
            .default_size(260.0)
            .show(ui, |ui| {
                let texture = self.canvas.flat_texture_id();
                self.minimap.ui(
                    ui,
                    texture,
                    &doc.map,
                    &mut self.view,
                    self.canvas.last_rect(),
                );
                ui.separator();
                // Below the minimap the panel scrolls: a city's fields and the validation
                // findings run past the bottom of a small window.
                egui::ScrollArea::vertical().show(ui, |ui| {
                    egui::CollapsingHeader::new("Map properties")
                        .id_salt("map properties")
                        .show(ui, |ui| self.properties.ui(ui, doc));
                    ui.separator();
                    self.inspector.ui(ui, doc, self.inspected);
                    ui.separator();
                    if let Some(cell) = self.validation.ui(ui) {
                        self.view.centre = [cell.x as f32 + 0.5, cell.y as f32 + 0.5];
                        self.inspected = Some(cell);
                    }
                });
            });
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.canvas.ui(
                ui,
                Scene {
                    doc,
                    tools: &mut self.tools,
                    view: &mut self.view,
                    selection: &mut self.selection,
                    inspected: &mut self.inspected,
                    hovered: &mut self.hovered,
                    findings: &self.validation.findings,
                    focused: self.validation.focused,
                },
            );
        });
    }

    fn edit_shortcuts(&mut self, ui: &egui::Ui, doc: &mut Document) {
        if ui.input(|i| i.modifiers.command && i.key_pressed(Key::A)) {
            self.select_all(doc);
        }
        let (copy, cut, pasted, paste_key) = ui.input(|i| {
            let key = |k: Key| i.modifiers.command && i.key_pressed(k);
            let event = |e: &egui::Event| i.events.iter().any(|x| x == e);
            let pasted = i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            });
            (
                event(&egui::Event::Copy) || key(Key::C),
                event(&egui::Event::Cut) || key(Key::X),
                pasted,
                key(Key::V),
            )
        });
        // What is copied goes to the system clipboard as text too: another editor window
        // pastes it, and other programs can read it.
        if copy {
            self.copy(doc);
        }
        if cut {
            self.cut(doc);
        }
        if (copy || cut)
            && let Some(clip) = &self.clip
        {
            ui.ctx().copy_text(clip.to_text());
        }
        if let Some(text) = pasted {
            // A region copied in any editor window comes back whole; other text leaves the
            // editor's own clipboard as it is.
            if let Some(clip) = Clip::from_text(&text) {
                self.clip = Some(clip);
            }
            self.paste(doc);
        } else if paste_key {
            self.paste(doc);
        }
        ui.input(|i| {
            if i.key_pressed(Key::G) && !i.modifiers.command {
                self.view.grid = !self.view.grid;
            }
            if i.key_pressed(Key::Escape) {
                self.selection = None;
            }
        });
        if ui.input(|i| i.key_pressed(Key::Delete) || i.key_pressed(Key::Backspace)) {
            self.delete(doc);
        }
        let arrows = [
            (Key::ArrowLeft, -1, 0),
            (Key::ArrowRight, 1, 0),
            (Key::ArrowUp, 0, -1),
            (Key::ArrowDown, 0, 1),
        ];
        for (key, dx, dy) in arrows {
            if ui.input(|i| i.key_pressed(key)) {
                self.move_selection(doc, dx, dy);
            }
        }
    }

    /// Copies the selection.
    pub fn copy(&mut self, doc: &Document) {
        if let Some(region) = self.selection {
            self.clip = Some(Clip::copy(&doc.map, region));
        }
    }

    /// Copies the selection and clears it, as one step.
    pub fn cut(&mut self, doc: &mut Document) {
        self.copy(doc);
        self.delete(doc);
    }

    /// Clears the selection to plains without cities or tokens, as one step.
    pub fn delete(&mut self, doc: &mut Document) {
        if let Some(region) = self.selection {
            doc.edit_all("clear region", |map| clear(map, region));
        }
    }

    /// Pastes the clipboard at the hovered cell (else the selection's corner), as one step;
    /// the pasted cells become the selection.
    pub fn paste(&mut self, doc: &mut Document) {
        let Some(clip) = self.clip.clone() else {
            return;
        };
        let at = self
            .hovered
            .or(self.selection.map(|r| r.min))
            .unwrap_or(Pos::new(0, 0));
        let layers = self.paste_layers;
        doc.edit_all("paste", |map| clip.paste(map, at, layers));
        let (w, h) = clip.size();
        let (mw, mh) = (doc.map.width(), doc.map.height());
        let max = Pos::new((at.x + w - 1).min(mw - 1), (at.y + h - 1).min(mh - 1));
        self.selection = Some(Region::new(at, max));
    }

    /// Selects the whole map.
    pub fn select_all(&mut self, doc: &Document) {
        let (w, h) = (doc.map.width(), doc.map.height());
        self.selection = Some(Region::new(Pos::new(0, 0), Pos::new(w - 1, h - 1)));
    }

    /// Moves the selection's contents by one cell, as one step.
    pub fn move_selection(&mut self, doc: &mut Document, dx: i64, dy: i64) {
        let Some(region) = self.selection else {
            return;
        };
        let (w, h) = (i64::from(doc.map.width()), i64::from(doc.map.height()));
        let (x, y) = (i64::from(region.min.x) + dx, i64::from(region.min.y) + dy);
        let (rw, rh) = region.size();
        if x < 0 || y < 0 || x + i64::from(rw) > w || y + i64::from(rh) > h {
            return;
        }
        let clip = Clip::copy(&doc.map, region);
        let to = Pos::new(x as u32, y as u32);
        doc.edit_all("move region", |map| {
            clear(map, region);
            clip.paste(map, to, crate::clipboard::Layers::default());
        });
        self.selection = Some(Region::new(to, Pos::new(to.x + rw - 1, to.y + rh - 1)));
    }
}

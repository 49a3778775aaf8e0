//! The canvas's input: zoom and pan, and pointer gestures turned into edits of the document
//! through the tool in hand (strokes, fills, rectangles and lines, selections, cities and
//! tokens with their mirror images). Drawing is in the parent module; nothing here paints.

use super::{Canvas, Gesture, Scene};
use crate::clipboard::Region;
use crate::paint;
use crate::tools::{Tool, brush_cells};
use crate::view::MapView;
use scryptic::{City, Map, Pos, Terrain, TokenSpot};

impl Canvas {
    pub(super) fn zoom_and_pan(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        view: &mut MapView,
    ) {
        crate::view::wheel_zoom(ui, response, view);
        // Besides the middle button, Space held with the primary button pans, as in Tiled;
        // a pan keeps going while the button is held, even off the canvas.
        let (middle, space, primary, delta) = ui.input(|i| {
            (
                i.pointer.middle_down(),
                i.key_down(egui::Key::Space),
                i.pointer.primary_down(),
                i.pointer.delta(),
            )
        });
        let pan = (middle || (space && primary))
            && (response.hovered() || self.gesture == Gesture::Panning);
        if pan {
            self.gesture = Gesture::Panning;
            view.pan(delta);
        } else if self.gesture == Gesture::Panning {
            self.gesture = Gesture::Idle;
        }
    }

    pub(super) fn handle_tool(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        scene: &mut Scene<'_>,
    ) {
        let (pressed, down, released, secondary, shift) = ui.input(|i| {
            (
                i.pointer.primary_pressed(),
                i.pointer.primary_down(),
                i.pointer.primary_released(),
                i.pointer.secondary_pressed(),
                i.modifiers.shift,
            )
        });
        let cell = *scene.hovered;
        if pressed && response.hovered() {
            if let Some(cell) = cell {
                self.press(scene, cell, shift);
            }
        } else if down && let Some(cell) = cell.or_else(|| self.clamped_cell(ui, response, scene)) {
            self.drag(scene, cell);
        }
        if released || (!down && self.gesture != Gesture::Idle) {
            self.release(scene);
        }
        if secondary
            && response.hovered()
            && let Some(cell) = cell
        {
            secondary_click(scene, cell);
        }
    }

    /// The map cell nearest the pointer, for drags that leave the map.
    fn clamped_cell(
        &self,
        ui: &egui::Ui,
        response: &egui::Response,
        scene: &Scene<'_>,
    ) -> Option<Pos> {
        let p = ui.input(|i| i.pointer.latest_pos())?;
        let (x, y) = scene.view.to_cells(response.rect, p);
        let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
        Some(Pos::new(
            x.clamp(0.0, w.saturating_sub(1) as f32) as u32,
            y.clamp(0.0, h.saturating_sub(1) as f32) as u32,
        ))
    }

    fn press(&mut self, scene: &mut Scene<'_>, cell: Pos, shift: bool) {
        let tools = &mut *scene.tools;
        match tools.tool {
            Tool::Brush | Tool::Eraser | Tool::Scatter => {
                scene.doc.begin_stroke(tools.tool.label());
                let from = if shift {
                    self.last_point.unwrap_or(cell)
                } else {
                    cell
                };
                stroke_segment(scene, from, cell);
                self.gesture = Gesture::Painting { last: cell };
                self.last_point = Some(cell);
            }
            Tool::Rectangle | Tool::Line | Tool::Select => {
                self.gesture = Gesture::Dragging {
                    start: cell,
                    now: cell,
                };
            }
            Tool::Bucket => bucket_fill(scene, cell),
            Tool::Eyedropper => {
                if let Some(&t) = scene.doc.map.terrain.get(cell) {
                    tools.terrain = t;
                }
            }
            Tool::City => place_city(scene, cell),
            Tool::Token => place_token(scene, cell),
            Tool::Inspect => *scene.inspected = Some(cell),
        }
    }

    fn drag(&mut self, scene: &mut Scene<'_>, cell: Pos) {
        match &mut self.gesture {
            Gesture::Painting { last } if *last != cell => {
                let from = *last;
                *last = cell;
                self.last_point = Some(cell);
                stroke_segment(scene, from, cell);
            }
            Gesture::Dragging { now, .. } => *now = cell,
            _ => {}
        }
    }

    fn release(&mut self, scene: &mut Scene<'_>) {
        match std::mem::take(&mut self.gesture) {
            Gesture::Painting { .. } => scene.doc.end_stroke(),
            Gesture::Dragging { start, now } => finish_drag(scene, start, now),
            Gesture::Idle | Gesture::Panning => {}
        }
    }
}

/// Paints the brush along the line from `from` to `to` (no gaps when the pointer moves fast).
fn stroke_segment(scene: &mut Scene<'_>, from: Pos, to: Pos) {
    let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
    let tools = &*scene.tools;
    let mut cells: Vec<Pos> = paint::line(from, to)
        .into_iter()
        .flat_map(|p| brush_cells(tools, p, w, h))
        .collect();
    cells.sort();
    cells.dedup();
    let terrain = match tools.tool {
        Tool::Eraser => Terrain::Plains,
        _ => tools.terrain,
    };
    if tools.tool == Tool::Scatter {
        cells = paint::scatter(&cells, tools.scatter_percent, 0x5CA7);
    }
    scene.doc.paint(&cells, terrain);
}

fn bucket_fill(scene: &mut Scene<'_>, cell: Pos) {
    let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
    let mut cells = Vec::new();
    for start in paint::mirrored(cell, scene.tools.symmetry, w, h) {
        cells.extend(paint::flood(&scene.doc.map.terrain, start));
    }
    scene.doc.paint_step("fill", &cells, scene.tools.terrain);
}

fn finish_drag(scene: &mut Scene<'_>, start: Pos, now: Pos) {
    let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
    let tools = &*scene.tools;
    let (label, cells) = match tools.tool {
        Tool::Rectangle => ("rectangle", paint::rectangle(start, now, tools.filled)),
        Tool::Line => ("line", paint::line(start, now)),
        Tool::Select => {
            *scene.selection = Some(Region::new(start, now));
            return;
        }
        _ => return,
    };
    let cells = paint::with_symmetry(&cells, tools.symmetry, w, h);
    scene.doc.paint_step(label, &cells, tools.terrain);
}

/// Right-click: removes the city or token under the cursor with those tools, and picks the
/// terrain with the painting tools (as in Tiled).
fn secondary_click(scene: &mut Scene<'_>, cell: Pos) {
    match scene.tools.tool {
        Tool::City => {
            scene
                .doc
                .edit_objects("remove city", |m| m.cities.retain(|c| c.at != cell));
        }
        Tool::Token => {
            scene
                .doc
                .edit_objects("remove token", |m| m.tokens.retain(|t| t.at != cell));
        }
        _ => {
            if let Some(&t) = scene.doc.map.terrain.get(cell) {
                scene.tools.terrain = t;
            }
        }
    }
}

/// A click with the city tool: selects the city there for the inspector, or places a new one
/// (with its mirror images under symmetry) owned as the panel says.
fn place_city(scene: &mut Scene<'_>, cell: Pos) {
    let owner = scene.tools.city_owner;
    place_piece(scene, cell, "place city", |map, at, other_side| {
        // The image of a player's capital is the other player's, so a mirrored duel is fair.
        let owner = if other_side { owner.swapped() } else { owner };
        let n = map.cities.len() + 1;
        let id = crate::clipboard::fresh_id(map, &format!("city-{n}"));
        let name = format!("City {n}");
        map.cities.push(City {
            id,
            name,
            at,
            owner,
            bonus: None,
        });
    });
}

/// A click with the token tool: places a token of the panel's kind (and its mirror images).
fn place_token(scene: &mut Scene<'_>, cell: Pos) {
    let kind = scene.tools.token_kind.clone();
    place_piece(scene, cell, "place token", |map, at, _| {
        let id = crate::clipboard::fresh_id(map, &format!("{kind}-{}", map.tokens.len() + 1));
        let kind = kind.clone();
        map.tokens.push(TokenSpot { id, kind, at });
    });
}

/// Shows `cell` in the inspector and, when no piece stands there, adds one with `add` on it
/// and on its mirror images (skipping those already taken), as one step; `add` is told
/// whether the cell is an image on the other side (see `paint::images`).
fn place_piece(
    scene: &mut Scene<'_>,
    cell: Pos,
    label: &str,
    mut add: impl FnMut(&mut Map, Pos, bool),
) {
    *scene.inspected = Some(cell);
    let taken = |map: &Map, at: Pos| map.city_at(at).is_some() || map.token_at(at).is_some();
    if taken(&scene.doc.map, cell) {
        return;
    }
    let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
    let cells = paint::images(cell, scene.tools.symmetry, w, h);
    scene.doc.edit_objects(label, |map| {
        for (at, other_side) in cells {
            if !taken(map, at) {
                add(map, at, other_side);
            }
        }
    });
}

//! The map canvas: draws the map (flat colours far out, the tileset's textures close in),
//! its cities, tokens, grid, selection and the validator's findings. Pointer input is turned
//! into edits in [`input`]; this module only reads the document.

mod input;

use crate::clipboard::Region;
use crate::document::Document;
use crate::paint;
use crate::pieces;
use crate::textures::TileTextures;
use crate::tools::{Tool, Tools, brush_cells};
use crate::view::{GRID_ZOOM, MapView, TEXTURE_ZOOM};
use egui::{
    Color32, Painter, Rect, Sense, Stroke, StrokeKind, TextureHandle, TextureOptions, pos2,
};
use scryptic::tileset::Tileset;
use scryptic::{City, Finding, Map, Pos, Severity, TokenSpot};

/// The label tests and screen readers find the canvas by.
pub const CANVAS_LABEL: &str = "Map canvas";

/// What a press on the canvas started.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Gesture {
    #[default]
    Idle,
    /// A brush stroke; the last cell painted.
    Painting { last: Pos },
    /// A rectangle, line or selection being dragged out.
    Dragging { start: Pos, now: Pos },
    /// The view following the pointer.
    Panning,
}

/// The flat-colour picture of the map, one texel per cell, remade when the map changes.
struct FlatTexture {
    generation: u64,
    size: (u32, u32),
    handle: TextureHandle,
}

/// The canvas's own state: textures and the gesture in progress (no map data).
#[derive(Default)]
pub struct Canvas {
    gesture: Gesture,
    /// The last cell a brush painted, where a Shift-click line starts.
    last_point: Option<Pos>,
    flat: Option<FlatTexture>,
    tiles: Option<TileTextures>,
    /// Where the map was and the tileset it named when the textures were made (`None`: not
    /// looked for yet): finding a tileset looks on disk for the pack a map is in, so it is
    /// done again only when either changes, not every frame.
    tiles_from: Option<(Option<std::path::PathBuf>, String)>,
    /// Where the canvas was drawn last (for the minimap's frame).
    last_rect: Option<Rect>,
}

/// What the canvas works on this frame.
pub struct Scene<'a> {
    /// The map being edited.
    pub doc: &'a mut Document,
    /// The tool in hand.
    pub tools: &'a mut Tools,
    /// Where the canvas looks.
    pub view: &'a mut MapView,
    /// The selected region.
    pub selection: &'a mut Option<Region>,
    /// The cell shown in the inspector.
    pub inspected: &'a mut Option<Pos>,
    /// The cell under the pointer (written by the canvas).
    pub hovered: &'a mut Option<Pos>,
    /// The validator's findings to draw.
    pub findings: &'a [Finding],
    /// The finding picked in the validation panel, drawn bolder.
    pub focused: Option<usize>,
}

impl Canvas {
    /// The flat picture of the map, once drawn.
    pub fn flat_texture_id(&self) -> Option<egui::TextureId> {
        self.flat.as_ref().map(|f| f.handle.id())
    }

    /// The tileset's images, once loaded (`None`: the map names no tileset that loads).
    pub fn textures(&self) -> Option<&TileTextures> {
        self.tiles.as_ref()
    }

    /// Where the canvas was drawn on the last frame.
    pub fn last_rect(&self) -> Option<Rect> {
        self.last_rect
    }

    /// Forgets textures (a different map or tileset was opened).
    pub fn reset(&mut self) {
        *self = Canvas::default();
    }

    /// The canvas, filling the space left in `ui`.
    pub fn ui(&mut self, ui: &mut egui::Ui, mut scene: Scene<'_>) -> egui::Response {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, CANVAS_LABEL));
        let rect = response.rect;
        self.last_rect = Some(rect);
        let (w, h) = (scene.doc.map.width(), scene.doc.map.height());
        scene.view.keep_fitted(w, h, rect.size());
        self.load_tiles(ui.ctx(), scene.doc);
        self.zoom_and_pan(ui, &response, scene.view);
        let pointer = ui.input(|i| i.pointer.latest_pos());
        *scene.hovered = pointer
            .filter(|p| rect.contains(*p))
            .and_then(|p| scene.view.cell_at(rect, p, w, h));
        if self.gesture != Gesture::Panning && !ui.input(|i| i.key_down(egui::Key::Space)) {
            self.handle_tool(ui, &response, &mut scene);
        }
        self.draw(ui.ctx(), &painter, rect, &scene);
        response
    }

    fn load_tiles(&mut self, ctx: &egui::Context, doc: &Document) {
        let key = (doc.path.clone(), doc.map.tileset.clone());
        if self.tiles_from.as_ref() == Some(&key) {
            return;
        }
        self.tiles = doc
            .tileset()
            .and_then(|t| Tileset::from_pack(&t.files, &t.path).ok())
            .map(|tileset| TileTextures::load(ctx, tileset));
        self.tiles_from = Some(key);
        self.flat = None;
    }

    fn draw(&mut self, ctx: &egui::Context, painter: &Painter, rect: Rect, scene: &Scene<'_>) {
        let map = &scene.doc.map;
        let view = &*scene.view;
        painter.rect_filled(rect, 0.0, Color32::from_gray(32));
        let map_rect = view.map_rect(rect, map.width(), map.height());
        // The flat picture is kept fresh even when tiles are drawn: the minimap shows it.
        let texture = self.flat_texture(ctx, scene.doc);
        if view.zoom >= TEXTURE_ZOOM && self.tiles.is_some() {
            self.draw_tiles(painter, rect, map, view);
        } else {
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(texture, map_rect, uv, Color32::WHITE);
        }
        if view.grid && view.zoom >= GRID_ZOOM {
            draw_grid(painter, rect, map, view);
        }
        draw_cities(painter, rect, &map.cities, view, self.tiles.as_ref());
        draw_tokens(painter, rect, &map.tokens, view, self.tiles.as_ref());
        draw_findings(painter, rect, scene.findings, scene.focused, view);
        self.draw_gesture(painter, rect, scene);
    }

    fn flat_texture(&mut self, ctx: &egui::Context, doc: &Document) -> egui::TextureId {
        let size = (doc.map.width(), doc.map.height());
        let fresh = self
            .flat
            .as_ref()
            .is_some_and(|f| f.generation == doc.generation() && f.size == size);
        if !fresh {
            let image = flat_image(&doc.map, self.tiles.as_ref().map(|t| &t.tileset));
            match &mut self.flat {
                Some(flat) => {
                    flat.handle.set(image, TextureOptions::NEAREST);
                    flat.generation = doc.generation();
                    flat.size = size;
                }
                None => {
                    let handle = ctx.load_texture("map", image, TextureOptions::NEAREST);
                    self.flat = Some(FlatTexture {
                        generation: doc.generation(),
                        size,
                        handle,
                    });
                }
            }
        }
        self.flat
            .as_ref()
            .map_or(egui::TextureId::default(), |f| f.handle.id())
    }

    fn draw_tiles(&self, painter: &Painter, rect: Rect, map: &Map, view: &MapView) {
        let Some(tiles) = &self.tiles else {
            return;
        };
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        let (xs, ys) = view.visible(rect, map.width(), map.height());
        for y in ys {
            for x in xs.clone() {
                let pos = Pos::new(x, y);
                let Some(&terrain) = map.terrain.get(pos) else {
                    continue;
                };
                let cell = view.cell_rect(rect, pos);
                match tiles.terrain(terrain, pos) {
                    Some(t) => {
                        painter.image(t.id(), cell, uv, Color32::WHITE);
                    }
                    None => {
                        painter.rect_filled(cell, 0.0, colour32(tiles.tileset.colour(terrain)));
                    }
                }
            }
        }
    }

    fn draw_gesture(&self, painter: &Painter, rect: Rect, scene: &Scene<'_>) {
        let view = &*scene.view;
        let outline = |cells: &[Pos], colour: Color32| {
            for &p in cells.iter().take(20_000) {
                painter.rect_stroke(
                    view.cell_rect(rect, p),
                    0.0,
                    Stroke::new(1.0, colour),
                    StrokeKind::Inside,
                );
            }
        };
        if let Some(region) = *scene.selection {
            let r = Rect::from_min_max(
                view.to_screen(rect, region.min.x as f32, region.min.y as f32),
                view.to_screen(rect, region.max.x as f32 + 1.0, region.max.y as f32 + 1.0),
            );
            painter.rect_stroke(
                r,
                0.0,
                Stroke::new(2.0, Color32::WHITE),
                StrokeKind::Outside,
            );
        }
        match self.gesture {
            Gesture::Dragging { start, now } => {
                let cells = match scene.tools.tool {
                    Tool::Rectangle => paint::rectangle(start, now, scene.tools.filled),
                    Tool::Line => paint::line(start, now),
                    _ => paint::rectangle(start, now, false),
                };
                outline(&cells, Color32::WHITE);
            }
            _ => {
                if let Some(cell) = *scene.hovered {
                    let cells = if scene.tools.tool.uses_brush() {
                        brush_cells(
                            scene.tools,
                            cell,
                            scene.doc.map.width(),
                            scene.doc.map.height(),
                        )
                    } else {
                        vec![cell]
                    };
                    outline(&cells, Color32::from_white_alpha(180));
                }
            }
        }
    }
}

fn colour32(c: [u8; 3]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// One pixel per cell in the terrain's flat colour.
pub fn flat_image(map: &Map, tileset: Option<&Tileset>) -> egui::ColorImage {
    let palette: Vec<Color32> = crate::png::palette(tileset)
        .into_iter()
        .map(|(_, c)| colour32(c))
        .collect();
    let pixels = map
        .terrain
        .cells()
        .iter()
        .map(|&t| palette[t as usize])
        .collect();
    egui::ColorImage::new([map.width() as usize, map.height() as usize], pixels)
}

fn draw_grid(painter: &Painter, rect: Rect, map: &Map, view: &MapView) {
    let (xs, ys) = view.visible(rect, map.width(), map.height());
    let stroke = Stroke::new(1.0, Color32::from_black_alpha(60));
    let (top, bottom) = (ys.start as f32, ys.end as f32);
    let (left, right) = (xs.start as f32, xs.end as f32);
    for x in xs.start..=xs.end {
        let a = view.to_screen(rect, x as f32, top);
        let b = view.to_screen(rect, x as f32, bottom);
        painter.line_segment([a, b], stroke);
    }
    for y in ys.start..=ys.end {
        let a = view.to_screen(rect, left, y as f32);
        let b = view.to_screen(rect, right, y as f32);
        painter.line_segment([a, b], stroke);
    }
}

/// Where `at` is drawn, if it is in view (or just beyond the edge, so a piece half in view is
/// drawn).
fn cell_in_view(rect: Rect, view: &MapView, at: Pos) -> Option<Rect> {
    let cell = view.cell_rect(rect, at);
    rect.expand(view.zoom)
        .contains(cell.center())
        .then_some(cell)
}

/// The cities: the tileset's art close in, a marker bigger than its cell far out (so a city
/// is found on a whole-map view), and the name under it once there is room.
fn draw_cities(
    painter: &Painter,
    rect: Rect,
    cities: &[City],
    view: &MapView,
    tiles: Option<&TileTextures>,
) {
    let art = tiles.filter(|_| view.zoom >= TEXTURE_ZOOM);
    for city in cities {
        let Some(cell) = cell_in_view(rect, view, city.at) else {
            continue;
        };
        pieces::paint_city(painter, cell, city.owner, art);
        if view.zoom >= 16.0 {
            painter.text(
                cell.center_bottom() + egui::vec2(0.0, 2.0),
                egui::Align2::CENTER_TOP,
                &city.name,
                egui::FontId::proportional(12.0),
                Color32::WHITE,
            );
        }
    }
}

/// The tokens, drawn as the cities are.
fn draw_tokens(
    painter: &Painter,
    rect: Rect,
    tokens: &[TokenSpot],
    view: &MapView,
    tiles: Option<&TileTextures>,
) {
    let art = tiles.filter(|_| view.zoom >= TEXTURE_ZOOM);
    for token in tokens {
        let Some(cell) = cell_in_view(rect, view, token.at) else {
            continue;
        };
        pieces::paint_token(painter, cell, &token.kind, Color32::WHITE, art);
    }
}

fn draw_findings(
    painter: &Painter,
    rect: Rect,
    findings: &[Finding],
    focused: Option<usize>,
    view: &MapView,
) {
    for (i, finding) in findings.iter().enumerate() {
        let colour = match finding.severity {
            Severity::Error => Color32::from_rgb(240, 40, 40),
            _ => Color32::from_rgb(250, 200, 0),
        };
        let width = if focused == Some(i) { 3.0 } else { 1.5 };
        for &cell in finding.cells.iter().take(5_000) {
            let r = view.cell_rect(rect, cell);
            if rect.intersects(r) {
                painter.rect_stroke(
                    r.shrink(1.0),
                    0.0,
                    Stroke::new(width, colour),
                    StrokeKind::Inside,
                );
            }
        }
    }
}

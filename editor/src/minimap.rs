//! The minimap: the whole map in flat colours, its cities and tokens marked, with the
//! canvas's view framed; a click or drag moves the view there.

use crate::view::MapView;
use egui::{Color32, Rect, Sense, Stroke, StrokeKind, pos2};

/// The minimap panel.
#[derive(Debug, Default)]
pub struct Minimap;

impl Minimap {
    /// Draws `texture` (one texel per cell of `map`), the map's cities and tokens, and the
    /// frame of the canvas (`canvas` is its last screen rectangle).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        texture: Option<egui::TextureId>,
        map: &scryptic::Map,
        view: &mut MapView,
        canvas: Option<Rect>,
    ) {
        let (width, height) = (map.width(), map.height());
        let side = ui.available_width().min(180.0);
        let scale = side / width.max(height).max(1) as f32;
        let size = egui::vec2(width as f32 * scale, height as f32 * scale);
        let (response, painter) = ui.allocate_painter(size, Sense::click_and_drag());
        let rect = response.rect;
        if let Some(texture) = texture {
            let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
            painter.image(texture, rect, uv, Color32::WHITE);
        }
        // A piece is drawn at least a few points across, however small a cell is here.
        let mark = (scale * 0.8).max(3.0);
        let centre = |at: scryptic::Pos| {
            rect.min + egui::vec2((at.x as f32 + 0.5) * scale, (at.y as f32 + 0.5) * scale)
        };
        for token in &map.tokens {
            let cell = Rect::from_center_size(centre(token.at), egui::vec2(mark, mark) * 2.0);
            crate::pieces::paint_token(&painter, cell, &token.kind, Color32::WHITE, None);
        }
        for city in &map.cities {
            painter.circle(
                centre(city.at),
                mark,
                crate::pieces::owner_colour(city.owner),
                Stroke::new(1.0, Color32::BLACK),
            );
        }
        if let Some(canvas) = canvas {
            let cells = view.visible_cells(canvas);
            let frame = Rect::from_min_max(
                rect.min + cells.min.to_vec2() * scale,
                rect.min + cells.max.to_vec2() * scale,
            )
            .intersect(rect);
            painter.rect_stroke(
                frame,
                0.0,
                Stroke::new(1.5, Color32::WHITE),
                StrokeKind::Inside,
            );
        }
        if let Some(p) = response
            .interact_pointer_pos()
            .filter(|_| response.is_pointer_button_down_on())
        {
            let cell = (p - rect.min) / scale;
            view.centre = [cell.x, cell.y];
        }
    }
}

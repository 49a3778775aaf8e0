//! Where the canvas looks: the cell at its centre and how many points a cell takes. Kept in
//! cells, so that it means the same at any window size.

use egui::{Pos2, Rect, Vec2, pos2, vec2};
use scryptic_core::Pos;

/// Below this many points per cell, textures are not drawn: cells are flat colours.
pub const TEXTURE_ZOOM: f32 = 12.0;
/// From this many points per cell, the grid is drawn (when it is on).
pub const GRID_ZOOM: f32 = 6.0;
const MIN_ZOOM: f32 = 0.25;
const MAX_ZOOM: f32 = 96.0;

/// The canvas's view of the map.
#[derive(Clone, Debug, PartialEq)]
pub struct MapView {
    /// Screen points per cell.
    pub zoom: f32,
    /// The cell coordinates (fractional) at the canvas's centre.
    pub centre: [f32; 2],
    /// Whether grid lines are drawn.
    pub grid: bool,
    /// Whether the view must be fitted to the map on the next frame (a map was opened).
    pub fit_pending: bool,
    /// The map's size at the last fit: a map resized since (Resize, or its undo) is fitted
    /// again.
    pub fitted_map: Option<(u32, u32)>,
    /// The canvas size the view was last fitted to, until the user zooms or pans: while the
    /// fit stands, a canvas that changes size (a panel opening beside it) is fitted again, so
    /// the map is never left clipped.
    fitted_to: Option<Vec2>,
}

impl Default for MapView {
    fn default() -> MapView {
        MapView {
            zoom: 16.0,
            centre: [0.0, 0.0],
            grid: true,
            fit_pending: true,
            fitted_map: None,
            fitted_to: None,
        }
    }
}

impl MapView {
    /// Shows the whole `width` x `height` map in a canvas of `size`.
    pub fn fit(&mut self, width: u32, height: u32, size: Vec2) {
        let zoom = (size.x / width.max(1) as f32).min(size.y / height.max(1) as f32);
        self.zoom = zoom.clamp(MIN_ZOOM, MAX_ZOOM);
        self.centre = [width as f32 / 2.0, height as f32 / 2.0];
        self.fit_pending = false;
        self.fitted_to = Some(size);
        self.fitted_map = Some((width, height));
    }

    /// Shows the cells from `low` to `high` (a player's region) in a canvas of `size`.
    pub fn fit_area(&mut self, low: Pos, high: Pos, size: Vec2) {
        let (w, h) = (high.x - low.x + 1, high.y - low.y + 1);
        self.fit(w, h, size);
        self.centre = [low.x as f32 + w as f32 / 2.0, low.y as f32 + h as f32 / 2.0];
    }

    /// Fits the view to the map when asked to, or when the canvas changed size while the
    /// last fit stood.
    pub fn keep_fitted(&mut self, width: u32, height: u32, size: Vec2) {
        let resized = self.fitted_to.is_some_and(|fitted| fitted != size);
        let map_resized = self.fitted_map.is_some_and(|map| map != (width, height));
        if self.fit_pending || resized || map_resized {
            self.fit(width, height, size);
        }
    }

    /// The screen point of cell coordinates `(x, y)` in a canvas at `rect`.
    pub fn to_screen(&self, rect: Rect, x: f32, y: f32) -> Pos2 {
        rect.center()
            + vec2(
                (x - self.centre[0]) * self.zoom,
                (y - self.centre[1]) * self.zoom,
            )
    }

    /// The cell coordinates (fractional) under screen point `p`.
    pub fn to_cells(&self, rect: Rect, p: Pos2) -> (f32, f32) {
        let d = (p - rect.center()) / self.zoom;
        (self.centre[0] + d.x, self.centre[1] + d.y)
    }

    /// The cell under `p`, if it is on a `width` x `height` map.
    pub fn cell_at(&self, rect: Rect, p: Pos2, width: u32, height: u32) -> Option<Pos> {
        let (x, y) = self.to_cells(rect, p);
        (x >= 0.0 && y >= 0.0 && x < width as f32 && y < height as f32)
            .then(|| Pos::new(x as u32, y as u32))
    }

    /// The screen rectangle of cell `pos`.
    pub fn cell_rect(&self, rect: Rect, pos: Pos) -> Rect {
        let min = self.to_screen(rect, pos.x as f32, pos.y as f32);
        Rect::from_min_size(min, Vec2::splat(self.zoom))
    }

    /// The screen centre of cell `pos` (what a test clicks).
    pub fn cell_centre(&self, rect: Rect, pos: Pos) -> Pos2 {
        self.cell_rect(rect, pos).center()
    }

    /// Zooms by `factor` keeping the cell under `anchor` where it is.
    pub fn zoom_at(&mut self, rect: Rect, anchor: Pos2, factor: f32) {
        self.fitted_to = None;
        let before = self.to_cells(rect, anchor);
        self.zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let after = self.to_cells(rect, anchor);
        self.centre[0] += before.0 - after.0;
        self.centre[1] += before.1 - after.1;
    }

    /// Moves the view by a screen `delta` (the map follows the pointer).
    pub fn pan(&mut self, delta: Vec2) {
        self.fitted_to = None;
        self.centre[0] -= delta.x / self.zoom;
        self.centre[1] -= delta.y / self.zoom;
    }

    /// The range of cells (columns, rows) visible in `rect`, clipped to the map.
    pub fn visible(
        &self,
        rect: Rect,
        width: u32,
        height: u32,
    ) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let (x0, y0) = self.to_cells(rect, rect.min);
        let (x1, y1) = self.to_cells(rect, rect.max);
        let clip = |a: f32, b: f32, n: u32| {
            let lo = a.floor().clamp(0.0, n as f32) as u32;
            let hi = b.ceil().clamp(0.0, n as f32) as u32;
            lo..hi
        };
        (clip(x0, x1, width), clip(y0, y1, height))
    }

    /// The whole map's screen rectangle.
    pub fn map_rect(&self, rect: Rect, width: u32, height: u32) -> Rect {
        Rect::from_min_max(
            self.to_screen(rect, 0.0, 0.0),
            self.to_screen(rect, width as f32, height as f32),
        )
    }

    /// The visible part of the map in cell coordinates (for the minimap's frame).
    pub fn visible_cells(&self, rect: Rect) -> Rect {
        let (x0, y0) = self.to_cells(rect, rect.min);
        let (x1, y1) = self.to_cells(rect, rect.max);
        Rect::from_min_max(pos2(x0, y0), pos2(x1, y1))
    }
}

/// Wheel (or pinch) zoom about the pointer, over a view drawn in `response`'s rectangle.
pub fn wheel_zoom(ui: &egui::Ui, response: &egui::Response, view: &mut MapView) {
    let (scroll, zoom, pointer) = ui.input(|i| {
        (
            i.smooth_scroll_delta.y,
            i.zoom_delta(),
            i.pointer.latest_pos(),
        )
    });
    if let Some(p) = pointer.filter(|_| response.hovered()) {
        let factor = zoom * (scroll * 0.0025).exp();
        if factor != 1.0 {
            view.zoom_at(response.rect, p, factor);
        }
    }
}

/// Wheel (or pinch) zoom about the pointer, and middle-button (or two-finger) panning of a
/// view drawn in `response`'s rectangle.
pub fn wheel_zoom_and_middle_pan(ui: &egui::Ui, response: &egui::Response, view: &mut MapView) {
    wheel_zoom(ui, response, view);
    let (middle, delta) = ui.input(|i| (i.pointer.middle_down(), i.pointer.delta()));
    if middle && response.hovered() {
        view.pan(delta);
    }
    // Two fingers pan (one finger lays letters, as a mouse's left button does); their pinch
    // zooms (`zoom_delta`, above).
    let fingers = ui.input(|i| i.multi_touch().map(|t| t.translation_delta));
    if let Some(delta) = fingers.filter(|_| response.contains_pointer()) {
        view.pan(delta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fitted view follows its canvas's size (a panel opened beside it); once the user has
    /// zoomed, it stays as they left it.
    #[test]
    fn a_fitted_view_is_refitted_when_its_canvas_changes_size() {
        let mut view = MapView::default();
        view.keep_fitted(15, 15, vec2(700.0, 700.0));
        assert_eq!(view.zoom, 700.0 / 15.0);
        view.keep_fitted(15, 15, vec2(700.0, 600.0));
        assert_eq!(view.zoom, 40.0, "the whole map still in view");
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(700.0, 600.0));
        view.zoom_at(rect, rect.center(), 2.0);
        view.keep_fitted(15, 15, vec2(700.0, 500.0));
        assert_eq!(view.zoom, 80.0, "the user's zoom is kept");
    }

    #[test]
    fn cells_and_screen_points_agree_at_any_zoom() {
        let rect = Rect::from_min_size(pos2(10.0, 20.0), vec2(400.0, 300.0));
        let mut view = MapView::default();
        view.fit(40, 30, rect.size());
        assert_eq!(view.zoom, 10.0);
        for zoom in [1.0, 1.7, 4.0] {
            view.zoom_at(rect, pos2(100.0, 100.0), zoom);
            let p = Pos::new(7, 9);
            assert_eq!(
                view.cell_at(rect, view.cell_centre(rect, p), 40, 30),
                Some(p)
            );
        }
        let before = view.to_cells(rect, pos2(100.0, 100.0));
        view.zoom_at(rect, pos2(100.0, 100.0), 2.0);
        let after = view.to_cells(rect, pos2(100.0, 100.0));
        assert!((before.0 - after.0).abs() < 1e-3 && (before.1 - after.1).abs() < 1e-3);
    }
}

//! The stone look: the seeds' "alchemists' game" carried into the interface. Panels are dark
//! polished stone, frames and buttons antique brass, the selection gold, links silver, text
//! the colour of old parchment, and headings set in EB Garamond (the display font, under the
//! SIL Open Font License in `crates/play/assets/fonts`).

use egui::epaint::text::{FontData, FontDefinitions, FontFamily};
use egui::style::{Selection, WidgetVisuals, Widgets};
use egui::{Color32, CornerRadius, FontId, Stroke, TextStyle, Theme, Visuals};
use std::sync::Arc;

/// The font family headings are set in.
pub const DISPLAY_FAMILY: &str = "display";

/// Smoky quartz: the panels behind everything.
pub const STONE: Color32 = Color32::from_rgb(0x2b, 0x26, 0x22);
/// A lighter stone: windows and dialogs.
pub const STONE_LIGHT: Color32 = Color32::from_rgb(0x37, 0x30, 0x2a);
/// The deepest stone: fields to type into, the canvas's surround.
pub const STONE_DEEP: Color32 = Color32::from_rgb(0x1d, 0x1a, 0x17);
/// Antique brass: frames and strokes.
pub const BRASS: Color32 = Color32::from_rgb(0xb5, 0x91, 0x4f);
/// Brass catching the light: a widget under the pointer.
pub const BRASS_BRIGHT: Color32 = Color32::from_rgb(0xd9, 0xb3, 0x6c);
/// The gold side's colour, and the selection's.
pub const GOLD: Color32 = Color32::from_rgb(0xe0, 0xb8, 0x3c);
/// The silver side's colour, and links'.
pub const SILVER: Color32 = Color32::from_rgb(0xc8, 0xcb, 0xd2);
/// Old parchment: text.
pub const PARCHMENT: Color32 = Color32::from_rgb(0xe9, 0xdc, 0xc1);

const DISPLAY_FONT: &[u8] = include_bytes!("../assets/fonts/EBGaramond12-Regular.otf");
const DISPLAY_FONT_NAME: &str = "EB Garamond";

/// Puts the stone look on `ctx`: the display font, and the stone style for both the dark and
/// the light theme (the seeds have one look, so the system's preference does not change it).
pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(fonts());
    for theme in [Theme::Dark, Theme::Light] {
        ctx.style_mut_of(theme, |style| {
            style.visuals = visuals();
            style.text_styles.insert(
                TextStyle::Heading,
                FontId::new(24.0, FontFamily::Name(DISPLAY_FAMILY.into())),
            );
        });
    }
}

/// egui's fonts with EB Garamond added as the display family (falling back to the
/// proportional fonts for what it lacks).
pub fn fonts() -> FontDefinitions {
    let mut fonts = FontDefinitions::default();
    fonts.font_data.insert(
        DISPLAY_FONT_NAME.to_string(),
        Arc::new(FontData::from_static(DISPLAY_FONT)),
    );
    let mut display = vec![DISPLAY_FONT_NAME.to_string()];
    display.extend(
        fonts
            .families
            .get(&FontFamily::Proportional)
            .cloned()
            .unwrap_or_default(),
    );
    fonts
        .families
        .insert(FontFamily::Name(DISPLAY_FAMILY.into()), display);
    fonts
}

/// The stone visuals.
pub fn visuals() -> Visuals {
    let mut v = Visuals::dark();
    v.override_text_color = None;
    v.widgets = widgets();
    v.selection = Selection {
        bg_fill: Color32::from_rgb(0x7a, 0x62, 0x24),
        stroke: Stroke::new(1.0, GOLD),
    };
    v.hyperlink_color = SILVER;
    v.faint_bg_color = Color32::from_rgb(0x32, 0x2c, 0x27);
    v.extreme_bg_color = STONE_DEEP;
    v.text_edit_bg_color = Some(STONE_DEEP);
    v.code_bg_color = STONE_DEEP;
    v.warn_fg_color = Color32::from_rgb(0xe0, 0xa0, 0x40);
    v.error_fg_color = Color32::from_rgb(0xe0, 0x6a, 0x50);
    v.window_fill = STONE_LIGHT;
    v.window_stroke = Stroke::new(1.5, BRASS);
    v.window_corner_radius = CornerRadius::same(4);
    v.menu_corner_radius = CornerRadius::same(3);
    // Panels are see-through: the stone backdrop is painted under them.
    v.panel_fill = Color32::TRANSPARENT;
    v
}

/// Buttons and fields as brass set in stone: bronze at rest, brighter brass under the
/// pointer, gold-rimmed when pressed.
fn widgets() -> Widgets {
    let radius = CornerRadius::same(3);
    let look = |fill: Color32, rim: Color32, text: Color32, expansion: f32| WidgetVisuals {
        bg_fill: fill,
        weak_bg_fill: fill,
        bg_stroke: Stroke::new(1.0, rim),
        corner_radius: radius,
        fg_stroke: Stroke::new(1.0, text),
        expansion,
    };
    let bronze = Color32::from_rgb(0x4a, 0x3f, 0x33);
    Widgets {
        noninteractive: look(STONE, Color32::from_rgb(0x5d, 0x4a, 0x30), PARCHMENT, 0.0),
        inactive: look(bronze, Color32::from_rgb(0x7a, 0x60, 0x40), PARCHMENT, 0.0),
        hovered: look(
            Color32::from_rgb(0x5c, 0x4d, 0x3c),
            BRASS_BRIGHT,
            Color32::from_rgb(0xff, 0xf3, 0xd6),
            1.0,
        ),
        active: look(
            Color32::from_rgb(0x6d, 0x5a, 0x3e),
            GOLD,
            Color32::WHITE,
            1.0,
        ),
        open: look(bronze, BRASS, PARCHMENT, 0.0),
    }
}

/// The side of the stone texture behind the panels, in texels (it repeats).
const BACKDROP_SIDE: usize = 128;

/// The polished stone behind the panels: a texture made once (the same every run) and
/// repeated over the window.
pub struct Backdrop {
    handle: egui::TextureHandle,
}

impl Backdrop {
    /// Makes the texture on `ctx`.
    pub fn new(ctx: &egui::Context) -> Backdrop {
        let options = egui::TextureOptions {
            wrap_mode: egui::TextureWrapMode::Repeat,
            ..egui::TextureOptions::LINEAR
        };
        Backdrop {
            handle: ctx.load_texture("stone backdrop", stone_image(), options),
        }
    }

    /// Paints the stone over the whole window, under every panel.
    pub fn paint(&self, ctx: &egui::Context) {
        let rect = ctx.content_rect();
        let painter = ctx.layer_painter(egui::LayerId::background());
        let repeats = rect.size() / BACKDROP_SIDE as f32;
        let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), repeats.to_pos2());
        painter.image(self.handle.id(), rect, uv, Color32::WHITE);
    }
}

/// Smoky quartz with faint brassy veins: marble made the usual way, the sine of a coordinate
/// turned by fractal noise, kept dark so text stays readable on it.
pub fn stone_image() -> egui::ColorImage {
    let n = BACKDROP_SIDE;
    let mut pixels = Vec::with_capacity(n * n);
    for y in 0..n {
        for x in 0..n {
            let (u, v) = (x as f32 / n as f32, y as f32 / n as f32);
            let turbulence = fractal_noise(u, v);
            let vein = ((u + v) * std::f32::consts::TAU * 2.0 + turbulence * 9.0)
                .sin()
                .abs();
            let vein = (1.0 - vein).powi(12);
            let base = lerp_colour(STONE_DEEP, STONE_LIGHT, 0.35 + 0.5 * turbulence);
            pixels.push(lerp_colour(base, BRASS, vein * 0.18));
        }
    }
    egui::ColorImage::new([n, n], pixels)
}

fn lerp_colour(a: Color32, b: Color32, t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

/// Noise in 0..1 that wraps at the texture's edges, summed over four octaves.
fn fractal_noise(u: f32, v: f32) -> f32 {
    let mut total = 0.0;
    let mut weight = 0.5;
    let mut cells = 4;
    for _ in 0..4 {
        total += weight * value_noise(u, v, cells);
        weight *= 0.5;
        cells *= 2;
    }
    total / 0.9375
}

/// Smoothly interpolated random values on a `cells` x `cells` lattice that wraps.
fn value_noise(u: f32, v: f32, cells: u32) -> f32 {
    let (x, y) = (u * cells as f32, v * cells as f32);
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (fx, fy) = (smooth(x - x.floor()), smooth(y - y.floor()));
    let at = |i: u32, j: u32| lattice(i % cells, j % cells, cells);
    let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
    let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
    top + (bottom - top) * fy
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// A fixed pseudo-random value in 0..1 for a lattice point (a hash, so the stone is the same
/// every run).
fn lattice(i: u32, j: u32, cells: u32) -> f32 {
    let mut h = i
        .wrapping_mul(0x9e37_79b1)
        .wrapping_add(j.wrapping_mul(0x85eb_ca77))
        .wrapping_add(cells.wrapping_mul(0xc2b2_ae3d));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    (h & 0xffff) as f32 / 65535.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stone_repeats_without_a_seam_and_is_the_same_every_run() {
        let a = stone_image();
        assert_eq!(a, stone_image());
        let n = BACKDROP_SIDE;
        // The noise wraps, so the first and last columns differ as little as neighbours do.
        for y in 0..n {
            let left = a.pixels[y * n];
            let right = a.pixels[y * n + n - 1];
            let gap = (i16::from(left.r()) - i16::from(right.r())).abs();
            assert!(gap <= 24, "row {y}: {left:?} against {right:?}");
        }
    }

    #[test]
    fn noise_stays_in_its_range() {
        for i in 0..50 {
            let t = fractal_noise(i as f32 / 50.0, 1.0 - i as f32 / 50.0);
            assert!((0.0..=1.0).contains(&t), "{t}");
        }
    }
}

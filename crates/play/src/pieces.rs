//! Cities and tokens as the tileset draws them, shared by the map canvas and the play board:
//! the tileset's city tile and token jewel when it has them, else a plain disc or diamond in
//! the owner's or the kind's colour.

use crate::textures::TileTextures;
use egui::{Color32, Painter, Rect, Stroke, pos2, vec2};
use scryptic_core::Owner;

/// The whole of a texture, as egui's image calls take it.
const FULL_UV: Rect = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));

/// The colour of an owner's pieces where no art is drawn.
pub fn owner_colour(owner: Owner) -> Color32 {
    match owner {
        Owner::Gold => Color32::from_rgb(230, 180, 40),
        Owner::Silver => Color32::from_rgb(200, 205, 215),
        Owner::Neutral => Color32::from_rgb(120, 110, 100),
    }
}

/// A city filling `cell`: the tileset's tile of its owner, else a disc of the owner's colour.
pub fn paint_city(painter: &Painter, cell: Rect, owner: Owner, textures: Option<&TileTextures>) {
    match textures.and_then(|t| t.city(owner)) {
        Some(t) => {
            painter.image(t.id(), cell, FULL_UV, Color32::WHITE);
        }
        None => {
            let radius = (cell.width() * 0.4).max(3.0);
            painter.circle(
                cell.center(),
                radius,
                owner_colour(owner),
                Stroke::new(1.5, Color32::BLACK),
            );
        }
    }
}

/// A token of `kind` in `cell` (set in from the cell's edges, so the terrain shows around
/// it): the tileset's jewel, else a diamond of a colour the kind's name picks. `tint` dims a
/// captured token.
pub fn paint_token(
    painter: &Painter,
    cell: Rect,
    kind: &str,
    tint: Color32,
    textures: Option<&TileTextures>,
) {
    let inner = cell.shrink(cell.width() * 0.15);
    match textures.and_then(|t| t.token(kind)) {
        Some(t) => {
            painter.image(t.id(), inner, FULL_UV, tint);
        }
        None => paint_plain_token(painter, inner, kind, tint),
    }
}

fn paint_plain_token(painter: &Painter, cell: Rect, kind: &str, tint: Color32) {
    let centre = cell.center();
    let r = (cell.width() * 0.5).max(3.0);
    let diamond = vec![
        centre + vec2(0.0, -r),
        centre + vec2(r, 0.0),
        centre + vec2(0.0, r),
        centre + vec2(-r, 0.0),
    ];
    let fill = kind_colour(kind).gamma_multiply(f32::from(tint.a()) / 255.0);
    painter.add(egui::Shape::convex_polygon(
        diamond,
        fill,
        Stroke::new(1.0, Color32::BLACK),
    ));
    if r >= 8.0 {
        let initial: String = kind.chars().take(1).collect::<String>().to_uppercase();
        painter.text(
            centre,
            egui::Align2::CENTER_CENTER,
            initial,
            egui::FontId::monospace(r),
            Color32::BLACK,
        );
    }
}

/// A bright colour for a token kind without art, the same for the same name every time (a
/// pack's kinds are not known here, so the colour comes from the name, not a table).
fn kind_colour(kind: &str) -> Color32 {
    let hash = kind.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let hue = (hash % 360) as f32 / 360.0;
    egui::ecolor::Hsva::new(hue, 0.7, 0.9, 1.0).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_keeps_its_colour_and_kinds_differ() {
        assert_eq!(kind_colour("volcano"), kind_colour("volcano"));
        assert_ne!(kind_colour("volcano"), kind_colour("flood"));
    }
}

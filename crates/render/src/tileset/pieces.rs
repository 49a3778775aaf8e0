//! The pieces drawn over terrain: gold, silver and pewter city tiles, the four elemental
//! jewels, and gold and silver letter coins with 1 to 3 pips.

use super::paint::{disc_alpha, fill, mix, pixel, rgb, shade};
use image::{Rgba, RgbaImage};
use std::f64::consts::TAU;

/// A metal: its base colour.
pub type Metal = [f64; 3];

/// Gold, for player 1's cities and coins.
pub const GOLD: Metal = rgb(238, 192, 62);
/// Silver, for player 2's cities and coins.
pub const SILVER: Metal = rgb(196, 200, 210);
/// Pewter, for neutral cities.
pub const PEWTER: Metal = rgb(128, 130, 124);

/// Polished metal: lighter toward the top-left, darker toward the bottom-right.
fn metal_at(metal: Metal, u: f64, v: f64) -> [f64; 3] {
    let light = 1.35 - 0.5 * (u + v);
    shade(metal, light.clamp(0.7, 1.3))
}

/// A round plaque of `metal` with a rim, and `emblem(u, v)` (true where the emblem is) sunk in it.
fn plaque(size: u32, metal: Metal, radius: f64, emblem: impl Fn(f64, f64) -> bool) -> RgbaImage {
    let soft = 1.2 / f64::from(size);
    fill(size, |u, v| {
        let d = ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt();
        let alpha = disc_alpha(d, radius, soft);
        let rim = d > radius * 0.86;
        let mut c = metal_at(metal, u, v);
        if rim {
            c = shade(metal_at(metal, 1.0 - u, 1.0 - v), 0.9);
        } else if emblem(u, v) {
            c = shade(metal_at(metal, 1.0 - u, 1.0 - v), 0.5);
        }
        pixel(c, alpha)
    })
}

/// A city tile: a plaque of `metal` bearing a crenellated tower with a door.
pub fn city(size: u32, metal: Metal) -> RgbaImage {
    plaque(size, metal, 0.44, |u, v| {
        let body = (0.34..0.66).contains(&u) && (0.34..0.74).contains(&v);
        let merlon = (0.30..0.70).contains(&u)
            && (0.24..0.36).contains(&v)
            && ((u - 0.30) / 0.08) as i32 % 2 == 0;
        let door = (0.45..0.55).contains(&u) && (0.58..0.74).contains(&v);
        (body || merlon) && !door
    })
}

/// A letter coin of `metal` with `pips` dots along its lower edge; the letter is drawn on it
/// when a board is rendered.
pub fn coin(size: u32, metal: Metal, pips: u32) -> RgbaImage {
    let pip_centres: Vec<(f64, f64)> = (0..pips)
        .map(|i| {
            (
                0.5 + (f64::from(i) - f64::from(pips - 1) / 2.0) * 0.14,
                0.78,
            )
        })
        .collect();
    plaque(size, metal, 0.46, |u, v| {
        pip_centres
            .iter()
            .any(|&(px, py)| ((u - px).powi(2) + (v - py).powi(2)).sqrt() < 0.05)
    })
}

/// A faceted octagonal jewel of `colour` in a small brass setting.
pub fn jewel(size: u32, colour: [f64; 3]) -> RgbaImage {
    let brass = rgb(176, 140, 64);
    let soft = 1.2 / f64::from(size);
    fill(size, |u, v| {
        let (dx, dy) = (u - 0.5, v - 0.5);
        let d = (dx * dx + dy * dy).sqrt();
        let angle = dy.atan2(dx).rem_euclid(TAU);
        let octagon = d * ((angle % (TAU / 8.0)) - TAU / 16.0).cos();
        let setting = disc_alpha(d, 0.36, soft);
        if octagon > 0.27 {
            return pixel(metal_at(brass, u, v), setting);
        }
        let sector = (angle / (TAU / 8.0)) as u32;
        let facet_light = 0.7 + 0.35 * ((f64::from(sector) * 2.4).sin() * 0.5 + 0.5);
        let c = if octagon < 0.13 {
            mix(colour, rgb(255, 255, 255), 0.22)
        } else {
            shade(colour, facet_light)
        };
        let glint = ((u - 0.42).powi(2) + (v - 0.40).powi(2)).sqrt() < 0.035;
        let c = if glint {
            mix(c, rgb(255, 255, 255), 0.8)
        } else {
            c
        };
        pixel(c, 1.0)
    })
}

/// The colours of the four standard jewels: red volcano, amber drought, blue flood, green firestorm.
pub const JEWELS: [(&str, &str, [f64; 3]); 4] = [
    ("volcano", "jewel_red.png", rgb(204, 24, 40)),
    ("drought", "jewel_amber.png", rgb(232, 152, 24)),
    ("flood", "jewel_blue.png", rgb(32, 84, 220)),
    ("firestorm", "jewel_green.png", rgb(28, 168, 72)),
];

/// A transparent tile, for pieces a user's tileset lacks.
pub fn blank(size: u32) -> RgbaImage {
    RgbaImage::from_pixel(size, size, Rgba([0, 0, 0, 0]))
}

/// A wooden block of `colour`, seen from above: rounded corners, a bevelled rim and a flat
/// face where a board draws the piece's value or `?`.
pub fn block(size: u32, colour: [f64; 3], seed: u64) -> RgbaImage {
    let noise = crate::noise::Noise::new(seed);
    let soft = 1.2 / f64::from(size);
    let (light, dark) = (mix(colour, rgb(255, 255, 255), 0.12), shade(colour, 0.78));
    fill(size, |u, v| {
        // Distance outside a rounded square of half-side 0.34 with corners of radius 0.08.
        let (dx, dy) = ((u - 0.5).abs() - 0.34, (v - 0.5).abs() - 0.34);
        let outside = dx.max(0.0).hypot(dy.max(0.0)) + dx.max(dy).min(0.0);
        let alpha = disc_alpha(outside, 0.08, soft);
        let wood = super::wood::grain(noise, light, dark, u, v).0;
        let c = [f64::from(wood[0]), f64::from(wood[1]), f64::from(wood[2])];
        let c = if outside > 0.0 {
            // The rim: lit toward the top-left, shadowed toward the bottom-right.
            shade(c, if u + v < 1.0 { 1.15 } else { 0.7 })
        } else {
            c
        };
        pixel(c, alpha)
    })
}

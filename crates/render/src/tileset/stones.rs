//! The six terrain stones of the design document, drawn from seeded noise: honey onyx plains,
//! malachite forest, lapis lazuli water, tiger's eye mountains, white marble ice, red onyx lava.

use super::paint::{bevel, fill, gradient, mix, pixel, rgb, shade};
use crate::board::Terrain;
use crate::noise::Noise;
use image::RgbaImage;
use std::f64::consts::TAU;

/// One variant of the stone for `terrain`, `size` pixels square; `seed` picks the variant.
pub fn stone(terrain: Terrain, size: u32, seed: u64) -> RgbaImage {
    let noise = Noise::new(seed);
    let angle = noise.scatter(1, 1) * TAU;
    let mut img = match terrain {
        Terrain::Plains => honey_onyx(size, noise, angle),
        Terrain::Forest => malachite(size, noise),
        Terrain::Water => lapis_lazuli(size, noise),
        Terrain::Mountain => tigers_eye(size, noise, angle),
        Terrain::Ice => white_marble(size, noise, angle),
        Terrain::Lava => red_onyx(size, noise, angle),
    };
    bevel(&mut img);
    img
}

/// Distance along direction `angle`, so bands run across the tile at that angle.
fn along(u: f64, v: f64, angle: f64) -> f64 {
    u * angle.cos() + v * angle.sin()
}

/// Soft translucent layers of honey and amber, gently warped.
fn honey_onyx(size: u32, noise: Noise, angle: f64) -> RgbaImage {
    let stops = [
        rgb(246, 214, 150),
        rgb(232, 184, 104),
        rgb(214, 150, 66),
        rgb(238, 200, 128),
        rgb(196, 128, 52),
    ];
    fill(size, |u, v| {
        let warp = noise.fbm(u * 3.0, v * 3.0, 4) * 2.2;
        let bands = (along(u, v, angle) * 5.0 + warp).sin() * 0.5 + 0.5;
        let cloud = noise.fbm(u * 6.0 + 9.0, v * 6.0, 3);
        let c = gradient(&stops, bands * 0.75 + cloud * 0.25);
        pixel(shade(c, 0.92 + cloud * 0.16), 1.0)
    })
}

/// Concentric rings of dark and bright green around a point off the tile.
fn malachite(size: u32, noise: Noise) -> RgbaImage {
    let (cx, cy) = (
        noise.scatter(2, 1) * 2.0 - 0.5,
        noise.scatter(2, 2) * 2.0 - 0.5,
    );
    let dark = rgb(12, 74, 44);
    let bright = rgb(54, 170, 104);
    let pale = rgb(150, 224, 176);
    fill(size, |u, v| {
        let d = ((u - cx).powi(2) + (v - cy).powi(2)).sqrt();
        let ring = (d * 6.0 + noise.fbm(u * 3.0, v * 3.0, 4) * 1.6).fract();
        let c = if ring < 0.06 {
            mix(pale, bright, ring / 0.06)
        } else {
            mix(bright, dark, ((ring - 0.06) / 0.94).powf(0.6))
        };
        pixel(c, 1.0)
    })
}

/// Deep ultramarine, mottled, with white calcite streaks and gold pyrite flecks.
fn lapis_lazuli(size: u32, noise: Noise) -> RgbaImage {
    let deep = rgb(22, 38, 128);
    let light = rgb(52, 86, 196);
    let calcite = rgb(214, 222, 236);
    let pyrite = rgb(232, 196, 92);
    let fleck_scale = f64::from(size) / 2.0;
    fill(size, |u, v| {
        let mottle = noise.fbm(u * 5.0, v * 5.0, 5);
        let mut c = mix(deep, light, (mottle - 0.3) * 1.6);
        let streak = (noise.fbm(u * 2.0 + 4.0, v * 7.0, 4) - 0.5).abs();
        if streak < 0.025 {
            c = mix(calcite, c, streak / 0.025);
        }
        let fleck = noise.scatter((u * fleck_scale) as i64, (v * fleck_scale) as i64 + 1000);
        if fleck > 0.985 {
            c = pyrite;
        }
        pixel(c, 1.0)
    })
}

/// Fibrous golden-brown bands with the silky shimmer (chatoyance) of tiger's eye.
fn tigers_eye(size: u32, noise: Noise, angle: f64) -> RgbaImage {
    let stops = [
        rgb(58, 32, 12),
        rgb(132, 78, 22),
        rgb(206, 148, 50),
        rgb(236, 190, 92),
    ];
    fill(size, |u, v| {
        let wobble = noise.fbm(u * 2.5, v * 2.5, 3) * 1.5;
        let fibre = noise.value(along(u, v, angle + TAU / 4.0) * 40.0, wobble * 3.0);
        let band = (along(u, v, angle) * 7.0 + wobble).sin() * 0.5 + 0.5;
        let shimmer = (along(u, v, angle) * 2.0 + wobble * 0.5).sin() * 0.5 + 0.5;
        let c = gradient(&stops, band * 0.7 + fibre * 0.3);
        pixel(shade(c, 0.75 + shimmer * 0.45), 1.0)
    })
}

/// White marble with branching grey veins.
fn white_marble(size: u32, noise: Noise, angle: f64) -> RgbaImage {
    let white = rgb(240, 242, 246);
    let grey = rgb(150, 156, 170);
    fill(size, |u, v| {
        let turbulence = noise.fbm(u * 4.0, v * 4.0, 5) * 5.0;
        let vein = (along(u, v, angle) * 6.0 + turbulence)
            .sin()
            .abs()
            .powf(0.35);
        let cloud = noise.fbm(u * 3.0 + 7.0, v * 3.0, 3);
        let c = mix(grey, white, vein * 0.85 + cloud * 0.15);
        pixel(c, 1.0)
    })
}

/// Deep red banded onyx with dark veins and hot orange seams.
fn red_onyx(size: u32, noise: Noise, angle: f64) -> RgbaImage {
    let stops = [
        rgb(96, 10, 10),
        rgb(158, 24, 18),
        rgb(206, 58, 30),
        rgb(138, 20, 14),
    ];
    let seam = rgb(252, 150, 40);
    fill(size, |u, v| {
        let warp = noise.fbm(u * 3.5, v * 3.5, 4) * 2.5;
        let bands = (along(u, v, angle) * 6.0 + warp).sin() * 0.5 + 0.5;
        let mut c = gradient(&stops, bands);
        let crack = (noise.fbm(u * 5.0 + 3.0, v * 5.0, 4) - 0.5).abs();
        if crack < 0.02 {
            c = mix(seam, c, crack / 0.02);
        } else if crack < 0.045 {
            c = shade(c, 0.6 + (crack - 0.02) * 16.0);
        }
        pixel(c, 1.0)
    })
}

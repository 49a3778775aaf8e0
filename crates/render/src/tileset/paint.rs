//! Small painting helpers shared by the stone and piece generators: colours, gradients,
//! soft-edged shapes and the bevel that makes a tile look set into a board.

use image::{Rgba, RgbaImage};

/// An opaque colour from its red, green and blue parts.
pub const fn rgb(r: u8, g: u8, b: u8) -> [f64; 3] {
    [r as f64, g as f64, b as f64]
}

/// The colour `t` of the way (0..1) along a gradient through `stops`, spaced evenly.
pub fn gradient(stops: &[[f64; 3]], t: f64) -> [f64; 3] {
    let t = t.clamp(0.0, 1.0) * (stops.len() - 1) as f64;
    let i = (t.floor() as usize).min(stops.len() - 2);
    mix(stops[i], stops[i + 1], t - i as f64)
}

/// `a` blended toward `b` by `t` (0..1).
pub fn mix(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    let t = t.clamp(0.0, 1.0);
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// `c` with its brightness scaled by `k`.
pub fn shade(c: [f64; 3], k: f64) -> [f64; 3] {
    [c[0] * k, c[1] * k, c[2] * k]
}

/// A pixel from a colour and an opacity (0..1).
pub fn pixel(c: [f64; 3], alpha: f64) -> Rgba<u8> {
    let q = |v: f64| v.round().clamp(0.0, 255.0) as u8;
    Rgba([q(c[0]), q(c[1]), q(c[2]), q(alpha * 255.0)])
}

/// Paints `colour(u, v)` over every pixel, with u and v from 0 to 1 across the tile.
pub fn fill(size: u32, colour: impl Fn(f64, f64) -> Rgba<u8>) -> RgbaImage {
    let s = f64::from(size);
    RgbaImage::from_fn(size, size, |x, y| {
        colour((f64::from(x) + 0.5) / s, (f64::from(y) + 0.5) / s)
    })
}

/// Darkens the tile's outer pixels and lightens the top-left edge, like a stone set in brass.
pub fn bevel(img: &mut RgbaImage) {
    let size = img.width() as f64;
    let width = (size / 20.0).max(1.0);
    for (x, y, p) in img.enumerate_pixels_mut() {
        let (fx, fy) = (f64::from(x), f64::from(y));
        let edge = fx.min(fy).min(size - 1.0 - fx).min(size - 1.0 - fy);
        if edge < width {
            let lit = fx + fy < size;
            let k = if lit { 1.18 } else { 0.70 } - 0.04 * edge;
            for c in &mut p.0[..3] {
                *c = (f64::from(*c) * k).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// Opacity of a disc of radius `r` at distance `d` from its centre, with a soft edge of `soft`.
pub fn disc_alpha(d: f64, r: f64, soft: f64) -> f64 {
    ((r - d) / soft + 0.5).clamp(0.0, 1.0)
}

/// The average opaque colour of an image, as `#rrggbb`.
pub fn average_hex(img: &RgbaImage) -> String {
    let n = f64::from(img.width() * img.height()).max(1.0);
    let mut sum = [0.0f64; 3];
    for p in img.pixels() {
        for (s, &c) in sum.iter_mut().zip(&p.0[..3]) {
            *s += f64::from(c);
        }
    }
    let q = |v: f64| (v / n).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", q(sum[0]), q(sum[1]), q(sum[2]))
}

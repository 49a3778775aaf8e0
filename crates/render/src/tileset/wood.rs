//! Wooden board squares for board games' tilesets: each terrain a stained wood, its grain grown
//! from seeded noise (maple plains, green-stained forest, blue-stained water, walnut mountains,
//! birch ice, cherry lava).

use super::paint::{bevel, fill, mix, pixel, rgb, shade};
use crate::board::Terrain;
use crate::noise::Noise;
use image::RgbaImage;

/// The light and dark of each terrain's wood.
fn stain(terrain: Terrain) -> ([f64; 3], [f64; 3]) {
    match terrain {
        Terrain::Plains => (rgb(232, 198, 146), rgb(190, 146, 92)),
        Terrain::Forest => (rgb(132, 168, 110), rgb(70, 108, 62)),
        Terrain::Water => (rgb(128, 156, 196), rgb(70, 96, 150)),
        Terrain::Mountain => (rgb(150, 104, 66), rgb(92, 58, 34)),
        Terrain::Ice => (rgb(246, 238, 222), rgb(214, 202, 180)),
        Terrain::Lava => (rgb(196, 98, 70), rgb(134, 50, 36)),
    }
}

/// One variant of the wooden square for `terrain`, `size` pixels square; `seed` picks the
/// variant (its grain's waves and knots).
pub fn square(terrain: Terrain, size: u32, seed: u64) -> RgbaImage {
    let noise = Noise::new(seed);
    let (light, dark) = stain(terrain);
    let mut img = fill(size, |u, v| grain(noise, light, dark, u, v));
    bevel(&mut img);
    img
}

/// Long rings of grain running down the square, waved by noise, with fine pores.
pub fn grain(noise: Noise, light: [f64; 3], dark: [f64; 3], u: f64, v: f64) -> image::Rgba<u8> {
    let wave = noise.fbm(u * 1.5, v * 4.0, 3) * 1.8;
    let rings = ((u * 9.0 + wave) * std::f64::consts::PI).sin() * 0.5 + 0.5;
    let pores = noise.value(u * 60.0, v * 6.0);
    let c = mix(light, dark, rings.powf(2.2) * 0.8 + pores * 0.2);
    pixel(
        shade(c, 0.94 + noise.fbm(u * 3.0 + 5.0, v * 3.0, 2) * 0.1),
        1.0,
    )
}

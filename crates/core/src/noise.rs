//! Seeded value noise: the same seed and coordinates give the same value on every machine.
//! Used to grow generated maps and to draw the stone textures.

/// A 2-D value-noise field with fractal octaves.
#[derive(Clone, Copy, Debug)]
pub struct Noise {
    seed: u64,
}

impl Noise {
    /// The noise field for `seed`.
    pub fn new(seed: u64) -> Self {
        Noise { seed }
    }

    /// The lattice value at integer point (x, y), in 0..1.
    fn lattice(&self, x: i64, y: i64) -> f64 {
        let mut h = self.seed ^ (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h = splitmix(h);
        (h >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Smoothly interpolated noise at (x, y), in 0..1.
    pub fn value(&self, x: f64, y: f64) -> f64 {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (smooth(x - x0), smooth(y - y0));
        let (ix, iy) = (x0 as i64, y0 as i64);
        let top = lerp(self.lattice(ix, iy), self.lattice(ix + 1, iy), fx);
        let bottom = lerp(self.lattice(ix, iy + 1), self.lattice(ix + 1, iy + 1), fx);
        lerp(top, bottom, fy)
    }

    /// Fractal noise: `octaves` layers, each of twice the frequency and half the weight, in 0..1.
    pub fn fbm(&self, x: f64, y: f64, octaves: u32) -> f64 {
        let (mut sum, mut weight, mut total, mut freq) = (0.0, 1.0, 0.0, 1.0);
        for octave in 0..octaves {
            let layer = Noise::new(self.seed.wrapping_add(u64::from(octave) * 0x51ED_270B));
            sum += layer.value(x * freq, y * freq) * weight;
            total += weight;
            weight *= 0.5;
            freq *= 2.0;
        }
        sum / total
    }

    /// A hash of (x, y) in 0..1 with no smoothing: for scattering flecks and picking variants.
    pub fn scatter(&self, x: i64, y: i64) -> f64 {
        self.lattice(x, y)
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn smooth(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_values_and_in_range() {
        let (a, b) = (Noise::new(7), Noise::new(7));
        for i in 0..200 {
            let (x, y) = (i as f64 * 0.37, i as f64 * 0.11);
            let v = a.fbm(x, y, 4);
            assert_eq!(v, b.fbm(x, y, 4));
            assert!((0.0..=1.0).contains(&v));
        }
        assert_ne!(Noise::new(7).value(0.5, 0.5), Noise::new(8).value(0.5, 0.5));
    }
}

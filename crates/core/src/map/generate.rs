//! Procedural maps: a designer's starting point, and the large maps used for performance work.
//!
//! Maps are point-symmetric (each cell mirrors the one opposite the centre), so that gold and
//! silver start from equal positions.

use super::Map;
use crate::board::{City, Grid, Owner, Pos, STANDARD_TOKEN_KINDS, Terrain, TokenSpot};
use crate::noise::Noise;

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// The map's title.
    pub name: String,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The seed: the same options always make the same map.
    pub seed: u64,
    /// Pairs of neutral cities to scatter (each pair mirrored across the centre).
    pub neutral_city_pairs: u32,
    /// Pairs of each standard elemental token to scatter.
    pub token_pairs: u32,
}

const CITY_NAMES: [&str; 16] = [
    "Ashford",
    "Brightwater",
    "Cinderfall",
    "Dunmere",
    "Elderholt",
    "Frostgate",
    "Greywick",
    "Hollowmere",
    "Ironvale",
    "Juniper",
    "Kestrel",
    "Larkspur",
    "Mosshollow",
    "Northwatch",
    "Oakenshaw",
    "Pewterby",
];

/// A map that cannot be generated as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// More pieces were asked for than the map has free land for.
    #[error(
        "a {width}x{height} map has room for {placed} {what}, not {asked}; ask for fewer or make the map larger"
    )]
    NoRoom {
        /// What could not all be placed: `pairs of neutral cities`, `pairs of tokens`.
        what: &'static str,
        /// How many were asked for.
        asked: u32,
        /// How many found a place.
        placed: u32,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
}

/// A generated map: terrain from layered noise, cities and elemental tokens placed in
/// mirrored pairs, the `classic` rules. Refused when the pieces asked for do not fit.
pub fn generate(options: &GenerateOptions) -> Result<Map, GenerateError> {
    let (w, h) = (options.width.max(1), options.height.max(1));
    let mut map = Map::new(options.name.clone(), w, h);
    map.description = format!("Generated {w}x{h} map, seed {}.", options.seed);
    map.terrain = generate_terrain(w, h, options.seed);
    let mut placer = Placer::new(&mut map, options.seed);
    placer.place_start_cities();
    let no_room = |what, asked, placed| GenerateError::NoRoom {
        what,
        asked,
        placed,
        width: w,
        height: h,
    };
    for i in 0..options.neutral_city_pairs {
        if !placer.place_neutral_pair(i) {
            return Err(no_room(
                "pairs of neutral cities",
                options.neutral_city_pairs,
                i,
            ));
        }
    }
    for i in 0..options.token_pairs {
        for kind in STANDARD_TOKEN_KINDS {
            if !placer.place_token_pair(kind, i) {
                return Err(no_room("pairs of each token", options.token_pairs, i));
            }
        }
    }
    Ok(map)
}

fn generate_terrain(w: u32, h: u32, seed: u64) -> Grid<Terrain> {
    let elevation = SymmetricField::new(Noise::new(seed), w, h, 1.0, 4);
    let moisture = SymmetricField::new(Noise::new(seed ^ 0x6D6F_6973), w, h, 1.3, 3);
    let cold = SymmetricField::new(Noise::new(seed ^ 0x636F_6C64), w, h, 0.7, 2);
    let mut grid = Grid::new(w, h, Terrain::Plains);
    for pos in grid.positions() {
        let (e, m, c) = (elevation.at(pos), moisture.at(pos), cold.at(pos));
        let terrain = match () {
            _ if e > 0.80 => Terrain::Lava,
            _ if e > 0.67 => Terrain::Mountain,
            _ if e < 0.30 && c > 0.62 => Terrain::Ice,
            _ if e < 0.33 => Terrain::Water,
            _ if m > 0.60 => Terrain::Forest,
            _ => Terrain::Plains,
        };
        grid.set(pos, terrain);
    }
    grid
}

/// Noise averaged with its own half-turn, so that a cell and the cell opposite the centre
/// get exactly the same value and the field has no seam.
struct SymmetricField {
    noise: Noise,
    w: u32,
    h: u32,
    scale: f64,
    octaves: u32,
}

impl SymmetricField {
    fn new(noise: Noise, w: u32, h: u32, frequency: f64, octaves: u32) -> Self {
        let scale = f64::from(w.max(h)).max(12.0) / 7.0 / frequency;
        SymmetricField {
            noise,
            w,
            h,
            scale,
            octaves,
        }
    }

    fn sample(&self, p: Pos) -> f64 {
        self.noise.fbm(
            f64::from(p.x) / self.scale,
            f64::from(p.y) / self.scale,
            self.octaves,
        )
    }

    /// Averaging two samples pulls values toward the middle; stretching restores the spread.
    fn at(&self, p: Pos) -> f64 {
        let mirror = Pos::new(self.w - 1 - p.x, self.h - 1 - p.y);
        let mean = (self.sample(p) + self.sample(mirror)) / 2.0;
        0.5 + (mean - 0.5) * 1.6
    }
}

/// Places things in mirrored pairs on free land, clearing a little plain around cities.
struct Placer<'a> {
    map: &'a mut Map,
    noise: Noise,
    draws: i64,
}

impl<'a> Placer<'a> {
    fn new(map: &'a mut Map, seed: u64) -> Self {
        Placer {
            map,
            noise: Noise::new(seed ^ 0x706C_6163),
            draws: 0,
        }
    }

    fn mirror(&self, p: Pos) -> Pos {
        Pos::new(self.map.width() - 1 - p.x, self.map.height() - 1 - p.y)
    }

    fn clear_around(&mut self, centre: Pos, radius: u32) {
        for y in centre.y.saturating_sub(radius)..=centre.y + radius {
            for x in centre.x.saturating_sub(radius)..=centre.x + radius {
                let p = Pos::new(x, y);
                if self.map.terrain.contains(p) {
                    self.map.terrain.set(p, Terrain::Plains);
                    let m = self.mirror(p);
                    self.map.terrain.set(m, Terrain::Plains);
                }
            }
        }
    }

    fn place_start_cities(&mut self) {
        let (w, h) = (self.map.width(), self.map.height());
        let gold = Pos::new(w / 6, h - 1 - h / 6);
        let silver = self.mirror(gold);
        self.clear_around(gold, 2);
        self.map
            .cities
            .push(city("gold_capital", "Aurum", gold, Owner::Gold));
        self.map
            .cities
            .push(city("silver_capital", "Argentum", silver, Owner::Silver));
    }

    /// A random land cell in the half of the map nearer gold, free of cities and tokens.
    fn free_land(&mut self) -> Option<Pos> {
        let (w, h) = (self.map.width(), self.map.height());
        for _ in 0..200 {
            self.draws += 1;
            let x = (self.noise.scatter(self.draws, 1) * f64::from(w)) as u32;
            let y = (self.noise.scatter(self.draws, 2) * f64::from(h)) as u32;
            let p = Pos::new(x.min(w - 1), y.min(h - 1));
            let m = self.mirror(p);
            let taken = |q: Pos| self.map.city_at(q).is_some() || self.map.token_at(q).is_some();
            let land = self.map.terrain[p].is_land() && self.map.terrain[p] != Terrain::Ice;
            if p < m && land && !taken(p) && !taken(m) {
                return Some(p);
            }
        }
        None
    }

    /// Places the `i`th pair of neutral cities; false if no free land was found for it.
    fn place_neutral_pair(&mut self, i: u32) -> bool {
        let Some(p) = self.free_land() else {
            return false;
        };
        self.clear_around(p, 1);
        let m = self.mirror(p);
        let n = 2 * i as usize;
        let name = |k: usize| CITY_NAMES[k % CITY_NAMES.len()].to_string();
        self.map.cities.push(city(
            &format!("neutral_{}", n + 1),
            &name(n),
            p,
            Owner::Neutral,
        ));
        self.map.cities.push(city(
            &format!("neutral_{}", n + 2),
            &name(n + 1),
            m,
            Owner::Neutral,
        ));
        true
    }

    /// Places the `i`th pair of `kind` tokens; false if no free land was found for it.
    fn place_token_pair(&mut self, kind: &str, i: u32) -> bool {
        let Some(p) = self.free_land() else {
            return false;
        };
        let m = self.mirror(p);
        for (k, at) in [(2 * i + 1, p), (2 * i + 2, m)] {
            self.map.tokens.push(TokenSpot {
                id: format!("{kind}_{k}"),
                kind: kind.to_string(),
                at,
            });
        }
        true
    }
}

fn city(id: &str, name: &str, at: Pos, owner: Owner) -> City {
    City {
        id: id.to_string(),
        name: name.to_string(),
        at,
        owner,
        bonus: None,
    }
}

//! Regions of a map: a selection, and what copy and cut put on the editor's clipboard
//! (terrain, cities and tokens, at positions relative to the region's corner).

use scryptic::{City, Map, Pos, Terrain, TokenSpot};

/// A selected rectangle of cells, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Top-left cell.
    pub min: Pos,
    /// Bottom-right cell.
    pub max: Pos,
}

impl Region {
    /// The region with corners `a` and `b`, in any order.
    pub fn new(a: Pos, b: Pos) -> Region {
        Region {
            min: Pos::new(a.x.min(b.x), a.y.min(b.y)),
            max: Pos::new(a.x.max(b.x), a.y.max(b.y)),
        }
    }

    /// Whether `p` is inside.
    pub fn contains(&self, p: Pos) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> Vec<Pos> {
        crate::paint::rectangle(self.min, self.max, true)
    }

    /// Width and height in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.max.x - self.min.x + 1, self.max.y - self.min.y + 1)
    }
}

/// Copied cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    width: u32,
    height: u32,
    terrain: Vec<Terrain>,
    cities: Vec<City>,
    tokens: Vec<TokenSpot>,
}

impl Clip {
    /// Copies `region` of `map`.
    pub fn copy(map: &Map, region: Region) -> Clip {
        let (width, height) = region.size();
        let terrain = region
            .cells()
            .iter()
            .map(|&p| map.terrain.get(p).copied().unwrap_or(Terrain::Plains))
            .collect();
        let relative = |p: Pos| Pos::new(p.x - region.min.x, p.y - region.min.y);
        let cities = map
            .cities
            .iter()
            .filter(|c| region.contains(c.at))
            .map(|c| City {
                at: relative(c.at),
                ..c.clone()
            })
            .collect();
        let tokens = map
            .tokens
            .iter()
            .filter(|t| region.contains(t.at))
            .map(|t| TokenSpot {
                at: relative(t.at),
                ..t.clone()
            })
            .collect();
        Clip {
            width,
            height,
            terrain,
            cities,
            tokens,
        }
    }

    /// Size in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Pastes with its top-left corner at `at` (what falls off the map is dropped). Pasted
    /// cities and tokens replace those under them and get fresh ids when theirs are taken.
    pub fn paste(&self, map: &mut Map, at: Pos) {
        let (width, height) = (map.width(), map.height());
        let target = |dx: u32, dy: u32| {
            let p = Pos::new(at.x + dx, at.y + dy);
            (p.x < width && p.y < height).then_some(p)
        };
        let mut placed = Vec::new();
        for dy in 0..self.height {
            for dx in 0..self.width {
                if let Some(p) = target(dx, dy) {
                    placed.push((p, self.terrain[(dy * self.width + dx) as usize]));
                }
            }
        }
        for (p, t) in &placed {
            map.terrain.set(*p, *t);
        }
        let region = Region::new(at, Pos::new(at.x + self.width - 1, at.y + self.height - 1));
        map.cities.retain(|c| !region.contains(c.at));
        map.tokens.retain(|t| !region.contains(t.at));
        for city in &self.cities {
            if let Some(p) = target(city.at.x, city.at.y) {
                let id = fresh_id(map, &city.id);
                map.cities.push(City {
                    at: p,
                    id,
                    ..city.clone()
                });
            }
        }
        for token in &self.tokens {
            if let Some(p) = target(token.at.x, token.at.y) {
                let id = fresh_id(map, &token.id);
                map.tokens.push(TokenSpot {
                    at: p,
                    id,
                    ..token.clone()
                });
            }
        }
    }
}

/// Clears `region` to plains and removes its cities and tokens (Delete, or the cut of a cut).
pub fn clear(map: &mut Map, region: Region) {
    for p in region.cells() {
        map.terrain.set(p, Terrain::Plains);
    }
    map.cities.retain(|c| !region.contains(c.at));
    map.tokens.retain(|t| !region.contains(t.at));
}

/// `wanted`, or `wanted-2`, `wanted-3`... whichever no city or token of `map` has.
pub fn fresh_id(map: &Map, wanted: &str) -> String {
    let taken =
        |id: &str| map.cities.iter().any(|c| c.id == id) || map.tokens.iter().any(|t| t.id == id);
    if !taken(wanted) {
        return wanted.to_string();
    }
    let stem = wanted.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
    let stem = if stem.is_empty() { wanted } else { stem };
    (2..)
        .map(|n| format!("{stem}-{n}"))
        .find(|id| !taken(id))
        .unwrap_or_else(|| wanted.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use scryptic::Owner;

    #[test]
    fn copy_paste_carries_terrain_and_cities_with_fresh_ids() {
        let mut map = Map::new("t", 10, 10);
        map.terrain.set(Pos::new(1, 1), Terrain::Lava);
        map.cities.push(City {
            id: "keep".into(),
            name: "Keep".into(),
            at: Pos::new(2, 2),
            owner: Owner::Gold,
        });
        let clip = Clip::copy(&map, Region::new(Pos::new(3, 3), Pos::new(1, 1)));
        assert_eq!(clip.size(), (3, 3));
        clip.paste(&mut map, Pos::new(6, 6));
        assert_eq!(map.terrain.get(Pos::new(6, 6)), Some(&Terrain::Lava));
        assert_eq!(map.cities.len(), 2);
        assert_eq!(map.cities[1].at, Pos::new(7, 7));
        assert_eq!(map.cities[1].id, "keep-2");
        clip.paste(&mut map, Pos::new(9, 9));
        assert_eq!(map.terrain.get(Pos::new(9, 9)), Some(&Terrain::Lava));
        assert_eq!(
            map.cities.len(),
            2,
            "a city that falls off the map is dropped"
        );
        clear(&mut map, Region::new(Pos::new(0, 0), Pos::new(9, 9)));
        assert!(map.cities.is_empty());
    }
}

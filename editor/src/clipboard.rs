//! Regions of a map: a selection, and what copy and cut put on the editor's clipboard
//! (terrain, cities and tokens, at positions relative to the region's corner).

use scryptic::{City, Map, Pos, Terrain, TokenSpot};

/// The first line of a clip's text on the system clipboard.
const CLIP_HEADER: &str = "scryptic-region 1";

/// The longest clipboard text read as a clip.
const MAX_CLIP_TEXT_BYTES: usize = 16 * 1024 * 1024;

/// The widest and tallest clip read from the clipboard (a map's largest side).
const MAX_CLIP_SIDE: u32 = 1024;

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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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

    /// The clip as text for the system clipboard: a first line that says what it is, then
    /// the clip in RON, which another editor window reads back and other programs show.
    pub fn to_text(&self) -> String {
        let body = ron::ser::to_string(self).unwrap_or_default();
        format!("{CLIP_HEADER}\n{body}\n")
    }

    /// A clip from the system clipboard's text, if it is one (and within bounds: a stranger's
    /// text may be anything).
    pub fn from_text(text: &str) -> Option<Clip> {
        if text.len() > MAX_CLIP_TEXT_BYTES {
            return None;
        }
        let body = text.strip_prefix(CLIP_HEADER)?;
        let clip: Clip = scryptic::ronfile::options().from_str(body.trim()).ok()?;
        let cells = u64::from(clip.width) * u64::from(clip.height);
        let fits = clip.width >= 1
            && clip.height >= 1
            && clip.width <= MAX_CLIP_SIDE
            && clip.height <= MAX_CLIP_SIDE
            && cells == clip.terrain.len() as u64
            && clip.cities.len() <= scryptic::limits::MAX_PIECES
            && clip.tokens.len() <= scryptic::limits::MAX_PIECES
            && clip
                .cities
                .iter()
                .map(|c| c.at)
                .chain(clip.tokens.iter().map(|t| t.at))
                .all(|p| p.x < clip.width && p.y < clip.height);
        fits.then_some(clip)
    }

    /// Size in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Pastes with its top-left corner at `at` (what falls off the map is dropped), the layers
    /// `layers` says, as Tiled pastes into the layers chosen: terrain replaces terrain; a
    /// pasted city or token replaces the one on its own cell (others under the region stay)
    /// and gets a fresh id when its own is taken.
    pub fn paste(&self, map: &mut Map, at: Pos, layers: Layers) {
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
        if layers.terrain {
            for (p, t) in &placed {
                map.terrain.set(*p, *t);
            }
        }
        if !layers.pieces {
            return;
        }
        let pieces: Vec<Pos> = (self.cities.iter().map(|c| c.at))
            .chain(self.tokens.iter().map(|t| t.at))
            .filter_map(|p| target(p.x, p.y))
            .collect();
        map.cities.retain(|c| !pieces.contains(&c.at));
        map.tokens.retain(|t| !pieces.contains(&t.at));
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

/// Which layers a paste writes: the terrain, the pieces (cities and tokens), or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// The terrain.
    pub terrain: bool,
    /// Cities and tokens.
    pub pieces: bool,
}

impl Default for Layers {
    fn default() -> Layers {
        Layers {
            terrain: true,
            pieces: true,
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
            bonus: Some(55),
        });
        let clip = Clip::copy(&map, Region::new(Pos::new(3, 3), Pos::new(1, 1)));
        assert_eq!(clip.size(), (3, 3));
        clip.paste(&mut map, Pos::new(6, 6), Layers::default());
        assert_eq!(map.terrain.get(Pos::new(6, 6)), Some(&Terrain::Lava));
        assert_eq!(map.cities.len(), 2);
        assert_eq!(map.cities[1].at, Pos::new(7, 7));
        assert_eq!(map.cities[1].id, "keep-2");
        assert_eq!(map.cities[1].bonus, Some(55), "its own bonus goes with it");
        clip.paste(&mut map, Pos::new(9, 9), Layers::default());
        assert_eq!(map.terrain.get(Pos::new(9, 9)), Some(&Terrain::Lava));
        assert_eq!(
            map.cities.len(),
            2,
            "a city that falls off the map is dropped"
        );
        clear(&mut map, Region::new(Pos::new(0, 0), Pos::new(9, 9)));
        assert!(map.cities.is_empty());
    }

    /// Terrain pasted over a city leaves the city (pasting over Argentum deleted it); the
    /// pieces' layer alone leaves the terrain; a pasted city replaces only the one on its cell.
    #[test]
    fn layers_paste_apart() {
        let city = |id: &str, x, y| City {
            id: id.into(),
            name: id.into(),
            at: Pos::new(x, y),
            owner: Owner::Neutral,
            bonus: None,
        };
        let mut from = Map::new("from", 4, 4);
        from.terrain.set(Pos::new(0, 0), Terrain::Water);
        let water = Clip::copy(&from, Region::new(Pos::new(0, 0), Pos::new(3, 3)));
        let mut map = Map::new("to", 8, 8);
        map.cities.push(city("argentum", 1, 1));
        water.paste(&mut map, Pos::new(1, 1), Layers::default());
        assert_eq!(map.terrain.get(Pos::new(1, 1)), Some(&Terrain::Water));
        assert_eq!(map.cities.len(), 1, "a clip without cities leaves them");
        from.cities.push(city("mill", 1, 0));
        let with_mill = Clip::copy(&from, Region::new(Pos::new(0, 0), Pos::new(3, 3)));
        let mut map = Map::new("to", 8, 8);
        map.cities.push(city("argentum", 1, 1));
        map.cities.push(city("ford", 2, 1));
        let pieces = Layers {
            terrain: false,
            pieces: true,
        };
        with_mill.paste(&mut map, Pos::new(1, 1), pieces);
        assert_eq!(map.terrain.get(Pos::new(1, 1)), Some(&Terrain::Plains));
        let ids: Vec<&str> = map.cities.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            ["argentum", "mill"],
            "the mill replaced the ford on its cell"
        );
        let terrain = Layers {
            terrain: true,
            pieces: false,
        };
        with_mill.paste(&mut map, Pos::new(4, 4), terrain);
        assert_eq!(map.terrain.get(Pos::new(4, 4)), Some(&Terrain::Water));
        assert_eq!(map.cities.len(), 2, "the terrain alone brings no city");
    }

    /// A clip's text reads back as the same clip; text that is not a clip, or a clip whose
    /// parts do not fit its size, is refused (the clipboard may hold anything).
    #[test]
    fn clips_round_trip_as_text_and_bad_text_is_refused() {
        let mut map = Map::new("t", 6, 6);
        map.terrain.set(Pos::new(1, 1), Terrain::Ice);
        let clip = Clip::copy(&map, Region::new(Pos::new(0, 0), Pos::new(2, 1)));
        let text = clip.to_text();
        assert_eq!(Clip::from_text(&text), Some(clip.clone()));
        assert_eq!(Clip::from_text("hello"), None);
        assert_eq!(Clip::from_text(&text.replace("width:3", "width:4")), None);
        let mut stray = clip;
        stray.cities.push(City {
            id: "far".into(),
            name: "Far".into(),
            at: Pos::new(9, 0),
            owner: scryptic::Owner::Neutral,
            bonus: None,
        });
        assert_eq!(Clip::from_text(&stray.to_text()), None);
    }
}

//! Drawing a map to an image: a designer's preview, and a way to look at maps without a display.

use crate::board::{Player, Pos, Terrain};
use crate::map::Map;
use crate::rules::RuleSet;
use crate::tileset::{Tileset, blank_tile, fallback_jewel};
use image::imageops::{FilterType, overlay, replace, resize};
use image::{Rgba, RgbaImage};
use std::collections::BTreeMap;

/// How to draw.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Pixels per cell; `None` picks the tile size, shrunk so the image fits `max_side`.
    pub cell_px: Option<u32>,
    /// The longest side the image may have when the cell size is picked automatically.
    pub max_side: u32,
    /// Whether to draw thin lines between cells.
    pub grid: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            cell_px: None,
            max_side: 4096,
            grid: false,
        }
    }
}

/// The longest side an image may have: 16384 pixels (a gigabyte of RGBA), beyond which an
/// image is no use as a preview and may not fit in memory.
pub const MAX_IMAGE_SIDE: u32 = 16384;

/// Below this many pixels per cell, textures turn to mush: cells are drawn in flat colours.
const MIN_TEXTURED_CELL: u32 = 6;

/// Flat colours used when no tileset is at hand.
pub fn default_colour(terrain: Terrain) -> [u8; 3] {
    match terrain {
        Terrain::Plains => [226, 182, 108],
        Terrain::Forest => [34, 122, 74],
        Terrain::Water => [38, 62, 162],
        Terrain::Mountain => [150, 96, 34],
        Terrain::Ice => [224, 228, 236],
        Terrain::Lava => [150, 28, 18],
    }
}

/// The cell size `options` and the map ask for, shrunk if needed so that the image stays
/// within [`MAX_IMAGE_SIDE`].
pub fn cell_size(map: &Map, tileset: Option<&Tileset>, options: &RenderOptions) -> u32 {
    let longest = map.width().max(map.height()).max(1);
    let natural = tileset.map_or(16, |t| t.tile_size);
    let fit = options.max_side / longest;
    let asked = options.cell_px.unwrap_or(natural.min(fit));
    asked.clamp(1, (MAX_IMAGE_SIDE / longest).max(1))
}

/// The image's width and height in pixels if `cell_px` pixels per cell were drawn.
pub fn image_size(map: &Map, cell_px: u32) -> (u64, u64) {
    (
        u64::from(map.width()) * u64::from(cell_px),
        u64::from(map.height()) * u64::from(cell_px),
    )
}

/// `image` encoded as PNG bytes.
pub fn png_bytes(image: &image::RgbaImage) -> image::ImageResult<Vec<u8>> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, image::ImageFormat::Png)?;
    Ok(bytes.into_inner())
}

/// Draws `map`: terrain, token spots, cities, and the scenario's letters as coins.
pub fn render(
    map: &Map,
    rules: &RuleSet,
    tileset: Option<&Tileset>,
    options: &RenderOptions,
) -> RgbaImage {
    let cell = cell_size(map, tileset, options);
    let mut img = RgbaImage::new(map.width() * cell, map.height() * cell);
    let textured = tileset.filter(|_| cell >= MIN_TEXTURED_CELL);
    let scaled = textured.map(|t| ScaledTiles::new(t, cell));
    for pos in map.terrain.positions() {
        let terrain = map.terrain[pos];
        let (x, y) = (i64::from(pos.x * cell), i64::from(pos.y * cell));
        match scaled
            .as_ref()
            .and_then(|s| s.terrain(terrain, pos, textured?))
        {
            Some(tile) => replace(&mut img, tile, x, y),
            None => {
                let c = tileset.map_or(default_colour(terrain), |t| t.colour(terrain));
                fill_cell(&mut img, pos, cell, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }
    if let Some(s) = &scaled {
        draw_pieces(&mut img, map, rules, s, cell);
    } else {
        mark_pieces(&mut img, map, cell);
    }
    if options.grid && cell >= 8 {
        draw_grid(&mut img, cell);
    }
    img
}

/// Every image of a tileset scaled once to the cell size.
struct ScaledTiles {
    terrain: BTreeMap<Terrain, Vec<RgbaImage>>,
    cities: BTreeMap<crate::board::Owner, RgbaImage>,
    tokens: BTreeMap<String, RgbaImage>,
    coins: BTreeMap<Player, Vec<RgbaImage>>,
    unknown_token: RgbaImage,
    blank: RgbaImage,
}

impl ScaledTiles {
    fn new(tileset: &Tileset, cell: u32) -> Self {
        let scale = |img: &RgbaImage| {
            if img.width() == cell {
                img.clone()
            } else {
                resize(img, cell, cell, FilterType::Triangle)
            }
        };
        ScaledTiles {
            terrain: tileset
                .terrain
                .iter()
                .map(|(&t, imgs)| (t, imgs.variants.iter().map(scale).collect()))
                .collect(),
            cities: tileset.cities.iter().map(|(&o, i)| (o, scale(i))).collect(),
            tokens: tileset
                .tokens
                .iter()
                .map(|(k, i)| (k.clone(), scale(i)))
                .collect(),
            coins: tileset
                .coins
                .iter()
                .map(|(&p, imgs)| (p, imgs.iter().map(scale).collect()))
                .collect(),
            unknown_token: scale(&fallback_jewel(tileset.tile_size)),
            blank: blank_tile(cell),
        }
    }

    fn terrain(&self, terrain: Terrain, pos: Pos, tileset: &Tileset) -> Option<&RgbaImage> {
        self.terrain
            .get(&terrain)?
            .get(tileset.variant_index(terrain, pos)?)
    }

    fn coin(&self, player: Player, pips: i64) -> &RgbaImage {
        let coins = self
            .coins
            .get(&player)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let index = usize::try_from(pips.max(1) - 1)
            .unwrap_or(0)
            .min(coins.len().saturating_sub(1));
        coins.get(index).unwrap_or(&self.blank)
    }
}

fn draw_pieces(img: &mut RgbaImage, map: &Map, rules: &RuleSet, tiles: &ScaledTiles, cell: u32) {
    let at = |p: Pos| (i64::from(p.x * cell), i64::from(p.y * cell));
    for token in map.tokens.iter().filter(|t| map.terrain.contains(t.at)) {
        let jewel = tiles
            .tokens
            .get(&token.kind)
            .unwrap_or(&tiles.unknown_token);
        let (x, y) = at(token.at);
        overlay(img, jewel, x, y);
    }
    for city in map.cities.iter().filter(|c| map.terrain.contains(c.at)) {
        let (x, y) = at(city.at);
        overlay(
            img,
            tiles.cities.get(&city.owner).unwrap_or(&tiles.blank),
            x,
            y,
        );
    }
    for word in &map.scenario.words {
        for (pos, letter) in word.letters().filter(|&(p, _)| map.terrain.contains(p)) {
            let pips = rules.letter_value(letter).unwrap_or(1);
            let (x, y) = at(pos);
            overlay(img, tiles.coin(word.player, pips), x, y);
            let ink = match word.player {
                Player::Gold => Rgba([74, 46, 12, 255]),
                // Silver's, and any other seat's until modes name their colours.
                _ => Rgba([44, 48, 58, 255]),
            };
            draw_letter(img, letter, pos, cell, ink);
        }
    }
}

/// Without textures, pieces are marked by small squares in their colours.
fn mark_pieces(img: &mut RgbaImage, map: &Map, cell: u32) {
    let marks = map
        .tokens
        .iter()
        .map(|t| (t.at, Rgba([230, 60, 200, 255])))
        .chain(map.cities.iter().map(|c| {
            let colour = match c.owner {
                crate::board::Owner::Gold => Rgba([255, 210, 40, 255]),
                crate::board::Owner::Silver => Rgba([240, 244, 255, 255]),
                crate::board::Owner::Neutral => Rgba([110, 110, 104, 255]),
            };
            (c.at, colour)
        }));
    for (pos, colour) in marks.filter(|(p, _)| map.terrain.contains(*p)) {
        fill_cell(img, pos, cell, colour);
    }
}

fn fill_cell(img: &mut RgbaImage, pos: Pos, cell: u32, colour: Rgba<u8>) {
    for dy in 0..cell {
        for dx in 0..cell {
            img.put_pixel(pos.x * cell + dx, pos.y * cell + dy, colour);
        }
    }
}

fn draw_grid(img: &mut RgbaImage, cell: u32) {
    for (x, y, p) in img.enumerate_pixels_mut() {
        if x % cell == 0 || y % cell == 0 {
            for c in &mut p.0[..3] {
                *c = (u16::from(*c) * 3 / 5) as u8;
            }
        }
    }
}

/// Draws `letter` on the cell at `pos` with the 5x7 font, a little above the centre (the
/// coin's pips are below).
fn draw_letter(img: &mut RgbaImage, letter: char, pos: Pos, cell: u32, ink: Rgba<u8>) {
    let Some(rows) = glyph(letter) else { return };
    let scale = (cell * 2 / 5 / 7).max(1);
    let (w, h) = (5 * scale, 7 * scale);
    if w > cell || h > cell {
        return;
    }
    let left = pos.x * cell + (cell - w) / 2;
    let top = pos.y * cell + (cell - h) * 2 / 5;
    for (row, bits) in rows.iter().enumerate() {
        for col in 0..5u32 {
            if bits & (0b10000 >> col) != 0 {
                for dy in 0..scale {
                    for dx in 0..scale {
                        img.put_pixel(left + col * scale + dx, top + row as u32 * scale + dy, ink);
                    }
                }
            }
        }
    }
}

/// The 5x7 bitmap of an uppercase letter, one row of five bits per line.
fn glyph(letter: char) -> Option<[u8; 7]> {
    const FONT: [[u8; 7]; 26] = [
        [
            0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001,
        ],
        [
            0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110,
        ],
        [
            0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110,
        ],
        [
            0b11110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11110,
        ],
        [
            0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111,
        ],
        [
            0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000,
        ],
        [
            0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111,
        ],
        [
            0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001,
        ],
        [
            0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110,
        ],
        [
            0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100,
        ],
        [
            0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001,
        ],
        [
            0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111,
        ],
        [
            0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001,
        ],
        [
            0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001,
        ],
        [
            0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110,
        ],
        [
            0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000,
        ],
        [
            0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101,
        ],
        [
            0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001,
        ],
        [
            0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110,
        ],
        [
            0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100,
        ],
        [
            0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110,
        ],
        [
            0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100,
        ],
        [
            0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010,
        ],
        [
            0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001,
        ],
        [
            0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100,
        ],
        [
            0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111,
        ],
    ];
    letter
        .is_ascii_uppercase()
        .then(|| FONT[(letter as u8 - b'A') as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{GenerateOptions, generate};

    fn small_map() -> Map {
        generate(&GenerateOptions {
            name: "R".into(),
            width: 10,
            height: 8,
            seed: 1,
            neutral_city_pairs: 1,
            token_pairs: 1,
        })
        .expect("the generated map has room for its pieces")
    }

    #[test]
    fn flat_render_has_one_colour_per_cell() {
        let map = small_map();
        let rules = map.rule_set().unwrap();
        let img = render(
            &map,
            &rules,
            None,
            &RenderOptions {
                cell_px: Some(4),
                ..Default::default()
            },
        );
        assert_eq!(img.dimensions(), (40, 32));
        let p = Pos::new(5, 0);
        let expected = default_colour(map.terrain[p]);
        if map.city_at(p).is_none() && map.token_at(p).is_none() {
            assert_eq!(img.get_pixel(21, 1).0[..3], expected);
        }
    }

    #[test]
    fn textured_render_uses_the_tileset_and_fits_the_size_limit() {
        let dir = tempfile::tempdir().unwrap();
        crate::tileset::generate(
            dir.path(),
            &crate::tileset::GenerateOptions {
                seed: 1,
                tile_size: 16,
                variants: 2,
                ..crate::tileset::GenerateOptions::default()
            },
        )
        .unwrap();
        let tileset = Tileset::load(&dir.path().join("tileset.ron")).unwrap();
        let map = small_map();
        let rules = map.rule_set().unwrap();
        let img = render(
            &map,
            &rules,
            Some(&tileset),
            &RenderOptions {
                max_side: 100,
                ..Default::default()
            },
        );
        assert_eq!(img.dimensions(), (100, 80));
        let again = render(
            &map,
            &rules,
            Some(&tileset),
            &RenderOptions {
                max_side: 100,
                ..Default::default()
            },
        );
        assert_eq!(img, again);
    }

    #[test]
    fn every_letter_has_a_glyph() {
        assert!(('A'..='Z').all(|c| glyph(c).is_some()));
        assert!(glyph('a').is_none());
    }
}

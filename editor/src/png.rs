//! Terrain from a PNG and the map to a PNG: one pixel per cell in, each pixel taking the
//! terrain whose flat colour is nearest; the runtime's renderer out.

use scryptic::tileset::Tileset;
use scryptic::{Grid, Map, Terrain};
use std::path::Path;

/// The flat colour of each terrain: the tileset's, else the renderer's defaults.
pub fn palette(tileset: Option<&Tileset>) -> Vec<(Terrain, [u8; 3])> {
    Terrain::ALL
        .iter()
        .map(|&t| {
            (
                t,
                tileset.map_or(scryptic::render::default_colour(t), |ts| ts.colour(t)),
            )
        })
        .collect()
}

/// The terrain whose colour is nearest `rgb`.
pub fn nearest(rgb: [u8; 3], palette: &[(Terrain, [u8; 3])]) -> Terrain {
    let distance = |c: &[u8; 3]| -> i32 {
        (0..3)
            .map(|i| (i32::from(c[i]) - i32::from(rgb[i])).pow(2))
            .sum()
    };
    palette
        .iter()
        .min_by_key(|(_, c)| distance(c))
        .map_or(Terrain::Plains, |(t, _)| *t)
}

/// The terrain a PNG stands for, one pixel per cell; the size must be one the rules allow.
pub fn import(
    path: &Path,
    palette: &[(Terrain, [u8; 3])],
    max_side: u32,
) -> Result<Grid<Terrain>, String> {
    let image =
        image::open(path).map_err(|e| format!("{}: cannot read the image: {e}", path.display()))?;
    let rgb = image.to_rgb8();
    let (w, h) = rgb.dimensions();
    if w == 0 || h == 0 || w > max_side || h > max_side {
        return Err(format!(
            "{}: the image is {w}x{h}; a map's sides are 1 to {max_side} cells (one pixel per cell)",
            path.display()
        ));
    }
    let cells = rgb.pixels().map(|p| nearest(p.0, palette)).collect();
    Grid::from_cells(w, h, cells).ok_or_else(|| "the image's pixels do not fill it".into())
}

/// The palette terrain PNGs are written and read in (README, "Maps"): the renderer's flat
/// colours, whatever the map's tileset, so that a terrain PNG exported and imported again
/// gives back exactly the terrain it was made from.
pub fn terrain_palette() -> Vec<(Terrain, [u8; 3])> {
    palette(None)
}

/// The map's terrain as a PNG of one pixel a cell in `terrain_palette`, written atomically:
/// what `import` reads back.
pub fn export_terrain(map: &Map, path: &Path) -> Result<(), String> {
    let colours = terrain_palette();
    let image = image::RgbImage::from_fn(map.width(), map.height(), |x, y| {
        let t = map.terrain[scryptic::Pos::new(x, y)];
        let (_, rgb) = colours
            .iter()
            .find(|(terrain, _)| *terrain == t)
            .copied()
            .unwrap_or((t, [0, 0, 0]));
        image::Rgb(rgb)
    });
    write_png(&image, path)
}

/// Writes `image` to `path` as a PNG, atomically.
fn write_png<P>(image: &image::ImageBuffer<P, Vec<u8>>, path: &Path) -> Result<(), String>
where
    P: image::Pixel<Subpixel = u8> + image::PixelWithColorType,
{
    let mut bytes = Vec::new();
    image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(|e| e.to_string())?;
    scryptic::fsutil::write_atomic(path, &bytes)
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Puts imported terrain on `map`, dropping cities, tokens and cell values that fall off.
pub fn apply_import(map: &mut Map, terrain: Grid<Terrain>) {
    map.cities.retain(|c| terrain.contains(c.at));
    map.tokens.retain(|t| terrain.contains(t.at));
    map.forest_density.retain(|p, _| terrain.contains(*p));
    map.ice_thickness.retain(|p, _| terrain.contains(*p));
    map.terrain = terrain;
}

/// Draws the map with its tileset (or flat colours) into a PNG, written atomically.
pub fn export(map: &Map, tileset: Option<&Tileset>, path: &Path) -> Result<(), String> {
    let rules = map
        .rule_set()
        .map_err(|_| "the map's rules do not resolve; fix them in Rules mode".to_string())?;
    let image = scryptic::render::render(
        map,
        &rules,
        tileset,
        &scryptic::render::RenderOptions::default(),
    );
    write_png(&image, path)
}

/// A picture from a pack (a thumbnail) decoded for the screen; `None` if it is not a PNG or
/// claims more than 4096 pixels a side (a small file can claim a huge picture).
pub fn decode_for_ui(bytes: &[u8]) -> Option<egui::ColorImage> {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(4096);
    limits.max_image_height = Some(4096);
    limits.max_alloc = Some(64 * 1024 * 1024);
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    reader.limits(limits);
    let rgba = reader.decode().ok()?.to_rgba8();
    let size = [rgba.width() as usize, rgba.height() as usize];
    Some(egui::ColorImage::from_rgba_unmultiplied(
        size,
        rgba.as_raw(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use scryptic::Pos;

    #[test]
    fn export_then_import_gives_the_terrain_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut map = Map::new("t", 6, 4);
        map.terrain.set(Pos::new(1, 2), Terrain::Water);
        map.terrain.set(Pos::new(5, 0), Terrain::Lava);
        let path = dir.path().join("m.png");
        // One pixel per cell: flat colours at 1 px.
        let rules = map.rule_set().unwrap();
        let options = scryptic::render::RenderOptions {
            cell_px: Some(1),
            ..Default::default()
        };
        scryptic::render::render(&map, &rules, None, &options)
            .save(&path)
            .unwrap();
        let grid = import(&path, &palette(None), 4096).unwrap();
        assert_eq!(grid, map.terrain);
        export(&map, None, &dir.path().join("out.png")).unwrap();
        assert!(import(&dir.path().join("missing.png"), &palette(None), 4096).is_err());
    }

    /// The terrain export reads back exactly, every terrain, whatever tileset the map draws
    /// with (the palette is the documented one, not the tileset's).
    #[test]
    fn a_terrain_png_round_trips_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let mut map = Map::new("t", 7, 5);
        map.tileset = "tilesets/stone/tileset.ron".into();
        for (i, t) in Terrain::ALL.iter().enumerate() {
            map.terrain.set(Pos::new(i as u32, (i % 5) as u32), *t);
        }
        let path = dir.path().join("t.png");
        export_terrain(&map, &path).unwrap();
        let back = import(&path, &terrain_palette(), 4096).unwrap();
        assert_eq!(back, map.terrain);
    }

    /// README documents the terrain palette as the code has it.
    #[test]
    fn the_readme_gives_the_terrain_palette() {
        let readme = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"),
        )
        .unwrap();
        for (terrain, [r, g, b]) in terrain_palette() {
            let hex = format!("{terrain} `#{r:02X}{g:02X}{b:02X}`");
            assert!(readme.contains(&hex), "README lacks {hex}");
        }
    }
}

//! Tilesets: the images a board is drawn with, listed in a RON manifest.
//!
//! The shipped `stone` tileset is generated here from seeded noise ([`generate`]); a user can
//! replace any PNG, or write a manifest of their own, and every client draws with it.

mod paint;
mod pieces;
mod stones;
mod wood;

use crate::board::{Owner, Player, Pos, Terrain};
use crate::diag::{FileError, LoadError};
use crate::noise::Noise;
use crate::rules::locate_key;
use crate::{fsutil, ronfile};
use image::{ImageFormat, RgbaImage};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The version of tileset manifests this build writes and reads.
pub const TILESET_FILE_VERSION: u32 = 1;

/// The manifest's file name inside a tileset folder.
pub const MANIFEST_NAME: &str = "tileset.ron";

/// The images of one terrain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainTiles {
    /// The flat colour (`#rrggbb`) used when the board is zoomed far out and on minimaps.
    pub colour: String,
    /// Image files, one per variant; cells pick a variant by position so a board does not
    /// look tiled.
    pub variants: Vec<String>,
}

/// A tileset manifest as written: image paths are relative to the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TilesetFile {
    /// The manifest format's version.
    pub version: u32,
    /// The tileset's name.
    pub name: String,
    /// What it looks like.
    #[serde(default)]
    pub description: String,
    /// The side of every tile in pixels (images of another size are scaled to it).
    pub tile_size: u32,
    /// Images of each terrain.
    pub terrain: BTreeMap<Terrain, TerrainTiles>,
    /// City tiles by owner.
    pub cities: BTreeMap<Owner, String>,
    /// Token jewels by token kind.
    pub tokens: BTreeMap<String, String>,
    /// Letter coins by player: the images for 1, 2, 3... pips.
    pub coins: BTreeMap<Player, Vec<String>>,
    /// The pieces of games a pack's Lua defines, by kind (`"brick"`): one image for each seat,
    /// in the order the rules name the seats (a seat past the list uses the last). The board
    /// draws the piece's value, or `?` where it is hidden, on its image.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pieces: BTreeMap<String, Vec<String>>,
}

/// A terrain's loaded images.
#[derive(Clone, Debug)]
pub struct TerrainImages {
    /// The flat colour, red, green, blue.
    pub colour: [u8; 3],
    /// The variants, each `tile_size` square.
    pub variants: Vec<RgbaImage>,
}

/// A loaded tileset: every image decoded and scaled to `tile_size`.
#[derive(Clone, Debug)]
pub struct Tileset {
    /// The tileset's name.
    pub name: String,
    /// The side of every tile in pixels.
    pub tile_size: u32,
    /// Images of each terrain.
    pub terrain: BTreeMap<Terrain, TerrainImages>,
    /// City tiles by owner.
    pub cities: BTreeMap<Owner, RgbaImage>,
    /// Token jewels by token kind.
    pub tokens: BTreeMap<String, RgbaImage>,
    /// Letter coins by player, for 1, 2, 3... pips.
    pub coins: BTreeMap<Player, Vec<RgbaImage>>,
    /// Pieces by kind, an image for each seat in the rules' order.
    pub pieces: BTreeMap<String, Vec<RgbaImage>>,
}

impl Tileset {
    /// The image of a `kind` piece of the seat at `seat_index` (the kind's last image for a
    /// seat past its list), if the tileset draws that kind.
    pub fn piece(&self, kind: &str, seat_index: usize) -> Option<&RgbaImage> {
        for_seat(self.pieces.get(kind)?, seat_index)
    }

    /// Loads a tileset manifest and every image it lists.
    pub fn load(path: &Path) -> Result<Tileset, LoadError> {
        let text = fsutil::read_text(path)?;
        Tileset::from_manifest_text(path, &text)
    }

    /// Reads the manifest text `text` of the file at `path`, and every image it lists (images
    /// are relative to the manifest's folder).
    pub fn from_manifest_text(path: &Path, text: &str) -> Result<Tileset, LoadError> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let read = |file: &str| {
            crate::fsutil::read_bytes_at_most(&dir.join(file), MAX_IMAGE_FILE_BYTES)
                .map_err(|e| e.to_string())
        };
        Tileset::from_manifest_with(path, text, &read)
    }

    /// Loads the tileset manifest `path` of a pack (`tilesets/stone/tileset.ron`) and its
    /// images from the pack's files.
    pub fn from_pack(files: &crate::pack::PackFiles, path: &str) -> Result<Tileset, LoadError> {
        let text = files.read_text(path)?;
        // Images are named from the manifest's folder, and stay inside the pack.
        let read = |file: &str| {
            let inside = crate::pack::files::relative_to(path, file)?;
            files
                .read_bytes(&inside, MAX_IMAGE_FILE_BYTES)
                .map_err(|e| e.to_string())
        };
        Tileset::from_manifest_with(&files.shown(path), &text, &read)
    }

    /// Reads the manifest `text` of `path`, its images through `read` (given each image's name
    /// as the manifest writes it).
    fn from_manifest_with(
        path: &Path,
        text: &str,
        read: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<Tileset, LoadError> {
        let file: TilesetFile = ronfile::parse(path, text)?;
        ImageLoader {
            path,
            text,
            read,
            problems: Vec::new(),
            images_read: 0,
        }
        .load(file)
    }

    /// Which variant of `terrain` is drawn at `pos`: always the same one for the same cell.
    pub fn variant_index(&self, terrain: Terrain, pos: Pos) -> Option<usize> {
        let n = self.terrain.get(&terrain)?.variants.len();
        let pick = Noise::new(0x5343_5259).scatter(i64::from(pos.x), i64::from(pos.y));
        (n > 0).then(|| (pick * n as f64) as usize % n)
    }

    /// The variant of `terrain` drawn at `pos`.
    pub fn variant_at(&self, terrain: Terrain, pos: Pos) -> Option<&RgbaImage> {
        let index = self.variant_index(terrain, pos)?;
        self.terrain.get(&terrain)?.variants.get(index)
    }

    /// The flat colour of `terrain`.
    pub fn colour(&self, terrain: Terrain) -> [u8; 3] {
        self.terrain
            .get(&terrain)
            .map_or([128, 128, 128], |t| t.colour)
    }
}

/// Loads the images of a manifest, collecting every problem rather than stopping at the first.
struct ImageLoader<'a> {
    path: &'a Path,
    text: &'a str,
    read: &'a dyn Fn(&str) -> Result<Vec<u8>, String>,
    problems: Vec<FileError>,
    images_read: usize,
}

impl ImageLoader<'_> {
    fn load(mut self, file: TilesetFile) -> Result<Tileset, LoadError> {
        if file.version != TILESET_FILE_VERSION {
            self.problem("version", format!("tileset version {} is not one this build reads (it reads {TILESET_FILE_VERSION})", file.version));
        }
        if !(8..=512).contains(&file.tile_size) {
            self.problem(
                "tile_size",
                format!(
                    "tile_size is {}; it must be from 8 to 512 pixels",
                    file.tile_size
                ),
            );
            return Err(LoadError::Problems(self.problems));
        }
        let size = file.tile_size;
        let mut terrain = BTreeMap::new();
        for t in Terrain::ALL {
            match file.terrain.get(&t) {
                Some(tiles) => {
                    let colour = self.colour(&tiles.colour);
                    let variants: Vec<RgbaImage> = tiles
                        .variants
                        .iter()
                        .filter_map(|f| self.image(f, size))
                        .collect();
                    if tiles.variants.is_empty() {
                        self.problem(
                            "terrain",
                            format!("{t} lists no images; give it at least one"),
                        );
                    }
                    terrain.insert(t, TerrainImages { colour, variants });
                }
                None => self.problem(
                    "terrain",
                    format!("`terrain` has no entry for {t}; every terrain needs images"),
                ),
            }
        }
        let cities = file
            .cities
            .iter()
            .filter_map(|(&o, f)| Some((o, self.image(f, size)?)))
            .collect();
        let tokens = file
            .tokens
            .iter()
            .filter_map(|(k, f)| Some((k.clone(), self.image(f, size)?)))
            .collect();
        let coins = file
            .coins
            .iter()
            .map(|(&p, files)| {
                (
                    p,
                    files.iter().filter_map(|f| self.image(f, size)).collect(),
                )
            })
            .collect();
        let pieces = self.piece_images(&file.pieces, size);
        if !self.problems.is_empty() {
            return Err(LoadError::Problems(self.problems));
        }
        Ok(Tileset {
            name: file.name,
            tile_size: size,
            terrain,
            cities,
            tokens,
            coins,
            pieces,
        })
    }

    /// Each piece kind's images; a kind's name is bounded as the scripts' names are.
    fn piece_images(
        &mut self,
        pieces: &BTreeMap<String, Vec<String>>,
        size: u32,
    ) -> BTreeMap<String, Vec<RgbaImage>> {
        let mut loaded = BTreeMap::new();
        for (kind, files) in pieces {
            let most = crate::limits::MAX_TABLE_NAME_CHARS;
            if kind.is_empty() || kind.chars().count() > most {
                self.problem(
                    "pieces",
                    format!("piece kind {kind:?} must have 1 to {most} characters, as a script's kinds do"),
                );
                continue;
            }
            if files.is_empty() {
                self.problem(
                    "pieces",
                    format!("piece kind {kind:?} lists no images; give one for each seat"),
                );
            }
            let images = files.iter().filter_map(|f| self.image(f, size)).collect();
            loaded.insert(kind.clone(), images);
        }
        loaded
    }

    fn problem(&mut self, key: &str, message: String) {
        self.problems.push(FileError::at(
            self.path,
            locate_key(self.text, key),
            message,
        ));
    }

    fn image(&mut self, file: &str, size: u32) -> Option<RgbaImage> {
        let at = self
            .text
            .find(&format!("\"{file}\""))
            .map(|i| crate::diag::line_col_of(self.text, i + 1));
        self.images_read += 1;
        let refusal = if self.images_read > MAX_IMAGES {
            Some(format!(
                "the tileset lists more than {MAX_IMAGES} images; keep to {MAX_IMAGES}"
            ))
        } else {
            crate::limits::relative_path_problem(file).map(|p| format!("image `{file}`: {p}"))
        };
        if let Some(message) = refusal {
            self.problems.push(FileError::at(self.path, at, message));
            return None;
        }
        match (self.read)(file).and_then(|bytes| decode_bounded(&bytes).map_err(|e| e.to_string()))
        {
            Ok(img) => {
                let img = img.to_rgba8();
                if img.dimensions() == (size, size) {
                    Some(img)
                } else {
                    Some(image::imageops::resize(
                        &img,
                        size,
                        size,
                        image::imageops::FilterType::Triangle,
                    ))
                }
            }
            Err(err) => {
                self.problems.push(FileError::at(
                    self.path,
                    at,
                    format!("image `{file}` cannot be read: {err}"),
                ));
                None
            }
        }
    }

    fn colour(&mut self, hex: &str) -> [u8; 3] {
        match parse_hex_colour(hex) {
            Some(c) => c,
            None => {
                let at = self
                    .text
                    .find(hex)
                    .map(|i| crate::diag::line_col_of(self.text, i));
                self.problems.push(FileError::at(
                    self.path,
                    at,
                    format!("colour {hex:?} is not of the form \"#rrggbb\""),
                ));
                [128, 128, 128]
            }
        }
    }
}

/// The image of the seat at `seat_index` among a piece kind's `images` (one a seat, in the
/// rules' order): a seat past the list takes the last.
pub fn for_seat<T>(images: &[T], seat_index: usize) -> Option<&T> {
    images.get(seat_index.min(images.len().checked_sub(1)?))
}

/// The most images a tileset manifest may list.
const MAX_IMAGES: usize = 1024;
/// The widest and tallest image a tileset may hold, in pixels.
const MAX_IMAGE_SIDE: u32 = 4096;
/// The most bytes decoding one image may allocate.
const MAX_IMAGE_ALLOC: u64 = 128 * 1024 * 1024;

/// The most bytes of one image file.
const MAX_IMAGE_FILE_BYTES: u64 = 32 * 1024 * 1024;

/// Decodes an image whose header promises no more than `MAX_IMAGE_SIDE` pixels a side and
/// whose decoding allocates no more than `MAX_IMAGE_ALLOC`: a tiny file can claim a
/// gigapixel image.
fn decode_bounded(bytes: &[u8]) -> image::ImageResult<image::DynamicImage> {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_IMAGE_ALLOC);
    let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes)).with_guessed_format()?;
    reader.limits(limits);
    reader.decode()
}

/// `#rrggbb` as red, green, blue.
pub fn parse_hex_colour(hex: &str) -> Option<[u8; 3]> {
    let digits = hex.strip_prefix('#')?;
    if digits.len() != 6 || !digits.is_ascii() {
        return None;
    }
    let part = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([part(0)?, part(2)?, part(4)?])
}

/// What a generated tileset's terrain is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Semi-precious stones set in brass, after the 2010 design document (`tilesets/stone`).
    #[default]
    Stone,
    /// Squares of stained wood, for board games (Scryper's board).
    Wood,
}

impl Style {
    /// The tileset's name and description as its manifest gives them.
    fn title(self) -> (&'static str, &'static str) {
        match self {
            Style::Stone => (
                "Stone",
                "Semi-precious stones set in brass, after the 2010 design document: honey onyx plains, malachite forest, lapis lazuli water, tiger eye mountains, white marble ice, red onyx lava; gold, silver and pewter cities; red, amber, blue and green jewels; gold and silver coins.",
            ),
            Style::Wood => (
                "Wood",
                "Squares of stained wood for board games: maple plains, green-stained forest, blue-stained water, walnut mountains, birch ice, cherry lava; gold, silver and pewter cities; red, amber, blue and green jewels; gold and silver coins; wooden blocks for the pieces named.",
            ),
        }
    }

    /// One variant of `terrain`'s tile.
    fn tile(self, terrain: Terrain, size: u32, seed: u64) -> RgbaImage {
        match self {
            Style::Stone => stones::stone(terrain, size, seed),
            Style::Wood => wood::square(terrain, size, seed),
        }
    }
}

/// A kind of piece to draw as wooden blocks, one colour for each seat in the rules' order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceColours {
    /// The kind, as the scripts name it (`brick`).
    pub kind: String,
    /// Each seat's colour, red, green, blue.
    pub colours: Vec<[u8; 3]>,
}

impl std::str::FromStr for PieceColours {
    type Err = String;

    /// `brick=#eeeadf,#8a5a35`: the kind, then each seat's colour.
    fn from_str(text: &str) -> Result<PieceColours, String> {
        let (kind, colours) = text.split_once('=').ok_or_else(|| {
            format!("{text:?} is not KIND=#rrggbb,#rrggbb (a colour for each seat)")
        })?;
        let colours = colours
            .split(',')
            .map(|c| {
                parse_hex_colour(c.trim())
                    .ok_or_else(|| format!("colour {c:?} is not of the form #rrggbb"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let kind_ok = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        if kind.trim().is_empty() || !kind.trim().chars().all(kind_ok) {
            return Err(format!(
                "{text:?}: the kind before `=` is made of letters, digits, `_` and `-` (it names files)"
            ));
        }
        Ok(PieceColours {
            kind: kind.trim().to_string(),
            colours,
        })
    }
}

/// How to generate a tileset.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// The seed: the same options always give the same images, byte for byte.
    pub seed: u64,
    /// Tile side in pixels.
    pub tile_size: u32,
    /// Variants per terrain.
    pub variants: u32,
    /// Stone or wood.
    pub style: Style,
    /// Pieces to draw as blocks.
    pub pieces: Vec<PieceColours>,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            seed: 2010,
            tile_size: 64,
            variants: 8,
            style: Style::Stone,
            pieces: Vec::new(),
        }
    }
}

/// Writes generated images into a folder, atomically, remembering what it wrote.
struct Writer<'a> {
    dir: &'a Path,
    written: Vec<PathBuf>,
}

impl Writer<'_> {
    fn save(&mut self, name: &str, img: &RgbaImage) -> std::io::Result<String> {
        let mut bytes = std::io::Cursor::new(Vec::new());
        img.write_to(&mut bytes, ImageFormat::Png)
            .map_err(std::io::Error::other)?;
        let path = self.dir.join(name);
        fsutil::write_atomic(&path, bytes.get_ref())?;
        self.written.push(path);
        Ok(name.to_string())
    }
}

/// Draws a tileset into `dir` (the stone one by default): every PNG and the manifest, each
/// written atomically. Returns the files written.
pub fn generate(dir: &Path, options: &GenerateOptions) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let size = options.tile_size.clamp(8, 512);
    let mut out = Writer {
        dir,
        written: Vec::new(),
    };
    let mut terrain = BTreeMap::new();
    for (t_index, t) in Terrain::ALL.into_iter().enumerate() {
        let mut variants = Vec::new();
        let mut colour = String::new();
        for v in 0..options.variants.max(1) {
            let seed = options
                .seed
                .wrapping_mul(1000)
                .wrapping_add(t_index as u64 * 100 + u64::from(v));
            let img = options.style.tile(t, size, seed);
            if v == 0 {
                colour = paint::average_hex(&img);
            }
            variants.push(out.save(&format!("{}_{v}.png", t.name()), &img)?);
        }
        terrain.insert(t, TerrainTiles { colour, variants });
    }
    let mut cities = BTreeMap::new();
    for (owner, metal, name) in [
        (Owner::Gold, pieces::GOLD, "city_gold.png"),
        (Owner::Silver, pieces::SILVER, "city_silver.png"),
        (Owner::Neutral, pieces::PEWTER, "city_pewter.png"),
    ] {
        cities.insert(owner, out.save(name, &pieces::city(size, metal))?);
    }
    let mut tokens = BTreeMap::new();
    for (kind, name, colour) in pieces::JEWELS {
        tokens.insert(
            kind.to_string(),
            out.save(name, &pieces::jewel(size, colour))?,
        );
    }
    let mut coins = BTreeMap::new();
    for (player, metal) in [
        (Player::Gold, pieces::GOLD),
        (Player::Silver, pieces::SILVER),
    ] {
        let mut names = Vec::new();
        for pips in 1..=3 {
            let name = format!("coin_{}_{pips}.png", player.name());
            names.push(out.save(&name, &pieces::coin(size, metal, pips))?);
        }
        coins.insert(player, names);
    }
    let blocks = generate_blocks(&mut out, options, size)?;
    let (name, description) = options.style.title();
    let manifest = TilesetFile {
        version: TILESET_FILE_VERSION,
        name: name.to_string(),
        description: description.to_string(),
        tile_size: size,
        terrain,
        cities,
        tokens,
        coins,
        pieces: blocks,
    };
    let text = ronfile::to_canonical(&manifest, 3).map_err(std::io::Error::other)?;
    let path = dir.join(MANIFEST_NAME);
    fsutil::write_atomic(&path, text.as_bytes())?;
    out.written.push(path);
    Ok(out.written)
}

/// The wooden blocks of every piece kind named, `KIND_1.png` for the first seat and so on.
fn generate_blocks(
    out: &mut Writer<'_>,
    options: &GenerateOptions,
    size: u32,
) -> std::io::Result<BTreeMap<String, Vec<String>>> {
    let mut blocks = BTreeMap::new();
    for piece in &options.pieces {
        let mut names = Vec::new();
        for (seat, &[r, g, b]) in piece.colours.iter().enumerate() {
            let seed = options.seed.wrapping_add(7 + seat as u64);
            let img = pieces::block(size, paint::rgb(r, g, b), seed);
            names.push(out.save(&format!("{}_{}.png", piece.kind, seat + 1), &img)?);
        }
        blocks.insert(piece.kind.clone(), names);
    }
    Ok(blocks)
}

/// A grey jewel, for token kinds a tileset has no image for (kinds scripts define).
pub fn fallback_jewel(size: u32) -> RgbaImage {
    pieces::jewel(size, paint::rgb(150, 150, 160))
}

/// A transparent tile, for pieces a tileset lacks.
pub fn blank_tile(size: u32) -> RgbaImage {
    pieces::blank(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_tileset_loads_and_is_deterministic() {
        let options = GenerateOptions {
            seed: 5,
            tile_size: 16,
            variants: 2,
            ..GenerateOptions::default()
        };
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let files = generate(a.path(), &options).unwrap();
        generate(b.path(), &options).unwrap();
        for f in &files {
            let name = f.file_name().unwrap();
            assert_eq!(
                std::fs::read(f).unwrap(),
                std::fs::read(b.path().join(name)).unwrap(),
                "{name:?}"
            );
        }
        let tileset = Tileset::load(&a.path().join(MANIFEST_NAME)).unwrap();
        assert_eq!(tileset.terrain.len(), 6);
        assert_eq!(tileset.terrain[&Terrain::Water].variants.len(), 2);
        assert_eq!(tileset.coins[&Player::Gold].len(), 3);
        assert!(tileset.tokens.contains_key("firestorm"));
        assert_ne!(
            tileset.colour(Terrain::Water),
            tileset.colour(Terrain::Lava)
        );
    }

    #[test]
    fn missing_images_and_bad_colours_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        generate(
            dir.path(),
            &GenerateOptions {
                seed: 5,
                tile_size: 16,
                variants: 1,
                ..GenerateOptions::default()
            },
        )
        .unwrap();
        std::fs::remove_file(dir.path().join("lava_0.png")).unwrap();
        let manifest = dir.path().join(MANIFEST_NAME);
        let text = std::fs::read_to_string(&manifest).unwrap();
        let water = Tileset::load(&manifest)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            water.contains("image `lava_0.png` cannot be read"),
            "{water}"
        );
        let colour_start = text.find("colour: \"#").unwrap() + 9;
        let broken = format!("{}#zz{}", &text[..colour_start], &text[colour_start + 3..]);
        std::fs::write(&manifest, broken).unwrap();
        let err = Tileset::load(&manifest).unwrap_err().to_string();
        assert!(err.contains("is not of the form \"#rrggbb\""), "{err}");
    }

    #[test]
    fn pieces_load_by_seat_and_bad_kinds_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let options = GenerateOptions {
            tile_size: 16,
            variants: 1,
            style: Style::Wood,
            pieces: vec!["brick=#eeeadf,#8a5a35".parse().unwrap()],
            ..GenerateOptions::default()
        };
        generate(dir.path(), &options).unwrap();
        let manifest = dir.path().join(MANIFEST_NAME);
        let tileset = Tileset::load(&manifest).unwrap();
        assert_eq!(tileset.name, "Wood");
        assert_eq!(tileset.pieces["brick"].len(), 2);
        let text = std::fs::read_to_string(&manifest).unwrap();
        let long = "k".repeat(crate::limits::MAX_TABLE_NAME_CHARS + 1);
        for (kind, images, said) in [
            (long.as_str(), "\"brick_1.png\"", "must have 1 to"),
            ("pawn", "", "lists no images"),
            ("pawn", "\"../brick_1.png\"", "image `../brick_1.png`"),
        ] {
            let broken = text.replace(
                "pieces: {",
                &format!("pieces: {{\n        \"{kind}\": [{images}],"),
            );
            std::fs::write(&manifest, broken).unwrap();
            let err = Tileset::load(&manifest).unwrap_err().to_string();
            assert!(err.contains(said), "{kind}: {err}");
            assert!(
                err.contains("tileset.ron:"),
                "{kind}: a place in the file: {err}"
            );
        }
        for bad in ["brick", "=#ffffff", "a/b=#ffffff", "brick=#fff"] {
            assert!(bad.parse::<PieceColours>().is_err(), "{bad}");
        }
    }

    #[test]
    fn hex_colours() {
        assert_eq!(parse_hex_colour("#0a10ff"), Some([10, 16, 255]));
        assert_eq!(parse_hex_colour("0a10ff"), None);
        assert_eq!(parse_hex_colour("#0a10f"), None);
        assert_eq!(parse_hex_colour("#éé10ff"), None);
    }
}

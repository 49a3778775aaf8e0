//! The map file: its RON schema, its versions, and the conversion to and from [`Map`].

use super::{CellValue, Legend, Map, Scenario, default_legend};
use crate::board::{City, Grid, Pos, Terrain, TokenSpot};
use crate::diag::{FileError, LoadError, line_col_of};
use crate::ronfile;
use crate::rules::{RuleSet, RuleSpec, locate_key, locate_problems};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The version of map files this build writes. Older versions are migrated on load.
pub const MAP_FILE_VERSION: u32 = 1;

/// How many unknown terrain characters are listed before the rest are only counted.
const MAX_LISTED_UNKNOWN_CHARS: usize = 20;

/// A map's size in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Size {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// The map file as written: what serde reads and writes.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MapFile {
    pub(super) version: u32,
    pub(super) name: String,
    #[serde(default)]
    pub(super) author: String,
    #[serde(default)]
    pub(super) description: String,
    pub(super) size: Size,
    #[serde(default = "default_legend")]
    pub(super) legend: Legend,
    pub(super) terrain: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) forest_density: Vec<CellValue>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) ice_thickness: Vec<CellValue>,
    #[serde(default)]
    pub(super) cities: Vec<City>,
    #[serde(default)]
    pub(super) tokens: Vec<TokenSpot>,
    #[serde(default)]
    pub(super) rules: RuleSpec,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) scripts: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(super) tileset: String,
    #[serde(default, skip_serializing_if = "Scenario::is_empty")]
    pub(super) scenario: Scenario,
}

impl Serialize for Map {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        map_file(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Map {
    /// A map inside another file (a save, a test scenario): its problems are reported
    /// without positions, as the enclosing file's parse error.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        let file = MapFile::deserialize(deserializer)?;
        build_map(Path::new("(embedded map)"), "", file)
            .map_err(|e| serde::de::Error::custom(e.problems().join("; ")))
    }
}

/// Only the version, read first so that a file from a newer build is refused by its version
/// rather than by whatever field it added.
#[derive(Deserialize)]
struct VersionProbe {
    version: Option<u32>,
}

pub(super) fn parse_map(path: &Path, text: &str) -> Result<Map, LoadError> {
    check_version(path, text)?;
    let file: MapFile = ronfile::parse(path, text)?;
    build_map(path, text, file)
}

fn check_version(path: &Path, text: &str) -> Result<(), LoadError> {
    let Ok(VersionProbe {
        version: Some(version),
    }) = ronfile::options().from_str(text)
    else {
        // The full parse says what is wrong, with a better position.
        return Ok(());
    };
    let message = if version > MAP_FILE_VERSION {
        format!(
            "map file version {version} was made by a newer Scryptic; this build reads versions 1 to {MAP_FILE_VERSION}; update Scryptic to open it"
        )
    } else if version == 0 {
        format!("map file version 0 does not exist; the current version is {MAP_FILE_VERSION}")
    } else {
        return Ok(());
    };
    Err(LoadError::one(FileError::at(
        path,
        locate_key(text, "version"),
        message,
    )))
}

fn build_map(path: &Path, text: &str, file: MapFile) -> Result<Map, LoadError> {
    let mut problems = Vec::new();
    let rules = RuleSet::from_spec(&file.rules)
        .map_err(|found| problems.extend(locate_problems(path, text, &found)))
        .ok();
    if let Some(rules) = &rules {
        check_size(path, text, file.size, rules, &mut problems);
    }
    check_legend(path, text, &file.legend, &mut problems);
    let terrain = if problems.is_empty() {
        read_terrain(path, text, &file, &mut problems)
    } else {
        None
    };
    super::bounds::check_bounds(path, text, &file, rules.as_ref(), &mut problems);
    let forest_density = cell_values(
        path,
        text,
        "forest_density",
        &file.forest_density,
        &mut problems,
    );
    let ice_thickness = cell_values(
        path,
        text,
        "ice_thickness",
        &file.ice_thickness,
        &mut problems,
    );
    match terrain {
        Some(terrain) if problems.is_empty() => Ok(Map {
            name: file.name,
            author: file.author,
            description: file.description,
            legend: file.legend,
            terrain,
            forest_density,
            ice_thickness,
            cities: file.cities,
            tokens: file.tokens,
            rules: file.rules,
            scripts: file.scripts,
            tileset: file.tileset,
            scenario: file.scenario,
        }),
        _ => Err(LoadError::Problems(problems)),
    }
}

fn check_size(path: &Path, text: &str, size: Size, rules: &RuleSet, out: &mut Vec<FileError>) {
    let (min, max) = (rules.board.min_side, rules.board.max_side);
    let fits = |side: u32| (min..=max).contains(&i64::from(side));
    if !fits(size.width) || !fits(size.height) {
        out.push(FileError::at(
            path,
            locate_key(text, "size"),
            format!(
                "the map is {}x{}; under these rules a map is from {min} to {max} cells on each side",
                size.width, size.height
            ),
        ));
    }
}

fn check_legend(path: &Path, text: &str, legend: &Legend, out: &mut Vec<FileError>) {
    let at = locate_key(text, "legend");
    for (&ch, &terrain) in legend {
        if ch.is_whitespace() || ch.is_control() || ch == '"' || ch == '\\' {
            out.push(FileError::at(
                path,
                at,
                format!("the legend uses {ch:?} for {terrain}; use a visible character other than a quote or backslash"),
            ));
        }
    }
    for terrain in Terrain::ALL {
        let chars: Vec<String> = legend
            .iter()
            .filter(|&(_, &t)| t == terrain)
            .map(|(c, _)| format!("'{c}'"))
            .collect();
        if chars.len() > 1 {
            out.push(FileError::at(
                path,
                at,
                format!(
                    "the legend gives {terrain} {} characters ({}); keep one",
                    chars.len(),
                    chars.join(", ")
                ),
            ));
        }
    }
}

fn read_terrain(
    path: &Path,
    text: &str,
    file: &MapFile,
    out: &mut Vec<FileError>,
) -> Option<Grid<Terrain>> {
    let Size { width, height } = file.size;
    if file.terrain.len() != height as usize {
        out.push(FileError::at(
            path,
            locate_key(text, "terrain"),
            format!(
                "`terrain` has {} rows; the map's size says it is {height} high",
                file.terrain.len()
            ),
        ));
        return None;
    }
    let row_starts = string_starts_after_key(text, "terrain");
    let row_place = |y: usize, byte: usize| {
        row_starts
            .get(y)
            .map(|&start| line_col_of(text, start + byte))
    };
    let mut cells = Vec::with_capacity(width as usize * height as usize);
    let mut unknown = 0usize;
    for (y, row) in file.terrain.iter().enumerate() {
        let n = row.chars().count();
        if n != width as usize {
            out.push(FileError::at(
                path,
                row_place(y, 0),
                format!("row {y} has {n} cells; the map's size says it is {width} wide"),
            ));
            continue;
        }
        for (x, (byte, ch)) in row.char_indices().enumerate() {
            match file.legend.get(&ch) {
                Some(&t) => cells.push(t),
                None => {
                    unknown += 1;
                    if unknown <= MAX_LISTED_UNKNOWN_CHARS {
                        out.push(FileError::at(
                            path,
                            row_place(y, byte),
                            format!(
                                "{ch:?} at ({x}, {y}) is not in the legend; {}",
                                describe_legend(&file.legend)
                            ),
                        ));
                    }
                }
            }
        }
    }
    if unknown > MAX_LISTED_UNKNOWN_CHARS {
        out.push(FileError::whole(
            path,
            format!(
                "and {} more characters not in the legend",
                unknown - MAX_LISTED_UNKNOWN_CHARS
            ),
        ));
    }
    if out.is_empty() {
        Grid::from_cells(width, height, cells)
    } else {
        None
    }
}

fn describe_legend(legend: &Legend) -> String {
    let entries: Vec<String> = legend.iter().map(|(c, t)| format!("'{c}' {t}")).collect();
    format!("the legend has {}", entries.join(", "))
}

fn cell_values(
    path: &Path,
    text: &str,
    key: &str,
    values: &[CellValue],
    out: &mut Vec<FileError>,
) -> BTreeMap<Pos, i64> {
    let mut map = BTreeMap::new();
    for v in values {
        if map.insert(v.at, v.value).is_some() {
            out.push(FileError::at(
                path,
                locate_key(text, key),
                format!("`{key}` lists {} twice; keep one", v.at),
            ));
        }
    }
    map
}

/// Byte offsets of the contents of each string literal in the list that follows `key:`.
fn string_starts_after_key(text: &str, key: &str) -> Vec<usize> {
    let Some(key_start) = crate::rules::key_offset(text, key) else {
        return Vec::new();
    };
    let mut starts = Vec::new();
    let mut chars = text[key_start..].char_indices().peekable();
    let mut depth = 0i32;
    while let Some((i, ch)) = chars.next() {
        match ch {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth <= 0 {
                    break;
                }
            }
            '/' if chars.peek().is_some_and(|&(_, c)| c == '/') => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                starts.push(key_start + i + 1);
                let mut escaped = false;
                for (_, c) in chars.by_ref() {
                    match (escaped, c) {
                        (false, '\\') => escaped = true,
                        (false, '"') => break,
                        _ => escaped = false,
                    }
                }
            }
            _ => {}
        }
    }
    starts
}

pub(super) fn write_map(map: &Map) -> String {
    ronfile::to_canonical(&map_file(map), 2)
        .unwrap_or_else(|err| format!("// cannot write the map: {err}\n"))
}

fn map_file(map: &Map) -> MapFile {
    let legend = legend_for_saving(map);
    let char_of: BTreeMap<Terrain, char> = legend.iter().map(|(&c, &t)| (t, c)).collect();
    let terrain = (0..map.height())
        .filter_map(|y| map.terrain.row(y))
        .map(|row| row.iter().map(|t| char_of[t]).collect())
        .collect();
    let cell_values = |values: &BTreeMap<Pos, i64>| {
        values
            .iter()
            .map(|(&at, &value)| CellValue { at, value })
            .collect()
    };
    MapFile {
        version: MAP_FILE_VERSION,
        name: map.name.clone(),
        author: map.author.clone(),
        description: map.description.clone(),
        size: Size {
            width: map.width(),
            height: map.height(),
        },
        legend,
        terrain,
        forest_density: cell_values(&map.forest_density),
        ice_thickness: cell_values(&map.ice_thickness),
        cities: map.cities.clone(),
        tokens: map.tokens.clone(),
        rules: map.rules.clone(),
        scripts: map.scripts.clone(),
        tileset: map.tileset.clone(),
        scenario: map.scenario.clone(),
    }
}

/// The map's legend with one character for every terrain, adding a free character for any
/// terrain the legend lacks (a map painted with a terrain its file never had).
fn legend_for_saving(map: &Map) -> Legend {
    let mut legend: Legend = BTreeMap::new();
    for terrain in Terrain::ALL {
        if let Some(c) = map.legend_char(terrain) {
            legend.insert(c, terrain);
        }
    }
    for terrain in Terrain::ALL {
        if legend.values().any(|&t| t == terrain) {
            continue;
        }
        let free = std::iter::once(terrain.default_char())
            .chain('A'..='Z')
            .chain('0'..='9')
            .find(|c| !legend.contains_key(c));
        if let Some(c) = free {
            legend.insert(c, terrain);
        }
    }
    legend
}

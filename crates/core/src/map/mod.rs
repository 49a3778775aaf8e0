//! Maps: the terrain, cities, token spots, rules, scripts and scenario of a level.
//!
//! A map is stored as RON (see `file`), with terrain as rows of one character per cell so
//! that a diff shows the cells that changed. Loading reports every problem it can with
//! file:line:column; [`validate`] reports design problems with their cells.

mod bounds;
mod file;
mod generate;
mod validate;

pub use file::{MAP_FILE_VERSION, Size};
pub use generate::{GenerateError, GenerateOptions, generate};
pub use validate::{ValidationContext, validate};

use crate::board::{City, Grid, Player, Pos, Terrain, TokenSpot};
use crate::diag::LoadError;
use crate::fsutil;
use crate::rules::{RuleSet, RuleSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Which character stands for which terrain in a map's rows.
pub type Legend = BTreeMap<char, Terrain>;

/// The direction a word is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Direction {
    /// Left to right.
    Across,
    /// Top to bottom.
    Down,
}

impl Direction {
    /// The position `i` cells from `start` in this direction, if it does not overflow.
    pub fn step(self, start: Pos, i: u32) -> Option<Pos> {
        match self {
            Direction::Across => start.x.checked_add(i).map(|x| Pos::new(x, start.y)),
            Direction::Down => start.y.checked_add(i).map(|y| Pos::new(start.x, y)),
        }
    }
}

/// Letters of one player already on the board when a scenario starts, written as a word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedWord {
    /// Whose letters they are.
    pub player: Player,
    /// The cell of the first letter.
    pub at: Pos,
    /// Across or down.
    pub dir: Direction,
    /// The letters, uppercase (one letter places a single letter).
    pub text: String,
}

impl PlacedWord {
    /// Each letter with its cell (letters whose cell would overflow are left out).
    pub fn letters(&self) -> impl Iterator<Item = (Pos, char)> + '_ {
        self.text
            .chars()
            .enumerate()
            .filter_map(|(i, ch)| Some((self.dir.step(self.at, u32::try_from(i).ok()?)?, ch)))
    }
}

/// A fixed start for campaigns, puzzles and tests: letters already on the board, fixed racks,
/// fixed pool orders, and who moves first. Anything left empty starts as in a normal game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Scenario {
    /// Letters on the board at the start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub words: Vec<PlacedWord>,
    /// Starting racks, replacing the first draw.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub racks: BTreeMap<Player, String>,
    /// Pools in the order they are drawn (first letter drawn first), replacing the shuffle.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub pools: BTreeMap<Player, String>,
    /// The shared pool in the order it is drawn (first letter drawn first), replacing the
    /// shuffle, where `supply.pool` is Shared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_pool: Option<String>,
    /// Who takes the first turn (gold when left out); a match sets it for each round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<Player>,
}

impl Scenario {
    /// Whether the scenario sets nothing.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
            && self.racks.is_empty()
            && self.pools.is_empty()
            && self.shared_pool.is_none()
            && self.first.is_none()
    }

    /// Who takes the first turn.
    pub fn first_player(&self) -> Player {
        self.first.unwrap_or(Player::Gold)
    }
}

/// A cell value that differs from the rule set's default (forest density, ice thickness).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellValue {
    /// The cell.
    pub at: Pos,
    /// Its value.
    pub value: i64,
}

/// A level: terrain, cities, token spots, and what to play it with.
#[derive(Clone, Debug, PartialEq)]
pub struct Map {
    /// The map's title.
    pub name: String,
    /// Who made it.
    pub author: String,
    /// What it is about, for the level browser.
    pub description: String,
    /// Which character stands for which terrain when the map is saved.
    pub legend: Legend,
    /// The terrain of every cell.
    pub terrain: Grid<Terrain>,
    /// Forest cells whose density is not the rule set's default.
    pub forest_density: BTreeMap<Pos, i64>,
    /// Ice cells whose thickness is not the rule set's default.
    pub ice_thickness: BTreeMap<Pos, i64>,
    /// The cities, in the order the map lists them.
    pub cities: Vec<City>,
    /// The token spots, in the order the map lists them.
    pub tokens: Vec<TokenSpot>,
    /// The rules: a preset plus overrides.
    pub rules: RuleSpec,
    /// Lua scripts, as paths relative to the map file.
    pub scripts: Vec<String>,
    /// The tileset manifest, as a path relative to the map file (empty: the default tileset).
    pub tileset: String,
    /// Letters, racks and pools fixed at the start.
    pub scenario: Scenario,
}

/// The legend a new map starts with: each terrain's default character.
pub fn default_legend() -> Legend {
    Terrain::ALL
        .iter()
        .map(|&t| (t.default_char(), t))
        .collect()
}

impl Map {
    /// A blank map of plains with the default legend and the `classic` rules.
    pub fn new(name: impl Into<String>, width: u32, height: u32) -> Map {
        Map {
            name: name.into(),
            author: String::new(),
            description: String::new(),
            legend: default_legend(),
            terrain: Grid::new(width, height, Terrain::Plains),
            forest_density: BTreeMap::new(),
            ice_thickness: BTreeMap::new(),
            cities: Vec::new(),
            tokens: Vec::new(),
            rules: RuleSpec::default(),
            scripts: Vec::new(),
            tileset: String::new(),
            scenario: Scenario::default(),
        }
    }

    /// Loads a map file, reporting every problem found with file:line:column.
    pub fn load(path: &Path) -> Result<Map, LoadError> {
        let text = fsutil::read_text(path)?;
        Map::from_text(path, &text)
    }

    /// Parses the text of a map file; `path` names it in error messages.
    pub fn from_text(path: &Path, text: &str) -> Result<Map, LoadError> {
        file::parse_map(path, text)
    }

    /// The map in its canonical RON form: the same map always gives the same bytes.
    pub fn to_ron(&self) -> String {
        file::write_map(self)
    }

    /// Saves the map atomically (a crash leaves the old file or the new one, whole).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        fsutil::write_atomic(path, self.to_ron().as_bytes())
    }

    /// The canonical text with the `//` comments of `original` (the file as it was written)
    /// put back where they belong (see `ronfile::keep_comments`).
    pub fn to_ron_keeping_comments(&self, original: &str) -> String {
        crate::ronfile::keep_comments(original, &self.to_ron())
    }

    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.terrain.width()
    }

    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.terrain.height()
    }

    /// The rule set the map plays with (its preset plus its overrides), validated.
    pub fn rule_set(&self) -> Result<RuleSet, Vec<crate::rules::RuleProblem>> {
        RuleSet::from_spec(&self.rules)
    }

    /// The forest density at `pos` under `rules` (its own value, else the default).
    pub fn forest_density_at(&self, pos: Pos, rules: &RuleSet) -> i64 {
        self.forest_density
            .get(&pos)
            .copied()
            .unwrap_or(rules.board.default_forest_density)
    }

    /// The ice thickness at `pos` under `rules` (its own value, else the default).
    pub fn ice_thickness_at(&self, pos: Pos, rules: &RuleSet) -> i64 {
        self.ice_thickness
            .get(&pos)
            .copied()
            .unwrap_or(rules.board.default_ice_thickness)
    }

    /// The city on `pos`, if any.
    pub fn city_at(&self, pos: Pos) -> Option<&City> {
        self.cities.iter().find(|c| c.at == pos)
    }

    /// The token spot on `pos`, if any.
    pub fn token_at(&self, pos: Pos) -> Option<&TokenSpot> {
        self.tokens.iter().find(|t| t.at == pos)
    }

    /// How many cells of each terrain the map has, in [`Terrain::ALL`] order.
    pub fn terrain_counts(&self) -> [(Terrain, usize); 6] {
        let mut counts = [0usize; 6];
        for &t in self.terrain.cells() {
            counts[t as usize] += 1;
        }
        Terrain::ALL.map(|t| (t, counts[t as usize]))
    }

    /// The character that stands for `terrain` when saving: the legend's, or a new one.
    pub fn legend_char(&self, terrain: Terrain) -> Option<char> {
        self.legend
            .iter()
            .find(|&(_, &t)| t == terrain)
            .map(|(&c, _)| c)
    }
}

#[cfg(test)]
mod tests;

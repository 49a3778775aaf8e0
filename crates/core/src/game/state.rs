//! What a game holds in play: the board (terrain, letters, cities, token spots), each
//! player's rack, pool and score, and the words as the engine sees them.

use super::words::{Tile, Word};
use crate::board::{Grid, Owner, Player, Pos, Terrain};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Something on a rack: a letter, or a captured token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum RackItem {
    /// A letter, uppercase.
    Letter(char),
    /// A captured token, by spot id and kind.
    Token {
        /// The token spot's id.
        id: String,
        /// Its kind.
        kind: String,
    },
}

/// A city in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CityState {
    /// Its id (shared between copies of the game: an AI copies the game for every placement
    /// it weighs).
    pub id: std::sync::Arc<str>,
    /// Its name (shared between copies, as the id).
    pub name: std::sync::Arc<str>,
    /// Its cell.
    pub at: Pos,
    /// Who holds it.
    pub owner: Owner,
    /// Whether lava destroyed it.
    pub destroyed: bool,
    /// Its own capture bonus, if the map gives it one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i64>,
}

/// A token spot in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TokenState {
    /// Its id (shared between copies of the game, as a city's).
    pub id: std::sync::Arc<str>,
    /// Its kind (shared between copies, as the id).
    pub kind: std::sync::Arc<str>,
    /// Its cell.
    pub at: Pos,
    /// Who captured it, once captured (the spot stays visible).
    pub captured_by: Option<Player>,
}

impl TokenState {
    /// Whether it was captured.
    pub fn captured(&self) -> bool {
        self.captured_by.is_some()
    }
}

/// The board in play: terrain (which changes), letters, cities and token spots.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Board {
    /// Terrain of every cell.
    pub terrain: Grid<Terrain>,
    /// Forest density of every cell (meaningful on forest).
    pub density: Grid<i64>,
    /// Ice thickness of every cell (meaningful on ice).
    pub thickness: Grid<i64>,
    /// The letter on every cell.
    pub letters: super::Letters,
    /// The cities.
    pub cities: Vec<CityState>,
    /// The token spots.
    pub tokens: Vec<TokenState>,
}

impl Board {
    /// Whether `pos` is a city (not destroyed) that `player` owns.
    pub fn owns_city_at(&self, player: Player, pos: Pos) -> bool {
        self.cities
            .iter()
            .any(|c| c.at == pos && !c.destroyed && c.owner == Owner::from(player))
    }

    /// The cells of the cities `player` owns.
    pub fn city_cells(&self, player: Player) -> impl Iterator<Item = Pos> + '_ {
        self.cities
            .iter()
            .filter(move |c| !c.destroyed && c.owner == Owner::from(player))
            .map(|c| c.at)
    }

    /// How many cities `player` owns.
    pub fn cities_of(&self, player: Player) -> usize {
        self.cities
            .iter()
            .filter(|c| !c.destroyed && c.owner == Owner::from(player))
            .count()
    }

    pub(super) fn tile(&self, pos: Pos) -> Option<Tile> {
        self.letters.get(pos).copied().flatten()
    }

    /// Whether any letter stands on the board.
    pub fn has_letters(&self) -> bool {
        self.letters.cells().iter().any(Option::is_some)
    }

    /// How many letters stand on the board.
    pub fn letter_count(&self) -> usize {
        self.letters.cells().iter().flatten().count()
    }
}

/// One player's letters and score.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlayerState {
    /// Letters left to draw, first drawn first.
    pub pool: VecDeque<char>,
    /// The rack.
    pub rack: Vec<RackItem>,
    /// Combat gains, city bonuses and script awards.
    pub base_score: i64,
    /// Spies used.
    pub spies_used: i64,
    /// Turns begun.
    pub turns_started: u32,
    /// Letters of this player removed from the game (lost in combat, ice, effects, discards).
    pub lost: usize,
}

impl PlayerState {
    /// The tokens on the rack: each spot's id and kind.
    pub fn tokens(&self) -> impl Iterator<Item = (&str, &str)> {
        self.rack.iter().filter_map(|i| match i {
            RackItem::Token { id, kind } => Some((id.as_str(), kind.as_str())),
            RackItem::Letter(_) => None,
        })
    }
}

/// A player's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// The sum of the face values of the player's valid words.
    pub word: i64,
    /// Combat gains, city bonuses and script awards.
    pub base: i64,
    /// Word score plus base score.
    pub total: i64,
}

/// A word as the engine sees it now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WordInfo {
    /// The word.
    pub word: Word,
    /// In the dictionary and not defeated or left as a fragment.
    pub valid: bool,
    /// Joined to a city its player owns.
    pub connected: bool,
    /// Face value.
    pub face: i64,
    /// Connotations.
    pub connotations: Vec<String>,
}

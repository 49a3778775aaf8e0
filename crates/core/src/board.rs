//! Positions, terrain, cities, token spots and the grid that holds them.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;

/// A cell position: column `x` and row `y`, counted from 0 at the top-left corner.
///
/// Positions order row by row (by `y`, then `x`), the order in which a map's rows are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Pos {
    /// Column, from 0 on the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
}

impl Pos {
    /// The position at column `x`, row `y`.
    pub const fn new(x: u32, y: u32) -> Self {
        Pos { x, y }
    }
}

impl Ord for Pos {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Pos {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The landscape of one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Terrain {
    /// Open ground: no effect on play.
    Plains,
    /// Woods that a word must be strong enough to cut through.
    Forest,
    /// A word may cross water, but its ends must be on land.
    Water,
    /// High ground: letters on it are stronger.
    Mountain,
    /// Land that gives way under heavy letters.
    Ice,
    /// Impassable: no letter may be placed on it.
    Lava,
}

impl Terrain {
    /// Every terrain, in a fixed order (the order of legends, palettes and tilesets).
    pub const ALL: [Terrain; 6] = [
        Terrain::Plains,
        Terrain::Forest,
        Terrain::Water,
        Terrain::Mountain,
        Terrain::Ice,
        Terrain::Lava,
    ];

    /// The lowercase name used in messages and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Plains => "plains",
            Terrain::Forest => "forest",
            Terrain::Water => "water",
            Terrain::Mountain => "mountain",
            Terrain::Ice => "ice",
            Terrain::Lava => "lava",
        }
    }

    /// The character that stands for this terrain in a new map's legend.
    pub const fn default_char(self) -> char {
        match self {
            Terrain::Plains => '.',
            Terrain::Forest => 'f',
            Terrain::Water => '~',
            Terrain::Mountain => '^',
            Terrain::Ice => '*',
            Terrain::Lava => 'x',
        }
    }

    /// Land is everything a word may end on: not water and not lava (ice counts as land).
    pub const fn is_land(self) -> bool {
        !matches!(self, Terrain::Water | Terrain::Lava)
    }

    /// The terrain with this lowercase name, if there is one.
    pub fn from_name(name: &str) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A seat at the table: one of the players. Scryptic and the two-player modes seat gold and
/// silver; a mode for more players seats them in order (seat 3 and on). Gold moves first
/// unless a scenario says otherwise.
///
/// Files and saves name seats as they always named the two players (`Gold`, `Silver`, then
/// `Seat3` to `Seat8`), and code names the two the same way (`Player::Gold`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Player(Seat);

/// A seat's number as a closed set, so that `Option<Player>` and the board's tiles stay as
/// small as when there were two players (the values past the last seat are free for `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
enum Seat {
    S1,
    S2,
    S3,
    S4,
    S5,
    S6,
    S7,
    S8,
}

/// Every seat, in order.
const SEATS: [Seat; MAX_SEATS] = [
    Seat::S1,
    Seat::S2,
    Seat::S3,
    Seat::S4,
    Seat::S5,
    Seat::S6,
    Seat::S7,
    Seat::S8,
];

/// The most seats a mode may have.
pub const MAX_SEATS: usize = 8;

/// The seats' names in files, in order.
const SEAT_NAMES: [&str; MAX_SEATS] = [
    "Gold", "Silver", "Seat3", "Seat4", "Seat5", "Seat6", "Seat7", "Seat8",
];

/// The seats' names in messages and in Lua, in order.
const SEAT_WORDS: [&str; MAX_SEATS] = [
    "gold", "silver", "seat3", "seat4", "seat5", "seat6", "seat7", "seat8",
];

#[allow(
    non_upper_case_globals,
    reason = "the two players keep the names files, saves and code have always given them"
)]
impl Player {
    /// Player 1, who moves first.
    pub const Gold: Player = Player(Seat::S1);
    /// Player 2.
    pub const Silver: Player = Player(Seat::S2);

    /// Both players of a two-player game, in turn order.
    pub const BOTH: [Player; 2] = [Player::Gold, Player::Silver];

    /// Seat `index` (from 0), if there is such a seat.
    pub const fn seat(index: usize) -> Option<Player> {
        if index < MAX_SEATS {
            Some(Player(SEATS[index]))
        } else {
            None
        }
    }

    /// The seat's number, from 0 (gold) on.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The player's place in a two-player game's pairs (scores, racks, seats): gold's is 0,
    /// silver's 1. The two-player game seats no one else (files naming another seat are
    /// refused), and any other seat reads as silver's, so that nothing indexes past a pair.
    pub const fn in_pair(self) -> usize {
        if matches!(self.0, Seat::S1) { 0 } else { 1 }
    }

    /// The lowercase name used in messages.
    pub const fn name(self) -> &'static str {
        SEAT_WORDS[self.0 as usize]
    }

    /// The seat whose lowercase name is `word` (`gold`, `silver`, `seat3`...).
    pub fn from_name(word: &str) -> Option<Player> {
        let index = SEAT_WORDS.iter().position(|w| *w == word)?;
        Player::seat(index)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(SEAT_NAMES[self.index()])
    }
}

/// A seat as files write it: a unit variant, so that `Gold` reads and writes as it always did.
#[derive(Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
enum SeatName {
    Gold,
    Silver,
    Seat3,
    Seat4,
    Seat5,
    Seat6,
    Seat7,
    Seat8,
}

impl SeatName {
    const ALL: [SeatName; MAX_SEATS] = [
        SeatName::Gold,
        SeatName::Silver,
        SeatName::Seat3,
        SeatName::Seat4,
        SeatName::Seat5,
        SeatName::Seat6,
        SeatName::Seat7,
        SeatName::Seat8,
    ];
}

impl Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SeatName::ALL[self.index()].serialize(serializer)
    }
}

/// A seat's schema is its name's: `Gold`, `Silver`, `Seat3` to `Seat8`.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for Player {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Player".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SeatName::json_schema(generator)
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        let name = SeatName::deserialize(deserializer)?;
        Ok(Player(SEATS[name as usize]))
    }
}

/// Who holds a city: a player, or nobody (a pewter city).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Owner {
    /// Held by player 1.
    Gold,
    /// Held by player 2.
    Silver,
    /// Held by nobody yet.
    Neutral,
}

impl Owner {
    /// Every owner, in a fixed order.
    pub const ALL: [Owner; 3] = [Owner::Gold, Owner::Silver, Owner::Neutral];

    /// The player, if a player owns it.
    pub const fn player(self) -> Option<Player> {
        match self {
            Owner::Gold => Some(Player::Gold),
            Owner::Silver => Some(Player::Silver),
            Owner::Neutral => None,
        }
    }

    /// The lowercase name used in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Owner::Gold => "gold",
            Owner::Silver => "silver",
            Owner::Neutral => "neutral",
        }
    }

    /// The other player's (a neutral city stays neutral): who holds a city's mirror image on
    /// a map fair to both players.
    pub const fn swapped(self) -> Owner {
        match self {
            Owner::Gold => Owner::Silver,
            Owner::Silver => Owner::Gold,
            Owner::Neutral => Owner::Neutral,
        }
    }
}

impl From<Player> for Owner {
    /// Gold's and silver's cities are theirs; cities belong to the two-player game alone, so
    /// any other seat reads as holding none (neutral).
    fn from(player: Player) -> Owner {
        match player {
            Player::Gold => Owner::Gold,
            Player::Silver => Owner::Silver,
            _ => Owner::Neutral,
        }
    }
}

/// A city: a cell a player starts from, defends and captures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    /// The id scripts use to name it; unique within a map.
    pub id: String,
    /// The name shown to players.
    pub name: String,
    /// The cell it stands on.
    pub at: Pos,
    /// Who holds it at the start.
    pub owner: Owner,
    /// What capturing it adds to the base score, in place of the rule set's bonus
    /// (`capture.city_capture_bonus` from a player, `capture.neutral_city_bonus` when
    /// neutral); none: the rule set's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<i64>,
}

/// A token spot: an elemental token waiting to be captured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSpot {
    /// The id scripts use to name it; unique within a map.
    pub id: String,
    /// The token kind: one of the standard elementals or a kind a script defines.
    pub kind: String,
    /// The cell it stands on.
    pub at: Pos,
}

/// The four standard elemental token kinds.
pub const STANDARD_TOKEN_KINDS: [&str; 4] = ["volcano", "drought", "flood", "firestorm"];

/// A rectangular grid of cells stored row by row (in a file or a message: its width, height
/// and cells, which must number exactly width by height).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "GridCells<T>")]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub struct Grid<T> {
    /// Width in cells.
    width: u32,
    /// Height in cells.
    height: u32,
    /// The cells row by row from the top left: `cells[y * width + x]`.
    cells: Vec<T>,
}

/// A grid as it is read, before its cells are counted.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct GridCells<T> {
    /// Width in cells.
    width: u32,
    /// Height in cells.
    height: u32,
    /// The cells row by row from the top left: `cells[y * width + x]`.
    cells: Vec<T>,
}

impl<T> TryFrom<GridCells<T>> for Grid<T> {
    type Error = String;

    fn try_from(read: GridCells<T>) -> Result<Self, String> {
        let (w, h, n) = (read.width, read.height, read.cells.len());
        Grid::from_cells(w, h, read.cells)
            .ok_or_else(|| format!("a grid of {w} by {h} cells holds {n}"))
    }
}

impl<T: Clone> Grid<T> {
    /// A `width` x `height` grid with every cell set to `fill`.
    pub fn new(width: u32, height: u32, fill: T) -> Self {
        Grid {
            width,
            height,
            cells: vec![fill; width as usize * height as usize],
        }
    }
}

impl<T> Grid<T> {
    /// A grid from cells given row by row, if there are exactly `width * height` of them.
    pub fn from_cells(width: u32, height: u32, cells: Vec<T>) -> Option<Self> {
        (cells.len() == width as usize * height as usize).then_some(Grid {
            width,
            height,
            cells,
        })
    }

    /// Number of columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `pos` is inside the grid.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    fn index_of(&self, pos: Pos) -> Option<usize> {
        self.contains(pos)
            .then(|| pos.y as usize * self.width as usize + pos.x as usize)
    }

    /// The cell at `pos`, or `None` outside the grid.
    pub fn get(&self, pos: Pos) -> Option<&T> {
        self.index_of(pos).map(|i| &self.cells[i])
    }

    /// The cell at `pos` to change, or `None` outside the grid.
    pub fn get_mut(&mut self, pos: Pos) -> Option<&mut T> {
        self.index_of(pos).map(|i| &mut self.cells[i])
    }

    /// Sets the cell at `pos`; returns false (changing nothing) outside the grid.
    pub fn set(&mut self, pos: Pos, value: T) -> bool {
        match self.get_mut(pos) {
            Some(cell) => {
                *cell = value;
                true
            }
            None => false,
        }
    }

    /// All cells, row by row.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// One row of cells, or `None` past the last row.
    pub fn row(&self, y: u32) -> Option<&[T]> {
        let w = self.width as usize;
        (y < self.height).then(|| &self.cells[y as usize * w..(y as usize + 1) * w])
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + use<T> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// The up to four orthogonal neighbours of `pos` that lie inside the grid.
    pub fn neighbours4(&self, pos: Pos) -> impl Iterator<Item = Pos> + use<T> {
        let (w, h) = (self.width, self.height);
        let candidates = [
            (pos.y > 0).then(|| Pos::new(pos.x, pos.y.wrapping_sub(1))),
            (pos.x + 1 < w).then(|| Pos::new(pos.x + 1, pos.y)),
            (pos.y + 1 < h).then(|| Pos::new(pos.x, pos.y + 1)),
            (pos.x > 0).then(|| Pos::new(pos.x.wrapping_sub(1), pos.y)),
        ];
        candidates.into_iter().flatten()
    }
}

impl Grid<Terrain> {
    /// The terrain as rows of one character per cell, in the default legend (what map files
    /// and reports show).
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                self.row(y)
                    .unwrap_or_default()
                    .iter()
                    .map(|t| t.default_char())
                    .collect()
            })
            .collect()
    }
}

impl<T> std::ops::Index<Pos> for Grid<T> {
    type Output = T;

    /// Panics outside the grid; use [`Grid::get`] for positions that come from outside.
    fn index(&self, pos: Pos) -> &T {
        let i = self.index_of(pos).expect("position inside the grid");
        &self.cells[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_order_row_by_row() {
        let mut v = vec![Pos::new(1, 0), Pos::new(0, 1), Pos::new(0, 0)];
        v.sort();
        assert_eq!(v, vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(0, 1)]);
    }

    #[test]
    fn neighbours_stay_inside() {
        let g = Grid::new(3, 2, 0u8);
        let corner: Vec<_> = g.neighbours4(Pos::new(0, 0)).collect();
        assert_eq!(corner, vec![Pos::new(1, 0), Pos::new(0, 1)]);
        let edge: Vec<_> = g.neighbours4(Pos::new(1, 1)).collect();
        assert_eq!(edge, vec![Pos::new(1, 0), Pos::new(2, 1), Pos::new(0, 1)]);
        assert!(g.get(Pos::new(3, 0)).is_none());
    }

    #[test]
    fn set_outside_changes_nothing() {
        let mut g = Grid::new(2, 2, 0u8);
        assert!(!g.set(Pos::new(2, 2), 9));
        assert!(g.cells().iter().all(|&c| c == 0));
        assert!(g.set(Pos::new(1, 1), 9));
        assert_eq!(g[Pos::new(1, 1)], 9);
    }
}

//! The letters on a board, with a bit per occupied cell kept row by row and column by column
//! as letters are set: the runs of a mostly empty board are found without visiting its empty
//! cells (`words::find_runs`, asked several times an action).

use super::words::Tile;
use crate::board::{Grid, Pos};

/// A board's letters: a grid of cells (read through `Deref`) and the occupancy it keeps;
/// every change goes through `set`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(from = "Grid<Option<Tile>>", into = "Grid<Option<Tile>>")]
pub struct Letters {
    grid: Grid<Option<Tile>>,
    occupancy: Occupancy,
}

impl Letters {
    /// An empty board of `width` by `height` cells.
    pub fn new(width: u32, height: u32) -> Letters {
        Letters::from(Grid::new(width, height, None))
    }

    /// Which cells hold a letter, a bit a cell, row by row (the words of each row in turn).
    pub fn occupied_rows(&self) -> &[u64] {
        &self.occupancy.rows
    }

    /// Puts `tile` (or nothing) on `pos`; answers whether `pos` is on the board.
    pub fn set(&mut self, pos: Pos, tile: Option<Tile>) -> bool {
        if !self.grid.set(pos, tile) {
            return false;
        }
        self.occupancy.mark(pos, tile.is_some());
        true
    }

    /// Which cells hold a letter.
    pub(super) fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }
}

impl From<Grid<Option<Tile>>> for Letters {
    fn from(grid: Grid<Option<Tile>>) -> Letters {
        let occupancy = Occupancy::of(grid.cells(), grid.width() as usize, grid.height() as usize);
        Letters { grid, occupancy }
    }
}

impl From<Letters> for Grid<Option<Tile>> {
    fn from(letters: Letters) -> Grid<Option<Tile>> {
        letters.grid
    }
}

impl std::ops::Deref for Letters {
    type Target = Grid<Option<Tile>>;

    fn deref(&self) -> &Grid<Option<Tile>> {
        &self.grid
    }
}

/// Which cells hold a letter: a bit per cell, row by row and column by column, in 64-bit
/// words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Occupancy {
    rows: Vec<u64>,
    columns: Vec<u64>,
    /// Words a row takes, and a column.
    row_words: usize,
    column_words: usize,
}

impl Occupancy {
    fn of(cells: &[Option<Tile>], w: usize, h: usize) -> Occupancy {
        let (row_words, column_words) = (w.div_ceil(64), h.div_ceil(64));
        let mut rows = vec![0u64; row_words * h];
        let mut columns = vec![0u64; column_words * w];
        for (y, row) in cells.chunks_exact(w.max(1)).enumerate().take(h) {
            // Branch-free over the cells; the columns are then set from the few bits found.
            for (i, chunk) in row.chunks(64).enumerate() {
                let mut bits = 0u64;
                for (b, cell) in chunk.iter().enumerate() {
                    bits |= u64::from(cell.is_some()) << b;
                }
                rows[y * row_words + i] = bits;
                let mut rest = bits;
                while rest != 0 {
                    let x = i * 64 + rest.trailing_zeros() as usize;
                    columns[x * column_words + y / 64] |= 1 << (y % 64);
                    rest &= rest - 1;
                }
            }
        }
        Occupancy {
            rows,
            columns,
            row_words,
            column_words,
        }
    }

    /// Sets or clears the bits of `pos`.
    fn mark(&mut self, pos: Pos, occupied: bool) {
        let (x, y) = (pos.x as usize, pos.y as usize);
        let row = &mut self.rows[y * self.row_words + x / 64];
        let column = &mut self.columns[x * self.column_words + y / 64];
        if occupied {
            *row |= 1 << (x % 64);
            *column |= 1 << (y % 64);
        } else {
            *row &= !(1 << (x % 64));
            *column &= !(1 << (y % 64));
        }
    }

    pub(super) fn row(&self, y: usize) -> &[u64] {
        &self.rows[y * self.row_words..(y + 1) * self.row_words]
    }

    pub(super) fn column(&self, x: usize) -> &[u64] {
        &self.columns[x * self.column_words..(x + 1) * self.column_words]
    }
}

/// Calls `f(from, to)` for every maximal stretch of set bits in `bits` (bit `i` of word
/// `i / 64`) at least `min` long, `to` past its end.
pub(super) fn for_each_stretch(bits: &[u64], min: usize, mut f: impl FnMut(usize, usize)) {
    let mut start: Option<usize> = None;
    let mut close = |from: usize, to: usize| {
        if to - from >= min {
            f(from, to);
        }
    };
    for (i, &word) in bits.iter().enumerate() {
        let base = i * 64;
        let mut bit = 0usize;
        while bit < 64 {
            let rest = word >> bit;
            match start {
                None if rest == 0 => break,
                None => {
                    let skip = rest.trailing_zeros() as usize;
                    start = Some(base + bit + skip);
                    bit += skip;
                }
                Some(from) => {
                    // The bits shifted in from the top are clear: a stretch reaching the
                    // word's end counts its ones up to there.
                    let ones = (!rest).trailing_zeros() as usize;
                    bit += ones;
                    if bit < 64 {
                        close(from, base + bit);
                        start = None;
                    }
                }
            }
        }
    }
    if let Some(from) = start {
        close(from, bits.len() * 64);
    }
}

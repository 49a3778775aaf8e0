//! The bounded search's arithmetic: running totals along each line, what a word can still
//! reach from where it stands, and the floor it is held to (see [`Floor`]).

use super::cells::Cells;
use super::{Context, Line, MAX_WORD, MoveGen, NO_LETTER, dir_index};
use crate::lexicon::graph::{LetterIndex, LetterSet, NodeId, WordGraph};
use crate::map::Direction;
use std::cell::Cell;

/// Running totals along a line, from its first cell up to this one.
#[derive(Clone, Copy, Default)]
pub(super) struct LineSums {
    /// Values of own letters.
    pub(super) own_value: i64,
    /// Values of own letters on mountains.
    pub(super) own_mountain_value: i64,
    /// Cells a letter may be placed on.
    pub(super) free: u32,
    /// Of those, mountains.
    pub(super) free_mountains: u32,
    /// Mountain cells.
    pub(super) mountains: u32,
    /// Over the cells a letter may be placed on, the value of the best letter of the rack
    /// that the cell's cross-check lets through.
    pub(super) best: i64,
    /// The same over the mountain cells among them.
    pub(super) best_on_mountains: i64,
}

impl std::ops::Add for LineSums {
    type Output = LineSums;
    fn add(self, other: LineSums) -> LineSums {
        LineSums {
            own_value: self.own_value + other.own_value,
            own_mountain_value: self.own_mountain_value + other.own_mountain_value,
            free: self.free + other.free,
            free_mountains: self.free_mountains + other.free_mountains,
            mountains: self.mountains + other.mountains,
            best: self.best + other.best,
            best_on_mountains: self.best_on_mountains + other.best_on_mountains,
        }
    }
}

impl std::ops::Sub for LineSums {
    type Output = LineSums;
    fn sub(self, earlier: LineSums) -> LineSums {
        LineSums {
            own_value: self.own_value - earlier.own_value,
            own_mountain_value: self.own_mountain_value - earlier.own_mountain_value,
            free: self.free - earlier.free,
            free_mountains: self.free_mountains - earlier.free_mountains,
            mountains: self.mountains - earlier.mountains,
            best: self.best - earlier.best,
            best_on_mountains: self.best_on_mountains - earlier.best_on_mountains,
        }
    }
}

/// What a bounded search looks for: placements whose strength before multipliers (the face
/// value with mountains counted) can reach `least`. Whoever reads the placements raises
/// `least` as they find better ones; branches that cannot reach it are cut.
pub struct Floor {
    /// The least strength before multipliers worth finding.
    pub least: Cell<f64>,
    /// At most how many times its value a letter on a mountain counts (1 when mountains
    /// weigh the whole word instead).
    pub letter_on_mountain: f64,
    /// At most how many times its face value a word with a letter on a mountain counts (1
    /// when mountains weigh letter by letter instead).
    pub word_on_mountain: f64,
}

impl Floor {
    /// The most a word can reach: `plain` value off mountains, `on_mountains` value on them,
    /// `mountains` cells of mountain under it.
    #[inline]
    pub(super) fn most(&self, plain: i64, on_mountains: i64, mountains: u32) -> f64 {
        let letters = plain as f64 + on_mountains as f64 * self.letter_on_mountain;
        if mountains > 0 {
            letters * self.word_on_mountain
        } else {
            letters
        }
    }

    #[inline]
    pub(super) fn reached_by(&self, most: f64) -> bool {
        most + 1e-9 >= self.least.get()
    }
}

/// The value of a word's letters so far: off mountains and on them.
#[derive(Clone, Copy, Default)]
pub(super) struct Worth {
    pub(super) plain: i64,
    pub(super) on_mountains: i64,
}

impl Worth {
    /// With one more letter of `value`, on a mountain or not.
    #[inline(always)]
    fn and(self, value: i64, on_mountain: bool) -> Worth {
        if on_mountain {
            Worth {
                plain: self.plain,
                on_mountains: self.on_mountains + value,
            }
        } else {
            Worth {
                plain: self.plain + value,
                on_mountains: self.on_mountains,
            }
        }
    }
}

impl MoveGen {
    /// Makes the running totals and the letter order a bounded search needs, once per
    /// prepared rack.
    pub(super) fn prepare_sums(&mut self) {
        if self.sums_ready {
            return;
        }
        let values = self.letter_values;
        let mut letters: [LetterIndex; 26] = std::array::from_fn(|i| i as LetterIndex);
        letters.sort_by_key(|&l| std::cmp::Reverse(values[usize::from(l)]));
        self.rack_kinds = 0;
        self.best_of_rack.clear();
        self.best_of_rack.push(0);
        for l in letters
            .into_iter()
            .filter(|&l| self.rack[usize::from(l)] > 0)
        {
            self.by_value[self.rack_kinds] = l;
            self.rack_kinds += 1;
            for _ in 0..self.rack[usize::from(l)] {
                let total = self.best_of_rack.last().copied().unwrap_or(0);
                self.best_of_rack.push(total + values[usize::from(l)]);
            }
        }
        for dir in [Direction::Across, Direction::Down] {
            let lines = self.lines(dir);
            let by_value = &self.by_value[..self.rack_kinds];
            self.cells.line_sums(lines, &self.letter_values, by_value);
        }
        self.sums_ready = true;
    }

    /// Whether any word through `anchor` starting at `first` or after could reach the floor:
    /// the most its cells can hold, up to the first wall or the free cell beyond the rack's
    /// reach to the right.
    pub(super) fn anchor_may_reach_floor(
        &self,
        cx: &Context<'_>,
        line: Line,
        first: usize,
        anchor: usize,
    ) -> bool {
        let Some(floor) = cx.floor else {
            return true;
        };
        floor.reached_by(self.anchor_bound(floor, line, first, anchor))
    }

    /// The most a word through `anchor` starting at `first` or after can reach (see
    /// [`MoveGen::anchor_may_reach_floor`]): what the bounded search orders anchors by. Every
    /// start from the anchor back to `first` is tried with the cells it leaves the rack to
    /// fill from the anchor on, as wolges' shadow play tries every extent: own letters beyond
    /// the rack's reach from a start count for none.
    pub(super) fn anchor_bound(
        &self,
        floor: &Floor,
        line: Line,
        first: usize,
        anchor: usize,
    ) -> f64 {
        let reach = self.cells.reach_from(line, anchor);
        let mut best = f64::NEG_INFINITY;
        let (mut start, mut placed_before) = (anchor, 0);
        loop {
            let end = self
                .cells
                .end_within(line, anchor, self.rack_left - placed_before)
                .min(reach)
                .min(start + MAX_WORD);
            let span = self.cells.sums_between(line, start, end);
            best = best.max(self.most_reachable(floor, Worth::default(), span, span.mountains));
            if start == first {
                return best;
            }
            start -= 1;
            if self.cells.free[line.cell(start)] {
                placed_before += 1;
                // The anchor itself takes a letter of the rack.
                if placed_before >= self.rack_left {
                    return best;
                }
            }
        }
    }

    /// Whether the word started at `start`, spelled so far up to graph node `node` (its
    /// letters worth `worth`) with `at` the next cell, could still reach the floor: its
    /// letters so far, plus what the cells within the longest continuation of the node can
    /// hold (see [`MoveGen::most_reachable`]).
    #[inline(always)]
    pub(super) fn may_reach_floor<const BOUNDED: bool>(
        &self,
        cx: &Context<'_>,
        line: Line,
        (start, at): (usize, usize),
        node: NodeId,
        worth: Worth,
    ) -> bool {
        match cx.floor {
            Some(floor) if BOUNDED => {
                self.reaches_floor(cx.graph, floor, line, (start, at), node, worth)
            }
            _ => true,
        }
    }

    /// [`MoveGen::may_reach_floor`] for a bounded search, kept out of line so that an
    /// unbounded search's hot loop stays as small as it was.
    #[inline(never)]
    fn reaches_floor(
        &self,
        graph: &WordGraph,
        floor: &Floor,
        line: Line,
        (start, at): (usize, usize),
        node: NodeId,
        worth: Worth,
    ) -> bool {
        let end = (at + graph.longest(node))
            .min(self.cells.reach_from(line, at))
            .min(self.cells.end_within(line, at, self.rack_left));
        let ahead = self.cells.sums_between(line, at, end);
        let mountains = self.cells.sums_between(line, start, end).mountains;
        self.most_reachable_reaches(floor, worth, ahead, mountains)
    }

    /// What the word's first `len` letters (started at `start`) are worth (nothing is
    /// counted unless `BOUNDED`).
    pub(super) fn worth_of<const BOUNDED: bool>(
        &self,
        line: Line,
        start: usize,
        len: usize,
    ) -> Worth {
        if !BOUNDED {
            return Worth::default();
        }
        let on_mountains = self.value_on_mountains(line, start, len);
        Worth {
            plain: self.word_value(len) - on_mountains,
            on_mountains,
        }
    }

    /// `worth` with `letter` at cell `at` of `line` added (when `BOUNDED`).
    #[inline(always)]
    pub(super) fn worth_with<const BOUNDED: bool>(
        &self,
        worth: Worth,
        line: Line,
        at: usize,
        letter: LetterIndex,
    ) -> Worth {
        if !BOUNDED {
            return worth;
        }
        worth.and(
            self.letter_values[usize::from(letter)],
            self.cells.mountain[line.cell(at)],
        )
    }

    /// The value of those of the word's first `len` letters (started at `start`) that stand
    /// on mountains.
    #[inline]
    pub(super) fn value_on_mountains(&self, line: Line, start: usize, len: usize) -> i64 {
        (0..len)
            .filter(|&i| self.cells.mountain[line.cell(start + i)])
            .map(|i| self.letter_values[usize::from(self.word[i])])
            .sum()
    }

    /// The most a word can reach with its letters `so_far` and the
    /// cells of `ahead` to come, `mountains` cells of mountain under it all: the own letters
    /// ahead, and on the free cells ahead whichever is less of the rack's best letters (the
    /// very best on the mountains) and each cell's best letter that its cross-check allows.
    #[inline]
    fn most_reachable(&self, floor: &Floor, so_far: Worth, ahead: LineSums, mountains: u32) -> f64 {
        let by_cells = Self::most_by_cells(floor, so_far, ahead, mountains);
        self.most_by_rack(floor, so_far, ahead, mountains)
            .min(by_cells)
    }

    /// Whether [`MoveGen::most_reachable`] reaches the floor, asking the cells' bound first:
    /// it takes no loop over the rack, and it is the one that fails most often.
    #[inline]
    pub(super) fn most_reachable_reaches(
        &self,
        floor: &Floor,
        so_far: Worth,
        ahead: LineSums,
        mountains: u32,
    ) -> bool {
        floor.reached_by(Self::most_by_cells(floor, so_far, ahead, mountains))
            && floor.reached_by(self.most_by_rack(floor, so_far, ahead, mountains))
    }

    /// The most with each free cell ahead holding its best letter the cross-check allows.
    #[inline]
    fn most_by_cells(floor: &Floor, so_far: Worth, ahead: LineSums, mountains: u32) -> f64 {
        let (plain, on_mountains) = with_own_ahead(so_far, ahead);
        floor.most(
            plain + ahead.best - ahead.best_on_mountains,
            on_mountains + ahead.best_on_mountains,
            mountains,
        )
    }

    /// The most with the free cells ahead holding the rack's best letters (the very best on
    /// the mountains).
    #[inline]
    fn most_by_rack(&self, floor: &Floor, so_far: Worth, ahead: LineSums, mountains: u32) -> f64 {
        let (plain, on_mountains) = with_own_ahead(so_far, ahead);
        let rack = self.best_rack_values(ahead.free as usize);
        let rack_on_mountains = self.best_rack_values(ahead.free_mountains as usize);
        floor.most(
            plain + rack - rack_on_mountains,
            on_mountains + rack_on_mountains,
            mountains,
        )
    }

    /// At most what `count` letters of the rack left can be worth: the best `count` of the
    /// rack as prepared (the letters left are some of them), no more than are left.
    #[inline]
    fn best_rack_values(&self, count: usize) -> i64 {
        let count = count.min(self.rack_left).min(self.best_of_rack.len() - 1);
        self.best_of_rack[count]
    }
}

/// The value off and on mountains of a word's letters `so_far` with the own letters `ahead`.
#[inline]
fn with_own_ahead(so_far: Worth, ahead: LineSums) -> (i64, i64) {
    let plain = so_far.plain + ahead.own_value - ahead.own_mountain_value;
    (plain, so_far.on_mountains + ahead.own_mountain_value)
}

impl Cells {
    /// The totals over cells `from..to` of `line` (in the line's own order).
    #[inline]
    pub(super) fn sums_between(&self, line: Line, from: usize, to: usize) -> LineSums {
        if to <= from {
            return LineSums::default();
        }
        let sums = &self.sums[dir_index(line.dir)];
        let upto = sums[line.cell(to - 1)];
        if from == 0 {
            upto
        } else {
            upto - sums[line.cell(from - 1)]
        }
    }

    /// The index along `line` of the first cell from `at` on that a word placing at most
    /// `letters` letters from `at` on cannot reach: the free cell after the `letters`th, or
    /// the line's end.
    #[inline]
    pub(super) fn end_within(&self, line: Line, at: usize, letters: usize) -> usize {
        let ordinal = self.sums_between(line, 0, at).free as usize + letters;
        if ordinal < self.sums_between(line, 0, line.len).free as usize {
            self.free_at[dir_index(line.dir)][line.cell(ordinal)] as usize
        } else {
            line.len
        }
    }

    /// The index along `line` of the first cell from `at` on that no word of the rack can
    /// cover.
    #[inline]
    pub(super) fn reach_from(&self, line: Line, at: usize) -> usize {
        if at >= line.len {
            return line.len;
        }
        self.reach[dir_index(line.dir)][line.cell(at)] as usize
    }

    /// The running totals and reaches along `lines` (all of one direction) for a rack of the
    /// letters `by_value` (each kind once, the highest value first).
    fn line_sums(
        &mut self,
        mut lines: impl Iterator<Item = Line>,
        letter_values: &[i64; 26],
        by_value: &[LetterIndex],
    ) {
        let rack_set = by_value.iter().fold(0, |set, &l| set | 1 << l);
        let Some(first) = lines.next() else {
            return;
        };
        let d = dir_index(first.dir);
        let mut sums = std::mem::take(&mut self.sums[d]);
        let mut reach = std::mem::take(&mut self.reach[d]);
        let mut free_at = std::mem::take(&mut self.free_at[d]);
        free_at.clear();
        free_at.resize(self.width * self.height, 0);
        sums.clear();
        sums.resize(self.width * self.height, LineSums::default());
        reach.clear();
        reach.resize(self.width * self.height, 0);
        let best_letter = |allowed: LetterSet| {
            by_value
                .iter()
                .find(|&&l| allowed & (1 << l) != 0)
                .map(|&l| letter_values[usize::from(l)])
        };
        for line in std::iter::once(first).chain(lines) {
            let mut first_wall = line.len as u32;
            for i in (0..line.len).rev() {
                let c = line.cell(i);
                let placeable = self.free[c] && self.cross[d][c] & rack_set != 0;
                if self.own[c] == NO_LETTER && !placeable {
                    first_wall = i as u32;
                }
                reach[c] = first_wall;
            }
            let mut running = LineSums::default();
            for i in 0..line.len {
                let c = line.cell(i);
                if self.free[c] {
                    free_at[line.cell(running.free as usize)] = i as u32;
                    let best = best_letter(self.cross[d][c] & rack_set).unwrap_or(0);
                    running.best += best;
                    if self.mountain[c] {
                        running.best_on_mountains += best;
                    }
                }
                if self.own[c] != NO_LETTER {
                    let value = letter_values[usize::from(self.own[c])];
                    running.own_value += value;
                    if self.mountain[c] {
                        running.own_mountain_value += value;
                    }
                }
                running.free += u32::from(self.free[c]);
                running.free_mountains += u32::from(self.free[c] && self.mountain[c]);
                running.mountains += u32::from(self.mountain[c]);
                sums[c] = running;
            }
        }
        self.sums[d] = sums;
        self.reach[d] = reach;
        self.free_at[d] = free_at;
    }
}

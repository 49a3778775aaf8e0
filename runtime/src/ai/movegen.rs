//! Move generation: every legal placement of a rack for a player (RULES.md section 4), the
//! hot loop of the AI and the spy.
//!
//! Appel and Jacobson's algorithm over the dictionary's letter graph, with Scryptic's board:
//! from a player's side, a cell holding their own letter is a fixed letter, a cell that is
//! empty or holds an opponent's letter is free to place on (placing on an opponent's letter is
//! an overlap), and lava is a wall. Anchors are the free cells next to an own letter and the
//! free cells of cities the player owns; every placement covers one, and is generated from its
//! leftmost (topmost) anchor only. Letters placed across an own word must make a word with it
//! (a cross-check, kept as a bitmask of letters per cell and direction). What only a whole
//! placement can tell (water ends, connection, forest) is checked as each is found. A left
//! part is only made longer while the letters its word can still take (kept per graph node)
//! include a letter the anchor allows and the own letters right after the anchor.
//!
//! Nothing is allocated per placement: the grids and the word being built are buffers of the
//! generator, reused from one call to the next.

use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::strength::placement_strength;
use crate::game::{Game, Placement, WordKey};
use crate::lexicon::graph::{ALL_LETTERS, LetterIndex, LetterSet, NodeId, WordGraph};
use crate::map::Direction;
use crate::rules::ForestCut;
use std::cell::Cell;

/// The longest word a placement can make (the dictionary's longest has 45 letters).
pub const MAX_WORD: usize = 48;

/// No own letter on the cell.
const NO_LETTER: u8 = u8::MAX;

/// A legal placement, as the main word it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The main word's first cell.
    pub start: Pos,
    /// Its direction.
    pub dir: Direction,
    len: u8,
    /// The main word's face value (the sum of its letters' values).
    face: i64,
    /// Bit `i` set: letter `i` of the word is placed from the rack (else it was on the board).
    placed: u64,
    /// The word, uppercase.
    word: [u8; MAX_WORD],
}

impl Move {
    /// The main word, uppercase.
    pub fn word(&self) -> &str {
        std::str::from_utf8(&self.word[..usize::from(self.len)]).unwrap_or("")
    }

    /// Where the main word stands.
    pub fn key(&self) -> WordKey {
        WordKey {
            start: self.start,
            dir: self.dir,
            len: u32::from(self.len),
        }
    }

    /// The main word's face value.
    pub fn face(&self) -> i64 {
        self.face
    }

    /// The number of letters placed from the rack.
    pub fn placed_count(&self) -> u32 {
        self.placed.count_ones()
    }

    /// The main word's cells with their letters and whether each is placed from the rack.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, char, bool)> + '_ {
        (0..u32::from(self.len)).filter_map(move |i| {
            let at = self.dir.step(self.start, i)?;
            Some((
                at,
                char::from(self.word[i as usize]),
                self.placed & (1 << i) != 0,
            ))
        })
    }

    /// The letters to commit.
    pub fn placements(&self) -> Vec<Placement> {
        self.cells()
            .filter(|&(_, _, placed)| placed)
            .map(|(at, letter, _)| Placement { at, letter })
            .collect()
    }
}

/// What a player's side of the board looks like to the generator, cell by cell (row by row).
#[derive(Default)]
struct Cells {
    width: usize,
    height: usize,
    /// The player's letter on the cell, or `NO_LETTER`.
    own: Vec<u8>,
    /// Whether a letter may be placed (no own letter, not lava).
    free: Vec<bool>,
    /// Whether a word may end here (land: not water, not lava).
    land: Vec<bool>,
    anchor: Vec<bool>,
    /// Whether the own letter here is connected to an owned city.
    connected: Vec<bool>,
    /// Whether a city the player owns is here.
    own_city: Vec<bool>,
    /// Forest density under a free forest cell, else 0.
    forest: Vec<i64>,
    /// Whether the cell is a mountain.
    mountain: Vec<bool>,
    /// Per direction of the main word: the letters a placement here may have so that the word
    /// it makes across that direction (with own letters) is in the dictionary.
    cross: [Vec<LetterSet>; 2],
    /// Per direction: whether that crossing run of own letters holds a connected letter.
    cross_joins: [Vec<bool>; 2],
    /// Per direction of the main word: running totals along each line, for bounding what a
    /// word can still reach (see [`Floor`]).
    sums: [Vec<LineSums>; 2],
    /// Per direction of the main word: for each cell, the index along its line of the first
    /// cell from it on that no word of the rack can cover (lava, or a free cell whose
    /// cross-check lets no letter of the rack through), or the line's length.
    reach: [Vec<u32>; 2],
}

/// Running totals along a line, from its first cell up to this one.
#[derive(Clone, Copy, Default)]
struct LineSums {
    /// Values of own letters.
    own_value: i64,
    /// Values of own letters on mountains.
    own_mountain_value: i64,
    /// Cells a letter may be placed on.
    free: u32,
    /// Of those, mountains.
    free_mountains: u32,
    /// Mountain cells.
    mountains: u32,
    /// Over the cells a letter may be placed on, the value of the best letter of the rack
    /// that the cell's cross-check lets through.
    best: i64,
    /// The same over the mountain cells among them.
    best_on_mountains: i64,
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
    fn most(&self, plain: i64, on_mountains: i64, mountains: u32) -> f64 {
        let letters = plain as f64 + on_mountains as f64 * self.letter_on_mountain;
        if mountains > 0 {
            letters * self.word_on_mountain
        } else {
            letters
        }
    }

    #[inline]
    fn reached_by(&self, most: f64) -> bool {
        most + 1e-9 >= self.least.get()
    }
}

/// The value of a word's letters so far: off mountains and on them.
#[derive(Clone, Copy, Default)]
struct Worth {
    plain: i64,
    on_mountains: i64,
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

/// One line of cells in a direction: `base + i * stride` for `i` in `0..len`.
#[derive(Clone, Copy)]
struct Line {
    base: usize,
    stride: usize,
    len: usize,
    dir: Direction,
}

impl Line {
    #[inline]
    fn cell(&self, i: usize) -> usize {
        self.base + i * self.stride
    }
}

/// The generator with its buffers; keep one and call [`MoveGen::generate`] again and again.
pub struct MoveGen {
    cells: Cells,
    rack: [u8; 26],
    rack_set: LetterSet,
    word: [u8; MAX_WORD],
    placed: u64,
    min_len: usize,
    letter_values: [i64; 26],
    /// Letters left on the rack.
    rack_left: usize,
    /// The rack's letters (one of each kind) from the highest value down, for bounding what
    /// the rack can still add: the first `rack_kinds`.
    by_value: [LetterIndex; 26],
    rack_kinds: usize,
    /// Whether `cells.sums` are those of the board last prepared.
    sums_ready: bool,
    /// What every word through the anchor whose left parts are being made must have ahead of
    /// its left part.
    anchor_needs: AnchorNeeds,
}

/// What a word must spell from an anchor on: one of `anchor_letters`, then the own letters
/// right after the anchor (`run_letters`, `run_len` of them).
#[derive(Clone, Copy, Default)]
struct AnchorNeeds {
    anchor_letters: LetterSet,
    run_letters: LetterSet,
    run_len: usize,
}

fn dir_index(dir: Direction) -> usize {
    match dir {
        Direction::Across => 0,
        Direction::Down => 1,
    }
}

fn letter_index(c: char) -> Option<LetterIndex> {
    c.is_ascii_alphabetic()
        .then(|| c.to_ascii_uppercase() as u8 - b'A')
}

/// What a generation needs besides the generator's buffers.
struct Context<'a> {
    graph: &'a WordGraph,
    game: &'a Game,
    floor: Option<&'a Floor>,
    sink: &'a mut dyn FnMut(&Move),
}

impl Default for MoveGen {
    fn default() -> MoveGen {
        MoveGen {
            cells: Cells::default(),
            rack: [0; 26],
            rack_set: 0,
            word: [0; MAX_WORD],
            placed: 0,
            min_len: 2,
            letter_values: [0; 26],
            rack_left: 0,
            by_value: [0; 26],
            rack_kinds: 0,
            sums_ready: false,
            anchor_needs: AnchorNeeds::default(),
        }
    }
}

impl MoveGen {
    /// A generator with empty buffers (they grow to the board on first use).
    pub fn new() -> MoveGen {
        MoveGen::default()
    }

    /// Calls `sink` once for every legal placement of `rack` (letters, any case; other
    /// characters are ignored) for `player` in `game`.
    pub fn generate(
        &mut self,
        game: &Game,
        player: Player,
        rack: &str,
        sink: &mut dyn FnMut(&Move),
    ) {
        self.prepare(game, player, rack);
        self.search(game, game.lexicon().graph(), None, sink);
    }

    /// Calls `sink` for the legal placements of the rack last prepared whose main word is a
    /// word of `graph` (the dictionary's or a part of it; cross-words are always checked
    /// against the whole dictionary). With a `floor`, placements below it are skipped and
    /// branches that cannot reach it are not searched.
    pub fn search(
        &mut self,
        game: &Game,
        graph: &WordGraph,
        floor: Option<&Floor>,
        sink: &mut dyn FnMut(&Move),
    ) {
        if floor.is_some() {
            self.prepare_sums();
        }
        let mut cx = Context {
            graph,
            game,
            floor,
            sink,
        };
        for dir in [Direction::Across, Direction::Down] {
            for line in self.lines(dir) {
                if floor.is_some() {
                    self.line::<true>(&mut cx, line);
                } else {
                    self.line::<false>(&mut cx, line);
                }
            }
        }
    }

    /// Every legal placement, collected.
    pub fn all(&mut self, game: &Game, player: Player, rack: &str) -> Vec<Move> {
        let mut moves = Vec::new();
        self.generate(game, player, rack, &mut |m| moves.push(*m));
        moves
    }

    /// How many legal placements there are.
    pub fn count(&mut self, game: &Game, player: Player, rack: &str) -> usize {
        let mut n = 0;
        self.generate(game, player, rack, &mut |_| n += 1);
        n
    }

    /// Reads the board from `player`'s side and takes `rack`, ready for [`MoveGen::search`].
    pub fn prepare(&mut self, game: &Game, player: Player, rack: &str) {
        let graph = game.lexicon().graph();
        let rules = game.rules();
        self.min_len = usize::try_from(rules.placement.min_word_length)
            .unwrap_or(2)
            .max(2);
        for (i, value) in self.letter_values.iter_mut().enumerate() {
            *value = rules.letter_value(char::from(b'A' + i as u8)).unwrap_or(0);
        }
        self.rack = [0; 26];
        for l in rack.chars().filter_map(letter_index) {
            self.rack[usize::from(l)] += 1;
        }
        self.rack_set = rack_set(&self.rack);
        self.rack_left = self.rack.iter().map(|&n| usize::from(n)).sum();
        self.placed = 0;
        self.cells.fill(game, player);
        for dir in [Direction::Across, Direction::Down] {
            self.cells.cross_checks(graph, dir);
        }
        self.sums_ready = false;
    }

    /// Makes the running totals and the letter order a bounded search needs, once per
    /// prepared rack.
    fn prepare_sums(&mut self) {
        if self.sums_ready {
            return;
        }
        let values = self.letter_values;
        let mut letters: [LetterIndex; 26] = std::array::from_fn(|i| i as LetterIndex);
        letters.sort_by_key(|&l| std::cmp::Reverse(values[usize::from(l)]));
        self.rack_kinds = 0;
        for l in letters
            .into_iter()
            .filter(|&l| self.rack[usize::from(l)] > 0)
        {
            self.by_value[self.rack_kinds] = l;
            self.rack_kinds += 1;
        }
        for dir in [Direction::Across, Direction::Down] {
            let lines: Vec<Line> = self.lines(dir).collect();
            self.cells
                .line_sums(&lines, &self.letter_values, self.rack_set);
        }
        self.sums_ready = true;
    }

    fn lines(&self, dir: Direction) -> impl Iterator<Item = Line> + use<> {
        let (w, h) = (self.cells.width, self.cells.height);
        let (count, len, line_stride, stride) = match dir {
            Direction::Across => (h, w, w, 1),
            Direction::Down => (w, h, 1, w),
        };
        (0..count).map(move |j| Line {
            base: j * line_stride,
            stride,
            len,
            dir,
        })
    }

    /// The placements along `line`; `BOUNDED` when the context has a floor (made a constant so
    /// that an unbounded search's hot loop carries none of the bound's bookkeeping).
    fn line<const BOUNDED: bool>(&mut self, cx: &mut Context<'_>, line: Line) {
        for anchor in 0..line.len {
            if self.cells.anchor[line.cell(anchor)] {
                self.placements_at_anchor::<BOUNDED>(cx, line, anchor);
            }
        }
    }

    /// Every placement whose first anchor is `anchor`: with the own letters just before it as
    /// the fixed start of the word, or else with every left part the free cells allow.
    fn placements_at_anchor<const BOUNDED: bool>(
        &mut self,
        cx: &mut Context<'_>,
        line: Line,
        anchor: usize,
    ) {
        let own_before = anchor > 0 && self.cells.own[line.cell(anchor - 1)] != NO_LETTER;
        if own_before {
            let mut start = anchor;
            while start > 0 && self.cells.own[line.cell(start - 1)] != NO_LETTER {
                start -= 1;
            }
            if anchor - start >= MAX_WORD || !self.anchor_may_reach_floor(cx, line, start, anchor) {
                return;
            }
            let mut node = cx.graph.root();
            for i in start..anchor {
                let letter = self.cells.own[line.cell(i)];
                let Some(next) = cx.graph.child(node, letter) else {
                    return;
                };
                node = next;
                self.word[i - start] = letter;
            }
            let worth = self.worth_of::<BOUNDED>(line, start, anchor - start);
            self.extend_right::<BOUNDED>(cx, line, anchor, start, node, anchor, worth);
            return;
        }
        let mut limit = 0;
        while limit < anchor && limit < MAX_WORD - 1 {
            let c = line.cell(anchor - limit - 1);
            if !self.cells.free[c] || self.cells.anchor[c] {
                break;
            }
            limit += 1;
        }
        if self.anchor_may_reach_floor(cx, line, anchor - limit, anchor) {
            self.anchor_needs = self.cells.needs_at(line, anchor);
            self.left_parts::<BOUNDED>(cx, line, anchor, cx.graph.root(), 0, limit);
        }
    }

    /// Whether any word through `anchor` starting at `first` or after could reach the floor:
    /// the most its cells can hold, up to the first wall or the free cell beyond the rack's
    /// reach to the right.
    fn anchor_may_reach_floor(
        &self,
        cx: &Context<'_>,
        line: Line,
        first: usize,
        anchor: usize,
    ) -> bool {
        let Some(floor) = cx.floor else {
            return true;
        };
        let reach = self.cells.reach_from(line, anchor);
        let mut end = anchor;
        let mut free = 0;
        while end < reach && end - first < MAX_WORD {
            let c = line.cell(end);
            if self.cells.free[c] {
                if free == self.rack_left {
                    break;
                }
                free += 1;
            } else if self.cells.own[c] == NO_LETTER {
                break;
            }
            end += 1;
        }
        let span = self.cells.sums_between(line, first, end);
        floor.reached_by(self.most_reachable(floor, Worth::default(), span, span.mountains))
    }

    /// Left parts of `len` letters so far (in the cells just before the anchor), then the
    /// rest of the word from the anchor on.
    fn left_parts<const BOUNDED: bool>(
        &mut self,
        cx: &mut Context<'_>,
        line: Line,
        anchor: usize,
        node: NodeId,
        len: usize,
        limit: usize,
    ) {
        let start = anchor - len;
        let worth = self.worth_of::<BOUNDED>(line, start, len);
        self.extend_right::<BOUNDED>(cx, line, anchor, start, node, anchor, worth);
        if len == limit || !self.longer_left_part_may_fit(cx.graph, node) {
            return;
        }
        let mut letters = cx.graph.letters(node) & self.rack_set;
        while letters != 0 {
            let letter = letters.trailing_zeros() as LetterIndex;
            letters &= letters - 1;
            let Some(next) = cx.graph.child(node, letter) else {
                continue;
            };
            self.take(letter, len);
            self.left_parts::<BOUNDED>(cx, line, anchor, next, len + 1, limit);
            self.give_back(letter, len);
        }
    }

    /// Whether a longer left part than the one spelled up to `node` could be followed by what
    /// the anchor needs: a letter of the rack that the anchor allows, then the own letters
    /// after it. Every longer left part continues from `node`, so what `node` cannot have
    /// ahead, none of them has.
    #[inline]
    fn longer_left_part_may_fit(&self, graph: &WordGraph, node: NodeId) -> bool {
        let needs = &self.anchor_needs;
        let ahead = graph.letters_ahead(node);
        graph.longest(node) > needs.run_len + 1
            && ahead & needs.run_letters == needs.run_letters
            && ahead & needs.anchor_letters & self.rack_set != 0
    }

    /// Continues the word (started at `start`, its letters so far worth `worth`) at cell `at`
    /// from graph node `node`.
    #[allow(clippy::too_many_arguments)]
    fn extend_right<const BOUNDED: bool>(
        &mut self,
        cx: &mut Context<'_>,
        line: Line,
        anchor: usize,
        start: usize,
        node: NodeId,
        at: usize,
        worth: Worth,
    ) {
        let len = at - start;
        if len >= MAX_WORD {
            return;
        }
        if at < line.len {
            let own = self.cells.own[line.cell(at)];
            if own != NO_LETTER {
                if let Some(next) = cx.graph.child(node, own) {
                    self.word[len] = own;
                    let worth = self.worth_with::<BOUNDED>(worth, line, at, own);
                    self.extend_right::<BOUNDED>(cx, line, anchor, start, next, at + 1, worth);
                }
                return;
            }
        }
        if at > anchor && len >= self.min_len && cx.graph.is_word(node) {
            self.record(cx, line, start, len);
        }
        if at >= line.len || !self.cells.free[line.cell(at)] {
            return;
        }
        if !self.may_reach_floor::<BOUNDED>(cx, line, (start, at), node, worth) {
            return;
        }
        let cross = self.cells.cross[dir_index(line.dir)][line.cell(at)];
        let mut letters = cx.graph.letters(node) & self.rack_set & cross;
        while letters != 0 {
            let letter = letters.trailing_zeros() as LetterIndex;
            letters &= letters - 1;
            let Some(next) = cx.graph.child(node, letter) else {
                continue;
            };
            self.take(letter, len);
            let worth = self.worth_with::<BOUNDED>(worth, line, at, letter);
            self.extend_right::<BOUNDED>(cx, line, anchor, start, next, at + 1, worth);
            self.give_back(letter, len);
        }
    }

    /// Whether the word started at `start`, spelled so far up to graph node `node` (its
    /// letters worth `worth`) with `at` the next cell, could still reach the floor: its
    /// letters so far, plus what the cells within the longest continuation of the node can
    /// hold (see [`MoveGen::most_reachable`]).
    #[inline(always)]
    fn may_reach_floor<const BOUNDED: bool>(
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
        let end = (at + graph.longest(node)).min(self.cells.reach_from(line, at));
        let ahead = self.cells.sums_between(line, at, end);
        let mountains = self.cells.sums_between(line, start, end).mountains;
        floor.reached_by(self.most_reachable(floor, worth, ahead, mountains))
    }

    /// What the word's first `len` letters (started at `start`) are worth (nothing is
    /// counted unless `BOUNDED`).
    fn worth_of<const BOUNDED: bool>(&self, line: Line, start: usize, len: usize) -> Worth {
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
    fn worth_with<const BOUNDED: bool>(
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

    /// The value of the word's first `len` letters.
    #[inline]
    fn word_value(&self, len: usize) -> i64 {
        self.word[..len]
            .iter()
            .map(|&l| self.letter_values[usize::from(l)])
            .sum()
    }

    /// The value of those of the word's first `len` letters (started at `start`) that stand
    /// on mountains.
    #[inline]
    fn value_on_mountains(&self, line: Line, start: usize, len: usize) -> i64 {
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
        let plain = so_far.plain + ahead.own_value - ahead.own_mountain_value;
        let on_mountains = so_far.on_mountains + ahead.own_mountain_value;
        let rack = self.best_rack_values(ahead.free as usize);
        let rack_on_mountains = self.best_rack_values(ahead.free_mountains as usize);
        let by_rack = floor.most(
            plain + rack - rack_on_mountains,
            on_mountains + rack_on_mountains,
            mountains,
        );
        let by_cells = floor.most(
            plain + ahead.best - ahead.best_on_mountains,
            on_mountains + ahead.best_on_mountains,
            mountains,
        );
        by_rack.min(by_cells)
    }

    /// The most `count` letters of the rack left can be worth.
    #[inline]
    fn best_rack_values(&self, count: usize) -> i64 {
        let mut left = count.min(self.rack_left);
        let mut total = 0;
        for &l in &self.by_value[..self.rack_kinds] {
            if left == 0 {
                break;
            }
            let n = usize::from(self.rack[usize::from(l)]).min(left);
            total += n as i64 * self.letter_values[usize::from(l)];
            left -= n;
        }
        total
    }

    #[inline]
    fn take(&mut self, letter: LetterIndex, position: usize) {
        let l = usize::from(letter);
        self.rack_left -= 1;
        self.rack[l] -= 1;
        if self.rack[l] == 0 {
            self.rack_set &= !(1 << letter);
        }
        self.word[position] = letter;
        self.placed |= 1 << position;
    }

    #[inline]
    fn give_back(&mut self, letter: LetterIndex, position: usize) {
        self.rack_left += 1;
        self.rack[usize::from(letter)] += 1;
        self.rack_set |= 1 << letter;
        self.placed &= !(1 << position);
    }

    /// Checks what only the whole placement tells, and hands it to the sink.
    fn record(&self, cx: &mut Context<'_>, line: Line, start: usize, len: usize) {
        let placed = self.placed & ((1u64 << len) - 1);
        let cell = |i: usize| line.cell(start + i);
        let cells = &self.cells;
        if line.dir == Direction::Down && placed.count_ones() == 1 {
            // A single letter is read across first (as the engine reads it): if it has own
            // letters beside it, that placement was found across.
            let i = placed.trailing_zeros() as usize;
            if cells.has_own_beside(cell(i)) {
                return;
            }
        }
        if !cells.land[cell(0)] || !cells.land[cell(len - 1)] {
            return;
        }
        if !self.joins(line, start, len, placed) {
            return;
        }
        let face = self.word_value(len);
        if let Some(floor) = cx.floor {
            let on = cells.sums_between(line, start, start + len).mountains;
            let on_mountains = self.value_on_mountains(line, start, len);
            if !floor.reached_by(floor.most(face - on_mountains, on_mountains, on)) {
                return;
            }
        }
        if !self.cuts_forest(cx, line, start, len, placed, face) {
            return;
        }
        let mut m = Move {
            start: cells.pos(cell(0)),
            dir: line.dir,
            len: len as u8,
            face,
            placed,
            word: [0; MAX_WORD],
        };
        for (out, &letter) in m.word.iter_mut().zip(&self.word[..len]) {
            *out = b'A' + letter;
        }
        (cx.sink)(&m);
    }

    /// Connection (section 4): the word covers an owned city, keeps a connected own letter,
    /// or crosses a run that holds one.
    fn joins(&self, line: Line, start: usize, len: usize, placed: u64) -> bool {
        let cells = &self.cells;
        (0..len).any(|i| {
            let c = line.cell(start + i);
            let is_placed = placed & (1 << i) != 0;
            cells.own_city[c]
                || (!is_placed && cells.connected[c])
                || (is_placed && cells.cross_joins[dir_index(line.dir)][c])
        })
    }

    /// Forest (section 4): the word's placement strength beats the density it cuts through.
    fn cuts_forest(
        &self,
        cx: &Context<'_>,
        line: Line,
        start: usize,
        len: usize,
        placed: u64,
        face: i64,
    ) -> bool {
        let needed: i64 = (0..len)
            .filter(|&i| placed & (1 << i) != 0)
            .map(|i| self.cells.forest[line.cell(start + i)])
            .sum();
        if needed == 0 {
            return true;
        }
        let mut text = [0u8; MAX_WORD];
        for (out, &letter) in text.iter_mut().zip(&self.word[..len]) {
            *out = b'a' + letter;
        }
        let text = std::str::from_utf8(&text[..len]).unwrap_or("");
        let rules = cx.game.rules();
        let connotations: Vec<String> = cx
            .game
            .lexicon()
            .connotations(text)
            .into_iter()
            .map(str::to_string)
            .collect();
        let has = placement_strength(rules, face, &connotations);
        match rules.placement.forest_cut {
            ForestCut::Exceed => has > needed as f64,
            ForestCut::Match => has >= needed as f64,
        }
    }
}

fn rack_set(rack: &[u8; 26]) -> LetterSet {
    rack.iter()
        .enumerate()
        .filter(|&(_, &n)| n > 0)
        .fold(0, |set, (i, _)| set | 1 << i)
}

impl Cells {
    fn pos(&self, cell: usize) -> Pos {
        Pos::new((cell % self.width) as u32, (cell / self.width) as u32)
    }

    /// The totals over cells `from..to` of `line` (in the line's own order).
    #[inline]
    fn sums_between(&self, line: Line, from: usize, to: usize) -> LineSums {
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

    /// The index along `line` of the first cell from `at` on that no word of the rack can
    /// cover.
    #[inline]
    fn reach_from(&self, line: Line, at: usize) -> usize {
        if at >= line.len {
            return line.len;
        }
        self.reach[dir_index(line.dir)][line.cell(at)] as usize
    }

    /// The running totals and reaches along `lines` (all of one direction) for a rack of
    /// `rack_set`.
    fn line_sums(&mut self, lines: &[Line], letter_values: &[i64; 26], rack_set: LetterSet) {
        let Some(first) = lines.first() else {
            return;
        };
        let d = dir_index(first.dir);
        let mut sums = std::mem::take(&mut self.sums[d]);
        let mut reach = std::mem::take(&mut self.reach[d]);
        sums.clear();
        sums.resize(self.width * self.height, LineSums::default());
        reach.clear();
        reach.resize(self.width * self.height, 0);
        let best_letter = |allowed: LetterSet| {
            (0..26)
                .filter(|&l| allowed & (1 << l) != 0)
                .map(|l| letter_values[l])
                .max()
        };
        for line in lines {
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
    }

    /// What a word through `anchor` of `line` (a free cell) must spell from it on.
    fn needs_at(&self, line: Line, anchor: usize) -> AnchorNeeds {
        let mut needs = AnchorNeeds {
            anchor_letters: self.cross[dir_index(line.dir)][line.cell(anchor)],
            ..AnchorNeeds::default()
        };
        for i in anchor + 1..line.len {
            let own = self.own[line.cell(i)];
            if own == NO_LETTER {
                break;
            }
            needs.run_letters |= 1 << own;
            needs.run_len += 1;
        }
        needs
    }

    fn has_own_beside(&self, cell: usize) -> bool {
        let x = cell % self.width;
        (x > 0 && self.own[cell - 1] != NO_LETTER)
            || (x + 1 < self.width && self.own[cell + 1] != NO_LETTER)
    }

    /// Reads the board from `player`'s side.
    fn fill(&mut self, game: &Game, player: Player) {
        let board = game.board();
        let (w, h) = (
            board.terrain.width() as usize,
            board.terrain.height() as usize,
        );
        let n = w * h;
        self.width = w;
        self.height = h;
        let reset = |v: &mut Vec<bool>| {
            v.clear();
            v.resize(n, false);
        };
        reset(&mut self.free);
        reset(&mut self.land);
        reset(&mut self.anchor);
        reset(&mut self.own_city);
        reset(&mut self.mountain);
        self.own.clear();
        self.own.resize(n, NO_LETTER);
        self.forest.clear();
        self.forest.resize(n, 0);
        let terrain = board.terrain.cells();
        let letters = board.letters.cells();
        for c in 0..n {
            if let Some(t) = letters[c].filter(|t| t.player == player) {
                self.own[c] = letter_index(t.letter).unwrap_or(NO_LETTER);
            }
            self.land[c] = terrain[c].is_land();
            self.mountain[c] = terrain[c] == Terrain::Mountain;
            self.free[c] = self.own[c] == NO_LETTER && terrain[c] != Terrain::Lava;
            if self.free[c] && terrain[c] == Terrain::Forest {
                self.forest[c] = board.density.cells()[c];
            }
        }
        for city in board
            .cities
            .iter()
            .filter(|c| !c.destroyed && c.owner == Owner::from(player))
        {
            self.own_city[city.at.y as usize * w + city.at.x as usize] = true;
        }
        self.connected.clear();
        self.connected
            .extend_from_slice(game.connected_grid(player).cells());
        for c in 0..n {
            self.anchor[c] = self.free[c] && (self.own_city[c] || self.own_neighbour(c));
        }
    }

    fn own_neighbour(&self, c: usize) -> bool {
        let (x, y) = (c % self.width, c / self.width);
        (x > 0 && self.own[c - 1] != NO_LETTER)
            || (x + 1 < self.width && self.own[c + 1] != NO_LETTER)
            || (y > 0 && self.own[c - self.width] != NO_LETTER)
            || (y + 1 < self.height && self.own[c + self.width] != NO_LETTER)
    }

    /// The cross-checks for main words in `dir`: the crossing words run the other way.
    fn cross_checks(&mut self, graph: &WordGraph, dir: Direction) {
        let d = dir_index(dir);
        let n = self.width * self.height;
        let mut cross = std::mem::take(&mut self.cross[d]);
        let mut joins = std::mem::take(&mut self.cross_joins[d]);
        cross.clear();
        cross.resize(n, ALL_LETTERS);
        joins.clear();
        joins.resize(n, false);
        for c in 0..n {
            if !self.free[c] {
                continue;
            }
            let run = self.crossing_run(c, dir);
            if run.before == 0 && run.after == 0 {
                continue;
            }
            joins[c] = run.cells(c).any(|k| self.connected[k]);
            cross[c] = self.crossing_letters(graph, c, &run);
        }
        self.cross[d] = cross;
        self.cross_joins[d] = joins;
    }

    /// The letters that make the crossing run through `c` a word whose ends are on land.
    fn crossing_letters(&self, graph: &WordGraph, c: usize, run: &CrossingRun) -> LetterSet {
        if !self.land[run.top(c)] || !self.land[run.bottom(c)] {
            return 0;
        }
        let letter_at = |k: usize| self.own[k];
        let mut node = graph.root();
        for k in (1..=run.before).rev().map(|s| c - s * run.stride) {
            match graph.child(node, letter_at(k)) {
                Some(next) => node = next,
                None => return 0,
            }
        }
        let mut allowed = 0;
        let mut letters = graph.letters(node);
        while letters != 0 {
            let letter = letters.trailing_zeros() as LetterIndex;
            letters &= letters - 1;
            let mut end = graph.child(node, letter);
            for k in (1..=run.after).map(|s| c + s * run.stride) {
                end = end.and_then(|n| graph.child(n, letter_at(k)));
            }
            if end.is_some_and(|end| graph.is_word(end)) {
                allowed |= 1 << letter;
            }
        }
        allowed
    }

    /// The own letters in the crossing line just before and just after `c`.
    fn crossing_run(&self, c: usize, dir: Direction) -> CrossingRun {
        let (x, y) = (c % self.width, c / self.width);
        // Main words across are crossed by columns, and main words down by rows.
        let (stride, index, len) = match dir {
            Direction::Across => (self.width, y, self.height),
            Direction::Down => (1, x, self.width),
        };
        let own = |k: usize| self.own[k] != NO_LETTER;
        let before = (1..=index).take_while(|&s| own(c - s * stride)).count();
        let after = (1..len - index)
            .take_while(|&s| own(c + s * stride))
            .count();
        CrossingRun {
            stride,
            before,
            after,
        }
    }
}

/// The own letters crossing a cell: how many run just before it and just after it, and the
/// step between cells of that line.
struct CrossingRun {
    stride: usize,
    before: usize,
    after: usize,
}

impl CrossingRun {
    fn top(&self, c: usize) -> usize {
        c - self.before * self.stride
    }

    fn bottom(&self, c: usize) -> usize {
        c + self.after * self.stride
    }

    /// The run's cells, without `c`.
    fn cells(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        let before = (1..=self.before).map(move |s| c - s * self.stride);
        let after = (1..=self.after).map(move |s| c + s * self.stride);
        before.chain(after)
    }
}

//! Move generation: every legal placement of a rack for a player (docs/RULES.md section 4), the
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

mod bound;
mod cells;
mod gaddag;

pub use bound::Floor;
use bound::Worth;
use cells::{AnchorNeeds, Cells};

use crate::board::{Player, Pos};
use crate::game::strength::placement_strength;
use crate::game::{Game, Placement, WordKey};
use crate::lexicon::graph::{LetterIndex, LetterSet, NodeId, WordGraph};
use crate::map::Direction;
use crate::rules::ForestCut;

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
    /// The most `k` letters of the rack as prepared are worth, for every `k` up to its size.
    best_of_rack: Vec<i64>,
    /// Whether `cells.sums` are those of the board last prepared.
    sums_ready: bool,
    /// What every word through the anchor whose left parts are being made must have ahead of
    /// its left part.
    anchor_needs: AnchorNeeds,
    /// A GADDAG search's letters, by cell of the line around the anchor (see
    /// `gaddag::Span::slot`), and which of them are placed from the rack.
    letters: [u8; 2 * MAX_WORD],
    placed_cells: u128,
    /// A bounded search's anchors, most promising first: each with its bound, line and cell
    /// (kept to reuse its allocation).
    anchor_order: Vec<(f64, Line, usize)>,
    /// Whether `anchor_order` is that of the rack last prepared.
    order_ready: bool,
    /// Steps a GADDAG search has taken.
    steps: u64,
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
            best_of_rack: Vec::new(),
            sums_ready: false,
            anchor_needs: AnchorNeeds::default(),
            letters: [0; 2 * MAX_WORD],
            placed_cells: 0,
            anchor_order: Vec::new(),
            order_ready: false,
            steps: 0,
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
        let mut cx = Context {
            graph,
            game,
            floor,
            sink,
        };
        if let Some(floor) = floor {
            self.prepare_sums();
            self.order_ready = false;
            self.best_first(&mut cx, floor, false, None);
            return;
        }
        for dir in [Direction::Across, Direction::Down] {
            for line in self.lines(dir) {
                self.line(&mut cx, line);
            }
        }
    }

    /// A bounded search, best first: every anchor's bound worked out (once a prepared rack),
    /// the anchors searched from the highest bound down, and the search stopped at the first
    /// whose bound cannot reach the floor, which the best placements found early have raised.
    /// Through a GADDAG (`cx.graph` is one) when `gaddag`. With a `budget` of steps, the search
    /// gives up between anchors once it has taken more and found nothing (the floor is where
    /// it started): returns whether it searched to the end.
    fn best_first(
        &mut self,
        cx: &mut Context<'_>,
        floor: &Floor,
        gaddag: bool,
        budget: Option<u64>,
    ) -> bool {
        if !self.order_ready {
            self.order_anchors(floor);
        }
        let order = std::mem::take(&mut self.anchor_order);
        let started_at = floor.least.get();
        self.steps = 0;
        let mut complete = true;
        for &(bound, line, anchor) in &order {
            if !floor.reached_by(bound) {
                break;
            }
            let found_nothing = floor.least.get().to_bits() == started_at.to_bits();
            if budget.is_some_and(|budget| self.steps > budget) && found_nothing {
                complete = false;
                break;
            }
            if gaddag {
                self.gaddag_at_anchor(cx, line, anchor);
            } else {
                self.placements_at_anchor::<true>(cx, line, anchor);
            }
        }
        self.anchor_order = order;
        complete
    }

    /// Every anchor with its bound, the highest first (the bounds depend on the rack as
    /// prepared and the floor's mountain weights, not on how high the floor stands).
    fn order_anchors(&mut self, floor: &Floor) {
        let mut order = std::mem::take(&mut self.anchor_order);
        order.clear();
        for dir in [Direction::Across, Direction::Down] {
            for line in self.lines(dir) {
                for anchor in 0..line.len {
                    if self.cells.anchor[line.cell(anchor)] {
                        let first = self.first_cell_before(line, anchor);
                        order.push((self.anchor_bound(floor, line, first, anchor), line, anchor));
                    }
                }
            }
        }
        // Stable, so that anchors of equal bound keep the board's order.
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        self.anchor_order = order;
        self.order_ready = true;
    }

    /// The first cell a word through `anchor` may start at: the start of the own letters
    /// just before it, or else as far back as free cells that are no anchors go.
    fn first_cell_before(&self, line: Line, anchor: usize) -> usize {
        self.own_run_start(line, anchor)
            .unwrap_or_else(|| anchor - self.left_part_limit(line, anchor))
    }

    /// Where the run of own letters just before `anchor` starts, if one is there (a word
    /// through the anchor must then begin with all of it).
    #[inline]
    fn own_run_start(&self, line: Line, anchor: usize) -> Option<usize> {
        let own = |i: usize| self.cells.own[line.cell(i)] != NO_LETTER;
        if anchor == 0 || !own(anchor - 1) {
            return None;
        }
        let mut start = anchor - 1;
        while start > 0 && own(start - 1) {
            start -= 1;
        }
        Some(start)
    }

    /// How many free cells that are no anchors lie just before `anchor` (at most a word's
    /// length less one): the longest left part it may take.
    fn left_part_limit(&self, line: Line, anchor: usize) -> usize {
        let mut limit = 0;
        while limit < anchor && limit < MAX_WORD - 1 {
            let c = line.cell(anchor - limit - 1);
            if !self.cells.free[c] || self.cells.anchor[c] {
                break;
            }
            limit += 1;
        }
        limit
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
        self.cells.read(game, player, graph);
        self.sums_ready = false;
        self.order_ready = false;
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

    /// Every placement along `line`, in an unbounded search (a bounded one visits its anchors
    /// best first instead: `best_first`).
    fn line(&mut self, cx: &mut Context<'_>, line: Line) {
        for anchor in 0..line.len {
            if self.cells.anchor[line.cell(anchor)] {
                self.placements_at_anchor::<false>(cx, line, anchor);
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
        if let Some(start) = self.own_run_start(line, anchor) {
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
        let limit = self.left_part_limit(line, anchor);
        if self.anchor_may_reach_floor(cx, line, anchor - limit, anchor) {
            self.anchor_needs = self.cells.needs_at(line, anchor);
            self.left_parts::<BOUNDED>(cx, line, anchor, cx.graph.root(), 0, limit);
        }
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
        for (letter, next) in cx.graph.children(node, self.rack_set) {
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
        for (letter, next) in cx.graph.children(node, self.rack_set & cross) {
            self.take(letter, len);
            let worth = self.worth_with::<BOUNDED>(worth, line, at, letter);
            self.extend_right::<BOUNDED>(cx, line, anchor, start, next, at + 1, worth);
            self.give_back(letter, len);
        }
    }

    /// The value of the word's first `len` letters.
    #[inline]
    fn word_value(&self, len: usize) -> i64 {
        self.word[..len]
            .iter()
            .map(|&l| self.letter_values[usize::from(l)])
            .sum()
    }

    #[inline]
    fn take(&mut self, letter: LetterIndex, position: usize) {
        self.take_from_rack(letter);
        self.word[position] = letter;
        self.placed |= 1 << position;
    }

    #[inline]
    fn give_back(&mut self, letter: LetterIndex, position: usize) {
        self.give_back_to_rack(letter);
        self.placed &= !(1 << position);
    }

    #[inline]
    fn take_from_rack(&mut self, letter: LetterIndex) {
        let l = usize::from(letter);
        self.rack_left -= 1;
        self.rack[l] -= 1;
        if self.rack[l] == 0 {
            self.rack_set &= !(1 << letter);
        }
    }

    #[inline]
    fn give_back_to_rack(&mut self, letter: LetterIndex) {
        self.rack_left += 1;
        self.rack[usize::from(letter)] += 1;
        self.rack_set |= 1 << letter;
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
        // The connotations' names as the lexicon holds them: nothing allocated a name, as this
        // runs for every placement through a forest.
        let connotations = cx.game.lexicon().connotations(text);
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

//! The bounded search through a GADDAG (see `WordGraph::gaddag_of`): the spy's hot loop.
//!
//! The words' graph spells a word from its first letter, so a search from an anchor spells
//! every beginning the rack makes in the free cells before it, and only then meets the own
//! letters after the anchor: most beginnings die there, each having cost a walk. Through a
//! GADDAG the search starts at the anchor's letter and goes left first: the own letters just
//! before the anchor are met at once, and every letter placed to the left must already begin,
//! with what is placed, some word's reversed start. Once the word's start is chosen, the
//! separator leads on to the right of the anchor, as the words' graph would.
//!
//! The placements are the same as the words' graph's search finds (every legal placement
//! whose main word is a word of the graph, each from its leftmost anchor), the bound the
//! same, the order within an anchor different; the placements go through the same checks of
//! the whole placement (`MoveGen::record`).

use super::bound::{Floor, Worth};
use super::{Context, Line, MAX_WORD, MoveGen, NO_LETTER, dir_index};
use crate::game::Game;
use crate::lexicon::graph::{LetterIndex, NodeId, SEPARATOR, WordGraph};

/// Where a word being spelled through an anchor stands: the anchor; the pivot, the cell the
/// walk starts from (the last of the own letters just after the anchor, which every word
/// through the anchor spells, or else the anchor); where the left part may go back to, and
/// whether it must go back exactly there (an own run before the anchor is all of the word's
/// start).
#[derive(Clone, Copy)]
struct Span {
    line: Line,
    anchor: usize,
    pivot: usize,
    first: usize,
    run_before: bool,
}

impl Span {
    /// The letter buffer's slot for cell `at` of the line (a word spans at most `MAX_WORD`
    /// cells either side of its anchor).
    #[inline]
    fn slot(&self, at: usize) -> usize {
        at + MAX_WORD - self.anchor
    }
}

impl MoveGen {
    /// Calls `sink` for the legal placements of the rack last prepared whose main word is a
    /// word of `gaddag` (the GADDAG of the dictionary or a part of it; cross-words are
    /// checked against the whole dictionary) and whose strength before multipliers can reach
    /// `floor`, the anchors searched best first (see [`MoveGen::search`]). With a `budget` of
    /// steps (letters tried), the search gives up between anchors once it has taken more
    /// without finding anything (without raising the floor): returns whether it searched to
    /// the end, which it does once it has found something.
    pub fn search_gaddag(
        &mut self,
        game: &Game,
        gaddag: &WordGraph,
        floor: &Floor,
        budget: Option<u64>,
        sink: &mut dyn FnMut(&super::Move),
    ) -> bool {
        let mut cx = Context {
            graph: gaddag,
            game,
            floor: Some(floor),
            sink,
        };
        self.prepare_sums();
        self.best_first(&mut cx, floor, true, budget)
    }

    /// Every placement whose first anchor is `anchor`, through the GADDAG: from the pivot
    /// left over the own letters after the anchor, the anchor's letter, then on left.
    pub(super) fn gaddag_at_anchor(&mut self, cx: &mut Context<'_>, line: Line, anchor: usize) {
        let run = self.own_run_start(line, anchor);
        let mut pivot = anchor;
        while pivot + 1 < line.len && self.cells.own[line.cell(pivot + 1)] != NO_LETTER {
            pivot += 1;
        }
        let span = Span {
            line,
            anchor,
            pivot,
            first: run.unwrap_or_else(|| anchor - self.left_part_limit(line, anchor)),
            run_before: run.is_some(),
        };
        if pivot - span.first >= MAX_WORD {
            return;
        }
        let graph = cx.graph;
        let (mut node, mut worth) = (graph.root(), Worth::default());
        for at in (anchor + 1..=pivot).rev() {
            let own = self.cells.own[line.cell(at)];
            let Some(next) = graph.child(node, own) else {
                return;
            };
            self.letters[span.slot(at)] = own;
            (node, worth) = (next, self.worth_with::<true>(worth, line, at, own));
        }
        let allowed = self.rack_set & self.cells.cross[dir_index(line.dir)][line.cell(anchor)];
        for (letter, next) in graph.children(node, allowed) {
            self.place_at(span, anchor, letter);
            let worth = self.worth_with::<true>(worth, line, anchor, letter);
            self.go_left(cx, span, anchor, next, worth);
            self.unplace_at(span, anchor, letter);
        }
    }

    /// The word spelled from cell `leftmost` to the pivot, reversed, up to `node`: ends the
    /// left part here (the word may end at the pivot, or go on to its right), or goes on left.
    fn go_left(
        &mut self,
        cx: &mut Context<'_>,
        span: Span,
        leftmost: usize,
        node: NodeId,
        worth: Worth,
    ) {
        let graph = cx.graph;
        self.steps += 1;
        if !span.run_before || leftmost == span.first {
            // The cell after the pivot holds no own letter: the word may end at the pivot.
            let after = span.pivot + 1;
            if graph.is_word(node) && after - leftmost >= self.min_len {
                self.record_span(cx, span, (leftmost, after), worth);
            }
            if let Some(right) = graph.child(node, SEPARATOR) {
                self.go_right(cx, span, leftmost, right, after, worth);
            }
        }
        if leftmost == span.first {
            return;
        }
        let at = leftmost - 1;
        let own = self.cells.own[span.line.cell(at)];
        if own != NO_LETTER {
            if let Some(next) = graph.child(node, own) {
                self.letters[span.slot(at)] = own;
                let worth = self.worth_with::<true>(worth, span.line, at, own);
                self.go_left(cx, span, at, next, worth);
            }
            return;
        }
        let allowed =
            self.rack_set & self.cells.cross[dir_index(span.line.dir)][span.line.cell(at)];
        if graph.letters(node) & allowed == 0
            || !self.left_may_reach_floor(cx, span, leftmost, graph.longest(node), worth)
        {
            return;
        }
        for (letter, next) in graph.children(node, allowed) {
            self.place_at(span, at, letter);
            let worth = self.worth_with::<true>(worth, span.line, at, letter);
            self.go_left(cx, span, at, next, worth);
            self.unplace_at(span, at, letter);
        }
    }

    /// The word started at `start`, spelled up to `node` with cell `at` next, going right of
    /// the anchor: as the words' graph's search extends a word to the right.
    fn go_right(
        &mut self,
        cx: &mut Context<'_>,
        span: Span,
        start: usize,
        node: NodeId,
        at: usize,
        worth: Worth,
    ) {
        let line = span.line;
        self.steps += 1;
        if at - start >= MAX_WORD {
            return;
        }
        if at < line.len {
            let own = self.cells.own[line.cell(at)];
            if own != NO_LETTER {
                if let Some(next) = cx.graph.child(node, own) {
                    self.letters[span.slot(at)] = own;
                    let worth = self.worth_with::<true>(worth, line, at, own);
                    self.go_right(cx, span, start, next, at + 1, worth);
                }
                return;
            }
        }
        if at - start >= self.min_len && cx.graph.is_word(node) {
            self.record_span(cx, span, (start, at), worth);
        }
        if at >= line.len || !self.cells.free[line.cell(at)] {
            return;
        }
        let allowed = self.rack_set & self.cells.cross[dir_index(line.dir)][line.cell(at)];
        if cx.graph.letters(node) & allowed == 0
            || !self.may_reach_floor::<true>(cx, line, (start, at), node, worth)
        {
            return;
        }
        for (letter, next) in cx.graph.children(node, allowed) {
            self.place_at(span, at, letter);
            let worth = self.worth_with::<true>(worth, line, at, letter);
            self.go_right(cx, span, start, next, at + 1, worth);
            self.unplace_at(span, at, letter);
        }
    }

    /// Whether a word whose left part has reached `leftmost` (its letters worth `worth`, at
    /// most `longest` more letters to come, the separator counted) could still reach the
    /// floor: its letters, plus what the free cells left of it and the cells right of the
    /// pivot can hold, within those letters and the rack's reach.
    #[inline]
    fn left_may_reach_floor(
        &self,
        cx: &Context<'_>,
        span: Span,
        leftmost: usize,
        longest: usize,
        worth: Worth,
    ) -> bool {
        let Some(floor) = cx.floor else {
            return true;
        };
        let line = span.line;
        let after = span.pivot + 1;
        let end = self
            .cells
            .reach_from(line, after)
            .min(self.cells.end_within(line, after, self.rack_left))
            .min(after + longest)
            .max(after);
        let from = span.first.max(leftmost.saturating_sub(longest));
        let ahead = self.cells.sums_between(line, from, leftmost)
            + self.cells.sums_between(line, after, end);
        let mountains = self.cells.sums_between(line, from, end).mountains;
        self.most_reachable_reaches(floor, worth, ahead, mountains)
    }

    /// Takes `letter` from the rack onto cell `at`.
    #[inline]
    fn place_at(&mut self, span: Span, at: usize, letter: LetterIndex) {
        self.take_from_rack(letter);
        self.letters[span.slot(at)] = letter;
        self.placed_cells |= 1 << span.slot(at);
    }

    /// Gives `letter` on cell `at` back to the rack.
    #[inline]
    fn unplace_at(&mut self, span: Span, at: usize, letter: LetterIndex) {
        self.give_back_to_rack(letter);
        self.placed_cells &= !(1 << span.slot(at));
    }

    /// Records the word on cells `start..end` (its letters in the buffer, worth `worth`), if
    /// it reaches the floor: the cheapest check, and the one most words fail.
    fn record_span(
        &mut self,
        cx: &mut Context<'_>,
        span: Span,
        (start, end): (usize, usize),
        worth: Worth,
    ) {
        if let Some(floor) = cx.floor {
            let mountains = self.cells.sums_between(span.line, start, end).mountains;
            if !floor.reached_by(floor.most(worth.plain, worth.on_mountains, mountains)) {
                return;
            }
        }
        let len = end - start;
        let from = span.slot(start);
        self.word[..len].copy_from_slice(&self.letters[from..from + len]);
        self.placed = ((self.placed_cells >> from) as u64) & ((1u64 << len) - 1);
        self.record(cx, span.line, start, len);
    }
}

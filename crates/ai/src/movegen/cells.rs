//! The board as one player's side sees it, cell by cell: own letters, free cells, anchors,
//! terrain and the cross-checks a placed letter must pass.

use super::bound::LineSums;
use super::{Line, NO_LETTER, dir_index, letter_index};
use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::Game;
use crate::game::Tile;
use crate::lexicon::graph::{ALL_LETTERS, LetterSet, WordGraph};
use crate::map::Direction;
use crate::rules::{CrosswordModel, FirstWord};

/// What a player's side of the board looks like to the generator, cell by cell (row by row).
#[derive(Default)]
pub(super) struct Cells {
    pub(super) width: usize,
    pub(super) height: usize,
    /// The player's letter on the cell, or `NO_LETTER`.
    pub(super) own: Vec<u8>,
    /// Whether a letter may be placed (no own letter, not lava).
    pub(super) free: Vec<bool>,
    /// Whether a word may end here (land: not water, not lava).
    pub(super) land: Vec<bool>,
    pub(super) anchor: Vec<bool>,
    /// Whether the own letter here is connected to an owned city.
    pub(super) connected: Vec<bool>,
    /// Whether a city the player owns is here.
    pub(super) own_city: Vec<bool>,
    /// Forest density under a free forest cell, else 0.
    pub(super) forest: Vec<i64>,
    /// Whether the cell is a mountain.
    pub(super) mountain: Vec<bool>,
    /// Per direction of the main word: the letters a placement here may have so that the word
    /// it makes across that direction (with own letters) is in the dictionary.
    pub(super) cross: [Vec<LetterSet>; 2],
    /// Per direction: whether that crossing run of own letters holds a connected letter.
    pub(super) cross_joins: [Vec<bool>; 2],
    /// Per direction of the main word: running totals along each line, for bounding what a
    /// word can still reach (see [`Floor`]).
    pub(super) sums: [Vec<LineSums>; 2],
    /// Per direction of the main word: for each cell, the index along its line of the first
    /// cell from it on that no word of the rack can cover (lava, or a free cell whose
    /// cross-check lets no letter of the rack through), or the line's length.
    pub(super) reach: [Vec<u32>; 2],
    /// Per direction of the main word: the index along the line of its free cells in order,
    /// the `k`th (from 0) kept in the line's `k`th cell, for finding how far a number of the
    /// rack's letters can reach.
    pub(super) free_at: [Vec<u32>; 2],
    /// What the cells (and their cross-checks) were last read from.
    read_from: ReadFrom,
}

/// Everything the cells and their cross-checks are read from, kept so that a board read
/// again unchanged (the spy asked twice, other racks weighed in the same position) is not:
/// as wolges keeps its cross-checks for the rows and columns that did not change.
#[derive(Default)]
struct ReadFrom {
    player: Option<Player>,
    /// The graph the cross-checks were made with, by address.
    graph: usize,
    rules: Option<(CrosswordModel, FirstWord)>,
    letters: Vec<Option<Tile>>,
    terrain: Vec<Terrain>,
    density: Vec<i64>,
    cities: Vec<(Pos, Owner, bool)>,
}

impl ReadFrom {
    fn rules_of(game: &Game) -> (CrosswordModel, FirstWord) {
        let crossword = &game.rules().crossword;
        (crossword.model, crossword.first_word)
    }

    fn cities_of(game: &Game) -> impl Iterator<Item = (Pos, Owner, bool)> + '_ {
        game.board()
            .cities
            .iter()
            .map(|c| (c.at, c.owner, c.destroyed))
    }

    /// Whether `game` from `player`'s side, with the cross-checks of `graph`, is what the
    /// cells were last read from.
    fn is(&self, game: &Game, player: Player, graph: &WordGraph) -> bool {
        let board = game.board();
        self.player == Some(player)
            && self.graph == std::ptr::from_ref(graph) as usize
            && self.rules == Some(Self::rules_of(game))
            && self.letters == board.letters.cells()
            && self.terrain == board.terrain.cells()
            && self.density == board.density.cells()
            && self.cities.iter().copied().eq(Self::cities_of(game))
    }

    fn remember(&mut self, game: &Game, player: Player, graph: &WordGraph) {
        let board = game.board();
        self.player = Some(player);
        self.graph = std::ptr::from_ref(graph) as usize;
        self.rules = Some(Self::rules_of(game));
        self.letters.clear();
        self.letters.extend_from_slice(board.letters.cells());
        self.terrain.clear();
        self.terrain.extend_from_slice(board.terrain.cells());
        self.density.clear();
        self.density.extend_from_slice(board.density.cells());
        self.cities.clear();
        self.cities.extend(Self::cities_of(game));
    }
}

/// What a word must spell from an anchor on: one of `anchor_letters`, then the own letters
/// right after the anchor (`run_letters`, `run_len` of them).
#[derive(Clone, Copy, Default)]
pub(super) struct AnchorNeeds {
    pub(super) anchor_letters: LetterSet,
    pub(super) run_letters: LetterSet,
    pub(super) run_len: usize,
}

impl Cells {
    /// Reads the board from `player`'s side with the cross-checks of `graph`, unless that
    /// is what was read last.
    pub(super) fn read(&mut self, game: &Game, player: Player, graph: &WordGraph) {
        if self.read_from.is(game, player, graph) {
            return;
        }
        self.fill(game, player);
        for dir in [Direction::Across, Direction::Down] {
            self.cross_checks(graph, dir);
        }
        self.read_from.remember(game, player, graph);
    }

    pub(super) fn pos(&self, cell: usize) -> Pos {
        Pos::new((cell % self.width) as u32, (cell / self.width) as u32)
    }

    /// What a word through `anchor` of `line` (a free cell) must spell from it on.
    pub(super) fn needs_at(&self, line: Line, anchor: usize) -> AnchorNeeds {
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

    pub(super) fn has_own_beside(&self, cell: usize) -> bool {
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
        // In a shared crossword every letter on the board is the player's to build through,
        // and only empty cells are free.
        let shared = game.rules().crossword.model == CrosswordModel::Shared;
        let mut any_letter = false;
        for c in 0..n {
            any_letter |= letters[c].is_some();
            if let Some(t) = letters[c].filter(|t| shared || t.player == player) {
                self.own[c] = letter_index(t.letter).unwrap_or(NO_LETTER);
            }
            self.land[c] = terrain[c].is_land();
            self.mountain[c] = terrain[c] == Terrain::Mountain;
            self.free[c] = self.own[c] == NO_LETTER && terrain[c] != Terrain::Lava;
            if self.free[c] && terrain[c] == Terrain::Forest {
                self.forest[c] = board.density.cells()[c];
            }
        }
        if shared {
            if !any_letter {
                self.mark_first_word_cells(game, player);
            }
        } else {
            for city in board
                .cities
                .iter()
                .filter(|c| !c.destroyed && c.owner == Owner::from(player))
            {
                self.own_city[city.at.y as usize * w + city.at.x as usize] = true;
            }
        }
        self.connected.clear();
        self.connected
            .extend_from_slice(game.connected_grid(player).cells());
        for c in 0..n {
            self.anchor[c] = self.free[c] && (self.own_city[c] || self.own_neighbour(c));
        }
    }

    /// A shared crossword's starting cells, for its board holding no letter: the first word
    /// must cover one, as a separate crossword's covers an own city (`own_city` marks them).
    /// Once a letter stands, every word is anchored beside the letters instead.
    fn mark_first_word_cells(&mut self, game: &Game, player: Player) {
        let board = game.board();
        match game.rules().crossword.first_word {
            FirstWord::Centre => {
                let centre = game.centre_cell();
                self.own_city[centre.y as usize * self.width + centre.x as usize] = true;
            }
            FirstWord::Anywhere => self.own_city.copy_from_slice(&self.free),
            FirstWord::OwnCity => {
                for city in board
                    .cities
                    .iter()
                    .filter(|c| !c.destroyed && c.owner == Owner::from(player))
                {
                    self.own_city[city.at.y as usize * self.width + city.at.x as usize] = true;
                }
            }
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
        for (letter, next) in graph.children(node, ALL_LETTERS) {
            let mut end = Some(next);
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

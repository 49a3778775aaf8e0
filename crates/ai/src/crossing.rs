//! The crossword search of simultaneous play (Lexicon Crossing): from all of a player's tiles,
//! build one connected crossword of dictionary words in their region, using every tile if it
//! can, crossing on the letters worth most.
//!
//! The crossword is grown as a tree: a first word, then words that each cross exactly one
//! letter already laid, every other cell of them free and touching nothing, so that no run
//! forms that is not one of the words. Each attempt grows greedily with some chance in its
//! choices; the best of several attempts is kept (complete first, then the higher crossing
//! score, then the fewer leftovers).

use crate::board::{Player, Pos, Terrain};
use crate::game::{Game, Placement};
use crate::lexicon::graph::{ALL_LETTERS, LetterIndex, LetterSet, NodeId, WordGraph};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::cmp::Ordering;

/// The most words one search lists: the longest are wanted, and past this many the
/// dictionary's alphabetical order decides which are seen.
const MAX_WORDS: usize = 6000;

/// The most words tried at the anchors, the worthiest first.
const WORDS_TRIED: usize = 400;

/// How many of the best words at a point the iterated greedy (`improve`) chooses among.
const TURNS_AMONG: usize = 4;

/// The most nodes of the word graph one search visits.
const SEARCH_BUDGET: usize = 100_000;

/// A crossword the search built for a player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Every letter laid, with its cell.
    pub letters: Vec<Placement>,
    /// The tiles it could not use.
    pub leftovers: Vec<char>,
    /// The values of the letters in two words.
    pub points: i64,
    /// How many words.
    pub words: i64,
}

impl Plan {
    /// Whether the plan uses every tile (it can then be signalled).
    pub fn is_complete(&self) -> bool {
        self.leftovers.is_empty() && self.words > 0
    }

    /// The crossing score's divisor: words and leftovers.
    fn divisor(&self) -> i64 {
        self.words + self.leftovers.len() as i64
    }

    /// Which plan is better: complete first, then the higher score, then fewer leftovers.
    pub fn compare(&self, other: &Plan) -> Ordering {
        let by_score = (i128::from(self.points) * i128::from(other.divisor().max(1)))
            .cmp(&(i128::from(other.points) * i128::from(self.divisor().max(1))));
        self.is_complete()
            .cmp(&other.is_complete())
            .then(by_score)
            .then(other.leftovers.len().cmp(&self.leftovers.len()))
    }
}

/// A direction a word runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    Across,
    Down,
}

impl Dir {
    fn bit(self) -> u8 {
        match self {
            Dir::Across => 1,
            Dir::Down => 2,
        }
    }

    fn step(self) -> (i64, i64) {
        match self {
            Dir::Across => (1, 0),
            Dir::Down => (0, 1),
        }
    }

    fn other(self) -> Dir {
        match self {
            Dir::Across => Dir::Down,
            Dir::Down => Dir::Across,
        }
    }
}

/// The area a player builds in, and what the search needs of the rules.
struct Area<'a> {
    graph: &'a WordGraph,
    values: [i64; 26],
    min_len: usize,
    origin: Pos,
    width: i64,
    height: i64,
    /// Cells the player may lay on: on the board, not lava, not on or beside another's letter.
    open: Vec<bool>,
    /// What a point of a crossed letter counts for against the tiles a word lays.
    crossing_weight: i64,
    /// How many of the best next words growth picks among at random (1: the best).
    among: usize,
}

/// How a crossword is searched for.
#[derive(Clone, Copy, Debug)]
pub struct Search {
    /// Fresh attempts, the best kept.
    pub attempts: usize,
    /// Whether fresh attempts are made even when the crossword laid grows to take every tile.
    pub rebuild: bool,
    /// What a point of the letter a word crosses counts for, against four for each point of
    /// the word's tiles (each tile ten, and its value).
    pub crossing_weight: i64,
    /// Rounds of the iterated greedy after the attempts (`improve`).
    pub improve: usize,
    /// How many of the best next words growth picks among at random (1: always the best).
    pub among: usize,
}

/// Builds the best crossword `search` finds for all of `player`'s tiles in `game`. When the
/// crossword laid is complete, growing it with the new tiles comes first, and is kept if it
/// uses them all unless `search.rebuild` asks for fresh attempts as well.
pub fn best_plan(game: &Game, player: Player, search: Search, rng: &mut ChaCha8Rng) -> Plan {
    let Search {
        attempts, rebuild, ..
    } = search;
    let tiles = tiles_of(game, player);
    let Some(area) = Area::of(game, player, search) else {
        return Plan {
            leftovers: tiles,
            ..Plan::default()
        };
    };
    let mut best: Option<Plan> = None;
    if game.laid_crossword_lacks(player).is_none() {
        let (grown, _) = Growth::from_laid(&area, game, player).grow_on(rng);
        if grown.is_complete() && !rebuild {
            return grown;
        }
        best = Some(grown);
    }
    let mut best_fresh: Option<(Plan, Vec<Candidate>)> = None;
    for _ in 0..attempts.max(1) {
        let fresh = Growth::new(&area, &tiles).grow(rng);
        if best_fresh
            .as_ref()
            .is_none_or(|(b, _)| fresh.0.compare(b) == Ordering::Greater)
        {
            best_fresh = Some(fresh);
        }
    }
    if let Some(fresh) = best_fresh.as_mut() {
        improve(&area, &tiles, fresh, search.improve, rng);
    }
    match (best, best_fresh) {
        (Some(b), Some((f, _))) if f.compare(&b) != Ordering::Greater => b,
        (_, Some((f, _))) => f,
        (b, None) => b.unwrap_or_default(),
    }
}

/// Iterated greedy: `rounds` times, the words of `best` kept up to a point chosen at random,
/// the next one of the few best there taken instead, the rest grown again; a better crossword
/// replaces `best`.
fn improve(
    area: &Area,
    tiles: &[char],
    best: &mut (Plan, Vec<Candidate>),
    rounds: usize,
    rng: &mut ChaCha8Rng,
) {
    for _ in 0..rounds {
        if best.1.is_empty() {
            return;
        }
        let kept = rng.random_range(0..best.1.len());
        let mut growth = Growth::new(area, tiles);
        for word in &best.1[..kept] {
            growth.lay(word);
        }
        let turn = if kept == 0 {
            growth.first_word(rng)
        } else {
            growth.next_word(rng, TURNS_AMONG)
        };
        let Some(turn) = turn else {
            continue;
        };
        growth.lay(&turn);
        let tried = growth.grow_on(rng);
        if tried.0.compare(&best.0) == Ordering::Greater {
            *best = tried;
        }
    }
}

/// Every tile `player` has: laid on the board and on the rack.
pub fn tiles_of(game: &Game, player: Player) -> Vec<char> {
    let laid = game.laid_letters(player).into_iter().map(|p| p.letter);
    laid.chain(game.rack_letters(player).chars()).collect()
}

impl<'a> Area<'a> {
    fn of(game: &'a Game, player: Player, search: Search) -> Option<Area<'a>> {
        let board = game.board();
        let (w, h) = (board.terrain.width(), board.terrain.height());
        let (low, high) = game.own_region_bounds(player).unwrap_or((
            Pos::new(0, 0),
            Pos::new(w.checked_sub(1)?, h.checked_sub(1)?),
        ));
        let (width, height) = (i64::from(high.x - low.x + 1), i64::from(high.y - low.y + 1));
        let mut open = Vec::with_capacity((width * height) as usize);
        for y in low.y..=high.y {
            for x in low.x..=high.x {
                let at = Pos::new(x, y);
                let others = std::iter::once(at)
                    .chain(board.letters.neighbours4(at))
                    .any(|c| board.letters[c].is_some_and(|t| t.player != player));
                let lava = board.terrain.get(at).is_none_or(|&t| t == Terrain::Lava);
                open.push(!others && !lava);
            }
        }
        let rules = game.rules();
        let mut values = [0; 26];
        for (i, v) in values.iter_mut().enumerate() {
            *v = rules.letter_value(char::from(b'A' + i as u8)).unwrap_or(0);
        }
        Some(Area {
            graph: game.lexicon().graph(),
            values,
            min_len: usize::try_from(rules.placement.min_word_length)
                .unwrap_or(2)
                .max(2),
            origin: low,
            width,
            height,
            open,
            crossing_weight: search.crossing_weight,
            among: search.among.max(1),
        })
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        ((0..self.width).contains(&x) && (0..self.height).contains(&y))
            .then(|| (y * self.width + x) as usize)
    }
}

/// One attempt's crossword as it grows.
struct Growth<'a> {
    area: &'a Area<'a>,
    counts: [u8; 26],
    cells: Vec<Option<LetterIndex>>,
    /// The directions of the words through each cell, a bit each.
    dirs: Vec<u8>,
    points: i64,
    words: i64,
    /// The words laid by this growth, in order (not those of a crossword it started from).
    laid: Vec<Candidate>,
}

/// A word that could be laid: its letters, first cell and direction.
#[derive(Clone, Debug)]
struct Candidate {
    word: Vec<LetterIndex>,
    x: i64,
    y: i64,
    dir: Dir,
    /// The value of the letter it crosses (0 for the first word).
    crossing: i64,
}

impl<'a> Growth<'a> {
    fn new(area: &'a Area<'a>, tiles: &[char]) -> Growth<'a> {
        let mut counts = [0u8; 26];
        for &c in tiles {
            if let Some(i) = letter_index(c) {
                counts[usize::from(i)] = counts[usize::from(i)].saturating_add(1);
            }
        }
        Growth {
            area,
            counts,
            cells: vec![None; area.open.len()],
            dirs: vec![0; area.open.len()],
            points: 0,
            words: 0,
            laid: Vec::new(),
        }
    }

    /// `player`'s crossword as laid in `game` (complete: a tree of words), their rack's
    /// tiles still to lay.
    fn from_laid(area: &'a Area<'a>, game: &Game, player: Player) -> Growth<'a> {
        let rack: Vec<char> = game.rack_letters(player).chars().collect();
        let mut growth = Growth::new(area, &rack);
        for p in game.laid_letters(player) {
            let x = i64::from(p.at.x) - i64::from(area.origin.x);
            let y = i64::from(p.at.y) - i64::from(area.origin.y);
            if let Some(i) = area.index(x, y) {
                growth.cells[i] = letter_index(p.letter);
            }
        }
        // A cell's words run the ways its neighbours in the crossword lie.
        let laid = |x: i64, y: i64| area.index(x, y).is_some_and(|i| growth.cells[i].is_some());
        let dirs: Vec<(usize, u8)> = (0..growth.cells.len())
            .filter(|&i| growth.cells[i].is_some())
            .map(|i| {
                let (x, y) = (i as i64 % area.width, i as i64 / area.width);
                let across = laid(x - 1, y) || laid(x + 1, y);
                let down = laid(x, y - 1) || laid(x, y + 1);
                (
                    i,
                    u8::from(across) * Dir::Across.bit() + u8::from(down) * Dir::Down.bit(),
                )
            })
            .collect();
        for (i, dir) in dirs {
            growth.dirs[i] = dir;
        }
        let score = game.crossing_score(player);
        (growth.points, growth.words) = (score.points, score.words);
        growth
    }

    fn grow(mut self, rng: &mut ChaCha8Rng) -> (Plan, Vec<Candidate>) {
        if let Some(first) = self.first_word(rng) {
            self.lay(&first);
        }
        self.grow_on(rng)
    }

    /// Lays words crossing what is laid while any fits; the plan, and the words this growth
    /// laid in order.
    fn grow_on(mut self, rng: &mut ChaCha8Rng) -> (Plan, Vec<Candidate>) {
        if self.words > 0 {
            while let Some(next) = self.next_word(rng, self.area.among) {
                self.lay(&next);
            }
        }
        (self.plan(), self.laid)
    }

    /// The opening word: one of the longest the tiles make, across the area's middle.
    fn first_word(&self, rng: &mut ChaCha8Rng) -> Option<Candidate> {
        let mut words = words_from(self.area, &self.counts);
        words.sort_by_key(|w| std::cmp::Reverse(self.worth(w)));
        let longest = words.len().min(8);
        if longest == 0 {
            return None;
        }
        let word = words.swap_remove(rng.random_range(0..longest));
        let (w, h) = (self.area.width, self.area.height);
        let len = word.len() as i64;
        let (x, y) = ((w - len).max(0) / 2, h / 2);
        let first = Candidate {
            word,
            x,
            y,
            dir: Dir::Across,
            crossing: 0,
        };
        self.fits(&first, &[]).then_some(first)
    }

    /// How much laying `word` is worth: its tiles, the dear ones most (they are hardest to
    /// place later).
    fn worth(&self, word: &[LetterIndex]) -> i64 {
        word.iter()
            .map(|&l| 10 + self.area.values[usize::from(l)])
            .sum()
    }

    /// The next word: the best of those crossing one laid letter (with `among` above one, any
    /// of the `among` best, at random), or none.
    fn next_word(&self, rng: &mut ChaCha8Rng, among: usize) -> Option<Candidate> {
        if among > 1 {
            return self.next_word_among(rng, among);
        }
        let weight = self.area.crossing_weight;
        let mut best: Option<(i64, Candidate)> = None;
        for (word, letter) in &self.ranked_crossing_words() {
            // Tiles first; then a dear crossing; chance breaks near-ties.
            let crossing = self.area.values[usize::from(*letter)];
            let score = self.worth(word) * 4 + crossing * weight + rng.random_range(0..12);
            if best.as_ref().is_some_and(|(b, _)| score <= *b) {
                continue;
            }
            if let Some(candidate) = self.fitting(word, *letter) {
                best = Some((score, candidate));
            }
        }
        best.map(|(_, c)| c)
    }

    /// One of the `among` best words crossing one laid letter, at random.
    fn next_word_among(&self, rng: &mut ChaCha8Rng, among: usize) -> Option<Candidate> {
        let mut fitting = Vec::with_capacity(among);
        for (word, letter) in &self.ranked_crossing_words() {
            fitting.extend(self.fitting(word, *letter));
            if fitting.len() >= among {
                break;
            }
        }
        if fitting.is_empty() {
            return None;
        }
        Some(fitting.swap_remove(rng.random_range(0..fitting.len())))
    }

    /// The words the tiles make crossing one laid letter, the worthiest first (their tiles,
    /// and the crossed letter's value by the area's weight), at most `WORDS_TRIED`.
    fn ranked_crossing_words(&self) -> Vec<(Vec<LetterIndex>, LetterIndex)> {
        let anchors = self.anchor_letters();
        let mut words = crossing_words(self.area, &self.counts, anchors);
        let weight = self.area.crossing_weight;
        words.sort_by_key(|(w, c)| {
            std::cmp::Reverse(self.worth(w) * 4 + self.area.values[usize::from(*c)] * weight)
        });
        words.truncate(WORDS_TRIED);
        words
    }

    /// `word` laid across a cell holding `letter` that a word could still cross, if it fits
    /// at one.
    fn fitting(&self, word: &[LetterIndex], letter: LetterIndex) -> Option<Candidate> {
        self.anchors_of(letter).find_map(|anchor| {
            word.iter()
                .enumerate()
                .filter(|&(_, &l)| l == letter)
                .find_map(|(i, _)| self.crossing_at(anchor, word, i))
        })
    }

    /// The letters laid that a word could still cross.
    fn anchor_letters(&self) -> LetterSet {
        self.cells
            .iter()
            .zip(&self.dirs)
            .filter(|&(_, &d)| d.count_ones() == 1)
            .filter_map(|(c, _)| *c)
            .fold(0, |set, l| set | (1 << l))
    }

    /// The cells holding `letter` that a word could still cross.
    fn anchors_of(&self, letter: LetterIndex) -> impl Iterator<Item = usize> + '_ {
        (0..self.cells.len())
            .filter(move |&i| self.cells[i] == Some(letter) && self.dirs[i].count_ones() == 1)
    }

    /// `word` laid across the cell `anchor` with its `i`th letter there, if it fits.
    fn crossing_at(&self, anchor: usize, word: &[LetterIndex], i: usize) -> Option<Candidate> {
        let dir = if self.dirs[anchor] == Dir::Across.bit() {
            Dir::Down
        } else {
            Dir::Across
        };
        let (ax, ay) = (
            anchor as i64 % self.area.width,
            anchor as i64 / self.area.width,
        );
        let (dx, dy) = dir.step();
        let start = (ax - dx * i as i64, ay - dy * i as i64);
        self.fits_at(word.len(), start, dir, &[anchor])
            .then(|| Candidate {
                word: word.to_vec(),
                x: start.0,
                y: start.1,
                dir,
                crossing: self.area.values[usize::from(word[i])],
            })
    }

    /// Whether `c` can be laid: every cell open and free but the crossed one, nothing beside
    /// its new letters, and nothing just before or after it.
    fn fits(&self, c: &Candidate, crossed: &[usize]) -> bool {
        self.fits_at(c.word.len(), (c.x, c.y), c.dir, crossed)
    }

    /// Whether a word of `len` letters fits from `start` in `dir` (see `fits`).
    fn fits_at(&self, len: usize, start: (i64, i64), dir: Dir, crossed: &[usize]) -> bool {
        let (dx, dy) = dir.step();
        let (sx, sy) = dir.other().step();
        let (len, (x0, y0)) = (len as i64, start);
        let free = |x: i64, y: i64| {
            self.area
                .index(x, y)
                .is_none_or(|i| self.cells[i].is_none())
        };
        if !free(x0 - dx, y0 - dy) || !free(x0 + dx * len, y0 + dy * len) {
            return false;
        }
        (0..len).all(|k| {
            let (x, y) = (x0 + dx * k, y0 + dy * k);
            let Some(i) = self.area.index(x, y) else {
                return false;
            };
            if crossed.contains(&i) {
                return true;
            }
            self.area.open[i]
                && self.cells[i].is_none()
                && free(x + sx, y + sy)
                && free(x - sx, y - sy)
        })
    }

    /// Lays `c`: its new letters leave the tiles.
    fn lay(&mut self, c: &Candidate) {
        let (dx, dy) = c.dir.step();
        for (k, &letter) in c.word.iter().enumerate() {
            let Some(i) = self.area.index(c.x + dx * k as i64, c.y + dy * k as i64) else {
                continue;
            };
            if self.cells[i].is_none() {
                self.cells[i] = Some(letter);
                let count = &mut self.counts[usize::from(letter)];
                *count = count.saturating_sub(1);
            }
            self.dirs[i] |= c.dir.bit();
        }
        self.points += c.crossing;
        self.words += 1;
        self.laid.push(c.clone());
    }

    fn plan(&self) -> Plan {
        let area = self.area;
        let letters = self
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                let letter = char::from(b'A' + (*c)?);
                let (x, y) = (i as i64 % area.width, i as i64 / area.width);
                Some(Placement {
                    at: Pos::new(area.origin.x + x as u32, area.origin.y + y as u32),
                    letter,
                })
            })
            .collect();
        let leftovers = self
            .counts
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(char::from(b'A' + i as u8), usize::from(n)))
            .collect();
        Plan {
            letters,
            leftovers,
            points: self.points,
            words: self.words,
        }
    }
}

fn letter_index(c: char) -> Option<LetterIndex> {
    let c = c.to_ascii_uppercase();
    c.is_ascii_uppercase().then(|| c as u8 - b'A')
}

/// The words the tiles `counts` make, at most `MAX_WORDS` and no longer than the area's sides.
fn words_from(area: &Area, counts: &[u8; 26]) -> Vec<Vec<LetterIndex>> {
    let mut search = WordSearch::new(area, counts, 0);
    search.walk(area.graph.root());
    search.found.into_iter().map(|(w, _)| w).collect()
}

/// The words the tiles `counts` make with one letter of `anchors` more (the letter crossed),
/// each with that letter.
fn crossing_words(
    area: &Area,
    counts: &[u8; 26],
    anchors: LetterSet,
) -> Vec<(Vec<LetterIndex>, LetterIndex)> {
    let mut search = WordSearch::new(area, counts, anchors);
    search.walk(area.graph.root());
    search
        .found
        .into_iter()
        .filter_map(|(w, c)| Some((w, c?)))
        .collect()
}

/// A walk of the word graph spending tiles, and (where `anchors` has letters) one letter
/// crossed, which every word found must use.
struct WordSearch<'a> {
    graph: &'a WordGraph,
    counts: [u8; 26],
    anchors: LetterSet,
    crossed: Option<LetterIndex>,
    min_len: usize,
    max_len: usize,
    word: Vec<LetterIndex>,
    found: Vec<(Vec<LetterIndex>, Option<LetterIndex>)>,
    /// Nodes the walk may still visit: a bound on the time one search takes.
    budget: usize,
}

impl<'a> WordSearch<'a> {
    fn new(area: &'a Area, counts: &[u8; 26], anchors: LetterSet) -> WordSearch<'a> {
        WordSearch {
            graph: area.graph,
            counts: *counts,
            anchors,
            crossed: None,
            min_len: area.min_len,
            max_len: usize::try_from(area.width.max(area.height)).unwrap_or(0),
            word: Vec::with_capacity(32),
            found: Vec::new(),
            budget: SEARCH_BUDGET,
        }
    }

    fn walk(&mut self, node: NodeId) {
        if self.found.len() >= MAX_WORDS || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let done = self.anchors == 0 || self.crossed.is_some();
        if self.word.len() >= self.min_len && done && self.graph.is_word(node) {
            self.found.push((self.word.clone(), self.crossed));
        }
        if self.word.len() >= self.max_len {
            return;
        }
        let held = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n > 0)
            .fold(0 as LetterSet, |set, (i, _)| set | (1 << i));
        let crossable = if self.crossed.is_none() {
            self.anchors
        } else {
            0
        };
        let next = (held | crossable) & ALL_LETTERS;
        let children: Vec<(LetterIndex, NodeId)> = self.graph.children(node, next).collect();
        for (letter, child) in children {
            let bit = 1 << letter;
            // A held tile is spent first; the crossed letter is tried too where it could be.
            if held & bit != 0 {
                self.step(letter, child, false);
            }
            if crossable & bit != 0 {
                self.step(letter, child, true);
            }
        }
    }

    fn step(&mut self, letter: LetterIndex, child: NodeId, crossing: bool) {
        if crossing {
            self.crossed = Some(letter);
        } else {
            self.counts[usize::from(letter)] -= 1;
        }
        self.word.push(letter);
        self.walk(child);
        self.word.pop();
        if crossing {
            self.crossed = None;
        } else {
            self.counts[usize::from(letter)] += 1;
        }
    }
}

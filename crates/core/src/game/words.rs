//! Words on the board: maximal runs of one player's letters, across and down, and which
//! letters are connected to a city their player owns.

use super::letters::{Letters, for_each_stretch};
use crate::board::{Grid, Player, Pos};
use crate::map::Direction;
use serde::{Deserialize, Serialize};

/// A letter on the board and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tile {
    /// Whose letter it is.
    pub player: Player,
    /// The letter, uppercase A to Z.
    pub letter: char,
}

/// Where a word stands: its first cell, its direction and its length. Two words with the same
/// key are the same word; a word whose letters change gets a new key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct WordKey {
    /// The first cell (leftmost or topmost).
    pub start: Pos,
    /// Across or down.
    pub dir: Direction,
    /// Number of letters.
    pub len: u32,
}

impl WordKey {
    /// The cells of the word, first to last.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.len).filter_map(|i| self.dir.step(self.start, i))
    }

    /// Whether the word covers `pos`.
    pub fn covers(&self, pos: Pos) -> bool {
        match self.dir {
            Direction::Across => {
                pos.y == self.start.y && pos.x >= self.start.x && pos.x < self.start.x + self.len
            }
            Direction::Down => {
                pos.x == self.start.x && pos.y >= self.start.y && pos.y < self.start.y + self.len
            }
        }
    }
}

/// A word on the board: where it is, whose it is, and its letters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Word {
    /// Whose word it is.
    pub player: Player,
    /// Where it stands.
    pub key: WordKey,
    /// Its letters, uppercase.
    pub text: String,
}

/// Whose letters one word runs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// One player's letters (separate crosswords): a run stops where the other's begin.
    OfOnePlayer,
    /// Anyone's letters (a shared crossword); the word is credited to its first letter's
    /// player.
    OfAnyone,
}

impl Runs {
    /// Whether a run of `player`'s letters goes on through `tile`.
    #[inline]
    fn continues(self, player: Player, tile: Tile) -> bool {
        match self {
            Runs::OfOnePlayer => tile.player == player,
            Runs::OfAnyone => true,
        }
    }
}

/// Every maximal run of at least `min_len` letters of one player, across then down, in
/// board order.
pub fn find_words(letters: &Letters, min_len: u32) -> Vec<Word> {
    find_runs(letters, min_len, Runs::OfOnePlayer)
}

/// Every maximal run of at least `min_len` letters, of one player or of anyone as `runs`
/// says, across then down, in board order.
///
/// The engine asks this several times an action (every combat, every removal), and boards
/// are mostly empty: the letters keep a bit mask of the occupied cells per row and per column
/// (`Letters`), and only the stretches of occupied cells long enough to hold a word are
/// walked; a word's text is made only for runs long enough to be words.
pub fn find_runs(letters: &Letters, min_len: u32, runs: Runs) -> Vec<Word> {
    let mut words = Vec::new();
    for_each_word(letters, min_len, runs, |player, key, text| {
        words.push(Word {
            player,
            key,
            text: text.to_string(),
        });
    });
    words
}

/// Calls `f(player, key, text)` for every run `find_runs` finds, in the same order, without
/// making a text for each (the score weighs every word of the board at every position an AI
/// looks at).
pub fn for_each_word(
    letters: &Letters,
    min_len: u32,
    runs: Runs,
    mut f: impl FnMut(Player, WordKey, &str),
) {
    let mut text = String::new();
    for line in Line::all(letters) {
        for_each_word_in(letters, line, min_len, runs, &mut text, &mut f);
    }
}

/// One row or one column of the board: every word lies along one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// The row at this height (its words run across).
    Row(u32),
    /// The column at this place (its words run down).
    Column(u32),
}

impl Line {
    /// Every row of `letters`, top to bottom, then every column, left to right.
    pub(super) fn all(letters: &Letters) -> impl Iterator<Item = Line> + use<> {
        let rows = (0..letters.height()).map(Line::Row);
        rows.chain((0..letters.width()).map(Line::Column))
    }

    /// The line `key`'s word lies along.
    pub(super) fn of(key: WordKey) -> Line {
        match key.dir {
            Direction::Across => Line::Row(key.start.y),
            Direction::Down => Line::Column(key.start.x),
        }
    }
}

/// [`for_each_word`] along one `line`; `text` is a buffer reused from run to run.
pub(super) fn for_each_word_in(
    letters: &Letters,
    line: Line,
    min_len: u32,
    runs: Runs,
    text: &mut String,
    mut f: impl FnMut(Player, WordKey, &str),
) {
    let w = letters.width() as usize;
    let cells = letters.cells();
    let min = min_len.max(2) as usize;
    let occupied = letters.occupancy();
    match line {
        Line::Row(y) => {
            let y = y as usize;
            for_each_stretch(occupied.row(y), min, |from, to| {
                let row = &cells[y * w + from..y * w + to];
                for_each_run(
                    row.iter().copied(),
                    min,
                    runs,
                    text,
                    |start, len, player, text| {
                        let start = Pos::new(from as u32 + start, y as u32);
                        let dir = Direction::Across;
                        f(player, WordKey { start, dir, len }, text);
                    },
                );
            });
        }
        Line::Column(x) => {
            let x = x as usize;
            for_each_stretch(occupied.column(x), min, |from, to| {
                let column = (from..to).map(|y| cells[y * w + x]);
                for_each_run(column, min, runs, text, |start, len, player, text| {
                    let start = Pos::new(x as u32, from as u32 + start);
                    let dir = Direction::Down;
                    f(player, WordKey { start, dir, len }, text);
                });
            });
        }
    }
}

/// Calls `emit(start, length, player, text)` for every maximal run of one player's letters of
/// at least `min` along `line`; `text` is a buffer reused from run to run.
fn for_each_run(
    line: impl Iterator<Item = Option<Tile>>,
    min: usize,
    runs: Runs,
    text: &mut String,
    mut emit: impl FnMut(u32, u32, Player, &str),
) {
    let mut run: Option<(u32, Player)> = None;
    let mut flush = |run: Option<(u32, Player)>, end: u32, text: &mut String| {
        if let Some((start, player)) = run
            && (end - start) as usize >= min
        {
            emit(start, end - start, player, text);
        }
        text.clear();
    };
    let mut i = 0u32;
    for cell in line {
        match (cell, run) {
            (Some(tile), Some((_, player))) if runs.continues(player, tile) => {
                text.push(tile.letter)
            }
            (Some(tile), _) => {
                flush(run, i, text);
                run = Some((i, tile.player));
                text.push(tile.letter);
            }
            (None, Some(_)) => {
                flush(run, i, text);
                run = None;
            }
            (None, None) => {}
        }
        i += 1;
    }
    flush(run, i, text);
}

/// The run of `player`'s letters (or of anyone's, as `runs` says) through `pos` in
/// direction `dir` (with `pos` counted as one of them), as the key of the run; `None` if the
/// run is a single letter.
pub fn run_through(
    letters: &Grid<Option<Tile>>,
    player: Player,
    runs: Runs,
    pos: Pos,
    dir: Direction,
    placed: &dyn Fn(Pos) -> bool,
) -> Option<WordKey> {
    let own = |p: Pos| {
        placed(p)
            || letters
                .get(p)
                .copied()
                .flatten()
                .is_some_and(|t| runs.continues(player, t))
    };
    let back = |p: Pos| match dir {
        Direction::Across => p.x.checked_sub(1).map(|x| Pos::new(x, p.y)),
        Direction::Down => p.y.checked_sub(1).map(|y| Pos::new(p.x, y)),
    };
    let mut start = pos;
    while let Some(prev) = back(start).filter(|&p| letters.contains(p) && own(p)) {
        start = prev;
    }
    let mut len = 1;
    while dir
        .step(start, len)
        .is_some_and(|p| letters.contains(p) && own(p))
    {
        len += 1;
    }
    (len >= 2).then_some(WordKey { start, dir, len })
}

/// Which of `player`'s letters are connected: joined by a 4-connected path of their letters
/// to a letter on one of `cities` (the cities the player owns). A scanline flood fill: it takes
/// whole runs of a row at a time, so that it stays fast on a crowded 512x512 board.
pub fn connected(
    letters: &Grid<Option<Tile>>,
    player: Player,
    cities: impl IntoIterator<Item = Pos>,
) -> Grid<bool> {
    let (w, h) = (letters.width() as usize, letters.height() as usize);
    let cells = letters.cells();
    let mut seen = vec![false; w * h];
    let open = |seen: &[bool], i: usize| !seen[i] && cells[i].is_some_and(|t| t.player == player);
    let mut stack: Vec<(usize, usize)> = cities
        .into_iter()
        .filter(|&c| letters.contains(c))
        .map(|c| (c.x as usize, c.y as usize))
        .collect();
    while let Some((x, y)) = stack.pop() {
        let row = y * w;
        if !open(&seen, row + x) {
            continue;
        }
        let (mut left, mut right) = (x, x);
        while left > 0 && open(&seen, row + left - 1) {
            left -= 1;
        }
        while right + 1 < w && open(&seen, row + right + 1) {
            right += 1;
        }
        seen[row + left..=row + right].fill(true);
        let neighbour_rows = [y.checked_sub(1), (y + 1 < h).then_some(y + 1)];
        for ny in neighbour_rows.into_iter().flatten() {
            let mut in_run = false;
            for nx in left..=right {
                let free = open(&seen, ny * w + nx);
                if free && !in_run {
                    stack.push((nx, ny));
                }
                in_run = free;
            }
        }
    }
    Grid::from_cells(letters.width(), letters.height(), seen).expect("one flag per cell")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Letters {
        let cells = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| match c {
                'a'..='z' => Some(Tile {
                    player: Player::Silver,
                    letter: c.to_ascii_uppercase(),
                }),
                'A'..='Z' => Some(Tile {
                    player: Player::Gold,
                    letter: c,
                }),
                _ => None,
            })
            .collect();
        Grid::from_cells(rows[0].len() as u32, rows.len() as u32, cells)
            .unwrap()
            .into()
    }

    /// Each word's player and text, as `runs` finds them on `b`.
    fn runs_on(b: &Letters, runs: Runs) -> Vec<(Player, String)> {
        find_runs(b, 2, runs)
            .into_iter()
            .map(|w| (w.player, w.text))
            .collect()
    }

    /// Every run by walking every cell of every line: what `find_runs` must find.
    fn runs_cell_by_cell(b: &Grid<Option<Tile>>, min: usize, runs: Runs) -> Vec<Word> {
        let (w, h) = (b.width(), b.height());
        let mut words = Vec::new();
        let mut text = String::new();
        let lines = (0..h)
            .map(|y| {
                (
                    Direction::Across,
                    (0..w).map(move |x| Pos::new(x, y)).collect::<Vec<_>>(),
                )
            })
            .chain((0..w).map(|x| {
                (
                    Direction::Down,
                    (0..h).map(move |y| Pos::new(x, y)).collect(),
                )
            }));
        for (dir, cells) in lines {
            for_each_run(
                cells.iter().map(|&p| b[p]),
                min,
                runs,
                &mut text,
                |start, len, player, text| {
                    words.push(Word {
                        player,
                        key: WordKey {
                            start: cells[start as usize],
                            dir,
                            len,
                        },
                        text: text.to_string(),
                    });
                },
            );
        }
        words
    }

    /// On random boards of every shape (rows and columns past one 64-bit word, runs across a
    /// word's edge, full lines), the stretches found by bit masks give the runs a walk over
    /// every cell gives.
    #[test]
    fn runs_by_masks_are_runs_cell_by_cell() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(26);
        for case in 0..300 {
            let (w, h) = (rng.random_range(1..=140u32), rng.random_range(1..=70u32));
            let density = [0.05, 0.3, 0.7, 1.0][case % 4];
            let cells = (0..w * h)
                .map(|_| {
                    rng.random_bool(density).then(|| Tile {
                        player: if rng.random_bool(0.5) {
                            Player::Gold
                        } else {
                            Player::Silver
                        },
                        letter: char::from(b'A' + rng.random_range(0..26u8)),
                    })
                })
                .collect();
            let mut b = Letters::from(Grid::from_cells(w, h, cells).unwrap());
            // Letters set and taken off one at a time keep the occupancy true.
            for _ in 0..rng.random_range(0..40) {
                let at = Pos::new(rng.random_range(0..w), rng.random_range(0..h));
                let tile = rng.random_bool(0.5).then_some(Tile {
                    player: Player::Gold,
                    letter: 'E',
                });
                assert!(b.set(at, tile));
            }
            assert!(!b.set(Pos::new(w, 0), None), "off the board");
            for runs in [Runs::OfOnePlayer, Runs::OfAnyone] {
                for min in [2, 3, 65] {
                    assert_eq!(
                        find_runs(&b, min as u32, runs),
                        runs_cell_by_cell(&b, min, runs),
                        "{w}x{h}, density {density}, {runs:?}, min {min}"
                    );
                }
            }
        }
    }

    #[test]
    fn runs_of_each_player() {
        let b = board(&["CAT.", "O..s", "Wpit", "...s"]);
        assert_eq!(find_words(&b, 2), find_runs(&b, 2, Runs::OfOnePlayer));
        assert_eq!(
            runs_on(&b, Runs::OfOnePlayer),
            vec![
                (Player::Gold, "CAT".into()),
                (Player::Silver, "PIT".into()),
                (Player::Gold, "COW".into()),
                (Player::Silver, "STS".into()),
            ]
        );
    }

    #[test]
    fn shared_runs_go_through_anyones_letters() {
        let b = board(&["CAt.", "O..s", "Wpit", "...s"]);
        assert_eq!(
            runs_on(&b, Runs::OfAnyone),
            vec![
                (Player::Gold, "CAT".into()),
                (Player::Gold, "WPIT".into()),
                (Player::Gold, "COW".into()),
                (Player::Silver, "STS".into()),
            ]
        );
        let placed = |p: Pos| p == Pos::new(3, 0);
        let key = run_through(
            &b,
            Player::Gold,
            Runs::OfAnyone,
            Pos::new(3, 0),
            Direction::Across,
            &placed,
        );
        assert_eq!(key.map(|k| (k.start, k.len)), Some((Pos::new(0, 0), 4)));
    }

    #[test]
    fn connection_follows_own_letters_only() {
        let b = board(&["CAT.", "...s", "DOGs"]);
        let c = connected(&b, Player::Gold, [Pos::new(0, 0)]);
        assert!(c[Pos::new(2, 0)]);
        assert!(!c[Pos::new(0, 2)]);
    }

    #[test]
    fn connection_winds_through_spirals_and_dead_ends() {
        let b = board(&["CATSX", "....X", "XXX.X", "X...X", "XXXXX", "..X.."]);
        let c = connected(&b, Player::Gold, [Pos::new(0, 0)]);
        let reached: Vec<Pos> = b.positions().filter(|&p| c[p]).collect();
        assert_eq!(
            reached.len(),
            b.cells().iter().filter(|t| t.is_some()).count()
        );
        let none = connected(&b, Player::Gold, [Pos::new(1, 1)]);
        assert!(
            none.cells().iter().all(|&r| !r),
            "a city without a letter connects nothing"
        );
    }

    #[test]
    fn run_through_counts_placed_letters() {
        let b = board(&["CA..", "....", "...."]);
        let placed = |p: Pos| p == Pos::new(2, 0) || p == Pos::new(3, 0);
        let run = |dir| {
            run_through(
                &b,
                Player::Gold,
                Runs::OfOnePlayer,
                Pos::new(3, 0),
                dir,
                &placed,
            )
        };
        let key = run(Direction::Across).unwrap();
        assert_eq!((key.start, key.len), (Pos::new(0, 0), 4));
        assert_eq!(run(Direction::Down), None);
    }
}

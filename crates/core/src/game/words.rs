//! Words on the board: maximal runs of one player's letters, across and down, and which
//! letters are connected to a city their player owns.

use crate::board::{Grid, Player, Pos};
use crate::map::Direction;
use serde::{Deserialize, Serialize};

/// A letter on the board and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    /// Whose letter it is.
    pub player: Player,
    /// The letter, uppercase A to Z.
    pub letter: char,
}

/// Where a word stands: its first cell, its direction and its length. Two words with the same
/// key are the same word; a word whose letters change gets a new key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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
pub fn find_words(letters: &Grid<Option<Tile>>, min_len: u32) -> Vec<Word> {
    find_runs(letters, min_len, Runs::OfOnePlayer)
}

/// Every maximal run of at least `min_len` letters, of one player or of anyone as `runs`
/// says, across then down, in board order.
///
/// The engine asks this several times an action (every combat, every removal), so it walks
/// the grid's cells directly, a row or a column at a time, and makes a word's text only for
/// runs long enough to be words.
pub fn find_runs(letters: &Grid<Option<Tile>>, min_len: u32, runs: Runs) -> Vec<Word> {
    let (w, h) = (letters.width() as usize, letters.height() as usize);
    let cells = letters.cells();
    let min = min_len.max(2) as usize;
    let mut words = Vec::new();
    let mut text = String::new();
    for y in 0..h {
        let row = &cells[y * w..(y + 1) * w];
        for_each_run(
            row.iter().copied(),
            min,
            runs,
            &mut text,
            |start, len, player, text| {
                words.push(Word {
                    player,
                    key: WordKey {
                        start: Pos::new(start, y as u32),
                        dir: Direction::Across,
                        len,
                    },
                    text: text.to_string(),
                });
            },
        );
    }
    for x in 0..w {
        let column = (0..h).map(|y| cells[y * w + x]);
        for_each_run(column, min, runs, &mut text, |start, len, player, text| {
            words.push(Word {
                player,
                key: WordKey {
                    start: Pos::new(x as u32, start),
                    dir: Direction::Down,
                    len,
                },
                text: text.to_string(),
            });
        });
    }
    words
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

    fn board(rows: &[&str]) -> Grid<Option<Tile>> {
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
        Grid::from_cells(rows[0].len() as u32, rows.len() as u32, cells).unwrap()
    }

    /// Each word's player and text, as `runs` finds them on `b`.
    fn runs_on(b: &Grid<Option<Tile>>, runs: Runs) -> Vec<(Player, String)> {
        find_runs(b, 2, runs)
            .into_iter()
            .map(|w| (w.player, w.text))
            .collect()
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

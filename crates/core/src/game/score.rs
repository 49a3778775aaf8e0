//! Scores: a seat's word score (its valid words' face values, or its letters on the board,
//! as `crossword.scoring` says) and base score, every seat's at once for the AI, and the face
//! value of a word.

use super::words::{Line, WordKey};
use super::{Game, Score, words};
use crate::board::Player;
use crate::rules::RuleSet;

impl Game {
    /// `player`'s score: word score (valid words' face values, or letters on the board, as
    /// `crossword.scoring` says) plus base score.
    pub fn score(&self, player: Player) -> Score {
        let word: i64 = match self.rules.crossword.scoring {
            crate::rules::Scoring::WordFaceValues => self.word_scores()[player.index()],
            crate::rules::Scoring::TilesOnBoard => {
                let own = self.board.letters.cells().iter().flatten();
                i64::try_from(own.filter(|t| t.player == player).count()).unwrap_or(i64::MAX)
            }
            crate::rules::Scoring::ByScripts => 0,
            crate::rules::Scoring::CrossingRatio => self.crossing_score(player).points,
        };
        self.score_of(player, word)
    }

    /// `player`'s score with `word` as their word score.
    fn score_of(&self, player: Player, word: i64) -> Score {
        let base = self.player(player).base_score;
        Score {
            word,
            base,
            total: word.saturating_add(base),
        }
    }

    /// Every seat's score, in seat order: the board's words found and weighed once for all
    /// (an AI weighs every position it looks at by the lead, one seat's score against
    /// another's).
    pub fn scores(&self) -> Vec<Score> {
        match self.rules.crossword.scoring {
            crate::rules::Scoring::WordFaceValues => {
                let words = self.word_scores();
                self.seats()
                    .map(|p| self.score_of(p, words[p.index()]))
                    .collect()
            }
            _ => self.seats().map(|p| self.score(p)).collect(),
        }
    }

    /// Every seat's score, as [`Game::scores`] gives it, counted beside `base`, a game this
    /// one came from by a few actions (an AI's candidate played out on a copy), whose scores
    /// are `base_scores`: only the rows and columns where the two differ, in letters or in the
    /// marks that make words invalid, are walked again on both boards. An AI weighs hundreds
    /// of outcomes of one position, each different from it in a few lines; walking every word
    /// of the board for each was a quarter of a game's time.
    pub fn scores_beside(&self, base: &Game, base_scores: &[Score]) -> Vec<Score> {
        let comparable = self.rules.crossword.scoring == crate::rules::Scoring::WordFaceValues
            && std::sync::Arc::ptr_eq(&self.rules, &base.rules)
            && std::sync::Arc::ptr_eq(&self.lexicon, &base.lexicon)
            && base_scores.len() == self.players.len()
            && base.players.len() == self.players.len()
            && self.board.letters.width() == base.board.letters.width()
            && self.board.letters.height() == base.board.letters.height();
        if !comparable {
            return self.scores();
        }
        let mut words: [i64; crate::board::MAX_SEATS] =
            std::array::from_fn(|i| base_scores.get(i).map_or(0, |s| s.word));
        let lines = self.lines_differing_from(base);
        base.add_valid_words(lines.iter().copied(), &mut words, -1);
        self.add_valid_words(lines.iter().copied(), &mut words, 1);
        self.seats()
            .map(|p| self.score_of(p, words[p.index()]))
            .collect()
    }

    /// The rows and columns where this game's letters or its marks of invalid words differ
    /// from `base`'s (boards of one size), each once.
    fn lines_differing_from(&self, base: &Game) -> Vec<Line> {
        let (mine, theirs) = (&self.board.letters, &base.board.letters);
        let (w, h) = (mine.width(), mine.height());
        let mut rows = vec![false; h as usize];
        let mut columns = vec![false; w as usize];
        for y in 0..h {
            let (a, b) = (
                mine.row(y).unwrap_or_default(),
                theirs.row(y).unwrap_or_default(),
            );
            // Only cells occupied on either board can differ: most of a row is empty.
            let (here, there) = (
                mine.occupancy().row(y as usize),
                theirs.occupancy().row(y as usize),
            );
            for (i, (&p, &q)) in here.iter().zip(there).enumerate() {
                let mut either = p | q;
                while either != 0 {
                    let x = i * 64 + either.trailing_zeros() as usize;
                    either &= either - 1;
                    if a.get(x) != b.get(x) {
                        rows[y as usize] = true;
                        columns[x] = true;
                    }
                }
            }
        }
        for (_, key) in self.marks_differing_from(base) {
            match Line::of(key) {
                Line::Row(y) => rows[y as usize] = true,
                Line::Column(x) => columns[x as usize] = true,
            }
        }
        let rows = (0..h).filter(|&y| rows[y as usize]).map(Line::Row);
        let columns = (0..w).filter(|&x| columns[x as usize]).map(Line::Column);
        rows.chain(columns).collect()
    }

    /// The marks of invalid words (defeated, fragments) that one of this game and `base` has
    /// and the other has not.
    fn marks_differing_from<'a>(
        &'a self,
        base: &'a Game,
    ) -> impl Iterator<Item = (Player, WordKey)> + 'a {
        let (mine, theirs) = (&self.marks, &base.marks);
        let defeated = mine.defeated.symmetric_difference(&theirs.defeated);
        let fragments = mine.fragments.symmetric_difference(&theirs.fragments);
        defeated.chain(fragments).copied()
    }

    /// Adds `sign` times the face value of each valid word along `lines` to its seat's slot
    /// of `scores`.
    fn add_valid_words(
        &self,
        lines: impl Iterator<Item = Line>,
        scores: &mut [i64; crate::board::MAX_SEATS],
        sign: i64,
    ) {
        let (min, runs) = (self.min_word_len(), self.runs());
        let mut text = String::new();
        let letters = &self.board.letters;
        for line in lines {
            words::for_each_word_in(letters, line, min, runs, &mut text, |player, key, text| {
                if self.is_valid_text(player, key, text) {
                    let slot = &mut scores[player.index()];
                    *slot = slot.saturating_add(sign.saturating_mul(self.face_value(text)));
                }
            });
        }
    }

    /// The face values of each seat's valid words on the board, by seat index.
    fn word_scores(&self) -> [i64; crate::board::MAX_SEATS] {
        let mut scores = [0i64; crate::board::MAX_SEATS];
        self.add_valid_words(Line::all(&self.board.letters), &mut scores, 1);
        scores
    }

    /// The face value of `text`: the sum of its letters' values (A to Z from the table kept
    /// with the rules, any other letter from the rules' set).
    pub(super) fn face_value(&self, text: &str) -> i64 {
        text.chars()
            .map(|c| {
                let value = match c {
                    'A'..='Z' => self.values[usize::from(c as u8 - b'A')],
                    _ => self.rules.letter_value(c),
                };
                value.unwrap_or(0)
            })
            .sum()
    }
}

/// The value of each letter A to Z under `rules` (`None` for a letter the set does not have).
pub(super) fn ascii_values(rules: &RuleSet) -> [Option<i64>; 26] {
    std::array::from_fn(|i| rules.letter_value(char::from(b'A' + i as u8)))
}

//! Scores: a seat's word score (its valid words' face values, or its letters on the board,
//! as `crossword.scoring` says) and base score, every seat's at once for the AI, and the face
//! value of a word.

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

    /// The face values of each seat's valid words on the board, by seat index.
    fn word_scores(&self) -> [i64; crate::board::MAX_SEATS] {
        let mut scores = [0i64; crate::board::MAX_SEATS];
        let (min, runs) = (self.min_word_len(), self.runs());
        words::for_each_word(&self.board.letters, min, runs, |player, key, text| {
            if self.is_valid_text(player, key, text) {
                let slot = &mut scores[player.index()];
                *slot = slot.saturating_add(self.face_value(text));
            }
        });
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

//! Crossing scores (`crossword.scoring: CrossingRatio`): a crossword scored by
//! its crossings. The points are the face values of the letters that are part of two words;
//! the score is the points over the words plus the leftover tiles (each leftover counting as
//! one more word), kept as an exact fraction and shown `9/4 = 2.25`.
//!
//! A leftover is a tile on the rack, a letter in no run of two or more, or a letter in a run
//! that is not a word (as decided for the rules that use it); a word whose run holds such a letter still
//! counts as a word, and the letter earns no crossing points.

use super::Game;
use super::words::{Runs, find_runs};
use crate::board::{Grid, Player};
use std::cmp::Ordering;

/// A player's crossing score: points over words plus leftovers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrossingScore {
    /// The face values of the letters in two words.
    pub points: i64,
    /// The words of the player's crossword.
    pub words: i64,
    /// Tiles in no word: on the rack, alone, or in a run that is not a word.
    pub leftovers: i64,
}

impl CrossingScore {
    /// What the points are divided by: the words and the leftovers.
    pub fn divisor(&self) -> i64 {
        self.words.saturating_add(self.leftovers)
    }

    /// The score as a number (0 for an empty crossword with nothing left over).
    pub fn value(&self) -> f64 {
        match self.divisor() {
            0 => 0.0,
            d => self.points as f64 / d as f64,
        }
    }

    /// Compares two scores exactly, by cross-multiplying (an empty score counts as 0).
    pub fn cmp_exact(&self, other: &CrossingScore) -> Ordering {
        let fraction = |s: &CrossingScore| match s.divisor() {
            0 => (0_i128, 1_i128),
            d => (i128::from(s.points), i128::from(d)),
        };
        let ((a, b), (c, d)) = (fraction(self), fraction(other));
        (a * d).cmp(&(c * b))
    }
}

impl std::fmt::Display for CrossingScore {
    /// `9/4 = 2.25`; `0` when nothing is divided.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.divisor() {
            0 => f.write_str("0"),
            d => {
                let shown = format!("{:.2}", self.value());
                let shown = shown.trim_end_matches('0').trim_end_matches('.');
                write!(f, "{}/{d} = {shown}", self.points)
            }
        }
    }
}

/// What a crossing score is made from: the letters on the board, and the rules' judgement of
/// words and letter values.
pub struct Crossword<'a, W: Fn(&str) -> bool, V: Fn(char) -> i64> {
    /// The board's letters.
    pub letters: &'a super::Letters,
    /// Whether a run of letters is a word (the dictionary and the least length).
    pub is_word: W,
    /// A letter's face value.
    pub value: V,
}

/// Why a player's crossword is not complete (LC-5: every tile placed, in one connected group,
/// every run of two or more letters a word), each with what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Incomplete {
    /// Nothing is placed.
    #[error("no tile is placed yet: lay your tiles out as one crossword")]
    Empty,
    /// Tiles are still on the rack.
    #[error("{} still on your rack: a complete crossword uses every tile", crate::diag::counted(*.0, "tile"))]
    TilesOnRack(usize),
    /// Tiles a green light drew for its caller, who waits to see them.
    #[error(
        "{} your green light drew {} still to come (you see them once every other player has \
         laid out since): a complete crossword uses them too",
        crate::diag::counted(*.0, "tile"),
        if *.0 == 1 { "is" } else { "are" }
    )]
    TilesToCome(usize),
    /// The letters fall in several groups.
    #[error("your letters fall in {groups} separate groups: join them into one crossword")]
    NotConnected {
        /// How many groups.
        groups: usize,
    },
    /// A run of letters is not a word.
    #[error("{0} is not a word: every run of two or more letters must be one")]
    NotAWord(String),
}

impl<W: Fn(&str) -> bool, V: Fn(char) -> i64> Crossword<'_, W, V> {
    /// Why `player`'s crossword, with `on_rack` tiles on their rack, is not complete, if it is
    /// not: what lets a player call green light in Lexicon Crossing.
    pub fn incomplete(&self, player: Player, on_rack: usize) -> Option<Incomplete> {
        let own: Vec<crate::board::Pos> = self
            .letters
            .positions()
            .filter(|&p| self.letters[p].is_some_and(|t| t.player == player))
            .collect();
        let Some(&first) = own.first() else {
            return Some(Incomplete::Empty);
        };
        if on_rack > 0 {
            return Some(Incomplete::TilesOnRack(on_rack));
        }
        let runs = find_runs(self.letters, 2, Runs::OfOnePlayer);
        if let Some(run) = runs
            .iter()
            .find(|r| r.player == player && !(self.is_word)(&r.text))
        {
            return Some(Incomplete::NotAWord(run.text.clone()));
        }
        let groups = self.groups(player, &own, first);
        (groups > 1).then_some(Incomplete::NotConnected { groups })
    }

    /// How many 4-connected groups `own` (the player's letters, `first` among them) fall in.
    fn groups(&self, player: Player, own: &[crate::board::Pos], first: crate::board::Pos) -> usize {
        let mut reached = super::words::connected(self.letters, player, [first]);
        let mut groups = 1;
        while let Some(&next) = own.iter().find(|&&p| !reached[p]) {
            groups += 1;
            let more = super::words::connected(self.letters, player, [next]);
            for &p in own {
                if more[p] {
                    reached.set(p, true);
                }
            }
        }
        groups
    }

    /// `player`'s crossing score, with `on_rack` tiles left on their rack.
    pub fn score(&self, player: Player, on_rack: usize) -> CrossingScore {
        let (w, h) = (self.letters.width(), self.letters.height());
        // Per cell: the words through it, and whether a run through it is not a word.
        let mut words_through = Grid::new(w, h, 0u8);
        let mut in_non_word = Grid::new(w, h, false);
        let mut score = CrossingScore {
            leftovers: i64::try_from(on_rack).unwrap_or(i64::MAX),
            ..CrossingScore::default()
        };
        let runs = find_runs(self.letters, 2, Runs::OfOnePlayer);
        for run in runs.iter().filter(|r| r.player == player) {
            let word = (self.is_word)(&run.text);
            score.words += i64::from(word);
            for cell in run.key.cells() {
                if word {
                    words_through.set(cell, words_through[cell].saturating_add(1));
                } else {
                    in_non_word.set(cell, true);
                }
            }
        }
        for pos in self.letters.positions() {
            let Some(tile) = self.letters[pos].filter(|t| t.player == player) else {
                continue;
            };
            if in_non_word[pos] || words_through[pos] == 0 {
                score.leftovers += 1;
            } else if words_through[pos] >= 2 {
                score.points += (self.value)(tile.letter);
            }
        }
        score
    }
}

impl Game {
    /// `player`'s crossing score: their crossword's crossing points over its words plus the
    /// tiles left over (their rack included), as `crossword.scoring: CrossingRatio` counts.
    pub fn crossing_score(&self, player: Player) -> CrossingScore {
        if let Some(seen) = self
            .seen_scores
            .as_ref()
            .and_then(|s| s.get(player.index()))
        {
            return *seen;
        }
        self.crossword()
            .score(player, self.letters_to_place(player))
    }

    /// What keeps `player`'s crossword from being complete (every tile placed, one connected
    /// group, every run a word), or `None` when it is: the signals of simultaneous play need it.
    pub fn crossword_lacks(&self, player: Player) -> Option<Incomplete> {
        let on_rack = self.rack_letter_count(player);
        let to_come = self.letters_to_place(player) - on_rack;
        match self
            .crossword()
            .incomplete(player, self.letters_to_place(player))
        {
            // One truth: the rack shows no tile, and the tiles to come are said as such.
            Some(Incomplete::TilesOnRack(_)) if on_rack == 0 && to_come > 0 => {
                Some(Incomplete::TilesToCome(to_come))
            }
            Some(Incomplete::TilesOnRack(_)) => Some(Incomplete::TilesOnRack(on_rack)),
            other => other,
        }
    }

    /// `player`'s letters on the board, row by row.
    pub fn laid_letters(&self, player: Player) -> Vec<super::Placement> {
        let letters = &self.board.letters;
        letters
            .positions()
            .filter_map(|at| {
                let tile = letters[at]?;
                (tile.player == player).then_some(super::Placement {
                    at,
                    letter: tile.letter,
                })
            })
            .collect()
    }

    /// What keeps the letters `player` has laid from being a complete crossword, leaving out
    /// the tiles still to place (a crossword to grow on), or `None` when they are one.
    pub fn laid_crossword_lacks(&self, player: Player) -> Option<Incomplete> {
        self.crossword().incomplete(player, 0)
    }

    /// The board's crossword as the rules judge it: the dictionary's words of the least
    /// length or more, the rule set's letter values.
    pub(super) fn crossword(
        &self,
    ) -> Crossword<'_, impl Fn(&str) -> bool + '_, impl Fn(char) -> i64 + '_> {
        let min = usize::try_from(self.rules.placement.min_word_length).unwrap_or(2);
        Crossword {
            letters: &self.board.letters,
            is_word: move |text: &str| text.chars().count() >= min && self.lexicon.contains(text),
            value: |letter| self.rules.letter_value(letter).unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;
    use crate::game::Tile;
    use crate::map::Direction;

    /// A word laid on a test board: its start cell, direction and text.
    type Laid<'a> = (u32, u32, Direction, &'a str);

    /// A board of `size` with gold's `words` on it.
    fn board(size: u32, words: &[Laid<'_>]) -> crate::game::Letters {
        let mut letters = crate::game::Letters::new(size, size);
        for &(x, y, dir, text) in words {
            for (i, letter) in text.chars().enumerate() {
                let at = dir.step(Pos::new(x, y), i as u32).unwrap();
                letters.set(
                    at,
                    Some(Tile {
                        player: Player::Gold,
                        letter,
                    }),
                );
            }
        }
        letters
    }

    /// Scrabble's values, as Lexicon Crossing counts them (LC-1).
    fn scrabble(letter: char) -> i64 {
        match letter {
            'D' | 'G' => 2,
            'B' | 'C' | 'M' | 'P' => 3,
            'F' | 'H' | 'V' | 'W' | 'Y' => 4,
            'K' => 5,
            'J' | 'X' => 8,
            'Q' | 'Z' => 10,
            _ => 1,
        }
    }

    /// What `ask` says of gold's crossword of `words`, the words those of `dict`, the values
    /// Scrabble's.
    fn ask<R>(
        words: &[Laid<'_>],
        dict: &[&str],
        ask: impl FnOnce(&Crossword<'_, &dyn Fn(&str) -> bool, fn(char) -> i64>) -> R,
    ) -> R {
        let letters = board(12, words);
        let is_word = |t: &str| dict.contains(&t);
        let crossword = Crossword {
            letters: &letters,
            is_word: &is_word as &dyn Fn(&str) -> bool,
            value: scrabble as fn(char) -> i64,
        };
        ask(&crossword)
    }

    /// Scores gold's crossword of `words` with `on_rack` tiles left, the words those of `dict`.
    fn check(words: &[Laid<'_>], on_rack: usize, dict: &[&str], shown: &str) {
        let score = ask(words, dict, |c| c.score(Player::Gold, on_rack));
        assert_eq!(score.to_string(), shown, "{words:?}: {score:?}");
    }

    /// Table: the worked example and what counts as a leftover.
    #[test]
    fn crossings_over_words_and_leftovers() {
        use Direction::{Across, Down};
        let dict = ["KEYBOARD", "CAKE", "BED", "RUBBISH", "CAT", "TO"];
        // KEYBOARD crossed by CAKE (at K), BED (at B) and RUBBISH (at R): 5 + 3 + 1 over 4.
        let keyboard = [
            (2, 3, Across, "KEYBOARD"),
            (2, 1, Down, "CAKE"),
            (5, 3, Down, "BED"),
            (8, 3, Down, "RUBBISH"),
        ];
        check(&keyboard, 0, &dict, "9/4 = 2.25");
        // Two tiles still on the rack count as two more words.
        check(&keyboard, 2, &dict, "9/6 = 1.5");
        // CAT crossed by TO: T is in two words, worth 1, over two words.
        check(
            &[(0, 0, Across, "CAT"), (2, 0, Down, "TO")],
            0,
            &dict,
            "1/2 = 0.5",
        );
        // CAT crossed by TX, not a word: T and X are leftovers, CAT still a word: 0 / 3.
        check(
            &[(0, 0, Across, "CAT"), (2, 0, Down, "TX")],
            0,
            &dict,
            "0/3 = 0",
        );
        // A lone letter is a leftover; nothing at all scores 0.
        check(&[(0, 0, Across, "Q")], 0, &dict, "0/1 = 0");
        check(&[], 0, &dict, "0");
    }

    /// Under `CrossingRatio` the game's leader is the higher crossing score: gold crosses CAT
    /// with TO (the T, worth 1, over two words) and runs out; silver, holding three Qs, has
    /// 0 over 3.
    #[test]
    fn the_higher_crossing_score_wins() {
        use crate::game::{Action, Placement};
        use crate::rules::{CrosswordOverrides, FirstWord, RuleOverrides, Scoring};
        let scoring = RuleOverrides {
            crossword: Some(CrosswordOverrides {
                scoring: Some(Scoring::CrossingRatio),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut map = crate::game::tests::shared_crossword(FirstWord::Centre, scoring);
        map.scenario.racks.insert(Player::Gold, "CATO".into());
        map.scenario.racks.insert(Player::Silver, "QQQ".into());
        for p in Player::BOTH {
            map.scenario.pools.insert(p, String::new());
        }
        let mut game = crate::game::tests::start(&map, 1);
        let place = |x, y, letter| Placement {
            at: Pos::new(x, y),
            letter,
        };
        let cat = vec![place(6, 7, 'C'), place(7, 7, 'A'), place(8, 7, 'T')];
        game.apply(Action::Commit { letters: cat }).unwrap();
        let to = vec![place(8, 8, 'O')];
        game.apply(Action::Commit { letters: to }).unwrap();
        assert_eq!(game.crossing_score(Player::Gold).to_string(), "1/2 = 0.5");
        assert_eq!(game.crossing_score(Player::Silver).to_string(), "0/3 = 0");
        assert_eq!(game.result().map(|r| r.winner), Some(Some(Player::Gold)));
        assert_eq!(
            crate::game::describe::score_words(&game, Player::Gold),
            "score 1/2 = 0.5 (crossing points 1 over 2 words and 0 left over)"
        );
    }

    /// Table: when a crossword is complete, and what it lacks when it is not.
    #[test]
    fn a_complete_crossword_uses_every_tile_in_one_group_of_words() {
        use Direction::{Across, Down};
        let dict = ["CAT", "TO", "DOG"];
        let cases: [(&[Laid<'_>], usize, Option<Incomplete>); 5] = [
            (&[(0, 0, Across, "CAT"), (2, 0, Down, "TO")], 0, None),
            (&[], 3, Some(Incomplete::Empty)),
            (
                &[(0, 0, Across, "CAT"), (2, 0, Down, "TO")],
                2,
                Some(Incomplete::TilesOnRack(2)),
            ),
            (
                &[(0, 0, Across, "CAT"), (5, 5, Across, "DOG")],
                0,
                Some(Incomplete::NotConnected { groups: 2 }),
            ),
            (
                &[(0, 0, Across, "CAT"), (2, 0, Down, "TX")],
                0,
                Some(Incomplete::NotAWord("TX".into())),
            ),
        ];
        for (words, on_rack, expected) in cases {
            let got = ask(words, &dict, |c| c.incomplete(Player::Gold, on_rack));
            assert_eq!(got, expected, "{words:?}");
        }
    }

    #[test]
    fn scores_compare_exactly() {
        let score = |points, words, leftovers| CrossingScore {
            points,
            words,
            leftovers,
        };
        assert_eq!(score(9, 4, 0).cmp_exact(&score(18, 8, 0)), Ordering::Equal);
        assert_eq!(score(9, 4, 0).cmp_exact(&score(9, 4, 1)), Ordering::Greater);
        assert_eq!(score(0, 0, 0).cmp_exact(&score(1, 3, 0)), Ordering::Less);
    }
}

//! Leave values: what a letter kept on the rack is worth to the hard level, learned from
//! self-play and stored as data (`crates/ai/data/leaves.ron`).
//!
//! A letter's value is how many more points a player scored on a turn begun with that letter on
//! the rack than on the average turn, over normal-against-normal games: a letter that helps
//! the next word is worth keeping, one that hinders it is worth playing away. `fit` measures
//! them; `SCRYPTIC_FIT=1 cargo test --release -p scryptic-tests --test leaves -- --ignored`
//! writes the file anew.

use super::player::{AiPlayer, Level};
use crate::board::Player;
use crate::game::{Action, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The leave values as the data file writes them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaveFile {
    /// How they were measured.
    pub fitted_from: String,
    /// The average points a turn, which each value is measured from.
    pub mean_turn: f64,
    /// Each letter's value, in points.
    pub values: BTreeMap<char, f64>,
}

/// Each letter A to Z's leave value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Leaves {
    values: [f64; 26],
}

impl Leaves {
    /// The values the toolkit ships (zeros, should the file not read: a test keeps it read).
    pub fn shipped() -> &'static Leaves {
        static SHIPPED: std::sync::OnceLock<Leaves> = std::sync::OnceLock::new();
        SHIPPED.get_or_init(|| {
            let text = include_str!("../data/leaves.ron");
            crate::ronfile::parse::<LeaveFile>(std::path::Path::new("leaves.ron"), text)
                .map(|file| Leaves::from(&file))
                .unwrap_or_default()
        })
    }

    /// What the letters of `rack` are worth kept (letters outside A to Z and tokens count 0).
    pub fn of(&self, rack: &str) -> f64 {
        rack.chars().map(|c| self.letter(c)).sum()
    }

    /// The value of `letter` (0 outside A to Z).
    pub fn letter(&self, letter: char) -> f64 {
        if letter.is_ascii_uppercase() {
            self.values[usize::from(letter as u8 - b'A')]
        } else {
            0.0
        }
    }
}

impl From<&LeaveFile> for Leaves {
    fn from(file: &LeaveFile) -> Leaves {
        Leaves {
            values: std::array::from_fn(|i| {
                let letter = char::from(b'A' + i as u8);
                file.values.get(&letter).copied().unwrap_or(0.0)
            }),
        }
    }
}

/// What one player's turns scored, by the letters on the rack when each began.
#[derive(Default)]
struct Tally {
    sum: [f64; 26],
    count: [f64; 26],
    total: f64,
    turns: f64,
}

impl Tally {
    fn add(&mut self, rack: &str, gained: f64) {
        self.total += gained;
        self.turns += 1.0;
        let mut seen = [false; 26];
        for c in rack.chars().filter(char::is_ascii_uppercase) {
            let i = usize::from(c as u8 - b'A');
            if !std::mem::replace(&mut seen[i], true) {
                self.sum[i] += gained;
                self.count[i] += 1.0;
            }
        }
    }

    fn file(&self, fitted_from: String) -> LeaveFile {
        let mean = self.total / self.turns.max(1.0);
        let values = (0..26)
            .filter(|&i| self.count[i] > 0.0)
            .map(|i| {
                let value = self.sum[i] / self.count[i] - mean;
                // Two decimals: the file is read by people and diffed.
                (char::from(b'A' + i as u8), (value * 100.0).round() / 100.0)
            })
            .collect();
        LeaveFile {
            fitted_from,
            mean_turn: (mean * 100.0).round() / 100.0,
            values,
        }
    }
}

/// Measures leave values over normal-against-normal games on `map` with `seeds`: for every
/// turn, the points the player's lead grew by, against the letters on the rack when it began.
pub fn fit(
    map: &Map,
    lexicon: Arc<Lexicon>,
    seeds: std::ops::Range<u64>,
) -> Result<LeaveFile, String> {
    let rules = map
        .rule_set()
        .map_err(|p| format!("{} rule problems", p.len()))?;
    let mut tally = Tally::default();
    for seed in seeds.clone() {
        let mut game = Game::new(map, rules.clone(), lexicon.clone(), seed);
        let mut ais = [
            AiPlayer::new(Level::Normal, seed),
            AiPlayer::new(Level::Normal, seed + 1),
        ];
        let mut begun: Option<(Player, String, f64)> = None;
        while game.result().is_none() && game.log().len() < 5000 {
            let me = game.to_act();
            if me == game.active()
                && !game.committed_this_turn()
                && begun.as_ref().is_none_or(|b| b.0 != me)
            {
                begun = Some((me, game.rack_letters(me), lead(&game, me)));
            }
            let seat = usize::from(me == Player::Silver);
            let action = ais[seat].choose(&game);
            let ends = matches!(action, Action::EndTurn);
            game.apply(action).map_err(|e| e.to_string())?;
            if let Some((player, rack, before)) = begun.take_if(|_| ends) {
                tally.add(&rack, lead(&game, player) - before);
            }
        }
    }
    let from = format!(
        "{} normal-against-normal games on {} (seeds {} to {}), {} turns",
        seeds.end - seeds.start,
        map.name,
        seeds.start,
        seeds.end.saturating_sub(1),
        tally.turns
    );
    Ok(tally.file(from))
}

/// `player`'s score lead over the other seat.
fn lead(game: &Game, player: Player) -> f64 {
    let scores = game.scores();
    let other = usize::from(player == Player::Gold);
    let own = scores.get(player.index()).map_or(0, |s| s.total);
    (own - scores.get(other).map_or(0, |s| s.total)) as f64
}

//! The Statistics screen: the best game and the best word played in this editor, kept in the
//! editor's data folder (`statistics.json`), written atomically.

use super::session::Feat;
use crate::document::data_dir;
use scryptic::game::SeatNames;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The best game: the highest winning score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestGame {
    /// The map's title.
    pub map: String,
    /// The winner.
    pub winner: String,
    /// The winner's score.
    pub score: i64,
    /// The loser's score.
    pub other: i64,
    /// Turns played.
    pub turns: u32,
}

/// The best word: the highest face value committed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestWord {
    /// The word.
    pub word: String,
    /// Its face value.
    pub face: i64,
    /// Who played it.
    pub player: String,
    /// The map's title.
    pub map: String,
}

/// What the Statistics screen shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Statistics {
    /// Games finished with a winner.
    pub games_won: u32,
    /// The best game.
    pub best_game: Option<BestGame>,
    /// The best word.
    pub best_word: Option<BestWord>,
    #[serde(skip)]
    loaded: bool,
}

fn statistics_path() -> Option<PathBuf> {
    data_dir().map(|d| d.join("statistics.json"))
}

impl Statistics {
    /// Reads the statistics file once (missing or unreadable: none yet).
    pub fn ensure_loaded(&mut self) {
        if self.loaded {
            return;
        }
        if let Some(stats) = statistics_path()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| serde_json::from_str::<Statistics>(&t).ok())
        {
            *self = stats;
        }
        self.loaded = true;
    }

    /// Takes `feats` of a game on `map` into account; saves when something changed.
    pub fn record(&mut self, feats: &[Feat], map: &str, seats: &SeatNames) -> Result<(), String> {
        self.ensure_loaded();
        let before = self.clone();
        for feat in feats {
            self.take(feat, map, seats);
        }
        if *self == before {
            return Ok(());
        }
        self.save()
    }

    fn take(&mut self, feat: &Feat, map: &str, seats: &SeatNames) {
        match feat {
            Feat::Word { word, face, player } => {
                if self.best_word.as_ref().is_none_or(|b| *face > b.face) {
                    self.best_word = Some(BestWord {
                        word: word.clone(),
                        face: *face,
                        player: seats.name(*player).to_string(),
                        map: map.into(),
                    });
                }
            }
            Feat::Game {
                winner,
                score,
                other,
                turns,
            } => {
                self.games_won += 1;
                if self.best_game.as_ref().is_none_or(|b| *score > b.score) {
                    self.best_game = Some(BestGame {
                        map: map.into(),
                        winner: seats.name(*winner).to_string(),
                        score: *score,
                        other: *other,
                        turns: *turns,
                    });
                }
            }
        }
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = statistics_path() else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        scryptic::fsutil::write_atomic(&path, text.as_bytes())
            .map_err(|e| format!("cannot save the statistics: {e}"))
    }

    /// The screen.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.ensure_loaded();
        ui.heading("Statistics");
        ui.label(format!("Games won: {}", self.games_won));
        match &self.best_game {
            Some(g) => ui.label(format!(
                "Best game: {} won {} to {} on {} in {} turns",
                g.winner, g.score, g.other, g.map, g.turns
            )),
            None => ui.label("Best game: none yet"),
        };
        match &self.best_word {
            Some(w) => ui.label(format!(
                "Best word: {} ({} points), played by {} on {}",
                w.word, w.face, w.player, w.map
            )),
            None => ui.label("Best word: none yet"),
        };
        if ui.button("Reset statistics").clicked() {
            *self = Statistics {
                loaded: true,
                ..Statistics::default()
            };
            if let Err(e) = self.save() {
                ui.label(e);
            }
        }
    }
}

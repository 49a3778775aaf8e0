//! Saved games and replays (RON): the map, the rules, the seed and the actions taken, and a
//! place for scripts' storage. Loading a save replays it: the same inputs give the same game.

use crate::diag::{FileError, LoadError};
use crate::game::{Action, ActionError, Event, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::{RuleSet, locate_key};
use crate::{fsutil, ronfile};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// The version of save files this build writes and reads.
pub const SAVE_FILE_VERSION: u32 = 1;

/// A saved game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveFile {
    /// The file format's version.
    pub version: u32,
    /// The map as the game started (its scenario included).
    pub map: Map,
    /// The complete rule set played with.
    pub rules: RuleSet,
    /// The seed of the game's generator.
    pub seed: u64,
    /// Every action applied, in order.
    pub actions: Vec<Action>,
    /// The scripts that took part, by name, with their text, so that the save replays
    /// anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<ScriptSource>,
    /// The scripts' `storage` table when the game began (JSON), as a campaign carried it in;
    /// replaying the actions rebuilds the rest.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub storage: String,
}

/// A script's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptSource {
    /// The script's path as the map names it.
    pub name: String,
    /// Its text.
    pub source: String,
}

/// A save whose actions do not replay.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error(
    "action {number} ({action:?}) is refused on replay: {error}; the save does not belong to this map, rule set or dictionary"
)]
pub struct ReplayError {
    /// The action's number, from 1.
    pub number: usize,
    /// The action.
    pub action: Box<Action>,
    /// Why it was refused.
    pub error: ActionError,
}

impl SaveFile {
    /// The save of `game` as it stands.
    pub fn of(game: &Game) -> SaveFile {
        SaveFile {
            version: SAVE_FILE_VERSION,
            map: game.map().clone(),
            rules: game.rules().clone(),
            seed: game.seed(),
            actions: game.log().to_vec(),
            scripts: Vec::new(),
            storage: String::new(),
        }
    }

    /// Reads a save file.
    pub fn load(path: &Path) -> Result<SaveFile, LoadError> {
        let text = fsutil::read_text(path)?;
        let save: SaveFile = ronfile::parse(path, &text)?;
        if save.version != SAVE_FILE_VERSION {
            return Err(LoadError::one(FileError::at(
                path,
                locate_key(&text, "version"),
                format!(
                    "save version {} is not one this build reads (it reads {SAVE_FILE_VERSION})",
                    save.version
                ),
            )));
        }
        Ok(save)
    }

    /// The save as canonical RON.
    pub fn to_ron(&self) -> String {
        ronfile::to_canonical(self, 3)
            .unwrap_or_else(|err| format!("// cannot write the save: {err}\n"))
    }

    /// Writes the save atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        fsutil::write_atomic(path, self.to_ron().as_bytes())
    }

    /// Replays the save: a new game with the same map, rules and seed, and every action
    /// applied again. Returns the game and every event, in order.
    pub fn replay(&self, lexicon: Arc<Lexicon>) -> Result<(Game, Vec<Event>), ReplayError> {
        let mut game = Game::new(&self.map, self.rules.clone(), lexicon, self.seed);
        game.set_advisor(crate::ai::spy());
        let mut events = Vec::new();
        for (i, action) in self.actions.iter().enumerate() {
            let more = game.apply(action.clone()).map_err(|error| ReplayError {
                number: i + 1,
                action: Box::new(action.clone()),
                error,
            })?;
            events.extend(more);
        }
        Ok((game, events))
    }
}

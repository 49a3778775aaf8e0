//! What one game carries into the next, the one mechanism for a campaign's chapters and a
//! match's rounds: the scripts' storage, and the match's rounds played so far.

use super::StorageError;
use super::{ScriptError, ScriptedGame};
use crate::game::{Action, RoundResult};
use crate::lexicon::Lexicon;
use crate::save::ScriptSource;
use std::sync::Arc;

/// What an earlier game hands a new one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Carried {
    /// The scripts' `storage` table (JSON; empty: nothing stored).
    pub storage: String,
    /// The match's rounds played before the new game (empty: a single game or a first round).
    pub rounds: Vec<RoundResult>,
}

impl Carried {
    /// Storage alone, as a campaign carries it from chapter to chapter.
    pub fn storage(storage: Option<&str>) -> Carried {
        Carried {
            storage: storage.unwrap_or_default().to_string(),
            rounds: Vec::new(),
        }
    }
}

impl ScriptedGame {
    /// The storage as the scripts leave it now, or, when it cannot be carried on, the storage
    /// the game began with and why.
    pub fn storage_to_carry(&self) -> (String, Option<StorageError>) {
        match self.host().storage_json() {
            Ok(storage) => (storage, None),
            Err(e) => (self.storage_at_start.clone(), Some(e)),
        }
    }

    /// The next round of the match, once this one has ended and the match goes on (`None`
    /// otherwise): the same map, dictionary, rules, packs and settings, the scripts as they are now (with
    /// their reloads) and the connotation lists as last reloaded, the next first player and
    /// seed, the storage and the rounds so far carried in. Returns the round and the problems
    /// of scripts that could not load or start (it starts without them).
    pub fn next_round(&self) -> Option<Result<(ScriptedGame, Vec<String>), ScriptError>> {
        let next = self.game().next_round()?;
        Some(self.start_next_round(next, self.game().shared_lexicon()))
    }

    fn start_next_round(
        &self,
        next: crate::game::NextRound,
        lexicon: Arc<Lexicon>,
    ) -> Result<(ScriptedGame, Vec<String>), ScriptError> {
        let (storage, unstored) = self.storage_to_carry();
        let carried = Carried {
            storage,
            rounds: next.earlier,
        };
        let level = (
            &next.map,
            self.game().rules().clone(),
            self.current_scripts(),
        );
        let (mut round, errors) =
            ScriptedGame::start_with(level, lexicon, next.seed, carried, self.origin.clone())?;
        let mut problems: Vec<String> = unstored
            .map(|e| format!("the storage cannot be carried on ({e}); the round gets the storage this one began with"))
            .into_iter()
            .collect();
        problems.extend(errors.iter().map(ToString::to_string));
        for action in self.connotation_reloads() {
            if let Err(e) = round.apply(action) {
                problems.push(e.to_string());
            }
        }
        Ok((round, problems))
    }

    /// The scripts as they are now: those the game started with, each replaced by its last
    /// reload, and scripts first loaded by a reload added.
    fn current_scripts(&self) -> Vec<ScriptSource> {
        let mut scripts = self.scripts.clone();
        for action in self.game().log() {
            if let Action::ReloadScript { name, source } = action {
                match scripts.iter_mut().find(|s| &s.name == name) {
                    Some(script) => script.source.clone_from(source),
                    None => scripts.push(ScriptSource {
                        name: name.clone(),
                        source: source.clone(),
                    }),
                }
            }
        }
        scripts
    }

    /// Each connotation list's last reload in this game, in the order the lists were first
    /// reloaded, to apply again at the start of the next round.
    fn connotation_reloads(&self) -> Vec<Action> {
        let mut reloads: Vec<Action> = Vec::new();
        for action in self.game().log() {
            if let Action::ReloadConnotations { list, .. } = action {
                let same = |a: &Action| matches!(a, Action::ReloadConnotations { list: l, .. } if l == list);
                match reloads.iter_mut().find(|a| same(a)) {
                    Some(slot) => *slot = action.clone(),
                    None => reloads.push(action.clone()),
                }
            }
        }
        reloads
    }
}

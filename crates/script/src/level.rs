//! Starting a game of a [`Level`] (what `pack::level` assembled) and watching its files: the
//! one way the command line and the editor start a scripted game from files.

use super::live::{LiveFiles, RulesFile};
use super::{ScriptError, ScriptedGame};
use crate::game::Action;
use crate::lexicon::Lexicon;
use crate::pack::Level;
use std::sync::Arc;

impl ScriptedGame {
    /// Starts a game of `level` with `seed` (and the scripts' `storage`, as a campaign carries
    /// it): its scripts loaded, its connotation lists in place. Returns the game and the
    /// problems of scripts that could not be read or loaded (it starts without them); an
    /// error if the game cannot start at all.
    pub fn start_level(
        level: &Level,
        lexicon: Arc<Lexicon>,
        seed: u64,
        storage: Option<&str>,
    ) -> Result<(ScriptedGame, Vec<String>), ScriptError> {
        let carried = super::Carried::storage(storage);
        ScriptedGame::start_level_carrying(level, lexicon, seed, carried)
    }

    /// As `start_level`, with everything an earlier game carried in: the storage and, in a
    /// match, the rounds played before.
    pub fn start_level_carrying(
        level: &Level,
        lexicon: Arc<Lexicon>,
        seed: u64,
        carried: super::Carried,
    ) -> Result<(ScriptedGame, Vec<String>), ScriptError> {
        let origin = super::session::Origin {
            packs: level.records.clone(),
            pack: level.pack.clone(),
            settings: level.settings.iter().cloned().collect(),
            declared: level.declared.clone(),
            strings: level.strings.clone(),
        };
        let game_files = (&level.map, level.rules.clone(), level.scripts.clone());
        let (mut game, errors) =
            ScriptedGame::start_with(game_files, lexicon, seed, carried, origin)?;
        let mut problems = level.unreadable.clone();
        problems.extend(errors.iter().map(ToString::to_string));
        for list in &level.connotations {
            let action = Action::ReloadConnotations {
                list: list.name.clone(),
                words: list.words.clone(),
            };
            if let Err(e) = game.apply(action) {
                problems.push(format!("{}: {e}", list.file.display()));
            }
        }
        Ok((game, problems))
    }
}

impl ScriptedGame {
    /// How a simulation (`simulate`, `balance`, the editor's balance) begins each game of
    /// `level`: with its scripts and word lists taking part, as players play it. `None` when
    /// the level has neither, so the engine's game alone is the same game, faster. A game
    /// whose scripts do not load does not start (figures without them would be another game's).
    pub fn simulation_starter(
        level: &Level,
        lexicon: &Arc<Lexicon>,
    ) -> Option<crate::ai::simulate::Starter> {
        if level.scripts.is_empty() && level.connotations.is_empty() && !level.rules.flow.scripted {
            return None;
        }
        let (level, lexicon) = (level.clone(), lexicon.clone());
        Some(Arc::new(move |seed| {
            let (scripted, problems) =
                ScriptedGame::start_level(&level, lexicon.clone(), seed, None)
                    .map_err(|e| e.to_string())?;
            if !problems.is_empty() {
                return Err(problems.join("; "));
            }
            if level.rules.flow.scripted && !scripted.game().has_game_mode() {
                return Err("its scripts define no game mode".into());
            }
            Ok(Box::new(scripted) as Box<dyn crate::ai::simulate::Simulated>)
        }))
    }
}

impl crate::ai::simulate::Simulated for ScriptedGame {
    fn game(&self) -> &crate::game::Game {
        ScriptedGame::game(self)
    }

    fn apply(&mut self, action: Action) -> Result<Vec<crate::game::Event>, String> {
        ScriptedGame::apply(self, action).map_err(|e| e.to_string())
    }

    fn next_round(&self) -> Option<Result<Box<dyn crate::ai::simulate::Simulated>, String>> {
        let next = ScriptedGame::next_round(self)?;
        Some(match next {
            Ok((game, problems)) if problems.is_empty() => {
                Ok(Box::new(game) as Box<dyn crate::ai::simulate::Simulated>)
            }
            Ok((_, problems)) => Err(problems.join("; ")),
            Err(e) => Err(e.to_string()),
        })
    }
}

impl LiveFiles {
    /// Watches what `level` keeps on disk for the game `scripted` plays: its own scripts (not
    /// those of packs it depends on), its rule-set source and its connotation lists.
    pub fn for_level(scripted: &ScriptedGame, level: &Level) -> LiveFiles {
        let Some(dir) = &level.watch.dir else {
            return LiveFiles::none();
        };
        let rules = match (&level.watch.rules_file, &level.watch.map_file) {
            (Some(file), _) => Some(RulesFile::RuleSet(file.clone())),
            (None, Some(map)) => Some(RulesFile::Map(map.clone())),
            (None, None) => None,
        };
        LiveFiles::new(scripted, dir, rules, level.watch.connotation_files.clone())
    }
}

impl crate::scenario::Played for ScriptedGame {
    fn game(&self) -> &crate::game::Game {
        ScriptedGame::game(self)
    }

    fn apply(
        &mut self,
        action: Action,
    ) -> Result<Vec<crate::game::Event>, crate::game::ActionError> {
        ScriptedGame::apply(self, action)
    }

    fn next_round(&mut self) -> Result<(), String> {
        let (round, problems) = ScriptedGame::next_round(self)
            .ok_or(crate::scenario::NO_NEXT_ROUND)?
            .map_err(|e| e.to_string())?;
        if let Some(problem) = problems.first() {
            return Err(format!("the next round starts with a problem: {problem}"));
        }
        *self = round;
        Ok(())
    }

    /// What scripts printed and told the players; a script's error fails the scenario.
    fn told(&mut self) -> Result<Vec<String>, String> {
        let mut told = Vec::new();
        for line in self.host().drain_console() {
            match line {
                super::ConsoleLine::Error(e) => return Err(format!("a script failed: {e}")),
                super::ConsoleLine::Notice(text)
                | super::ConsoleLine::Message(text)
                | super::ConsoleLine::Output { text, .. } => {
                    told.push(text);
                }
            }
        }
        Ok(told)
    }
}

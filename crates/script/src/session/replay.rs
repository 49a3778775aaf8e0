//! A saved game replayed: its actions applied again with its scripts, each compared with the
//! checksums the save recorded (the first action after which the state departs is found), the
//! whole replay bounded, and a look at each action that may stop it.

use super::{Origin, ScriptedGame};
use crate::game::Event;
use crate::lexicon::Lexicon;
use crate::save::{SaveError, SaveFile};
use std::sync::Arc;

/// The quick checksum kept for an action that ran no script: not compared.
const NOT_CHECKED: u64 = 0;

/// The most work a replay may do in all, in units of about one script instruction: its
/// scripts' instructions, and `ACTION_WORK` for each action besides. About ten seconds on the
/// machine PERFORMANCE.md names; a game's replay rarely does a hundredth of it.
pub const MAX_REPLAY_WORK: u64 = 1_000_000_000;

/// The work an action costs a replay besides what its scripts spend: the engine's own and the
/// host's, handing its events to the scripts' handlers (measured in PERFORMANCE.md, "A
/// replay's bound"). A save of more actions than `MAX_REPLAY_WORK / ACTION_WORK` is refused
/// before anything is replayed.
pub const ACTION_WORK: u64 = 10_000;

/// How a save is replayed (see `ScriptedGame::from_save_with`).
pub struct ReplayOptions<'a> {
    /// Whether a script the save carries may run though it is not the file its game was
    /// played with (the save records another hash for it).
    pub allow_changed_scripts: bool,
    /// The most work the replay may do in all (see `MAX_REPLAY_WORK`).
    pub max_work: u64,
    /// Called before each action with its index and the count: `false` stops the replay
    /// there (a person pressed Ctrl-C).
    pub progress: Option<&'a mut dyn FnMut(usize, usize) -> bool>,
}

impl Default for ReplayOptions<'_> {
    fn default() -> Self {
        ReplayOptions {
            allow_changed_scripts: false,
            max_work: MAX_REPLAY_WORK,
            progress: None,
        }
    }
}

/// A save replayed: the game and its events, and why it stopped before its end, if it did.
pub struct Replayed {
    /// The game, as far as it was replayed.
    pub game: ScriptedGame,
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Why the replay stopped before the save's last action.
    pub stopped: Option<ReplayStop>,
    /// The scripts that ran though they are not the files the game was played with (only
    /// when `allow_changed_scripts` let them).
    pub changed_scripts: Vec<String>,
}

/// Why a replay stopped before the save's last action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayStop {
    /// The look at each action said to stop (Ctrl-C), before action `at` (from 0).
    Stopped {
        /// The actions replayed.
        at: usize,
    },
    /// The replay did more work than a replay may (see `MAX_REPLAY_WORK`).
    Work {
        /// The actions replayed.
        at: usize,
        /// The work done, in units of about one script instruction.
        spent: u64,
        /// The most a replay may do.
        most: u64,
    },
}

impl std::fmt::Display for ReplayStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayStop::Stopped { at } => write!(f, "the replay was stopped after {at} actions"),
            ReplayStop::Work { at, spent, most } => write!(
                f,
                "the replay's first {at} actions and their scripts did {spent} units of work, \
                 more than a replay may ({most}, about ten seconds): it stops there"
            ),
        }
    }
}

/// Where a replay departed from the game its save recorded: the first action after which the
/// state differs from the one the save holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Departure {
    /// The action, counted from 1.
    pub action: usize,
    /// The last action after which the state was known to be the same, when the departure
    /// was found by a full checksum (kept every `FULL_EVERY` actions): it lies after it.
    pub since: Option<usize>,
    /// The turn it was played in.
    pub turn: u32,
    /// The packs whose scripts ran while it was played (the level's own as "").
    pub packs: Vec<String>,
}

impl std::fmt::Display for Departure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let packs: Vec<String> = self
            .packs
            .iter()
            .map(|p| match p.as_str() {
                "" => "the level's".to_string(),
                id => format!("`{id}`"),
            })
            .collect();
        let at = match self.since {
            Some(since) if since + 1 < self.action => {
                format!("between actions {} and {}", since + 1, self.action)
            }
            _ => format!("at action {}", self.action),
        };
        write!(
            f,
            "the replay departs from the saved game {at} (turn {}): the game's state after it \
             differs from the one the save recorded, so what follows is not what was played",
            self.turn
        )?;
        if packs.is_empty() {
            write!(f, "; no script ran during it")
        } else {
            write!(
                f,
                "; the scripts of {} ran during it (a script that depends on what a replay does \
                 not reproduce, such as the order `pairs` visits tables used as keys: key them \
                 by ids)",
                packs.join(", ")
            )
        }
    }
}

impl ScriptedGame {
    /// A saved scripted game, replayed; returns it and every event, in order. The save is
    /// checked first (`SaveFile::problems`), as its map, rules and scripts would be in files,
    /// and a script that is not the file its game was played with is refused. A replay whose
    /// work (its actions and its scripts) would pass `MAX_REPLAY_WORK` is refused too (see `from_save_with`
    /// to replay up to there).
    pub fn from_save(
        save: &SaveFile,
        lexicon: Arc<Lexicon>,
    ) -> Result<(ScriptedGame, Vec<Event>), SaveError> {
        let replayed = ScriptedGame::from_save_with(save, lexicon, ReplayOptions::default())?;
        match replayed.stopped {
            None => Ok((replayed.game, replayed.events)),
            Some(stop) => Err(SaveError::Scripts(stop.to_string())),
        }
    }

    /// As `from_save`, with `options`: whether a script that is not its file may run, and a
    /// look at each action as it is replayed (a progress bar), which may stop the replay. A
    /// replay stopped (by the look, or by its scripts' time) gives the game where it stopped.
    pub fn from_save_with(
        save: &SaveFile,
        lexicon: Arc<Lexicon>,
        mut options: ReplayOptions<'_>,
    ) -> Result<Replayed, SaveError> {
        let problems = save.problems();
        if !problems.is_empty() {
            return Err(SaveError::Invalid(problems));
        }
        let changed = crate::pack::record::changed_scripts(save);
        if !changed.is_empty() && !options.allow_changed_scripts {
            return Err(SaveError::Scripts(format!(
                "{}: replay it only if you trust it, with --allow-changed-scripts",
                changed.join("; ")
            )));
        }
        if let Some(message) = too_long(save.actions.len(), options.max_work) {
            let problem = crate::save::SaveProblem {
                key: "actions",
                message,
            };
            return Err(SaveError::Invalid(vec![problem]));
        }
        let carried = crate::Carried {
            storage: save.storage.clone(),
            rounds: save.rounds.clone(),
        };
        let origin = Origin {
            packs: save.packs.clone(),
            pack: save.pack.clone(),
            settings: save.settings.clone(),
            declared: save.declared.clone(),
            strings: save.strings.clone(),
        };
        let level = (&save.map, save.rules.clone(), save.scripts.clone());
        let (mut game, _) = ScriptedGame::start_with(level, lexicon, save.seed, carried, origin)
            .map_err(|e| SaveError::Scripts(e.to_string()))?;
        let recorded = save.checks.as_ref().and_then(crate::save::Checks::sums);
        let last = save.actions.len();
        let (mut spent, mut stopped) = (0u64, None);
        let total = save.actions.len();
        let mut events = Vec::new();
        for (i, action) in save.actions.iter().enumerate() {
            if let Some(look) = options.progress.as_mut()
                && !look(i, total)
            {
                stopped = Some(ReplayStop::Stopped { at: i });
                break;
            }
            if spent > options.max_work {
                stopped = Some(ReplayStop::Work {
                    at: i,
                    spent,
                    most: options.max_work,
                });
                break;
            }
            let turn = game.game().turn();
            let more = game
                .apply(action.clone())
                .map_err(|error| crate::save::ReplayError {
                    number: i + 1,
                    action: Box::new(action.clone()),
                    error,
                })?;
            events.extend(more);
            spent = spent
                .saturating_add(ACTION_WORK)
                .saturating_add(game.last_event_instructions());
            if let Some((quick, full)) = &recorded {
                game.compare_checksums((quick, full), turn, i + 1 == last);
            }
        }
        Ok(Replayed {
            game,
            events,
            stopped,
            changed_scripts: changed,
        })
    }

    /// Compares the checksums after the action just replayed (played in `turn`; `last`: the
    /// save's last) with those the save recorded (`quick` and `full`), keeping the first
    /// departure.
    fn compare_checksums(&mut self, (quick, full): (&[u64], &[u64]), turn: u32, last: bool) {
        if self.departure.is_some() {
            return;
        }
        let at = self.checksums.len();
        let Some(now) = self.checksums.last() else {
            return;
        };
        let quick_differs = quick
            .get(at - 1)
            .is_some_and(|&then| then != NOT_CHECKED && *now != NOT_CHECKED && then != *now);
        // The full checksum: after each whole stretch, and after the save's last action.
        let stretch = at.div_ceil(crate::game::FULL_EVERY);
        let full_due = at.is_multiple_of(crate::game::FULL_EVERY) || last;
        let full_differs = full_due
            && stretch > 0
            && full
                .get(stretch - 1)
                .is_some_and(|then| *then != self.game().checksum());
        if quick_differs || full_differs {
            let since = (!quick_differs).then(|| (stretch - 1) * crate::game::FULL_EVERY);
            let packs = self.host().packs_of(self.last_spent.1);
            self.departure = Some(Departure {
                action: at,
                since,
                turn,
                packs,
            });
        }
    }

    /// Where this game, replayed from a save, first departed from the game the save
    /// recorded (see `SaveFile::checks`), if it did.
    pub fn departure(&self) -> Option<&Departure> {
        self.departure.as_ref()
    }

    /// Keeps the game's quick checksum for each action its log gained if a script ran in it
    /// (`ran`), else `NOT_CHECKED` (only a script can make a replay depart, so the first action
    /// whose state departs is one that ran a script), and its full checksum at each whole
    /// stretch of `FULL_EVERY` actions.
    pub(super) fn note_checksums(&mut self, ran: bool) {
        let logged = self.game().log().len();
        if self.checksums.len() >= logged {
            return;
        }
        let sum = if ran {
            // 0 is kept for actions not checked.
            self.game().quick_checksum().max(1)
        } else {
            NOT_CHECKED
        };
        self.checksums.resize(logged, sum);
        let stretches = logged / crate::game::FULL_EVERY;
        if self.full_checksums.len() < stretches {
            let full = self.game().checksum();
            self.full_checksums.resize(stretches, full);
        }
    }

    /// The checks a save of this game records: the quick checksums, and the full ones with
    /// the game's as it stands after the last action.
    pub(super) fn checks(&self) -> crate::save::Checks {
        let logged = self.checksums.len();
        let mut full = self.full_checksums.clone();
        if !logged.is_multiple_of(crate::game::FULL_EVERY) {
            full.push(self.game().checksum());
        }
        crate::save::Checks::of(&self.checksums, &full)
    }
}

/// Why a save of `actions` actions cannot replay within `most` units of work, if it cannot:
/// its actions alone, without a script, would do more.
fn too_long(actions: usize, most: u64) -> Option<String> {
    let least = u64::try_from(actions)
        .unwrap_or(u64::MAX)
        .saturating_mul(ACTION_WORK);
    (least > most).then(|| {
        format!(
            "its {actions} actions are more than a replay may do (at most {} actions, fewer as \
             its scripts spend: about ten seconds of work), so nothing is replayed",
            most / ACTION_WORK
        )
    })
}

//! Saved games and replays (RON): the map, the rules, the seed and the actions taken, and a
//! place for scripts' storage. Loading a save replays it: the same inputs give the same game.

use crate::diag::{FileError, LoadError};
use crate::game::{Action, ActionError, Event, Game, RoundResult};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::{RuleSet, locate_key};
use crate::{fsutil, limits, ronfile};
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
    /// The match's rounds played before this game (none in a single game or a first round),
    /// carried in as the storage is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<RoundResult>,
    /// The packs the game was made from, in load order, with hashes of their files: a record
    /// of where the game came from (the save carries what it used, so it replays without them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub packs: Vec<PackRecord>,
    /// The pack the level is of, whose scripts are named by their paths alone (empty: the
    /// last of `packs`, as saves before extensions had it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pack: String,
    /// The settings the game was created with.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub settings: std::collections::BTreeMap<String, SettingValue>,
    /// The declarations of those settings, as their packs made them: each value is judged
    /// against them, so that a save is refused the same wherever it is opened, its packs
    /// installed or not (a save written before they were carried has none, and is judged
    /// against its packs where they are installed).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub declared: std::collections::BTreeMap<String, SettingKind>,
    /// The packs' string tables in the game's language (`scryptic.t`), by pack id, so that the
    /// save replays anywhere as it was played.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub strings: StringTables,
    /// The player's own word list the game was played with instead of the dictionary, if one
    /// was (the save replays only with the same list: see `Lexicon::for_save`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<crate::lexicon::WordListRecord>,
    /// Checksums of the game's state after each action, which a replay compares with its own
    /// to find the first action where it departs from the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
}

/// Checksums of a game's state (after the scripts answered each action): the quick checksum
/// after each action (`Game::quick_checksum`), and the full one (`Game::checksum`) after
/// every `game::FULL_EVERY` actions and after the last. Written compactly, 16 hex digits each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checks {
    /// The checksums' form (`game::CHECKSUM_VERSION`): another version's are not compared.
    pub version: u32,
    /// The quick checksum after each action, in order.
    pub after: String,
    /// The full checksum after actions `FULL_EVERY`, twice that, ..., and after the last.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub full: String,
}

/// Checksums written as 16 hex digits each.
fn hex_words(sums: &[u64]) -> String {
    let mut out = String::with_capacity(sums.len() * 16);
    for sum in sums {
        out.push_str(&format!("{sum:016x}"));
    }
    out
}

/// The checksums `hex_words` wrote, if well written.
fn words_of(text: &str) -> Option<Vec<u64>> {
    if !text.len().is_multiple_of(16) {
        return None;
    }
    (0..text.len() / 16)
        .map(|i| u64::from_str_radix(text.get(i * 16..i * 16 + 16)?, 16).ok())
        .collect()
}

impl Checks {
    /// The checks of quick checksums `after` (one an action) and full ones `full`, in this
    /// build's form.
    pub fn of(after: &[u64], full: &[u64]) -> Checks {
        Checks {
            version: crate::game::CHECKSUM_VERSION,
            after: hex_words(after),
            full: hex_words(full),
        }
    }

    /// The quick checksums and the full ones, if they are in this build's form and well
    /// written.
    pub fn sums(&self) -> Option<(Vec<u64>, Vec<u64>)> {
        if self.version != crate::game::CHECKSUM_VERSION {
            return None;
        }
        Some((words_of(&self.after)?, words_of(&self.full)?))
    }

    /// Keeps the checks of the first `actions` actions only (a save cut back, to undo).
    pub fn truncate(&mut self, actions: usize) {
        self.after
            .truncate(actions.saturating_mul(16).min(self.after.len()));
        // Only the full checksums of whole stretches before the cut still hold.
        let whole = actions / crate::game::FULL_EVERY;
        self.full
            .truncate(whole.saturating_mul(16).min(self.full.len()));
    }

    /// Why the checks cannot be those of a save of `actions` actions, if they cannot.
    fn problem(&self, actions: usize) -> Option<String> {
        let hex = |t: &str| t.len().is_multiple_of(16) && t.bytes().all(|b| b.is_ascii_hexdigit());
        let count = self.after.len() / 16;
        let full = self.full.len() / 16;
        if !hex(&self.after) || !hex(&self.full) {
            Some("the checks are not 16 hex digits each".to_string())
        } else if count > actions {
            Some(format!(
                "the save checks {count} actions but holds {actions}"
            ))
        } else if full > actions.div_ceil(crate::game::FULL_EVERY) {
            Some(format!(
                "the save holds {full} full checks for {actions} actions"
            ))
        } else {
            None
        }
    }
}

/// String tables by pack id: key to text.
pub type StringTables =
    std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>;

/// The most keys one pack's string table holds.
pub const MAX_STRINGS_PER_PACK: usize = 10_000;
/// The most characters of one string in a string table.
pub const MAX_STRING_CHARS: usize = 4_000;

/// Why string tables are out of bounds, if they are.
pub fn strings_problem(tables: &StringTables) -> Option<String> {
    if tables.len() > MAX_SAVED_PACKS {
        return Some(format!(
            "string tables of more than {MAX_SAVED_PACKS} packs"
        ));
    }
    for (pack, table) in tables {
        // A level outside any pack has its strings under no id.
        let pack = match pack.as_str() {
            "" => "the level".to_string(),
            id => format!("pack `{}`", crate::diag::shorten(id, 64)),
        };
        if table.len() > MAX_STRINGS_PER_PACK {
            return Some(format!(
                "{pack} has {} strings; the most is {MAX_STRINGS_PER_PACK}",
                table.len()
            ));
        }
        if let Some((key, _)) = table.iter().find(|(k, v)| {
            k.chars().count() > limits::MAX_ID_CHARS || v.chars().count() > MAX_STRING_CHARS
        }) {
            return Some(format!(
                "{pack}: string `{}` or its text is too long (keys {} characters, texts {MAX_STRING_CHARS})",
                crate::diag::shorten(key, 64),
                limits::MAX_ID_CHARS
            ));
        }
    }
    None
}

/// A pack setting's value, fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SettingValue {
    /// A Bool setting's value.
    Bool(bool),
    /// An Int setting's value.
    Int(i64),
    /// A Choice setting's value.
    Choice(String),
}

impl std::fmt::Display for SettingValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingValue::Bool(b) => write!(f, "{b}"),
            SettingValue::Int(n) => write!(f, "{n}"),
            SettingValue::Choice(s) => f.write_str(s),
        }
    }
}

/// The type of a pack setting, with its bounds and default, as its pack declares it (a save
/// carries the declarations of its settings, so that it is judged the same wherever it is
/// opened).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SettingKind {
    /// On or off.
    Bool {
        /// The value when the player changes nothing.
        default: bool,
    },
    /// A whole number from `min` to `max` in steps of `step` from `min`.
    Int {
        /// The lowest value.
        min: i64,
        /// The highest value.
        max: i64,
        /// The distance between allowed values.
        #[serde(default = "one", skip_serializing_if = "is_one")]
        step: i64,
        /// The value when the player changes nothing.
        default: i64,
    },
    /// One of a list of names.
    Choice {
        /// The names offered.
        options: Vec<String>,
        /// The name chosen when the player changes nothing.
        default: String,
    },
}

fn one() -> i64 {
    1
}

fn is_one(n: &i64) -> bool {
    *n == 1
}

impl SettingKind {
    /// Whether `value` is one setting `id` of this kind allows; if not, what it allows.
    pub fn check(&self, id: &str, value: &SettingValue) -> Result<(), String> {
        let id = crate::diag::shorten(id, 64);
        match (self, value) {
            (SettingKind::Bool { .. }, SettingValue::Bool(_)) => Ok(()),
            (SettingKind::Int { min, max, step, .. }, SettingValue::Int(n)) => {
                if n < min || n > max || (n - min) % step.max(&1) != 0 {
                    Err(format!(
                        "setting `{id}` is {min} to {max}{}; {n} is not allowed",
                        if *step > 1 {
                            format!(" in steps of {step}")
                        } else {
                            String::new()
                        }
                    ))
                } else {
                    Ok(())
                }
            }
            (SettingKind::Choice { options, .. }, SettingValue::Choice(s)) => {
                if options.contains(s) {
                    Ok(())
                } else {
                    Err(format!(
                        "setting `{id}` is one of {}; `{}` is not",
                        options.join(", "),
                        crate::diag::shorten(s, 64)
                    ))
                }
            }
            _ => Err(format!("setting `{id}` is not of that type")),
        }
    }
}

/// A pack a game was made from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackRecord {
    /// Its id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// A hash (SHA-256, hex) of all its files, paths included.
    pub hash: String,
    /// The files of it the game read, each with its hash, to name the one that changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<(String, String)>,
}

/// The most packs, and the most files of one pack, a save records.
pub const MAX_SAVED_PACKS: usize = 256;

/// A script's name and text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptSource {
    /// The script's path as the map names it.
    pub name: String,
    /// Its text.
    pub source: String,
}

/// Something in a save that is out of bounds or does not make sense: the save is refused
/// before anything is replayed, exactly as the same map, rule set or script in a file of its
/// own would be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {message}")]
pub struct SaveProblem {
    /// The save's field concerned (`rules`, `scripts`, `actions`, ...).
    pub key: &'static str,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// Why a save cannot be replayed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SaveError {
    /// The save itself is out of bounds or inconsistent.
    #[error("the save is refused: {}", list(.0))]
    Invalid(Vec<SaveProblem>),
    /// The save's scripts could not start.
    #[error("the save's scripts cannot start: {0}")]
    Scripts(String),
    /// An action was refused on replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

fn list(problems: &[SaveProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The problems of the map embedded in the save at `path`, read as a map file of its own so
/// that each points at its line in the save; `None` if the map reads well (the save's
/// problem is elsewhere) or cannot be found.
fn embedded_map_problems(path: &Path, text: &str) -> Option<LoadError> {
    let span = ronfile::value_span_after_key(text, "map")?;
    let Err(LoadError::Problems(problems)) = Map::from_text(path, &text[span.clone()]) else {
        return None;
    };
    let (first_line, first_col) = crate::diag::line_col_of(text, span.start);
    let shifted = problems
        .into_iter()
        .map(|mut p| {
            p.line_col = p.line_col.map(|(line, col)| {
                let col = if line == 1 { col + first_col - 1 } else { col };
                (line + first_line - 1, col)
            });
            p
        })
        .collect();
    Some(LoadError::Problems(shifted))
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
            rounds: game.earlier_rounds().to_vec(),
            packs: Vec::new(),
            settings: std::collections::BTreeMap::new(),
            declared: std::collections::BTreeMap::new(),
            strings: StringTables::new(),
            pack: String::new(),
            words: game.lexicon().word_list().cloned(),
            checks: None,
        }
    }

    /// Reads a save file.
    pub fn load(path: &Path) -> Result<SaveFile, LoadError> {
        let text = fsutil::read_text(path)?;
        SaveFile::from_text(path, &text)
    }

    /// Reads the text of a save file; `path` names it in error messages.
    pub fn from_text(path: &Path, text: &str) -> Result<SaveFile, LoadError> {
        let text = text.to_string();
        let save: SaveFile = match ronfile::parse(path, &text) {
            Ok(save) => save,
            Err(e) => return Err(embedded_map_problems(path, &text).unwrap_or(e)),
        };
        let problems = save.problems();
        if !problems.is_empty() {
            let located = problems
                .into_iter()
                .map(|p| FileError::at(path, locate_key(&text, p.key), p.message))
                .collect();
            return Err(LoadError::Problems(located));
        }
        Ok(save)
    }

    /// The pack records and settings out of bounds (counts and lengths), if any.
    fn record_problems(&self, refuse: &mut impl FnMut(&'static str, String)) {
        let files: usize = self.packs.iter().map(|p| p.files.len()).sum();
        if self.packs.len() > MAX_SAVED_PACKS || files > MAX_SAVED_PACKS * limits::MAX_SCRIPTS {
            refuse(
                "packs",
                format!("the save records more than {MAX_SAVED_PACKS} packs or their files"),
            );
        }
        let long = |t: &String| t.chars().count() > limits::MAX_PATH_CHARS;
        if self.pack.chars().count() > limits::MAX_ID_CHARS {
            refuse("pack", "the level's pack id is too long".to_string());
        }
        let mut texts = self.packs.iter().flat_map(|p| {
            [&p.id, &p.version, &p.hash]
                .into_iter()
                .chain(p.files.iter().flat_map(|(a, b)| [a, b]))
        });
        if texts.any(long) {
            refuse("packs", "a pack record is too long".to_string());
        }
        if let Some(words) = &self.words
            && (long(&words.path) || words.sha256.len() != 64)
        {
            refuse(
                "words",
                "the word list's record is too long or its hash not a SHA-256".to_string(),
            );
        }
        let long_value = |v: &SettingValue| matches!(v, SettingValue::Choice(c) if long(c));
        if self.settings.len() > MAX_SAVED_PACKS
            || self.settings.iter().any(|(k, v)| long(k) || long_value(v))
        {
            refuse(
                "settings",
                "the settings are too many or too long".to_string(),
            );
        }
    }

    /// Everything out of bounds or inconsistent in the save (empty when it can be replayed):
    /// its version, its rule set (as a rule-set file is checked), the map's size under those
    /// rules, its scripts (count, size, relative names), its storage and its number of
    /// actions. The embedded map was checked as a map file when the save was read.
    pub fn problems(&self) -> Vec<SaveProblem> {
        let mut out = Vec::new();
        let mut refuse = |key, message: String| out.push(SaveProblem { key, message });
        if self.version != SAVE_FILE_VERSION {
            refuse(
                "version",
                format!(
                    "save version {} is not one this build reads (it reads {SAVE_FILE_VERSION})",
                    self.version
                ),
            );
        }
        for problem in self.rules.validate() {
            refuse("rules", problem.to_string());
        }
        let (min, max) = (self.rules.board.min_side, self.rules.board.max_side);
        let fits = |side: u32| (min..=max).contains(&i64::from(side));
        if !fits(self.map.width()) || !fits(self.map.height()) {
            refuse(
                "map",
                format!(
                    "the map is {}x{}; under the save's rules a map is from {min} to {max} cells on each side",
                    self.map.width(),
                    self.map.height()
                ),
            );
        }
        self.script_problems(&mut refuse);
        self.record_problems(&mut refuse);
        if let Some(problem) = strings_problem(&self.strings) {
            refuse("strings", problem);
        }
        if self.storage.len() > limits::MAX_STORAGE_BYTES {
            refuse(
                "storage",
                format!(
                    "the scripts' storage is {} bytes; the most is {}",
                    self.storage.len(),
                    limits::MAX_STORAGE_BYTES
                ),
            );
        }
        self.round_problems(&mut refuse);
        self.setting_problems(&mut refuse);
        if let Some(problem) = self
            .checks
            .as_ref()
            .and_then(|c| c.problem(self.actions.len()))
        {
            refuse("checks", problem);
        }
        if self.actions.len() > limits::MAX_SAVE_ACTIONS {
            refuse(
                "actions",
                format!(
                    "the save holds {} actions; the most is {}",
                    self.actions.len(),
                    limits::MAX_SAVE_ACTIONS
                ),
            );
        }
        out
    }

    /// Settings the save's own declarations do not allow (a value out of its range or of
    /// another type, a setting it declares nowhere), or more declarations than a pack may make.
    fn setting_problems(&self, refuse: &mut impl FnMut(&'static str, String)) {
        if self.declared.len() > limits::MAX_SETTINGS || self.settings.len() > limits::MAX_SETTINGS
        {
            refuse(
                "settings",
                format!("a save has at most {} settings", limits::MAX_SETTINGS),
            );
            return;
        }
        if self.declared.is_empty() {
            return;
        }
        for (id, value) in &self.settings {
            let judged = match self.declared.get(id) {
                Some(kind) => kind.check(id, value),
                None => Err(format!(
                    "the save sets `{}`, which it declares nowhere",
                    crate::diag::shorten(id, 64)
                )),
            };
            if let Err(problem) = judged {
                refuse("settings", problem);
            }
        }
    }

    /// Rounds the match cannot have had: as many as it has or more, or descriptions too long.
    fn round_problems(&self, refuse: &mut impl FnMut(&'static str, String)) {
        let rounds = usize::try_from(self.rules.series.rounds).unwrap_or(1);
        if self.rounds.len() >= rounds {
            refuse(
                "rounds",
                format!(
                    "the save records {} rounds before this game, but under its rules the match has {rounds}",
                    self.rounds.len()
                ),
            );
        }
        let seats = |r: &RoundResult| r.points.len() > crate::board::MAX_SEATS;
        if self.rounds.iter().any(seats) {
            refuse(
                "rounds",
                format!(
                    "a round gives points to more than {} seats",
                    crate::board::MAX_SEATS
                ),
            );
        }
        let long = |r: &RoundResult| r.ended.chars().count() > crate::game::MAX_ROUND_TEXT_CHARS;
        if self.rounds.iter().any(long) {
            refuse(
                "rounds",
                format!(
                    "a round's description is longer than {} characters",
                    crate::game::MAX_ROUND_TEXT_CHARS
                ),
            );
        }
    }

    fn script_problems(&self, refuse: &mut impl FnMut(&'static str, String)) {
        if self.scripts.len() > limits::MAX_SCRIPTS {
            refuse(
                "scripts",
                format!(
                    "the save holds {} scripts; the most is {}",
                    self.scripts.len(),
                    limits::MAX_SCRIPTS
                ),
            );
            return;
        }
        for script in &self.scripts {
            script_text_problems("scripts", &script.name, &script.source, refuse);
        }
        // A reload in the log carries a script's text too.
        for action in &self.actions {
            if let Action::ReloadScript { name, source } = action {
                script_text_problems("actions", name, source, refuse);
            }
        }
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

    /// Replays the save on the engine alone: a new game with the same map, rules and seed,
    /// `advisor` answering spies (the AI's spy, `scryptic::ai::spy()`), and every action applied
    /// again. Returns the game and every event, in order.
    pub fn replay(
        &self,
        lexicon: Arc<Lexicon>,
        advisor: Option<Arc<dyn crate::game::Advisor>>,
    ) -> Result<(Game, Vec<Event>), SaveError> {
        let problems = self.problems();
        if !problems.is_empty() {
            return Err(SaveError::Invalid(problems));
        }
        let mut game = self.new_game(lexicon);
        if let Some(advisor) = advisor {
            game.set_advisor(advisor);
        }
        let events = self.replay_actions(|action| game.apply(action))?;
        Ok((game, events))
    }

    /// The save's game before its first action: its map, rules and seed, with its match's
    /// earlier rounds.
    pub fn new_game(&self, lexicon: Arc<Lexicon>) -> Game {
        let mut game = Game::new(&self.map, self.rules.clone(), lexicon, self.seed);
        game.set_earlier_rounds(self.rounds.clone());
        game
    }

    /// Applies every action of the save, in order, through `apply` (the engine's, or a scripted
    /// game's): the one replay loop. Returns every event, or the first action refused.
    pub fn replay_actions(
        &self,
        mut apply: impl FnMut(Action) -> Result<Vec<Event>, crate::game::ActionError>,
    ) -> Result<Vec<Event>, SaveError> {
        let mut events = Vec::new();
        for (i, action) in self.actions.iter().enumerate() {
            let more = apply(action.clone()).map_err(|error| ReplayError {
                number: i + 1,
                action: Box::new(action.clone()),
                error,
            })?;
            events.extend(more);
        }
        Ok(events)
    }
}

/// The problems of one script a save carries: a name leaving the level's folder, or a text
/// longer than a script may be.
fn script_text_problems(
    key: &'static str,
    name: &str,
    source: &str,
    refuse: &mut impl FnMut(&'static str, String),
) {
    if let Some(problem) = limits::relative_path_problem(name) {
        refuse(key, format!("script name: {problem}"));
    } else if source.len() > limits::MAX_SCRIPT_BYTES {
        refuse(
            key,
            format!(
                "the script {name} is {} bytes; the most is {}",
                source.len(),
                limits::MAX_SCRIPT_BYTES
            ),
        );
    }
}

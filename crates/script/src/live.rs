//! Live modding: the files a running game comes from (its scripts, its rule set, its
//! connotation lists) are watched, and saving one in any editor reloads it into the game. A
//! file that does not load leaves the game as it was and says why; the game goes on.

use super::ScriptedGame;
use super::watch::Watcher;
use crate::game::Action;
use crate::map::Map;
use crate::rules::RuleSet;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Why a watched file could not be loaded into a game; the game keeps what it had.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The file is missing, unreadable or does not parse (every problem, located).
    #[error(transparent)]
    Load(#[from] crate::diag::LoadError),
    /// A map whose rules (preset and overrides) make no sense.
    #[error("{}", rule_problems(path, problems))]
    Rules {
        /// The map file.
        path: PathBuf,
        /// What is wrong with its rules.
        problems: Vec<crate::rules::RuleProblem>,
    },
    /// A connotation list whose file name is not a list name.
    #[error(
        "{}: a list's file name is its name (lowercase letters, digits, `_`, `-`) and `.txt`",
        path.display()
    )]
    ListName {
        /// The file.
        path: PathBuf,
    },
    /// A connotation list with mistakes, each `FILE:LINE:COLUMN: message`.
    #[error("{}", problems.join("\n"))]
    ListProblems {
        /// The located mistakes.
        problems: Vec<String>,
    },
    /// A folder of lists that cannot be read.
    #[error("{}: cannot read the folder: {source}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The game refused the reload (a list or rule set it cannot play with).
    #[error("{}: {error}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// The game's reason.
        error: crate::game::ActionError,
    },
}

fn rule_problems(path: &Path, problems: &[crate::rules::RuleProblem]) -> String {
    let text: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {p}", path.display()))
        .collect();
    text.join("; ")
}

/// Where a game's rule set comes from, when it can change during play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesFile {
    /// A rule-set file (`RuleSet::load`).
    RuleSet(PathBuf),
    /// A map file: its rule set (preset and overrides) is the game's.
    Map(PathBuf),
}

impl RulesFile {
    fn path(&self) -> &Path {
        match self {
            RulesFile::RuleSet(p) | RulesFile::Map(p) => p,
        }
    }

    /// Reads the rule set the file now holds.
    pub fn read(&self) -> Result<RuleSet, LiveError> {
        match self {
            RulesFile::RuleSet(path) => Ok(RuleSet::load(path)?),
            RulesFile::Map(path) => {
                Map::load(path)?
                    .rule_set()
                    .map_err(|problems| LiveError::Rules {
                        path: path.clone(),
                        problems,
                    })
            }
        }
    }
}

/// What a reload did, for the player to see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveNotice {
    /// A file was reloaded into the game.
    Reloaded(String),
    /// A file did not reload; the game keeps what it had.
    Failed(String),
}

impl std::fmt::Display for LiveNotice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LiveNotice::Reloaded(text) => write!(f, "* {text}"),
            LiveNotice::Failed(text) => write!(f, "error: {text}"),
        }
    }
}

/// The watched files of one running game.
pub struct LiveFiles {
    watcher: Option<Watcher>,
    scripts: Vec<(String, PathBuf)>,
    rules: Option<RulesFile>,
    connotations: Vec<PathBuf>,
    /// What each watched file held when last read (a hash, by canonical path), so that an
    /// event that changed nothing (the file opened or read by an editor, or by a reload
    /// itself) reloads nothing.
    seen: Mutex<HashMap<PathBuf, u64>>,
}

// What a file holds is hashed as the watcher hashes it (`watch::content_hash`).
use super::watch::content_hash;

impl LiveFiles {
    /// Watches the scripts of `scripted` (named relative to `map_dir`), the rule-set source and
    /// the connotation list files. If nothing can be watched the game simply plays unwatched.
    pub fn new(
        scripted: &ScriptedGame,
        map_dir: &Path,
        rules: Option<RulesFile>,
        connotations: Vec<PathBuf>,
    ) -> LiveFiles {
        // A script of another pack (`core:scripts/x.lua`) is not a file of this level.
        let scripts: Vec<(String, PathBuf)> = scripted
            .script_names()
            .into_iter()
            .filter(|n| crate::pack::manifest::split_reference(n).0.is_none())
            .map(|n| (n.clone(), map_dir.join(&n)))
            .collect();
        let mut watched: Vec<PathBuf> = scripts.iter().map(|(_, p)| p.clone()).collect();
        watched.extend(rules.as_ref().map(|r| r.path().to_path_buf()));
        watched.extend(connotations.iter().cloned());
        let watcher = if watched.is_empty() {
            None
        } else {
            Watcher::new(&watched).ok()
        };
        let seen = watched
            .iter()
            .filter_map(|p| Some((std::fs::canonicalize(p).ok()?, content_hash(p)?)))
            .collect();
        LiveFiles {
            watcher,
            scripts,
            rules,
            connotations,
            seen: Mutex::new(seen),
        }
    }

    /// Whether `path` holds something other than when it was last read (and remembers what
    /// it holds now).
    fn content_changed(&self, path: &Path) -> bool {
        let Some(hash) = content_hash(path) else {
            return true;
        };
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut seen = match self.seen.lock() {
            Ok(seen) => seen,
            Err(poisoned) => poisoned.into_inner(),
        };
        seen.insert(key, hash) != Some(hash)
    }

    /// Nothing watched (a game loaded from a save, whose files may be anywhere).
    pub fn none() -> LiveFiles {
        LiveFiles {
            watcher: None,
            scripts: Vec::new(),
            rules: None,
            connotations: Vec::new(),
            seen: Mutex::default(),
        }
    }

    /// Whether any file is watched.
    pub fn is_watching(&self) -> bool {
        self.watcher.is_some()
    }

    /// Reloads every watched file saved since the last call, without waiting; says what
    /// happened to each. The scripts' console gets their own errors and output.
    pub fn poll(&self, scripted: &mut ScriptedGame) -> Vec<LiveNotice> {
        let Some(watcher) = &self.watcher else {
            return Vec::new();
        };
        watcher
            .changed()
            .iter()
            .filter_map(|path| self.reload(scripted, path))
            .collect()
    }

    /// As `poll`, and every watched file read as well, so that a file saved a moment ago (its
    /// event not yet come) is in force too: what runs before a player's command, so the
    /// command meets what is on disk. A file whose content did not change reloads nothing.
    pub fn poll_all(&self, scripted: &mut ScriptedGame) -> Vec<LiveNotice> {
        if self.watcher.is_none() {
            return Vec::new();
        }
        let mut notices = self.poll(scripted);
        let watched = self
            .scripts
            .iter()
            .map(|(_, p)| p.clone())
            .chain(self.rules.as_ref().map(|r| r.path().to_path_buf()))
            .chain(self.connotations.iter().cloned());
        for path in watched {
            if let Ok(real) = std::fs::canonicalize(&path) {
                notices.extend(self.reload(scripted, &real));
            }
        }
        notices
    }

    /// Reloads `path` (already reported changed) into the game, if what it holds changed
    /// since it was last read.
    pub fn reload(&self, scripted: &mut ScriptedGame, path: &Path) -> Option<LiveNotice> {
        if !self.content_changed(path) {
            return None;
        }
        if self.connotations.iter().any(|c| same_file(c, path)) {
            return Some(match reload_connotation_list(scripted, path) {
                Ok(list) => LiveNotice::Reloaded(format!(
                    "the connotation list `{list}` was reloaded; it applies from the next action"
                )),
                Err(e) => LiveNotice::Failed(format!(
                    "the connotation list did not reload (the old one stays): {e}"
                )),
            });
        }
        if let Some(rules) = self.rules.as_ref().filter(|r| same_file(r.path(), path)) {
            return reload_rules(scripted, rules);
        }
        let (name, _) = self.scripts.iter().find(|(_, p)| same_file(p, path))?;
        Some(match super::read_script_file(path) {
            Ok(source) => match scripted.reload_script(name, &source) {
                Ok(()) => LiveNotice::Reloaded(format!(
                    "the script {name} was reloaded (generation {})",
                    scripted.host().generation()
                )),
                Err(e) => LiveNotice::Failed(format!(
                    "the script {name} did not reload (the old one stays): {e}"
                )),
            },
            Err(e) => LiveNotice::Failed(e.to_string()),
        })
    }
}

fn same_file(watched: &Path, changed: &Path) -> bool {
    // The watcher reports absolute, canonical paths.
    std::fs::canonicalize(watched).ok().as_deref() == Some(changed)
}

/// Reloads the rule set from `rules` if it differs from the game's; a map saved with the same
/// rules (a terrain edit, say) changes nothing.
fn reload_rules(scripted: &mut ScriptedGame, rules: &RulesFile) -> Option<LiveNotice> {
    let loaded = match rules.read() {
        Ok(loaded) => loaded,
        Err(e) => {
            return Some(LiveNotice::Failed(format!(
                "the rule set did not reload (the old one stays): {e}"
            )));
        }
    };
    if &loaded == scripted.game().rules() {
        return None;
    }
    Some(
        match scripted.apply(Action::ReloadRules {
            rules: Box::new(loaded),
        }) {
            Ok(_) => LiveNotice::Reloaded(
                "the rule set was reloaded; it applies from the next action".into(),
            ),
            Err(e) => LiveNotice::Failed(format!(
                "the rule set did not reload (the old one stays): {e}"
            )),
        },
    )
}

/// Plays with the connotation lists of `dir` from now on (each a logged reload, so a save
/// replays with them); returns the list files, to watch.
pub fn load_connotations(
    scripted: &mut ScriptedGame,
    dir: &Path,
) -> Result<Vec<PathBuf>, LiveError> {
    let files = crate::lexicon::list_files(dir).map_err(|source| LiveError::Folder {
        path: dir.to_path_buf(),
        source,
    })?;
    for file in &files {
        reload_connotation_list(scripted, file)?;
    }
    Ok(files)
}

/// Reads the connotation list `path` and makes it the game's list of that name; on a problem
/// the game keeps the old list and the message says where (`FILE:LINE:COLUMN: ...`).
pub fn reload_connotation_list(
    scripted: &mut ScriptedGame,
    path: &Path,
) -> Result<String, LiveError> {
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let list =
        crate::lexicon::listfile::list_name(file_name).ok_or_else(|| LiveError::ListName {
            path: path.to_path_buf(),
        })?;
    let text = crate::fsutil::read_text(path)?;
    let parsed = crate::lexicon::listfile::parse_word_list(&text);
    let errors: Vec<String> = parsed
        .problems
        .iter()
        .filter(|p| p.fatal)
        .map(|p| format!("{}:{}:{}: {}", path.display(), p.line, p.column, p.message))
        .collect();
    if !errors.is_empty() {
        return Err(LiveError::ListProblems { problems: errors });
    }
    scripted
        .apply(Action::ReloadConnotations {
            list: list.to_string(),
            words: parsed.words,
        })
        .map_err(|error| LiveError::Refused {
            path: path.to_path_buf(),
            error,
        })?;
    Ok(list.to_string())
}

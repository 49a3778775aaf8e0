//! A pack's manifest (`pack.ron`): who made it, what version it is, what it needs, the games
//! (modes) it offers and the settings a player chooses before one starts.
//!
//! Reading it is two steps: the RON is parsed (a typo or a wrong type is reported at its
//! file:line:column), then every field is checked against the bounds below and each problem
//! is located at the value that caused it.

use crate::diag::{FileError, LoadError};
use crate::limits::{MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_SCRIPTS};
use semver::{Version, VersionReq};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The manifest format this build reads and writes.
pub const MANIFEST_FORMAT: u32 = 1;
/// The scripting API's version, which a pack's `scryptic` requirement is checked against.
pub const API_VERSION: Version = Version::new(0, 5, 0);
/// The most characters in a pack id (`[a-z0-9-]`).
pub const MAX_PACK_ID_CHARS: usize = 48;
/// The most authors, tags, dependencies (of each kind), modes and settings a manifest lists.
pub const MAX_MANIFEST_LIST: usize = 64;
/// The most options a Choice setting offers.
pub const MAX_CHOICES: usize = 64;

/// A pack's `pack.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The manifest format (1).
    pub format: u32,
    /// The pack's id: `[a-z0-9-]`, at most 48 characters, equal to its folder's name.
    pub id: String,
    /// The name players see.
    pub title: String,
    /// The pack's version (semver: `1.2.0`).
    pub version: Version,
    /// The scripting API versions the pack was written for (`^0.5`).
    pub scryptic: VersionReq,
    /// Who made it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// Its licence, as an SPDX expression (`CC-BY-4.0`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub license: String,
    /// What it is, for the pack browser.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Words to find it by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Packs it needs, with the versions it works with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub depends: BTreeMap<String, VersionReq>,
    /// Packs it uses when they are there (loaded before it).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub optional: BTreeMap<String, VersionReq>,
    /// Packs it cannot be loaded with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub conflicts: BTreeMap<String, VersionReq>,
    /// The games it offers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<ModeSpec>,
    /// What a player chooses before a game of it starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<SettingSpec>,
    /// What the pack adds to other packs' modes when a player ticks it (an extension pack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension: Option<ExtensionSpec>,
}

/// What an extension pack adds to the games it is ticked for (the README's "Packs": tokens, strength
/// modifiers, events, words), and which modes it fits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExtensionSpec {
    /// The modes it fits: `pack:mode` (`core:classic`) or a pack's id (all its modes); empty:
    /// every mode.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<String>,
    /// Its scripts, loaded after the mode's and the map's (in the extension's own state).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
}

impl ExtensionSpec {
    /// What it is, in a line for `pack info` and the Packs screen.
    pub fn describe(&self) -> String {
        let modes = if self.modes.is_empty() {
            "every mode".to_string()
        } else {
            self.modes.join(", ")
        };
        format!(
            "an extension for {modes} ({} scripts): tick it in the setup screen, or play with --with",
            self.scripts.len()
        )
    }

    /// Whether it fits mode `mode` of pack `pack`.
    pub fn fits(&self, pack: &str, mode: &str) -> bool {
        self.modes.is_empty()
            || self.modes.iter().any(|m| match m.split_once(':') {
                Some((p, m)) => p == pack && m == mode,
                None => m == pack,
            })
    }
}

/// One game a pack offers: its rules, its board (or a campaign of boards) and its scripts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeSpec {
    /// The mode's id within its pack (`standard`).
    pub id: String,
    /// The name players see.
    pub title: String,
    /// How it plays, for the setup screen.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The fewest and most players.
    #[serde(default = "two_seats", skip_serializing_if = "is_two_seats")]
    pub seats: (u32, u32),
    /// The rule set: a file in the pack (`rules/standard.ron`) or another pack's
    /// (`core:classic`). Empty: the map's own rules.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rules: String,
    /// The board: a map file (`maps/board-15.ron`, or `core:maps/duel-24.ron`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub map: String,
    /// A campaign instead of one board: a folder of maps played in file-name order.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub campaign: String,
    /// Scripts loaded for every game of the mode, before the map's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
}

fn two_seats() -> (u32, u32) {
    (2, 2)
}

fn is_two_seats(seats: &(u32, u32)) -> bool {
    *seats == two_seats()
}

/// A choice a player makes before a game starts; fixed for the whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingSpec {
    /// The setting's id (`rounds`), as `--set rounds=4` and `game:setting("rounds")` name it.
    pub id: String,
    /// The label players see.
    pub title: String,
    /// What it changes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Its type, bounds and default.
    pub kind: SettingKind,
    /// A rule constant it sets (`turn.rack_size`); empty: only scripts read it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub binds: String,
}

/// The type of a setting, with its bounds and default (a save carries it, so it lives in the
/// core).
pub use crate::save::SettingKind;

/// A setting's value (the save keeps it, so it lives in the core).
pub use crate::save::SettingValue;

impl SettingSpec {
    /// The value a game takes when the player chooses nothing.
    pub fn default_value(&self) -> SettingValue {
        match &self.kind {
            SettingKind::Bool { default } => SettingValue::Bool(*default),
            SettingKind::Int { default, .. } => SettingValue::Int(*default),
            SettingKind::Choice { default, .. } => SettingValue::Choice(default.clone()),
        }
    }

    /// Reads `text` (as typed after `--set id=`) as a value of this setting, or says what it
    /// accepts.
    pub fn parse_value(&self, text: &str) -> Result<SettingValue, String> {
        let text = text.trim();
        match &self.kind {
            SettingKind::Bool { .. } => match text {
                "true" | "on" | "yes" => Ok(SettingValue::Bool(true)),
                "false" | "off" | "no" => Ok(SettingValue::Bool(false)),
                _ => Err(format!(
                    "setting `{}` is on or off: write true or false, not `{text}`",
                    self.id
                )),
            },
            SettingKind::Int { .. } => {
                let n: i64 = text.parse().map_err(|_| {
                    format!("setting `{}` is a whole number, not `{text}`", self.id)
                })?;
                self.check(&SettingValue::Int(n))
                    .map(|()| SettingValue::Int(n))
            }
            SettingKind::Choice { .. } => {
                let value = SettingValue::Choice(text.to_string());
                self.check(&value).map(|()| value)
            }
        }
    }

    /// What values it takes, in words: `0 to 20 in steps of 5`, `one of short, long`, `on or
    /// off`.
    pub fn range_words(&self) -> String {
        match &self.kind {
            SettingKind::Bool { .. } => "on or off".into(),
            SettingKind::Int { min, max, step, .. } if *step > 1 => {
                format!("{min} to {max} in steps of {step}")
            }
            SettingKind::Int { min, max, .. } => format!("{min} to {max}"),
            SettingKind::Choice { options, .. } => format!("one of {}", options.join(", ")),
        }
    }

    /// Whether `value` is one this setting allows; if not, what it allows.
    pub fn check(&self, value: &SettingValue) -> Result<(), String> {
        self.kind.check(&self.id, value)
    }
}

/// Why `id` cannot be a pack's id, if it cannot.
pub fn id_problem(id: &str) -> Option<String> {
    name_problem(id, &['-'], "word-wars")
}

/// Why `id` cannot be a mode's or a setting's id (a pack id's letters, and `.` and `_`:
/// `gdd-1.6`, `rack_size`), if it cannot.
pub fn member_id_problem(id: &str) -> Option<String> {
    name_problem(id, &['-', '.', '_'], "gdd-1.6")
}

fn name_problem(id: &str, extra: &[char], example: &str) -> Option<String> {
    if id.is_empty() {
        Some("the id is empty".into())
    } else if id.chars().count() > MAX_PACK_ID_CHARS {
        Some(format!(
            "the id `{}` is longer than {MAX_PACK_ID_CHARS} characters",
            crate::diag::shorten(id, 60)
        ))
    } else if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || extra.contains(&c))
    {
        let extra: Vec<String> = extra.iter().map(|c| format!("`{c}`")).collect();
        Some(format!(
            "the id `{}` may hold only a-z, 0-9 and {} ({example})",
            crate::diag::shorten(id, 60),
            extra.join(", ")
        ))
    } else {
        None
    }
}

impl Manifest {
    /// Reads `text` (the contents of `path`) as a manifest and checks every field; the
    /// problems name their line and column.
    pub fn parse(path: &Path, text: &str) -> Result<Manifest, LoadError> {
        let manifest: Manifest = crate::ronfile::parse(path, text)?;
        let problems = manifest.problems();
        if problems.is_empty() {
            return Ok(manifest);
        }
        Err(LoadError::Problems(
            problems
                .into_iter()
                .map(|p| FileError::at(path, p.locate(text), p.message))
                .collect(),
        ))
    }

    /// A new pack's manifest: version 0.1.0, depending on `core`, no modes yet.
    pub fn new_pack(id: &str, title: &str) -> Manifest {
        Manifest {
            format: MANIFEST_FORMAT,
            id: id.to_string(),
            title: title.to_string(),
            version: Version::new(0, 1, 0),
            scryptic: VersionReq::parse(&format!("^{}.{}", API_VERSION.major, API_VERSION.minor))
                .unwrap_or(VersionReq::STAR),
            authors: Vec::new(),
            license: String::new(),
            description: String::new(),
            tags: Vec::new(),
            depends: BTreeMap::new(),
            optional: BTreeMap::new(),
            conflicts: BTreeMap::new(),
            modes: Vec::new(),
            settings: Vec::new(),
            extension: None,
        }
    }

    /// The manifest as its canonical RON text.
    pub fn to_ron(&self) -> String {
        crate::ronfile::to_canonical(self, 3).unwrap_or_default()
    }

    /// The mode `id`, if the pack offers it.
    pub fn mode(&self, id: &str) -> Option<&ModeSpec> {
        self.modes.iter().find(|m| m.id == id)
    }

    /// The setting `id`, if the pack has it or it is one every mode has (`move_time`).
    pub fn setting(&self, id: &str) -> Option<SettingSpec> {
        let own = self.settings.iter().find(|s| s.id == id).cloned();
        own.or_else(|| super::settings::builtin().into_iter().find(|s| s.id == id))
    }

    /// Every setting a game of the pack may be given: its own, then every mode's
    /// (`settings::builtin`), as a host's form offers them.
    pub fn offered_settings(&self) -> Vec<SettingSpec> {
        let mut all = self.settings.clone();
        all.extend(super::settings::builtin());
        all
    }

    /// Everything wrong with the manifest's fields, each with what to search for to find it.
    fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.format != MANIFEST_FORMAT {
            out.push(Problem::at_key(
                "format",
                format!(
                    "manifest format {} is not one this build reads: write format: {MANIFEST_FORMAT}",
                    self.format
                ),
            ));
        }
        if let Some(p) = id_problem(&self.id) {
            out.push(Problem::at_key("id", p));
        }
        self.text_problems(&mut out);
        if !self.scryptic.matches(&API_VERSION) {
            out.push(Problem::at_key(
                "scryptic",
                format!(
                    "the pack asks for scripting API {} but this build has {API_VERSION}; \
                     update the pack (or scryptic) and its `scryptic:` line",
                    self.scryptic
                ),
            ));
        }
        self.dependency_problems(&mut out);
        self.mode_problems(&mut out);
        self.setting_problems(&mut out);
        self.extension_problems(&mut out);
        out
    }

    fn extension_problems(&self, out: &mut Vec<Problem>) {
        let Some(extension) = &self.extension else {
            return;
        };
        for (what, count) in [
            ("scripts", extension.scripts.len()),
            ("modes", extension.modes.len()),
        ] {
            if count > MAX_SCRIPTS {
                out.push(Problem::at_key(
                    "extension",
                    format!("the extension names {count} {what}; the most is {MAX_SCRIPTS}"),
                ));
            }
        }
        for script in &extension.scripts {
            if let Some(p) = reference_problem(script) {
                out.push(Problem::at_text(script, format!("extension script: {p}")));
            }
        }
        for mode in &extension.modes {
            let (pack, member) = mode.split_once(':').unwrap_or((mode, ""));
            let problem = id_problem(pack).or_else(|| {
                (!member.is_empty())
                    .then(|| member_id_problem(member))
                    .flatten()
            });
            if let Some(p) = problem {
                out.push(Problem::at_text(
                    mode,
                    format!("extension mode `{mode}` (write `pack:mode` or `pack`): {p}"),
                ));
            }
        }
    }

    fn text_problems(&self, out: &mut Vec<Problem>) {
        let mut text = |key: &'static str, value: &str, most: usize| {
            if let Some(p) = crate::limits::too_long(key, value, most) {
                out.push(Problem::at_key(key, p));
            }
        };
        text("title", &self.title, MAX_NAME_CHARS);
        // A version is short (`1.2.0-beta.3`); a long one would be echoed by every message
        // that names the pack.
        text(
            "version",
            &self.version.to_string(),
            crate::limits::MAX_ID_CHARS,
        );
        text("license", &self.license, MAX_NAME_CHARS);
        text("description", &self.description, MAX_DESCRIPTION_CHARS);
        for author in &self.authors {
            text("authors", author, MAX_NAME_CHARS);
        }
        for tag in &self.tags {
            text("tags", tag, MAX_PACK_ID_CHARS);
        }
        if self.title.trim().is_empty() {
            out.push(Problem::at_key(
                "title",
                "the title is empty: name the pack as players should see it",
            ));
        }
        for (key, len) in [
            ("authors", self.authors.len()),
            ("tags", self.tags.len()),
            ("modes", self.modes.len()),
            ("settings", self.settings.len()),
        ] {
            if len > MAX_MANIFEST_LIST {
                out.push(Problem::at_key(
                    key,
                    format!("{key} lists {len}; the most is {MAX_MANIFEST_LIST}"),
                ));
            }
        }
    }

    fn dependency_problems(&self, out: &mut Vec<Problem>) {
        for (key, list) in [
            ("depends", &self.depends),
            ("optional", &self.optional),
            ("conflicts", &self.conflicts),
        ] {
            if list.len() > MAX_MANIFEST_LIST {
                out.push(Problem::at_key(
                    key,
                    format!(
                        "{key} lists {}; the most is {MAX_MANIFEST_LIST}",
                        list.len()
                    ),
                ));
            }
            for id in list.keys() {
                if let Some(p) = id_problem(id) {
                    out.push(Problem::at_map_key(id, format!("in {key}: {p}")));
                } else if *id == self.id {
                    out.push(Problem::at_map_key(
                        id,
                        format!("the pack names itself in {key}: remove `{id}`"),
                    ));
                }
            }
        }
        for id in self.depends.keys() {
            if self.conflicts.contains_key(id) {
                out.push(Problem::at_map_key(
                    id,
                    format!("`{id}` is both in depends and in conflicts: keep one"),
                ));
            }
        }
    }

    fn mode_problems(&self, out: &mut Vec<Problem>) {
        let mut seen = BTreeSet::new();
        for mode in &self.modes {
            let at = |message: String| Problem::at_text(&mode.id, message);
            if let Some(p) = member_id_problem(&mode.id) {
                out.push(at(format!("mode: {p}")));
            } else if !seen.insert(mode.id.as_str()) {
                out.push(at(format!("two modes are called `{}`", mode.id)));
            }
            let (least, most) = mode.seats;
            if least == 0 || least > most {
                out.push(at(format!(
                    "mode `{}`: seats ({least}, {most}) are not (fewest, most) with fewest at least 1",
                    mode.id
                )));
            }
            match (mode.map.is_empty(), mode.campaign.is_empty()) {
                (true, true) => out.push(at(format!(
                    "mode `{}` has no board: give it a `map` (maps/board.ron) or a `campaign` folder",
                    mode.id
                ))),
                (false, false) => out.push(at(format!(
                    "mode `{}` has both a map and a campaign: keep one",
                    mode.id
                ))),
                _ => {}
            }
            if mode.scripts.len() > MAX_SCRIPTS {
                out.push(at(format!(
                    "mode `{}` names {} scripts; the most is {MAX_SCRIPTS}",
                    mode.id,
                    mode.scripts.len()
                )));
            }
            let paths = [&mode.rules, &mode.map, &mode.campaign]
                .into_iter()
                .chain(&mode.scripts);
            for path in paths.filter(|p| !p.is_empty()) {
                if let Some(p) = reference_problem(path) {
                    out.push(Problem::at_text(path, format!("mode `{}`: {p}", mode.id)));
                }
            }
        }
    }

    fn setting_problems(&self, out: &mut Vec<Problem>) {
        let mut seen = BTreeSet::new();
        for setting in &self.settings {
            let at = |message: String| Problem::at_text(&setting.id, message);
            if let Some(p) = member_id_problem(&setting.id) {
                out.push(at(format!("setting: {p}")));
            } else if !seen.insert(setting.id.as_str()) {
                out.push(at(format!("two settings are called `{}`", setting.id)));
            }
            if let Some(p) = kind_problem(setting) {
                out.push(at(p));
            }
            if !setting.binds.is_empty()
                && let Some(p) = binding_problem(setting)
            {
                out.push(Problem::at_text(&setting.binds, p));
            }
        }
    }
}

/// Why a setting's bounds and default do not make sense, if they do not.
fn kind_problem(setting: &SettingSpec) -> Option<String> {
    let id = &setting.id;
    match &setting.kind {
        SettingKind::Bool { .. } => None,
        SettingKind::Int { min, max, step, .. } => {
            if min > max {
                Some(format!("setting `{id}`: min {min} is above max {max}"))
            } else if *step < 1 {
                Some(format!("setting `{id}`: step {step} must be 1 or more"))
            } else {
                setting.check(&setting.default_value()).err()
            }
        }
        SettingKind::Choice { options, .. } => {
            if options.is_empty() {
                Some(format!("setting `{id}` offers no options"))
            } else if options.len() > MAX_CHOICES {
                Some(format!(
                    "setting `{id}` offers {} options; the most is {MAX_CHOICES}",
                    options.len()
                ))
            } else if let Some(long) = options.iter().find(|o| o.chars().count() > MAX_NAME_CHARS) {
                crate::limits::too_long("an option", long, MAX_NAME_CHARS)
            } else {
                setting.check(&setting.default_value()).err()
            }
        }
    }
}

/// Why a setting cannot set the rule constant it names, if it cannot.
fn binding_problem(setting: &SettingSpec) -> Option<String> {
    let key = &setting.binds;
    let Some(constant) = crate::rules::RuleSet::constants()
        .into_iter()
        .find(|c| c.key == key)
    else {
        let keys: Vec<&str> = crate::rules::RuleSet::constants()
            .iter()
            .map(|c| c.key)
            .collect();
        let hint = crate::diag::nearest_name(key, keys.iter().copied())
            .map(|n| format!(" (did you mean `{n}`?)"))
            .unwrap_or_default();
        return Some(format!(
            "setting `{}` binds `{key}`, which is not a rule constant{hint}; \
             `scryptic rules show classic` lists them",
            setting.id
        ));
    };
    match (&setting.kind, constant.range) {
        (SettingKind::Int { min, max, .. }, Some((low, high)))
            if (*min as f64) < low || (*max as f64) > high =>
        {
            Some(format!(
                "setting `{}` goes from {min} to {max} but `{key}` allows {low} to {high}",
                setting.id
            ))
        }
        (SettingKind::Choice { options, .. }, _) => options.iter().find_map(|option| {
            let problem = super::settings::binding_problem(key, option)?;
            Some(format!(
                "setting `{}` offers `{option}`, which `{key}` cannot take: {problem}",
                setting.id
            ))
        }),
        _ => None,
    }
}

/// Why `reference` (a path in the pack, or `pack:path`) cannot name a file, if it cannot.
pub fn reference_problem(reference: &str) -> Option<String> {
    let (pack, path) = split_reference(reference);
    if let Some(pack) = pack
        && let Some(p) = id_problem(pack)
    {
        return Some(format!("`{reference}` names a pack: {p}"));
    }
    super::files::path_problem(path)
}

/// `core:classic` as (`Some("core")`, `"classic"`); a plain path as (`None`, path).
pub use crate::limits::split_pack_reference as split_reference;

/// A problem with a field, and how to find where it is written.
struct Problem {
    find: Find,
    message: String,
}

enum Find {
    /// The field `key:`.
    Key(&'static str),
    /// The first occurrence of a quoted string.
    Text(String),
    /// The first occurrence of a quoted string followed by `:` (a key of a map).
    MapKey(String),
}

impl Problem {
    fn at_key(key: &'static str, message: impl Into<String>) -> Problem {
        Problem {
            find: Find::Key(key),
            message: message.into(),
        }
    }

    fn at_map_key(key: &str, message: impl Into<String>) -> Problem {
        Problem {
            find: Find::MapKey(key.chars().take(MAX_PATH_CHARS).collect()),
            message: message.into(),
        }
    }

    fn at_text(text: &str, message: impl Into<String>) -> Problem {
        Problem {
            find: Find::Text(text.chars().take(MAX_PATH_CHARS).collect()),
            message: message.into(),
        }
    }

    /// The line and column of what the problem is about in the manifest's `text`.
    fn locate(&self, text: &str) -> Option<(usize, usize)> {
        let offset = match &self.find {
            Find::Key(key) => crate::rules::key_offset(text, key)?,
            Find::Text(s) => text.find(&format!("\"{s}\"")).map(|o| o + 1)?,
            Find::MapKey(s) => {
                let quoted = format!("\"{s}\"");
                text.match_indices(&quoted)
                    .find(|(o, _)| text[o + quoted.len()..].trim_start().starts_with(':'))
                    .map(|(o, _)| o + 1)?
            }
        };
        Some(crate::diag::line_col_of(text, offset))
    }
}

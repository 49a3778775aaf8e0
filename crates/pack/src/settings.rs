//! A pack's settings as a game is created: each setting's value (its default, or as the
//! player set it), and the rule constants the settings bind, set. Besides a pack's own, every
//! mode has the platform's settings (`builtin`): the move clock a server keeps.

use super::level::LevelError;
use super::{Manifest, SettingKind, SettingSpec, SettingValue};
use crate::rules::RuleSet;

/// The id of the built-in setting for a move's time (`--set move_time=3d`).
pub const MOVE_TIME: &str = "move_time";

/// The times a move may be given, shortest first, each with its length in seconds.
const MOVE_TIMES: [(&str, i64); 14] = [
    ("off", 0),
    ("30s", 30),
    ("1m", 60),
    ("2m", 120),
    ("5m", 300),
    ("10m", 600),
    ("1h", 3_600),
    ("12h", 43_200),
    ("1d", 86_400),
    ("2d", 172_800),
    ("3d", 259_200),
    ("5d", 432_000),
    ("7d", 604_800),
    ("14d", 1_209_600),
];

/// The id of the built-in setting for an AI seat's pace in a game played at once
/// (`--set ai_pace=3s`).
pub const AI_PACE: &str = "ai_pace";

/// The paces an AI seat may be given in a game played at once, each with the milliseconds it
/// takes a letter (`level`: the AI's level decides).
const AI_PACES: [(&str, i64); 7] = [
    ("level", 0),
    ("1s", 1_000),
    ("2s", 2_000),
    ("3s", 3_000),
    ("5s", 5_000),
    ("8s", 8_000),
    ("12s", 12_000),
];

/// The settings every mode has besides its pack's own: the platform's, kept by a referee.
/// A game records one only when it is set, so a game that sets none is as it always was.
pub fn builtin() -> Vec<SettingSpec> {
    vec![
        SettingSpec {
            id: MOVE_TIME.to_string(),
            title: "Move time".to_string(),
            description: "How long each player has for a move (30s to 14d) before the server's \
                          clock ends the game against them; off: no clock. For correspondence \
                          play, give days. A server keeps it: only hosted matches have it."
                .to_string(),
            kind: choice(&MOVE_TIMES, "off"),
            binds: "flow.move_seconds".to_string(),
        },
        SettingSpec {
            id: AI_PACE.to_string(),
            title: "AI pace".to_string(),
            description: "In a game played at once, how long an AI seat takes to lay each \
                          letter while people play (it looks new tiles over for a few \
                          letters' time before it lays or calls anything); level: its level's \
                          own pace (easy slowest, hard quickest)."
                .to_string(),
            kind: choice(&AI_PACES, "level"),
            binds: "flow.ai_letter_ms".to_string(),
        },
    ]
}

/// Whether the built-in setting `id` is for modes played at once only.
pub fn only_at_once(id: &str) -> bool {
    id == AI_PACE
}

/// Whether a game at one computer (the terminal, the editor) keeps the built-in setting `id`;
/// a move's time needs a server's clock.
pub fn kept_here(id: &str) -> bool {
    id != MOVE_TIME
}

/// A choice among `options`' names.
fn choice(options: &[(&str, i64)], default: &str) -> SettingKind {
    SettingKind::Choice {
        options: options.iter().map(|(name, _)| name.to_string()).collect(),
        default: default.to_string(),
    }
}

/// The value a setting's rule constant takes: as the setting gives it, but a move's time in
/// seconds (`3d` -> `259200`) and an AI's pace in milliseconds (`3s` -> `3000`).
fn bound_text(spec: &SettingSpec, value: &SettingValue) -> String {
    let text = value.to_string();
    let table: &[(&str, i64)] = match spec.id.as_str() {
        MOVE_TIME => &MOVE_TIMES,
        AI_PACE => &AI_PACES,
        _ => return text,
    };
    let bound = table.iter().find(|(name, _)| *name == text);
    bound.map_or(text, |(_, number)| number.to_string())
}

/// Every setting of the pack with its value: the default, or as `set` gives it.
pub(crate) fn values(
    manifest: &Manifest,
    set: &[(String, String)],
) -> Result<Vec<(String, SettingValue)>, LevelError> {
    for (id, _) in set {
        if manifest.setting(id).is_none() {
            let own = manifest.settings.iter().map(|s| s.id.clone());
            let ids: Vec<String> = own.chain(builtin().into_iter().map(|s| s.id)).collect();
            return Err(LevelError::Setting(format!(
                "pack `{}` has no setting `{}`; its settings: {}",
                manifest.id,
                crate::diag::shorten(id, 60),
                if ids.is_empty() {
                    "none".to_string()
                } else {
                    ids.join(", ")
                }
            )));
        }
    }
    let chosen = |spec: &SettingSpec| set.iter().rev().find(|(id, _)| *id == spec.id);
    let own = manifest.settings.iter().cloned();
    let builtin_set = builtin().into_iter().filter(|spec| chosen(spec).is_some());
    own.chain(builtin_set)
        .map(|spec| {
            let value = match chosen(&spec) {
                Some((_, text)) => spec.parse_value(text).map_err(LevelError::Setting)?,
                None => spec.default_value(),
            };
            Ok((spec.id, value))
        })
        .collect()
}

/// Sets the rule constants the settings are bound to, then checks the rules (refused, they
/// stay set, for the caller to say what the settings asked for).
pub(crate) fn bind(
    manifest: &Manifest,
    values: &[(String, SettingValue)],
    rules: &mut RuleSet,
) -> Result<(), LevelError> {
    for (id, value) in values {
        let Some(spec) = manifest.setting(id).filter(|s| !s.binds.is_empty()) else {
            continue;
        };
        let platforms = !manifest.settings.iter().any(|own| own.id == *id);
        if platforms && only_at_once(id) && !rules.flow.simultaneous {
            return Err(LevelError::Setting(format!(
                "setting `{id}` is for modes played at once (an AI's pace while people lay \
                 their crosswords); this mode takes turns: leave it out"
            )));
        }
        let Some((section, field)) = spec.binds.split_once('.') else {
            continue;
        };
        let overrides =
            bound_overrides(section, field, &bound_text(&spec, value)).map_err(|e| {
                LevelError::Setting(format!("setting `{id}` cannot set `{}`: {e}", spec.binds))
            })?;
        rules.overlay(&overrides);
    }
    let problems = rules.validate();
    if problems.is_empty() {
        Ok(())
    } else {
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        Err(LevelError::Setting(format!(
            "the settings make rules that do not make sense: {}",
            text.join("; ")
        )))
    }
}

/// The overrides that set `section.field` to `value` (a setting's value as written in a rule
/// file: a Choice's option is written as it is, so it may name any value the constant takes).
fn bound_overrides(
    section: &str,
    field: &str,
    value: &str,
) -> Result<crate::rules::RuleOverrides, String> {
    crate::rules::RuleSet::constant_override(&format!("{section}.{field}"), value)
}

/// Why the rule constant `key` (`section.field`) cannot take `value`, if it cannot.
pub(crate) fn binding_problem(key: &str, value: &str) -> Option<String> {
    let (section, field) = key.split_once('.')?;
    bound_overrides(section, field, value).err()
}

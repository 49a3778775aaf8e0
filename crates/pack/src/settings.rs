//! A pack's settings as a game is created: each setting's value (its default, or as the
//! player set it), and the rule constants the settings bind, set.

use super::Manifest;
use super::SettingValue;
use super::level::LevelError;
use crate::rules::RuleSet;

/// Every setting of the pack with its value: the default, or as `set` gives it.
pub(crate) fn values(
    manifest: &Manifest,
    set: &[(String, String)],
) -> Result<Vec<(String, SettingValue)>, LevelError> {
    for (id, _) in set {
        if manifest.setting(id).is_none() {
            let ids: Vec<&str> = manifest.settings.iter().map(|s| s.id.as_str()).collect();
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
    manifest
        .settings
        .iter()
        .map(|spec| {
            let value = match set.iter().rev().find(|(id, _)| *id == spec.id) {
                Some((_, text)) => spec.parse_value(text).map_err(LevelError::Setting)?,
                None => spec.default_value(),
            };
            Ok((spec.id.clone(), value))
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
        let Some((section, field)) = spec.binds.split_once('.') else {
            continue;
        };
        let overrides = bound_overrides(section, field, &value.to_string()).map_err(|e| {
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

//! A pack's string tables (`locale/en.ron`, and a language's own over it), which
//! `scryptic.t` reads and saves carry.

use super::Pack;
use super::level::LevelError;
use crate::diag::LoadError;
use std::path::Path;

/// Each pack's string table in `language` (its `locale/LANG.ron` over `locale/en.ron`; a pack
/// with neither has none), bounded as a save bounds them.
pub(crate) fn string_tables(
    packs: &[&Pack],
    language: &str,
) -> Result<crate::save::StringTables, LevelError> {
    let language = if language.is_empty() { "en" } else { language };
    if !language
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || language.len() > 16
    {
        return Err(LevelError::Setting(format!(
            "`{}` is not a language name (en, fr, pt-BR)",
            crate::diag::shorten(language, 20)
        )));
    }
    let mut tables = crate::save::StringTables::new();
    // English under all, then the language (`pt`), then its region's (`pt-BR`) over it.
    let mut layers = vec!["en"];
    if let Some((base, _)) = language.split_once('-') {
        layers.push(base);
    }
    layers.push(language);
    layers.dedup();
    for pack in packs {
        let mut table = std::collections::BTreeMap::new();
        for lang in &layers {
            let path = format!("locale/{lang}.ron");
            if !pack.files.is_file(&path) {
                continue;
            }
            let shown = pack.files.shown(&path);
            table.extend(string_table(&shown, &pack.files.read_text(&path)?)?);
        }
        if !table.is_empty() {
            tables.insert(pack.id().to_string(), table);
        }
    }
    match crate::save::strings_problem(&tables) {
        Some(problem) => Err(LevelError::Setting(problem)),
        None => Ok(tables),
    }
}

/// The player's language, as a pack's string tables name it (`fr`, `pt-BR`): `SCRYPTIC_LANG`
/// if set, else the system's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, as POSIX orders them:
/// `fr_FR.UTF-8` is `fr-FR`); empty (English) when none says (or says `C`).
pub fn system_language() -> String {
    language_from(&|name| std::env::var(name).ok())
}

/// `system_language`, reading the environment through `var`.
pub fn language_from(var: &dyn Fn(&str) -> Option<String>) -> String {
    if let Some(chosen) = var("SCRYPTIC_LANG").filter(|v| !v.is_empty()) {
        return chosen;
    }
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()))
        .unwrap_or_default();
    // `fr_FR.UTF-8@euro`: the language and region, without the encoding or modifier.
    let name = locale.split(['.', '@']).next().unwrap_or_default();
    if name == "C" || name == "POSIX" {
        return String::new();
    }
    name.replace('_', "-")
}

/// A string table file's text (`{ "key": "text" }`), read and bounded as a save bounds it.
pub fn string_table(
    path: &Path,
    text: &str,
) -> Result<std::collections::BTreeMap<String, String>, LevelError> {
    let table: std::collections::BTreeMap<String, String> = crate::ronfile::parse(path, text)?;
    let one = crate::save::StringTables::from([(String::new(), table)]);
    match crate::save::strings_problem(&one) {
        Some(problem) => Err(LevelError::File(LoadError::one(
            crate::diag::FileError::whole(path, problem.replacen("pack ``: ", "", 1)),
        ))),
        None => Ok(one.into_values().next().unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::language_from;

    fn check(vars: &[(&str, &str)], language: &str) {
        let found = language_from(&|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        });
        assert_eq!(found, language, "{vars:?}");
    }

    #[test]
    fn the_language_follows_the_locale_under_scryptic_lang() {
        check(&[], "");
        check(&[("LANG", "fr_FR.UTF-8")], "fr-FR");
        check(&[("LANG", "de_DE@euro")], "de-DE");
        check(
            &[("LANG", "fr_FR.UTF-8"), ("LC_ALL", "es_ES.UTF-8")],
            "es-ES",
        );
        check(
            &[("LANG", "fr_FR.UTF-8"), ("LC_MESSAGES", "it_IT")],
            "it-IT",
        );
        check(&[("LANG", "C.UTF-8")], "");
        check(&[("LANG", "POSIX")], "");
        check(&[("LANG", "fr_FR.UTF-8"), ("SCRYPTIC_LANG", "en")], "en");
        check(&[("LC_ALL", ""), ("LANG", "pt_BR")], "pt-BR");
    }
}

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
    for pack in packs {
        let mut table = std::collections::BTreeMap::new();
        for lang in ["en", language] {
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

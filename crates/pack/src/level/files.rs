//! A level's script files and connotation lists read from its pack (or from beside a map),
//! each problem kept as a message rather than stopping the level.

use super::{ConnotationList, LevelError, Read, locate};
use crate::diag::LoadError;
use crate::lexicon::listfile;
use crate::save::ScriptSource;
use crate::{Pack, PackFiles};
use std::path::Path;

/// Reads a script a pack names (`from`: the pack and the file naming it) into `scripts`, or
/// its problem into `unreadable`; a script of another pack than the level's `own` (or of a
/// built-in pack) is named `ID:path`, and runs in that pack's state.
pub(super) fn read_script(
    packs: &[&Pack],
    ((from, from_file), own): ((&Pack, &str), &Pack),
    reference: &str,
    (scripts, unreadable, used): (&mut Vec<ScriptSource>, &mut Vec<String>, &mut Vec<Read>),
) -> Result<(), LevelError> {
    let (owner, path) = locate(packs, from, from_file, reference)?;
    let name = if owner.id() == own.id() && own.files.folder().is_some() {
        path.clone()
    } else {
        format!("{}:{path}", owner.id())
    };
    let read = owner
        .files
        .read_bytes(&path, crate::limits::MAX_SCRIPT_BYTES as u64)
        .and_then(|bytes| crate::fsutil::text_from_bytes(&owner.files.shown(&path), bytes));
    match read {
        Ok(source) => {
            // Only a file read is recorded (and hashed) as one the level used.
            used.push((owner.id().to_string(), path.clone()));
            scripts.push(ScriptSource { name, source });
        }
        Err(e) => unreadable.push(unreadable_script(from, from_file, reference, &e)),
    }
    Ok(())
}

/// A script that cannot be read, said as the file that names it names it, and where: the
/// reason (often the first folder of its path that is missing) comes after.
fn unreadable_script(from: &Pack, from_file: &str, reference: &str, error: &LoadError) -> String {
    let shown = from.files.shown(from_file);
    let at = from
        .files
        .read_text(from_file)
        .ok()
        .and_then(|text| {
            let offset = text.find(&format!("\"{reference}\""))? + 1;
            Some(crate::diag::line_col_of(&text, offset))
        })
        .map(|(line, column)| format!(":{line}:{column}"))
        .unwrap_or_default();
    let why = error.problems().join("; ");
    format!(
        "{}{at}: the script `{reference}` cannot be read ({why}); paths are relative to the file that names them",
        shown.display()
    )
}

/// A loose map's scripts, read from its folder (the names as the map gives them).
pub(super) fn read_loose_scripts(dir: &Path, names: &[String]) -> (Vec<ScriptSource>, Vec<String>) {
    let mut scripts = Vec::new();
    let mut problems = Vec::new();
    for name in names {
        let read = match crate::limits::relative_path_problem(name) {
            Some(problem) => Err(format!("{name}: {problem}")),
            None => crate::fsutil::read_text_at_most(
                &dir.join(name),
                crate::limits::MAX_SCRIPT_BYTES as u64,
            )
            .map_err(|e| e.to_string()),
        };
        match read {
            Ok(source) => scripts.push(ScriptSource {
                name: name.clone(),
                source,
            }),
            Err(problem) => problems.push(problem),
        }
    }
    (scripts, problems)
}

/// The connotation lists in a pack's (or a level folder's) `connotations/` and
/// `lexicon/connotations/` folders.
pub(super) fn pack_connotations(
    files: &PackFiles,
) -> Result<Vec<(String, ConnotationList)>, LevelError> {
    let mut lists = Vec::new();
    for dir in ["lexicon/connotations", "connotations"] {
        for path in files.list(dir, "txt")? {
            let shown = files.shown(&path);
            let file_name = path.rsplit('/').next().unwrap_or_default();
            let Some(name) = listfile::list_name(file_name) else {
                return Err(LoadError::one(crate::diag::FileError::whole(
                    &shown,
                    "a connotation list's name is lowercase letters, digits, `_` and `-` (burning.txt)",
                ))
                .into());
            };
            let parsed = listfile::parse_word_list(&files.read_text(&path)?);
            let fatal: Vec<crate::diag::FileError> = parsed
                .problems
                .iter()
                .filter(|p| p.fatal)
                .map(|p| {
                    crate::diag::FileError::at(&shown, Some((p.line, p.column)), p.message.clone())
                })
                .collect();
            if !fatal.is_empty() {
                return Err(LoadError::Problems(fatal).into());
            }
            lists.push((
                path.clone(),
                ConnotationList {
                    name: name.to_string(),
                    words: parsed.words,
                    file: shown,
                },
            ));
        }
    }
    Ok(lists)
}

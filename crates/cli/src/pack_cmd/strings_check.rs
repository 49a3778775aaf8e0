//! `pack check`'s look at a pack's texts: every key its scripts pass to `scryptic.t` as
//! written text is in `locale/en.ron` (else players would read the key), and every other
//! language has what English has (else its players read English there).

use crate::pack::Pack;
use std::collections::BTreeSet;

/// The string table every language falls back to.
const ENGLISH: &str = "locale/en.ron";

/// Adds the keys English lacks to `problems`; returns the warnings (another language's gaps,
/// and keys it has that English does not).
pub(super) fn check(pack: &Pack, files: &[String], problems: &mut Vec<String>) -> Vec<String> {
    let mut warnings = Vec::new();
    let Some(english) = table_keys(pack, ENGLISH, problems) else {
        return warnings;
    };
    for file in files.iter().filter(|f| f.ends_with(".lua")) {
        let Ok(text) = pack.files.read_text(file) else {
            continue; // Reported where the scripts are checked.
        };
        for (key, line, column) in keys_used(&text) {
            if !english.contains(&key) {
                problems.push(format!(
                    "{}:{line}:{column}: the text `{key}` is not in {ENGLISH} (players would read `{key}` itself): add it",
                    pack.files.shown(file).display()
                ));
            }
        }
    }
    let others = files
        .iter()
        .filter(|f| f.starts_with("locale/") && f.ends_with(".ron") && f.as_str() != ENGLISH);
    for file in others {
        let Some(keys) = table_keys(pack, file, problems) else {
            continue;
        };
        let shown = pack.files.shown(file);
        let missing: Vec<&str> = english.difference(&keys).map(String::as_str).collect();
        if !missing.is_empty() {
            warnings.push(format!(
                "{} lacks {} that {ENGLISH} has ({}): its players read English there",
                shown.display(),
                counted_keys(missing.len()),
                missing.join(", ")
            ));
        }
        let extra: Vec<&str> = keys.difference(&english).map(String::as_str).collect();
        if !extra.is_empty() {
            warnings.push(format!(
                "{} has {} that {ENGLISH} lacks ({}): English is what every language falls back to",
                shown.display(),
                counted_keys(extra.len()),
                extra.join(", ")
            ));
        }
    }
    warnings
}

fn counted_keys(n: usize) -> String {
    crate::screen::counted(n, "key")
}

/// The keys of the string table `file`, if the pack has it and it reads (if not, why goes to
/// `problems`). A pack with no English table but with scripts asking for texts has an empty
/// one, so that every key asked for is named.
fn table_keys(pack: &Pack, file: &str, problems: &mut Vec<String>) -> Option<BTreeSet<String>> {
    if !pack.files.is_file(file) {
        return (file == ENGLISH).then(BTreeSet::new);
    }
    let read = pack
        .files
        .read_text(file)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            crate::pack::strings::string_table(&pack.files.shown(file), &text)
                .map_err(|e| e.to_string())
        });
    match read {
        Ok(table) => Some(table.into_keys().collect()),
        Err(e) => {
            problems.push(e);
            None
        }
    }
}

/// The keys `source` passes to `scryptic.t` as a written string (`scryptic.t("welcome", ...)`,
/// `scryptic.t 'welcome'`), each with its line and column; a key made at run time cannot be
/// known here.
pub(super) fn keys_used(source: &str) -> Vec<(String, usize, usize)> {
    const CALL: &str = "scryptic.t";
    let mut keys = Vec::new();
    let mut from = 0;
    while let Some(found) = source[from..].find(CALL) {
        let start = from + found;
        from = start + CALL.len();
        // `scryptic.token` and the like are other names.
        let rest = &source[from..];
        let after_name = rest.trim_start();
        let after_paren = after_name
            .strip_prefix('(')
            .map_or(after_name, str::trim_start);
        if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(quote) = after_paren
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
        else {
            continue;
        };
        let body = &after_paren[1..];
        let Some(end) = body.find(quote) else {
            continue;
        };
        let key = &body[..end];
        if key.contains('\\') {
            continue; // An escaped key is rare; the table's key would be the unescaped text.
        }
        let at = source.len() - after_paren.len();
        let (line, column) = crate::diag::line_col_of(source, at + 1);
        keys.push((key.to_string(), line, column));
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::keys_used;

    fn check(source: &str, expected: &[(&str, usize, usize)]) {
        let found = keys_used(source);
        let found: Vec<(&str, usize, usize)> =
            found.iter().map(|(k, l, c)| (k.as_str(), *l, *c)).collect();
        assert_eq!(found, expected, "{source}");
    }

    #[test]
    fn keys_written_in_calls_are_found_with_their_place() {
        check(
            "game:message(scryptic.t(\"welcome\", {town = t}))",
            &[("welcome", 1, 26)],
        );
        check(
            "x = scryptic.t 'bye'\ny = scryptic.t( \"hi\" )",
            &[("bye", 1, 17), ("hi", 2, 18)],
        );
        check("scryptic.token { id = \"t\" }", &[]);
        check("scryptic.t(key)", &[]);
        check("scryptic.t(\"open", &[]);
    }
}

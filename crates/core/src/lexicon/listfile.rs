//! Reading word-list files: one lowercase word per line, `#` comments and blank lines allowed.
//!
//! This file has no dependencies on the rest of the crate: `build.rs` includes it too, so the
//! lists compiled into the runtime and the lists a mod loads are read by the same code.

/// A problem on one line of a word-list file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListProblem {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// What is wrong and how to fix it.
    pub message: String,
    /// Whether the list cannot be used (an error) or was used anyway (a warning).
    pub fatal: bool,
}

/// The words of a list file, sorted and without repeats, and what was wrong with it.
#[derive(Clone, Debug, Default)]
pub struct ParsedList {
    /// The words, sorted, each once.
    pub words: Vec<String>,
    /// Problems found, in line order.
    pub problems: Vec<ListProblem>,
}

impl ParsedList {
    /// Whether any problem makes the list unusable.
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(|p| p.fatal)
    }
}

/// The entry on a line, without surrounding spaces, or `None` for blank and comment lines.
fn entry(line: &str) -> Option<&str> {
    let trimmed = line.trim();
    (!trimmed.is_empty() && !trimmed.starts_with('#')).then_some(trimmed)
}

/// What is wrong with `word` as a list entry, and at which column (from 1) of it.
fn word_problem(word: &str) -> Option<(usize, String)> {
    if let Some((i, ch)) = word.char_indices().find(|(_, c)| !c.is_ascii_lowercase()) {
        let column = word[..i].chars().count() + 1;
        let message = if ch.is_ascii_uppercase() {
            format!(
                "'{word}' has capitals; words are written in lowercase ('{}')",
                word.to_ascii_lowercase()
            )
        } else if ch.is_whitespace() {
            format!("'{word}' has a space; write one word per line")
        } else if !ch.is_ascii() {
            format!(
                "'{word}' has '{ch}', which is not a plain letter; words use only the letters a to z"
            )
        } else {
            format!("'{word}' has '{ch}'; words use only the letters a to z")
        };
        return Some((column, message));
    }
    None
}

/// Parses a word list. Errors: anything but lowercase a-z in a word. Warnings: repeats and
/// words out of order (the list is sorted on loading; keeping the file sorted keeps diffs small).
pub fn parse_word_list(text: &str) -> ParsedList {
    let mut out = ParsedList::default();
    let mut first_line_of: std::collections::HashMap<&str, usize> =
        std::collections::HashMap::new();
    let mut previous: Option<&str> = None;
    let mut reported_order = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let Some(word) = entry(raw) else { continue };
        let column = raw.find(word).map_or(1, |i| raw[..i].chars().count() + 1);
        if let Some((offset, message)) = word_problem(word) {
            out.problems.push(ListProblem {
                line,
                column: column + offset - 1,
                message,
                fatal: true,
            });
            continue;
        }
        if let Some(&first) = first_line_of.get(word) {
            out.problems.push(ListProblem {
                line,
                column,
                message: format!("'{word}' is already on line {first}; the repeat is ignored"),
                fatal: false,
            });
            continue;
        }
        first_line_of.insert(word, line);
        if let Some(before) = previous
            && word < before
            && !reported_order
        {
            out.problems.push(ListProblem {
                line,
                column,
                message: format!("'{word}' comes after '{before}': the file is not sorted; it is sorted when loaded (sort the file to keep diffs small)"),
                fatal: false,
            });
            reported_order = true;
        }
        previous = Some(word);
        out.words.push(word.to_string());
    }
    out.words.sort_unstable();
    out
}

/// Parses a base-forms file: `inflected base` on each line. Returns the pairs sorted by the
/// inflected form (one base per form: the first given).
pub fn parse_base_forms(text: &str) -> (Vec<(String, String)>, Vec<ListProblem>) {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let Some(entry) = entry(raw) else { continue };
        let parts: Vec<&str> = entry.split_whitespace().collect();
        let bad = parts.iter().find_map(|w| word_problem(w));
        match (parts.as_slice(), bad) {
            (_, Some((_, message))) => problems.push(ListProblem { line: index + 1, column: 1, message, fatal: true }),
            ([inflected, base], None) => pairs.push((inflected.to_string(), base.to_string())),
            _ => problems.push(ListProblem {
                line: index + 1,
                column: 1,
                message: format!("'{entry}' should be two words: an inflected form and its base form (hidden hide)"),
                fatal: true,
            }),
        }
    }
    pairs.sort();
    pairs.dedup_by(|a, b| a.0 == b.0);
    (pairs, problems)
}

/// A connotation list's name from its file name (`attacking.txt` is `attacking`), if valid:
/// lowercase letters, digits, `_` and `-`.
pub fn list_name(file_name: &str) -> Option<&str> {
    let name = file_name.strip_suffix(".txt")?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    valid.then_some(name)
}

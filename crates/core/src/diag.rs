//! What goes wrong in files people write, said so that they can fix it.
//!
//! Two kinds of report: a [`FileError`] points at a place in a file (file:line:column) that
//! could not be read as meant; a [`Finding`] is a design problem that a validator found on
//! the board (it names cells, not lines).

use crate::board::Pos;
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// A problem at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileError {
    /// The file, as the user named it.
    pub path: PathBuf,
    /// Line and column, counted from 1, when the problem has a place.
    pub line_col: Option<(usize, usize)>,
    /// What is wrong and what was expected.
    pub message: String,
}

impl FileError {
    /// A problem at a place in `path`.
    pub fn at(path: &Path, line_col: Option<(usize, usize)>, message: impl Into<String>) -> Self {
        FileError {
            path: path.to_path_buf(),
            line_col,
            message: message.into(),
        }
    }

    /// A problem with `path` as a whole.
    pub fn whole(path: &Path, message: impl Into<String>) -> Self {
        FileError::at(path, None, message)
    }

    /// A RON syntax or type error in `text`, with a suggestion where a name was misspelt.
    pub fn from_ron(path: &Path, text: &str, err: &ron::error::SpannedError) -> Self {
        use ron::Error::*;
        let start = (err.span.start.line, err.span.start.col);
        let last_char = line_col_of(text, text.trim_end().len().saturating_sub(1));
        let wants_more = matches!(
            err.code,
            Eof | ExpectedComma
                | ExpectedArrayEnd
                | ExpectedMapEnd
                | ExpectedStructLikeEnd
                | ExpectedStringEnd
                | ExpectedOptionEnd
        );
        let message = if text.trim().is_empty() {
            "the file is empty".to_string()
        } else if wants_more && start >= last_char {
            describe_ron_error(&ron::Error::Eof)
        } else {
            describe_ron_error(&err.code)
        };
        FileError::at(path, Some(start), message)
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col {
            Some((line, col)) => {
                write!(f, "{}:{line}:{col}: {}", self.path.display(), self.message)
            }
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for FileError {}

/// A file that could not be loaded: it could not be read, or it has problems.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read at all.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why the system refused.
        source: std::io::Error,
    },
    /// The file was read but is not right; every problem found is listed.
    #[error("{}", list_problems(.0))]
    Problems(Vec<FileError>),
}

impl LoadError {
    /// A load error made of one problem.
    pub fn one(problem: FileError) -> Self {
        LoadError::Problems(vec![problem])
    }

    /// The problems, one per line, as the command line prints them.
    pub fn problems(&self) -> Vec<String> {
        match self {
            LoadError::Io { .. } => vec![self.to_string()],
            LoadError::Problems(all) => all.iter().map(ToString::to_string).collect(),
        }
    }
}

fn list_problems(problems: &[FileError]) -> String {
    let lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

fn describe_ron_error(code: &ron::Error) -> String {
    use ron::Error;
    match code {
        Error::NoSuchStructField {
            expected,
            found,
            outer,
        } => unknown_name("field", found, outer.as_deref(), expected),
        Error::NoSuchEnumVariant {
            expected,
            found,
            outer,
        } => unknown_name("value", found, outer.as_deref(), expected),
        Error::MissingStructField { field, outer } => match outer {
            Some(outer) => format!("`{outer}` needs the field `{field}`; add `{field}: ...`"),
            None => format!("missing the field `{field}`; add `{field}: ...`"),
        },
        Error::DuplicateStructField { field, .. } => {
            format!("the field `{field}` is given twice; keep one")
        }
        Error::ExpectedInteger => "expected a whole number here".to_string(),
        Error::ExpectedFloat => "expected a number here (such as 1.5)".to_string(),
        Error::ExpectedString => "expected text in double quotes here".to_string(),
        Error::ExpectedBoolean => "expected `true` or `false` here".to_string(),
        Error::ExpectedChar => {
            "expected one character in single quotes here (such as 'A')".to_string()
        }
        Error::ExpectedArray => "expected a list in square brackets here".to_string(),
        Error::ExpectedMap => "expected a table in curly braces here".to_string(),
        Error::ExpectedNamedStructLike(name) => {
            format!("expected `(` to open {} here", user_facing_name(name))
        }
        Error::ExpectedStructLike => "expected a group of fields in parentheses here".to_string(),
        Error::ExpectedComma => "expected a comma here".to_string(),
        Error::IntegerOutOfBounds => {
            "this number is too large (or too small) for this field".to_string()
        }
        Error::TrailingCharacters => {
            "unexpected text after the end of the file's value; remove it".to_string()
        }
        Error::Eof => {
            "the file ends too early: something is not closed (a `)`, `]`, `}` or `\"`)".to_string()
        }
        other => other.to_string(),
    }
}

fn unknown_name(what: &str, found: &str, outer: Option<&str>, expected: &[&str]) -> String {
    let place = outer
        .map(|o| format!(" in {}", user_facing_name(o)))
        .unwrap_or_default();
    match nearest_name(found, expected.iter().copied()) {
        Some(best) => format!("unknown {what} `{found}`{place}; did you mean `{best}`?"),
        None if expected.is_empty() => format!("unknown {what} `{found}`{place}"),
        None => format!(
            "unknown {what} `{found}`{place}; expected one of: {}",
            expected.join(", ")
        ),
    }
}

/// What users call the part of a file that the Rust type `type_name` reads.
fn user_facing_name(type_name: &str) -> String {
    match type_name {
        "MapFile" => "the map".to_string(),
        "RuleFile" => "the rule-set file".to_string(),
        "TilesetFile" => "the tileset".to_string(),
        "RuleOverrides" => "`overrides`".to_string(),
        other => match other.strip_suffix("Overrides") {
            Some(section) => {
                // Sections are named in the plural where the type is singular (`letters`).
                let lower = section.to_lowercase();
                let plural = ["letters", "tokens"]
                    .into_iter()
                    .find(|s| s.strip_suffix('s') == Some(&lower));
                format!("`{}`", plural.unwrap_or(&lower))
            }
            None => format!("`{other}`"),
        },
    }
}

/// The candidate closest to `found` in spelling, if one is close enough to be a likely typo.
pub fn nearest_name<'a>(
    found: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let found_lower = found.to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            (
                strsim::damerau_levenshtein(&found_lower, &c.to_lowercase()),
                c,
            )
        })
        .filter(|&(distance, c)| distance <= (c.len().max(found.len()) / 3).max(2))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, c)| c)
}

/// `text` cut to its first `most` characters, with `...` when cut: for echoing a stranger's
/// value back in a message without echoing megabytes.
pub fn shorten(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Line and column (both from 1) of byte `offset` in `text`.
pub fn line_col_of(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, col)
}

/// How bad a design problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The map cannot be played as it is.
    Error,
    /// The map can be played, but probably not as its designer meant.
    Warning,
}

/// A design problem a validator found, with the cells it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Whether the map can be played anyway.
    pub severity: Severity,
    /// A short stable name for the kind of problem, for scripts and tests.
    pub code: &'static str,
    /// What is wrong and how to fix it.
    pub message: String,
    /// The cells concerned (may be empty for problems of the whole map).
    pub cells: Vec<Pos>,
}

impl Finding {
    /// An error finding.
    pub fn error(code: &'static str, message: impl Into<String>, cells: Vec<Pos>) -> Self {
        Finding {
            severity: Severity::Error,
            code,
            message: message.into(),
            cells,
        }
    }

    /// A warning finding.
    pub fn warning(code: &'static str, message: impl Into<String>, cells: Vec<Pos>) -> Self {
        Finding {
            severity: Severity::Warning,
            ..Finding::error(code, message, cells)
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{label}[{}]: {}", self.code, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names() {
        let names = ["rack_limit", "start_rack", "draw_per_turn"];
        assert_eq!(nearest_name("rak_limit", names), Some("rack_limit"));
        assert_eq!(nearest_name("RACK_LIMIT", names), Some("rack_limit"));
        assert_eq!(nearest_name("banana", names), None);
    }

    #[test]
    fn line_and_column_count_from_one() {
        let text = "ab\ncdé\nf";
        assert_eq!(line_col_of(text, 0), (1, 1));
        assert_eq!(line_col_of(text, 4), (2, 2));
        assert_eq!(line_col_of(text, text.len()), (3, 2));
    }
}

/// `n THING`, or `n THINGs` when n is not one (`1 problem`, `3 cities`, `2 keys`), for
/// messages that count.
pub fn counted(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {}", plural(thing))
    }
}

/// `letter` as `letters`, `city` as `cities`, `key` as `keys`, `match` as `matches`.
pub fn plural(thing: &str) -> String {
    match thing.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{stem}ies"),
        _ if ["s", "x", "z", "ch", "sh"]
            .iter()
            .any(|end| thing.ends_with(end)) =>
        {
            format!("{thing}es")
        }
        _ => format!("{thing}s"),
    }
}

#[cfg(test)]
mod counted_tests {
    #[test]
    fn counts_read_as_words() {
        for (n, thing, said) in [
            (1, "problem", "1 problem"),
            (0, "problem", "0 problems"),
            (3, "city", "3 cities"),
            (2, "key", "2 keys"),
            (2, "terrain cell", "2 terrain cells"),
            (1, "match", "1 match"),
            (4, "match", "4 matches"),
            (2, "box", "2 boxes"),
        ] {
            assert_eq!(super::counted(n, thing), said);
        }
    }
}

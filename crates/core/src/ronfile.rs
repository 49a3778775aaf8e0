//! The one way RON files are read and written, so that every file kind reports errors alike
//! and saves in one canonical layout.

use crate::diag::{FileError, LoadError};
use ron::extensions::Extensions;
use ron::ser::PrettyConfig;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;

/// RON options shared by every file: `implicit_some` lets overrides be written `12` rather
/// than `Some(12)`; the recursion limit turns deeply nested garbage into an error, not a crash.
pub fn options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_recursion_limit(64)
}

/// Parses `text` (the contents of `path`) as a `T`, with file:line:column on failure.
pub fn parse<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, LoadError> {
    options()
        .from_str(text)
        .map_err(|err| LoadError::one(FileError::from_ron(path, text, &err)))
}

/// Serializes `value` in the canonical layout: four-space indents, one item per line down to
/// `depth` levels of nesting and everything deeper on one line, a trailing newline. The same
/// value always gives the same bytes.
pub fn to_canonical<T: Serialize>(value: &T, depth: usize) -> Result<String, ron::Error> {
    let config = PrettyConfig::new()
        .indentor("    ")
        .depth_limit(depth)
        .struct_names(false)
        .separate_tuple_members(false)
        .enumerate_arrays(false);
    let mut text = options().to_string_pretty(value, config)?;
    text.push('\n');
    Ok(text)
}

/// `canonical` (a file as the canonical writer made it) with the `//` comments of
/// `original` (the same file as a person wrote it) put back: a comment on lines of its own
/// goes above the line it was above, a comment at the end of a line goes at the end of that
/// line, each found in `canonical` by its key (`cities:`), its first string (a city's id, a
/// terrain row) or its text. A comment whose line is gone is kept before the last line.
pub fn keep_comments(original: &str, canonical: &str) -> String {
    let notes = comment_notes(original);
    if notes.is_empty() {
        return canonical.to_string();
    }
    let lines: Vec<&str> = canonical.lines().collect();
    let keys: Vec<String> = lines.iter().map(|l| line_key(l)).collect();
    let mut above: Vec<Vec<String>> = vec![Vec::new(); lines.len()];
    let mut after: Vec<Vec<String>> = vec![Vec::new(); lines.len()];
    let mut orphans = Vec::new();
    let mut cursor = 0;
    for note in notes {
        let found = (cursor..keys.len())
            .chain(0..cursor)
            .find(|&i| keys[i] == note.key);
        match found {
            Some(i) => {
                cursor = i;
                if note.trailing {
                    after[i].extend(note.comments);
                } else {
                    above[i].extend(note.comments);
                }
            }
            None => orphans.extend(note.comments),
        }
    }
    let mut out = String::new();
    let last = lines.len().saturating_sub(1);
    for (i, line) in lines.iter().enumerate() {
        let indent = &line[..line.len() - line.trim_start().len()];
        if i == last {
            for comment in &orphans {
                out.push_str(&format!("    {comment}\n"));
            }
        }
        for comment in &above[i] {
            out.push_str(&format!("{indent}{comment}\n"));
        }
        out.push_str(line);
        for comment in &after[i] {
            out.push_str(&format!(" {comment}"));
        }
        out.push('\n');
    }
    out
}

/// Comments of one place in a file: the key of the line they belong to, and whether they
/// end that line (else they stand above it).
struct CommentNote {
    key: String,
    trailing: bool,
    comments: Vec<String>,
}

fn comment_notes(text: &str) -> Vec<CommentNote> {
    let mut notes = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for line in text.lines() {
        let (code, comment) = split_comment(line);
        let code = code.trim();
        match (code.is_empty(), comment) {
            (true, Some(c)) => pending.push(c.to_string()),
            (true, None) => {}
            (false, trailing) => {
                let key = line_key(code);
                if !pending.is_empty() {
                    notes.push(CommentNote {
                        key: key.clone(),
                        trailing: false,
                        comments: std::mem::take(&mut pending),
                    });
                }
                if let Some(c) = trailing {
                    notes.push(CommentNote {
                        key,
                        trailing: true,
                        comments: vec![c.to_string()],
                    });
                }
            }
        }
    }
    if !pending.is_empty() {
        notes.push(CommentNote {
            key: String::new(),
            trailing: false,
            comments: pending,
        });
    }
    notes
}

/// A line's code and its `//` comment (from the slashes on), outside strings and characters.
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match skip_quoted(bytes, i, b'"') {
                Some(end) => i = end,
                None => return (line, None),
            },
            b'\'' => {
                if let Some(end) = skip_quoted(bytes, i, b'\'').filter(|&e| e <= i + 5) {
                    i = end;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => return (&line[..i], Some(&line[i..])),
            _ => {}
        }
        i += 1;
    }
    (line, None)
}

/// What a line is known by: its field name (`cities:`), else its first string, else its code.
fn line_key(line: &str) -> String {
    let code = split_comment(line).0.trim().trim_end_matches(',');
    if let Some((name, _)) = code.split_once(':')
        && !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return format!("{name}:");
    }
    if let Some(start) = code.find('"')
        && let Some(end) = skip_quoted(code.as_bytes(), start, b'"')
    {
        return code[start..=end].to_string();
    }
    code.to_string()
}

/// The byte range of the bracketed value written after the first `key:` in `text` (from its
/// opening `(`, `[` or `{` to its matching close), skipping strings, characters and comments.
/// Used to read a value embedded in a larger file (a save's map) as a file of its own, so
/// that its problems point at their lines.
pub fn value_span_after_key(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    let key_at = crate::rules::key_offset(text, key)?;
    let after_colon = key_at + text[key_at..].find(':')? + 1;
    let open = after_colon + text[after_colon..].find(|c: char| !c.is_whitespace())?;
    if !matches!(text.as_bytes()[open], b'(' | b'[' | b'{') {
        return None;
    }
    let close = matching_close(text, open)?;
    Some(open..close + 1)
}

/// The byte offset of the bracket that closes the one at `open`.
fn matching_close(text: &str, open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'"' => i = skip_quoted(bytes, i, b'"')?,
            b'\'' => i = skip_quoted(bytes, i, b'\'')?,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += text[i..].find('\n').unwrap_or(text.len() - i);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2 + text[i + 2..].find("*/")? + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset of the quote that closes the one at `start`.
fn skip_quoted(bytes: &[u8], start: usize, quote: u8) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b if b == quote => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{keep_comments, value_span_after_key};

    #[test]
    fn comments_come_back_to_their_lines() {
        let original = "// A map.\n(\n    name: \"A\", // the title\n    // Where they start:\n    cities: [\n        // the capital\n        (id: \"aurum\", at: (x: 1, y: 2)),\n    ],\n    // gone\n    tileset: \"t.ron\",\n)\n";
        let canonical = "(\n    version: 1,\n    name: \"A\",\n    cities: [\n        (id: \"aurum\", at: (x: 1, y: 2)),\n    ],\n)\n";
        assert_eq!(
            keep_comments(original, canonical),
            "// A map.\n(\n    version: 1,\n    name: \"A\", // the title\n    // Where they start:\n    cities: [\n        // the capital\n        (id: \"aurum\", at: (x: 1, y: 2)),\n    ],\n    // gone\n)\n"
        );
        assert_eq!(
            keep_comments("(x: \"a // b\")", "(x: \"a // b\")\n"),
            "(x: \"a // b\")\n"
        );
    }

    #[test]
    fn a_value_is_found_whole_past_strings_and_comments() {
        let text = "(\n  version: 1,\n  map: ( name: \"a ) b\", c: ')', // )\n d: [1] ),\n  x: 2 )";
        let span = value_span_after_key(text, "map").unwrap();
        assert_eq!(&text[span], "( name: \"a ) b\", c: ')', // )\n d: [1] )");
        assert_eq!(value_span_after_key(text, "version"), None);
        assert_eq!(value_span_after_key("(map: (", "map"), None);
    }
}

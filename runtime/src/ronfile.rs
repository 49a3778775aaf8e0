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

/// The byte range of the bracketed value written after the first `key:` in `text` (from its
/// opening `(`, `[` or `{` to its matching close), skipping strings, characters and comments.
/// Used to read a value embedded in a larger file (a save's map) as a file of its own, so
/// that its problems point at their lines.
pub fn value_span_after_key(text: &str, key: &str) -> Option<std::ops::Range<usize>> {
    let (line, col) = crate::rules::locate_key(text, key)?;
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let key_at = line_start + text[line_start..].char_indices().nth(col - 1)?.0;
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
    use super::value_span_after_key;

    #[test]
    fn a_value_is_found_whole_past_strings_and_comments() {
        let text = "(\n  version: 1,\n  map: ( name: \"a ) b\", c: ')', // )\n d: [1] ),\n  x: 2 )";
        let span = value_span_after_key(text, "map").unwrap();
        assert_eq!(&text[span], "( name: \"a ) b\", c: ')', // )\n d: [1] )");
        assert_eq!(value_span_after_key(text, "version"), None);
        assert_eq!(value_span_after_key("(map: (", "map"), None);
    }
}

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

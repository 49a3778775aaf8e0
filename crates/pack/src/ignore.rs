//! `.packignore`: the files of a pack folder its archive leaves out (an author's editor
//! settings, generated definitions, notes), as `.gitignore` leaves files out of a repository.
//!
//! One pattern a line; blank lines and lines starting with `#` are skipped. A pattern without
//! `/` matches a file or folder of that name anywhere (`*.bak`, `notes.txt`); one ending in
//! `/` matches a folder and everything in it (`types/`); one with a `/` inside is a path from
//! the pack's root (`maps/draft-*.ron`). `*` and `?` do not cross a `/`; `**` does. The
//! manifest is never left out.

use crate::diag::{FileError, LoadError};
use crate::files::PackFiles;
use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// The name of the file.
pub const IGNORE_FILE: &str = ".packignore";

/// The most patterns a `.packignore` may hold.
pub const MAX_PATTERNS: usize = 1000;

/// The patterns of a pack's `.packignore`.
#[derive(Debug, Default)]
pub struct PackIgnore {
    set: Option<GlobSet>,
}

impl PackIgnore {
    /// The `.packignore` of `files` (none: nothing is left out); a pattern that cannot be read
    /// is an error at its line.
    pub fn of(files: &PackFiles) -> Result<PackIgnore, LoadError> {
        if !files.is_file(IGNORE_FILE) {
            return Ok(PackIgnore::default());
        }
        let shown = files.shown(IGNORE_FILE);
        PackIgnore::parse(&shown, &files.read_text(IGNORE_FILE)?)
    }

    /// Reads `text`, the contents of `path`.
    pub fn parse(path: &std::path::Path, text: &str) -> Result<PackIgnore, LoadError> {
        let mut builder = GlobSetBuilder::new();
        let mut problems = Vec::new();
        let mut count = 0;
        for (i, line) in text.lines().enumerate() {
            let pattern = line.trim();
            if pattern.is_empty() || pattern.starts_with('#') {
                continue;
            }
            count += 1;
            if count > MAX_PATTERNS {
                problems.push(FileError::at(
                    path,
                    Some((i + 1, 1)),
                    format!("more than {MAX_PATTERNS} patterns: join some with `*`"),
                ));
                break;
            }
            let column = line.find(pattern).unwrap_or(0) + 1;
            match globs(pattern) {
                Ok(globs) => globs.into_iter().for_each(|g| {
                    builder.add(g);
                }),
                Err(e) => problems.push(FileError::at(
                    path,
                    Some((i + 1, column)),
                    format!("`{pattern}` is not a pattern ({e}): use names, `*`, `?` and `/`"),
                )),
            }
        }
        if !problems.is_empty() {
            return Err(LoadError::Problems(problems));
        }
        let set = builder.build().map_err(|e| {
            LoadError::one(FileError::whole(
                path,
                format!("cannot use the patterns: {e}"),
            ))
        })?;
        Ok(PackIgnore { set: Some(set) })
    }

    /// Whether the file `path` (relative to the pack's root, `/`-separated) is left out.
    pub fn leaves_out(&self, path: &str) -> bool {
        path != crate::MANIFEST_FILE && self.set.as_ref().is_some_and(|set| set.is_match(path))
    }
}

/// The globs one pattern stands for, over paths from the pack's root.
fn globs(pattern: &str) -> Result<Vec<Glob>, globset::Error> {
    let (body, folder) = match pattern.strip_suffix('/') {
        Some(body) => (body, true),
        None => (pattern, false),
    };
    let anchored = body.contains('/');
    let body = body.trim_start_matches('/');
    let at = if anchored {
        body.to_string()
    } else {
        format!("**/{body}")
    };
    let mut written = vec![format!("{at}/**")];
    if !folder {
        written.push(at);
    }
    written
        .iter()
        .map(|g| GlobBuilder::new(g).literal_separator(true).build())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(patterns: &str, path: &str, left_out: bool) {
        let ignore = PackIgnore::parse(std::path::Path::new(".packignore"), patterns).unwrap();
        assert_eq!(ignore.leaves_out(path), left_out, "`{patterns}` and {path}");
    }

    #[test]
    fn patterns_match_as_gitignore_does() {
        check("types/", "types/scryptic.lua", true);
        check("types/", "types", false);
        check("types/", "scripts/types/x.lua", true);
        check(".luarc.json", ".luarc.json", true);
        check(".luarc.json", "scripts/.luarc.json", true);
        check("*.bak", "maps/first.ron.bak", true);
        check("*.bak", "maps/first.ron", false);
        check("maps/draft-*.ron", "maps/draft-1.ron", true);
        check("maps/draft-*.ron", "campaigns/maps/draft-1.ron", false);
        check("maps/*.ron", "maps/old/x.ron", false);
        check("# types/\n\n", "types/scryptic.lua", false);
        check("pack.ron", "pack.ron", false);
        check("*", "pack.ron", false);
    }

    #[test]
    fn a_bad_pattern_is_named_at_its_line() {
        let e = PackIgnore::parse(std::path::Path::new("p/.packignore"), "types/\n  maps/[x\n")
            .unwrap_err();
        let text = e.to_string();
        assert!(text.contains("p/.packignore:2:3"), "{text}");
    }
}

//! A pack's files, wherever they are: a folder on disk, built into the binary (`core`), or held
//! in memory (an archive read where there are no files: the browser).
//!
//! **Invariant:** every path a pack names is relative, made of plain components (no `..`, no
//! `.`, no drive, no backslash), and on disk no component of it is a symbolic link, so a pack
//! can read only what is inside its own root. Every read is bounded in bytes, every listing in
//! entries.

use crate::diag::{FileError, LoadError};
use crate::limits::MAX_PATH_CHARS;
use std::path::{Path, PathBuf};

/// The most files a pack may hold.
pub const MAX_PACK_FILES: usize = 10_000;
/// The most bytes all of a pack's files may hold together.
pub const MAX_PACK_BYTES: u64 = 256 * 1024 * 1024;
/// The most bytes of one text file in a pack (a map, a rule set, a manifest, a list).
pub const MAX_PACK_TEXT_BYTES: u64 = 16 * 1024 * 1024;
/// The most folders deep a pack's files may be.
pub const MAX_PACK_DEPTH: usize = 16;

/// One file built into the binary.
#[derive(Debug)]
pub struct EmbeddedFile {
    /// Its path in the pack (`maps/duel-24.ron`).
    pub path: &'static str,
    /// Its contents.
    pub bytes: &'static [u8],
}

/// Where a pack's files are.
#[derive(Clone, Debug)]
pub enum PackFiles {
    /// A folder on disk (its root).
    Folder(PathBuf),
    /// Files built into the binary, under the pack's id.
    Embedded {
        /// The pack's id, which messages show in place of a folder.
        id: &'static str,
        /// The files, sorted by path.
        files: &'static [EmbeddedFile],
    },
    /// Files held in memory (read from an archive), under the pack's id.
    Memory {
        /// The pack's id, which messages show in place of a folder.
        id: std::sync::Arc<str>,
        /// The files by path.
        files: std::sync::Arc<std::collections::BTreeMap<String, Vec<u8>>>,
    },
}

/// Why `path` cannot name a file inside a pack, if it cannot.
pub fn path_problem(path: &str) -> Option<String> {
    if let Some(problem) = crate::limits::relative_path_problem(path) {
        return Some(problem.replace("the map's folder", "the pack's root"));
    }
    if path.contains('\\') {
        return Some(format!(
            "`{}` holds a backslash: separate folders with `/`",
            crate::diag::shorten(path, 80)
        ));
    }
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() > MAX_PACK_DEPTH {
        return Some(format!(
            "`{}` is more than {MAX_PACK_DEPTH} folders deep",
            crate::diag::shorten(path, 80)
        ));
    }
    if let Some(c) = path.chars().find(|&c| c == ':' || c.is_control()) {
        // A colon would read as a pack's name (`victim:spy.lua`), a control character as
        // something else on a terminal: no file of a pack holds either.
        return Some(format!(
            "`{}` holds {}: a pack's file names hold no colon and no control character \
             (name it `{}`)",
            crate::diag::shorten(&path.escape_debug().to_string(), 80),
            match c {
                ':' => "a colon".to_string(),
                c => format!("the control character U+{:04X}", u32::from(c)),
            },
            crate::diag::shorten(&path.replace(|c: char| c == ':' || c.is_control(), "-"), 80)
        ));
    }
    if parts.iter().any(|p| matches!(*p, "" | "." | "..")) {
        return Some(format!(
            "`{}` must stay inside the pack: name it from the pack's root without `..`, `.` or `//` \
             (scripts/intro.lua)",
            crate::diag::shorten(path, 80)
        ));
    }
    None
}

/// The pack path that `path`, written in the pack file `from`, names: relative to `from`'s
/// folder, `..` allowed as long as it stays inside the pack (so that a map names its tileset
/// `../tilesets/stone/tileset.ron` whether it is played inside its pack or on its own).
pub fn relative_to(from: &str, path: &str) -> Result<String, String> {
    if let Some(problem) = crate::limits::relative_path_problem(path) {
        return Err(problem.replace("the map's folder", "the file's folder"));
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(format!(
                        "`{}` leads out of the pack: a pack's files may name only files inside it \
                         (or another pack's, as `core:tilesets/stone/tileset.ron`)",
                        crate::diag::shorten(path, 80)
                    ));
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    match path_problem(&joined) {
        Some(problem) => Err(problem),
        None => Ok(joined),
    }
}

impl PackFiles {
    /// The path to show for `path` in messages: on disk, the file's real path; built in,
    /// `ID:path`.
    pub fn shown(&self, path: &str) -> PathBuf {
        match self {
            PackFiles::Folder(root) => root.join(path),
            PackFiles::Embedded { id, .. } => PathBuf::from(format!("{id}:{path}")),
            PackFiles::Memory { id, .. } => PathBuf::from(format!("{id}:{path}")),
        }
    }

    /// The folder on disk, if the pack is one.
    pub fn folder(&self) -> Option<&Path> {
        match self {
            PackFiles::Folder(root) => Some(root),
            PackFiles::Embedded { .. } | PackFiles::Memory { .. } => None,
        }
    }

    /// The bytes of `path` (at most `max_bytes`).
    pub fn read_bytes(&self, path: &str, max_bytes: u64) -> Result<Vec<u8>, LoadError> {
        let shown = self.shown(path);
        if let Some(problem) = path_problem(path) {
            return Err(LoadError::one(FileError::whole(&shown, problem)));
        }
        match self {
            PackFiles::Folder(root) => {
                let real = inside(root, path)?;
                crate::fsutil::read_bytes_at_most(&real, max_bytes)
            }
            PackFiles::Embedded { files, .. } => {
                let bytes = embedded(files, path).map(|f| f.bytes);
                held(&shown, bytes, max_bytes)
            }
            PackFiles::Memory { files, .. } => {
                held(&shown, files.get(path).map(Vec::as_slice), max_bytes)
            }
        }
    }

    /// The text of `path` (UTF-8, at most `MAX_PACK_TEXT_BYTES`).
    pub fn read_text(&self, path: &str) -> Result<String, LoadError> {
        let bytes = self.read_bytes(path, MAX_PACK_TEXT_BYTES)?;
        crate::fsutil::text_from_bytes(&self.shown(path), bytes)
    }

    /// Whether `path` is a file of the pack.
    pub fn is_file(&self, path: &str) -> bool {
        if path_problem(path).is_some() {
            return false;
        }
        match self {
            PackFiles::Folder(root) => inside(root, path).is_ok_and(|p| p.is_file()),
            PackFiles::Embedded { files, .. } => embedded(files, path).is_some(),
            PackFiles::Memory { files, .. } => files.contains_key(path),
        }
    }

    /// The files directly in folder `dir` whose names end in `.EXT`, sorted by name, as pack
    /// paths; none if the folder is not there. Only that folder is read (a level folder may sit
    /// among many others), bounded as the whole pack is, links refused.
    pub fn list(&self, dir: &str, ext: &str) -> Result<Vec<String>, LoadError> {
        let suffix = format!(".{ext}");
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let PackFiles::Folder(root) = self else {
            let all = self.all_files()?;
            return Ok(all
                .into_iter()
                .filter(|f| {
                    f.strip_prefix(&prefix)
                        .is_some_and(|rest| !rest.contains('/') && rest.ends_with(&suffix))
                })
                .collect());
        };
        let folder = if dir.is_empty() {
            root.clone()
        } else {
            if let Some(problem) = path_problem(dir) {
                return Err(LoadError::one(FileError::whole(&self.shown(dir), problem)));
            }
            inside(root, dir)?
        };
        let Ok(entries) = std::fs::read_dir(&folder) else {
            return Ok(Vec::new());
        };
        let mut names = Vec::new();
        for (count, entry) in entries.enumerate() {
            let entry = entry.map_err(|source| LoadError::Io {
                path: folder.clone(),
                source,
            })?;
            if count >= MAX_PACK_FILES {
                return Err(LoadError::one(FileError::whole(
                    &folder,
                    format!("the folder holds more than {MAX_PACK_FILES} entries"),
                )));
            }
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_symlink()) {
                return Err(LoadError::one(FileError::whole(
                    &path,
                    "is a symbolic link; a pack's files must be inside it, not links",
                )));
            }
            let name = entry.file_name();
            let wanted = name
                .to_str()
                .filter(|n| n.ends_with(&suffix) && path_problem(n).is_none() && path.is_file());
            if let Some(name) = wanted {
                names.push(format!("{prefix}{name}"));
            }
        }
        names.sort();
        Ok(names)
    }

    /// Every file of the pack, sorted, as pack paths; refused past `MAX_PACK_FILES` files,
    /// `MAX_PACK_BYTES` bytes or `MAX_PACK_DEPTH` folders, or when the pack holds a link.
    pub fn all_files(&self) -> Result<Vec<String>, LoadError> {
        match self {
            PackFiles::Embedded { files, .. } => Ok(files.iter().map(|f| f.path.into()).collect()),
            PackFiles::Memory { files, .. } => Ok(files.keys().cloned().collect()),
            PackFiles::Folder(root) => {
                let mut walk = Walk::default();
                walk.folder(root, "", 0)?;
                walk.files.sort();
                Ok(walk.files)
            }
        }
    }
}

/// The bytes of a file held in the binary or in memory (none: not there), at most `max_bytes`.
fn held(shown: &Path, bytes: Option<&[u8]>, max_bytes: u64) -> Result<Vec<u8>, LoadError> {
    let bytes = bytes.ok_or_else(|| LoadError::Io {
        path: shown.to_path_buf(),
        source: std::io::Error::from(std::io::ErrorKind::NotFound),
    })?;
    if bytes.len() as u64 > max_bytes {
        return Err(LoadError::one(FileError::whole(
            shown,
            format!("the file is larger than {max_bytes} bytes"),
        )));
    }
    Ok(bytes.to_vec())
}

fn embedded<'a>(files: &'a [EmbeddedFile], path: &str) -> Option<&'a EmbeddedFile> {
    files
        .binary_search_by(|f| f.path.cmp(path))
        .ok()
        .map(|i| &files[i])
}

/// `root/path`, checked component by component so that no link leads out of the pack.
fn inside(root: &Path, path: &str) -> Result<PathBuf, LoadError> {
    let mut real = root.to_path_buf();
    for part in path.split('/') {
        real.push(part);
        match std::fs::symlink_metadata(&real) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(LoadError::one(FileError::whole(
                    &real,
                    "is a symbolic link; a pack's files must be inside it, not links: copy the file in",
                )));
            }
            Ok(_) => {}
            // A missing file is reported by the read that follows, as any missing file is.
            Err(_) => break,
        }
    }
    Ok(real)
}

/// A bounded walk of a pack folder.
#[derive(Default)]
struct Walk {
    files: Vec<String>,
    bytes: u64,
}

impl Walk {
    fn folder(&mut self, dir: &Path, prefix: &str, depth: usize) -> Result<(), LoadError> {
        let io = |source| LoadError::Io {
            path: dir.to_path_buf(),
            source,
        };
        if depth >= MAX_PACK_DEPTH {
            return Err(LoadError::one(FileError::whole(
                dir,
                format!("the pack is more than {MAX_PACK_DEPTH} folders deep"),
            )));
        }
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            let path = entry.path();
            let Some(name) = name.to_str().filter(|n| path_problem(n).is_none()) else {
                return Err(LoadError::one(FileError::whole(
                    &path,
                    "the name is not one a pack may hold (plain UTF-8, no backslash, colon or control character)",
                )));
            };
            let rel = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}/{name}")
            };
            let kind = entry.file_type().map_err(io)?;
            if kind.is_symlink() {
                return Err(LoadError::one(FileError::whole(
                    &path,
                    "is a symbolic link; a pack's files must be inside it, not links",
                )));
            } else if kind.is_dir() {
                self.folder(&path, &rel, depth + 1)?;
            } else if kind.is_file() {
                self.file(&path, rel)?;
            }
        }
        Ok(())
    }

    fn file(&mut self, path: &Path, rel: String) -> Result<(), LoadError> {
        let size = std::fs::symlink_metadata(path)
            .map_err(|source| LoadError::Io {
                path: path.to_path_buf(),
                source,
            })?
            .len();
        if rel.chars().count() > MAX_PATH_CHARS {
            return Err(LoadError::one(FileError::whole(
                path,
                format!("the path is longer than {MAX_PATH_CHARS} characters"),
            )));
        }
        self.bytes = self.bytes.saturating_add(size);
        self.files.push(rel);
        if self.files.len() > MAX_PACK_FILES || self.bytes > MAX_PACK_BYTES {
            return Err(LoadError::one(FileError::whole(
                path,
                format!(
                    "the pack holds more than {MAX_PACK_FILES} files or {} MiB",
                    MAX_PACK_BYTES / (1024 * 1024)
                ),
            )));
        }
        Ok(())
    }
}

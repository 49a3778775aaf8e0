//! Packs: the unit of content a person installs, shares or plays (the README's "Packs").
//!
//! A [`Pack`] is a manifest ([`Manifest`], `pack.ron`) and its files ([`PackFiles`]: a folder,
//! or built into the binary). A [`Catalog`] holds the packs found and resolves which of them a
//! game loads; [`level`] assembles a playable level (map, rules, scripts, connotation lists,
//! tileset) from a pack's mode, or from a map file outside any pack. Every command and the
//! editor start games through `level`, and nothing else reads a level's files.
//!
//! **Invariant:** this module knows no Lua and no game engine: it reads files and hands over
//! text and data; what runs them is the caller's.

#![deny(missing_docs)]

// The other crates' modules, named as the rest of the runtime names them.
use scryptic_core::{diag, fsutil, lexicon, limits, map, ronfile, rules, save};

pub mod archive;
pub mod files;
#[cfg(feature = "authoring")]
pub mod ignore;
#[cfg(feature = "authoring")]
pub mod index;
pub mod level;
pub mod manifest;
#[cfg(feature = "authoring")]
pub mod new;
#[cfg(feature = "authoring")]
pub mod places;
pub mod record;
pub mod resolve;
pub mod settings;
pub mod strings;
#[cfg(test)]
mod tests;
#[cfg(feature = "authoring")]
pub mod trust;

pub use files::{EmbeddedFile, PackFiles};
pub use level::{Choice, Level, LevelError, TilesetRef};
pub use manifest::{ExtensionSpec, Manifest, ModeSpec, SettingKind, SettingSpec, SettingValue};
pub use resolve::{Catalog, ResolveError};

use crate::diag::{FileError, LoadError};
use std::path::{Path, PathBuf};

/// The manifest's file name, at a pack's root.
pub const MANIFEST_FILE: &str = "pack.ron";

/// A pack: its manifest and where its files are.
#[derive(Clone, Debug)]
pub struct Pack {
    /// The manifest, checked.
    pub manifest: Manifest,
    /// Its files.
    pub files: PackFiles,
}

impl Pack {
    /// Opens the pack folder `dir`: reads and checks its manifest, whose id must be the
    /// folder's name.
    pub fn open(dir: &Path) -> Result<Pack, LoadError> {
        let files = PackFiles::Folder(dir.to_path_buf());
        let manifest_path = dir.join(MANIFEST_FILE);
        if !dir.is_dir() {
            return Err(LoadError::one(FileError::whole(
                dir,
                "is not a folder; a pack is a folder holding pack.ron (or a .zip of one)",
            )));
        }
        if !manifest_path.is_file() {
            return Err(LoadError::one(FileError::whole(
                &manifest_path,
                "is missing: a pack's root holds its manifest, pack.ron (`scryptic pack new ID` makes one)",
            )));
        }
        let text = files.read_text(MANIFEST_FILE)?;
        let manifest = Manifest::parse(&manifest_path, &text)?;
        let folder_name = folder_name(dir);
        if folder_name.as_deref() != Some(manifest.id.as_str()) {
            let at =
                crate::rules::key_offset(&text, "id").map(|o| crate::diag::line_col_of(&text, o));
            return Err(LoadError::one(FileError::at(
                &manifest_path,
                at,
                format!(
                    "the pack's id is `{}` but its folder is called `{}`: rename one to match",
                    manifest.id,
                    folder_name.unwrap_or_default()
                ),
            )));
        }
        Ok(Pack { manifest, files })
    }

    /// A pack built into the binary, from its files (`pack.ron` among them).
    pub fn embedded(id: &'static str, files: &'static [EmbeddedFile]) -> Result<Pack, LoadError> {
        let files = PackFiles::Embedded { id, files };
        let text = files.read_text(MANIFEST_FILE)?;
        let manifest = Manifest::parse(&files.shown(MANIFEST_FILE), &text)?;
        Ok(Pack { manifest, files })
    }

    /// The pack's id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }

    /// `id version`, as messages and lists name a pack.
    pub fn label(&self) -> String {
        format!("{} {}", self.manifest.id, self.manifest.version)
    }

    /// The packs in the folder `dir`: each sub-folder holding a `pack.ron`; the problems of
    /// those that do not open are returned beside them.
    pub fn scan(dir: &Path) -> (Vec<Pack>, Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return (Vec::new(), Vec::new());
        };
        let mut folders: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join(MANIFEST_FILE).is_file())
            .take(files::MAX_PACK_FILES)
            .collect();
        folders.sort();
        let mut packs = Vec::new();
        let mut problems = Vec::new();
        for folder in folders {
            match Pack::open(&folder) {
                Ok(pack) => packs.push(pack),
                Err(e) => problems.extend(e.problems()),
            }
        }
        (packs, problems)
    }
}

/// The last component of `dir` (after making it absolute, so that `.` has a name).
fn folder_name(dir: &Path) -> Option<String> {
    let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    absolute
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
}

include!(concat!(env!("OUT_DIR"), "/core_pack.rs"));

/// The ids of the packs built into the binary: no pack on disk may take one.
pub const BUILT_IN_IDS: [&str; 1] = ["core"];

/// Whether `id` is the id of a pack built into the binary.
pub fn is_built_in(id: &str) -> bool {
    BUILT_IN_IDS.contains(&id)
}

/// The `core` pack: the toolkit's own content, built into the binary. Its manifest is
/// checked by this build's tests (`core_pack_loads`); an error here means a build made from a
/// broken checkout.
pub fn core() -> Result<Pack, LoadError> {
    Pack::embedded(BUILT_IN_IDS[0], CORE_FILES)
}

//! Where packs are found: built in (`core`), installed in the data folder, and the folders of
//! `$SCRYPTIC_PACK_PATH` and `./packs`.

use super::{Catalog, Pack};
use std::path::PathBuf;

/// The folder scryptic keeps what it remembers in (installed packs, campaign progress, the
/// play prompt's history): `$SCRYPTIC_DATA`, else the platform's data folder
/// (`$XDG_DATA_HOME/scryptic` or `~/.local/share/scryptic` on Linux).
pub fn data_dir() -> Option<PathBuf> {
    let from_env = std::env::var_os("SCRYPTIC_DATA").filter(|v| !v.is_empty());
    from_env.map(PathBuf::from).or_else(|| {
        directories::ProjectDirs::from("", "", "scryptic").map(|d| d.data_dir().to_path_buf())
    })
}

/// Where `scryptic pack install` puts packs: `packs/` in the data folder.
pub fn installed_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("packs"))
}

/// The folders searched for packs besides the installed ones: each of `$SCRYPTIC_PACK_PATH`
/// (separated as `PATH` is), then `packs/` in the current folder when there is one (a checkout
/// of the toolkit, with its shipped packs).
pub fn search_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::env::var_os("SCRYPTIC_PACK_PATH")
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default();
    let local = PathBuf::from("packs");
    if local.is_dir() {
        dirs.push(local);
    }
    dirs
}

impl Catalog {
    /// Every pack found: `core`, the installed packs, then those of the search folders (a
    /// later copy of the same id and version replaces an earlier one); the problems of packs
    /// that do not open are returned beside it.
    pub fn discover() -> (Catalog, Vec<String>) {
        let mut catalog = Catalog::default();
        let mut problems = Vec::new();
        match super::core() {
            Ok(core) => problems.extend(catalog.add(core).err().map(|e| e.to_string())),
            Err(e) => problems.extend(e.problems()),
        }
        let folders = installed_dir().into_iter().chain(search_dirs());
        for folder in folders {
            let (packs, found) = Pack::scan(&folder);
            problems.extend(found);
            for pack in packs {
                problems.extend(catalog.add(pack).err().map(|e| e.to_string()));
            }
        }
        (catalog, problems)
    }
}

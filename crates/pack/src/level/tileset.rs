//! Where a level's tileset is: named by a map as a file beside it, a file of its pack, or
//! another pack's (`ID:path`), and named again for wherever a map or a save is written.

use super::pack_path;
use crate::manifest::split_reference;
use crate::{Catalog, PackFiles};
use std::path::{Path, PathBuf};

/// Where a tileset's manifest is: a file of a pack (or of a level's folder).
#[derive(Clone, Debug)]
pub struct TilesetRef {
    /// The files it is among.
    pub files: PackFiles,
    /// Its manifest's path among them (`tilesets/stone/tileset.ron`).
    pub path: String,
}

impl TilesetRef {
    /// The tileset manifest `path` on disk, read from its own folder.
    pub fn file(path: &Path) -> TilesetRef {
        let dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        TilesetRef {
            files: PackFiles::Folder(dir),
            path: name,
        }
    }

    /// The manifest's path as messages show it.
    pub fn shown(&self) -> PathBuf {
        self.files.shown(&self.path)
    }
}

/// The tileset a map names, seen from where the map is saved (`path`, if it is): inside a pack
/// folder or as `ID:path`, a pack's file (`catalog` holds the other packs); else a file
/// relative to the map's folder.
pub fn map_tileset(path: Option<&Path>, reference: &str, catalog: &Catalog) -> Option<TilesetRef> {
    if reference.is_empty() {
        return None;
    }
    if let (Some(id), file) = split_reference(reference) {
        let pack = catalog.get(id)?;
        return Some(TilesetRef {
            files: pack.files.clone(),
            path: file.to_string(),
        });
    }
    let dir = path.and_then(Path::parent).unwrap_or(Path::new("."));
    if let Some(path) = path
        && let Some(root) = enclosing_pack(path)
    {
        let inside = crate::files::relative_to(&pack_path(&root, path), reference).ok()?;
        return Some(TilesetRef {
            files: PackFiles::Folder(root),
            path: inside,
        });
    }
    Some(TilesetRef::file(&dir.join(reference)))
}

/// How a map written to `file` (a saved game's copy of it) names `tileset`, the tileset its
/// game was shown with: `id:path` inside a pack of `catalog` (or built in), else the path
/// from `file`'s folder. The map's own reference was written from the map's folder, and a
/// save kept elsewhere lost its art. `None` when no such path can be written.
pub fn tileset_reference_from(
    file: &Path,
    tileset: &TilesetRef,
    catalog: &Catalog,
) -> Option<String> {
    let root = match &tileset.files {
        PackFiles::Embedded { id, .. } => return Some(format!("{id}:{}", tileset.path)),
        PackFiles::Memory { id, .. } => return Some(format!("{id}:{}", tileset.path)),
        PackFiles::Folder(root) => std::fs::canonicalize(root).ok()?,
    };
    let in_pack = catalog.packs().into_iter().find(|pack| {
        pack.files
            .folder()
            .and_then(|f| std::fs::canonicalize(f).ok())
            .is_some_and(|f| f == root)
    });
    if let Some(pack) = in_pack {
        return Some(format!("{}:{}", pack.manifest.id, tileset.path));
    }
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = std::fs::canonicalize(dir.unwrap_or(Path::new("."))).ok()?;
    let relative =
        pathdiff::diff_paths(root.join(&tileset.path), dir).filter(|p| p.is_relative())?;
    // A map names its files with forward slashes on every system.
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The folder of the pack a file is in: the nearest parent holding `pack.ron`.
pub fn enclosing_pack(path: &Path) -> Option<PathBuf> {
    // A map not saved yet has no file: its folder is where it will be.
    let absolute = std::fs::canonicalize(path)
        .or_else(|_| {
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            std::fs::canonicalize(parent).map(|p| p.join(path.file_name().unwrap_or_default()))
        })
        .ok()?;
    absolute
        .ancestors()
        .skip(1)
        .take(crate::files::MAX_PACK_DEPTH)
        .find(|dir| dir.join(crate::MANIFEST_FILE).is_file())
        .map(Path::to_path_buf)
}

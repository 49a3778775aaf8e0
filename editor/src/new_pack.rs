//! "New pack" in the Packs screen: a pack made from the map open in the editor, its scripts
//! copied in and its tileset named as the pack that holds it.

use crate::document::Document;
use scryptic::pack::PackFiles;
use scryptic::pack::new::{Made, Seed};
use std::path::Path;

/// Makes pack `id` in `dir` from the open map.
pub fn make(id: &str, dir: &Path, doc: &Document) -> Result<Made, String> {
    let map_dir = doc
        .path
        .as_deref()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let mut scripts = Vec::new();
    for name in &doc.map.scripts {
        let text = scryptic::fsutil::read_text_at_most(
            &map_dir.join(name),
            scryptic::limits::MAX_SCRIPT_BYTES as u64,
        )
        .map_err(|e| e.to_string())?;
        scripts.push((name.clone(), text));
    }
    let seed = Seed {
        map: doc.map.clone(),
        scripts,
        tileset: tileset_reference(doc),
        scenario: scryptic::pack::new::FIRST_TURN_SCENARIO.into(),
    };
    let definitions = scryptic::script::api::luals_definitions();
    scryptic::pack::new::make(id, dir, seed, &definitions).map_err(|e| e.to_string())
}

/// How the new pack names the open map's tileset: as the pack that holds it (`core:...`); a
/// tileset file outside any pack is named as core's when it is the same file, else dropped
/// (the board is then drawn in flat colours until one is named).
fn tileset_reference(doc: &Document) -> String {
    let Some(tileset) = doc.tileset() else {
        return String::new();
    };
    let catalog = crate::catalog();
    match &tileset.files {
        PackFiles::Embedded { id, .. } => format!("{id}:{}", tileset.path),
        PackFiles::Memory { id, .. } => format!("{id}:{}", tileset.path),
        PackFiles::Folder(root) => {
            let in_pack = catalog
                .packs()
                .into_iter()
                .find(|p| p.files.folder() == Some(root.as_path()));
            if let Some(pack) = in_pack {
                return format!("{}:{}", pack.id(), tileset.path);
            }
            let Ok(bytes) = std::fs::read(root.join(&tileset.path)) else {
                return String::new();
            };
            let same_in_core = catalog.get("core").and_then(|core| {
                let files = core.files.all_files().ok()?;
                files.into_iter().find(|f| {
                    f.ends_with("/tileset.ron")
                        && core.files.read_bytes(f, 1 << 20).is_ok_and(|b| b == bytes)
                })
            });
            same_in_core.map_or_else(String::new, |f| format!("core:{f}"))
        }
    }
}

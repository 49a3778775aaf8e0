//! The Scryptic level editor: paint maps, place cities and tokens, edit the connotation lists
//! and the rules, and look after a map's scripts. State lives in plain structs (cells, never
//! screen coordinates) that tests drive headless; egui code draws them and turns input into
//! edits of the [`document::Document`].

#![deny(missing_docs)]

pub mod app;
pub mod balance;
pub mod balance_tune;
pub mod canvas;
pub mod clipboard;
pub mod dialogs;
pub mod document;
pub mod file_prompt;
pub mod history;
pub mod inspector;
pub mod keys;
pub mod lexicon_mode;
pub mod map_mode;
pub mod minimap;
pub mod new_pack;
pub mod packs_browse;
pub mod packs_mode;
pub mod paint;
pub mod play;
pub mod png;
pub mod properties;
pub mod rules_mode;
mod rules_table;
pub mod scripts_panel;
pub mod tools;
pub mod validation;

pub use app::EditorApp;
// The board's drawing and the look are the play view's, shared with the browser.
pub use scryptic_play::{pieces, textures, theme, view};

/// The packs found (built in, installed, in the search folders) and those opened in the Packs
/// screen: what a map's `core:` references, the Packs screen and the setup screen resolve
/// against. Read it briefly; `refresh_catalog` and `add_opened_pack` change it.
pub fn catalog() -> std::sync::RwLockReadGuard<'static, scryptic::pack::Catalog> {
    let lock = &packs().catalog;
    lock.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The packs the editor knows: those found, and those opened by hand (kept when the others
/// are looked for again).
struct Packs {
    catalog: std::sync::RwLock<scryptic::pack::Catalog>,
    opened: std::sync::Mutex<Vec<scryptic::pack::Pack>>,
}

fn packs() -> &'static Packs {
    static PACKS: std::sync::OnceLock<Packs> = std::sync::OnceLock::new();
    PACKS.get_or_init(|| Packs {
        catalog: std::sync::RwLock::new(scryptic::pack::Catalog::discover().0),
        opened: std::sync::Mutex::default(),
    })
}

/// Adds a pack opened by hand (a folder, or an unpacked archive) to the catalog.
/// A pack with an id built into scryptic (`core`) is refused.
pub fn add_opened_pack(pack: scryptic::pack::Pack) -> Result<(), scryptic::pack::ResolveError> {
    let packs = packs();
    packs
        .catalog
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .add(pack.clone())?;
    packs
        .opened
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(pack);
    Ok(())
}

/// Looks for packs again (installed or removed since); packs opened by hand stay. Returns the
/// problems of packs that did not open.
pub fn refresh_catalog() -> Vec<String> {
    let (mut found, problems) = scryptic::pack::Catalog::discover();
    let packs = packs();
    let opened = packs
        .opened
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for pack in opened.iter() {
        // Each was added once already, so none has a built-in id.
        let _ = found.add(pack.clone());
    }
    *packs
        .catalog
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = found;
    problems
}

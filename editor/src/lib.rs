//! The Scryptic level editor: paint maps, place cities and tokens, edit the connotation lists
//! and the rules, and look after a map's scripts. State lives in plain structs (cells, never
//! screen coordinates) that tests drive headless; egui code draws them and turns input into
//! edits of the [`document::Document`].

#![deny(missing_docs)]

pub mod app;
pub mod balance;
pub mod canvas;
pub mod clipboard;
pub mod document;
pub mod history;
pub mod inspector;
pub mod lexicon_mode;
pub mod map_mode;
pub mod minimap;
pub mod paint;
pub mod play;
pub mod png;
pub mod rules_mode;
pub mod scripts_panel;
pub mod textures;
pub mod tools;
pub mod validation;
pub mod view;

pub use app::EditorApp;

/// The packs found when the editor started (built in, installed, and in the search folders):
/// what a map's `core:` references and the Packs screen resolve against.
pub fn catalog() -> &'static scryptic::pack::Catalog {
    static CATALOG: std::sync::OnceLock<scryptic::pack::Catalog> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| scryptic::pack::Catalog::discover().0)
}

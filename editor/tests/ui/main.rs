//! The editor driven through its UI as a user would, headless with egui_kittest, a file for
//! each mode or topic: the Map mode, Rules and Lexicon, files, Scripts, and the window.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

#[path = "../common/mod.rs"]
mod common;
mod files;
mod map_mode;
mod rules_and_lexicon;
mod scripts_mode;
mod window;

use common::{at, click, click_label, drag, harness, key, root, type_into};
use egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use scryptic::{Map, Pos, Terrain};
use scryptic_editor::EditorApp;
use scryptic_editor::app::{Dialog, Mode};
use std::path::Path;
use std::time::Duration;

fn blank(width: u32, height: u32) -> EditorApp {
    let mut app = EditorApp::default();
    app.new_map("test", width, height);
    app
}

fn terrain(h: &Harness<'_, EditorApp>, cell: Pos) -> Terrain {
    *h.state().doc.map.terrain.get(cell).unwrap()
}

fn count(h: &Harness<'_, EditorApp>, t: Terrain) -> usize {
    h.state()
        .doc
        .map
        .terrain
        .cells()
        .iter()
        .filter(|&&c| c == t)
        .count()
}

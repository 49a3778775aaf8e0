//! The Packs screen's Browse, headless: an index added by its folder, its packs searched, one
//! installed with its progress on a thread of its own, then shown as installed.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{harness, root};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::packs_mode::PacksTab;
use std::time::{Duration, Instant};

type H = egui_kittest::Harness<'static, EditorApp>;

/// Frames of `h` until `done` holds (the indexes and installs answer on threads).
fn wait_for(h: &mut H, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "waited a minute for {what}: {:?}",
            h.state().packs.browse.message
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

/// Types `text` into the field labelled `label`, a frame stepped at a time (the indexes'
/// spinner keeps the window repainting, so frames are not run to rest).
fn type_into(h: &mut H, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
    h.step();
}

#[test]
fn a_pack_of_an_index_is_found_and_installed_from_browse() {
    // An index of one release: Word Wars, zipped and indexed as an author would.
    let repo = tempfile::tempdir().unwrap();
    let pack = scryptic::pack::Pack::open(&root().join("packs/word-wars")).unwrap();
    let zip = repo
        .path()
        .join(format!("word-wars-{}.zip", pack.manifest.version));
    scryptic::pack::archive::zip_folder(&pack, &zip).unwrap();
    let (index, _) = scryptic::pack::index::build(repo.path()).unwrap();
    std::fs::write(repo.path().join("index.json"), index.to_json()).unwrap();
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Packs;
    h.state_mut().packs.tab = PacksTab::Browse;
    h.step();
    wait_for(&mut h, "the first read of the indexes", |app| {
        !app.packs.browse.reading()
    });
    type_into(&mut h, "Add", &repo.path().display().to_string());
    h.get_by_label("Add index").click();
    h.step();
    wait_for(&mut h, "the index read", |app| {
        !app.packs.browse.reading() && !app.packs.browse.indexes.is_empty()
    });
    type_into(&mut h, "Search", "scrabble");
    h.step();
    h.get_by_label_contains("Word Wars (word-wars)").click();
    h.step();
    h.step();
    assert!(scryptic_editor::catalog().get("word-wars").is_none());
    h.get_by_label("Install").click();
    h.step();
    assert!(
        h.state().packs.browse.busy(),
        "the install runs on its thread"
    );
    wait_for(&mut h, "the install", |app| !app.packs.browse.busy());
    let message = h.state().packs.browse.message.clone().unwrap_or_default();
    assert!(message.contains("installed word-wars"), "{message}");
    assert!(message.contains("is not signed"), "{message}");
    let installed = scryptic_editor::catalog()
        .get("word-wars")
        .map(|p| p.manifest.version.clone());
    assert_eq!(installed, Some(pack.manifest.version.clone()));
    h.get_by_label_contains("is installed");
}

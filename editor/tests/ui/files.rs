//! Files: unsaved changes kept, broken maps, autosaves, Save as, Open and the file prompts.

use super::*;

#[test]
fn unsaved_changes_are_not_lost_without_asking() {
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.ron");
    Map::new("other", 8, 8).save(&other).unwrap();
    let mut h = harness(blank(8, 8));
    key(&mut h, Key::B);
    click(&mut h, Pos::new(1, 1));
    assert!(h.state().doc.is_dirty());
    h.state_mut()
        .request(scryptic_editor::app::Pending::Open(other.clone()));
    h.run();
    assert!(matches!(h.state().dialog, Some(Dialog::Unsaved(_))));
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(h.state().doc.map.name, "test", "cancel keeps the map");
    h.state_mut()
        .request(scryptic_editor::app::Pending::Open(other));
    h.run();
    h.get_by_label("Discard changes").click();
    h.run();
    assert_eq!(h.state().doc.map.name, "other");
}

#[test]
fn a_broken_map_opens_as_an_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    std::fs::write(&path, "(version: 1, name: \"x\",\n  size: oops)\n").unwrap();
    let h = harness(EditorApp::new(Some(&path)));
    match &h.state().dialog {
        Some(Dialog::Error(message)) => {
            assert!(message.contains("broken.ron:"), "{message}");
            assert!(
                message.chars().filter(|&c| c == ':').count() >= 3,
                "file:line:column in {message}"
            );
        }
        other => panic!("expected an error dialog, got {other:?}"),
    }
    assert!(
        h.query_by_label("Error").is_some(),
        "the dialog is on screen"
    );
}

/// An autosave found when a map opens is compared with it, and kept beside it when the user
/// keeps both: nothing is deleted until the user says so.
#[test]
fn a_found_autosave_is_compared_and_kept_beside_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.ron");
    let mut doc = scryptic_editor::document::Document::new(Map::new("kept", 8, 8));
    doc.save_as(&path).unwrap();
    doc.paint_step("fill", &[Pos::new(0, 0), Pos::new(1, 0)], Terrain::Lava);
    doc.autosave().unwrap();
    let autosave = dir.path().join("kept.ron.autosave");
    assert!(autosave.is_file());
    // The next session finds it.
    let mut h = harness(EditorApp::new(Some(&path)));
    assert!(matches!(h.state().dialog, Some(Dialog::Recover(_))));
    h.get_by_label_contains("2 terrain cells differ");
    h.get_by_label("Keep both").click();
    h.run();
    assert_eq!(h.state().dialog, None);
    let kept = dir.path().join("kept.recovered.ron");
    let recovered = Map::load(&kept).expect("the autosave is kept as a map of its own");
    assert_eq!(recovered.terrain.get(Pos::new(1, 0)), Some(&Terrain::Lava));
    assert!(!autosave.exists(), "moved, not lost");
    assert_eq!(
        h.state().doc.map.terrain.get(Pos::new(1, 0)),
        Some(&Terrain::Plains),
        "the map stays as its file has it"
    );
}

/// An untitled map's autosave, left by a session that crashed, is offered when the editor
/// starts again on no file (it was found only beside a map opened).
#[test]
fn an_untitled_maps_autosave_is_offered_at_restart() {
    // The data folder is the tests' own (common::harness sets it before anything reads it).
    let _ = harness(blank(4, 4));
    let mut crashed = scryptic_editor::document::Document::new(Map::new("lost work", 9, 9));
    crashed.paint_step("lava", &[Pos::new(1, 1)], Terrain::Lava);
    crashed.autosave().unwrap();
    let autosave = crashed.autosave_path().unwrap();
    assert!(autosave.is_file());
    let app = EditorApp::new(None);
    let offered = matches!(&app.dialog, Some(Dialog::Recover(path)) if *path == autosave);
    std::fs::remove_file(&autosave).unwrap();
    assert!(offered, "{:?}", app.dialog);
}

/// Save As over a file that exists asks before replacing it (no Shift-click overwrite): Back
/// keeps the file as it was, Replace writes the map over it.
#[test]
fn save_as_over_an_existing_file_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("taken.ron");
    std::fs::write(&path, "kept").unwrap();
    let mut h = harness(blank(8, 8));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    type_into(&mut h, "path", &path.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert!(h.query_by_label("Replace").is_some(), "the prompt asks");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept");
    h.get_by_label("Save").click();
    h.run();
    h.get_by_label("Replace").click();
    h.run();
    assert_eq!(h.state().dialog, None);
    assert_eq!(Map::load(&path).unwrap(), h.state().doc.map);
}

/// File > Open lists the recent maps to pick with one click, and Browse walks the folders to
/// a map without typing its path.
#[test]
fn open_offers_recent_maps_and_browses_folders() {
    let dir = tempfile::tempdir().unwrap();
    let recent = dir.path().join("recent.ron");
    let browsed = dir.path().join("browsed.ron");
    Map::new("recent one", 8, 8).save(&recent).unwrap();
    Map::new("browsed one", 9, 9).save(&browsed).unwrap();
    let mut app = EditorApp::default();
    let gone = dir.path().join("gone.ron");
    app.recent = vec![recent.clone(), gone.clone()];
    let mut h = common::harness_checked(app, false);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    assert!(
        h.query_by_label(&gone.display().to_string()).is_none(),
        "a recent file since deleted is not offered"
    );
    h.get_by_label(&recent.display().to_string()).click();
    h.run();
    assert_eq!(h.state().doc.map.name, "recent one");

    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    type_into(&mut h, "path", &format!("{}/", dir.path().display()));
    h.get_by_label("Browse...").click();
    h.run();
    h.get_by_label_contains("browsed.ron").click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.map.name, "browsed one");

    // A name typed into the browser's own field, then Open (it did nothing).
    Map::new("typed one", 10, 10)
        .save(&dir.path().join("typed.ron"))
        .unwrap();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    type_into(&mut h, "path", &format!("{}/", dir.path().display()));
    h.get_by_label("Browse...").click();
    h.run();
    let name_field = h
        .root()
        .children_recursive()
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .last()
        .expect("the browser's name field");
    name_field.focus();
    h.run();
    h.root()
        .children_recursive()
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::TextInput)
        .last()
        .unwrap()
        .type_text("typed.ron");
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.map.name, "typed one");
}

/// Enter in a file prompt's path field accepts it, as the button does.
#[test]
fn enter_accepts_a_file_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("typed.ron");
    Map::new("typed", 8, 8).save(&path).unwrap();
    let mut h = harness(EditorApp::default());
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    type_into(&mut h, "path", &path.display().to_string());
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().doc.map.name, "typed");
}

/// A change waits for its autosave with the window asleep: the window asks to be woken when
/// the autosave is due, not for the pointer to move (it once waited for a frame).
#[test]
fn an_autosave_is_woken_for_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("painted.ron");
    let mut doc = scryptic_editor::document::Document::new(Map::new("painted", 8, 8));
    doc.save_as(&path).unwrap();
    let mut h = harness(EditorApp::new(Some(&path)));
    h.run();
    let asleep = |h: &Harness<'static, EditorApp>| {
        h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay
    };
    assert_eq!(
        asleep(&h),
        Duration::MAX,
        "nothing to do: the window sleeps"
    );
    h.state_mut()
        .doc
        .paint_step("brush", &[Pos::new(0, 0)], Terrain::Lava);
    h.run();
    let woken_in = asleep(&h);
    assert!(
        woken_in > Duration::ZERO
            && woken_in.as_secs_f64() <= scryptic_editor::app::AUTOSAVE_SECONDS,
        "the autosave's wake-up: {woken_in:?}"
    );
}

/// Import terrain starts in the map's folder (it started in the working folder), under a
/// short title; the pack folder's Browse... opens the folder browser itself (a prompt with a
/// Browse... of its own came first), listing folders only.
#[test]
fn file_prompts_start_where_the_user_is_and_browse_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("here.ron");
    Map::new("here", 8, 8).save(&path).unwrap();
    std::fs::create_dir_all(dir.path().join("a-pack")).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a folder\n").unwrap();
    let mut h = common::harness_checked(EditorApp::new(Some(&path)), false);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Import terrain from PNG...").click();
    h.run();
    match &h.state().dialog {
        Some(Dialog::ImportPng(prompt)) => {
            assert_eq!(prompt.title, "Import terrain");
            assert!(
                prompt.path.starts_with(&dir.path().display().to_string()),
                "{}",
                prompt.path
            );
        }
        other => panic!("{other:?}"),
    }
    h.key_press(Key::Escape);
    h.run();
    h.state_mut().mode = Mode::Packs;
    h.state_mut().packs.open_path = format!("{}/", dir.path().display());
    h.run();
    h.get_by_label("Browse...").click();
    h.run();
    let prompt = h.state().packs.prompt.as_ref().expect("a prompt");
    assert!(prompt.is_browsing(), "the browser is open at once");
    assert!(
        h.query_by_label_contains("a-pack").is_some(),
        "folders are listed"
    );
    assert!(
        h.query_by_label_contains("notes.txt").is_none(),
        "files are not"
    );
}

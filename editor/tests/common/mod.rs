//! Helpers shared by the editor's UI tests: a headless window on an editor, pointer presses and
//! typing into labelled fields.

#![allow(dead_code)]

use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use scryptic::Pos;
use scryptic_editor::EditorApp;
use scryptic_editor::canvas::CANVAS_LABEL;

/// A 1280x800 headless window on `app`, with the editor's data (autosaves, recent files,
/// statistics) in a folder of the tests' own.
pub fn harness(app: EditorApp) -> Harness<'static, EditorApp> {
    harness_checked(app, true)
}

/// [`harness`], with egui_kittest's check that every widget has an accessible name on or off.
/// Off only for the folder browser: its fields are egui_file's, unnamed, and not ours to name.
pub fn harness_checked(app: EditorApp, accessibility: bool) -> Harness<'static, EditorApp> {
    // Set once before any test thread reads the environment.
    static DATA: std::sync::Once = std::sync::Once::new();
    DATA.call_once(|| {
        let data = tempfile::tempdir().unwrap().keep();
        // SAFETY: set once, before the editor reads it; nothing else in the tests touches
        // the environment. The scryptic data folder too (online seats' tokens, packs fetched
        // from servers): nothing a test does lands in the person's own.
        unsafe {
            std::env::set_var("SCRYPTIC_EDITOR_DATA", data.join("editor"));
            std::env::set_var("SCRYPTIC_DATA", data.join("scryptic"));
        }
    });
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .with_accessibility_check(accessibility)
        .build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    h.run();
    h
}

/// The primary button pressed (or released) at `p`.
pub fn press(h: &mut Harness<'_, EditorApp>, p: Pos2, pressed: bool, modifiers: Modifiers) {
    h.event(Event::PointerMoved(p));
    h.event(Event::PointerButton {
        pos: p,
        button: PointerButton::Primary,
        pressed,
        modifiers,
    });
    h.run();
}

/// Types `text` into the field labelled `label`, replacing what it held.
pub fn type_into(h: &mut Harness<'_, EditorApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label(label).type_text(text);
    h.run();
}

/// The screen point of `cell`'s centre on the canvas.
pub fn at(h: &Harness<'_, EditorApp>, cell: Pos) -> Pos2 {
    let rect = h.get_by_label(CANVAS_LABEL).rect();
    h.state().map_mode.view.cell_centre(rect, cell)
}

/// A press at the first cell, a drag through the others, a release at the last.
pub fn drag(h: &mut Harness<'_, EditorApp>, cells: &[Pos]) {
    let first = at(h, cells[0]);
    press(h, first, true, Modifiers::NONE);
    for &c in &cells[1..] {
        let p = at(h, c);
        h.event(Event::PointerMoved(p));
        h.run();
    }
    let last = at(h, *cells.last().unwrap());
    press(h, last, false, Modifiers::NONE);
}

pub fn click(h: &mut Harness<'_, EditorApp>, cell: Pos) {
    drag(h, &[cell]);
}

pub fn key(h: &mut Harness<'_, EditorApp>, key: Key) {
    h.key_press(key);
    h.run();
}

/// The repository's root (the editor's crate folder's parent).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default()
}

/// Clicks the widget labelled `label` and lets the window draw what follows.
pub fn click_label(h: &mut Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

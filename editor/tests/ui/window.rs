//! The window as a whole: at rest, the keyboard map, messages, the stone look, the status bar.

use super::*;

/// At rest the editor asks for no more frames: nothing it draws every frame (the window title
/// among them) schedules another, so the window idles at no CPU until input comes.
#[test]
fn the_editor_at_rest_asks_for_no_frame() {
    let mut h = harness(EditorApp::default());
    for mode in [
        Mode::Map,
        Mode::Lexicon,
        Mode::Rules,
        Mode::Scripts,
        Mode::Play,
        Mode::Balance,
        Mode::Packs,
    ] {
        h.state_mut().mode = mode;
        h.run();
        h.step();
        assert!(
            !h.ctx.has_requested_repaint(),
            "{mode:?}: a frame at rest asked for another: {:?}",
            h.ctx.repaint_causes()
        );
    }
}

/// In a short window the keyboard map's title and Close stay on the screen (they were cut
/// off): its table runs in two columns.
#[test]
fn the_keyboard_map_fits_a_short_window() {
    let mut h = harness(blank(8, 8));
    h.set_size(egui::vec2(1280.0, 620.0));
    h.key_press(Key::F1);
    h.run();
    let screen = h.ctx.content_rect();
    for label in ["Keyboard map", "Close"] {
        let rect = h.get_by_label(label).rect();
        assert!(
            screen.contains_rect(rect),
            "{label} at {rect:?} is off {screen:?}"
        );
    }
    h.get_by_label("Close").click();
    h.run();
    assert_eq!(h.state().dialog, None);
}

/// F1 shows the keyboard map: every tool's letter (Tiled's B, E, R, F, I among them) and every
/// other shortcut.
#[test]
fn f1_shows_every_shortcut() {
    let mut h = harness(blank(8, 8));
    h.key_press(Key::F1);
    h.run();
    assert_eq!(h.state().dialog, Some(Dialog::Keys));
    for tool in scryptic_editor::tools::Tool::ALL {
        h.get_by_label(&format!("{} tool", tool.label()));
    }
    for (_, keys, _) in scryptic_editor::keys::SHORTCUTS {
        assert!(
            h.query_all_by_label(keys).next().is_some(),
            "{keys} is not shown"
        );
    }
    h.get_by_label("Close").click();
    h.run();
    assert_eq!(h.state().dialog, None);
}

/// A message is about the screen or mode it was said on: going to another leaves it behind
/// (an old "saved the game" showed on Setup, an old pack's message in the status bar).
#[test]
fn messages_do_not_outlive_their_screen() {
    let mut h = harness(blank(8, 8));
    h.state_mut().mode = Mode::Play;
    h.state_mut().play.message = Some("saved the game to old.json".into());
    h.state_mut().status = "installed an old pack".into();
    h.run();
    // The screens' bar comes first (the screen shown has a heading of its name too).
    h.get_all_by_label("Setup").next().unwrap().click();
    h.run();
    assert_eq!(h.state().play.message, None);
    assert!(h.query_by_label("saved the game to old.json").is_none());
    h.get_by_label("Map").click();
    h.run();
    assert!(h.state().status.is_empty(), "{}", h.state().status);
}

/// The window wears the stone look, not stock egui grey: brass-rimmed buttons, a gold
/// selection, and headings in the display font.
#[test]
fn the_window_wears_the_stone_look() {
    use scryptic_editor::theme;
    let h = harness(EditorApp::default());
    let style = h.ctx.global_style();
    assert_eq!(style.visuals.selection.stroke.color, theme::GOLD);
    assert_eq!(style.visuals.window_stroke.color, theme::BRASS);
    let heading = &style.text_styles[&egui::TextStyle::Heading];
    assert_eq!(
        heading.family,
        egui::FontFamily::Name(theme::DISPLAY_FAMILY.into())
    );
    let screen = h.ctx.content_rect();
    let backdrop = h.output().shapes.iter().any(|c| match &c.shape {
        egui::Shape::Mesh(mesh) => {
            mesh.texture_id != egui::TextureId::default() && mesh.calc_bounds() == screen
        }
        _ => false,
    });
    assert!(
        backdrop,
        "the stone is drawn under the panels, over the whole window"
    );
}

/// The status bar shows the map's facts in the Map mode only; Play has its own panels.
#[test]
fn the_status_bar_speaks_of_the_map_only_in_map_mode() {
    let mut h = harness(blank(8, 8));
    assert!(h.query_by_label_contains("tool: ").is_some());
    h.state_mut().mode = Mode::Play;
    h.run();
    assert!(h.query_by_label_contains("tool: ").is_none());
    assert!(h.query_by_label_contains("zoom ").is_none());
}

//! The editor driven through its UI as a user would, headless with egui_kittest: paint, fill,
//! undo, place a city and a token, save and reopen, edit a list, change a rule, and open a
//! broken map.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

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

#[test]
fn paint_a_stroke_fill_and_undo_each_as_one_step() {
    let mut h = harness(blank(16, 12));
    key(&mut h, Key::B);
    h.get_by_label("water").click();
    h.run();
    drag(&mut h, &[Pos::new(2, 2), Pos::new(4, 2), Pos::new(6, 2)]);
    assert_eq!(
        count(&h, Terrain::Water),
        5,
        "a stroke paints every cell it passes"
    );
    assert_eq!(terrain(&h, Pos::new(3, 2)), Terrain::Water);

    key(&mut h, Key::F);
    h.get_by_label("lava").click();
    h.run();
    click(&mut h, Pos::new(0, 0));
    assert_eq!(
        count(&h, Terrain::Lava),
        16 * 12 - 5,
        "the fill takes the plains around the water"
    );

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        count(&h, Terrain::Lava),
        0,
        "one undo takes the whole fill back"
    );
    assert_eq!(count(&h, Terrain::Water), 5);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        count(&h, Terrain::Water),
        0,
        "one undo takes the whole stroke back"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(count(&h, Terrain::Water), 5, "redo");
}

#[test]
fn rectangle_symmetry_and_eyedropper() {
    let mut h = harness(blank(10, 10));
    key(&mut h, Key::I);
    h.state_mut()
        .doc
        .paint_step("seed", &[Pos::new(9, 9)], Terrain::Mountain);
    h.run();
    click(&mut h, Pos::new(9, 9));
    assert_eq!(
        h.state().map_mode.tools.terrain,
        Terrain::Mountain,
        "the eyedropper picks"
    );
    key(&mut h, Key::R);
    h.state_mut().map_mode.tools.symmetry = scryptic_editor::paint::Symmetry::Rotate180;
    drag(&mut h, &[Pos::new(0, 0), Pos::new(1, 1)]);
    assert_eq!(
        count(&h, Terrain::Mountain),
        8,
        "a 2x2 rectangle and its rotated copy (one cell was already mountain)"
    );
    assert_eq!(terrain(&h, Pos::new(8, 8)), Terrain::Mountain);
}

/// Under symmetry a player's city is mirrored as the other player's (a fair duel), a neutral
/// city and a token as they are.
#[test]
fn mirrored_cities_go_to_the_other_player() {
    let mut h = harness(blank(12, 12));
    h.state_mut().map_mode.tools.symmetry = scryptic_editor::paint::Symmetry::Rotate180;
    key(&mut h, Key::C);
    h.get_by_label("gold").click();
    h.run();
    click(&mut h, Pos::new(2, 3));
    h.state_mut().map_mode.tools.city_owner = scryptic::Owner::Neutral;
    h.run();
    click(&mut h, Pos::new(5, 1));
    key(&mut h, Key::T);
    click(&mut h, Pos::new(4, 4));
    let map = &h.state().doc.map;
    let owner_at = |x, y| map.city_at(Pos::new(x, y)).map(|c| c.owner);
    assert_eq!(owner_at(2, 3), Some(scryptic::Owner::Gold));
    assert_eq!(
        owner_at(9, 8),
        Some(scryptic::Owner::Silver),
        "the image is silver's"
    );
    assert_eq!(owner_at(5, 1), Some(scryptic::Owner::Neutral));
    assert_eq!(owner_at(6, 10), Some(scryptic::Owner::Neutral));
    let kinds: Vec<&str> = map.tokens.iter().map(|t| t.kind.as_str()).collect();
    assert_eq!(kinds.len(), 2);
    assert_eq!(kinds[0], kinds[1]);
}

#[test]
fn place_a_city_and_a_token_save_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("made.ron");
    let mut h = harness(blank(12, 12));
    key(&mut h, Key::C);
    h.get_by_label("gold").click();
    h.run();
    click(&mut h, Pos::new(3, 4));
    key(&mut h, Key::T);
    h.get_by_label("flood").click();
    h.run();
    click(&mut h, Pos::new(6, 6));
    {
        let map = &h.state().doc.map;
        assert_eq!(map.cities.len(), 1);
        assert_eq!(map.cities[0].at, Pos::new(3, 4));
        assert_eq!(map.cities[0].owner, scryptic::Owner::Gold);
        assert_eq!(map.tokens.len(), 1);
        assert_eq!(map.tokens[0].kind, "flood");
    }
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    assert!(matches!(h.state().dialog, Some(Dialog::SaveAs(_))));
    type_into(&mut h, "path", &path.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    assert_eq!(h.state().dialog, None);
    assert!(!h.state().doc.is_dirty());
    let saved = Map::load(&path).expect("the saved map loads");
    assert_eq!(saved, h.state().doc.map);

    // Reopen through File > Open in a fresh editor.
    let mut h = harness(EditorApp::default());
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    type_into(&mut h, "path", &path.display().to_string());
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().doc.map, saved);
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
}

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

#[test]
fn edit_a_connotation_list_through_the_ui() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = blank(8, 8);
    app.lexicon.load(dir.path()).unwrap();
    app.mode = Mode::Lexicon;
    let mut h = harness(app);
    type_into(&mut h, "list name", "frozen");
    h.get_by_label("New list").click();
    h.run();
    type_into(&mut h, "word", "glacier");
    h.get_by_label("Add word").click();
    h.run();
    type_into(&mut h, "word", "zzqx");
    h.get_by_label("Add word").click();
    h.run();
    assert!(
        h.state()
            .lexicon
            .message
            .as_deref()
            .unwrap_or("")
            .contains("lacks")
    );
    h.get_by_label("Save lists (1)").click();
    h.run();
    let text = std::fs::read_to_string(dir.path().join("frozen.txt")).unwrap();
    assert!(text.lines().any(|l| l == "glacier"), "{text}");
    // Search through the runtime, and see which lists hold the word.
    type_into(&mut h, "search", "glaci");
    assert!(h.query_by_label_contains("in frozen").is_some());
}

#[test]
fn change_a_rule_through_the_ui_and_save_it_into_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ruled.ron");
    let mut app = blank(8, 8);
    app.doc.save_as(&path).unwrap();
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let limit =
        |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap().turn.rack_limit;
    let before = limit(&h);
    // Typed digit by digit, nothing applies until Enter: "1" alone is never tried.
    type_into(&mut h, "turn.rack_limit", "1");
    assert_eq!(limit(&h), before, "half a number is not applied");
    h.get_by_label("turn.rack_limit").type_text("1");
    h.run();
    assert_eq!(limit(&h), before);
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(limit(&h), 11);
    // A value out of range is refused beside the field, and changes nothing (the constant's
    // label now says it differs from the preset).
    type_into(&mut h, "turn.rack_limit *", "0");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(limit(&h), 11);
    let refusal = h.state().rules.refusals.get("turn.rack_limit").cloned();
    let refusal = refusal.expect("the refusal is kept for the field");
    assert!(
        h.query_by_label(&refusal).is_some(),
        "the refusal is shown beside the field: {refusal}"
    );
    assert!(
        h.query_by_label("1 constant differs from the preset")
            .is_some()
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(
        Map::load(&path)
            .unwrap()
            .rule_set()
            .unwrap()
            .turn
            .rack_limit,
        11
    );
}

/// A constant that is one of a list is chosen from a drop-down of its values (typed as text,
/// `Exceed` without quotes was undone without a word); a table typed wrong is refused beside
/// its field, and one typed as a rule file writes it is taken.
#[test]
fn a_listed_constant_is_chosen_and_a_wrong_value_is_refused_beside_its_field() {
    let mut app = blank(8, 8);
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let rules = |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap();
    assert_eq!(
        rules(&h).placement.forest_cut,
        scryptic::rules::ForestCut::Match
    );
    h.get_by_label("placement.forest_cut").click();
    h.run();
    h.get_by_label("Exceed").click();
    h.run();
    assert_eq!(
        rules(&h).placement.forest_cut,
        scryptic::rules::ForestCut::Exceed
    );
}

/// A table constant opens into a row per entry with a field per value (a letter's value and
/// count, a seat's name typed without quotes): an entry is changed, removed and added, each
/// an undoable step; a wrong value is refused beside its field and changes nothing.
#[test]
fn a_table_constant_is_edited_row_by_row() {
    let mut app = blank(8, 8);
    app.mode = Mode::Rules;
    let mut h = harness(app);
    let rules = |h: &Harness<'static, EditorApp>| h.state().doc.map.rule_set().unwrap();
    let q = |h: &Harness<'static, EditorApp>| rules(h).letters.tiles.get(&'Q').copied();
    let before = q(&h).unwrap();
    h.get_by_label("letters.tiles").click();
    h.run();
    type_into(&mut h, "Q value", "10");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(q(&h).unwrap().value, 10);
    assert_eq!(q(&h).unwrap().count, before.count, "the count is kept");
    // Not a number: refused beside the field, nothing changed.
    type_into(&mut h, "Q count", "x");
    h.key_press(Key::Enter);
    h.run();
    let refusal = h
        .state()
        .rules
        .refusals
        .get("letters.tiles[Q].count")
        .cloned();
    let refusal = refusal.expect("the refusal is kept for the field");
    assert!(h.query_by_label(&refusal).is_some(), "shown: {refusal}");
    assert_eq!(q(&h).unwrap().count, before.count);
    // The preset's letters are changed, never removed (its own would come back).
    assert!(h.query_by_label("Remove").is_none());
    // A meaning of the connotation lists' is added as a copy of the last row, then removed.
    h.get_by_label("strength.connotations").click();
    h.run();
    type_into(&mut h, "New entry", "freezing");
    h.get_by_label("Add").click();
    h.run();
    let connotations = |h: &Harness<'static, EditorApp>| rules(h).strength.connotations;
    assert_eq!(
        connotations(&h).get("freezing"),
        connotations(&h).get("sneaking"),
        "a new row copies the last"
    );
    h.get_by_label("Remove").click();
    h.run();
    assert!(!connotations(&h).contains_key("freezing"));
    assert!(
        h.state().doc.map.rules.overrides.strength.is_none(),
        "the preset's table again is no override"
    );
    // A list of words (far down the list): a name typed without quotes.
    h.get_by_label("seats.names").scroll_to_me();
    h.run();
    h.get_by_label("seats.names").click();
    h.run();
    type_into(&mut h, "New item", "white");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(rules(&h).seats.names, ["white"]);
    h.get_by_label("Close").click();
    h.run();
    assert_eq!(
        h.state().rules.open_table,
        None,
        "Close folds the table away"
    );
    // Every change was a step of its own.
    h.state_mut().doc.undo();
    assert!(rules(&h).seats.names.is_empty());
}

#[test]
fn the_shipped_duel_opens_with_its_tileset_and_validates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let h = harness(EditorApp::new(Some(&root.join("maps/duel-24.ron"))));
    assert_eq!(h.state().dialog, None);
    assert_eq!(h.state().doc.map.width(), 24);
    let (errors, _) = h.state().map_mode.validation.counts();
    assert_eq!(errors, 0, "{:?}", h.state().map_mode.validation.findings);
}

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

/// The validation panel lists every finding grouped by kind, each under its kind's header with
/// its cell named as players name it (A1), and a click on one jumps to it.
#[test]
fn validation_findings_are_grouped_by_kind_and_jump_when_clicked() {
    let mut app = blank(12, 12);
    for (id, x, y) in [("w1", 1, 1), ("w2", 2, 1), ("w3", 3, 1)] {
        app.doc.edit_objects("token", |m| {
            m.tokens.push(scryptic::TokenSpot {
                id: id.into(),
                kind: "quake".into(),
                at: Pos::new(x, y),
            });
        });
    }
    let mut h = harness(app);
    let groups: Vec<(&str, usize)> = h
        .state()
        .map_mode
        .validation
        .groups()
        .into_iter()
        .map(|(code, members)| (code, members.len()))
        .collect();
    assert!(groups.contains(&("unknown-token-kind", 3)), "{groups:?}");
    h.get_by_label_contains("unknown-token-kind (3)");
    h.get_by_label_contains("C2: ").click();
    h.run();
    let focused = h
        .state()
        .map_mode
        .validation
        .focused
        .expect("a finding is picked");
    assert_eq!(
        h.state().map_mode.validation.findings[focused].cells,
        [Pos::new(2, 1)]
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

/// The Edit menu has what Tiled's has, each with its shortcut: select all, copy, and paste
/// into the layers chosen (terrain alone leaves the cities under it).
#[test]
fn the_edit_menu_selects_copies_and_pastes_by_layer() {
    let mut h = harness(blank(8, 8));
    h.state_mut()
        .doc
        .paint_step("water", &[Pos::new(0, 0)], Terrain::Water);
    h.state_mut().doc.map.cities.push(scryptic::City {
        id: "argentum".into(),
        name: "Argentum".into(),
        at: Pos::new(4, 4),
        owner: scryptic::Owner::Silver,
        bonus: None,
    });
    h.run();
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Select all").click();
    h.run();
    assert!(h.state().map_mode.selection.is_some());
    h.get_by_label("Edit").click();
    h.run();
    h.get_by_label_contains("Copy").click();
    h.run();
    assert!(h.state().map_mode.clip.is_some(), "copied");
    // Pasted over Argentum with the terrain's layer alone: the water comes, the city stays.
    let app = h.state_mut();
    app.map_mode.paste_layers.pieces = false;
    app.map_mode.hovered = Some(Pos::new(4, 4));
    app.map_mode.paste(&mut app.doc);
    let map = &h.state().doc.map;
    assert_eq!(map.terrain.get(Pos::new(4, 4)), Some(&Terrain::Water));
    let ids: Vec<&str> = map.cities.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["argentum"], "the terrain alone leaves Argentum");
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

/// A region copied in one editor window goes to the system clipboard as text (which other
/// programs can read), and pasting that text in another window lays the region down there.
#[test]
fn a_region_copies_to_the_system_clipboard_and_pastes_in_another_window() {
    let mut first = harness(blank(12, 12));
    first
        .state_mut()
        .doc
        .paint_step("seed", &[Pos::new(1, 1), Pos::new(2, 1)], Terrain::Lava);
    first.run();
    key(&mut first, Key::M);
    drag(&mut first, &[Pos::new(1, 1), Pos::new(2, 2)]);
    // Ctrl+C, as the window system hands it over (egui-winit makes it a Copy event).
    first.event(Event::Copy);
    first.step();
    let copied = first
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .expect("the region reaches the system clipboard");
    assert!(copied.starts_with("scryptic-region 1\n"), "{copied}");

    let mut second = harness(blank(12, 12));
    let target = at(&second, Pos::new(5, 5));
    second.event(Event::PointerMoved(target));
    second.run();
    second.event(Event::Paste(copied));
    second.run();
    let map = &second.state().doc.map;
    assert_eq!(map.terrain.get(Pos::new(5, 5)), Some(&Terrain::Lava));
    assert_eq!(map.terrain.get(Pos::new(6, 5)), Some(&Terrain::Lava));
    assert_eq!(map.terrain.get(Pos::new(5, 6)), Some(&Terrain::Plains));
    // Text that is not a region pastes nothing new.
    let before = second.state().doc.map.clone();
    second.event(Event::Paste("hello".into()));
    second.run();
    assert_eq!(second.state().doc.map.terrain, before.terrain);
}

/// Map properties without a text file: name and author typed and committed when the field is
/// left (one undo step each), the preset chosen, and the map resized around its anchor; a size
/// the rules refuse changes nothing.
#[test]
fn map_properties_are_edited_and_the_map_resized_from_the_panel() {
    let mut h = harness(blank(12, 12));
    h.get_by_label("Map properties").click();
    h.run();
    type_into(&mut h, "Name", "Twin Fords");
    assert_eq!(h.state().doc.map.name, "test", "not committed while typing");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().doc.map.name, "Twin Fords");
    type_into(&mut h, "Author", "A. Designer");
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().doc.map.author, "A. Designer");
    h.state_mut()
        .doc
        .paint_step("mark", &[Pos::new(0, 0)], Terrain::Lava);
    h.state_mut().map_mode.properties.anchor = scryptic_editor::properties::Anchor { x: 2, y: 2 };
    h.state_mut().map_mode.properties.size = Some((14, 13));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    let map = &h.state().doc.map;
    assert_eq!((map.width(), map.height()), (14, 13));
    assert_eq!(map.terrain.get(Pos::new(2, 1)), Some(&Terrain::Lava));
    h.state_mut().map_mode.properties.size = Some((2, 2));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    assert_eq!(h.state().doc.map.width(), 14, "too small: refused");
    assert!(h.state().map_mode.properties.message.is_some());
    h.state_mut().doc.undo();
    assert_eq!(h.state().doc.map.width(), 12, "a resize is one step");
    assert_eq!(h.state().doc.map.name, "Twin Fords");
}

/// The size fields follow the map: after a resize is undone (or redone), Width and Height
/// show the map's size, not the size it had (they kept the old width).
#[test]
fn the_size_fields_follow_the_map_through_undo() {
    let mut h = harness(blank(12, 12));
    h.get_by_label("Map properties").click();
    h.run();
    h.state_mut().map_mode.properties.size = Some((14, 13));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    let shown = |h: &Harness<'static, EditorApp>, field: &str| {
        h.get_by_label(field).accesskit_node().numeric_value()
    };
    assert_eq!(shown(&h, "Width"), Some(14.0));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.width(), 12);
    assert_eq!(shown(&h, "Width"), Some(12.0), "the field follows the undo");
    assert_eq!(shown(&h, "Height"), Some(12.0));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().doc.map.width(), 14);
    assert_eq!(shown(&h, "Width"), Some(14.0), "and the redo");
}

/// The canvas keeps its place: opening Map properties does not narrow it (a field wider than
/// the panel widened the panel), and a map resized (or its resize undone) is fitted again.
#[test]
fn the_canvas_keeps_its_size_and_a_resized_map_is_fitted() {
    let mut h = harness(blank(12, 12));
    h.run();
    let canvas = |h: &Harness<'static, EditorApp>| h.state().map_mode.canvas.last_rect();
    let before = canvas(&h);
    h.get_by_label("Map properties").click();
    h.run();
    assert_eq!(canvas(&h), before, "the canvas did not move");
    h.state_mut().map_mode.properties.size = Some((24, 12));
    h.run();
    h.get_by_label("Resize").click();
    h.run();
    assert_eq!(
        h.state().map_mode.view.centre,
        [12.0, 6.0],
        "fitted to 24x12"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        h.state().map_mode.view.centre,
        [6.0, 6.0],
        "fitted back to 12x12"
    );
}

/// A new map draws with the stone tileset's art from the start, saved or not.
#[test]
fn a_new_map_starts_with_the_stone_tileset() {
    let h = harness(blank(10, 10));
    assert_eq!(
        h.state().doc.map.tileset,
        scryptic_editor::app::NEW_MAP_TILESET
    );
    assert!(
        scryptic_editor::app::tileset_of(&h.state().doc).is_some(),
        "the tileset loads for a map not yet saved"
    );
}

/// The blank map the editor opens on, with no file named, has the stone tileset too.
#[test]
fn the_editor_starts_on_a_map_with_the_stone_tileset() {
    let app = EditorApp::new(None);
    assert_eq!(app.doc.map.tileset, scryptic_editor::app::NEW_MAP_TILESET);
    assert!(!app.doc.is_dirty(), "nothing to save yet");
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

/// "Open in editor" with no editor that starts says so, with the script's path and how to
/// name an editor, and shows the script in the built-in view.
#[test]
fn a_script_opens_in_the_built_in_view_when_no_editor_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ron");
    std::fs::write(
        dir.path().join("hello.lua"),
        "-- greets the players\nprint('hi')\n",
    )
    .unwrap();
    let mut app = blank(8, 8);
    app.doc
        .edit_objects("add script", |m| m.scripts.push("hello.lua".into()));
    app.doc.save_as(&path).unwrap();
    app.mode = Mode::Scripts;
    app.scripts.editor_command = Some("/nonexistent/editor-of-nowhere".into());
    let mut h = harness(app);
    h.get_by_label("Open in editor").click();
    h.run();
    let said = h
        .state()
        .scripts
        .console
        .last()
        .cloned()
        .unwrap_or_default();
    assert!(
        said.contains("no external editor could be started")
            && said.contains("hello.lua")
            && said.contains("$VISUAL"),
        "{said}"
    );
    h.get_by_label_contains("-- greets the players");
    h.get_by_label("Close the view").click();
    h.run();
    assert!(h.state().scripts.viewing.is_none());
}

/// The texture ids of every image drawn in the last frame.
fn drawn_textures(h: &Harness<'_, EditorApp>) -> Vec<egui::TextureId> {
    h.output()
        .shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Mesh(mesh) => Some(mesh.texture_id),
            _ => None,
        })
        .collect()
}

/// Close in, the canvas draws cities and tokens with the tileset's art, as play does, not
/// plain discs and diamonds.
#[test]
fn cities_and_tokens_are_drawn_with_the_tilesets_art() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut h = harness(EditorApp::new(Some(&root.join("maps/duel-24.ron"))));
    h.state_mut().map_mode.view.fit_pending = false;
    h.state_mut().map_mode.view.zoom = scryptic_editor::view::TEXTURE_ZOOM * 2.0;
    h.run();
    let drawn = drawn_textures(&h);
    let state = h.state();
    let tiles = state
        .map_mode
        .canvas
        .textures()
        .expect("the duel's tileset loads");
    let map = &state.doc.map;
    let visible = |at: Pos| {
        let rect = state.map_mode.canvas.last_rect().unwrap();
        rect.contains(state.map_mode.view.cell_centre(rect, at))
    };
    let city = map
        .cities
        .iter()
        .find(|c| visible(c.at))
        .expect("a city in view");
    let city_art = tiles
        .city(city.owner)
        .expect("the tileset has city art")
        .id();
    assert!(drawn.contains(&city_art), "the city is drawn with its tile");
    let token = map
        .tokens
        .iter()
        .find(|t| visible(t.at))
        .expect("a token in view");
    let jewel = tiles
        .token(&token.kind)
        .expect("the tileset has the jewel")
        .id();
    assert!(drawn.contains(&jewel), "the token is drawn with its jewel");
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

/// A script saved while the editor watches it reloads once: the editor's own reading of it
/// (and of the scripts beside it) is no change (it once reloaded without end, "load 300,
/// 301, ...", at full CPU). Reload scripts reads them again, and starts nothing either.
#[test]
fn a_saved_script_reloads_once_and_never_loops() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("wending");
    copy_folder(&root().join("packs/wending"), &pack);
    let map = pack.join("campaigns/wending/1-the-ford.ron");
    let mut h = harness(EditorApp::new(Some(&map)));
    h.state_mut().mode = Mode::Scripts;
    h.run();
    click_label(&mut h, "Reload scripts");
    let settle = |h: &mut Harness<'static, EditorApp>| {
        // The watcher's events come on its own thread, after a debounce.
        for _ in 0..15 {
            std::thread::sleep(Duration::from_millis(100));
            h.step();
        }
        h.state().scripts.generation
    };
    let loaded = settle(&mut h);
    let script = pack.join("scripts/1-the-ford.lua");
    let mut text = std::fs::read_to_string(&script).unwrap();
    text.push_str("-- a line more\n");
    std::fs::write(&script, text).unwrap();
    let after_save = settle(&mut h);
    assert_eq!(after_save, loaded + 1, "the save reloads once");
    assert_eq!(settle(&mut h), after_save, "and nothing more");
}

/// A watched script wakes the editor only when what it holds changes: reading it (the editor
/// reads every script at each load) asks for no frame. The ford's map once kept a core busy at
/// rest: each frame read the script, the read was reported as an event, and the event woke the
/// window for another frame, 16 times a second.
#[test]
fn reading_a_watched_script_asks_for_no_frame() {
    let map = root().join("packs/wending/campaigns/wending/1-the-ford.ron");
    let script = root().join("packs/wending/scripts/1-the-ford.lua");
    let mut h = harness(EditorApp::new(Some(&map)));
    h.run();
    for read in 0..3 {
        let batches = |h: &Harness<'static, EditorApp>| {
            h.state()
                .scripts
                .watcher_batches()
                .expect("the map's script is watched")
        };
        let before = batches(&h);
        std::fs::read(&script).unwrap();
        // Wait for the watcher to have seen the read (its thread reports after a debounce).
        let waited = std::time::Instant::now();
        while batches(&h) == before {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "the watcher never reported the read"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(
            !h.ctx.has_requested_repaint(),
            "read {read}: the script's reading asked for a frame: {:?}",
            h.ctx.repaint_causes()
        );
        h.step();
    }
    assert_eq!(h.state().scripts.generation, 1, "nothing was reloaded");
}

/// Every file under `from`, copied to `to`.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
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

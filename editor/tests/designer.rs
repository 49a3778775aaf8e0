//! A designer's whole errand through the UI, as issue 22 puts it: a new symmetric duel made
//! from scratch (new map, properties, paint, cities, tokens, validate, play it against the AI,
//! save) without touching a text file.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click, drag, harness, key, type_into};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use scryptic::{Map, Owner, Pos, Terrain};
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::EditorSession;
use std::time::Duration;

fn press_button(h: &mut egui_kittest::Harness<'_, EditorApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// The tool panel's widget labelled `label` (the inspector may show one of the same name).
fn press_in_tools(h: &mut egui_kittest::Harness<'_, EditorApp>, label: &str) {
    let leftmost = h
        .get_all_by_label(label)
        .min_by(|a, b| a.rect().left().total_cmp(&b.rect().left()))
        .unwrap();
    leftmost.click();
    h.run();
}

#[test]
fn a_symmetric_duel_made_from_scratch_played_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("twin-fords.ron");
    let mut h = harness(EditorApp::default());

    // File > New, 24x24.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    type_into(&mut h, "name", "Twin Fords");
    press_button(&mut h, "Create");
    assert_eq!(h.state().doc.map.name, "Twin Fords");
    assert_eq!(h.state().doc.map.width(), 24);

    // Properties: who made it and what it is.
    press_button(&mut h, "Map properties");
    type_into(&mut h, "Author", "A. Designer");
    h.key_press(Key::Enter);
    h.run();
    // Several lines may be typed; it is kept when the field is left.
    type_into(&mut h, "Description", "Two fords, two capitals, one river.");
    assert_eq!(h.state().doc.map.author, "A. Designer");

    // Mirror left-right, then a river stroke and a forest on gold's side.
    press_button(&mut h, "symmetry");
    press_button(&mut h, "mirror left-right");
    key(&mut h, Key::B);
    press_button(&mut h, "water");
    let river: Vec<Pos> = (0..24).map(|y| Pos::new(11, y)).collect();
    drag(&mut h, &river);
    press_button(&mut h, "forest");
    drag(&mut h, &[Pos::new(4, 4), Pos::new(5, 4), Pos::new(6, 5)]);
    let map = &h.state().doc.map;
    assert_eq!(map.terrain.get(Pos::new(12, 7)), Some(&Terrain::Water));
    assert_eq!(map.terrain.get(Pos::new(19, 4)), Some(&Terrain::Forest));

    // Gold's capital (silver's appears opposite), a neutral city and a token on the river.
    key(&mut h, Key::C);
    press_in_tools(&mut h, "gold");
    click(&mut h, Pos::new(3, 12));
    press_in_tools(&mut h, "neutral");
    click(&mut h, Pos::new(8, 3));
    key(&mut h, Key::T);
    press_button(&mut h, "flood");
    click(&mut h, Pos::new(9, 18));
    let map = &h.state().doc.map;
    let owner_at = |x, y| map.city_at(Pos::new(x, y)).map(|c| c.owner);
    assert_eq!(owner_at(3, 12), Some(Owner::Gold));
    assert_eq!(
        owner_at(20, 12),
        Some(Owner::Silver),
        "the mirror is silver's"
    );
    assert_eq!(owner_at(15, 3), Some(Owner::Neutral));
    assert_eq!(map.tokens.len(), 2);

    // The neutral town is worth more than the rule set gives: its own capture bonus, set in
    // the inspector (and given back to the rule set's with "default").
    key(&mut h, Key::N);
    click(&mut h, Pos::new(8, 3));
    h.get_by_label("capture bonus").set_value_accesskit(25.0);
    h.run();
    let bonus_at = |h: &egui_kittest::Harness<'_, EditorApp>, x, y| {
        h.state()
            .doc
            .map
            .city_at(Pos::new(x, y))
            .and_then(|c| c.bonus)
    };
    assert_eq!(bonus_at(&h, 8, 3), Some(25));
    // The panel scrolls: the button is brought into view as a person would scroll to it.
    h.get_by_label("default").scroll_to_me();
    h.run();
    press_button(&mut h, "default");
    assert_eq!(bonus_at(&h, 8, 3), None);
    h.get_by_label("capture bonus").set_value_accesskit(25.0);
    h.run();
    assert_eq!(bonus_at(&h, 8, 3), Some(25));

    // Validation has nothing against it.
    h.run();
    let (errors, _) = h.state().map_mode.validation.counts();
    assert_eq!(errors, 0, "{:?}", h.state().map_mode.validation.findings);

    // Played against the AI straight from the editor.
    h.state_mut().mode = Mode::Play;
    h.run();
    press_button(&mut h, "The open map");
    press_button(&mut h, "Against the AI");
    press_button(&mut h, "Start game");
    assert!(
        h.state().play.session.is_some(),
        "{:?}",
        h.state().play.message
    );
    press_button(&mut h, "End turn");
    let session = h.state_mut().play.session.as_mut().unwrap();
    session.wait_for_ai(Duration::from_secs(300));
    assert_eq!(
        session.game().to_act(),
        scryptic::Player::Gold,
        "gold ended the turn, the AI played its own and it is gold's again: {:?}",
        session.game().log()
    );

    // Saved, and the file is the map as made.
    h.state_mut().mode = Mode::Map;
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    type_into(&mut h, "path", &path.display().to_string());
    press_button(&mut h, "Save");
    assert!(!h.state().doc.is_dirty());
    let saved = Map::load(&path).unwrap();
    assert_eq!(saved, h.state().doc.map);
    assert_eq!(saved.description, "Two fords, two capitals, one river.");
    assert_eq!(saved.city_at(Pos::new(8, 3)).unwrap().bonus, Some(25));
}

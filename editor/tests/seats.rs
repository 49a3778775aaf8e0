//! A mode's names and colours for the seats (`seats.names`, `seats.colours`) in the editor's
//! play mode, headless: the side panel and the event log call the players by the mode's names,
//! and their coins take the mode's colours.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click_label, harness, root};
use egui_kittest::kittest::Queryable;
use scryptic::Player;
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::setup::{SetupForm, Source};

#[test]
fn the_players_go_by_the_modes_names_and_colours() {
    let rules = root().join("tests/rules/named-seats.ron");
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Play;
    h.state_mut().play.setup = SetupForm {
        source: Source::MapFile,
        path: root().join("maps/tutorial.ron").display().to_string(),
        rules_file: rules.display().to_string(),
        hide_racks: false,
        ..SetupForm::default()
    };
    h.run();
    click_label(&mut h, "Start game");
    h.get_by_label("> white (person)");
    h.get_by_label("brown (person)");
    h.get_by_label("white's rack");
    h.get_by_label_contains("Turn 1: white to play");
    click_label(&mut h, "End turn");
    h.get_by_label_contains("white passes");
    let game = h.state().play.session.as_ref().unwrap().game();
    assert_eq!(
        scryptic_editor::play::board::mode_colour(game, Player::Silver),
        Some(egui::Color32::from_rgb(0x8b, 0x5a, 0x2b))
    );
}

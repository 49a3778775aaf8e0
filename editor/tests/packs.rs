//! The Packs screen driven through its UI, headless: a pack folder opened and shown, a mode
//! chosen, its settings set on the setup screen, the game started; a new pack made from the
//! open map.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click_label, harness, root};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::EditorSession;
use std::path::Path;

type H = Harness<'static, EditorApp>;

/// The setup screen of Word Wars, reached from the Packs screen with its folder opened.
fn word_wars_setup() -> H {
    let mut h = packs_screen();
    h.state_mut().packs.open_path = root().join("packs/word-wars").display().to_string();
    click_label(&mut h, "Open");
    click_label(&mut h, "Play Word Wars");
    h
}

fn packs_screen() -> H {
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Packs;
    h.run();
    h
}

#[test]
fn a_pack_is_opened_shown_and_its_campaign_played() {
    let mut h = packs_screen();
    h.state_mut().packs.open_path = root().join("packs/wending").display().to_string();
    click_label(&mut h, "Open");
    assert_eq!(h.state().packs.selected.as_deref(), Some("wending"));
    // What a player looks at before choosing: the title, the version, the dependencies and
    // that it runs Lua.
    assert!(h.get_all_by_label("The Wending").count() >= 1);
    h.get_by_label("version 1.0.0");

    h.get_by_label("needs core ^1.0: core 1.0.0 is here");
    assert!(
        h.query_by_label_contains("it runs Lua").is_some(),
        "the screen says the pack runs Lua"
    );
    click_label(&mut h, "Play The Wending");
    assert_eq!(h.state().mode, Mode::Play);
    assert_eq!(h.state().play.setup.pack, "wending");
    assert_eq!(h.state().play.setup.mode, "campaign");
    click_label(&mut h, "Start game");
    let session = h.state().play.session.as_ref().expect("a game started");
    assert!(
        session.title.contains("The Wending: Chapter 1"),
        "{}",
        session.title
    );
    // A campaign's later chapter can be chosen on the setup screen.
    click_label(&mut h, "Setup");
    h.get_by_label("Chapter (of 3)");
    h.state_mut().play.setup.chapter = 2;
    h.run();
    click_label(&mut h, "Start game");
    let session = h.state().play.session.as_ref().expect("a game started");
    assert!(
        session.title.contains("Burning Throne"),
        "{}",
        session.title
    );
    assert!(
        session.console.iter().all(|l| !l.starts_with("error")),
        "{:?}",
        session.console
    );
}

#[test]
fn a_mode_plays_with_the_settings_chosen_on_the_setup_screen() {
    let dir = tempfile::tempdir().unwrap();
    let made = scryptic::pack::new::make(
        "tuned",
        dir.path(),
        scryptic::pack::new::tutorial_seed("tuned").unwrap(),
        "",
    )
    .unwrap();
    let manifest = std::fs::read_to_string(made.folder.join("pack.ron")).unwrap();
    let manifest = manifest.trim_end().trim_end_matches(')').to_string()
        + "    settings: [(id: \"draw\", title: \"Letters drawn\", kind: Int(min: 1, max: 9, default: 3), binds: \"turn.draw_per_turn\"), (id: \"fog\", title: \"Fog\", kind: Bool(default: false))],\n)\n";
    std::fs::write(made.folder.join("pack.ron"), manifest).unwrap();
    let mut h = packs_screen();
    h.state_mut().packs.open_path = made.folder.display().to_string();
    click_label(&mut h, "Open");
    assert_eq!(
        h.state().packs.selected.as_deref(),
        Some("tuned"),
        "{:?}",
        h.state().packs.message
    );
    click_label(&mut h, "Play tuned: first map");
    h.get_by_label("Letters drawn");
    // The checkbox animates as it ticks: a few frames more than a click usually takes.
    h.get_by_label("Fog").click();
    h.run_steps(8);
    let setup = &mut h.state_mut().play.setup;
    let draw = setup
        .settings
        .iter_mut()
        .find(|(id, _)| id == "draw")
        .unwrap();
    draw.1 = scryptic::pack::SettingValue::Int(7);
    h.run();
    click_label(&mut h, "Start game");
    let session = h.state().play.session.as_ref().expect("a game started");
    assert_eq!(session.game().rules().turn.draw_per_turn, 7);
    let saved = session.scripted().expect("played here").save();
    use scryptic::pack::SettingValue;
    assert_eq!(saved.settings.get("fog"), Some(&SettingValue::Bool(true)));
    assert_eq!(saved.settings.get("draw"), Some(&SettingValue::Int(7)));
}

/// An extension pack opened shows what it fits; the setup screen offers it as a tick box for
/// the modes it fits, and a game started with it ticked runs its scripts.
#[test]
fn an_extension_is_ticked_on_the_setup_screen_and_joins_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("omens");
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::write(
        folder.join("pack.ron"),
        r#"(format: 1, id: "omens", title: "Omens", version: "1.0.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            extension: (modes: ["core:tutorial"], scripts: ["scripts/omens.lua"]))"#,
    )
    .unwrap();
    std::fs::write(
        folder.join("scripts/omens.lua"),
        "scryptic.on('game_start', function(game) game:message('A raven circles the board.') end)\n",
    )
    .unwrap();
    let mut h = packs_screen();
    h.state_mut().packs.open_path = folder.display().to_string();
    click_label(&mut h, "Open");
    assert_eq!(h.state().packs.selected.as_deref(), Some("omens"));
    assert!(
        h.query_by_label_contains("an extension for core:tutorial")
            .is_some()
    );

    h.state_mut().mode = Mode::Play;
    h.state_mut().play.setup.choose_pack("core", "classic");
    h.run();
    assert!(
        h.query_by_label("Omens (omens)").is_none(),
        "offered only for the modes it fits"
    );
    h.state_mut().play.setup.choose_pack("core", "tutorial");
    h.run();
    h.get_by_label("Omens (omens)").click();
    h.run_steps(8);
    assert_eq!(h.state().play.setup.extensions, ["omens"]);
    click_label(&mut h, "Start game");
    let session = h.state().play.session.as_ref().expect("a game started");
    assert!(
        session
            .console
            .iter()
            .any(|l| l.contains("A raven circles the board.")),
        "{:?}",
        session.console
    );
}

#[test]
fn new_pack_makes_a_pack_from_the_open_map_and_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(EditorApp::new(Some(&root().join("maps/duel-24.ron"))));
    h.state_mut().mode = Mode::Packs;
    h.run();
    h.state_mut().packs.new_id = "my-duel".into();
    h.state_mut().packs.new_dir = dir.path().display().to_string();
    click_label(&mut h, "Make the pack");
    let folder = dir.path().join("my-duel");
    assert!(
        folder.join("pack.ron").is_file(),
        "{:?}",
        h.state().packs.message
    );
    assert_eq!(h.state().mode, Mode::Map);
    assert_eq!(
        h.state().doc.path.as_deref(),
        Some(folder.join("maps/first.ron").as_path())
    );
    let map = std::fs::read_to_string(folder.join("maps/first.ron")).unwrap();
    assert!(map.contains("core:tilesets/stone/tileset.ron"), "{map}");
    assert!(
        h.state().doc.tileset().is_some(),
        "the map inside its pack finds core's tileset"
    );
    let o = scryptic_check(&folder);
    assert!(o.0 == 0, "{}", o.1);
}

/// `scryptic pack check DIR`, in-process.
fn scryptic_check(folder: &Path) -> (i32, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["scryptic", "pack", "check", folder.to_str().unwrap()];
    let code = scryptic::cli::run(args, &mut "".as_bytes(), &mut out, &mut err);
    (code, String::from_utf8_lossy(&err).into_owned())
}

/// Word Wars is chosen on the Packs screen and played against the AI: the AI builds on the
/// shared board through the player's letters.
#[test]
fn word_wars_is_played_against_the_ai_from_the_packs_screen() {
    let mut h = packs_screen();
    h.state_mut().packs.open_path = root().join("packs/word-wars").display().to_string();
    click_label(&mut h, "Open");
    assert_eq!(h.state().packs.selected.as_deref(), Some("word-wars"));
    // The README reads as text, its markup rendered, not shown.
    h.get_by_label("The rules, in a player's words");
    assert!(h.query_by_label_contains("## ").is_none());
    assert!(h.query_by_label_contains("**").is_none());
    click_label(&mut h, "Play Word Wars");
    click_label(&mut h, "Against the AI");
    click_label(&mut h, "Start game");
    // What these rules lack is not offered: no spies, no redeployment, no cities.
    assert!(h.query_by_label_contains("Spy (").is_none());
    assert!(h.query_by_label("Redeploy a word").is_none());
    assert!(h.query_by_label_contains("cities").is_none());
    let session = h.state_mut().play.session.as_mut().expect("a game started");
    assert_eq!(
        session.game().rules().crossword.model,
        scryptic::rules::CrosswordModel::Shared
    );
    let start = scryptic_editor::play::board::start_mark(session.game());
    assert_eq!(
        start,
        Some(session.game().centre_cell()),
        "the centre is marked"
    );
    // Gold (the person) trades three letters; then the AI, silver, must open at the centre.
    let rack = session.game().rack_letters(scryptic::Player::Gold);
    session.act(scryptic::game::Action::Exchange {
        letters: rack[..3].to_string(),
    });
    session.wait_for_ai(std::time::Duration::from_secs(300));
    let game = session.game();
    assert_eq!(
        game.to_act(),
        scryptic::Player::Gold,
        "{:?}",
        session.refusal
    );
    let centre = game.centre_cell();
    assert!(
        game.board().letters[centre].is_some(),
        "the AI's first word covers the centre: {:?}",
        game.log()
    );
    assert_eq!(
        scryptic_editor::play::board::start_mark(game),
        None,
        "the mark goes with the first word"
    );
}

/// A Word Wars match in the editor: the Rounds setting on the setup screen, the round's points
/// and the match's totals beside the board, "Next round" between rounds (the loser starts), and
/// the match's end.
#[test]
fn a_word_wars_match_is_played_round_after_round_in_the_editor() {
    let mut h = word_wars_setup();
    h.get_by_label("Rounds");
    let rounds = scryptic::save::SettingValue::Int(2);
    h.state_mut().play.setup.settings = vec![("rounds".to_string(), rounds)];
    click_label(&mut h, "Against the AI");
    click_label(&mut h, "Start game");
    h.get_by_label("round 1 of 2; match: gold 0, silver 0");
    assert!(
        h.query_by_label("Next round").is_none(),
        "the round goes on"
    );
    click_label(&mut h, "Forfeit");
    h.get_by_label("Game over: silver wins (gold forfeits)");
    h.get_by_label("round 1 of 2 adds gold 0, silver 0; match: gold 0, silver 0");
    h.get_by_label("gold starts round 2");
    click_label(&mut h, "Next round");
    let game = h.state().play.session.as_ref().unwrap().game();
    assert_eq!(game.round_number(), 2);
    assert_eq!(game.to_act(), scryptic::Player::Gold, "the loser starts");
    assert!(game.result().is_none());
    h.get_by_label("round 2 of 2; match: gold 0, silver 0");
    click_label(&mut h, "Forfeit");
    h.get_by_label("the match is over: a draw, the totals are equal");
    assert!(
        h.query_by_label("Next round").is_none(),
        "the match is over"
    );
}

/// The Packs screen's Browse... opens the folder prompt (a folder browser behind its own
/// Browse...); a pack folder chosen there opens as if typed.
#[test]
fn a_pack_folder_is_chosen_through_browse() {
    // The folder browser's fields are egui_file's, unnamed, and not ours to name.
    let mut h = common::harness_checked(EditorApp::default(), false);
    h.state_mut().mode = Mode::Packs;
    h.run();
    h.state_mut().packs.open_path = format!("{}/", root().join("packs").display());
    click_label(&mut h, "Browse...");
    assert!(h.state().packs.prompt.as_ref().unwrap().is_browsing());
    // The browser's entry (the Packs screen may list the pack by its title and id too).
    h.get_all_by_label_contains("word-wars")
        .find(|n| {
            let label = n.accesskit_node().label().unwrap_or_default();
            label == "word-wars" || label.ends_with(" word-wars")
        })
        .expect("the folder is listed")
        .click();
    h.run();
    click_label(&mut h, "Choose this folder");
    assert!(h.state().packs.prompt.is_none(), "the browser closed");
    assert_eq!(h.state().packs.selected.as_deref(), Some("word-wars"));
}

/// Hot-seat Word Wars: the next round begins with the racks covered, as every turn does, so
/// that the player who starts it is handed the keyboard.
#[test]
fn a_hot_seat_round_begins_with_the_racks_covered() {
    let mut h = word_wars_setup();
    click_label(&mut h, "Hot-seat");
    click_label(&mut h, "Start game");
    click_label(&mut h, "Show gold's letters");
    click_label(&mut h, "Forfeit");
    click_label(&mut h, "Next round");
    let session = h.state().play.session.as_ref().unwrap();
    assert_eq!(session.game().round_number(), 2);
    assert!(session.rack_hidden, "the racks are covered");
    h.get_by_label("Show gold's letters");
}

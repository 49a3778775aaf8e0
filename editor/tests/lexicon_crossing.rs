//! Lexicon Crossing in the editor, headless: three players from the Packs screen (the person
//! as gold, two AIs), gold's own region in view, tiles laid one at a time and rearranged, the
//! green light enabled only for a complete crossword, and the AIs building their own at once.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click_label, harness, root};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use scryptic::Player;
use scryptic::game::Action;
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::EditorSession;
use std::time::Duration;

type H = Harness<'static, EditorApp>;

/// The setup screen of the 98-tile mode, reached from the Packs screen with the pack opened.
fn setup_of_98_tiles() -> H {
    setup_of("Play Lexicon Crossing (98 tiles)")
}

/// The setup screen of the mode its button (`label`) plays, from the Packs screen.
fn setup_of(label: &str) -> H {
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Packs;
    h.run();
    h.state_mut().packs.open_path = root().join("packs/lexicon-crossing").display().to_string();
    click_label(&mut h, "Open");
    click_label(&mut h, label);
    h
}

/// Three players of the 98 tiles, the person gold against two AIs.
fn three_against_the_ai() -> H {
    three_of(setup_of_98_tiles())
}

/// Three players at the setup screen `h`, the person against two AIs, the game started and
/// the AIs held.
fn three_of(mut h: H) -> H {
    three_players_against_the_ai(&mut h);
    // The AIs start at once and wake the window when they answer: the test holds them and
    // waits for any already thinking, so that every frame after settles.
    h.get_by_label("Start game").click();
    h.run_steps(2);
    let session = h.state_mut().play.session.as_mut().expect("a game started");
    session.pace().unwrap().paused = true;
    session.wait_for_ai(Duration::from_secs(60));
    h.run();
    h
}

/// Three players chosen at the setup screen, the person against the AI.
fn three_players_against_the_ai(h: &mut H) {
    let players = scryptic::save::SettingValue::Int(3);
    h.state_mut().play.setup.settings = vec![("players".to_string(), players)];
    // The settings fill the screen: the radio below them is set as a click would.
    h.state_mut().play.setup.opponents = scryptic_editor::play::setup::Opponents::VersusAi;
    h.run();
}

#[test]
fn three_play_at_once_and_the_green_light_waits_for_a_complete_crossword() {
    let mut h = three_against_the_ai();
    h.get_by_label_contains("Round 1: everyone plays at once");
    h.get_by_label("Your crossword: no tile is placed yet: lay your tiles out as one crossword");
    assert!(
        h.get_by_label("Green light").accesskit_node().is_disabled(),
        "nothing is laid yet"
    );
    let session = h.state_mut().play.session.as_mut().unwrap();
    assert_eq!(session.seats.len(), 3);
    assert_eq!(session.viewer(), Player::Gold);
    // Gold's crossword, as the AI's search would lay it, tile by tile as a person drags them.
    let mut helper = scryptic::ai::AiPlayer::new(scryptic::ai::Level::Normal, 1);
    let Some(Action::Layout { letters, .. }) = helper.choose_at_once(session.game(), Player::Gold)
    else {
        panic!("a crossword for gold's tiles");
    };
    for p in &letters {
        session.place(p.letter, p.at).unwrap();
    }
    // Rearranged: the first tile lifted and laid again.
    let first = letters[0];
    assert_eq!(session.unplace(first.at), Some(first.letter));
    assert_eq!(session.game().board().letters[first.at], None);
    session.place(first.letter, first.at).unwrap();
    assert_eq!(session.game().crossword_lacks(Player::Gold), None);
    h.run();
    h.get_by_label_contains("Your crossword is complete");
    assert!(!h.get_by_label("Green light").accesskit_node().is_disabled());
    click_label(&mut h, "Green light");
    h.get_by_label_contains("Round 2: everyone plays at once");
    // The AIs build their own crosswords in their own regions.
    let session = h.state_mut().play.session.as_mut().unwrap();
    session.pace().unwrap().paused = false;
    // No pause between the AIs' moves, and a letter in a millisecond: the test does not lay
    // tiles by hand, and the AIs' pace with a person is tested below.
    session.pace().unwrap().delay = 0.0;
    session.pace().unwrap().letter_ms = Some(1);
    for _ in 0..6 {
        session.update();
        session.wait_for_ai(Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(450));
    }
    let game = session.game();
    for ai in [Player::Silver, Player::seat(2).unwrap()] {
        let (low, high) = game.own_region_bounds(ai).unwrap();
        let laid: Vec<_> = game
            .board()
            .letters
            .positions()
            .filter(|&p| game.board().letters[p].is_some_and(|t| t.player == ai))
            .collect();
        assert!(!laid.is_empty(), "{ai} laid a crossword: {:?}", game.log());
        assert!(
            laid.iter()
                .all(|p| (low.x..=high.x).contains(&p.x) && (low.y..=high.y).contains(&p.y))
        );
    }
}

/// The setup screen's word list replaces the dictionary for the game, and its save says so.
#[test]
fn a_word_list_of_ones_own_is_played_from_the_setup_screen() {
    let dir = tempfile::tempdir().unwrap();
    let words = dir.path().join("mine.txt");
    std::fs::write(&words, "cat\ncats\ntsac\n").unwrap();
    let mut h = setup_of_98_tiles();
    h.get_by_label("Word list");
    h.state_mut().play.setup.words = words.display().to_string();
    click_label(&mut h, "Start game");
    let session = h.state().play.session.as_ref().expect("a game started");
    let game = session.game();
    assert!(game.lexicon().contains("TSAC") && !game.lexicon().contains("DOG"));
    let record = game.lexicon().word_list().expect("the list is recorded");
    assert_eq!(record.words, 3);
    let saved = dir.path().join("game.ron");
    scryptic_editor::play::referee::save_session(session, &saved).unwrap();
    let save = scryptic::save::SaveFile::load(&saved).unwrap();
    assert_eq!(save.words.as_ref(), Some(record));
}

/// A number setting takes a value typed digit by digit (it snapped to its step at each key:
/// `3` became 0 on the way to `30`, so 30 could not be typed), and snaps once typed.
#[test]
fn a_setting_is_typed_digit_by_digit_and_snapped_once_typed() {
    let mut h = setup_of_98_tiles();
    // Key by key, as a person types.
    common::type_into(&mut h, "Grace period", "3");
    h.get_by_label("Grace period").type_text("0");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let grace = |h: &H| {
        h.state()
            .play
            .setup
            .settings
            .iter()
            .find(|(id, _)| id == "grace")
            .map(|(_, v)| v.clone())
    };
    assert_eq!(grace(&h), Some(scryptic::pack::SettingValue::Int(30)));
    // Between steps (15 s), the value goes to the step below once the field is left.
    common::type_into(&mut h, "Grace period", "40");
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    assert_eq!(grace(&h), Some(scryptic::pack::SettingValue::Int(30)));
}

/// The AIs of a simultaneous game keep a person's pace while the person thinks: the window
/// asks to be woken when the next AI may act (the AIs once waited for the pointer to move,
/// over half a minute).
#[test]
fn the_ais_pace_wakes_the_window_while_the_person_thinks() {
    let mut h = three_against_the_ai();
    let session = h.state_mut().play.session.as_mut().unwrap();
    session.pace().unwrap().paused = false;
    // Each AI looks its tiles over for four letters' time before it lays any.
    session.pace().unwrap().letter_ms = Some(500);
    let pace = Duration::from_millis(4 * 500);
    // Frames until the window may sleep (an AI thinking is waited for: its answer would wake
    // the window itself); then what it asks for is the next AI's turn.
    let mut delay = Duration::ZERO;
    for _ in 0..200 {
        h.step();
        h.state_mut()
            .play
            .session
            .as_mut()
            .unwrap()
            .wait_for_ai(Duration::from_secs(60));
        delay = h.output().viewport_output[&egui::ViewportId::ROOT].repaint_delay;
        if !delay.is_zero() {
            break;
        }
    }
    assert!(
        !delay.is_zero() && delay <= pace,
        "the window sleeps {delay:?} with the AIs paced at {pace:?}"
    );
}

/// A rack shows every tile, however many: three players of the 120 tiles hold 20 each, and
/// all 20 are on the screen (it showed 17, the others cut off past the window's edge).
#[test]
fn a_rack_of_twenty_tiles_shows_every_tile() {
    let h = three_of(setup_of("Play Lexicon Crossing (120 tiles)"));
    let session = h.state().play.session.as_ref().unwrap();
    let held = session.game().rack_letters(Player::Gold).len();
    assert_eq!(held, 20, "three players of the 120 tiles start with 20");
    // The rack lies under the board, left of the side panel (where the round is told).
    let screen = h.ctx.content_rect();
    let side = h
        .get_by_label_contains("Round 1: everyone plays at once")
        .rect()
        .min
        .x;
    let coins: Vec<egui::Rect> = h
        .query_all_by_label_contains("Rack letter ")
        .map(|n| n.rect())
        .collect();
    assert_eq!(coins.len(), held, "a coin a tile");
    for coin in &coins {
        assert!(
            screen.contains_rect(*coin) && coin.max.x <= side,
            "a coin at {coin:?} is cut off (the side panel begins at {side})"
        );
    }
}

/// Against the AI with three players, the person may take any seat, the third among them
/// (the setup offered gold and silver only).
#[test]
fn the_person_may_play_any_of_three_seats() {
    let mut h = setup_of_98_tiles();
    three_players_against_the_ai(&mut h);
    // The third seat goes by the mode's name for it.
    h.get_by_label("bronze").click();
    h.run();
    let third = Player::seat(2).unwrap();
    assert_eq!(h.state().play.setup.human, third);
    h.get_by_label("Start game").click();
    h.run_steps(2);
    let session = h.state_mut().play.session.as_mut().expect("a game started");
    session.pace().unwrap().paused = true;
    session.wait_for_ai(Duration::from_secs(60));
    assert_eq!(session.seats.len(), 3);
    assert_eq!(session.viewer(), third, "the person's seat is the third");
    // Everywhere on the screen the seat goes by the mode's name, never its own word.
    h.run_steps(2);
    h.get_by_label("bronze's rack");
    assert!(
        h.query_by_label_contains("seat3").is_none(),
        "a label still says seat3"
    );
}

/// A crossword laid tile by tile is one line in the log, the latest (it was a line a tile).
#[test]
fn a_crossword_laid_tile_by_tile_is_one_log_line() {
    let mut h = three_against_the_ai();
    let session = h.state_mut().play.session.as_mut().unwrap();
    let mut helper = scryptic::ai::AiPlayer::new(scryptic::ai::Level::Normal, 1);
    let Some(Action::Layout { letters, .. }) = helper.choose_at_once(session.game(), Player::Gold)
    else {
        panic!("a crossword for gold's tiles");
    };
    for p in &letters {
        session.place(p.letter, p.at).unwrap();
    }
    let lines: Vec<&String> = session
        .log
        .iter()
        .filter(|l| l.starts_with("gold lays out"))
        .collect();
    assert_eq!(lines.len(), 1, "{:?}", session.log);
    assert!(
        lines[0].contains(&format!("of {} letters", letters.len())),
        "the latest: {}",
        lines[0]
    );
}

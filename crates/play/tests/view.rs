//! The play view on its own, headless: what it draws from a referee and what it sends to it.
//! The referee here is the engine itself, with no scripts (as a server would be), recording
//! every action the view hands it.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use scryptic_core::game::{Action, Game, RackItem};
use scryptic_core::lexicon::Lexicon;
use scryptic_core::{Map, Player, Pos};
use scryptic_play::{Heard, NextRound, OnlineMatch, Outcome, PlayView, Referee, Seat, Session};
use std::any::Any;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The engine as referee: actions played at once, each one recorded; or, online, only sent.
struct Recorder {
    game: Game,
    sent: Vec<Action>,
    online: Option<OnlineMatch>,
    refuse_with: Option<String>,
}

impl Referee for Recorder {
    fn game(&self) -> &Game {
        &self.game
    }

    fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        self.sent.push(action.clone());
        if let Some(why) = &self.refuse_with {
            return Err(why.clone());
        }
        if self.online.is_some() {
            return Ok(Outcome::Sent);
        }
        self.game
            .apply(action)
            .map(Outcome::Played)
            .map_err(|e| e.to_string())
    }

    fn moves_of(&self, player: Player) -> Vec<String> {
        self.game.legal_moves(player).unwrap_or_default()
    }

    fn poll(&mut self, _dialog_open: bool) -> Vec<Heard> {
        Vec::new()
    }

    fn next_round(&mut self) -> Result<NextRound, String> {
        Err("one round only".into())
    }

    fn grace_left(&self) -> Option<Duration> {
        None
    }

    fn online(&self) -> Option<OnlineMatch> {
        self.online.clone()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The classic duel on the shipped 24x24 map, seed 7, as the engine starts it.
fn classic_game() -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../maps/duel-24.ron");
    let map = Map::load(&path).unwrap();
    let rules = map.rule_set().unwrap();
    Game::new(&map, rules, Arc::new(Lexicon::english()), 7)
}

struct State {
    view: PlayView,
    session: Session,
}

fn harness(referee: Recorder, seats: Vec<Seat>) -> Harness<'static, State> {
    harness_sized(referee, seats, egui::vec2(1280.0, 800.0))
}

fn harness_sized(referee: Recorder, seats: Vec<Seat>, size: egui::Vec2) -> Harness<'static, State> {
    let session = Session::new(Box::new(referee), seats, "duel".into());
    let state = State {
        view: PlayView::default(),
        session,
    };
    let mut h = Harness::builder().with_size(size).build_ui_state(
        |ui, state: &mut State| {
            state.session.update();
            state.view.ui(ui, &mut state.session, None);
        },
        state,
    );
    h.run();
    h
}

fn recorder(online: Option<OnlineMatch>) -> Recorder {
    Recorder {
        game: classic_game(),
        sent: Vec::new(),
        online,
        refuse_with: None,
    }
}

fn sent(h: &Harness<'static, State>) -> Vec<Action> {
    let referee = h.state().session.referee().as_any();
    referee.downcast_ref::<Recorder>().unwrap().sent.clone()
}

/// The panel says whose turn it is; End turn hands the referee the action, and what it played
/// is drawn (the other side's turn).
#[test]
fn ending_a_turn_sends_the_action_and_shows_what_the_referee_played() {
    let mut h = harness(recorder(None), vec![Seat::Human, Seat::Human]);
    let first = h.state().session.game().to_act();
    let names = h.state().session.game().seat_names().clone();
    let turn = format!("Turn 1: {} to play", names.name(first));
    assert!(h.query_by_label(&turn).is_some(), "the panel says {turn}");
    h.state_mut().session.rack_hidden = false;
    h.run();
    h.get_by_label("End turn").click();
    h.run();
    assert_eq!(sent(&h), vec![Action::EndTurn]);
    let next = h.state().session.game().to_act();
    assert_ne!(next, first);
    let turn = format!("Turn 2: {} to play", names.name(next));
    assert!(h.query_by_label(&turn).is_some(), "the panel says {turn}");
}

/// A refusal from the referee is shown, and the game is as it was.
#[test]
fn a_refusal_is_shown_and_changes_nothing() {
    let mut referee = recorder(None);
    referee.refuse_with = Some("not now, says the referee".into());
    let mut h = harness(referee, vec![Seat::Human, Seat::Human]);
    h.state_mut().session.rack_hidden = false;
    h.run();
    let before = h.state().session.game().log().len();
    h.get_by_label("End turn").click();
    h.run();
    assert!(h.query_by_label("not now, says the referee").is_some());
    assert_eq!(h.state().session.game().log().len(), before);
}

/// Online, an action is sent and its answer awaited: the game does not move until the
/// referee shows it; a watcher is told every secret stays hidden.
#[test]
fn online_an_action_is_sent_and_a_watcher_is_told_so() {
    let online = OnlineMatch {
        address: "http://127.0.0.1:7878/matches/m1".into(),
        state: scryptic_protocol::MatchState::Playing,
        log_after_end: true,
        watching: false,
        reconnecting: false,
    };
    let mut h = harness(
        recorder(Some(online.clone())),
        vec![Seat::Human, Seat::Elsewhere],
    );
    assert!(
        h.query_by_label("Played on http://127.0.0.1:7878/matches/m1")
            .is_some()
    );
    let before = h.state().session.game().log().len();
    h.get_by_label("End turn").click();
    h.run();
    assert_eq!(sent(&h), vec![Action::EndTurn]);
    assert_eq!(
        h.state().session.game().log().len(),
        before,
        "nothing played here"
    );

    let watching = OnlineMatch {
        watching: true,
        ..online
    };
    let h = harness(
        recorder(Some(watching)),
        vec![Seat::Elsewhere, Seat::Elsewhere],
    );
    assert!(
        h.query_by_label("You are watching: every rack and secret stays hidden.")
            .is_some()
    );
}

/// A phone held upright (390x844) playing against a seat elsewhere, its rack shown.
fn phone() -> Harness<'static, State> {
    let mut h = harness_sized(
        recorder(None),
        vec![Seat::Human, Seat::Elsewhere],
        egui::vec2(390.0, 844.0),
    );
    h.state_mut().session.rack_hidden = false;
    h.run();
    h
}

/// On a phone held upright (390x844): the board, the rack and the game's panel all inside the
/// screen's width (nothing to zoom the page for), the buttons tall enough for a finger, and End
/// turn, tapped, sends its action.
#[test]
fn a_phone_sized_screen_has_everything_within_its_width_and_tappable() {
    let mut h = phone();
    let board = h.get_by_label(scryptic_play::board::BOARD_LABEL).rect();
    assert!(
        board.width() > 300.0 && board.height() > 250.0,
        "the board has room: {board:?}"
    );
    let end = h.get_by_label("End turn");
    let button = end.rect();
    assert!(
        button.max.x <= 390.0 && button.max.y <= 844.0 && button.height() >= 40.0,
        "on the screen and tappable: {button:?}"
    );
    assert!(button.min.y > board.max.y, "the panel is under the board");
    let coin = h.get_all_by_role(egui::accesskit::Role::Button).count();
    assert!(
        coin > 7,
        "the rack's coins and the panel's buttons are there"
    );
    end.click();
    h.run();
    assert_eq!(sent(&h), vec![Action::EndTurn]);
}

/// On a phone, letters laid from the rack leave the board where it was: the rack keeps its
/// height as its rows empty, so the next tap lands on the cell the finger aimed at.
#[test]
fn on_a_phone_the_board_stays_put_while_letters_are_laid() {
    let mut h = phone();
    let before = h.get_by_label(scryptic_play::board::BOARD_LABEL).rect();
    let me = h.state().session.game().to_act();
    let rack: Vec<char> = (h.state().session.game().rack_letters(me).chars()).collect();
    for (i, letter) in rack.iter().take(4).enumerate() {
        let at = Pos::new(2 + i as u32, 2);
        h.state_mut().session.place(*letter, at).unwrap();
        h.run();
    }
    let after = h.get_by_label(scryptic_play::board::BOARD_LABEL).rect();
    assert_eq!(before, after, "the board moved as the rack emptied");
}

/// A word laid from the keyboard alone: the first arrow puts the cursor on the board's middle
/// cell, an arrow along its line moves it, one across it turns it; letters typed are laid from
/// there on, Backspace takes the last back, and Escape takes the cursor away; keys that come
/// quicker than frames are taken in the order they came.
#[test]
fn the_arrow_keys_move_the_cursor_and_letters_typed_are_laid() {
    let mut h = harness(recorder(None), vec![Seat::Human, Seat::Human]);
    h.state_mut().session.rack_hidden = false;
    h.run();
    let me = h.state().session.game().to_act();
    let rack: String = (h.state().session.game().player(me).rack.iter())
        .filter_map(|item| match item {
            RackItem::Letter(c) => Some(*c),
            RackItem::Token { .. } => None,
        })
        .collect();
    let (w, hgt) = {
        let terrain = &h.state().session.game().board().terrain;
        (terrain.width(), terrain.height())
    };
    let (x, y) = (w / 2, hgt / 2);
    for key in [
        egui::Key::ArrowRight, // the cursor on the middle cell, across
        egui::Key::ArrowDown,  // turned down, not moved
        egui::Key::ArrowDown,  // a cell down
        egui::Key::ArrowLeft,  // turned across
        egui::Key::ArrowLeft,  // a cell left
    ] {
        h.key_press(key);
        h.run();
    }
    let mut letters = rack.chars().take(2);
    let (first, second) = (letters.next().unwrap(), letters.next().unwrap());
    h.event(egui::Event::Text(format!("{first}{second}")));
    h.run();
    let session = &h.state().session;
    let refused = session.refusal.clone();
    assert_eq!(
        session.placed_at(Pos::new(x - 1, y + 1)),
        Some(first),
        "laid at the cursor ({refused:?})"
    );
    assert_eq!(
        session.placed_at(Pos::new(x, y + 1)),
        Some(second),
        "and on across"
    );
    h.key_press(egui::Key::Backspace);
    h.run();
    assert_eq!(h.state().session.placed_at(Pos::new(x, y + 1)), None);
    h.key_press(egui::Key::Escape);
    h.run();
    h.event(egui::Event::Text(second.to_string()));
    h.run();
    assert_eq!(
        h.state().session.placed_at(Pos::new(x, y + 1)),
        None,
        "no cursor, nothing laid"
    );
    // Keys quicker than frames (all in one), taken in the order they came.
    let mut more = rack.chars().skip(2);
    let (third, fourth) = (more.next().unwrap(), more.next().unwrap());
    h.key_press(egui::Key::ArrowDown); // on the middle cell, down
    h.key_press(egui::Key::ArrowDown); // a cell down
    h.event(egui::Event::Text(third.to_string()));
    h.key_press(egui::Key::ArrowRight); // turned across
    h.event(egui::Event::Text(fourth.to_string()));
    h.run();
    let session = &h.state().session;
    assert_eq!(session.placed_at(Pos::new(x, y + 1)), Some(third));
    assert_eq!(session.placed_at(Pos::new(x, y + 2)), Some(fourth));
    // A cell clicked takes the cursor there, and the keyboard still types (the click gives the
    // board no focus that would keep the keys from it).
    h.get_by_label(scryptic_play::board::BOARD_LABEL).click();
    h.run();
    let fifth = rack.chars().nth(4).unwrap();
    h.event(egui::Event::Text(fifth.to_string()));
    h.run();
    assert_eq!(
        h.state().session.placed.len(),
        4,
        "laid where the click put the cursor"
    );
}

/// Ctrl+Enter (⌘+Enter on a Mac) ends the turn, as the End turn button does (its hover text
/// says so); Enter with nothing laid does nothing.
#[test]
fn ctrl_enter_ends_the_turn() {
    let mut h = harness(recorder(None), vec![Seat::Human, Seat::Human]);
    h.state_mut().session.rack_hidden = false;
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(sent(&h), Vec::new());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Enter);
    h.run();
    assert_eq!(sent(&h), vec![Action::EndTurn]);
}

//! The play view over a seat on a real server, drawn headless, for the modes whose keys are
//! their own: a Scryper move typed as the terminal writes it (`/`, the move, Enter) and played
//! on the server; a Lexicon Crossing letter typed into the seat's own region, laid out on the
//! server as the crossword it starts.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

mod common;

use common::{join, next_wake, seat_against_the_ai, server};
use egui_kittest::Harness;
use scryptic_core::{Player, Pos};
use scryptic_play::{PlayView, Session};
use std::sync::mpsc::Receiver;

struct State {
    view: PlayView,
    session: Session,
}

/// The play view over `session`, on a screen of 1280x800 points.
fn harness(session: Session) -> Harness<'static, State> {
    let state = State {
        view: PlayView::default(),
        session,
    };
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, state: &mut State| {
                state.session.update();
                state.view.ui(ui, &mut state.session, None);
            },
            state,
        )
}

/// Runs frames as the server's frames come until `done` holds.
fn until(
    h: &mut Harness<'static, State>,
    woken: &Receiver<()>,
    what: &str,
    done: impl Fn(&Session) -> bool,
) {
    h.run();
    while !done(&h.state().session) {
        next_wake(woken, what);
        h.run();
    }
}

/// Scryper from the keyboard: `/` takes the keyboard to the move field, the move typed as the
/// terminal writes it, and Enter plays it on the server; a move that is not one of the seat's
/// is refused with the moves there are, and nothing is sent.
#[test]
fn a_scryper_move_is_typed_and_played() {
    let (server, _dir) = server();
    let base = format!("http://{}", server.addr);
    let address = seat_against_the_ai(&base, "scryper", &[("per_set", "1")], "white", "brown", 4);
    let (seat, woken) = join(address);
    let session = Session::one_seat(Box::new(seat), Some(Player::Gold), "scryper".into());
    let mut h = harness(session);
    until(&mut h, &woken, "white's moves", |s| {
        !s.moves_of(Player::Gold).is_empty()
    });
    let moves = h.state().session.moves_of(Player::Gold);
    let field = moves
        .iter()
        .find(|m| m.starts_with("field"))
        .unwrap()
        .clone();
    h.event(egui::Event::Text("/".into()));
    h.run();
    h.event(egui::Event::Text("no such move".into()));
    h.key_press(egui::Key::Enter);
    h.run();
    let refused = h.state().session.refusal.clone().unwrap_or_default();
    assert!(
        refused.contains("is not one of your moves") && refused.contains(&field),
        "{refused}"
    );
    // The field kept the keyboard: the move is typed (in lower case, as a person might).
    for _ in 0.."no such move".len() {
        h.key_press(egui::Key::Backspace);
    }
    h.event(egui::Event::Text(field.to_lowercase()));
    h.key_press(egui::Key::Enter);
    until(&mut h, &woken, "the brick fielded", |s| {
        s.game()
            .table_for(Some(Player::Gold))
            .pieces()
            .iter()
            .any(|p| {
                p.owner == Player::Gold && matches!(p.place, scryptic_core::game::Place::Cell(_))
            })
    });
}

/// Lexicon Crossing from the keyboard: the first arrow puts the cursor in the seat's own
/// region, and a letter typed there is laid out on the server as the crossword it starts.
#[test]
fn a_lexicon_crossing_letter_is_typed_into_the_own_region() {
    let (server, _dir) = server();
    let base = format!("http://{}", server.addr);
    let address = seat_against_the_ai(&base, "lexicon-crossing", &[], "gold", "silver", 4);
    let (seat, woken) = join(address);
    let session = Session::one_seat(Box::new(seat), Some(Player::Gold), "lc".into());
    let mut h = harness(session);
    until(&mut h, &woken, "gold's tiles", |s| {
        !s.game().rack_letters(Player::Gold).is_empty()
    });
    let (low, high) = h
        .state()
        .session
        .game()
        .own_region_bounds(Player::Gold)
        .unwrap();
    let middle = Pos::new(low.x.midpoint(high.x), low.y.midpoint(high.y));
    let letter = h
        .state()
        .session
        .game()
        .rack_letters(Player::Gold)
        .chars()
        .next()
        .unwrap();
    h.key_press(egui::Key::ArrowRight);
    h.event(egui::Event::Text(letter.to_string()));
    until(&mut h, &woken, "the letter laid out", |s| {
        s.game()
            .laid_letters(Player::Gold)
            .iter()
            .any(|p| p.at == middle && p.letter == letter)
    });
}

//! Scryper in the editor, headless: two people at one screen from the Packs screen, each
//! making their secret set-up (bricks dragged from their pit onto the board, or the moves'
//! buttons) and seeing only their own values, then bricks moved by their cells and dragged.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click_label, harness, press, root};
use egui_kittest::kittest::Queryable;
use scryptic::Pos;
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;

#[test]
fn two_people_make_their_secret_set_ups_and_see_only_their_own_values() {
    let mut h = scryper_setup();
    h.get_by_label("Start game").click();
    h.run();
    // Two people share the screen: each side stays covered until its player is at it.
    h.get_by_label("white's side is hidden until white is at the screen.");
    click_label(&mut h, "Show white's side");
    h.get_by_label_contains("white and brown choose in secret");
    h.get_by_label("white: 0 on the board");
    // White's pit is a tray of sixteen bricks, every value in sight; brown's shows none.
    assert_eq!(h.query_all_by_label("white's brick 4").count(), 4);
    assert_eq!(h.query_all_by_label("brown's brick ?").count(), 16);
    // A 4 dragged from the tray onto A8 fields it there.
    let four = h
        .query_all_by_label("white's brick 4")
        .next()
        .unwrap()
        .rect()
        .center();
    drag_to_cell(&mut h, four, Pos::new(0, 7));
    assert_eq!(h.query_all_by_label("white's brick 4").count(), 3);
    click_label(&mut h, "ready");
    // Brown's turn to choose: white's choice is not on brown's screen.
    click_label(&mut h, "Show brown's side");
    h.get_by_label("brown's moves");
    assert_eq!(h.query_all_by_label("white's brick ?").count(), 16);
    assert_eq!(h.query_all_by_label("brown's brick 1").count(), 4);
    click_label(&mut h, "field 1 F1");
    click_label(&mut h, "ready");
    click_label(&mut h, "Show white's side");
    h.get_by_label("white to move");
    h.get_by_label("white's moves");
    h.get_by_label("brown: 1 on the board");
    assert_eq!(h.query_all_by_label("brown's brick ?").count(), 15);
    // A brick is moved on the board: its cell, then where it goes.
    click_cell(&mut h, Pos::new(0, 7));
    h.get_by_label_contains("white's moves with A8");
    assert!(
        h.query_by_label("D8-D7").is_none(),
        "only A8's moves are offered"
    );
    click_cell(&mut h, Pos::new(0, 5));
    h.get_by_label("brown's side is hidden until brown is at the screen.");
    click_label(&mut h, "Show brown's side");
    h.get_by_label("brown to move");
    let game = h.state().play.session.as_ref().unwrap().game();
    assert_eq!(game.table().rows()[5], "g4 . . . . .");
    // Brown drags the brick on F1 two steps down the board (the pointer is over F2 by the
    // time the drag is told from a click: the drag is the brick's where the button went down).
    let f1 = h
        .state()
        .play
        .view
        .board
        .cell_centre(Pos::new(5, 0))
        .unwrap();
    drag_to_cell(&mut h, f1, Pos::new(5, 2));
    let game = h.state().play.session.as_ref().unwrap().game();
    assert_eq!(game.table().rows()[2], ". . . . . s1");
    h.get_by_label("white's side is hidden until white is at the screen.");
}

/// A drag from `from` to the centre of `cell` on the play board, the pointer moving through
/// frames as a hand does.
fn drag_to_cell(h: &mut egui_kittest::Harness<'_, EditorApp>, from: egui::Pos2, cell: Pos) {
    let to = h.state().play.view.board.cell_centre(cell).unwrap();
    press(h, from, true, egui::Modifiers::NONE);
    for step in 1..=2 {
        let at = from + (to - from) * (step as f32 / 2.0);
        h.event(egui::Event::PointerMoved(at));
        h.run();
    }
    press(h, to, false, egui::Modifiers::NONE);
}

/// Clicks `cell` of the play board: pressed and released in one frame (held over several, a
/// press is a long one, not a click).
fn click_cell(h: &mut egui_kittest::Harness<'_, EditorApp>, cell: Pos) {
    let at = h.state().play.view.board.cell_centre(cell).unwrap();
    h.event(egui::Event::PointerMoved(at));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    h.run();
}

/// The Setup screen names the mode's seats and leaves out what a scripted game does not use.
#[test]
fn the_setup_screen_names_white_and_brown() {
    let mut h = scryper_setup();
    h.get_by_label("Hide each player's side between turns");
    assert!(h.query_by_label("Word list").is_none());
    click_label(&mut h, "Against the AI");
    h.get_by_label("white (moves first)");
    h.get_by_label("brown");
    click_label(&mut h, "AI against AI");
    h.get_by_label("White AI");
    h.get_by_label("Brown AI");
}

/// A match of two Scryper games between two people: when the first ends the panel shows the
/// totals and "Next round", which starts the second with the loser to begin.
#[test]
fn a_match_goes_on_to_the_next_game_with_the_loser_first() {
    use scryptic::save::SettingValue::Int;
    let mut h = scryper_setup();
    h.state_mut().play.setup.settings = [("games", 2), ("sets_to_win", 1), ("of_each", 1)]
        .map(|(id, v)| (id.to_string(), Int(v)))
        .to_vec();
    h.run();
    h.get_by_label("Start game").click();
    h.run();
    let message = h.state().play.message.clone();
    assert!(h.state().play.session.is_some(), "{message:?}");
    // Both people play their first legal move every time, straight to the game's end.
    let session = h.state_mut().play.session.as_mut().unwrap();
    for _ in 0..2000 {
        if session.game().result().is_some() {
            break;
        }
        let player = session.game().choosing()[0];
        let mv = session.game().legal_moves(player).unwrap()[0].clone();
        session.act(scryptic::game::Action::Move { player, mv });
    }
    let winner = session.game().result().unwrap().winner.unwrap();
    h.run();
    h.get_by_label_contains("round 1 of 2");
    click_label(&mut h, "Next round");
    let game = h.state().play.session.as_ref().unwrap().game();
    assert!(game.result().is_none(), "the second game is under way");
    assert_ne!(
        game.table().first(),
        winner,
        "the loser starts the next game"
    );
    assert_eq!(
        game.rounds_with_this().len(),
        1,
        "the first game is on the record"
    );
}

/// The editor at the Setup screen of Scryper, opened from the Packs screen.
fn scryper_setup() -> egui_kittest::Harness<'static, EditorApp> {
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Packs;
    h.run();
    h.state_mut().packs.open_path = root().join("packs/scryper").display().to_string();
    click_label(&mut h, "Open");
    click_label(&mut h, "Play Scryper");
    h
}

/// An attack is made on the board as any move is: the attacker's cell, then the attacked
/// brick's (a click on each, or a drag), though its text joins the cells with an `x`
/// (`C6xC5`; the board once answered "no move of yours brings that piece to C5").
#[test]
fn an_attack_is_made_by_its_cells_on_the_board() {
    use scryptic::game::Action;
    let mut h = scryper_setup();
    h.state_mut().play.setup.seed = 1;
    h.get_by_label("Start game").click();
    h.run();
    let session = h.state_mut().play.session.as_mut().unwrap();
    // The set-ups and moves of the pack's own battle scenario, up to white's attack.
    for mv in [
        "white field 1 C8",
        "white field 3 D8",
        "white field 4 E8",
        "white ready",
        "brown field 4 C1",
        "brown field 3 D1",
        "brown field 2 E1",
        "brown ready",
        "white C8-C6",
        "brown C1-C3",
        "white D8-D6",
        "brown C3-C5",
    ] {
        let (seat, mv) = mv.split_once(' ').unwrap();
        let player = scryptic::Player::seat(if seat == "white" { 0 } else { 1 }).unwrap();
        session.act(Action::Move {
            player,
            mv: mv.into(),
        });
        assert!(session.refusal.is_none(), "{mv}: {:?}", session.refusal);
    }
    assert!(session.offered_moves().iter().any(|m| m == "C6xC5"));
    let (c6, c5) = (Pos::new(2, 5), Pos::new(2, 4));
    session.pick_cell(c6);
    assert!(
        session.offered_moves().iter().any(|m| m == "C6xC5"),
        "the attack is among the picked brick's moves: {:?}",
        session.offered_moves()
    );
    session.pick_cell(c5);
    assert!(session.refusal.is_none(), "{:?}", session.refusal);
    assert_eq!(
        session.game().table().rows()[4],
        ". . g1 . . .",
        "white's 1 took brown's 4 at C5"
    );
    // The side panel tells the battle in its log, under a heading that does not wrap.
    session.rack_hidden = false;
    h.run();
    h.get_by_label_contains("white's 1 beats brown's 4 at C5");
    h.get_by_label("brown to move");
}

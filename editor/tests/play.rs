//! Play mode driven through its UI, headless: a whole game on the tutorial map (letters dragged
//! from the rack to the board, words committed, attacks made through the combat dialog, the
//! end of the game), and a script saved during play changing what it does.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{click_label, harness, press, root, type_into};
use egui::{Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use scryptic::ai::{AiPlayer, Level, Think};
use scryptic::game::{Action, Game};
use scryptic::{Player, Pos};
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::rack::rack_label;
use scryptic_editor::play::session::{CombatStage, Session};
use scryptic_editor::play::{EditorSession, LocalSeat};
use std::path::{Path, PathBuf};
use std::time::Duration;

type H = Harness<'static, EditorApp>;

fn session(h: &H) -> &Session {
    h.state().play.session.as_ref().expect("a game is running")
}

fn game(h: &H) -> &Game {
    session(h).game()
}

/// Opens Play mode and starts a game from the Setup screen: the source (`A map file`, `A level
/// folder`), its path, and who plays (`Hot-seat`, `Against the AI`).
fn start_from(source: &str, path: &Path, players: &str) -> H {
    let mut h = set_up_from(source, path, players);
    click_label(&mut h, "Start game");
    assert!(
        h.state().play.session.is_some(),
        "the game started: {:?}",
        h.state().play.message
    );
    h
}

/// The Setup screen with the source, its path and who plays chosen, before Start game.
fn set_up_from(source: &str, path: &Path, players: &str) -> H {
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Play;
    h.run();
    click_label(&mut h, source);
    type_into(&mut h, "Path", &path.display().to_string());
    click_label(&mut h, players);
    h
}

/// Gold ends the turn and the AI playing silver answers on its thread: gold is to act again.
fn end_turn_for_the_ai(h: &mut H) {
    click_label(h, "End turn");
    h.state_mut()
        .play
        .session
        .as_mut()
        .unwrap()
        .wait_for_ai(Duration::from_secs(300));
    h.run();
    assert_eq!(game(h).to_act(), Player::Gold, "the AI played its turn");
}

/// A hot-seat game on the map file `map`.
fn start_hot_seat(map: &Path) -> H {
    start_from("A map file", map, "Hot-seat")
}

/// Shows the rack of the player to move when hot-seat play covers it.
fn uncover(h: &mut H) {
    if session(h).rack_hidden {
        let player = session(h).viewer();
        click_label(h, &format!("Show {player}'s letters"));
    }
}

fn centre(h: &H, cell: Pos) -> Pos2 {
    h.state().play.view.board.cell_centre(cell).unwrap()
}

/// Drags the first rack coin of `letter` onto `cell`.
fn drag_letter(h: &mut H, letter: char, cell: Pos) {
    let from = h
        .get_all_by_label(&rack_label(letter))
        .next()
        .unwrap_or_else(|| panic!("no {letter} on the rack"))
        .rect()
        .center();
    let to = centre(h, cell);
    press(h, from, true, Modifiers::NONE);
    for step in 1..=4 {
        let p = from + (to - from) * (step as f32 / 4.0);
        h.event(egui::Event::PointerMoved(p));
        h.run();
    }
    press(h, to, false, Modifiers::NONE);
}

/// Answers whatever combat dialog is open; returns how many attacks were made through it.
/// The board stays where it was drawn before the action (`board`) while the dialog is open.
fn settle_dialogs(h: &mut H, board: Option<egui::Rect>) -> usize {
    let mut attacks = 0;
    while let Some(stage) = session(h).combat.clone() {
        assert_docked_beside_the_board(h);
        assert_eq!(
            h.state().play.view.board.last_rect(),
            board,
            "the board moved when the fight's dialog opened"
        );
        match stage {
            CombatStage::Preview { .. } => {
                click_label(h, "Attack");
                attacks += 1;
            }
            CombatStage::Order { .. } => click_label(h, "Defend in this order"),
            CombatStage::Resolution { steps, shown } => click_label(
                h,
                if shown < steps.len() {
                    "Next step"
                } else {
                    "Close"
                },
            ),
        }
    }
    attacks
}

/// The combat dialog is beside the board, not over it: its buttons lie outside the board.
fn assert_docked_beside_the_board(h: &H) {
    let board = h.state().play.view.board.last_rect().unwrap();
    for label in ["Attack", "Defend in this order", "Next step", "Close"] {
        if let Some(button) = h.query_by_label(label) {
            assert!(
                !board.intersects(button.rect()),
                "{label} at {:?} covers the board at {board:?}",
                button.rect()
            );
        }
    }
}

/// Carries out `action` through the UI; returns the attacks made.
fn act_through_ui(h: &mut H, action: &Action) -> usize {
    uncover(h);
    let board = h.state().play.view.board.last_rect();
    match action {
        Action::Commit { letters } => {
            for p in letters {
                drag_letter(h, p.letter, p.at);
            }
            assert_eq!(
                session(h).placed.len(),
                letters.len(),
                "every dragged letter landed: {:?}",
                session(h).refusal
            );
            click_label(h, "Commit");
        }
        Action::EndTurn => click_label(h, "End turn"),
        Action::Discard { letters } => {
            let letters: Vec<char> = letters.chars().collect();
            for (i, &letter) in letters.iter().enumerate() {
                let already = letters[..i].iter().filter(|&&c| c == letter).count();
                h.get_all_by_label(&rack_label(letter))
                    .nth(already)
                    .expect("the letter to discard is on the rack")
                    .click();
                h.run();
            }
            click_label(h, "Discard");
        }
        Action::Redeploy { word } => {
            let text = game(h)
                .words()
                .into_iter()
                .find(|w| w.word.key == *word)
                .map(|w| w.word.text)
                .unwrap();
            click_label(h, "Redeploy a word");
            click_label(h, &format!("Lift {text}"));
        }
        Action::Invoke { token } => {
            let kind = game(h)
                .board()
                .tokens
                .iter()
                .find(|t| *t.id == **token)
                .map(|t| t.kind.clone())
                .unwrap();
            click_label(h, &format!("Invoke {kind}"));
        }
        Action::Defend { .. } => {}
        other => panic!("the AI chose {other:?}, which the test does not play"),
    }
    let attacks = settle_dialogs(h, board);
    // The rack's panel never gives back height it took this game: the board never grows as
    // tiles or messages come and go below it (it jumped).
    let (before, after) = (
        board.unwrap(),
        h.state().play.view.board.last_rect().unwrap(),
    );
    assert!(
        after.height() <= before.height(),
        "the board grew from {before:?} to {after:?}"
    );
    attacks
}

#[test]
fn a_whole_hot_seat_game_on_the_tutorial_map_through_the_ui() {
    let mut h = start_hot_seat(&root().join("maps/tutorial.ron"));
    // The moves are chosen by the runtime's AI, for both sides; every one is made by hand.
    let mut choosers = [
        AiPlayer::new(Level::Normal, 11),
        AiPlayer::new(Level::Normal, 12),
    ];
    let mut attacks = 0;
    let mut commits = 0;
    for _ in 0..400 {
        if game(&h).result().is_some() {
            break;
        }
        let seat = usize::from(game(&h).to_act() == Player::Silver);
        let action = choosers[seat].choose(game(&h));
        let before = game(&h).log().len();
        commits += usize::from(matches!(action, Action::Commit { .. }));
        attacks += act_through_ui(&mut h, &action);
        assert!(
            game(&h).log().len() > before,
            "{action:?} was carried out: {:?}",
            session(&h).refusal
        );
    }
    let result = game(&h).result().cloned().expect("the game ended");
    assert!(commits >= 10, "{commits} words committed");
    assert!(attacks >= 1, "at least one attack went through the dialog");
    assert!(
        h.query_by_label_contains("Game over").is_some(),
        "the end is shown"
    );
    if let Some(winner) = result.winner {
        let stats = &h.state().play.statistics;
        assert!(stats.games_won >= 1);
        assert!(stats.best_word.is_some());
        let best = stats.best_game.as_ref().unwrap();
        assert!(best.score >= game(&h).score(winner).total || best.map != "Tutorial: First Words");
    }
}

#[test]
fn a_script_saved_during_play_changes_what_it_does_and_a_broken_one_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let map_text = std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap();
    let map_text = map_text.replace(
        "    rules: (",
        "    scripts: [\"bonus.lua\"],\n    rules: (",
    );
    let map = dir.path().join("level.ron");
    std::fs::write(&map, map_text).unwrap();
    let script = dir.path().join("bonus.lua");
    let version = |points: u32| {
        format!("scryptic.on(\"turn_end\", function(game, e) game:award(e.player, {points}) end)\n")
    };
    std::fs::write(&script, version(5)).unwrap();
    let mut h = start_hot_seat(&map);
    uncover(&mut h);
    click_label(&mut h, "End turn");
    assert_eq!(game(&h).score(Player::Gold).base, 5);

    std::fs::write(&script, version(50)).unwrap();
    wait_for_notice(&mut h, "was reloaded");
    assert!(
        h.query_by_label_contains("bonus.lua was reloaded")
            .is_some()
    );
    uncover(&mut h);
    click_label(&mut h, "End turn");
    assert_eq!(
        game(&h).score(Player::Silver).base,
        50,
        "the new script ran"
    );

    std::fs::write(&script, "scryptic.on(\"turn_end\", function(").unwrap();
    wait_for_notice(&mut h, "did not reload");
    uncover(&mut h);
    let excess = session(&h).excess();
    if excess > 0 {
        let letters: String = session(&h).rack_left(Player::Gold)[..excess]
            .iter()
            .collect();
        act_through_ui(&mut h, &Action::Discard { letters });
    }
    click_label(&mut h, "End turn");
    assert_eq!(
        game(&h).score(Player::Gold).base,
        55,
        "the game went on with the last good script"
    );
    assert!(
        session(&h)
            .console
            .iter()
            .any(|l| l.contains("did not reload"))
    );
}

/// Runs frames until the live-modding notice contains `text` (the watcher reports within a
/// fraction of a second).
fn wait_for_notice(h: &mut H, text: &str) {
    for _ in 0..200 {
        h.run();
        if session(h)
            .notice
            .as_deref()
            .is_some_and(|n| n.contains(text))
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!("no notice with `{text}`: {:?}", session(h).notice);
}

#[test]
fn the_balance_panel_simulates_the_open_map_plots_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = harness(EditorApp::new(Some(&root().join("maps/tutorial.ron"))));
    h.state_mut().mode = Mode::Balance;
    h.run();
    for node in h.get_all_by_label("easy") {
        node.click();
    }
    h.run();
    assert_eq!(h.state().balance.levels, [Level::Easy, Level::Easy]);
    h.get_by_label("Games").set_value_accesskit(4.0);
    h.run();
    click_label(&mut h, "Run simulation");
    assert!(h.state().balance.is_running());
    assert!(
        h.query_by_label_contains("of 4 games").is_some(),
        "the progress bar"
    );
    h.state_mut().balance.wait(Duration::from_secs(600));
    h.run();
    let report = h.state().balance.report.clone().expect("the run finished");
    assert_eq!(report.games, 4);
    assert!(
        h.query_by_label("Win rate per seat (95% interval)")
            .is_some()
    );
    assert!(h.query_by_label("Final scores").is_some());
    assert!(h.query_by_label("Game length (turns)").is_some());
    let out = dir.path().join("tutorial-balance.json");
    type_into(&mut h, "Export to", &out.display().to_string());
    click_label(&mut h, "Export");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 4);
    let csv = std::fs::read_to_string(out.with_extension("csv")).unwrap();
    assert_eq!(csv.lines().count(), 5, "a header and a row per game");
}

/// The Balance panel plays the open map as it is played, its scripts taking part, and says
/// which: a script beside the map that pays silver for every word shows in silver's scores.
#[test]
fn the_balance_panel_plays_the_maps_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let map = std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap();
    let with_script =
        map.trim_end().strip_suffix(')').unwrap().to_string() + "    scripts: [\"pay.lua\"],\n)\n";
    std::fs::write(dir.path().join("paid.ron"), with_script).unwrap();
    std::fs::write(
        dir.path().join("pay.lua"),
        "scryptic.on(\"word_committed\", function(game, event) game:award(\"silver\", 40) end)\n",
    )
    .unwrap();
    let mut h = harness(EditorApp::new(Some(&dir.path().join("paid.ron"))));
    h.state_mut().mode = Mode::Balance;
    h.run();
    h.get_by_label("Games").set_value_accesskit(2.0);
    h.run();
    click_label(&mut h, "Run simulation");
    h.state_mut().balance.wait(Duration::from_secs(600));
    h.run();
    let report = h.state().balance.report.clone().expect("the run finished");
    assert!(
        report.average_scores[1] >= 40.0,
        "silver is paid for words: {:?}",
        report.average_scores
    );
    assert!(
        h.query_by_label_contains("Scripts taking part: ").is_some(),
        "the panel says which scripts took part"
    );
    assert!(h.state().balance.taking_part[0].ends_with("pay.lua"));
}

/// The Balance panel's tuning: a constant searched over its range with the games above for
/// each value, a progress bar while it runs, then every value's advantage plotted and the one
/// closest to even named.
#[test]
fn the_balance_panel_tunes_a_constant_and_plots_the_advantage() {
    let mut h = tuning_on_the_tutorial();
    h.get_by_label("Values at most").set_value_accesskit(3.0);
    h.get_by_label("to").set_value_accesskit(40.0);
    h.run();
    click_label(&mut h, "Tune");
    assert!(h.state().balance.tune.is_running());
    assert!(
        h.query_by_label_contains("games, ").is_some(),
        "the progress bar"
    );
    h.state_mut().balance.tune.wait(Duration::from_secs(600));
    h.run();
    let tune = &h.state().balance.tune;
    let values: Vec<&str> = tune.steps.iter().map(|s| s.value.as_str()).collect();
    assert_eq!(&values[..2], ["0", "40"], "both ends first");
    assert!(values.len() <= 3);
    assert!(tune.steps.iter().all(|s| s.advantage.games == 4));
    let said = tune.message.clone().unwrap_or_default();
    assert!(
        said.starts_with("closest to even: capture.city_capture_bonus = "),
        "{said}"
    );
    h.get_by_label_contains("First player's advantage");
}

/// The Balance mode on the tutorial map, easy against easy, four games a value.
fn tuning_on_the_tutorial() -> H {
    let mut h = harness(EditorApp::new(Some(&root().join("maps/tutorial.ron"))));
    h.state_mut().mode = Mode::Balance;
    h.run();
    for node in h.get_all_by_label("easy") {
        node.click();
    }
    h.get_by_label("Games").set_value_accesskit(4.0);
    h.run();
    h
}

/// The tuning's list of what to search offers each of the map's cities' own capture bonus.
#[test]
fn the_balance_panel_tunes_a_city_bonus() {
    let mut h = tuning_on_the_tutorial();
    h.get_by_label("Values at most").set_value_accesskit(2.0);
    h.get_by_label("to").set_value_accesskit(60.0);
    h.run();
    click_label(&mut h, "Constant");
    click_label(&mut h, "city.riverside.bonus");
    click_label(&mut h, "Tune");
    h.state_mut().balance.tune.wait(Duration::from_secs(600));
    h.run();
    let tune = &h.state().balance.tune;
    let values: Vec<&str> = tune.steps.iter().map(|s| s.value.as_str()).collect();
    assert_eq!(values, ["0", "60"]);
    let said = tune.message.clone().unwrap_or_default();
    assert!(
        said.starts_with("closest to even: city.riverside.bonus = "),
        "{said}"
    );
}

/// The strongest first word for the player to move, found by the spy's measure.
fn first_word(h: &H) -> Vec<scryptic::game::Placement> {
    let mut ai = AiPlayer::new(Level::Normal, 5);
    match ai.choose(game(h)) {
        Action::Commit { letters } => letters,
        other => panic!("expected a word, the AI chose {other:?}"),
    }
}

/// The Spy button lays the strongest placement of the rack on the board, uncommitted, and
/// uses one of the player's spies: the spy's own search, through the game the editor started
/// from its scripts (whose strengths no script modifies, so the bounded search answers).
#[test]
fn the_spy_lays_the_strongest_placement_on_the_board() {
    let mut h = start_hot_seat(&root().join("maps/tutorial.ron"));
    uncover(&mut h);
    let player = game(&h).active();
    let spies = game(&h).spies_left(player);
    let mut generator = scryptic::ai::MoveGen::new();
    let expected = scryptic::ai::spy::strongest(
        &mut generator,
        game(&h),
        player,
        &game(&h).rack_letters(player),
    )
    .expect("a placement")
    .placements();
    assert!(!game(&h).has_strength_modifiers());
    click_label(&mut h, &format!("Spy ({spies} left)"));
    assert_eq!(game(&h).spies_left(player), spies - 1, "a spy was used");
    assert_eq!(session(&h).placed, expected, "laid on the board");
    assert!(
        game(&h).board().letters.cells().iter().all(Option::is_none),
        "not committed"
    );
}

#[test]
fn undo_save_and_load_a_game_through_the_ui() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = start_hot_seat(&root().join("maps/tutorial.ron"));
    let word = first_word(&h);
    act_through_ui(
        &mut h,
        &Action::Commit {
            letters: word.clone(),
        },
    );
    assert_eq!(game(&h).log().len(), 1);
    let rack_after = game(&h).rack_letters(Player::Gold);
    click_label(&mut h, "Undo last action");
    assert!(game(&h).log().is_empty(), "the commit was taken back");
    assert!(game(&h).board().letters.cells().iter().all(Option::is_none));
    act_through_ui(&mut h, &Action::Commit { letters: word });
    assert_eq!(
        game(&h).rack_letters(Player::Gold),
        rack_after,
        "the same game again"
    );
    click_label(&mut h, "End turn");

    let path = dir.path().join("game.ron");
    click_label(&mut h, "Save game...");
    type_into(&mut h, "Game file", &path.display().to_string());
    click_label(&mut h, "Save");
    assert!(path.is_file(), "{:?}", h.state().play.message);
    let log = game(&h).log().to_vec();

    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Play;
    h.run();
    // The Setup screen's choice about covering racks holds for a loaded game too.
    click_label(&mut h, "Hide the racks between turns");
    click_label(&mut h, "Load game...");
    type_into(&mut h, "Game file", &path.display().to_string());
    click_label(&mut h, "Load");
    assert_eq!(
        game(&h).log(),
        log.as_slice(),
        "{:?}",
        h.state().play.message
    );
    assert_eq!(game(&h).to_act(), Player::Silver);
    assert!(
        !session(&h).rack_hidden,
        "racks left uncovered, as the Setup screen said"
    );
    // Saved in a folder of its own, away from the map's, the game still shows the map's
    // tileset (it was named from the map's folder, and the board fell back to flat colours).
    assert!(
        h.state().play.view.board.textures().is_some(),
        "the loaded game's board has its tileset"
    );
}

#[test]
fn a_shared_level_folder_plays_with_its_rules_and_word_lists() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level");
    std::fs::create_dir_all(level.join("connotations")).unwrap();
    std::fs::copy(root().join("maps/tutorial.ron"), level.join("a-map.ron")).unwrap();
    std::fs::write(
        level.join("rules.ron"),
        "(version: 1, preset: \"classic\", overrides: (turn: (rack_limit: 12)))\n",
    )
    .unwrap();
    std::fs::write(level.join("connotations/frosty.txt"), "glacier\n").unwrap();
    let h = start_from("A level folder", &level, "Hot-seat");
    let message = h.state().play.message.clone();
    let game = game(&h);
    assert_eq!(game.rules().turn.rack_limit, 12, "{message:?}");
    assert!(
        game.log()
            .iter()
            .any(|a| matches!(a, Action::ReloadConnotations { list, .. } if list == "frosty")),
        "the level's list is played with"
    );
    assert!(session(&h).here().unwrap().live.is_watching());
}

#[test]
fn against_the_ai_it_answers_on_its_own_thread() {
    let map = root().join("maps/tutorial.ron");
    let mut h = start_from("A map file", &map, "Against the AI");
    assert!(!session(&h).rack_hidden, "no cover against the AI");
    end_turn_for_the_ai(&mut h);
    assert!(game(&h).log().len() >= 2);
}

/// The Setup screen says what the hard AI does and offers it a think time, which the AI's
/// seat then has; it still answers on its own thread.
#[test]
fn the_hard_ai_thinks_for_the_time_the_setup_gives_it() {
    let map = root().join("maps/tutorial.ron");
    let mut h = set_up_from("A map file", &map, "Against the AI");
    assert!(
        h.query_by_label("1 s").is_none(),
        "no think time below the hard level"
    );
    // Each level says what it does when the pointer rests on it.
    h.get_by_label("hard").hover();
    h.run();
    assert!(h.query_by_label_contains("presses an attack").is_some());
    click_label(&mut h, "hard");
    click_label(&mut h, "1 s");
    click_label(&mut h, "Start game");
    let one_second = Think::Time(Duration::from_secs(1));
    assert_eq!(
        session(&h).here().unwrap().seats[Player::Silver.index()],
        LocalSeat::Ai(Level::Hard, one_second)
    );
    assert!(h.query_by_label_contains("AI hard, think 1s").is_some());
    end_turn_for_the_ai(&mut h);
}

/// A saved game loaded back brings its event log: what happened before the save is there.
#[test]
fn the_event_log_survives_saving_and_loading_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("g.ron");
    let mut h = start_hot_seat(&root().join("maps/tutorial.ron"));
    for _ in 0..3 {
        h.state_mut().play.session.as_mut().unwrap().end_turn();
        h.run();
    }
    let before = session(&h).log.clone();
    let turn = session(&h).game().turn();
    assert!(before.len() >= 3, "{before:?}");
    scryptic_editor::play::referee::save_session(session(&h), &save).unwrap();
    let ctx = h.ctx.clone();
    h.state_mut()
        .play
        .load_game(&ctx, &save.display().to_string());
    h.run();
    assert_eq!(session(&h).game().turn(), turn);
    let after = &session(&h).log;
    for line in &before {
        assert!(
            after.contains(line),
            "`{line}` is gone after loading: {after:?}"
        );
    }
}

/// Play names cells as its notation does (A1), in its refusals as on the status bar.
#[test]
fn play_names_cells_in_one_style() {
    let mut h = start_hot_seat(&root().join("maps/tutorial.ron"));
    uncover(&mut h);
    let far = Pos::new(30, 4);
    let refused = h
        .state_mut()
        .play
        .session
        .as_mut()
        .unwrap()
        .place('E', far)
        .unwrap_err();
    assert_eq!(refused, "AE5 is off the board");
}

/// A hot-seat game, racks uncovered, on `map` open in the editor (its rules as set in it).
fn hot_seat_on_the_open(map: scryptic::Map) -> H {
    let mut app = EditorApp::default();
    app.doc = scryptic_editor::document::Document::new(map);
    let mut h = harness(app);
    h.state_mut().mode = Mode::Play;
    h.run();
    click_label(&mut h, "Hide the racks between turns");
    click_label(&mut h, "The open map");
    click_label(&mut h, "Start game");
    h
}

/// Where the rules allow trading, letters picked on the rack go back into the pool through
/// the side panel; the opponent scores for them and the turn passes.
#[test]
fn letters_are_traded_where_the_rules_allow() {
    let mut map = scryptic::Map::load(&root().join("maps/tutorial.ron")).unwrap();
    map.rules.overrides.exchange = Some(scryptic::rules::ExchangeOverrides {
        allowed: Some(true),
        opponent_points_per_letter: Some(1),
    });
    let mut h = hot_seat_on_the_open(map);
    let letter = game(&h).rack_letters(Player::Gold).chars().next().unwrap();
    click_label(&mut h, "Pick letters to trade");
    h.get_all_by_label(&scryptic_editor::play::rack::rack_label(letter))
        .next()
        .unwrap()
        .click();
    h.run();
    click_label(&mut h, "Trade 1 letter (your opponent scores 1)");
    assert_eq!(
        game(&h).log().last(),
        Some(&Action::Exchange {
            letters: letter.to_string()
        }),
        "{:?}",
        session(&h).refusal
    );
    assert_eq!(game(&h).score(Player::Silver).base, 1);
    assert_eq!(game(&h).to_act(), Player::Silver);
}

/// The event log shows a draw's letters only to the player who drew them: two people sharing
/// the screen see how many letters each drew, never which.
#[test]
fn the_event_log_hides_draws_from_the_other_player() {
    let map = root().join("maps/tutorial.ron");
    let mut h = start_hot_seat(&map);
    for _ in 0..2 {
        uncover(&mut h);
        click_label(&mut h, "End turn");
    }
    let drawn = game(&h).rack_letters(Player::Gold);
    let line = session(&h)
        .log
        .iter()
        .rev()
        .find(|l| l.contains("drew"))
        .cloned()
        .expect("gold's second turn drew");
    assert!(line.ends_with("letters"), "{line}");
    assert!(!line.contains(&drawn[drawn.len() - 2..]), "{line}");
}

/// Where the rules allow no pass, End turn waits for a play; Forfeit gives the game away.
#[test]
fn without_passing_end_turn_waits_and_forfeit_concedes() {
    let mut map = scryptic::Map::load(&root().join("maps/tutorial.ron")).unwrap();
    map.rules.overrides.flow = Some(scryptic::rules::FlowOverrides {
        may_pass: Some(false),
        forfeit: Some(true),
        ..Default::default()
    });
    let mut h = hot_seat_on_the_open(map);
    assert!(
        h.get_by_label("End turn").accesskit_node().is_disabled(),
        "nothing played yet: no pass"
    );
    click_label(&mut h, "Forfeit");
    let result = game(&h).result().cloned().expect("the game is over");
    assert_eq!(result.winner, Some(Player::Silver));
}

/// A Word Wars position saved at the terminal: `board` of the pack (gold, the person, holds
/// one letter that makes no word).
fn word_wars_save(board: &str, dir: &Path) -> PathBuf {
    let save = dir.join("offer.ron");
    let pack = root().join("packs/word-wars").display().to_string();
    let typed = format!("save {}\nquit\n", save.display());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = ["scryptic", "play", "--pack", &pack, board];
    let code = scryptic::cli::run(args, &mut typed.as_bytes(), &mut out, &mut err);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    save
}

/// Plays `board` of Word Wars against the AI from its first turn, where the person calls
/// sudden death with the button, and waits for the AI's answer and moves (`ai_moves` of them).
fn call_sudden_death_on(board: &str, ai_moves: usize) -> H {
    let dir = tempfile::tempdir().unwrap();
    let save = word_wars_save(board, dir.path());
    let mut h = start_from("A saved game", &save, "Against the AI");
    // The AI starts thinking at once (its bar repaints): one frame, then the AI is waited for.
    h.get_by_label("Sudden death").click();
    h.step();
    let session = h.state_mut().play.session.as_mut().unwrap();
    for _ in 0..ai_moves {
        session.wait_for_ai(Duration::from_secs(300));
    }
    h.run();
    h
}

/// WW-8 in the editor: the person calls sudden death with the button; the AI answers by
/// searching whether it can use every tile: with CAT and the S offered it accepts and wins
/// double; with CAT and a Q it refuses, and the button is gone for the rest of the turn.
#[test]
fn sudden_death_is_called_and_the_ai_answers_by_searching() {
    let h = call_sudden_death_on("maps/ends/offer.ron", 2);
    assert_eq!(
        game(&h).result().map(|r| r.reason.clone()),
        Some(scryptic::game::EndReason::SuddenDeath {
            taker: Player::Silver,
            won: true
        }),
        "{:?}",
        game(&h).log()
    );
    h.get_by_label("points awarded: gold 0, silver 8");

    let h = call_sudden_death_on("maps/ends/offer-q.ron", 1);
    assert_eq!(
        game(&h).log().last(),
        Some(&Action::Answer { accept: false }),
        "the AI refuses"
    );
    assert_eq!(game(&h).to_act(), Player::Gold, "gold's turn goes on");
    assert!(h.query_by_label("Sudden death").is_none());
    h.get_by_label("Forfeit");
}

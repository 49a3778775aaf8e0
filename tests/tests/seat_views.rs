//! `Game::seen_by`, the one gate between a game and what a seat may see: in whole games of
//! every mode (and of the Wending, a scripted campaign), after every action, each seat's view
//! holds no other seat's letters, no pile's order, no value hidden from it, no log and no
//! seed, while what is public (the board's shape, scores, counts) is the truth's.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::Player;
use scryptic::ai::{AiPlayer, Level};
use scryptic::game::{Action, Game, HIDDEN_LETTER, Place, RackItem};
use scryptic::script::ScriptedGame;
use scryptic_tests::pack_game;

/// A level of `pack` (a pack's folder under packs/, or a built-in id) started with `seed`.
fn level_game(pack: &str, mode: &str, seed: u64, set: &[(&str, &str)]) -> ScriptedGame {
    if pack != "core" {
        return pack_game(pack, seed, set);
    }
    let (catalog, _) = scryptic::pack::Catalog::discover();
    let choice = scryptic::pack::level::Choice {
        pack: pack.to_string(),
        mode: mode.to_string(),
        ..Default::default()
    };
    let level = scryptic::pack::Level::from_pack(&catalog, &choice).unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    ScriptedGame::start_level(&level, lexicon, seed, None)
        .unwrap()
        .0
}

/// The letters of `player`'s rack in `game`.
fn rack(game: &Game, player: Player) -> Vec<char> {
    game.player(player)
        .rack
        .iter()
        .filter_map(|item| match item {
            RackItem::Letter(c) => Some(*c),
            RackItem::Token { .. } => None,
        })
        .collect()
}

/// Fails unless every seat's view (and a spectator's) of `truth` hides what it must and
/// shows what is public.
fn check_views(truth: &Game, what: &str) {
    let over = truth.result().is_some();
    let viewers: Vec<Option<Player>> = truth.seats().map(Some).chain([None]).collect();
    for viewer in viewers {
        let view = truth.seen_by(viewer);
        let at = format!("{what}, seen by {viewer:?}");
        assert!(view.log().is_empty(), "{at}: the log is the referee's");
        assert_eq!(view.seed(), 0, "{at}: the seed would deal the game again");
        assert_eq!(view.turn(), truth.turn(), "{at}");
        for p in truth.seats() {
            assert_eq!(view.score(p), truth.score(p), "{at}: {p}'s score is public");
            assert_eq!(rack(&view, p).len(), rack(truth, p).len(), "{at}");
            assert_eq!(
                view.pool_letters(p).len(),
                truth.pool_letters(p).len(),
                "{at}: a pile's size is public"
            );
            if over {
                continue;
            }
            assert!(
                view.pool_letters(p).iter().all(|&c| c == HIDDEN_LETTER),
                "{at}: a pile's letters are face down"
            );
            if Some(p) == viewer {
                assert_eq!(rack(&view, p), rack(truth, p), "{at}: one's own rack");
            } else {
                assert!(
                    rack(&view, p).iter().all(|&c| c == HIDDEN_LETTER),
                    "{at}: {p}'s rack is hidden"
                );
            }
        }
        check_board(truth, &view, viewer, &at);
        check_table(truth, &view, viewer, &at);
        check_snapshot(truth, &view, viewer, &at);
    }
}

/// The view travels as a snapshot in JSON, and the game a client makes of it on the same map
/// and rules shows what the view shows.
fn check_snapshot(truth: &Game, view: &Game, viewer: Option<Player>, at: &str) {
    static ENGLISH: std::sync::OnceLock<std::sync::Arc<scryptic::lexicon::Lexicon>> =
        std::sync::OnceLock::new();
    let lexicon =
        ENGLISH.get_or_init(|| std::sync::Arc::new(scryptic::lexicon::Lexicon::english()));
    let json = serde_json::to_string(&view.snapshot()).unwrap();
    let snapshot = serde_json::from_str(&json).unwrap();
    let rules = truth.rules().clone();
    let shown = Game::from_snapshot(truth.map(), rules, lexicon.clone(), snapshot)
        .unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(shown.turn(), view.turn(), "{at}");
    assert_eq!(shown.result(), view.result(), "{at}");
    assert_eq!(shown.choosing(), view.choosing(), "{at}");
    assert_eq!(
        shown.board().letters.cells(),
        view.board().letters.cells(),
        "{at}"
    );
    for p in truth.seats() {
        assert_eq!(rack(&shown, p), rack(view, p), "{at}: {p}'s rack");
        assert_eq!(shown.score(p), view.score(p), "{at}: {p}'s score");
        assert_eq!(shown.pool_letters(p), view.pool_letters(p), "{at}");
    }
    if truth.rules().flow.scripted {
        assert_eq!(
            shown.table_for(viewer).pieces(),
            view.table_for(viewer).pieces(),
            "{at}"
        );
    }
}

/// The board: in simultaneous play the others' letters are face down (on their cells); else
/// it is the truth's.
fn check_board(truth: &Game, view: &Game, viewer: Option<Player>, at: &str) {
    let hidden = truth.rules().flow.simultaneous && truth.result().is_none();
    for cell in truth.board().letters.positions() {
        let (t, v) = (truth.board().letters[cell], view.board().letters[cell]);
        assert_eq!(t.map(|t| t.player), v.map(|v| v.player), "{at}: {cell:?}");
        if let (Some(t), Some(v)) = (t, v) {
            if hidden && Some(t.player) != viewer {
                assert_eq!(
                    v.letter, HIDDEN_LETTER,
                    "{at}: another's letter at {cell:?}"
                );
            } else {
                assert_eq!(v.letter, t.letter, "{at}: {cell:?}");
            }
        }
    }
}

/// A scripted table: a piece's value only where it is the viewer's or shown to them, every
/// piece's place as the truth has it once any secret choice is made.
fn check_table(truth: &Game, view: &Game, viewer: Option<Player>, at: &str) {
    if !truth.rules().flow.scripted || truth.result().is_some() {
        return;
    }
    // The view's own table as it is held, and as the view shows it to its viewer.
    for table in [view.table().clone(), view.table_for(viewer)] {
        check_pieces(truth, &table, viewer, at);
    }
}

/// Each piece of `table` (a view's) against the truth.
fn check_pieces(truth: &Game, table: &scryptic::game::Table, viewer: Option<Player>, at: &str) {
    for (id, piece) in table.pieces().iter().enumerate() {
        let real = truth.table().piece(id).unwrap();
        let may_see = truth.table().sees(real, viewer);
        if may_see {
            assert_eq!(piece.value, real.value, "{at}: piece {id}");
        } else {
            assert_eq!(piece.value, None, "{at}: piece {id} is hidden");
        }
        if !truth.table().secret() && matches!(real.place, Place::Cell(_)) {
            assert_eq!(piece.place, real.place, "{at}: piece {id}");
        }
    }
}

/// Plays `game` to its end (at most `limit` actions) with easy AIs, checking the views after
/// every action.
fn play_and_check(mut game: ScriptedGame, limit: usize, what: &str) {
    let seats: Vec<Player> = game.game().seats().collect();
    let mut ais: Vec<AiPlayer> = seats
        .iter()
        .map(|p| AiPlayer::new(Level::Easy, p.index() as u64))
        .collect();
    check_views(game.game(), what);
    for step in 0..limit {
        if game.game().result().is_some() {
            break;
        }
        let action = next_action(&game, &seats, &mut ais);
        if let Err(e) = game.apply(action) {
            panic!("{what}, action {step}: the AI's action is refused: {e}");
        }
        check_views(game.game(), &format!("{what}, after action {step}"));
    }
}

/// The next AI action: the seat to act's, or in simultaneous play the first seat's that acts
/// (the grace period's end once every one waits).
fn next_action(game: &ScriptedGame, seats: &[Player], ais: &mut [AiPlayer]) -> Action {
    let g = game.game();
    if !g.rules().flow.simultaneous {
        return ais[g.to_act().index()].choose(g);
    }
    for &p in seats {
        if let Some(action) = ais[p.index()].choose_at_once(g, p) {
            return action;
        }
    }
    Action::GraceOver
}

#[test]
fn word_wars_views_hide_the_other_rack_and_the_pile() {
    play_and_check(level_game("word-wars", "", 3, &[]), 120, "Word Wars");
}

#[test]
fn classic_views_hide_the_other_rack_and_the_piles() {
    play_and_check(level_game("core", "classic", 5, &[]), 40, "core:classic");
}

#[test]
fn lexicon_crossing_views_hide_every_other_crossword() {
    play_and_check(
        level_game("lexicon-crossing", "", 7, &[("players", "3")]),
        200,
        "Lexicon Crossing",
    );
}

#[test]
fn scryper_views_hide_values_and_secret_choices() {
    play_and_check(level_game("scryper", "", 11, &[]), 400, "Scryper");
}

#[test]
fn a_scripted_campaign_chapter_hides_the_other_rack() {
    play_and_check(level_game("wending", "", 2, &[]), 30, "the Wending");
}

/// A secret choice under way: the other seat learns that it is made (who still chooses), not
/// what it is; the chooser sees their own.
#[test]
fn a_secret_choice_is_seen_only_by_its_maker() {
    let mut game = level_game("scryper", "", 3, &[]);
    for mv in ["field 4 C8", "field 1 D8", "ready"] {
        let action = scryptic::game::notation::parse_command(game.game(), mv).unwrap();
        game.apply(action).unwrap();
    }
    let (white, brown) = (Player::Gold, Player::Silver);
    let truth = game.game();
    assert_eq!(truth.choosing(), vec![brown]);
    let by_brown = truth.seen_by(Some(brown));
    assert_eq!(by_brown.choosing(), vec![brown], "white's choice is made");
    let brown_sees = by_brown.table_for(Some(brown));
    let on_board = |table: &scryptic::game::Table, owner: Player| -> Vec<Option<i64>> {
        table
            .pieces()
            .iter()
            .filter(|p| p.owner == owner && matches!(p.place, Place::Cell(_)))
            .map(|p| p.value)
            .collect()
    };
    assert!(
        on_board(&brown_sees, white).is_empty(),
        "brown sees none of white's bricks before the reveal"
    );
    let white_sees = truth.seen_by(Some(white)).table_for(Some(white));
    let values = on_board(&white_sees, white);
    assert_eq!(values.len(), 2, "white sees their own choice");
    assert!(values.contains(&Some(4)) && values.contains(&Some(1)));
}

//! Scryper as its players meet it: two players at one keyboard make their set-ups in secret
//! and each sees only their own values until the rules show them; the save replays the same
//! game; the pack's scenarios and random games pass; the AI never reads what its player may
//! not see.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic, scryptic_typing};

fn pack() -> String {
    root().join("packs/scryper").display().to_string()
}

/// The board's row `row` (1 to 8) each time the screen showed it.
fn rows(out: &str, row: u32) -> Vec<String> {
    let label = format!("{row:>2} ");
    out.lines()
        .filter(|l| l.starts_with(&label))
        .map(|l| l.trim_end().to_string())
        .collect()
}

#[test]
fn two_players_choose_in_secret_and_see_only_their_own_values() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("scryper.ron");
    let typed = format!(
        "field 3 C8\nfield 1 D8\nready\nbrown field 4 D1\nmoves\nready\nC8-C6\nD1-D3\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(&["play", "--seed", "1", "--pack", &pack()], &typed);
    assert_eq!(o.code, 0, "{o:?}");
    for line in [
        "move 1: white chooses in secret, as brown does (no one else sees your choices until all are made)",
        "white made a secret choice",
        "move 1: brown chooses in secret (no one else sees your choices until all are made)",
        "the secret choices of white and brown are revealed",
        "white: C8-C6",
        "brown: D1-D3",
        "field 1 A1, field 1 B1",
        "legend: a number is a piece's value, ? a value you cannot see; a mark after a piece says whose: + white's, - brown's",
    ] {
        assert!(o.out.contains(line), "missing {line:?} in\n{}", o.out);
    }
    // White's back line: white's own values while choosing; brown sees nothing of white's
    // choice, then, once revealed, white's bricks without their values.
    let eighth = rows(&o.out, 8);
    assert_eq!(
        eighth,
        [
            " 8 . . . . . .",
            " 8 . . 3+. . .",
            " 8 . . 3+1+. .",
            " 8 . . . . . .",
            " 8 . . . . . .",
            " 8 . . 3+1+. .",
            " 8 . . . ?+. .",
            " 8 . . . 1+. .",
        ],
        "{}",
        o.out
    );
    // Brown's back line: brown's 4 as brown sees it, hidden from white once revealed.
    let first = rows(&o.out, 1);
    assert_eq!(first[4], " 1 . . . 4-. .", "{}", o.out);
    assert_eq!(first[5], " 1 . . . ?-. .", "{}", o.out);
    assert_eq!(first[6], " 1 . . . 4-. .", "{}", o.out);
    assert_eq!(first[7], " 1 . . . . . .", "{}", o.out);
    // No value of the other's is ever printed: white's 3 and 1 never in a brown row's view.
    assert!(!o.out.contains("chose field"), "{}", o.out);
    // Nor how many bricks white fielded: one line says the choice was made, once it was.
    assert_eq!(
        o.out.matches("white made a secret choice").count(),
        1,
        "{}",
        o.out
    );
    let replay = scryptic(&["replay", save.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{replay:?}");
    assert!(replay.out.contains("brown: D1-D3"), "{}", replay.out);
    replay_as_each_seat(&save);
}

/// The save replayed as JSON: the truth holds every value; as white saw it, brown's bricks
/// have none (and the reverse), and only the viewer's moves are listed.
fn replay_as_each_seat(save: &std::path::Path) {
    let json = |extra: &[&str]| {
        let o = scryptic(&[&["replay", save.to_str().unwrap(), "--json"][..], extra].concat());
        assert_eq!(o.code, 0, "{o:?}");
        serde_json::from_str::<serde_json::Value>(&o.out).unwrap()["table"].clone()
    };
    let values = |table: &serde_json::Value, owner: &str| -> Vec<Option<i64>> {
        let pieces = table["pieces"].as_array().unwrap();
        pieces
            .iter()
            .filter(|p| p["owner_name"] == owner)
            .map(|p| p["value"].as_i64())
            .collect()
    };
    let truth = json(&[]);
    assert!(truth["viewer"].is_null());
    for seat in ["white", "brown"] {
        assert!(values(&truth, seat).iter().all(Option::is_some), "{truth}");
    }
    let white = json(&["--as", "white"]);
    assert_eq!(white["viewer"], "white");
    assert!(
        values(&white, "white").iter().all(Option::is_some),
        "{white}"
    );
    assert!(
        values(&white, "brown").iter().all(Option::is_none),
        "{white}"
    );
    let brown = json(&["--as", "brown"]);
    assert!(
        values(&brown, "white").iter().all(Option::is_none),
        "{brown}"
    );
    assert_eq!(truth["vars"]["set"], 1, "{truth}");
    let movers: Vec<&serde_json::Value> = white["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["player"])
        .collect();
    assert!(
        movers.iter().all(|p| *p == "Gold"),
        "only white's own moves: {white}"
    );
    let text = scryptic(&["replay", save.to_str().unwrap(), "--as", "brown"]);
    assert!(text.out.contains(" 8 . . . ?+. ."), "{}", text.out);
    assert!(
        !text.out.contains("1+"),
        "white's 1 unseen by brown: {}",
        text.out
    );
    let wrong = scryptic(&["replay", save.to_str().unwrap(), "--as", "green"]);
    assert_eq!(wrong.code, 2, "{wrong:?}");
    assert!(
        wrong.err.contains("not a seat of this game (white, brown)"),
        "{}",
        wrong.err
    );
}

#[test]
fn the_pack_checks_and_its_scenarios_and_random_games_pass() {
    let o = scryptic(&["pack", "check", &pack()]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic(&["pack", "test", &pack(), "--games", "3"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out
            .contains("3 games played and replayed, 6 scenarios passed"),
        "{}",
        o.out
    );
}

/// Plays `moves` (in the notation) on a Scryper game of `seed`.
fn played(moves: &[&str]) -> scryptic::script::ScriptedGame {
    let mut game = scryptic_tests::pack_game("scryper", 3, &[]);
    for line in moves {
        let action = scryptic::game::notation::parse_command(game.game(), line).unwrap();
        game.apply(action).unwrap();
    }
    game
}

/// Two games that differ only in a value white may not see (brown's brick on D1, a 4 or a
/// 1): white's samples of the truth, and the move white's search finds, are the same in both;
/// brown's differ.
#[test]
fn the_search_sees_only_what_its_player_sees() {
    use scryptic::board::Player;
    let moves = |value: &str| {
        let field = format!("brown field {value} D1");
        played(&[
            "white field 3 C8",
            "white field 1 D8",
            "white ready",
            &field,
            "brown ready",
        ])
    };
    let (four, one) = (moves("4"), moves("1"));
    assert_ne!(four.game().table().rows(), one.game().table().rows());
    let sample = |game: &scryptic::script::ScriptedGame, player| {
        game.game()
            .sample_for(player, &mut scryptic_tests::rng(5))
            .table()
            .rows()
    };
    assert_eq!(sample(&four, Player::Gold), sample(&one, Player::Gold));
    assert_ne!(sample(&four, Player::Silver), sample(&one, Player::Silver));
    let search = |game: &scryptic::script::ScriptedGame| {
        let effort = scryptic::ai::ismcts::Effort::iterations(12);
        scryptic::ai::ismcts::search(
            game.game(),
            Player::Gold,
            effort,
            &mut scryptic_tests::rng(9),
        )
        .unwrap()
        .mv
    };
    assert_eq!(search(&four), search(&one));
}

/// A person against the AI at the terminal: the AI makes its secret set-up when the person
/// has made theirs, and the person never sees the AI's values.
#[test]
fn a_person_plays_the_ai_at_the_terminal() {
    let typed = "field 4 A8\nfield 4 B8\nready\nA8-A6\nquit\n";
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "--ai",
            "brown:easy",
        ],
        typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    for line in [
        "brown (AI):",
        "the secret choices of white and brown are revealed",
        // The bricks a side fields are one line.
        "white's bricks go from the available pit to A8 and B8",
        "brown's bricks go from the available pit to ",
        "white: A8-A6",
    ] {
        assert!(o.out.contains(line), "missing {line:?} in\n{}", o.out);
    }
    // The AI's secret steps show nothing, not even its name above nothing.
    assert!(!o.out.contains("brown (AI):\nbrown (AI):"), "{}", o.out);
    // Brown's back line as white sees it: bricks, never a value.
    for row in rows(&o.out, 1) {
        assert!(
            !row[3..].chars().any(|c| c.is_ascii_digit()),
            "{row}\n{}",
            o.out
        );
    }
    let bad = scryptic(&["play", "--seed", "1", "--pack", &pack(), "--ai", "black"]);
    assert_eq!(bad.code, 1, "{bad:?}");
    assert!(
        bad.err
            .contains("`black` is not a seat of this game (white, brown)"),
        "{}",
        bad.err
    );
}

/// A match of Scryper games (the `games` setting, `match.round_points: Wins`): the loser of a
/// game starts the next, whose table the same Lua sets up; a game won is a point.
#[test]
fn a_match_of_games_gives_the_next_to_the_loser_and_counts_wins() {
    let set = [("games", "2"), ("sets_to_win", "1"), ("of_each", "1")];
    let mut game = scryptic_tests::pack_game("scryper", 11, &set);
    assert_eq!(game.game().table().first(), scryptic::Player::Gold);
    play_randomly(&mut game, 11);
    let first = game
        .game()
        .result()
        .unwrap()
        .winner
        .expect("one set decides the game");
    let loser = game.game().seats().find(|&p| p != first).unwrap();
    // The round the scripted session starts and the one the engine starts are the same.
    let (mut second, problems) = game.next_round().expect("a second game").unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let engine = game.game().next_round_game().unwrap().unwrap();
    assert_eq!(second.game().table().rows(), engine.table().rows());
    assert_eq!(second.game().table().first(), loser);
    let starter = second.game().table().var("starter").cloned();
    assert_eq!(
        starter,
        Some(scryptic::game::Var::Text(loser.name().into()))
    );
    play_randomly(&mut second, 12);
    let second_winner = second.game().result().unwrap().winner;
    let rounds = second.game().rounds_with_this();
    let score = scryptic::game::MatchScore::new(&second.game().rules().series, &rounds);
    let outcome = score.outcome().expect("the match is over");
    let mut expected = vec![0, 0];
    for w in [Some(first), second_winner] {
        match w {
            Some(p) => expected[p.index()] += 2,
            None => expected.iter_mut().for_each(|t| *t += 1),
        }
    }
    assert_eq!(outcome.totals, expected, "a win is a point, in half points");
    assert!(second.next_round().is_none(), "two games make the match");
}

/// Plays random legal moves (the first seat to choose each time) to the game's end.
fn play_randomly(game: &mut scryptic::script::ScriptedGame, seed: u64) {
    use rand::seq::IndexedRandom;
    let mut rng = scryptic_tests::rng(seed);
    for _ in 0..2000 {
        if game.game().result().is_some() {
            return;
        }
        let player = game.game().choosing()[0];
        let moves = game.game().legal_moves(player).unwrap();
        let mv = moves.choose(&mut rng).unwrap().clone();
        game.apply(scryptic::game::Action::Move { player, mv })
            .unwrap();
    }
    panic!("the game did not end in 2000 moves");
}

/// Against the AI, the person at the keyboard cannot play the AI's secret setup for it.
#[test]
fn the_keyboard_never_acts_for_the_ais_seat() {
    let o = scryptic_typing(
        &["play", "--pack", &pack(), "--ai", "brown", "--seed", "2"],
        "brown field 1 A1\nbrown ready\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert_eq!(
        o.out
            .matches("refused: brown is played by the AI: you act for white only")
            .count(),
        2,
        "{}",
        o.out
    );
}

/// Scryper's `help` says how it is played, from the mode's own text: fielding, `ready`, an
/// attack's `x`, how a set and the game are won.
#[test]
fn scrypers_help_says_how_it_is_played() {
    let o = scryptic_typing(&["play", "--pack", &pack(), "--seed", "2"], "help\nquit\n");
    assert_eq!(o.code, 0, "{o:?}");
    for said in [
        "field VALUE CELL",
        "ready ",
        "written with an x (C6xC5)",
        "wins the set",
        "`moves` lists what you may type",
    ] {
        assert!(o.out.contains(said), "{said:?} missing in\n{}", o.out);
    }
    assert!(!o.out.contains("preview"), "{}", o.out);
}

/// Events name pieces as players do (whose, and where), never by an id; the bricks a set's
/// end sends to the used pit are told in one line with the values shown; nothing is said
/// after the game's end of a set that never comes.
#[test]
fn events_name_pieces_as_players_do() {
    let o = scryptic_typing(
        &[
            "play",
            "--pack",
            &pack(),
            "--seed",
            "5",
            "--set",
            "sets_to_win=1",
            "--set",
            "of_each=1",
            "--ai",
            "white:easy",
            "--ai",
            "brown:easy",
        ],
        "quit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("'s bricks on ")
            && o.out
                .contains(" go to the used pit, shown to white and brown: a "),
        "{}",
        o.out
    );
    let an_id = o.out.match_indices("brick ").any(|(at, _)| {
        o.out[at + 6..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    });
    assert!(!an_id, "a piece named by its id: {}", o.out);
    let after_end = o.out.split("game over").nth(1).unwrap_or_default();
    assert!(!after_end.contains("set "), "{after_end}");
}

/// The status line shows the rules' variables while the game is on (`set 2, starter ...`), but
/// not their own bookkeeping (`_sets_won_white`, a name beginning with `_`, which a save keeps).
#[test]
fn the_status_leaves_out_the_rules_bookkeeping() {
    use rand::seq::IndexedRandom;
    let mut game = scryptic_tests::pack_game("scryper", 3, &[]);
    let mut rng = scryptic_tests::rng(5);
    while game.game().table().var("set") == Some(&scryptic::game::Var::Int(1)) {
        let player = game.game().choosing()[0];
        let moves = game.game().legal_moves(player).unwrap();
        let mv = moves.choose(&mut rng).unwrap().clone();
        game.apply(scryptic::game::Action::Move { player, mv })
            .unwrap();
    }
    let table = game.game().table();
    assert!(
        table
            .vars()
            .keys()
            .any(|name| name.starts_with("_sets_won_")),
        "{:?}",
        table.vars()
    );
    let status = table.vars_text().unwrap();
    assert!(status.starts_with("set 2, starter "), "{status}");
    assert!(!status.contains("sets_won"), "{status}");
}

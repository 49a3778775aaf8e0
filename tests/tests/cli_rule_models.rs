//! The rule-set models other games use, played at the terminal as a person would: a split
//! pool with hands refilled, a shared crossword, no passing, trading and forfeiting.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic_typing};

const RACE: &str = r#"(
    version: 1,
    name: "race",
    preset: "classic",
    overrides: (
        turn: (start_rack: 7, rack_limit: 7),
        supply: (pool: Split, draw: RefillHand),
        exchange: (allowed: true, opponent_points_per_letter: 1),
        crossword: (model: Shared, first_word: Centre, scoring: TilesOnBoard, final_award: TilesInPlay),
        flow: (may_pass: false, one_play_per_turn: true, skip_without_letters: true, exhaustion: BothOut, forfeit: true),
    ),
)
"#;

#[test]
fn a_race_without_passing_is_traded_in_and_forfeited_at_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("race.ron");
    std::fs::write(&rules, RACE).unwrap();
    let map = root().join("maps/tutorial.ron");
    // A pass is refused, as is trading more of a letter than the rack holds (a rack of
    // seven never holds eight Qs); a forfeit ends the game.
    let typed = "end\nexchange QQQQQQQQ\nforfeit\n";
    let o = scryptic_typing(
        &[
            "play",
            map.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "--seed",
            "2",
        ],
        typed,
    );
    assert!(o.out.contains("refused: these rules allow no pass: play a word, or trade letters (exchange LETTERS), or forfeit"), "{}", o.out);
    assert!(
        o.out.contains("refused: your rack lacks ") && o.out.contains(" Q to trade QQQQQQQQ"),
        "{}",
        o.out
    );
    assert!(o.out.contains("gold forfeits"), "{}", o.out);
    assert!(o.out.contains("silver wins"), "{}", o.out);
    assert!(
        o.out.contains("points awarded: gold 0, silver 0"),
        "nothing on the board to award: {}",
        o.out
    );
}

/// Three players (`seats.count`) at one keyboard: one set dealt among them, turns in seat
/// order, each seeing only their own rack, and three player lines.
#[test]
fn three_players_take_turns_at_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("three.ron");
    let three = r#"(
    version: 1,
    name: "three",
    preset: "classic",
    overrides: (
        supply: (pool: Split, draw: RefillHand),
        crossword: (model: Shared, first_word: Centre),
        seats: (count: 3),
    ),
)
"#;
    std::fs::write(&rules, three).unwrap();
    let map = root().join("packs/word-wars/maps/board-15.ron");
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            map.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
        ],
        "end\nend\nend\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    for line in [
        "turn 2: silver to play",
        "turn 3: seat3 to play",
        "turn 4: gold to play",
    ] {
        assert!(o.out.contains(line), "{line}\n{}", o.out);
    }
    let seat3_lines: Vec<&str> = o
        .out
        .lines()
        .filter(|l| l.starts_with("seat3: score"))
        .collect();
    assert!(!seat3_lines.is_empty(), "{}", o.out);
    // Only the player to act sees their rack: seat 3's is hidden until its turn.
    assert!(seat3_lines[0].contains("(hidden)"), "{}", seat3_lines[0]);
}

/// Scripts name the seats past two (`seat3`), and a seat the table does not have is refused
/// with a message, changing nothing.
#[test]
fn scripts_name_a_third_seat_and_no_seat_past_the_table() {
    use scryptic::script::{ScriptHost, ScriptLimits, ScriptedGame};
    let mut map = scryptic::Map::load(&root().join("packs/word-wars/maps/board-15.ron")).unwrap();
    map.rules.overrides.seats = Some(scryptic::rules::SeatOverrides {
        count: Some(3),
        ..Default::default()
    });
    map.rules.overrides.crossword = Some(scryptic::rules::CrosswordOverrides {
        model: Some(scryptic::rules::CrosswordModel::Shared),
        first_word: Some(scryptic::rules::FirstWord::Centre),
        ..Default::default()
    });
    let rules = map.rule_set().unwrap();
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).unwrap();
    host.load(
        "seats.lua",
        "scryptic.on('game_start', function(game)
            game:award('seat3', 7)
            local ok, err = pcall(function() game:award('seat5', 1) end)
            print(tostring(err))
        end)",
    )
    .unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let game = scryptic::game::Game::new(&map, rules, lexicon, 1);
    let (scripted, errors) = ScriptedGame::new(game, host);
    assert!(errors.is_empty(), "{errors:?}");
    let seat3 = scryptic::Player::seat(2).unwrap();
    assert_eq!(scripted.game().score(seat3).base, 7);
    let said = scryptic_tests::console_lines(&scripted);
    assert!(
        said.iter()
            .any(|l| l.contains("there is no seat5 at this table")),
        "{said:?}"
    );
    let total: i64 = scripted
        .game()
        .seats()
        .map(|p| scripted.game().score(p).base)
        .sum();
    assert_eq!(total, 7, "the refused award changed nothing");
}

/// A mode's names for the seats (`seats.names`, with `seats.colours`) are what the terminal
/// calls the players, in its prompts, lines and the engine's messages.
#[test]
fn a_modes_names_for_the_seats_are_the_players_names() {
    let rules = root().join("tests/rules/named-seats.ron");
    let map = root().join("maps/tutorial.ron");
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            map.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
        ],
        "end\ncommit A1 across ZZZZ\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    for line in [
        "turn 1: white to play",
        "turn 2: brown to play",
        "brown> ",
        "white: score",
    ] {
        assert!(o.out.contains(line), "{line}\n{}", o.out);
    }
    assert!(
        o.out.contains("white ends the turn") || o.out.contains("white passes"),
        "{}",
        o.out
    );
    assert!(
        !o.out.contains("gold"),
        "no seat keeps its own name: {}",
        o.out
    );
}

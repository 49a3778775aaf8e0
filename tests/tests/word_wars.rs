//! The Word Wars pack (packs/word-wars/README.md), as far as it is built: checked, its scenarios
//! and AI games played by `pack test`, and its rules file holding the seed's numbers.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{console_lines, root, scryptic, scryptic_typing};

fn pack() -> String {
    root().join("packs/word-wars").display().to_string()
}

/// Word Wars' rule set.
fn rules() -> scryptic::rules::RuleSet {
    scryptic::rules::RuleSet::load(&root().join("packs/word-wars/rules/standard.ron")).unwrap()
}

/// A board of the pack (`board-15.ron`, `ends/stuck.ron`).
fn board(name: &str) -> scryptic::Map {
    scryptic::Map::load(&root().join("packs/word-wars/maps").join(name)).unwrap()
}

/// A script host with the standard tokens and `source` loaded as `name`.
fn host_with(name: &str, source: &str) -> scryptic::script::ScriptHost {
    use scryptic::script::{ScriptHost, ScriptLimits};
    let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).unwrap();
    host.load(name, source).unwrap();
    host
}

fn english() -> std::sync::Arc<scryptic::lexicon::Lexicon> {
    std::sync::Arc::new(scryptic::lexicon::Lexicon::english())
}

/// Fails unless the output `out` holds every one of `lines`.
fn says_all(out: &str, lines: &[&str]) {
    for line in lines {
        says(out, line);
    }
}

/// Fails unless the output `out` holds `line`.
fn says(out: &str, line: &str) {
    assert!(out.contains(line), "expected `{line}` in:\n{out}");
}

#[test]
fn the_word_wars_pack_checks_and_its_scenarios_pass() {
    let o = scryptic(&["pack", "check", &pack()]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic(&["pack", "test", &pack(), "--games", "2"]);
    assert_eq!(o.code, 0, "{o:?}");
    says(&o.out, "8 scenarios passed");
}

/// WW-1: fifty tiles, no blanks, the seed's distribution, every tile a point.
#[test]
fn word_wars_has_fifty_one_point_tiles() {
    let rules = rules();
    let tiles = &rules.letters.tiles;
    assert_eq!(tiles.values().map(|t| t.count).sum::<i64>(), 50);
    assert!(tiles.values().all(|t| t.value == 1));
    let seed = "A5 B1 C1 D2 E6 F1 G1 H1 I4 J1 K1 L2 M1 N2 O4 P1 Q1 R3 S2 T2 U2 V1 W2 X1 Y1 Z1";
    for entry in seed.split(' ') {
        let letter = entry.chars().next().unwrap();
        let count: i64 = entry[1..].parse().unwrap();
        assert_eq!(tiles[&letter].count, count, "{letter}");
    }
}

/// `scryptic simulate --pack word-wars` plays AI matches and reports who won them and how their
/// rounds ended, saying nothing of cities or tokens the board has none of.
#[test]
fn word_wars_is_simulated_ai_against_ai() {
    let o = scryptic(&[
        "simulate",
        "--pack",
        &pack(),
        "--games",
        "4",
        "--ai",
        "normal,easy",
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    says(&o.out, "4 matches of 3 rounds");
    says(&o.out, "endings:");
    assert!(!o.out.contains("cities"), "{}", o.out);
    assert!(!o.out.contains("tokens"), "{}", o.out);
}

/// A script hears what the end of a round awarded: `game_end` carries `award_gold` and
/// `award_silver` in half points (what a match's script adds up).
#[test]
fn a_script_hears_the_rounds_award() {
    use scryptic::game::Game;
    use scryptic::script::ScriptedGame;
    let host = host_with(
        "tally.lua",
        "scryptic.on('game_end', function(game, ev) print('award ' .. ev.award_gold .. ' ' .. ev.award_silver) end)",
    );
    // The move generator judges that gold can make no word, as in every game the toolkit
    // starts.
    let mut plain = Game::new(&board("ends/stuck.ron"), rules(), english(), 1);
    plain.set_advisor(scryptic::ai::spy());
    let (mut game, errors) = ScriptedGame::new(plain, host);
    assert!(errors.is_empty(), "{errors:?}");
    let cat = scryptic::game::notation::parse_command(game.game(), "commit G8 across CAT").unwrap();
    game.apply(cat).unwrap();
    assert!(
        game.game().result().is_some(),
        "gold is left with a Q: the round is over"
    );
    let console = console_lines(&game);
    assert!(
        console.iter().any(|l| l.contains("award 0 6")),
        "silver takes the three tiles, six half points: {console:?}"
    );
}

/// WW-9 at the terminal: a match of two rounds (the `rounds` setting) on the board where gold
/// is left stuck; each round's points add up, the loser starts the next round (`next`), a save
/// made in round 2 carries the match, and the match ends with its winner.
#[test]
fn a_whole_match_is_played_in_the_terminal_and_saved_between_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("round-2.ron");
    let save = save.display();
    let cat = "commit G8 across CAT";
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/ends/stuck.ron",
            "--set",
            "rounds=2",
        ],
        &format!("{cat}\nnext\nsave {save}\n{cat}\nnext\nquit\n"),
    );
    assert_eq!(o.code, 0, "{o:?}");
    says_all(
        &o.out,
        &[
            "round 1 of 2; match: gold 0, silver 0",
            "round 1 of 2 adds gold 0, silver 3; match: gold 0, silver 3",
            "gold starts round 2",
            "`next` starts the next round",
            "round 2 of 2; match: gold 0, silver 3",
            "round 2 of 2 adds gold 0, silver 3; match: gold 0, silver 6",
            "the match is over: silver wins it",
        ],
    );
    // `next` after the last round goes nowhere: the match is over.
    assert!(!o.out.contains("round 3"), "{}", o.out);
    let replayed = scryptic(&["replay", &save.to_string()]);
    assert_eq!(replayed.code, 0, "{replayed:?}");
    assert!(
        replayed
            .out
            .contains("round 2 of 2; match: gold 0, silver 3"),
        "{}",
        replayed.out
    );
    let loaded = scryptic_typing(
        &["play", "--load", &save.to_string()],
        &format!("{cat}\nquit\n"),
    );
    assert_eq!(loaded.code, 0, "{loaded:?}");
    says(&loaded.out, "round 2 of 2; match: gold 0, silver 3");
    says(&loaded.out, "the match is over: silver wins it");
}

/// The `rounds` setting is bound to `match.rounds` and keeps to the seed's 2 to 5.
#[test]
fn the_rounds_setting_goes_from_two_to_five() {
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "--set",
            "rounds=6",
        ],
        "quit\n",
    );
    assert_ne!(o.code, 0, "{o:?}");
    assert!(o.err.contains("rounds"), "{}", o.err);
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "--set",
            "rounds=5",
        ],
        "quit\n",
    );
    says(&o.out, "round 1 of 5");
}

/// A move's time is kept by a server's clock: a game here refuses it and says where it is kept.
#[test]
fn a_moves_time_is_for_a_hosted_match() {
    let o = scryptic_typing(
        &["play", "--pack", &pack(), "--set", "move_time=3d"],
        "quit\n",
    );
    assert_ne!(o.code, 0, "{o:?}");
    assert!(
        o.err.contains("kept by a server's clock")
            && o.err.contains("--set move_time=3d) and join it"),
        "{}",
        o.err
    );
}

/// WW-8 at the terminal: `sudden`, then the keyboard goes to the opponent, who is asked and
/// answers `accept`; the taker uses every tile and wins double.
#[test]
fn sudden_death_is_called_and_answered_at_the_terminal() {
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/ends/offer.ron",
        ],
        "help\nsudden\naccept\ncommit G8 across CATS\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    says_all(
        &o.out,
        &[
            "gold calls sudden death, offering the hand S: silver accepts or refuses",
            "turn 1: gold calls sudden death: silver accepts",
            "silver accepts sudden death",
            "round 1 of 3 is over: silver wins (silver used every tile in sudden death); `next` starts round 2 of 3",
            "points awarded: gold 0, silver 8",
        ],
    );
    assert!(o.out.contains("accept | refuse"), "help names the answers");
}

/// WW-6's decided point: the game judges "cannot make a word" unless the Judge setting is
/// off, when a player may call sudden death on their own word.
#[test]
fn the_judge_setting_leaves_cannot_make_a_word_to_the_players() {
    let judged = scryptic_typing(
        &["play", "--seed", "1", "--pack", &pack()],
        "sudden\nquit\n",
    );
    says(&judged.out, "refused: you can still make a word");
    let trusted = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "--set",
            "judge=false",
        ],
        "sudden\nquit\n",
    );
    says(&trusted.out, "gold calls sudden death");
}

/// The Lua scoring hook: under `crossword.scoring: ByScripts` words score nothing by
/// themselves and a script's `game:award` is the whole score (here ten points a letter).
#[test]
fn a_script_can_be_the_whole_scoring() {
    use scryptic::game::Game;
    use scryptic::script::ScriptedGame;
    let mut map = board("board-15.ron");
    map.scenario
        .racks
        .insert(scryptic::Player::Gold, "CATSEEN".into());
    let mut rules = rules();
    rules.crossword.scoring = scryptic::rules::Scoring::ByScripts;
    let host = host_with(
        "score.lua",
        "scryptic.on('word_committed', function(game, ev) game:award(ev.player, 10 * #ev.word) end)",
    );
    let (mut game, errors) = ScriptedGame::new(Game::new(&map, rules, english(), 1), host);
    assert!(errors.is_empty(), "{errors:?}");
    let cat = scryptic::game::notation::parse_command(game.game(), "commit G8 across CAT").unwrap();
    game.apply(cat).unwrap();
    let score = game.game().score(scryptic::Player::Gold);
    assert_eq!((score.word, score.total), (0, 30), "{score:?}");
}

/// A match's scripts: `game:round()` tells the round and the totals before it, and the
/// scripts' `storage` is carried from round to round as a campaign carries it from chapter to
/// chapter.
#[test]
fn scripts_follow_the_match_round_by_round() {
    use scryptic::script::ScriptedGame;
    let map = board("ends/stuck.ron");
    let mut rules = rules();
    rules.series.rounds = 2;
    let lexicon = english();
    let script = "scryptic.on('game_start', function(game)
        storage.rounds = (storage.rounds or 0) + 1
        local round, of, gold, silver = game:round()
        print(string.format('round %d of %d, seen %d, totals %d %d', round, of, storage.rounds, gold, silver))
    end)";
    let source = scryptic::save::ScriptSource {
        name: "match.lua".into(),
        source: script.into(),
    };
    let (mut first, errors) =
        ScriptedGame::start(&map, rules, lexicon, 1, vec![source], None).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    let cat =
        scryptic::game::notation::parse_command(first.game(), "commit G8 across CAT").unwrap();
    first.apply(cat).unwrap();
    let (second, problems) = first.next_round().expect("two rounds").unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let said = console_lines;
    assert!(
        said(&first)
            .iter()
            .any(|l| l.contains("round 1 of 2, seen 1, totals 0 0"))
    );
    let lines = said(&second);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("round 2 of 2, seen 2, totals 0 6")),
        "{lines:?}"
    );
}

/// Word Wars explains itself at the terminal: `help` lists its own commands (no combat, spies,
/// tokens or redeploying; `next` for the match), the legend names what its board has, and the
/// first prompt says which cell the first word must cover, marked on the board.
#[test]
fn word_wars_at_the_terminal_explains_itself() {
    let o = scryptic_tests::scryptic_typing(
        &["play", "--pack", &pack(), "--seed", "1"],
        "help\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    for absent in [
        "defend", "redeploy", "spy ", "invoke", "preview", "~ water", "@ city",
    ] {
        assert!(!o.out.contains(absent), "{absent:?} in\n{}", o.out);
    }
    for present in [
        "exchange LETTERS",
        "sudden ",
        "next  ",
        "turn 1: gold to play; the first word covers H8 (marked `=`)",
        "legend: . plains  = the first word covers H8",
        // No cities or tokens on this board: only letters are anyone's.
        "a mark after a letter says whose: + gold, - silver",
        " 8 . . . . . . . = . . . . . . .",
    ] {
        assert!(o.out.contains(present), "{present:?} missing in\n{}", o.out);
    }
}

/// A round's end in a match says so, and what comes next; the prompt after it is the round's.
#[test]
fn a_rounds_end_says_the_round_is_over_and_what_comes_next() {
    let o = scryptic_tests::scryptic_typing(
        &["play", "--pack", &pack(), "--seed", "1"],
        "forfeit\nboard\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains(
            "round 1 of 3 is over: silver wins (gold forfeits); `next` starts round 2 of 3"
        ) && o.out.contains("round over> "),
        "{}",
        o.out
    );
    assert!(!o.out.contains("game over"), "{}", o.out);
}

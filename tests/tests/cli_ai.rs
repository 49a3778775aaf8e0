//! The command line's AI and position tools: `moves`, `simulate`, `replay --json` and
//! `preview`, used as a designer or a script uses them.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{repo_path, root, scryptic, scryptic_typing};

#[test]
fn moves_lists_and_counts_the_placements_of_a_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    let map = root().join("maps/tutorial.ron");
    let typed = format!("save {}\nquit\n", save.display());
    let played = scryptic_typing(&["play", "--seed", "1", map.to_str().unwrap()], &typed);
    assert_eq!(played.code, 0, "{}", played.err);
    // A rack is its seat's secret: the placements are listed only as the seat to move.
    let save_arg = save.to_str().unwrap();
    let unasked = scryptic(&["moves", save_arg]);
    assert!(
        unasked.code != 0 && unasked.err.contains("give --as gold") && unasked.out.is_empty(),
        "{unasked:?}"
    );
    let other = scryptic(&["moves", save_arg, "--as", "silver"]);
    assert!(other.code != 0 && other.out.is_empty(), "{other:?}");
    let counted = scryptic(&["moves", save.to_str().unwrap(), "--count", "--as", "gold"]);
    assert_eq!(counted.code, 0, "{}", counted.err);
    let n: usize = counted.out.trim().parse().unwrap();
    assert!(n > 0);
    let listed = scryptic(&["moves", save.to_str().unwrap(), "--json", "--as", "gold"]);
    let json: serde_json::Value = serde_json::from_str(&listed.out).unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert_eq!(moves.len(), n);
    let attack = |m: &serde_json::Value| m["attack"].as_i64().unwrap();
    assert!(
        moves.windows(2).all(|w| attack(&w[0]) >= attack(&w[1])),
        "strongest first"
    );
    let text = scryptic(&["moves", save.to_str().unwrap(), "--as", "gold"]);
    assert!(
        text.out.starts_with(&format!("{n} placements for gold")),
        "{}",
        text.out
    );
    let missing = scryptic(&["moves", "no-such-save.ron"]);
    assert_eq!(missing.code, 1);
    assert!(missing.err.contains("no-such-save.ron"), "{}", missing.err);
}

/// `simulate --jsonl` streams each game as a JSON line the moment it ends, then the summary,
/// so that a long run stopped early still leaves every finished game.
#[test]
fn simulate_streams_one_json_line_per_game() {
    let map = root().join("maps/tutorial.ron");
    let o = scryptic(&[
        "simulate",
        map.to_str().unwrap(),
        "--games",
        "3",
        "--ai",
        "easy,easy",
        "--jsonl",
    ]);
    assert_eq!(o.code, 0, "{}", o.err);
    let lines: Vec<serde_json::Value> = o
        .out
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 4, "{}", o.out);
    let mut seeds: Vec<u64> = lines[..3]
        .iter()
        .map(|g| g["seed"].as_u64().unwrap())
        .collect();
    seeds.sort_unstable();
    assert_eq!(seeds, [1, 2, 3]);
    assert_eq!(lines[3]["summary"]["games"], 3);
}

#[test]
fn simulate_reports_the_balance_of_a_map() {
    let map = root().join("maps/tutorial.ron");
    let args = [
        "simulate",
        map.to_str().unwrap(),
        "--games",
        "4",
        "--ai",
        "normal,easy",
        "--json",
    ];
    let out = scryptic(&args);
    assert_eq!(out.code, 0, "{}", out.err);
    let json: serde_json::Value = serde_json::from_str(&out.out).unwrap();
    assert_eq!(json["games"].as_array().unwrap().len(), 4);
    let summary = &json["summary"];
    let seat_wins: u64 = (0..2)
        .map(|s| summary["seat_wins"][s]["count"].as_u64().unwrap())
        .sum();
    let ai_wins: u64 = (0..2)
        .map(|a| summary["ai_wins"][a]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(seat_wins, ai_wins, "every win has a seat and an AI");
    let again = scryptic(&args);
    assert_eq!(again.out, out.out, "the same seeds give the same games");
    let text = scryptic(&["simulate", map.to_str().unwrap(), "--games", "2"]);
    assert!(
        text.out.contains("wins by seat (95% interval)"),
        "{}",
        text.out
    );
    let bad = scryptic(&["simulate", map.to_str().unwrap(), "--ai", "expert,normal"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.err.contains("write easy, normal or hard"),
        "{}",
        bad.err
    );
}

/// `simulate --think` gives the hard AIs worlds to think in, one for all or one an AI; the
/// report names the AI that thinks, a budget in worlds repeats, and a bad one is refused.
#[test]
fn simulate_gives_the_hard_ai_time_to_think() {
    let map = root().join("maps/tutorial.ron");
    let map = map.to_str().unwrap();
    let args = [
        "simulate",
        map,
        "--games",
        "1",
        "--max-actions",
        "30",
        "--ai",
        "hard,easy",
        "--think",
        "2,off",
    ];
    let out = scryptic(&args);
    assert_eq!(out.code, 0, "{}", out.err);
    assert!(
        out.out.contains("hard (think 2) against easy"),
        "{}",
        out.out
    );
    assert_eq!(
        scryptic(&args).out,
        out.out,
        "worlds sampled are the same every run"
    );
    let json = scryptic(&[
        "simulate",
        map,
        "--games",
        "1",
        "--max-actions",
        "10",
        "--ai",
        "hard,easy",
        "--think",
        "1",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&json.out).unwrap();
    assert_eq!(json["think"], serde_json::json!(["1", "1"]));
    for (think, message) in [
        ("2,off,off", "names 3 think times for 2 AIs"),
        ("soon", "`soon` is not a think time"),
        ("90s", "longer than the 60 s allowed"),
    ] {
        let bad = scryptic(&["simulate", map, "--ai", "hard,hard", "--think", think]);
        assert_ne!(bad.code, 0, "{think}");
        assert!(bad.err.contains(message), "{think}: {}", bad.err);
    }
    let typed = "quit\n";
    let play = scryptic_typing(
        &["play", "--seed", "1", map, "--ai", "silver:hard:soon"],
        typed,
    );
    assert!(
        play.err.contains("`soon` is not a think time"),
        "{}",
        play.err
    );
    let play = scryptic_typing(
        &["play", "--seed", "1", map, "--ai", "silver:hard:1"],
        typed,
    );
    assert_eq!(play.code, 0, "{}", play.err);
}

/// The map of `tests/scenarios/conquest-by-attack.ron`: gold's JAZZ at A1 takes silver's only
/// city from its AT and wins.
fn conquest_map(dir: &std::path::Path) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(root().join("tests/scenarios/conquest-by-attack.ron")).unwrap();
    let start = text.find("map: (").unwrap() + "map: ".len();
    let end = text.find("    steps:").unwrap();
    let map_text = text[start..end].trim_end().trim_end_matches(',');
    let path = dir.join("conquest.ron");
    std::fs::write(&path, map_text).unwrap();
    path
}

/// `replay --json` gives the whole position: terrain, cities, token spots, and every word with
/// its strength modifier by modifier.
#[test]
fn replay_json_gives_the_whole_position() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    let typed = format!(
        "commit D10 across BOG\nend\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(
        &["play", &repo_path("maps/tutorial.ron"), "--seed", "3"],
        &typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    let replay = scryptic(&["replay", save.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&replay.out).unwrap();
    let position = &json["position"];
    assert_eq!(position["width"], 12);
    assert_eq!(position["terrain"][9], ".ff.........");
    assert_eq!(position["cities"][0]["id"], "aurum");
    assert_eq!(position["cities"][0]["at"]["cell"], "D10");
    assert_eq!(position["tokens"][0]["kind"], "firestorm");
    assert_eq!(
        position["tokens"][0]["captured_by"],
        serde_json::Value::Null
    );
    let bog = &position["words"][0];
    assert_eq!(bog["text"], "BOG");
    assert_eq!(bog["player"], "Gold");
    assert_eq!(bog["cells"].as_array().unwrap().len(), 3);
    assert_eq!(bog["valid"], true);
    assert_eq!(bog["connected"], true);
    assert_eq!(bog["defence"]["face"], 4);
    assert_eq!(
        bog["defence"]["modifiers"][0]["OwnCityBonus"]["amount"], 2,
        "BOG stands on its own city: {bog}"
    );
    assert_eq!(bog["defence"]["value"], 6);
}

/// `preview SAVE ACTION` works out a commit's combat without making it: the strengths with
/// their modifiers and the outcome under the defender's automatic order.
#[test]
fn preview_shows_a_commits_combat_before_it_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let map = conquest_map(dir.path());
    let save = dir.path().join("before.ron");
    let o = scryptic_typing(
        &["play", "--seed", "1", map.to_str().unwrap()],
        &format!("save {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    let s = save.to_str().unwrap();
    let o = scryptic(&["preview", s, "A1 across JAZZ", "--json"]);
    assert_eq!(o.code, 0, "{o:?}");
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(json["word"], "JAZZ");
    assert_eq!(json["attack"]["value"], 10);
    assert_eq!(json["defenders"][0]["word"], "AT");
    assert_eq!(json["defenders"][0]["defence"]["value"], 4);
    assert_eq!(json["outcome"], "succeeds");
    assert_eq!(json["defeated"][0], "AT");
    assert_eq!(json["gain"], 4);
    assert_eq!(json["ends_game"], true);
    assert_eq!(json["scores_after"][0], serde_json::json!(["Gold", 44]));
    let text = scryptic(&["preview", s, "commit A1 across JAZZ"]);
    assert!(
        text.out.starts_with("gold JAZZ attacks with 10 (face 10)"),
        "{}",
        text.out
    );
    assert!(
        text.out
            .contains("defends: AT at D1 across: 4 (face 2, on its own city +2)"),
        "{}",
        text.out
    );
    let refused = scryptic(&["preview", s, "A1 across QQQ"]);
    assert_eq!(refused.code, 1);
    assert!(
        refused.err.contains("your rack has no Q"),
        "{}",
        refused.err
    );
    let in_play = scryptic_typing(&["play", "--load", s], "preview A1 across JAZZ\nquit\n");
    assert!(
        in_play.out.contains(
            "outcome (the defender's automatic order (fewest letters lost)): succeeds: AT falls"
        ),
        "{}",
        in_play.out
    );
    let after = scryptic_typing(&["play", "--load", s], "commit A1 across JAZZ\nquit\n");
    assert!(
        after
            .out
            .contains("game over: gold wins (silver holds no city)"),
        "{}",
        after.out
    );
}

/// `balance` weighs the first player's advantage, and `--tune` searches a constant: both ends
/// first, every step with its interval, the value closest to even named; a key that names no
/// constant, or a value it cannot take, is refused with the reason.
#[test]
fn balance_weighs_the_first_player_and_tunes_a_constant() {
    let map = repo_path("maps/tutorial.ron");
    let base = ["balance", map.as_str(), "--games", "6", "--ai", "easy,easy"];
    let o = scryptic(&base);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("gold moves first"), "{}", o.out);
    assert!(o.out.contains("first player: "), "{}", o.out);
    assert!(o.out.contains(" over 6 games"), "{}", o.out);
    let tune = [
        "--tune",
        "capture.city_capture_bonus=0..40",
        "--steps",
        "3",
        "--json",
    ];
    let o = scryptic(&[&base[..], &tune[..]].concat());
    assert_eq!(o.code, 0, "{o:?}");
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    let steps = json["steps"].as_array().unwrap();
    assert!((2..=3).contains(&steps.len()), "{json}");
    assert_eq!(steps[0]["value"], "0");
    assert_eq!(steps[1]["value"], "40");
    let share = steps[0]["advantage"]["share"].as_f64().unwrap();
    let (low, high) = (
        steps[0]["advantage"]["low"].as_f64().unwrap(),
        steps[0]["advantage"]["high"].as_f64().unwrap(),
    );
    assert!(low <= share && share <= high, "{json}");
    assert!(json["closest"]["value"].is_string(), "{json}");
    // One city's own capture bonus is searched the same way.
    let city = ["--tune", "city.riverside.bonus=0..60", "--steps", "2"];
    let o = scryptic(&[&base[..], &city[..]].concat());
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("city.riverside.bonus = 60: "), "{}", o.out);
    for (bad, said) in [
        ("capture.nothing=0..4", "is not a rule constant"),
        ("capture.city_capture_bonus=0.5..4", "cannot be 0.5"),
        (
            "city.nowhere.bonus=0..4",
            "no city `nowhere`: its cities are `aurum`, `argentum`, `riverside`",
        ),
    ] {
        let o = scryptic(&[&base[..], &["--tune", bad][..]].concat());
        assert_eq!(o.code, 1, "{o:?}");
        assert!(o.err.contains(said), "{bad}: {}", o.err);
    }
    let o = scryptic(
        &[
            &base[..],
            &["--tune", "capture.city_capture_bonus=4..1"][..],
        ]
        .concat(),
    );
    assert_eq!(o.code, 2, "{o:?}");
}

/// `replay --as SEAT` shows any game as that seat saw it: the others' racks as counts and
/// their draws face down, as text and as JSON; without it, the whole truth the save holds.
#[test]
fn replay_as_a_seat_hides_the_others_racks_in_every_mode() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    let map = root().join("maps/tutorial.ron");
    let typed = format!("end\nsave {}\nquit\n", save.display());
    let played = scryptic_typing(&["play", map.to_str().unwrap(), "--seed", "3"], &typed);
    assert_eq!(played.code, 0, "{}", played.err);
    let save_arg = save.to_str().unwrap();
    let truth = scryptic(&["replay", save_arg, "--json"]);
    let truth: serde_json::Value = serde_json::from_str(&truth.out).unwrap();
    let gold_rack = truth["players"][0]["rack"].as_str().unwrap().to_string();
    assert!(!gold_rack.contains('?'), "{gold_rack}");
    let as_silver = scryptic(&["replay", save_arg, "--json", "--as", "silver"]);
    assert_eq!(as_silver.code, 0, "{as_silver:?}");
    let json: serde_json::Value = serde_json::from_str(&as_silver.out).unwrap();
    let seen = json["players"][0]["rack"].as_str().unwrap();
    assert_eq!(
        seen,
        "?".repeat(gold_rack.chars().count()),
        "{}",
        as_silver.out
    );
    assert!(!as_silver.out.contains(&gold_rack), "{}", as_silver.out);
    let text = scryptic(&["replay", save_arg, "--as", "silver"]);
    assert_eq!(text.code, 0, "{text:?}");
    assert!(text.out.contains("letters (hidden)"), "{}", text.out);
    let spaced: String = gold_rack.chars().map(|c| format!("{c} ")).collect();
    assert!(!text.out.contains(spaced.trim_end()), "{}", text.out);
}

/// `simulate` and `balance` play a pack's games with its scripts taking part, and say so: a
/// script that pays silver for every word committed moves silver's average score and the first
/// player's advantage, which the engine's rules alone would leave where they were.
#[test]
fn simulate_and_balance_play_the_levels_scripts() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&[
        "pack",
        "new",
        "patron",
        "--dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    let pack = dir.path().join("patron");
    let script = pack.join("scripts/main.lua");
    let run = |lua: &str| {
        std::fs::write(&script, lua).unwrap();
        let args = ["--pack", pack.to_str().unwrap(), "--games", "4", "--json"];
        let simulated = scryptic(&[&["simulate"], &args[..]].concat());
        assert_eq!(simulated.code, 0, "{simulated:?}");
        let balanced = scryptic(&[&["balance"], &args[..]].concat());
        assert_eq!(balanced.code, 0, "{balanced:?}");
        let read = |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap();
        (read(&simulated.out), read(&balanced.out))
    };
    let (plain, plain_balance) = run("-- nothing\n");
    let (paid, paid_balance) = run(
        "scryptic.on(\"word_committed\", function(game, event) game:award(\"silver\", 40) end)\n",
    );
    assert_eq!(paid["scripts"], serde_json::json!(["scripts/main.lua"]));
    assert_eq!(paid_balance["scripts"], paid["scripts"]);
    let silver =
        |report: &serde_json::Value| report["summary"]["average_scores"][1].as_f64().unwrap();
    assert!(
        silver(&paid) >= silver(&plain) + 40.0,
        "silver's average: {} with the award, {} without",
        silver(&paid),
        silver(&plain)
    );
    assert_ne!(
        paid_balance["advantage"], plain_balance["advantage"],
        "the award weighs in the first player's advantage"
    );
    let o = scryptic(&["balance", "--pack", pack.to_str().unwrap(), "--games", "2"]);
    assert!(
        o.out.contains("scripts taking part: scripts/main.lua"),
        "{}",
        o.out
    );
}

//! Rule scenarios as data: each file in `tests/scenarios/` is a small map with a scenario
//! setup, then commands in `scryptic play` notation and what must hold after them. One
//! `check` runs them all; a failure names the file and the step.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::board::{Owner, Player};
use scryptic::game::notation::parse_command;
use scryptic::game::{Event, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic_tests::root;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    /// What the scenario shows, and the rule it checks.
    #[allow(dead_code)]
    title: String,
    map: Map,
    #[serde(default)]
    seed: u64,
    steps: Vec<Step>,
}

#[derive(Deserialize)]
enum Step {
    /// A command that must be accepted.
    Do(String),
    /// A command that must be refused with a message containing the text.
    Refuse(String, String),
    /// What must hold now.
    Expect(Box<Expect>),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct Expect {
    /// Letters on the board: gold uppercase, silver lowercase, `.` empty.
    board: Option<Vec<String>>,
    /// Terrain, in the default legend.
    terrain: Option<Vec<String>>,
    word_score: BTreeMap<Player, i64>,
    base_score: BTreeMap<Player, i64>,
    /// Letters on each rack, in any order.
    racks: BTreeMap<Player, String>,
    /// Tokens on each rack, by id.
    tokens: BTreeMap<Player, Vec<String>>,
    cities: BTreeMap<String, Owner>,
    destroyed_cities: Vec<String>,
    to_act: Option<Player>,
    active: Option<Player>,
    over: Option<bool>,
    winner: Option<Player>,
    draw: Option<bool>,
    valid: Vec<String>,
    invalid: Vec<String>,
    /// Words on the board that are cut off from their player's cities.
    disconnected: Vec<String>,
    /// Texts that the last command's events must contain (in their debug form).
    events: Vec<String>,
    lost: BTreeMap<Player, usize>,
}

fn check(name: &str, scenario: Scenario, lexicon: &Arc<Lexicon>) -> Result<(), String> {
    let rules = scenario
        .map
        .rule_set()
        .map_err(|p| format!("rules: {p:?}"))?;
    let mut game = Game::new(&scenario.map, rules, lexicon.clone(), scenario.seed);
    let mut last_events: Vec<Event> = Vec::new();
    for (i, step) in scenario.steps.into_iter().enumerate() {
        let at = |what: String| format!("{name} step {}: {what}", i + 1);
        match step {
            Step::Do(command) => {
                let action =
                    parse_command(&game, &command).map_err(|e| at(format!("`{command}`: {e}")))?;
                last_events = game
                    .apply(action)
                    .map_err(|e| at(format!("`{command}` was refused: {e}")))?;
            }
            Step::Refuse(command, message) => {
                let before = format!("{:?}", game.words());
                let refused = parse_command(&game, &command)
                    .map_err(|e| e.to_string())
                    .and_then(|a| game.apply(a).map_err(|e| e.to_string()));
                match refused {
                    Ok(_) => {
                        return Err(at(format!(
                            "`{command}` was accepted; expected a refusal with `{message}`"
                        )));
                    }
                    Err(got) if !got.contains(&message) => {
                        return Err(at(format!(
                            "`{command}` was refused with `{got}`, not `{message}`"
                        )));
                    }
                    Err(_) => {}
                }
                if before != format!("{:?}", game.words()) {
                    return Err(at(format!("refusing `{command}` changed the board")));
                }
            }
            Step::Expect(expect) => expect_all(&game, &last_events, &expect).map_err(at)?,
        }
    }
    Ok(())
}

fn expect_all(game: &Game, events: &[Event], e: &Expect) -> Result<(), String> {
    let mut problems = Vec::new();
    let mut want = |what: &str, expected: String, got: String| {
        if expected != got {
            problems.push(format!("{what}: expected {expected}, got {got}"));
        }
    };
    if let Some(rows) = &e.board {
        want("board", rows.join("\n"), board_rows(game).join("\n"));
    }
    if let Some(rows) = &e.terrain {
        let got = game.board().terrain.rows();
        want("terrain", rows.join("\n"), got.join("\n"));
    }
    for (&p, &s) in &e.word_score {
        want(
            &format!("{p} word score"),
            s.to_string(),
            game.score(p).word.to_string(),
        );
    }
    for (&p, &s) in &e.base_score {
        want(
            &format!("{p} base score"),
            s.to_string(),
            game.score(p).base.to_string(),
        );
    }
    for (&p, letters) in &e.racks {
        want(
            &format!("{p} rack"),
            sorted(letters),
            sorted(&game.rack_letters(p)),
        );
    }
    for (&p, ids) in &e.tokens {
        let got: Vec<String> = game
            .player(p)
            .tokens()
            .map(|(id, _)| id.to_string())
            .collect();
        want(
            &format!("{p} tokens"),
            format!("{ids:?}"),
            format!("{got:?}"),
        );
    }
    for (id, &owner) in &e.cities {
        let got = game
            .board()
            .cities
            .iter()
            .find(|c| &c.id == id)
            .map(|c| format!("{:?}", c.owner));
        want(
            &format!("city {id}"),
            format!("{:?}", Some(format!("{owner:?}"))),
            format!("{got:?}"),
        );
    }
    for id in &e.destroyed_cities {
        let got = game
            .board()
            .cities
            .iter()
            .any(|c| &c.id == id && c.destroyed);
        want(
            &format!("city {id} destroyed"),
            "true".into(),
            got.to_string(),
        );
    }
    if let Some(p) = e.to_act {
        want("to act", format!("{p:?}"), format!("{:?}", game.to_act()));
    }
    if let Some(p) = e.active {
        want("active", format!("{p:?}"), format!("{:?}", game.active()));
    }
    if let Some(over) = e.over {
        want(
            "over",
            over.to_string(),
            game.result().is_some().to_string(),
        );
    }
    if let Some(w) = e.winner {
        want(
            "winner",
            format!("{:?}", Some(w)),
            format!("{:?}", game.result().and_then(|r| r.winner)),
        );
    }
    if let Some(true) = e.draw {
        want(
            "draw",
            "true".into(),
            game.result()
                .is_some_and(|r| r.winner.is_none())
                .to_string(),
        );
    }
    let words = game.words();
    for text in &e.valid {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && w.valid);
        want(&format!("{text} valid"), "true".into(), ok.to_string());
    }
    for text in &e.invalid {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && !w.valid);
        want(
            &format!("{text} on the board and invalid"),
            "true".into(),
            ok.to_string(),
        );
    }
    for text in &e.disconnected {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && !w.connected);
        want(
            &format!("{text} on the board and disconnected"),
            "true".into(),
            ok.to_string(),
        );
    }
    for (&p, &n) in &e.lost {
        want(
            &format!("{p} letters lost"),
            n.to_string(),
            game.player(p).lost.to_string(),
        );
    }
    let events_text = format!("{events:?}");
    for needle in &e.events {
        if !events_text.contains(needle.as_str()) {
            problems.push(format!("events lack `{needle}`: {events_text}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

fn sorted(letters: &str) -> String {
    let mut v: Vec<char> = letters.to_uppercase().chars().collect();
    v.sort_unstable();
    v.into_iter().collect()
}

fn board_rows(game: &Game) -> Vec<String> {
    let letters = &game.board().letters;
    (0..letters.height())
        .map(|y| {
            letters
                .row(y)
                .unwrap_or_default()
                .iter()
                .map(|t| match t {
                    Some(t) if t.player == Player::Gold => t.letter,
                    Some(t) => t.letter.to_ascii_lowercase(),
                    None => '.',
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_rule_scenario_plays_out_as_specified() {
    let lexicon = Arc::new(Lexicon::english());
    let dir = root().join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "scenarios missing from {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(file).unwrap();
        let outcome = scryptic::ronfile::options()
            .from_str::<Scenario>(&text)
            .map_err(|e| format!("{name}: {e}"))
            .and_then(|s| check(&name, s, &lexicon));
        if let Err(e) = outcome {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

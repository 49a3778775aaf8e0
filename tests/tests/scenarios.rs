//! Rule scenarios as data: each file in `tests/scenarios/` is a small map with a scenario
//! setup, then commands in `scryptic play` notation and what must hold after them. One
//! `check` runs them all; a failure names the file and the step.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::game::Game;
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::scenario::Step;
use scryptic_tests::root;
use serde::Deserialize;
use std::sync::Arc;

/// A rule scenario: a map of its own (a small board with a scenario), a seed and the steps,
/// which `scryptic::scenario` runs (a pack's scenarios name the pack's levels instead).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Scenario {
    #[allow(dead_code)]
    title: String,
    map: Map,
    #[serde(default)]
    seed: u64,
    steps: Vec<Step>,
}

fn check(name: &str, scenario: Scenario, lexicon: &Arc<Lexicon>) -> Result<(), String> {
    let rules = scenario
        .map
        .rule_set()
        .map_err(|p| format!("rules: {p:?}"))?;
    let mut game = Game::new(&scenario.map, rules, lexicon.clone(), scenario.seed);
    scryptic::scenario::run(name, &scenario.steps, &mut game)
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

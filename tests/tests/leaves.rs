//! The hard level's leave values (`crates/ai/data/leaves.ron`): the shipped file reads, a value
//! for every letter A to Z, and it is what `leaves::fit` measures, refitted by hand:
//! `SCRYPTIC_FIT=1 cargo test --release -p scryptic-tests --test leaves -- --ignored`
//! (300 games, about half a minute).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::ai::leaves::{LeaveFile, Leaves, fit};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic_tests::root;
use std::sync::Arc;

/// The seeds the values are fitted on: no test or measurement uses them.
const FIT_SEEDS: std::ops::Range<u64> = 500_000..500_300;

fn file() -> std::path::PathBuf {
    root().join("crates/ai/data/leaves.ron")
}

#[test]
fn the_shipped_leave_values_read_with_every_letter() {
    let text = std::fs::read_to_string(file()).unwrap();
    let shipped: LeaveFile = scryptic::ronfile::parse(&file(), &text).unwrap();
    assert_eq!(shipped.values.len(), 26, "{:?}", shipped.values.keys());
    let leaves = Leaves::shipped();
    for (&letter, &value) in &shipped.values {
        assert_eq!(leaves.letter(letter), value, "{letter}");
    }
    assert_eq!(leaves.of("AB"), shipped.values[&'A'] + shipped.values[&'B']);
    assert_eq!(leaves.of("é1"), 0.0);
}

/// Fits the values and, with `SCRYPTIC_FIT=1`, writes them (by hand: it plays 300 games).
#[test]
#[ignore = "fits the leave values over 300 games; run by hand"]
fn fit_the_leave_values() {
    let map = Map::load(&root().join("maps/duel-24.ron")).unwrap();
    let fitted = fit(&map, Arc::new(Lexicon::english()), FIT_SEEDS).unwrap();
    let text = scryptic::ronfile::to_canonical(&fitted, 2).unwrap();
    eprintln!("{text}");
    if std::env::var_os("SCRYPTIC_FIT").is_some() {
        let header = "// The hard level's leave values (crates/ai/src/leaves.rs): how many more points a turn\n// scored when it began with the letter on the rack than the average turn. Written by\n// `SCRYPTIC_FIT=1 cargo test --release -p scryptic-tests --test leaves -- --ignored`.\n";
        scryptic::fsutil::write_atomic(&file(), format!("{header}{text}\n").as_bytes()).unwrap();
    }
}

/// A short fit measures what the long one does: a value for each letter seen, from the average
/// turn.
#[test]
fn a_fit_measures_each_letter_against_the_average_turn() {
    let map = Map::load(&root().join("maps/duel-24.ron")).unwrap();
    let fitted = fit(&map, Arc::new(Lexicon::english()), 900_000..900_002).unwrap();
    assert!(
        fitted
            .fitted_from
            .starts_with("2 normal-against-normal games on Duel"),
        "{}",
        fitted.fitted_from
    );
    assert!(fitted.mean_turn > 0.0);
    assert!(fitted.values.len() > 15, "{:?}", fitted.values);
    assert!(fitted.values.values().any(|&v| v > 0.0) && fitted.values.values().any(|&v| v < 0.0));
}

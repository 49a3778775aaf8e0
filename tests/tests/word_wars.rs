//! The Word Wars pack (MODES.md WW-1 to WW-10), as far as it is built: checked, its scenarios
//! and AI games played by `pack test`, and its rules file holding the seed's numbers.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic};

fn pack() -> String {
    root().join("packs/word-wars").display().to_string()
}

#[test]
fn the_word_wars_pack_checks_and_its_scenarios_pass() {
    let o = scryptic(&["pack", "check", &pack()]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic(&["pack", "test", &pack(), "--games", "2"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("3 scenarios passed"), "{}", o.out);
}

/// WW-1: fifty tiles, no blanks, the seed's distribution, every tile a point.
#[test]
fn word_wars_has_fifty_one_point_tiles() {
    let rules =
        scryptic::rules::RuleSet::load(&root().join("packs/word-wars/rules/standard.ron")).unwrap();
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

/// `scryptic simulate --pack word-wars` plays AI rounds and reports how they ended, saying
/// nothing of cities or tokens the board has none of.
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
    assert!(o.out.contains("4 games"), "{}", o.out);
    assert!(o.out.contains("endings:"), "{}", o.out);
    assert!(!o.out.contains("cities"), "{}", o.out);
    assert!(!o.out.contains("tokens"), "{}", o.out);
}

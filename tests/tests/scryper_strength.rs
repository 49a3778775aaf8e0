//! How strong the ISMCTS AI plays Scryper (issue 25's bars: at least 95% of 200 matches
//! against a random legal player, at least 75% against the greedy one, at most a second a
//! move). The full measure is a command run by hand (its figures are in PERFORMANCE.md):
//!   SCRYPER_MATCHES=200 cargo test --release -p scryptic-tests --test scryper_strength -- --ignored --nocapture
//! CI plays a few short matches (one brick of each value, one set) at the easy level.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::ai::ismcts::{Effort, random_move, search};
use scryptic::board::Player;
use scryptic::game::{Action, Game};
use scryptic_tests::scryper::greedy_move;

#[derive(Clone, Copy, Debug)]
enum Opponent {
    Random,
    Greedy,
}

/// One match: the AI (`iterations` a move) in seat `ai` against `opponent`; the winner, and
/// the longest the AI thought.
fn play_match(
    seed: u64,
    ai: Player,
    opponent: Opponent,
    iterations: usize,
    set: &[(&str, &str)],
) -> (Option<Player>, std::time::Duration) {
    let scripted = scryptic_tests::pack_game("scryper", seed, set);
    let mut game: Game = scripted.game().clone();
    let mut rng = scryptic_tests::rng(seed ^ 0x5eed);
    let mut longest = std::time::Duration::ZERO;
    while game.result().is_none() {
        let Some(&mover) = game.choosing().first() else {
            break;
        };
        let action = if mover == ai {
            let began = std::time::Instant::now();
            let found = search(&game, ai, Effort::iterations(iterations), &mut rng).unwrap();
            longest = longest.max(began.elapsed());
            Action::Move {
                player: ai,
                mv: found.mv,
            }
        } else {
            match opponent {
                Opponent::Random => random_move(&mut game.clone(), &mut rng).unwrap(),
                Opponent::Greedy => greedy_move(&game, &mut rng).unwrap(),
            }
        };
        game.apply(action).unwrap();
    }
    (game.result().and_then(|r| r.winner), longest)
}

/// `matches` matches on two threads, the AI's seat alternating; how many the AI won, and
/// the longest it thought.
fn measure(
    matches: u64,
    opponent: Opponent,
    iterations: usize,
    set: &[(&str, &str)],
) -> (u64, std::time::Duration) {
    let results: Vec<(bool, std::time::Duration)> = std::thread::scope(|scope| {
        let halves: Vec<_> = (0..2)
            .map(|half| {
                scope.spawn(move || {
                    (0..matches)
                        .filter(|m| m % 2 == half)
                        .map(|m| {
                            let ai = if m % 4 < 2 {
                                Player::Gold
                            } else {
                                Player::Silver
                            };
                            let (winner, longest) =
                                play_match(m + 1, ai, opponent, iterations, set);
                            (winner == Some(ai), longest)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let won = results.iter().filter(|(w, _)| *w).count() as u64;
    let longest = results.iter().map(|(_, t)| *t).max().unwrap_or_default();
    (won, longest)
}

fn report(what: &str, won: u64, matches: u64, longest: std::time::Duration) {
    println!(
        "{what}: the AI won {won} of {matches} ({:.1}%), longest move {longest:.2?}",
        100.0 * won as f64 / matches as f64
    );
}

#[test]
fn the_ai_beats_a_random_player_in_short_matches() {
    let set = [("of_each", "1"), ("sets_to_win", "1")];
    let (won, longest) = measure(6, Opponent::Random, 200, &set);
    report("short matches against random", won, 6, longest);
    assert!(won >= 5, "the AI won only {won} of 6");
}

fn matches() -> u64 {
    std::env::var("SCRYPER_MATCHES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(200)
}

fn iterations() -> usize {
    std::env::var("SCRYPER_ITERATIONS")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(200)
}

#[test]
#[ignore = "minutes in release: run by hand (see the file's head)"]
fn the_ai_beats_a_random_player() {
    let (won, longest) = measure(matches(), Opponent::Random, iterations(), &[]);
    report("against random", won, matches(), longest);
    assert!(won * 100 >= 95 * matches(), "{won} of {}", matches());
}

#[test]
#[ignore = "minutes in release: run by hand (see the file's head)"]
fn the_ai_beats_the_greedy_player() {
    let (won, longest) = measure(matches(), Opponent::Greedy, iterations(), &[]);
    report("against greedy", won, matches(), longest);
    assert!(won * 100 >= 75 * matches(), "{won} of {}", matches());
}

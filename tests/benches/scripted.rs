//! Scripted games (issue 25): what one move of Scryper costs, its rules being Lua (listed
//! from the mover's view, played on a copy, the end asked), over a whole random game; and a
//! move of the ISMCTS AI at the easy and normal levels' efforts, after the first set-up.
//! Run: `cargo bench -p scryptic-tests --bench scripted`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::ai::ismcts::{Effort, random_move, search};
use scryptic::board::Player;
use scryptic::game::Game;

/// A random game played out from `game`; returns how many moves it took.
fn random_game(game: &Game, seed: u64) -> usize {
    let mut game = game.clone();
    let mut rng = scryptic_tests::rng(seed);
    let mut moves = 0;
    while let Some(action) = random_move(&mut game, &mut rng) {
        game.apply(action).unwrap();
        moves += 1;
    }
    moves
}

fn scryper(c: &mut Criterion) {
    let start = scryptic_tests::pack_game("scryper", 3, &[]);
    let moves = random_game(start.game(), 1);
    let mut set_up = start.game().clone();
    for line in [
        "white field 3 C8",
        "white field 1 D8",
        "white field 4 E8",
        "white ready",
    ] {
        set_up
            .apply(scryptic::game::notation::parse_command(&set_up, line).unwrap())
            .unwrap();
    }
    for line in [
        "brown field 4 C1",
        "brown field 2 D1",
        "brown field 1 E1",
        "brown ready",
    ] {
        set_up
            .apply(scryptic::game::notation::parse_command(&set_up, line).unwrap())
            .unwrap();
    }
    let mut group = c.benchmark_group("Scryper");
    group.sample_size(10);
    group.bench_function(format!("random game of {moves} moves"), |b| {
        b.iter(|| random_game(start.game(), 1))
    });
    for (level, iterations) in [("easy", 30), ("normal", 200)] {
        group.bench_function(
            format!("ISMCTS move, {level} ({iterations} iterations)"),
            |b| {
                b.iter(|| {
                    search(
                        &set_up,
                        Player::Gold,
                        Effort::iterations(iterations),
                        &mut scryptic_tests::rng(2),
                    )
                    .unwrap()
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, scryper);
criterion_main!(benches);

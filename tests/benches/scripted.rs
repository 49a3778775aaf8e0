//! Scripted games (issue 25): what one move of Scryper costs, its rules being Lua (listed
//! from the mover's view, played on a copy, the end asked), over a whole random game; a move
//! of the ISMCTS AI at each level's effort, after the first set-up; and a whole game of the
//! normal level against the easy.
//! Run: `cargo bench -p scryptic-tests --bench scripted`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::ai::ismcts::{Effort, random_move, search};
use scryptic::ai::{AiPlayer, Level};
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

/// A whole game of Scryper between the AI levels `gold` and `silver`, dealt by `seed`; how
/// many moves it took.
fn levels_game(gold: Level, silver: Level, seed: u64) -> usize {
    let mut game = scryptic_tests::pack_game("scryper", seed, &[]);
    let mut ais = [AiPlayer::new(gold, seed), AiPlayer::new(silver, seed)];
    let mut moves = 0;
    while game.game().result().is_none() {
        let g = game.game();
        let mover = g.choosing().first().copied().unwrap_or(g.to_act());
        let action = ais[mover.index()].choose_scripted_as(g, mover);
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
    group.bench_function("a whole game, normal against easy (seed 70001)", |b| {
        b.iter(|| levels_game(Level::Normal, Level::Easy, 70_001))
    });
    for (level, iterations) in [("easy", 15), ("normal", 60), ("hard", 300)] {
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

//! The engine's speed (issue 4 targets): a commit with combat on a 64x64 mid-game board (under
//! 50 us), replaying a 200-action game (under 5 ms), and connection on a 512x512 board (under
//! 1 ms). Positions come from seeded random games, so every run measures the same ones.
//! Run: `cargo bench -p scryptic-tests --bench game`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use scryptic::board::{Owner, Player, Pos};
use scryptic::game::{Action, Event, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::{Direction, Map, PlacedWord};
use scryptic::save::SaveFile;
use scryptic_tests::random_play::RandomPlayer;
use scryptic_tests::{city, root};
use std::hint::black_box;
use std::sync::Arc;

/// A 64x64 board with the capitals close enough that the crosswords meet.
fn arena() -> Map {
    let mut map = Map::new("Arena 64", 64, 64);
    map.cities = vec![
        city("gold", 26, 32, Owner::Gold),
        city("silver", 37, 32, Owner::Silver),
        city("north", 31, 26, Owner::Neutral),
        city("south", 32, 38, Owner::Neutral),
    ];
    map
}

/// The position just before the first commit after `after` actions that starts a combat, and
/// that commit.
fn combat_position(lexicon: &Arc<Lexicon>, after: usize) -> (Game, Action) {
    let map = arena();
    for seed in 0.. {
        let mut game = Game::new(
            &map,
            map.rule_set().expect("classic"),
            lexicon.clone(),
            seed,
        );
        let mut player = RandomPlayer::new(seed);
        for n in 0..600 {
            if game.result().is_some() {
                break;
            }
            let action = player.choose(&game);
            let before = game.clone();
            let events = game.apply(action.clone()).expect("legal");
            if n >= after && events.iter().any(|e| matches!(e, Event::CombatStarted { defenders, .. } if !defenders.is_empty())) {
                return (before, action);
            }
        }
    }
    unreachable!("some seed reaches a combat")
}

/// A game of at least `actions` actions on the 24x24 duel, as a save. Pools are infinite so
/// that random games last long enough.
fn long_game(lexicon: &Arc<Lexicon>, actions: usize) -> SaveFile {
    let mut map = Map::load(&root().join("maps/duel-24.ron")).expect("the duel loads");
    map.rules.overrides.letters = Some(scryptic::rules::LetterOverrides {
        infinite_pool: Some(true),
        ..Default::default()
    });
    for seed in 0.. {
        let mut game = Game::new(
            &map,
            map.rule_set().expect("classic"),
            lexicon.clone(),
            seed,
        );
        let mut player = RandomPlayer::new(seed);
        while game.log().len() < actions && game.result().is_none() {
            game.apply(player.choose(&game)).expect("legal");
        }
        if game.log().len() >= actions {
            return SaveFile::of(&game);
        }
    }
    unreachable!("some seed plays long enough")
}

/// A 512x512 board covered in gold letters, every one connected to the city in the corner.
fn full_board(lexicon: &Arc<Lexicon>) -> Game {
    let mut map = Map::new("Full 512", 512, 512);
    map.cities = vec![
        city("gold", 0, 0, Owner::Gold),
        city("silver", 511, 511, Owner::Silver),
    ];
    map.scenario.words = (0..511)
        .map(|y| PlacedWord {
            player: Player::Gold,
            at: Pos::new(0, y),
            dir: Direction::Across,
            text: "E".repeat(512),
        })
        .collect();
    Game::new(&map, map.rule_set().expect("classic"), lexicon.clone(), 1)
}

fn game(c: &mut Criterion) {
    let lexicon = Arc::new(Lexicon::english());

    let (position, attack) = combat_position(&lexicon, 30);
    let letters = position
        .board()
        .letters
        .cells()
        .iter()
        .filter(|t| t.is_some())
        .count();
    eprintln!(
        "commit with combat: {letters} letters on the board before the attack, turn {}",
        position.turn()
    );
    c.bench_function("commit with combat, 64x64 mid-game", |b| {
        b.iter_batched(
            || position.clone(),
            |mut g| {
                let events = g.apply(attack.clone()).expect("the attack is legal");
                if g.to_act() != g.active() {
                    g.apply(Action::Defend { order: None })
                        .expect("automatic defence");
                }
                events
            },
            BatchSize::SmallInput,
        )
    });

    let save = long_game(&lexicon, 200);
    let save = SaveFile {
        actions: save.actions[..200].to_vec(),
        ..save
    };
    let commits = save
        .actions
        .iter()
        .filter(|a| matches!(a, Action::Commit { .. }))
        .count();
    eprintln!("replay: 200 actions, {commits} of them commits");
    c.bench_function("replay 200 actions, 24x24 duel", |b| {
        b.iter(|| {
            save.replay(lexicon.clone(), Some(scryptic::ai::spy()))
                .expect("replays")
        })
    });

    let full = full_board(&lexicon);
    c.bench_function("connection, 512x512 full board", |b| {
        b.iter(|| black_box(full.connected_grid(Player::Gold)))
    });
}

criterion_group!(benches, game);
criterion_main!(benches);

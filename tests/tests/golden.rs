//! The move generator's golden baseline: fixed positions (saved games in `tests/golden/`) and
//! how many placements each rack has there. The benchmarks time the same positions. A change
//! to the generator that changes a count fails here; when the rules change on purpose,
//! `SCRYPTIC_BLESS=1 cargo test -p scryptic-tests --test golden` writes the baseline anew.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::ai::{AiPlayer, Level, MoveGen};
use scryptic::game::Game;
use scryptic::lexicon::Lexicon;
use scryptic::map::{GenerateOptions, generate};
use scryptic::save::SaveFile;
use scryptic::{Map, Owner};
use scryptic_tests::golden::{Baseline, Position, baseline_path, load_position};
use scryptic_tests::{city, root};
use std::sync::Arc;

/// A 15x15 plains board with gold's city in the centre (and silver's near the top edge, so
/// that a game can be played on it).
fn plains_15() -> Map {
    let mut map = Map::new("Plains 15".to_string(), 15, 15);
    map.cities.push(city("centre", 7, 7, Owner::Gold));
    map.cities.push(city("north", 7, 1, Owner::Silver));
    map
}

fn played(map: &Map, seed: u64, turns: u32) -> Game {
    let lexicon = Arc::new(Lexicon::english());
    let mut game = Game::new(map, map.rule_set().expect("rules"), lexicon, seed);
    let mut ai = AiPlayer::new(Level::Normal, seed);
    while game.turn() < turns && game.result().is_none() {
        game.apply(ai.choose(&game)).expect("the AI plays legally");
    }
    // The position is the start of a turn for the player to move.
    game
}

/// The positions, made from scratch (only when blessing).
fn positions() -> Vec<(Position, Game)> {
    let plains = plains_15();
    let big = generate(&GenerateOptions {
        name: "Generated 64".into(),
        width: 64,
        height: 64,
        seed: 64,
        neutral_city_pairs: 4,
        token_pairs: 1,
    })
    .expect("the generated map has room for its pieces");
    let make = |name: &str, rack: &str, game: Game| {
        (
            Position {
                name: name.into(),
                save: format!("{name}.ron"),
                rack: rack.into(),
                placements: 0,
            },
            game,
        )
    };
    vec![
        make("plains-15-empty", "AEINRST", played(&plains, 1, 0)),
        make("plains-15-midgame", "AEINRST", played(&plains, 2, 24)),
        make("generated-64-midgame", "AEINRSTLOCDU", played(&big, 3, 60)),
    ]
}

fn bless() {
    let dir = root().join("tests/golden");
    std::fs::create_dir_all(&dir).unwrap();
    let mut generator = MoveGen::new();
    let mut baseline = Baseline::default();
    for (mut position, game) in positions() {
        position.placements = generator.count(&game, game.active(), &position.rack);
        SaveFile::of(&game).save(&dir.join(&position.save)).unwrap();
        baseline.positions.push(position);
    }
    baseline.save(&baseline_path()).unwrap();
}

#[test]
fn the_generator_keeps_its_golden_counts() {
    if std::env::var_os("SCRYPTIC_BLESS").is_some() {
        bless();
    }
    let baseline = Baseline::load(&baseline_path());
    assert!(baseline.positions.len() >= 3);
    let mut generator = MoveGen::new();
    for position in &baseline.positions {
        let game = load_position(position);
        let found = generator.count(&game, game.active(), &position.rack);
        assert_eq!(
            found, position.placements,
            "{}: {} placements of {}, the baseline says {}",
            position.name, found, position.rack, position.placements
        );
    }
}

/// The spy's bounded search (branch and bound, best first, through the GADDAG) finds what an
/// exhaustive search finds on every golden position: the highest attack strength, then the
/// highest face value, among every legal placement of the rack.
#[test]
fn the_strongest_placement_is_the_exhaustive_searchs_on_every_golden_position() {
    let baseline = Baseline::load(&baseline_path());
    let mut generator = MoveGen::new();
    for position in &baseline.positions {
        let game = load_position(position);
        check_strongest(&mut generator, &game, &position.rack, &position.name);
    }
}

/// The same on positions of whole games on the shipped maps, whose terrain the golden
/// positions lack (mountains, water, forest, lava, ice): every few turns of normal AIs' games,
/// the player to move's own rack and a rack of twelve.
#[test]
fn the_strongest_placement_is_the_exhaustive_searchs_in_played_games() {
    let lexicon = Arc::new(Lexicon::english());
    let mut generator = MoveGen::new();
    for (map, seeds) in [
        ("duel-24.ron", 1..4),
        ("tutorial.ron", 1..3),
        ("duel-40.ron", 1..2),
    ] {
        let map = Map::load(&root().join("maps").join(map)).unwrap();
        for seed in seeds {
            let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), seed);
            let mut ai = AiPlayer::new(Level::Normal, seed);
            while game.result().is_none() && game.turn() < 48 {
                if game.turn() % 6 == 1 && game.pending_defenders().is_none() {
                    let player = game.active();
                    let name = format!("{} seed {seed} turn {}", map.name, game.turn());
                    check_strongest(&mut generator, &game, &game.rack_letters(player), &name);
                    check_strongest(&mut generator, &game, "AEINRSTLOCDU", &name);
                }
                game.apply(ai.choose(&game)).expect("the AI plays legally");
            }
        }
    }
}

/// The spy's choice for `rack` in `game` is worth what the best of every placement is worth.
fn check_strongest(generator: &mut MoveGen, game: &Game, rack: &str, name: &str) {
    let player = game.active();
    let worth = |m: &scryptic::ai::Move| {
        let attack = game.word_attack_strength(player, m.key(), m.word()).value;
        (attack, m.face())
    };
    let found = scryptic::ai::spy::strongest(generator, game, player, rack);
    let all = generator.all(game, player, rack);
    let best = all.iter().map(worth).max();
    assert_eq!(found.as_ref().map(worth), best, "{name}, {rack}: {found:?}");
    // The search a word list too large for a GADDAG gets.
    let found = scryptic::ai::spy::strongest_through_words_graph(generator, game, player, rack);
    assert_eq!(
        found.as_ref().map(worth),
        best,
        "{name}, {rack}, words' graph: {found:?}"
    );
}

//! AI costs (issue 6 targets), over the golden positions of `tests/golden/movegen.ron`:
//! every placement of AEINRST on an empty 15x15 plains board with one city (under 150 us) and
//! on a busy one; every placement of a 12-letter rack on a 64x64 mid-game board (under 60 ms)
//! and the strongest one (under 10 ms); a hard AI move on the 40x40 duel (under 1 s); 100
//! normal-against-normal games on the 24x24 duel (under 60 s on two cores), and 40 games of
//! each level pair (issue 26: games a second); and simultaneous
//! play's crossword search: a normal AI's first crossword of 25 and of 49 tiles on Lexicon
//! Crossing's table.
//! Run: `cargo bench -p scryptic-tests --bench ai`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::Map;
use scryptic::ai::simulate::{self, Setup};
use scryptic::ai::spy::strongest;
use scryptic::ai::{AiPlayer, Level, MoveGen, Think};
use scryptic::game::Game;
use scryptic::lexicon::Lexicon;
use scryptic_tests::golden::{Baseline, baseline_path, load_position};
use scryptic_tests::root;
use std::sync::Arc;
use std::time::Duration;

fn shipped(name: &str) -> Map {
    Map::load(&root().join("maps").join(name)).expect("the map loads")
}

fn movegen(c: &mut Criterion) {
    let baseline = Baseline::load(&baseline_path());
    let mut generator = MoveGen::new();
    let mut group = c.benchmark_group("move generation");
    for position in &baseline.positions {
        let game = load_position(position);
        let player = game.active();
        // The graph is made on first use; keep that out of the timing.
        generator.count(&game, player, &position.rack);
        group.bench_function(
            format!("all placements of {} on {}", position.rack, position.name),
            |b| b.iter(|| generator.count(&game, player, &position.rack)),
        );
        group.bench_function(
            format!(
                "strongest placement of {} on {}",
                position.rack, position.name
            ),
            |b| b.iter(|| strongest(&mut generator, &game, player, &position.rack)),
        );
    }
    group.finish();
    strongest_in_played_games(c);
}

/// The spy on positions of whole games (terrain and both players' crosswords), as a player
/// meets it: every sixth turn of four normal-against-normal games on the 24x24 duel, the
/// player to move's own rack; all positions in one iteration.
fn strongest_in_played_games(c: &mut Criterion) {
    let lexicon = Arc::new(Lexicon::english());
    let duel = shipped("duel-24.ron");
    let mut positions = Vec::new();
    for seed in 1..5 {
        let mut game = Game::new(
            &duel,
            duel.rule_set().expect("rules"),
            lexicon.clone(),
            seed,
        );
        let mut ai = AiPlayer::new(Level::Normal, seed);
        while game.result().is_none() && game.turn() < 48 {
            if game.turn() % 6 == 1 && game.pending_defenders().is_none() {
                positions.push(game.clone());
            }
            game.apply(ai.choose(&game)).expect("legal");
        }
    }
    let mut generator = MoveGen::new();
    let mut group = c.benchmark_group("move generation");
    group.bench_function(
        format!(
            "strongest placement on {} positions of duel-24 games",
            positions.len()
        ),
        |b| {
            b.iter(|| {
                for game in &positions {
                    let player = game.active();
                    strongest(&mut generator, game, player, &game.rack_letters(player));
                }
            })
        },
    );
    group.finish();
}

fn players(c: &mut Criterion) {
    let lexicon = Arc::new(Lexicon::english());
    let duel_40 = shipped("duel-40.ron");
    let mut game = Game::new(
        &duel_40,
        duel_40.rule_set().expect("rules"),
        lexicon.clone(),
        7,
    );
    let mut normal = AiPlayer::new(Level::Normal, 7);
    while game.turn() < 30 && game.result().is_none() {
        game.apply(normal.choose(&game)).expect("legal");
    }
    let mut hard = AiPlayer::new(Level::Hard, 7);
    let mut group = c.benchmark_group("AI players");
    group.sample_size(20);
    group.bench_function("hard AI move, duel-40 turn 30", |b| {
        b.iter(|| hard.choose(&game))
    });
    // The simulation step's cost: eight worlds of six candidates, each answered.
    let mut thinking = AiPlayer::new(Level::Hard, 7).thinking(Think::Samples(8));
    group.bench_function("hard AI move thinking 8 worlds, duel-40 turn 30", |b| {
        b.iter(|| thinking.choose(&game))
    });
    group.bench_function("normal AI move, duel-40 turn 30", |b| {
        b.iter(|| normal.choose(&game))
    });
    group.finish();

    let duel_24 = shipped("duel-24.ron");
    let setup = Setup {
        rules: duel_24.rule_set().expect("rules"),
        map: Arc::new(duel_24),
        lexicon,
        levels: vec![Level::Normal, Level::Normal],
        thinks: Vec::new(),
        first_seed: 1,
        games: 100,
        max_actions: 5000,
        start: None,
    };
    let mut group = c.benchmark_group("simulation");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("100 normal-against-normal games, duel-24", |b| {
        b.iter(|| simulate::run(&setup, &|_| {}))
    });
    // Games a second by level pair (issue 26): 40 games of each pair on all cores.
    for pair in [
        [Level::Easy, Level::Easy],
        [Level::Hard, Level::Normal],
        [Level::Hard, Level::Hard],
    ] {
        let pair_setup = Setup {
            levels: pair.to_vec(),
            thinks: Vec::new(),
            games: 40,
            ..setup.clone()
        };
        group.bench_function(
            format!("40 {}-against-{} games, duel-24", pair[0], pair[1]),
            |b| b.iter(|| simulate::run(&pair_setup, &|_| {})),
        );
    }
    group.finish();
}

/// Lexicon Crossing's table under its 98-tile rules, gold holding `tiles` letters of the set;
/// `last`: the pool can serve no more green lights (the crossword searched is the one scored).
fn crossing_game(tiles: usize, last: bool) -> Game {
    let pack = root().join("packs/lexicon-crossing");
    let mut map = Map::load(&pack.join("maps/table.ron")).unwrap();
    let mut rules = scryptic::rules::RuleSet::load(&pack.join("rules/s98.ron")).unwrap();
    if last {
        rules.flow.green_light_draw = 1000;
    }
    // A deal of the set's letters in order: the same rack every run.
    let set: String = rules
        .letters
        .tiles
        .iter()
        .flat_map(|(&c, t)| std::iter::repeat_n(c, t.count as usize))
        .step_by(2)
        .take(tiles)
        .collect();
    map.scenario.racks.insert(scryptic::Player::Gold, set);
    Game::new(&map, rules, Arc::new(Lexicon::english()), 1)
}

fn crosswords(c: &mut Criterion) {
    let mut group = c.benchmark_group("crossword search");
    group.sample_size(10);
    for tiles in [25, 49] {
        let game = crossing_game(tiles, false);
        group.bench_function(
            format!("normal AI's first crossword of {tiles} tiles"),
            |b| {
                b.iter(|| {
                    AiPlayer::new(Level::Normal, 1).choose_at_once(&game, scryptic::Player::Gold)
                })
            },
        );
    }
    // The last crossword, searched afresh (and by the hard level improved): the longest a
    // level thinks at once, holding its match on a server.
    let last = crossing_game(25, true);
    for level in Level::ALL {
        group.bench_function(format!("{level} AI's last crossword of 25 tiles"), |b| {
            b.iter(|| AiPlayer::new(level, 1).choose_at_once(&last, scryptic::Player::Gold))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, players, crosswords);
criterion_main!(benches);

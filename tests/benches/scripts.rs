//! Scripting costs (issue 5 targets): one event to one handler (under 5 us), a whole scripted
//! game against the same game unscripted (overhead under 20%), and a file saved to its new
//! handlers active (under 300 ms); `simulate` with a level's scripts against without them
//! (at most 1.5 times the time). Run: `cargo bench -p scryptic-tests --bench scripts`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::game::{Action, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::save::{SaveFile, ScriptSource};
use scryptic::script::watch::Watcher;
use scryptic::script::{EventField, ScriptHost, ScriptLimits, ScriptedGame};
use scryptic_tests::random_play::RandomPlayer;
use scryptic_tests::root;
use std::sync::Arc;
use std::time::Duration;

/// 200 actions of a random game on the third campaign map, and its campaign script.
fn campaign_game(lexicon: &Arc<Lexicon>) -> (Map, Vec<Action>, ScriptSource) {
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .expect("the map loads");
    let name = "packs/wending/scripts/3-the-burning-throne.lua";
    let script = ScriptSource {
        name: name.into(),
        source: std::fs::read_to_string(root().join(name)).expect("the script"),
    };
    let mut game = Game::new(&map, map.rule_set().expect("rules"), lexicon.clone(), 5);
    let mut player = RandomPlayer::new(5);
    while game.log().len() < 200 && game.result().is_none() {
        game.apply(player.choose(&game)).expect("legal");
    }
    (map, game.log().to_vec(), script)
}

fn scripts(c: &mut Criterion) {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).expect("a host");
    host.load(
        "bench.lua",
        "local n = 0\nscryptic.on('turn_end', function(game, ev) n = n + 1 end)",
    )
    .expect("loads");
    c.bench_function("one event to one handler", |b| {
        b.iter(|| {
            let fields = [
                ("player", EventField::Word("gold")),
                ("passed", EventField::Bool(true)),
            ];
            let errors = host.dispatch_event("turn_end", Some(1), &fields);
            assert!(errors.is_empty());
        })
    });

    // What every scripted game pays once: a sandboxed state with the API, the frozen
    // libraries, storage, and the four standard elementals loaded.
    c.bench_function("new host with the standard elementals", |b| {
        b.iter(|| ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).expect("a host"))
    });

    let lexicon = Arc::new(Lexicon::english());
    let (map, actions, script) = campaign_game(&lexicon);
    let commits = actions
        .iter()
        .filter(|a| matches!(a, Action::Commit { .. }))
        .count();
    eprintln!(
        "scripted game: {} actions ({commits} commits) on {}",
        actions.len(),
        map.name
    );
    let plain = SaveFile {
        actions: actions.clone(),
        ..SaveFile::of(&Game::new(
            &map,
            map.rule_set().expect("rules"),
            lexicon.clone(),
            5,
        ))
    };
    let scripted = SaveFile {
        scripts: vec![script],
        ..plain.clone()
    };
    // Each Lua elemental invoked on its own, on the campaign map as the game left it, against
    // the engine's built-in one.
    let (played, _) = plain
        .replay(lexicon.clone(), Some(scryptic::ai::spy()))
        .expect("replays");
    let mut tokens = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).expect("a host");
    let spot = scryptic::board::Pos::new(10, 10);
    let mut group = c.benchmark_group("one token");
    for kind in ["volcano", "flood", "drought", "firestorm"] {
        group.bench_function(format!("{kind}, Lua"), |b| {
            b.iter(|| {
                tokens
                    .invoke_token(
                        &scryptic_tests::invocation(kind, spot),
                        played.board(),
                        played.rules(),
                        &mut scryptic_tests::rng(1),
                    )
                    .expect("acts")
            })
        });
        group.bench_function(format!("{kind}, built in"), |b| {
            let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
            b.iter(|| {
                scryptic::game::TokenEffects::effect(
                    &scryptic::game::StandardElementals,
                    &scryptic_tests::invocation(kind, spot),
                    played.board(),
                    played.rules(),
                    &mut rng,
                )
                .expect("acts")
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("whole game");
    // The scripted lines vary more than the engine's (each sample makes Lua states): longer
    // runs keep their figures within a few percent from one sitting to the next.
    group.sample_size(40);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("replay, unscripted", |b| {
        b.iter(|| {
            plain
                .replay(lexicon.clone(), Some(scryptic::ai::spy()))
                .expect("replays")
        })
    });
    group.bench_function("replay, scripted (state, scripts and play)", |b| {
        b.iter(|| ScriptedGame::from_save(&scripted, lexicon.clone()).expect("replays"))
    });
    let rules = map.rule_set().expect("rules");
    group.bench_function("play only, unscripted", |b| {
        b.iter_batched(
            || Game::new(&map, rules.clone(), lexicon.clone(), 5),
            |mut game| {
                for a in &actions {
                    game.apply(a.clone()).expect("legal");
                }
                game
            },
            criterion::BatchSize::SmallInput,
        )
    });
    // With the standard elementals only (what every game a player starts runs), and with the
    // campaign's script as well: the first against the unscripted game is the Lua elementals'
    // cost, the second against the first the campaign script's.
    let levels = [
        ("play only, standard elementals only", Vec::new()),
        ("play only, scripted", scripted.scripts.clone()),
    ];
    for (name, scripts) in levels {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    ScriptedGame::start(
                        &map,
                        rules.clone(),
                        lexicon.clone(),
                        5,
                        scripts.clone(),
                        None,
                    )
                    .expect("starts")
                    .0
                },
                |mut game| {
                    for a in &actions {
                        game.apply(a.clone()).expect("legal");
                    }
                    game
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    group.finish();

    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("live.lua");
    std::fs::write(&file, "scryptic.on('turn_end', function() end)").expect("write");
    let watcher = Watcher::new(std::slice::from_ref(&file)).expect("a watcher");
    let mut live = ScriptHost::new(ScriptLimits::default(), 1).expect("a host");
    live.load("live.lua", "scryptic.on('turn_end', function() end)")
        .expect("loads");
    let mut version = 0u64;
    let mut group = c.benchmark_group("hot reload");
    group.sample_size(10);
    group.bench_function("file saved to new handlers active", |b| {
        b.iter(|| {
            version += 1;
            let source = format!("scryptic.on('turn_end', function() return {version} end)");
            std::fs::write(&file, &source).expect("write");
            let changed = watcher.wait(Duration::from_secs(5));
            assert!(!changed.is_empty(), "the change is seen");
            let text = std::fs::read_to_string(&file).expect("read");
            live.reload("live.lua", &text).expect("reloads");
        })
    });
    group.finish();
}

/// `simulate` on the Wending's first chapter with its scripts taking part, against the same
/// map and rules without them (issue 45's target: at most 1.5 times the time).
fn simulation_with_scripts(c: &mut Criterion) {
    use scryptic::ai::Level;
    use scryptic::ai::simulate::{self, Setup};
    let level = scryptic_tests::pack_level("wending", &[]);
    let lexicon = Arc::new(Lexicon::english());
    let bare = Setup {
        map: Arc::new(level.map.clone()),
        rules: level.rules.clone(),
        lexicon: lexicon.clone(),
        levels: vec![Level::Normal, Level::Normal],
        thinks: Vec::new(),
        first_seed: 1,
        games: 20,
        max_actions: 5000,
        start: None,
    };
    let scripted = Setup {
        start: ScriptedGame::simulation_starter(&level, &lexicon),
        ..bare.clone()
    };
    assert!(scripted.start.is_some(), "the chapter has scripts");
    let mut group = c.benchmark_group("simulation with scripts");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(
        "20 normal games, wending chapter 1, without its scripts",
        |b| b.iter(|| simulate::run(&bare, &|_| {})),
    );
    group.bench_function(
        "20 normal games, wending chapter 1, with its scripts",
        |b| b.iter(|| simulate::run(&scripted, &|_| {})),
    );
    group.finish();
}

criterion_group!(benches, scripts, simulation_with_scripts);
criterion_main!(benches);

//! Runs one of the scripting benchmarks' operations N times, for counting instructions under
//! callgrind where the clock is too noisy to compare two builds (PERFORMANCE.md): the count
//! of a run of 2N less that of a run of N is N operations, setup left out.
//!
//! `cargo build --release -p scryptic-tests --example instructions`, then
//! `valgrind --tool=callgrind target/release/examples/instructions OPERATION N` with OPERATION
//! one of `event`, `token`, `play-elementals`, `play-scripted` (a whole game started, then
//! played: `start-elementals` and `start-scripted` only start it), `replay-scripted`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::game::{Action, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::save::{SaveFile, ScriptSource};
use scryptic::script::{EventField, ScriptHost, ScriptLimits, ScriptedGame};
use scryptic_tests::random_play::RandomPlayer;
use scryptic_tests::root;
use std::sync::Arc;

/// 200 actions of a random game on the third campaign map, and its campaign script (as the
/// benchmarks' `campaign_game`).
fn campaign_game(lexicon: &Arc<Lexicon>) -> (Map, Vec<Action>, ScriptSource) {
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .unwrap();
    let name = "packs/wending/scripts/3-the-burning-throne.lua";
    let script = ScriptSource {
        name: name.into(),
        source: std::fs::read_to_string(root().join(name)).unwrap(),
    };
    let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), 5);
    let mut player = RandomPlayer::new(5);
    while game.log().len() < 200 && game.result().is_none() {
        game.apply(player.choose(&game)).unwrap();
    }
    (map, game.log().to_vec(), script)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let operation = args.get(1).map_or("event", String::as_str);
    let n: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let lexicon = Arc::new(Lexicon::english());
    let (map, actions, script) = campaign_game(&lexicon);
    let rules = map.rule_set().unwrap();
    match operation {
        "event" => {
            let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
            host.load(
                "bench.lua",
                "local n = 0\nscryptic.on('turn_end', function(game, ev) n = n + 1 end)",
            )
            .unwrap();
            let fields = [
                ("player", EventField::Word("gold")),
                ("passed", EventField::Bool(true)),
            ];
            for _ in 0..n {
                assert!(host.dispatch_event("turn_end", Some(1), &fields).is_empty());
            }
        }
        "token" => {
            let plain = SaveFile {
                actions: actions.clone(),
                ..SaveFile::of(&Game::new(&map, rules, lexicon.clone(), 5))
            };
            let (played, _) = plain.replay(lexicon, Some(scryptic::ai::spy())).unwrap();
            let mut tokens = ScriptHost::with_standard_tokens(ScriptLimits::default(), 1).unwrap();
            let spot = scryptic::board::Pos::new(10, 10);
            for _ in 0..n {
                tokens
                    .invoke_token(
                        &scryptic_tests::invocation("volcano", spot),
                        played.board(),
                        played.rules(),
                        &mut scryptic_tests::rng(1),
                    )
                    .unwrap();
            }
        }
        "play-elementals" | "play-scripted" | "start-elementals" | "start-scripted" => {
            let scripts = if operation.ends_with("scripted") {
                vec![script]
            } else {
                Vec::new()
            };
            for _ in 0..n {
                let (mut game, _) = ScriptedGame::start(
                    &map,
                    rules.clone(),
                    lexicon.clone(),
                    5,
                    scripts.clone(),
                    None,
                )
                .unwrap();
                if operation.starts_with("play") {
                    for action in &actions {
                        game.apply(action.clone()).unwrap();
                    }
                }
            }
        }
        "replay-scripted" => {
            let scripted = SaveFile {
                actions,
                scripts: vec![script],
                ..SaveFile::of(&Game::new(&map, rules, lexicon.clone(), 5))
            };
            for _ in 0..n {
                ScriptedGame::from_save(&scripted, lexicon.clone()).unwrap();
            }
        }
        other => panic!("unknown operation {other}"),
    }
}

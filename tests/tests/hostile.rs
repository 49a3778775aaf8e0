//! The hostile-script corpus (`tests/hostile/`): scripts written to hang, crash or bloat the
//! host. Each file says on its first line what must stop it (`-- expect: MESSAGE`). Those at
//! the top are run once as a script being loaded and once as an event handler; those in
//! `game/` as a handler with the game to command, those in `token/` as a token's effect. Each
//! time the script must be stopped with that message, naming the file and a line, with the
//! host and the game going on afterwards.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::board::Player;
use scryptic::game::{Action, EffectError};
use scryptic::lexicon::Lexicon;
use scryptic::script::{ScriptError, ScriptHost, ScriptLimits};
use scryptic_tests::hostile::{
    Hostile, NO_ERROR, corpus, hostile_game, run_as_token, run_events, run_in_game,
};
use std::sync::Arc;

/// What the host's memory may be after a hostile script, well under the cap.
const MEMORY_AFTER: usize = 4 * 1024 * 1024;

/// The error stops the script with the expected message, naming its file and a line.
fn check(hostile: &Hostile, how: &str, error: &ScriptError) {
    assert!(
        error.message.contains(&hostile.expect),
        "{} ({how}): expected `{}`, got: {error}",
        hostile.name,
        hostile.expect
    );
    assert_eq!(
        error.script, hostile.name,
        "{} ({how}): {error}",
        hostile.name
    );
    assert!(
        error.line.is_some(),
        "{} ({how}) names no line: {error}",
        hostile.name
    );
}

/// The other handler ran (it awards silver a point), and the host goes on.
fn check_the_game_goes_on(hostile: &Hostile, game: &scryptic::script::ScriptedGame) {
    assert_eq!(
        game.game().score(Player::Silver).base,
        1,
        "{}: the other handler did not run",
        hostile.name
    );
    check_goes_on(hostile, &mut game.host());
}

/// The host still loads and runs scripts, and gave its memory back.
fn check_goes_on(hostile: &Hostile, host: &mut ScriptHost) {
    host.load("after.lua", "local t = {} for i = 1, 1000 do t[i] = i end")
        .unwrap_or_else(|e| panic!("{}: the host does not go on: {e}", hostile.name));
    assert!(
        host.used_memory() < MEMORY_AFTER,
        "{}: {} bytes still in use",
        hostile.name,
        host.used_memory()
    );
}

#[test]
fn every_hostile_script_is_stopped_when_loaded() {
    let all = corpus("");
    assert!(all.len() >= 15, "the corpus is in tests/hostile");
    for hostile in all {
        let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
        let error = host
            .load(&hostile.name, &hostile.source)
            .expect_err(&hostile.name);
        check(&hostile, "load", &error);
        check_goes_on(&hostile, &mut host);
    }
}

#[test]
fn every_hostile_script_is_stopped_in_an_event_and_the_others_still_run() {
    for hostile in corpus("") {
        let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
        host.load(
            "counter.lua",
            "calls = 0\nscryptic.on('turn_start', function() calls = calls + 1 end)",
        )
        .unwrap();
        // On the first line, so that the file's line numbers stay as they are.
        let handler = format!(
            "scryptic.on('turn_start', function() {}\nend)",
            hostile.source
        );
        host.load(&hostile.name, &handler).unwrap();
        let errors = host.dispatch_event("turn_start", Some(3), &[]);
        assert_eq!(errors.len(), 1, "{}: {errors:?}", hostile.name);
        check(&hostile, "event", &errors[0]);
        assert_eq!(errors[0].turn, Some(3));
        let after = host.dispatch_event("turn_start", Some(4), &[]);
        assert!(
            after.len() <= 1,
            "{}: the other handler failed: {after:?}",
            hostile.name
        );
        check_goes_on(&hostile, &mut host);
    }
}

#[test]
fn every_hostile_command_is_stopped_and_the_game_goes_on() {
    let lexicon = Arc::new(Lexicon::english());
    let all = corpus("game");
    assert!(all.len() >= 5, "the corpus is in tests/hostile/game");
    for hostile in all {
        let (game, errors) = run_in_game(&hostile, lexicon.clone());
        assert_eq!(errors.len(), 1, "{}: {errors:?}", hostile.name);
        check(&hostile, "command", &errors[0]);
        check_the_game_goes_on(&hostile, &game);
        let held = game.game().rack_letters(Player::Gold).chars().count();
        assert!(
            held <= scryptic::limits::MAX_RACK,
            "{}: gold holds {held}",
            hostile.name
        );
        // One spot a cell at most (the script places its spots on 64 cells; the map has one).
        assert!(game.game().board().tokens.len() <= 65, "{}", hostile.name);
    }
}

#[test]
fn every_host_call_with_a_huge_argument_is_bounded_and_the_game_goes_on() {
    let lexicon = Arc::new(Lexicon::english());
    let all = corpus("calls");
    assert!(all.len() >= 8, "the corpus is in tests/hostile/calls");
    for hostile in all {
        let (game, errors) = run_in_game(&hostile, lexicon.clone());
        if hostile.expect == NO_ERROR {
            assert!(errors.is_empty(), "{}: {errors:?}", hostile.name);
        } else {
            assert_eq!(errors.len(), 1, "{}: {errors:?}", hostile.name);
            check(&hostile, "call", &errors[0]);
        }
        check_the_game_goes_on(&hostile, &game);
    }
}

/// Everything one event makes the scripts run shares one budget: whatever they do, an action
/// spends at most about `ScriptLimits::instructions`, the pack that spent them is named, and a
/// pack that keeps doing so is switched off.
#[test]
fn every_event_is_bounded_whatever_its_scripts_trigger() {
    let lexicon = Arc::new(Lexicon::english());
    let all = corpus("events");
    assert!(all.len() >= 4, "the corpus is in tests/hostile/events");
    let limit = ScriptLimits::default().instructions;
    // The units the host charges for its own work past the last check (a few hundred).
    let bounded = |spent: u64| spent <= limit + limit / 100;
    for hostile in all {
        let (mut game, _) = run_events(&hostile, lexicon.clone());
        let spent = game.last_event_instructions();
        assert!(bounded(spent), "{}: the start spent {spent}", hostile.name);
        for _ in 0..3 {
            game.apply(Action::EndTurn)
                .unwrap_or_else(|e| panic!("{}: {e}", hostile.name));
            let spent = game.last_event_instructions();
            assert!(bounded(spent), "{}: an action spent {spent}", hostile.name);
        }
        let console = scryptic_tests::console_lines(&game).join("\n");
        assert!(
            console.contains(&hostile.expect) && console.contains("the level"),
            "{}: expected `{}` naming the level: {console}",
            hostile.name,
            hostile.expect
        );
        assert!(
            console.contains("its handlers and win conditions are switched off"),
            "{}: the level spent whole events and goes on: {console}",
            hostile.name
        );
        // Switched off, the level's scripts no longer stall the game.
        game.apply(Action::EndTurn).unwrap();
        let spent = game.last_event_instructions();
        assert!(spent < limit / 2, "{}: still spends {spent}", hostile.name);
    }
}

/// What a script prints, tells or raises is marked as the script's on every line: a forged
/// host line (`-- expect: LINE`) appears in the console only inside the script's own line.
#[test]
fn no_line_a_script_makes_passes_for_the_hosts() {
    let lexicon = Arc::new(Lexicon::english());
    let all = corpus("output");
    assert!(all.len() >= 4, "the corpus is in tests/hostile/output");
    for hostile in all {
        let (game, _) = run_in_game(&hostile, lexicon.clone());
        let console = scryptic_tests::console_lines(&game).join("\n");
        let forged = hostile.expect.trim_start_matches("* ");
        assert!(
            console.contains(forged),
            "{}: the script did not run: {console}",
            hostile.name
        );
        for line in console.lines() {
            assert!(
                !line.trim_start().starts_with(&hostile.expect),
                "{}: a line passes for the host's: {line:?}",
                hostile.name
            );
        }
    }
}

#[test]
fn every_hostile_token_is_refused_and_changes_nothing() {
    let game = hostile_game(Arc::new(Lexicon::english()));
    for hostile in corpus("token") {
        let (mut host, outcome) = run_as_token(&hostile, &game);
        match outcome {
            Err(EffectError::Failed(message)) => {
                assert!(
                    message.contains(&hostile.expect) && message.contains(&hostile.name),
                    "{}: expected `{}` naming the file, got: {message}",
                    hostile.name,
                    hostile.expect
                );
            }
            other => panic!("{}: expected a refusal, got {other:?}", hostile.name),
        }
        check_goes_on(&hostile, &mut host);
    }
}

/// A handler, timer or win condition that fails every time it runs (the scripts of
/// `tests/hostile/failing/`) is switched off after `failures_before_disable` failures, as a
/// pack that spends whole events is, saying so once, and no error names a memory address
/// (an error object once showed `table: 0x...`, which differs between a game and its
/// replay); the game goes on. A strength modifier is left out on purpose: it is asked at every
/// preview and search, so counting its failures would make a game depend on how often.
#[test]
fn whatever_fails_every_time_is_switched_off_once() {
    use scryptic::script::{ConsoleLine, ScriptedGame};
    let limit = ScriptLimits::default().failures_before_disable as usize;
    let all = corpus("failing");
    assert!(all.len() >= 4, "the corpus is there");
    for hostile in all {
        let mut map = scryptic_tests::hostile::hostile_map();
        for seat in [Player::Gold, Player::Silver] {
            map.scenario.pools.insert(seat, String::new());
        }
        let mut rules = map.rule_set().unwrap();
        rules.end.passes_to_end = 40;
        let script = scryptic::save::ScriptSource {
            name: hostile.name.clone(),
            source: hostile.source.clone(),
        };
        let lexicon = Arc::new(Lexicon::english());
        // The first turn's start is the first time a turn_start handler fails.
        let (mut game, _) =
            ScriptedGame::start(&map, rules, lexicon, 1, vec![script], None).unwrap();
        for _ in 0..12 {
            game.apply(Action::EndTurn).unwrap();
        }
        assert!(
            game.game().result().is_none(),
            "{}: the game goes on",
            hostile.name
        );
        let console = game.host().drain_console();
        // Its errors, counting those the console kept as "the same again N more times".
        let mut failures = 0;
        let mut last_was_its = false;
        for line in &console {
            match line {
                ConsoleLine::Error(e) => {
                    last_was_its = e.script == hostile.name;
                    failures += usize::from(last_was_its);
                    assert!(!e.message.contains("0x"), "an address: {e}");
                }
                ConsoleLine::Notice(n) if last_was_its && n.starts_with("the same again ") => {
                    let more = n["the same again ".len()..].split(' ').next().unwrap();
                    failures += more.parse::<usize>().unwrap();
                }
                _ => last_was_its = false,
            }
        }
        let told = console
            .iter()
            .filter(|l| matches!(l, ConsoleLine::Notice(n) if n.contains(&hostile.expect)))
            .count();
        assert_eq!(
            (failures, told),
            (limit, 1),
            "{}: {}",
            hostile.name,
            console
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

//! The whole process's memory while hostile scripts run: every byte the host allocates (Lua's
//! heap, the console, messages, command arguments, results, error texts) is counted by this
//! test's allocator, and the peak while any one script runs stays within the scripts' memory
//! cap plus a fixed margin. In a binary of its own so that no other test allocates meanwhile.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::lexicon::Lexicon;
use scryptic::script::{ScriptHost, ScriptLimits};
use scryptic_tests::counting::{CountingAllocator, peak_growth};
use scryptic_tests::hostile::{Hostile, corpus, hostile_game, run_as_token, run_in_game};
use std::sync::Arc;

/// What the host may allocate beyond the scripts' cap while a script runs: the state's own
/// tables, one script's text and the bounded copies the host keeps.
const MARGIN: usize = 8 * 1024 * 1024;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn check(hostile: &Hostile, growth: usize) {
    let cap = ScriptLimits::default().memory_bytes;
    println!("{}: {} KiB", hostile.name, growth / 1024);
    assert!(
        growth <= cap + MARGIN,
        "{}: the process grew by {growth} bytes, past the cap ({cap}) and the margin ({MARGIN})",
        hostile.name
    );
}

#[test]
fn no_hostile_script_grows_the_process_past_the_cap() {
    let lexicon = Arc::new(Lexicon::english());
    let game = hostile_game(lexicon.clone());
    for hostile in corpus("") {
        let growth = peak_growth(|| {
            let mut host = ScriptHost::new(ScriptLimits::default(), 1).unwrap();
            let handler = format!(
                "scryptic.on('turn_start', function() {}\nend)",
                hostile.source
            );
            assert!(host.load(&hostile.name, &hostile.source).is_err());
            host.load("handler.lua", &handler).unwrap();
            assert_eq!(host.dispatch_event("turn_start", Some(1), &[]).len(), 1);
        });
        check(&hostile, growth);
    }
    for hostile in corpus("game") {
        let growth = peak_growth(|| {
            let (_, errors) = run_in_game(&hostile, lexicon.clone());
            assert_eq!(errors.len(), 1, "{}", hostile.name);
        });
        check(&hostile, growth);
    }
    for hostile in corpus("calls") {
        let growth = peak_growth(|| drop(run_in_game(&hostile, lexicon.clone())));
        check(&hostile, growth);
    }
    for hostile in corpus("token") {
        let growth = peak_growth(|| assert!(run_as_token(&hostile, &game).1.is_err()));
        check(&hostile, growth);
    }
}

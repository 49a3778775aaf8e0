//! The loaders under damage: every regression input kept in `tests/fuzz/` (each crash the
//! fuzzers ever found), then seeded mutations of real files, go through every loader's fuzz
//! target (`scryptic_tests::fuzz`). None may panic, and none may make the heap grow past
//! `MOST_HEAP_BYTES` (an abort from a huge allocation ends the test binary, which fails too).
//!
//! CI runs a short seeded pass. A longer one by hand, in release:
//! `SCRYPTIC_FUZZ_INPUTS=20000 SCRYPTIC_FUZZ_SEED=7 cargo test --release -p scryptic-tests --test fuzz`;
//! coverage-guided fuzzing is in `fuzz/` (see its README).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use scryptic_tests::counting::{CountingAllocator, peak_growth};
use scryptic_tests::fuzz::{Target, mutate};
use std::panic::{AssertUnwindSafe, catch_unwind};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// The most heap any one input may take (the english lexicon and a game take a few MiB).
const MOST_HEAP_BYTES: usize = 512 * 1024 * 1024;

/// Inputs per target in CI: a few seconds in all.
const CI_INPUTS: usize = 120;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs one input through `target`; says whether it loaded, or what went wrong.
fn check(target: Target, input: &[u8]) -> Result<bool, String> {
    let mut outcome = Ok(false);
    let grew = peak_growth(|| outcome = catch_unwind(AssertUnwindSafe(|| target.run(input))));
    match outcome {
        Err(panic) => Err(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        )),
        Ok(_) if grew > MOST_HEAP_BYTES => Err(format!("took {grew} bytes of heap")),
        Ok(loaded) => Ok(loaded),
    }
}

/// Keeps a failing input beside the regressions, so that it can be added to them.
fn keep(target: Target, input: &[u8], n: usize) -> String {
    let dir = std::env::temp_dir()
        .join("scryptic-fuzz-failures")
        .join(target.name());
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("failure-{n}"));
    let _ = std::fs::write(&path, input);
    format!(
        "the input is kept at {} (copy it into tests/fuzz/{}/ once fixed)",
        path.display(),
        target.name()
    )
}

#[test]
fn every_loader_survives_its_regressions_and_seeded_mutations() {
    // Panics are caught and reported below, with the input; the default hook would print each.
    std::panic::set_hook(Box::new(|_| {}));
    let inputs = setting("SCRYPTIC_FUZZ_INPUTS", CI_INPUTS as u64) as usize;
    let seed = setting("SCRYPTIC_FUZZ_SEED", 2026);
    let mut failures = Vec::new();
    for target in Target::ALL {
        for path in target.regressions() {
            let bytes = std::fs::read(&path).expect("a regression input is readable");
            if let Err(e) = check(target, &bytes) {
                failures.push(format!("{} {}: {e}", target.name(), path.display()));
            }
        }
        let seeds: Vec<Vec<u8>> = target
            .seeds()
            .iter()
            .map(|p| std::fs::read(p).expect("a seed file is readable"))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ target as u64);
        let mut loaded = 0;
        for n in 0..inputs {
            let input = mutate(&mut rng, &seeds[n % seeds.len()]);
            match check(target, &input) {
                Ok(true) => loaded += 1,
                Ok(false) => {}
                Err(e) => failures.push(format!(
                    "{} mutation {n} (seed {seed}): {e}; {}",
                    target.name(),
                    keep(target, &input, n)
                )),
            }
        }
        // Shown with --nocapture: how many damaged files still loaded (and were used).
        println!("{}: {inputs} mutations, {loaded} loaded", target.name());
    }
    let _ = std::panic::take_hook();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mutations_are_seeded() {
    let seed = b"(version: 1, size: (width: 12, height: 12))".to_vec();
    let a = mutate(&mut ChaCha8Rng::seed_from_u64(5), &seed);
    let b = mutate(&mut ChaCha8Rng::seed_from_u64(5), &seed);
    assert_eq!(a, b);
}

//! The hostile-script corpus (`tests/hostile/`): scripts written to hang, crash or bloat the
//! host. Each file says on its first line what must stop it (`-- expect: MESSAGE`); it is run
//! once as a script being loaded and once as an event handler, and each time it must be
//! stopped with that message, naming the file and a line, with the host going on afterwards.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::script::{ScriptError, ScriptHost, ScriptLimits};
use scryptic_tests::root;
use std::path::Path;

/// What the host's memory may be after a hostile script, well under the cap.
const MEMORY_AFTER: usize = 4 * 1024 * 1024;

/// One hostile script: its name, its text and the message that must stop it.
struct Hostile {
    name: String,
    source: String,
    expect: String,
}

fn corpus() -> Vec<Hostile> {
    let dir = root().join("tests/hostile");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    files.sort();
    assert!(files.len() >= 15, "the corpus is in {}", dir.display());
    files.iter().map(|path| read_hostile(path)).collect()
}

fn read_hostile(path: &Path) -> Hostile {
    let source = std::fs::read_to_string(path).unwrap();
    let expect = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("-- expect: "))
        .unwrap_or_else(|| panic!("{} starts with `-- expect: MESSAGE`", path.display()))
        .to_string();
    Hostile {
        name: format!("hostile/{}", path.file_name().unwrap().to_string_lossy()),
        source,
        expect,
    }
}

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
    for hostile in corpus() {
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
    for hostile in corpus() {
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
        let errors = host.dispatch_event("turn_start", Some(3), None, &[]);
        assert_eq!(errors.len(), 1, "{}: {errors:?}", hostile.name);
        check(&hostile, "event", &errors[0]);
        assert_eq!(errors[0].turn, Some(3));
        let after = host.dispatch_event("turn_start", Some(4), None, &[]);
        assert!(
            after.len() <= 1,
            "{}: the other handler failed: {after:?}",
            hostile.name
        );
        check_goes_on(&hostile, &mut host);
    }
}

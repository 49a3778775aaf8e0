//! The bot in the docs (`docs/bot.py`, written from docs/PROTOCOL.md and the schema alone, with
//! Python's standard library) plays whole matches against the server's AI: a scripted game by
//! the moves its views list, and a game of turns of rounds. `.ci/run` installs python3.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::browser::playing_server;
use scryptic_tests::repo_path;
use std::process::Command;
use std::time::Duration;

/// Runs the docs' bot against `base` for `pack`: what it printed.
fn bot(base: &str, pack: &str) -> String {
    let out = Command::new("python3")
        .arg(repo_path("docs/bot.py"))
        .args([base, pack])
        .output()
        .expect("python3 runs (.ci/run installs it)");
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    said
}

#[test]
fn the_docs_bot_plays_whole_matches_against_the_servers_ai() {
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(1));
    let base = format!("http://{}", server.addr);
    for pack in ["scryper", "word-wars"] {
        let said = bot(&base, pack);
        assert!(said.contains("over after"), "{pack}: {said}");
        assert!(!said.contains("error:"), "{pack}: {said}");
    }
}

//! What the compiler cannot hold about the architecture (ARCHITECTURE.md's invariants), read
//! from the sources: the engine does no I/O, `fst` is used only behind the lexicon, and each
//! heavy dependency stays in the one crate that may use it.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::root;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The places in the sources under `dir` (outside `allowed`) that mention any of `needles`,
/// as `file:line: text`.
fn mentions(dir: &str, needles: &[&str], allowed: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for file in sources(&root().join(dir)) {
        let shown = file.strip_prefix(root()).unwrap().display().to_string();
        if allowed.iter().any(|a| shown.starts_with(a)) {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if needles.iter().any(|needle| code.contains(needle)) {
                found.push(format!("{shown}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

/// `check(dir, needles, allowed)`: no source under `dir` but those under `allowed` names any of
/// `needles`.
fn check(dir: &str, needles: &[&str], allowed: &[&str]) {
    let found = mentions(dir, needles, allowed);
    assert!(
        found.is_empty(),
        "{dir} must not use {needles:?} outside {allowed:?}:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_engine_does_no_io() {
    check(
        "crates/core/src/game",
        &[
            "std::fs",
            "std::io",
            "std::net",
            "std::env",
            "std::process",
            "File::",
        ],
        &["crates/core/src/game/tests.rs"],
    );
}

#[test]
fn fst_is_used_only_behind_the_lexicon() {
    check("crates", &["fst::"], &["crates/core/src/lexicon/"]);
    check("runtime", &["fst::"], &[]);
    check("editor", &["fst::"], &[]);
}

#[test]
fn each_heavy_dependency_stays_in_its_crate() {
    check(
        "crates",
        &[
            "mlua::",
            "notify::",
            "notify_debouncer_mini",
            "notify_debouncer_full",
        ],
        &["crates/script/"],
    );
    check(
        "crates",
        &["clap::", "rustyline::", "indicatif::"],
        &["crates/cli/"],
    );
    // The play view (a client, not the runtime) uploads the tileset's images as textures.
    check("crates", &["image::"], &["crates/render/", "crates/play/"]);
    check("crates", &["rayon::"], &["crates/ai/"]);
    // The runtime knows no GUI: only the play view and the browser's page, which shows it,
    // draw with egui.
    check(
        "crates",
        &["egui", "eframe"],
        &["crates/play/", "crates/web/"],
    );
    let runtime = std::fs::read_to_string(root().join("runtime/Cargo.toml")).unwrap();
    assert!(
        !runtime.contains("scryptic-play"),
        "the runtime uses the play view"
    );
    // Only the server knows the async world; clients speak the protocol without it.
    check("crates", &["axum::", "tokio::"], &["crates/server/"]);
    check("editor", &["axum::", "tokio::"], &[]);
    check("runtime", &["axum::", "tokio::"], &[]);
    check("crates", &["rusqlite::", "postgres::"], &["crates/server/"]);
    check(
        "crates",
        &["tungstenite::", "ureq::"],
        &["crates/client/", "crates/server/"],
    );
    // The editor speaks to servers through the shared client, never a socket of its own.
    check("editor", &["tungstenite::", "ureq::"], &[]);
}

#[test]
fn the_protocol_crate_is_data_only() {
    let manifest = std::fs::read_to_string(root().join("crates/protocol/Cargo.toml")).unwrap();
    let dependencies: Vec<&str> = manifest
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| !name.is_empty())
        .collect();
    assert_eq!(
        dependencies,
        ["scryptic-core", "serde", "serde_json"],
        "the protocol's crate is serde types over the engine's, nothing else"
    );
}

#[test]
fn the_core_crate_depends_on_none_of_them() {
    let manifest = std::fs::read_to_string(root().join("crates/core/Cargo.toml")).unwrap();
    for forbidden in ["mlua", "notify", "clap", "image", "rayon", "scryptic-"] {
        assert!(
            !manifest
                .lines()
                .any(|l| l.trim_start().starts_with(forbidden)),
            "crates/core depends on {forbidden}"
        );
    }
}

/// The check finds what it looks for (else the tests above could pass by reading nothing).
#[test]
fn the_check_sees_what_it_looks_for() {
    assert!(!mentions("crates/core/src/lexicon", &["fst::"], &[]).is_empty());
    assert!(!mentions("crates/script/src", &["mlua::"], &[]).is_empty());
    assert!(!mentions("crates/server/src", &["tokio::"], &[]).is_empty());
}

/// The most lines a source file that is not a test may have: past it, split it by concept.
const MOST_LINES: usize = 800;

/// Whether `path` (from the root) is a test's source: an integration test or benchmark, a
/// crate's `tests.rs` or `*_tests.rs`, or the tests crate's helpers.
fn is_test(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.starts_with("tests/")
        || path.contains("/tests/")
        || path.contains("/benches/")
        || name == "tests.rs"
        || name.ends_with("_tests.rs")
}

/// The sources that are not tests and have more than `most` lines, as `file: N lines`.
fn long_sources(most: usize) -> Vec<String> {
    let mut long = Vec::new();
    for dir in ["crates", "runtime", "editor"] {
        for file in sources(&root().join(dir)) {
            let shown = file.strip_prefix(root()).unwrap().display().to_string();
            if is_test(&shown) {
                continue;
            }
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            if lines > most {
                long.push(format!("{shown}: {lines} lines"));
            }
        }
    }
    long
}

#[test]
fn no_source_but_a_tests_passes_800_lines() {
    let long = long_sources(MOST_LINES);
    assert!(
        long.is_empty(),
        "split these by concept (a part of their own in a file of its own):\n{}",
        long.join("\n")
    );
    // The check reads what it means to: a smaller bound finds the largest sources, and the
    // tests it leaves out are tests.
    assert!(!long_sources(600).is_empty());
    for (path, test) in [
        ("crates/script/src/tests.rs", true),
        ("crates/script/src/host_tests.rs", true),
        ("editor/tests/ui/main.rs", true),
        ("crates/pack/benches/index.rs", true),
        ("crates/script/src/session.rs", false),
        ("crates/play/src/session.rs", false),
    ] {
        assert_eq!(is_test(path), test, "{path}");
    }
}

#[test]
fn the_play_view_and_the_browser_page_know_no_lua_threads_files_or_runtime() {
    // The play view is one for the editor and the browser: it stands on the engine, the
    // protocol and egui, and what it cannot do in a browser (scripts, threads, files, a clock
    // of `std`'s, which panics there) it leaves to its referee.
    browser_ready("crates/play", &["eframe"]);
    // The browser's page: the play view, the protocol and the browser's own crates.
    browser_ready("crates/web", &[]);
}

/// The crate at `dir` builds for the browser and runs there: no scripts, AI, server, network
/// crate of the native world (nor any of `more`) among its dependencies, and no files, threads,
/// sockets or `std` clock in its sources.
fn browser_ready(dir: &str, more: &[&str]) {
    let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
    let dependencies = manifest.split("[dev-dependencies]").next().unwrap();
    for crate_name in [
        "scryptic-script",
        "scryptic-ai",
        "scryptic-client",
        "scryptic-server",
        "scryptic-cli",
        "mlua",
        "notify",
        "tokio",
        "rusqlite",
        "postgres",
        "tungstenite",
        "ureq",
    ]
    .iter()
    .chain(more)
    {
        assert!(
            !dependencies.contains(&format!("\n{crate_name}")),
            "{dir} depends on {crate_name}"
        );
    }
    let src = format!("{dir}/src");
    assert!(sources(&root().join(&src)).len() > 3);
    let found = mentions(
        &src,
        &["std::fs", "std::thread", "std::time::Instant", "std::net"],
        &[],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check finds what it looks for.
    assert!(!mentions(&src, &["use "], &[]).is_empty());
}

//! The server under load, on this machine, over loopback (a bench binary: `cargo bench -p
//! scryptic-server --bench online`; PERFORMANCE.md keeps the figures).
//!
//! 1. Memory: the server's resident memory grown by `MATCHES` matches made and taken (a
//!    person and the server's AI each), before anyone connects; per match.
//! 2. Round trips: `MATCHES` clients at once, one WebSocket each, each acting `ROUND_TRIPS`
//!    times (trading a letter, laying its crossword out anew, or a move of those listed) while
//!    the server's AI plays the other seat of every match; the time from an action sent to its
//!    view received, p50 and p99 over every action.
//! 3. Restart: the server dropped with every match unfinished in its SQLite log, and started
//!    again on it: the time until it listens with every match listed (each is replayed when
//!    someone or its clock needs it).
//!
//! `SCRYPTIC_BENCH_MATCHES` and `SCRYPTIC_BENCH_ROUND_TRIPS` change the counts,
//! `SCRYPTIC_BENCH_LEVEL` the AI's level (easy unless it says), `SCRYPTIC_BENCH_PACK` the
//! game (`word-wars` unless it says; `lexicon-crossing`, played at once, and `scryper`, a
//! scripted game with a secret set-up, too).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod client;

use client::{everyone_plays, make_match, percentile, resident, setting};
use scryptic_server::{Options, start};
use std::path::Path;
use std::time::{Duration, Instant};

fn options(data: &Path) -> Options {
    // A folder of the server's own making: its owner's alone, as the server requires.
    let mut options = Options::new("127.0.0.1:0".parse().unwrap(), data.join("server"));
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs");
    options.packs = vec![packs];
    options.ai_pace = Duration::from_millis(50);
    options.ai_letter = Some(Duration::from_millis(50));
    // The bench's one address makes every match.
    options.lobby_rate = (1e9, 1e9);
    options
}

fn main() {
    // `cargo test --benches` runs this with `--bench` absent: a short smoke run then.
    let full = std::env::args().any(|a| a == "--bench");
    let matches = setting("SCRYPTIC_BENCH_MATCHES", if full { 1000 } else { 10 });
    let round_trips = setting("SCRYPTIC_BENCH_ROUND_TRIPS", if full { 11 } else { 3 });
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("server");
    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();

    let before = resident();
    let server = start(options(&data)).unwrap();
    let addr = server.addr;
    let started = resident();
    let made: Vec<(String, String)> = clients.block_on(async {
        let mut made = Vec::new();
        for _ in 0..matches {
            made.push(make_match(addr).await);
        }
        made
    });
    let with_matches = resident();
    let per_match = with_matches.saturating_sub(started) / matches as u64;
    println!(
        "memory: server started {:.1} MiB; {matches} {} matches made: {:.1} MiB more, {:.0} KiB a match",
        started.saturating_sub(before) as f64 / 1048576.0,
        client::bench_pack(),
        with_matches.saturating_sub(started) as f64 / 1048576.0,
        per_match as f64 / 1024.0
    );

    let (rounds, took) = everyone_plays(&clients, addr, &made, round_trips);
    // Every client's first action goes at the same instant, after the barrier: a burst told
    // apart from play.
    let mut burst: Vec<Duration> = rounds.iter().filter_map(|r| r.first().copied()).collect();
    burst.sort();
    println!(
        "burst: {} first actions sent at the same instant: p50 {:.2} ms, max {:.2} ms",
        burst.len(),
        percentile(&burst, 0.5).as_secs_f64() * 1000.0,
        burst.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
    let mut times: Vec<Duration> = rounds
        .iter()
        .flat_map(|r| r.iter().skip(1).copied())
        .collect();
    times.sort();
    println!(
        "round trips after it: {} actions of {matches} matches at once, {:.1} s in all ({:.0} a second): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; server memory then {:.1} MiB",
        times.len(),
        took.as_secs_f64(),
        times.len() as f64 / took.as_secs_f64(),
        percentile(&times, 0.5).as_secs_f64() * 1000.0,
        percentile(&times, 0.99).as_secs_f64() * 1000.0,
        times.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
        resident() as f64 / 1048576.0
    );
    assert!(burst.len() == matches, "every client made round trips");

    drop(server);
    let began = Instant::now();
    let again = start(options(&data)).unwrap();
    let restart = began.elapsed();
    println!(
        "restart: {} unfinished matches listed from the log in {:.2} s ({} could not be)",
        again.restored,
        restart.as_secs_f64(),
        again.unrestored.len()
    );
    assert_eq!(again.restored, matches, "{:?}", again.unrestored);
}

//! The server under load, on this machine, over loopback (a bench binary: `cargo bench -p
//! scryptic-server --bench online`; PERFORMANCE.md keeps the figures).
//!
//! 1. Memory: the server's resident memory grown by `MATCHES` Word Wars matches made and
//!    taken (a person and the server's AI each), before anyone connects; per match.
//! 2. Round trips: `MATCHES` clients at once, one WebSocket each, each trading a letter
//!    `ROUND_TRIPS` times while the server's AI plays the other seat of every match; the time
//!    from an action sent to its view received, p50 and p99 over every action.
//! 3. Restart: the server dropped with every match unfinished in its SQLite log, and started
//!    again on it: the time until it listens with every match replayed.
//!
//! `SCRYPTIC_BENCH_MATCHES` and `SCRYPTIC_BENCH_ROUND_TRIPS` change the counts.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use futures_util::{SinkExt, StreamExt};
use scryptic_server::{Options, start};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The process's resident memory, in bytes.
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// One HTTP/1.1 request to the lobby; the answer's JSON body.
async fn lobby(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Value {
    let body = body.to_string();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let json = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// A match of Word Wars, gold taken by a person: its id and gold's token.
async fn make_match(addr: SocketAddr) -> (String, String) {
    let create = json!({"protocol": 1, "pack": "word-wars", "seats": {"silver": {"kind": "ai", "level": "easy"}}});
    let made = lobby(addr, "POST", "/api/matches", &create).await;
    let id = made["id"].as_str().unwrap().to_string();
    let take = json!({"protocol": 1, "seat": "gold", "name": "bench"});
    let taken = lobby(addr, "POST", &format!("/api/matches/{id}/seats"), &take).await;
    (id, taken["token"].as_str().unwrap().to_string())
}

/// Gold's action in `view`, if gold is to act: a trade of its first letter on its turn
/// (Word Wars allows no pass), a refusal when silver offers sudden death.
fn gold_action(view: &Value) -> Option<Value> {
    let snapshot = &view["snapshot"];
    if !snapshot["result"].is_null() || !snapshot["pending"].is_null() {
        return None;
    }
    if snapshot["offer"] == "Silver" {
        return Some(json!({"Answer": {"accept": false}}));
    }
    if !snapshot["offer"].is_null() || snapshot["active"] != "Gold" {
        return None;
    }
    let letter = snapshot["players"][0]["rack"][0]["Letter"].clone();
    Some(json!({"Exchange": {"letters": letter}}))
}

/// Plays gold's seat: trades a letter `round_trips` times; each trade's round trip.
async fn play(
    addr: SocketAddr,
    (id, token): (String, String),
    round_trips: usize,
    everyone: Arc<tokio::sync::Barrier>,
) -> Vec<Duration> {
    let url = format!("ws://{addr}/api/matches/{id}/play");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = json!({"protocol": 1, "type": "hello", "token": token});
    socket.send(Message::text(hello.to_string())).await.unwrap();
    // Every client connected and welcomed before anyone acts: the figures are of play, not
    // of logging in. The welcome's view is kept to act on.
    let mut first = None;
    while first.is_none() {
        if let Some(Ok(Message::Text(text))) = socket.next().await {
            let frame: Value = serde_json::from_str(text.as_str()).unwrap();
            if frame["type"] == "view" {
                first = Some(frame);
            }
        }
    }
    everyone.wait().await;
    let mut times = Vec::with_capacity(round_trips);
    let mut sent: Option<(Instant, u64)> = None;
    let mut last = String::new();
    while times.len() < round_trips {
        let frame: Value = match first.take() {
            Some(frame) => frame,
            None => {
                let next = tokio::time::timeout(Duration::from_secs(30), socket.next()).await;
                let Ok(next) = next else {
                    panic!("match {id}: no frame for 30 s; the last: {last}");
                };
                let Some(Ok(Message::Text(text))) = next else {
                    break;
                };
                serde_json::from_str(text.as_str()).unwrap()
            }
        };
        last = format!(
            "{} actions {} active {} sent {:?}",
            frame["type"], frame["actions"], frame["snapshot"]["active"], sent
        );
        assert!(
            frame["type"] != "refused",
            "the bench's action was refused: {frame}"
        );
        if frame["type"] != "view" {
            continue;
        }
        let actions = frame["actions"].as_u64().unwrap_or(0);
        if let Some((at, before)) = sent
            && actions > before
        {
            times.push(at.elapsed());
            sent = None;
        }
        if !frame["snapshot"]["result"].is_null() {
            break;
        }
        if sent.is_none()
            && let Some(action) = gold_action(&frame)
        {
            let act = json!({"protocol": 1, "type": "act", "action": action});
            sent = Some((Instant::now(), actions));
            socket.send(Message::text(act.to_string())).await.unwrap();
        }
    }
    let _ = socket.close(None).await;
    times
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

fn options(data: &Path) -> Options {
    // A folder of the server's own making: its owner's alone, as the server requires.
    let mut options = Options::new("127.0.0.1:0".parse().unwrap(), data.join("server"));
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs");
    options.packs = vec![packs];
    options.ai_pace = Duration::from_millis(50);
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
        "memory: server started {:.1} MiB; {matches} Word Wars matches made: {:.1} MiB more, {:.0} KiB a match",
        started.saturating_sub(before) as f64 / 1048576.0,
        with_matches.saturating_sub(started) as f64 / 1048576.0,
        per_match as f64 / 1024.0
    );

    let began = Instant::now();
    let rounds: Vec<Vec<Duration>> = clients.block_on(async {
        let everyone = Arc::new(tokio::sync::Barrier::new(made.len()));
        let tasks: Vec<_> = made
            .iter()
            .cloned()
            .map(|seat| tokio::spawn(play(addr, seat, round_trips, everyone.clone())))
            .collect();
        let mut all = Vec::new();
        for task in tasks {
            all.push(task.await.unwrap());
        }
        all
    });
    let took = began.elapsed();
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
        "restart: {} unfinished matches replayed from the log in {:.2} s ({} could not be)",
        again.restored,
        restart.as_secs_f64(),
        again.unrestored.len()
    );
    assert_eq!(again.restored, matches, "{:?}", again.unrestored);
}

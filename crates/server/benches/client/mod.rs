//! What the server's benches share: a client of the lobby and of a seat's WebSocket, written
//! as a stranger's would be (raw HTTP/1.1 and tokio-tungstenite), and the figures' arithmetic.
#![allow(dead_code, reason = "each bench uses some of these")]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

pub fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The process's resident memory, in bytes.
pub fn resident() -> u64 {
    resident_of("self")
}

/// Process `pid`'s resident memory (`self`: this one's), in bytes.
pub fn resident_of(pid: &str) -> u64 {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

/// One HTTP/1.1 request to the lobby; the answer's JSON body.
pub async fn lobby(addr: SocketAddr, method: &str, path: &str, body: &Value) -> Value {
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

/// The pack whose matches the benches make: `SCRYPTIC_BENCH_PACK` (`word-wars` unless it
/// says; `lexicon-crossing` and `scryper` are played too, see [`gold_action`]).
pub fn bench_pack() -> String {
    std::env::var("SCRYPTIC_BENCH_PACK").unwrap_or_else(|_| "word-wars".into())
}

/// A match of the bench's pack ([`bench_pack`]), gold taken by a person, silver the server's
/// AI at the level `SCRYPTIC_BENCH_LEVEL` says (easy unless it says): its id and gold's token.
pub async fn make_match(addr: SocketAddr) -> (String, String) {
    let level = std::env::var("SCRYPTIC_BENCH_LEVEL").unwrap_or_else(|_| "easy".into());
    let pack = bench_pack();
    let create =
        json!({"protocol": 1, "pack": pack, "seats": {"silver": {"kind": "ai", "level": level}}});
    let made = lobby(addr, "POST", "/api/matches", &create).await;
    let id = made["id"].as_str().unwrap().to_string();
    let take = json!({"protocol": 1, "seat": "gold", "name": "bench"});
    let taken = lobby(addr, "POST", &format!("/api/matches/{id}/seats"), &take).await;
    (id, taken["token"].as_str().unwrap().to_string())
}

/// Gold's action in `view`, if gold is to act. A scripted game (Scryper): the first of the
/// moves the view lists. Played at once (Lexicon Crossing): its crossword laid out anew, empty
/// (always allowed, as a person's rearranging is). In turns (Word Wars): a trade of its first
/// letter on its turn (Word Wars allows no pass), a refusal when silver offers sudden death.
pub fn gold_action(view: &Value) -> Option<Value> {
    let snapshot = &view["snapshot"];
    if !snapshot["result"].is_null() || !snapshot["pending"].is_null() {
        return None;
    }
    if let Some(mv) = view["moves"].as_array().and_then(|moves| moves.first()) {
        return Some(json!({"Move": {"player": "Gold", "mv": mv}}));
    }
    if bench_pack() == "lexicon-crossing" {
        return Some(json!({"Layout": {"player": "Gold", "letters": []}}));
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

/// Plays gold's seat: acts ([`gold_action`]) `round_trips` times; each action's round trip.
///
/// Every action is sent with `after`, the actions of the view it was chosen from, as the
/// protocol asks of a client acting where seats act together. The first view past `after` is
/// the action's own unless the server then refuses it ("the game moved on": another seat's
/// action came first), so a round trip is counted only once the next frame, or a quiet
/// moment, shows no refusal; a refused action is chosen again from the next view.
pub async fn play(
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
    let mut view = None;
    while view.is_none() {
        if let Some(Ok(Message::Text(text))) = socket.next().await {
            let frame: Value = serde_json::from_str(text.as_str()).unwrap();
            if frame["type"] == "view" {
                view = Some(frame);
            }
        }
    }
    let mut view = view.unwrap_or_default();
    everyone.wait().await;
    let mut times = Vec::with_capacity(round_trips);
    // The action in flight (when sent, the actions it was chosen after), and a round trip
    // seen but not yet sure to be its own.
    let mut sent: Option<(Instant, u64)> = None;
    let mut unsure: Option<Duration> = None;
    let mut last = String::new();
    while times.len() < round_trips && view["snapshot"]["result"].is_null() {
        if sent.is_none()
            && unsure.is_none()
            && let Some(action) = gold_action(&view)
        {
            let actions = view["actions"].as_u64().unwrap_or(0);
            let act = json!({"protocol": 1, "type": "act", "action": action, "after": actions});
            sent = Some((Instant::now(), actions));
            socket.send(Message::text(act.to_string())).await.unwrap();
        }
        // A quiet moment with a round trip unsure: no refusal came, it was the action's own.
        let wait = if unsure.is_some() { 200 } else { 30_000 };
        let next = tokio::time::timeout(Duration::from_millis(wait), socket.next()).await;
        let Ok(next) = next else {
            assert!(
                unsure.is_some(),
                "match {id}: no frame for 30 s; the last: {last}"
            );
            times.extend(unsure.take());
            continue;
        };
        let Some(Ok(Message::Text(text))) = next else {
            break;
        };
        let frame: Value = serde_json::from_str(text.as_str()).unwrap();
        last = format!(
            "{} actions {} sent {sent:?}",
            frame["type"], frame["actions"]
        );
        if frame["type"] == "refused" {
            let moved_on = frame["message"].as_str().unwrap_or("").contains("moved on");
            assert!(moved_on, "the bench's action was refused: {frame}");
            (sent, unsure) = (None, None);
            continue;
        }
        if frame["type"] != "view" {
            continue;
        }
        // Another frame and no refusal: the round trip seen was the action's own.
        times.extend(unsure.take());
        let actions = frame["actions"].as_u64().unwrap_or(0);
        if let Some((at, before)) = sent
            && actions > before
        {
            unsure = Some(at.elapsed());
            sent = None;
        }
        view = frame;
    }
    times.extend(unsure);
    let _ = socket.close(None).await;
    times
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

/// Every seat of `made` played at once by its own client (`play`), `round_trips` actions
/// each, after a barrier: each client's round trips, and how long they all took.
pub fn everyone_plays(
    clients: &tokio::runtime::Runtime,
    addr: SocketAddr,
    made: &[(String, String)],
    round_trips: usize,
) -> (Vec<Vec<Duration>>, Duration) {
    let began = Instant::now();
    let rounds = clients.block_on(async {
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
    (rounds, began.elapsed())
}

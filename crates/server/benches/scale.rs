//! The server at scale, measured as strangers meet it: the server in a process of its own (this
//! binary started again as the server, `scryptic serve`'s own code), the clients in this one,
//! over loopback (a bench binary: `cargo bench -p scryptic-server --bench scale`;
//! PERFORMANCE.md keeps the figures).
//!
//! 1. Stored: `STORED` matches in the server's SQLite database (copies of one made through
//!    the lobby: two people, gold to move, no clock), every one asleep. The server's start
//!    until it listens, its resident memory against an empty server's (per match asleep), and
//!    a page of the lobby.
//! 2. Live: beside them, `LIVE` Word Wars matches made through the lobby, a person (this
//!    process's client) and the server's easy AI each, every client trading a letter
//!    `ROUND_TRIPS` times at once: each action's round trip, p50 and p99, and the memory.
//! 3. Long logs: `LONG` unfinished matches of `ENTRIES` entries each (copies of one whose two
//!    people traded letters that many times): the restart's time until it listens, and a
//!    match brought back from its log: a spectator's hello to its first view.
//!
//! `SCRYPTIC_BENCH_STORED`, `_LIVE`, `_ROUND_TRIPS`, `_LONG` and `_ENTRIES` change the counts.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod client;

use client::{everyone_plays, lobby, make_match, percentile, resident_of, setting};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// Set in the server's process: the data folder it serves.
const SERVE: &str = "SCRYPTIC_SCALE_SERVE";

/// This binary as the server: serves the data folder `data` until its standard input closes,
/// having said where it listens.
fn serve(data: &str) {
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), PathBuf::from(data));
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    options.ai_pace = Duration::from_millis(50);
    options.ai_letter = Some(Duration::from_millis(50));
    // The clients are all one address.
    options.lobby_rate = (1e9, 1e9);
    options.connections_per_address = 100_000;
    options.max_live_matches = 1_000_000;
    let started = scryptic_server::start(options).unwrap();
    println!("listening {} {}", started.addr, started.restored);
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
}

/// The server in a process of its own.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// Matches it found in its database.
    kept: usize,
    /// From its start until it listened.
    took: Duration,
}

impl Server {
    fn start(data: &Path) -> Server {
        let began = Instant::now();
        let mut child = Command::new(std::env::current_exe().unwrap())
            .env(SERVE, data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let took = began.elapsed();
        let mut words = line.split_whitespace().skip(1);
        let addr = words.next().unwrap().parse().unwrap();
        let kept = words.next().unwrap().parse().unwrap();
        Server {
            child,
            addr,
            kept,
            took,
        }
    }

    fn memory(&self) -> u64 {
        resident_of(&self.child.id().to_string())
    }

    fn stop(mut self) {
        drop(self.child.stdin.take());
        self.child.wait().unwrap();
    }
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / 1048576.0
}

/// A match of two people (gold to move): its id and the seats' tokens.
async fn match_of_two(addr: SocketAddr, pack: &str) -> (String, [String; 2]) {
    let create = json!({"protocol": 1, "pack": pack, "seed": 3});
    let id = lobby(addr, "POST", "/api/matches", &create).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut tokens = [String::new(), String::new()];
    for (seat, token) in ["gold", "silver"].into_iter().zip(&mut tokens) {
        let take = json!({"protocol": 1, "seat": seat, "name": seat});
        let taken = lobby(addr, "POST", &format!("/api/matches/{id}/seats"), &take).await;
        *token = taken["token"].as_str().unwrap().to_string();
    }
    (id, tokens)
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn seat(addr: SocketAddr, id: &str, token: Option<&str>) -> (Socket, Value) {
    let url = format!("ws://{addr}/api/matches/{id}/play");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let hello = json!({"protocol": 1, "type": "hello", "token": token});
    socket.send(Message::text(hello.to_string())).await.unwrap();
    let view = next_view(&mut socket).await;
    (socket, view)
}

async fn next_view(socket: &mut Socket) -> Value {
    loop {
        let Some(Ok(Message::Text(text))) = socket.next().await else {
            panic!("the connection ended before a view");
        };
        let frame: Value = serde_json::from_str(text.as_str()).unwrap();
        assert!(frame["type"] != "refused", "{frame}");
        if frame["type"] == "view" {
            return frame;
        }
    }
}

/// Both people of Word Wars match `id` trade their first letter in turn, `entries` times in
/// all: a long log, the match unfinished. Each seat acts at most 20 times a second, the
/// server's limit for a connection.
async fn trade(addr: SocketAddr, id: &str, tokens: &[String; 2], entries: u64) {
    let (gold, gold_view) = seat(addr, id, Some(&tokens[0])).await;
    let (silver, silver_view) = seat(addr, id, Some(&tokens[1])).await;
    let mut sockets = [gold, silver];
    // Each seat's own view: its rack.
    let mut views = [gold_view, silver_view];
    let mut pace = tokio::time::interval(Duration::from_millis(26));
    while views[0]["actions"].as_u64().unwrap() < entries {
        pace.tick().await;
        let at = usize::from(views[0]["snapshot"]["active"] != "Gold");
        let letter = views[at]["snapshot"]["players"][at]["rack"][0]["Letter"].clone();
        let act = json!({"protocol": 1, "type": "act",
                         "action": {"Exchange": {"letters": letter}}});
        sockets[at]
            .send(Message::text(act.to_string()))
            .await
            .unwrap();
        for (socket, view) in sockets.iter_mut().zip(&mut views) {
            *view = next_view(socket).await;
        }
    }
}

/// Copies match `template` `copies` times in the database of `data` (new ids, the same
/// request, start, seats, log and listing): matches as the server itself wrote them.
fn copy_matches(data: &Path, template: &str, copies: usize, prefix: &str) {
    let db = rusqlite::Connection::open(data.join("matches.sqlite")).unwrap();
    db.execute_batch("BEGIN").unwrap();
    db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2) \
         INSERT INTO matches (id, created_ms, request, start, seats, listing) \
         SELECT ?3 || printf('%012x', i), created_ms - i, request, start, seats, \
                json_set(listing, '$.info.id', ?3 || printf('%012x', i), \
                         '$.info.started_ms', created_ms - i) \
         FROM matches, n WHERE id = ?1",
        rusqlite::params![template, copies as i64, prefix],
    )
    .unwrap();
    db.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2) \
         INSERT INTO actions (match_id, seq, action, at_ms) \
         SELECT ?3 || printf('%012x', i), seq, action, at_ms FROM actions, n WHERE match_id = ?1",
        rusqlite::params![template, copies as i64, prefix],
    )
    .unwrap();
    db.execute_batch("COMMIT").unwrap();
}

fn main() {
    if let Ok(data) = std::env::var(SERVE) {
        return serve(&data);
    }
    let full = std::env::args().any(|a| a == "--bench");
    let count = |name: &str, full_count: usize, smoke: usize| {
        setting(name, if full { full_count } else { smoke })
    };
    let stored = count("SCRYPTIC_BENCH_STORED", 100_000, 100);
    let live = count("SCRYPTIC_BENCH_LIVE", 1_000, 10);
    let round_trips = count("SCRYPTIC_BENCH_ROUND_TRIPS", 11, 3);
    let long = count("SCRYPTIC_BENCH_LONG", 1_000, 10);
    let entries = count("SCRYPTIC_BENCH_ENTRIES", 1_000, 20) as u64;
    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("server");

    // 1. Stored, asleep.
    let empty = Server::start(&data);
    let empty_memory = empty.memory();
    let template = clients.block_on(async { match_of_two(empty.addr, "word-wars").await.0 });
    empty.stop();
    copy_matches(&data, &template, stored, "a");
    let server = Server::start(&data);
    let asleep_memory = server.memory();
    println!(
        "stored: {} matches asleep; listening {:.2} s after the start; memory {:.1} MiB against {:.1} MiB empty: {:.2} KiB a match asleep",
        server.kept,
        server.took.as_secs_f64(),
        mib(asleep_memory),
        mib(empty_memory),
        asleep_memory.saturating_sub(empty_memory) as f64 / 1024.0 / server.kept as f64
    );
    let began = Instant::now();
    let page = clients.block_on(lobby(server.addr, "GET", "/api/matches", &json!(null)));
    println!(
        "lobby: a page of {} of {} matches in {:.1} ms",
        page["matches"].as_array().unwrap().len(),
        page["total"],
        began.elapsed().as_secs_f64() * 1000.0
    );

    // 2. Live beside them.
    let addr = server.addr;
    let made: Vec<(String, String)> = clients.block_on(async {
        let mut made = Vec::new();
        for _ in 0..live {
            made.push(make_match(addr).await);
        }
        made
    });
    let with_live = server.memory();
    let (rounds, took) = everyone_plays(&clients, addr, &made, round_trips);
    let mut times: Vec<Duration> = rounds
        .iter()
        .flat_map(|r| r.iter().skip(1).copied())
        .collect();
    times.sort();
    println!(
        "live: {live} Word Wars matches made ({:.1} MiB more: {:.0} KiB each); {} actions at once in {:.1} s: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; memory then {:.1} MiB",
        mib(with_live.saturating_sub(asleep_memory)),
        with_live.saturating_sub(asleep_memory) as f64 / 1024.0 / live as f64,
        times.len(),
        took.as_secs_f64(),
        percentile(&times, 0.5).as_secs_f64() * 1000.0,
        percentile(&times, 0.99).as_secs_f64() * 1000.0,
        times.last().copied().unwrap_or_default().as_secs_f64() * 1000.0,
        mib(server.memory())
    );
    server.stop();

    // 3. Long logs, on a database of their own.
    let long_data = dir.path().join("long");
    let server = Server::start(&long_data);
    let template = clients.block_on(async {
        let (id, tokens) = match_of_two(server.addr, "word-wars").await;
        trade(server.addr, &id, &tokens, entries).await;
        id
    });
    server.stop();
    copy_matches(&long_data, &template, long, "b");
    let server = Server::start(&long_data);
    println!(
        "restart: {} unfinished matches of {entries} entries each, listening {:.2} s after the start",
        server.kept,
        server.took.as_secs_f64()
    );
    let mut woken: Vec<Duration> = clients.block_on(async {
        let mut woken = Vec::new();
        for i in 1..=long.min(20) {
            let id = format!("b{i:012x}");
            let began = Instant::now();
            let (_socket, view) = seat(server.addr, &id, None).await;
            woken.push(began.elapsed());
            assert_eq!(view["actions"].as_u64(), Some(entries));
        }
        woken
    });
    woken.sort();
    println!(
        "woken: {} matches of {entries} entries brought back: hello to first view p50 {:.1} ms, max {:.1} ms",
        woken.len(),
        percentile(&woken, 0.5).as_secs_f64() * 1000.0,
        woken.last().copied().unwrap_or_default().as_secs_f64() * 1000.0
    );
    server.stop();
}

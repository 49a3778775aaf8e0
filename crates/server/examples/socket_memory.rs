//! What a server's memory does when WebSockets come and go: a server in this process, a
//! match, then `ROUNDS` times `SOCKETS` spectators connected at once (each waits for its
//! view) and all closed; the process's resident memory (`VmRSS`) after the warm-up and after
//! each round. Memory a long-running server does not give back shows as growth round after
//! round. By hand (PERFORMANCE.md):
//!
//!     cargo run --release -p scryptic-server --example socket_memory [SOCKETS] [ROUNDS]
#![allow(
    clippy::unwrap_used,
    reason = "a measurement: a panic there is its failure"
)]

use futures_util::{SinkExt, StreamExt};
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

async fn create(addr: std::net::SocketAddr) -> String {
    let body = r#"{"protocol":1,"pack":"word-wars","seed":5}"#;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let json = answer.split("\r\n\r\n").nth(1).unwrap();
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    value["id"].as_str().unwrap().to_string()
}

/// Opens `n` spectators' WebSockets on match `id`, each until its view came, then closes all.
async fn round(addr: std::net::SocketAddr, id: &str, n: usize) {
    let mut sockets = Vec::with_capacity(n);
    for _ in 0..n {
        let url = format!("ws://{addr}/api/matches/{id}/play");
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        socket
            .send(Message::text(r#"{"protocol":1,"type":"hello"}"#))
            .await
            .unwrap();
        loop {
            match socket.next().await {
                Some(Ok(Message::Text(t))) if t.contains(r#""type":"view""#) => break,
                Some(Ok(_)) => {}
                _ => panic!("the view did not come"),
            }
        }
        sockets.push(socket);
    }
    for mut socket in sockets {
        let _ = socket.close(None).await;
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let sockets: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let dir = tempfile::tempdir().unwrap();
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("server"));
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    options.connections_per_address = sockets + 16;
    options.lobby_rate = (1000.0, 10_000.0);
    let started = scryptic_server::start(options).unwrap();
    let addr = started.addr;
    let clients = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let id = clients.block_on(create(addr));
    // Warm: the match made and one socket's whole life, then a moment for the server to
    // finish with it.
    clients.block_on(round(addr, &id, 1));
    std::thread::sleep(Duration::from_millis(500));
    let warm = resident_kib();
    println!("warm: {warm} KiB");
    for r in 1..=rounds {
        clients.block_on(round(addr, &id, sockets));
        std::thread::sleep(Duration::from_millis(500));
        let now = resident_kib();
        println!(
            "after round {r} ({sockets} sockets opened and closed): {now} KiB, {:.2}x warm",
            now as f64 / warm as f64
        );
    }
    drop(started);
}

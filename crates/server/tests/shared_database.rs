//! Several server processes share one PostgreSQL database, each serving its shard of the
//! matches: each makes and resumes only its own, and any of them can export any match. Run
//! where `.ci/run` starts a PostgreSQL (`SCRYPTIC_TEST_POSTGRES`); with
//! `SCRYPTIC_REQUIRE_POSTGRES=1` its absence fails instead of skipping.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_server::{Options, PostgresStore, in_shard, start_with};
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn create(addr: SocketAddr) -> String {
    let body = r#"{"protocol":1,"pack":"core","seed":5}"#;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/matches HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let json: serde_json::Value =
        serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    json["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{answer}"))
        .to_string()
}

/// A request's status, its `Location` header and its body.
async fn request(addr: SocketAddr, head: &str, body: &str) -> (u16, String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{head}\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer.split_whitespace().nth(1).unwrap().parse().unwrap();
    let location = answer
        .lines()
        .find_map(|l| l.strip_prefix("location: "))
        .unwrap_or_default()
        .to_string();
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (status, location, body)
}

/// Every process lists every match, naming the process that serves it, and sends a request
/// for a match of the other's shard on to it.
async fn one_lobby(
    first: &scryptic_server::Started,
    second: &scryptic_server::Started,
    made: &[Vec<String>; 2],
) {
    let base = |s: &scryptic_server::Started| format!("http://{}", s.addr);
    for process in [first, second] {
        let (status, _, body) = request(process.addr, "GET /api/matches HTTP/1.1", "").await;
        assert_eq!(status, 200, "{body}");
        let list: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(list["total"], 6, "every match, from the database: {body}");
        for info in list["matches"].as_array().unwrap() {
            let id = info["id"].as_str().unwrap();
            let serving = if made[0].iter().any(|m| m == id) {
                first
            } else {
                second
            };
            assert_eq!(info["server"], base(serving).as_str(), "{info}");
        }
    }
    // Gold's seat of a match of the first shard, taken through the second: sent on.
    let id = &made[0][0];
    let take = r#"{"protocol":1,"seat":"gold","name":"Ann"}"#;
    let path = format!("/api/matches/{id}/seats");
    let (status, location, _) = request(second.addr, &format!("POST {path} HTTP/1.1"), take).await;
    assert_eq!(
        (status, location.as_str()),
        (307, format!("{}{path}", base(first)).as_str())
    );
    let (status, _, body) = request(first.addr, &format!("POST {path} HTTP/1.1"), take).await;
    assert_eq!(status, 200, "{body}");
    // A match's link too, and its WebSocket's handshake (which clients follow).
    let path = format!("/matches/{id}?seat=silver");
    let (status, location, _) = request(second.addr, &format!("GET {path} HTTP/1.1"), "").await;
    assert_eq!((status, location), (307, format!("{}{path}", base(first))));
    let play = format!("ws://{}/api/matches/{id}/play", second.addr);
    let refused = tokio_tungstenite::connect_async(play).await.unwrap_err();
    let tokio_tungstenite::tungstenite::Error::Http(answer) = refused else {
        panic!("{refused}");
    };
    assert_eq!(answer.status(), 307);
    let location = answer.headers()["location"].to_str().unwrap();
    let at = format!("ws://{}/api/matches/{id}/play", first.addr);
    assert_eq!(location, at);
}

/// Match `id`, whose process went, is served by `heir` once its lease is taken: listed as
/// served there, a seat taken and an action played there.
async fn taken_over(heir: &scryptic_server::Started, id: &str) {
    let here = format!("http://{}", heir.addr);
    let start = std::time::Instant::now();
    loop {
        let (_, _, body) = request(heir.addr, &format!("GET /api/matches/{id} HTTP/1.1"), "").await;
        let info: serde_json::Value = serde_json::from_str(&body).unwrap();
        if info["server"] == here.as_str() {
            break;
        }
        assert!(start.elapsed().as_secs() < 20, "never taken over: {info}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let take = r#"{"protocol":1,"seat":"silver","name":"Bo"}"#;
    let path = format!("/api/matches/{id}/seats");
    let (status, _, body) = request(heir.addr, &format!("POST {path} HTTP/1.1"), take).await;
    assert_eq!(status, 200, "{body}");
    let token = serde_json::from_str::<serde_json::Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let take = r#"{"protocol":1,"seat":"gold","name":"Al"}"#;
    let (status, _, body) = request(heir.addr, &format!("POST {path} HTTP/1.1"), take).await;
    assert_eq!(status, 200, "{body}");
    let gold = serde_json::from_str::<serde_json::Value>(&body).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let _ = token;
    let play = format!("ws://{}/api/matches/{id}/play", heir.addr);
    let (mut socket, _) = tokio_tungstenite::connect_async(play).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let hello = serde_json::json!({"protocol": 1, "type": "hello", "token": gold});
    socket.send(Message::text(hello.to_string())).await.unwrap();
    let act = serde_json::json!({"protocol": 1, "type": "act", "action": "EndTurn"});
    let mut acted = false;
    while let Some(Ok(frame)) = socket.next().await {
        let Message::Text(text) = frame else { continue };
        let frame: serde_json::Value = serde_json::from_str(text.as_str()).unwrap();
        assert_ne!(frame["type"], "refused", "{frame}");
        if frame["type"] != "view" {
            continue;
        }
        if frame["actions"] == 1 {
            break;
        }
        if !acted {
            socket.send(Message::text(act.to_string())).await.unwrap();
            acted = true;
        }
    }
    assert!(acted, "gold played at the heir");
}

fn process(url: &str, shard: (u32, u32), data: &std::path::Path) -> scryptic_server::Started {
    let mut options = Options::new("127.0.0.1:0".parse().unwrap(), data.to_path_buf());
    options.shard = shard;
    options.lease_check = std::time::Duration::from_millis(50);
    start_with(options, Box::new(PostgresStore::connect(url).unwrap())).unwrap()
}

#[test]
fn two_processes_share_one_database_each_serving_its_shard() {
    let Ok(url) = std::env::var("SCRYPTIC_TEST_POSTGRES") else {
        assert!(
            std::env::var("SCRYPTIC_REQUIRE_POSTGRES").is_err(),
            "SCRYPTIC_REQUIRE_POSTGRES is set but SCRYPTIC_TEST_POSTGRES names no database"
        );
        eprintln!("no PostgreSQL named by SCRYPTIC_TEST_POSTGRES: shards are not tested here");
        return;
    };
    // A database of the test's own, so that only its matches are there.
    let name = format!("scryptic_shards_{:08x}", rand::random::<u32>());
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let own = format!("{url} dbname={name}");
    let dir = tempfile::tempdir().unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut made = [Vec::new(), Vec::new()];
    {
        let first = process(&own, (0, 2), dir.path());
        let second = process(&own, (1, 2), dir.path());
        runtime.block_on(async {
            for _ in 0..3 {
                made[0].push(create(first.addr).await);
                made[1].push(create(second.addr).await);
            }
        });
    }
    for (k, ids) in made.iter().enumerate() {
        assert!(ids.iter().all(|id| in_shard(id, (k as u32, 2))), "{ids:?}");
    }
    // Both stopped; each starts again with its own matches only, all of them.
    let first = process(&own, (0, 2), dir.path());
    let second = process(&own, (1, 2), dir.path());
    assert_eq!((first.restored, second.restored), (3, 3));
    assert!(first.unrestored.is_empty() && second.unrestored.is_empty());
    // Any process's store exports any match.
    let store = PostgresStore::connect(&own).unwrap();
    for id in made.iter().flatten() {
        let save = scryptic_server::export_from(&store, id).unwrap();
        assert!(save.contains("seed: 5"), "{save}");
    }
    runtime.block_on(one_lobby(&first, &second, &made));
    // The first process goes (its connection, and its shard's lease, with it): the second
    // takes its shard over and plays its matches on.
    drop(first);
    runtime.block_on(taken_over(&second, &made[0][1]));
    drop((second, store));
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
}

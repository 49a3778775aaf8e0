//! What a red team found, written from the protocol's docs alone, each kept from coming back:
//! frames and bodies over the limit answered in the protocol's words, slow and oversized
//! requests let go, names that break lines refused, unknown fields refused, a seat given up
//! told so, limits per address that let a seat come back, and WebSockets closed with a close
//! frame when the server stops.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{Socket, connect, http, next_of, options, seated};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A server of `options` as `change` leaves them, its folder, and a runtime for clients.
fn serving(
    change: impl FnOnce(&mut scryptic_server::Options),
) -> (
    tempfile::TempDir,
    scryptic_server::Started,
    tokio::runtime::Runtime,
) {
    let dir = tempfile::tempdir().unwrap();
    let mut options = options(dir.path());
    change(&mut options);
    let started = scryptic_server::start(options).unwrap();
    (dir, started, tokio::runtime::Runtime::new().unwrap())
}

/// A Word Wars match with both seats taken: its id and the seats' tokens.
async fn match_of_two(addr: SocketAddr) -> (String, String, String) {
    let create = json!({"protocol": 1, "pack": "word-wars", "seed": 1}).to_string();
    let (status, body) = http(addr, "POST", "/api/matches", &create).await;
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut tokens = Vec::new();
    for seat in ["gold", "silver"] {
        let take = json!({"protocol": 1, "seat": seat, "name": seat}).to_string();
        let (status, body) = http(addr, "POST", &format!("/api/matches/{id}/seats"), &take).await;
        assert_eq!(status, 200, "{body}");
        let taken: Value = serde_json::from_str(&body).unwrap();
        tokens.push(taken["token"].as_str().unwrap().to_string());
    }
    let silver = tokens.pop().unwrap();
    let gold = tokens.pop().unwrap();
    (id, gold, silver)
}

/// Checks that a frame's `message` says `text`.
fn says(frame: &Value, text: &str) {
    let message = frame["message"].as_str().unwrap_or_default();
    assert!(message.contains(text), "{text:?} not in {frame}");
}

/// The close frame that ends `socket` (skipping other frames): its code and reason.
async fn closed_with(socket: &mut Socket) -> (CloseCode, String) {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .expect("the connection ends in time")
            .expect("a close frame before the end")
            .expect("a close frame, not a broken connection");
        if let Message::Close(Some(close)) = frame {
            return (close.code, close.reason.to_string());
        }
    }
}

/// Sends `head` (a request's line and headers, and what of its body there is) and reads what
/// comes back until the server closes; the answer's status.
async fn raw(addr: SocketAddr, head: &[u8]) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(head).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, answer)
}

#[test]
fn a_frame_over_the_limit_gets_an_error_frame_and_a_close_frame() {
    let (_dir, started, runtime) = serving(|_| {});
    runtime.block_on(async {
        let (id, gold, _) = match_of_two(started.addr).await;
        let mut socket = seated(started.addr, &id, &gold).await;
        let huge = format!(
            r#"{{"protocol":1,"type":"next","x":"{}"}}"#,
            "a".repeat(70_000)
        );
        socket.send(Message::text(huge)).await.unwrap();
        let error = next_of(&mut socket, "error").await.expect("an error frame");
        says(&error, "at most 65536 bytes");
        let (code, reason) = closed_with(&mut socket).await;
        assert_eq!(code, CloseCode::Size, "{reason}");
    });
}

#[test]
fn bodies_over_the_limit_and_slow_requests_are_answered_and_let_go() {
    let (_dir, started, runtime) = serving(|o| o.slow_client = Duration::from_millis(500));
    let addr = started.addr;
    runtime.block_on(async {
        // Announced over the limit: refused before a byte of it is read, as a Problem.
        let (status, answer) = raw(
            addr,
            b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n",
        )
        .await;
        assert_eq!(status, 413, "{answer}");
        assert!(
            answer.contains(r#""error":"a request body is at most 65536 bytes"#),
            "{answer}"
        );
        // Sent in chunks with no length, over the limit: a Problem too.
        let mut chunked =
            b"POST /api/matches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        for _ in 0..3 {
            chunked.extend_from_slice(
                format!("{:x}\r\n{}\r\n", 30_000, "x".repeat(30_000)).as_bytes(),
            );
        }
        chunked.extend_from_slice(b"0\r\n\r\n");
        let (status, answer) = raw(addr, &chunked).await;
        assert_eq!(status, 413, "{answer}");
        assert!(answer.contains(r#""protocol":1,"error":"#), "{answer}");
        // Announced and never sent: let go after the server's patience, with a Problem.
        let (status, answer) = raw(
            addr,
            b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{",
        )
        .await;
        assert_eq!(status, 408, "{answer}");
        assert!(answer.contains("did not come whole"), "{answer}");
        // A head over 16 KiB: refused by the HTTP layer, and the connection closed.
        let mut big = b"GET /api/matches HTTP/1.1\r\nHost: x\r\n".to_vec();
        for n in 0..200 {
            big.extend_from_slice(format!("X-Filler-{n}: {}\r\n", "y".repeat(1000)).as_bytes());
        }
        big.extend_from_slice(b"\r\n");
        let (status, answer) = raw(addr, &big).await;
        assert_eq!(status, 431, "{answer}");
        // A head that never ends: the connection is closed after the server's patience.
        let (status, answer) = raw(addr, b"GET /api/matches HTTP/1.1\r\nHost: x\r\n").await;
        assert!(status == 0 || status == 408, "{answer}");
    });
}

#[test]
fn names_that_break_lines_or_turn_text_and_unknown_fields_are_refused() {
    let (_dir, started, runtime) = serving(|_| {});
    let addr = started.addr;
    runtime.block_on(async {
        let create = json!({"protocol": 1, "pack": "word-wars", "seed": 1}).to_string();
        let (_, body) = http(addr, "POST", "/api/matches", &create).await;
        let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let seats = format!("/api/matches/{id}/seats");
        for name in ["Ann\u{2028}Bob", "Ann\u{2029}Bob", "\u{202E}nnA", "a\nb"] {
            let take = json!({"protocol": 1, "name": name}).to_string();
            let (status, body) = http(addr, "POST", &seats, &take).await;
            assert_eq!(status, 400, "{name:?}: {body}");
            assert!(body.contains("line breaks"), "{body}");
        }
        let long = json!({"protocol": 1, "name": "n".repeat(41)}).to_string();
        let (status, body) = http(addr, "POST", &seats, &long).await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("1 to 40 characters"), "{body}");
        let unknown = json!({"protocol": 1, "name": "Ann", "colour": "red"}).to_string();
        let (status, body) = http(addr, "POST", &seats, &unknown).await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("unknown field `colour`"), "{body}");
        let (status, body) = http(
            addr,
            "POST",
            &seats,
            &json!({"protocol": 1, "name": "Ann"}).to_string(),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let token = serde_json::from_str::<Value>(&body).unwrap()["token"].clone();
        // Unknown fields in frames, and deep in an action, are refused too.
        let mut socket = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": token, "colour": "red"}),
        )
        .await;
        let refused = next_of(&mut socket, "error").await.unwrap();
        says(&refused, "unknown field `colour`");
    });
}

#[test]
fn a_cell_far_off_the_board_is_named_as_it_is() {
    let (_dir, started, runtime) = serving(|_| {});
    runtime.block_on(async {
        let (id, gold, _) = match_of_two(started.addr).await;
        let mut socket = seated(started.addr, &id, &gold).await;
        let far = u32::MAX;
        let commit = json!({"protocol": 1, "type": "act", "action": {"Commit": {"letters": [
            {"at": {"x": far, "y": far}, "letter": "A"}
        ]}}});
        socket
            .send(Message::text(commit.to_string()))
            .await
            .unwrap();
        let refused = next_of(&mut socket, "refused").await.unwrap();
        let message = refused["message"].as_str().unwrap();
        assert!(message.contains("4294967296"), "{message}");
        // Chosen from a view the game has moved on from: refused, nothing played.
        let stale = json!({"protocol": 1, "type": "act", "action": "Forfeit", "after": 7});
        socket.send(Message::text(stale.to_string())).await.unwrap();
        let refused = next_of(&mut socket, "refused").await.unwrap();
        says(&refused, "the game moved on");
        let stray = json!({"protocol": 1, "type": "act", "action": {"Commit": {"letters": [
            {"at": {"x": 1, "y": 1, "z": 1}, "letter": "A"}
        ]}}});
        socket.send(Message::text(stray.to_string())).await.unwrap();
        let error = next_of(&mut socket, "error").await.unwrap();
        says(&error, "unknown field `z`");
    });
}

#[test]
fn a_seat_given_up_is_told_so_and_stopping_closes_every_websocket() {
    let (_dir, started, runtime) = serving(|_| {});
    let addr = started.addr;
    let (mut gold_socket, mut watching) = runtime.block_on(async {
        let (id, gold, silver) = match_of_two(addr).await;
        let mut silver_socket = seated(addr, &id, &silver).await;
        let leave = json!({"protocol": 1, "token": silver}).to_string();
        let (status, body) = http(addr, "POST", &format!("/api/matches/{id}/leave"), &leave).await;
        assert_eq!(status, 200, "{body}");
        let (_, reason) = closed_with(&mut silver_socket).await;
        assert!(reason.contains("given up"), "{reason}");
        let gold_socket = seated(addr, &id, &gold).await;
        let mut watching = connect(addr, &id, json!({"protocol": 1, "type": "hello"})).await;
        next_of(&mut watching, "view").await.unwrap();
        (gold_socket, watching)
    });
    // Ctrl-C does this: every WebSocket gets a close frame saying why.
    std::thread::spawn(move || started.stop());
    runtime.block_on(async {
        for socket in [&mut gold_socket, &mut watching] {
            let (code, reason) = closed_with(socket).await;
            assert_eq!(code, CloseCode::Away, "{reason}");
            assert!(reason.contains("stopping"), "{reason}");
        }
    });
}

#[test]
fn an_address_past_its_limits_is_refused_but_a_seat_comes_back() {
    let (_dir, started, runtime) = serving(|o| {
        o.lobby_rate = (0.001, 8.0);
        o.connections_per_address = 4;
    });
    let addr = started.addr;
    runtime.block_on(async {
        // Five requests: the match and its two seats, then the lobby's rate is spent.
        let (id, gold, _) = match_of_two(addr).await;
        let mut spent = 3;
        while spent < 8 {
            http(addr, "GET", "/api/matches", "").await;
            spent += 1;
        }
        let (status, body) = http(addr, "GET", "/api/matches", "").await;
        assert_eq!(status, 429, "{body}");
        // A spectator past the rate waits; a seat with its token comes back.
        let mut watching = connect(addr, &id, json!({"protocol": 1, "type": "hello"})).await;
        let refused = next_of(&mut watching, "error").await.unwrap();
        says(&refused, "too many requests");
        let mut back = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": gold}),
        )
        .await;
        assert!(
            next_of(&mut back, "view").await.is_some(),
            "the seat came back"
        );
        // Four connections open at once from here; a fifth is closed unanswered.
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(tokio::net::TcpStream::connect(addr).await.unwrap());
        }
        let (status, answer) = raw(addr, b"GET /api/matches HTTP/1.1\r\nHost: x\r\n\r\n").await;
        assert_eq!(status, 0, "a fifth connection is closed: {answer}");
        drop(held);
    });
}

/// Behind a reverse proxy named as trusted, each request counts against the client its
/// `X-Forwarded-For` names; from anyone else the header is ignored (anyone can write it).
#[test]
fn a_trusted_proxy_names_the_client_and_nobody_else_does() {
    let forwarded = |client: &str| {
        format!(
            "GET /api/matches HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {client}\r\nConnection: close\r\n\r\n"
        )
    };
    for trusted in [true, false] {
        let (_dir, started, runtime) = serving(|o| {
            o.lobby_rate = (0.001, 3.0);
            if trusted {
                o.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
            }
        });
        runtime.block_on(async {
            for _ in 0..3 {
                let (status, answer) = raw(started.addr, forwarded("203.0.113.7").as_bytes()).await;
                assert_eq!(status, 200, "{answer}");
            }
            let (status, _) = raw(started.addr, forwarded("203.0.113.7").as_bytes()).await;
            assert_eq!(status, 429, "past its rate");
            let (status, _) = raw(started.addr, forwarded("203.0.113.8").as_bytes()).await;
            let other = if trusted { 200 } else { 429 };
            assert_eq!(status, other, "another client, trusted: {trusted}");
        });
    }
}

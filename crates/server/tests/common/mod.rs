//! What the server's wire tests share: raw HTTP requests, WebSockets, and a server on a free
//! port with the shipped packs.
#![allow(
    clippy::unwrap_used,
    dead_code,
    reason = "tests unwrap: a panic there is a failure; each test file uses some of these"
)]

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split("\r\n\r\n")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (status, body)
}

/// Match `id` as the lobby lists it (`GET /api/matches/ID`).
pub async fn info(addr: SocketAddr, id: &str) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/matches/{id}"), "").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// `body` posted to `path`: the answer, which must be a success.
pub async fn posted(addr: SocketAddr, path: &str, body: Value) -> Value {
    let (status, answer) = http(addr, "POST", path, &body.to_string()).await;
    assert!(status == 200 || status == 201, "{status} {answer}");
    serde_json::from_str(&answer).unwrap()
}

pub async fn actions(addr: SocketAddr, id: &str) -> u64 {
    let (_, body) = http(addr, "GET", &format!("/api/matches/{id}"), "").await;
    let info: Value = serde_json::from_str(&body).unwrap();
    info["actions"].as_u64().unwrap()
}

pub async fn connect(addr: SocketAddr, id: &str, hello: Value) -> Socket {
    let url = format!("ws://{addr}/api/matches/{id}/play");
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    socket.send(Message::text(hello.to_string())).await.unwrap();
    socket
}

/// Seat `token`'s WebSocket on match `id`, once its first view came.
pub async fn seated(addr: SocketAddr, id: &str, token: &str) -> Socket {
    let mut socket = connect(
        addr,
        id,
        json!({"protocol": 1, "type": "hello", "token": token}),
    )
    .await;
    next_of(&mut socket, "view").await.unwrap();
    socket
}

/// The next frame of `type`, skipping others; none if the connection closes first.
pub async fn next_of(socket: &mut Socket, kind: &str) -> Option<Value> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
            .await
            .ok()??;
        let Ok(Message::Text(text)) = frame else {
            if matches!(frame, Ok(Message::Close(_)) | Err(_)) {
                return None;
            }
            continue;
        };
        let value: Value = serde_json::from_str(text.as_str()).unwrap();
        if value["type"] == kind {
            return Some(value);
        }
    }
}

pub async fn error_after(socket: &mut Socket, frame: Message) -> String {
    socket.send(frame).await.unwrap();
    let error = next_of(socket, "error").await.expect("an error frame");
    error["message"].as_str().unwrap().to_string()
}

/// A server's options on a free port, its data in `data` and the shipped packs played.
pub fn options(data: &Path) -> scryptic_server::Options {
    // A folder of the server's own making: its owner's alone, as the server requires.
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), data.join("server"));
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    options
}

pub fn server(data: &Path) -> scryptic_server::Started {
    scryptic_server::start(options(data)).unwrap()
}

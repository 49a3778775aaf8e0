//! Bad input over the wire never panics and never changes a match: each kind of it gets an
//! error naming the problem, or a closed connection, and the match's actions stay as they
//! were (the server is in-process, on a free port; its clients are real sockets).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{actions, connect, error_after, http, next_of, server};
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

#[test]
fn bad_input_gets_an_error_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let started = server(dir.path());
    let addr = started.addr;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // Lobby: malformed, too long, another version, an unknown pack, a seat taken twice.
        let (status, body) = http(addr, "POST", "/api/matches", "{").await;
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("not a message of this protocol"), "{body}");
        let (status, _) = http(addr, "POST", "/api/matches", &"x".repeat(70_000)).await;
        assert_eq!(status, 413);
        let (status, body) = http(
            addr,
            "POST",
            "/api/matches",
            r#"{"protocol":9,"pack":"core"}"#,
        )
        .await;
        assert_eq!(status, 400);
        assert!(body.contains("protocol version 9"), "{body}");
        let (status, body) = http(
            addr,
            "POST",
            "/api/matches",
            r#"{"protocol":1,"pack":"nothing-here"}"#,
        )
        .await;
        assert_eq!(status, 400);
        assert!(
            body.contains("this server has no pack `nothing-here`: it plays"),
            "{body}"
        );
        let create = json!({"protocol": 1, "pack": "word-wars", "seed": 1}).to_string();
        let (status, body) = http(addr, "POST", "/api/matches", &create).await;
        assert_eq!(status, 201, "{body}");
        let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let take = |seat: &str| json!({"protocol": 1, "seat": seat, "name": "x"}).to_string();
        let (_, gold) = http(
            addr,
            "POST",
            &format!("/api/matches/{id}/seats"),
            &take("gold"),
        )
        .await;
        let gold: Value = serde_json::from_str(&gold).unwrap();
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/matches/{id}/seats"),
            &take("gold"),
        )
        .await;
        assert_eq!(status, 409, "{body}");
        let (_, silver) = http(
            addr,
            "POST",
            &format!("/api/matches/{id}/seats"),
            &take("silver"),
        )
        .await;
        let silver: Value = serde_json::from_str(&silver).unwrap();
        let (status, _) = http(
            addr,
            "POST",
            &format!("/api/matches/{id}/leave"),
            r#"{"protocol":1,"token":"made-up"}"#,
        )
        .await;
        assert_eq!(status, 403);

        // A made-up token: refused and closed.
        let mut stranger = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": "00".repeat(16)}),
        )
        .await;
        let refused = next_of(&mut stranger, "error").await.unwrap();
        assert!(
            refused["message"].as_str().unwrap().contains("no seat's"),
            "{refused}"
        );
        assert!(
            next_of(&mut stranger, "view").await.is_none(),
            "closed after"
        );

        let mut socket = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": gold["token"]}),
        )
        .await;
        next_of(&mut socket, "view").await.unwrap();
        let before = actions(addr, &id).await;
        for (frame, says) in [
            (Message::text("{"), "not a message of this protocol"),
            (
                Message::text(r#"{"protocol":1,"type":"shout"}"#),
                "unknown variant",
            ),
            (
                Message::text(r#"{"protocol":2,"type":"next"}"#),
                "protocol version 2",
            ),
            (Message::binary(vec![1, 2, 3]), "JSON text"),
            (
                Message::text(r#"{"protocol":1,"type":"hello"}"#),
                "said hello already",
            ),
        ] {
            let message = error_after(&mut socket, frame).await;
            assert!(message.contains(says), "{says}: {message}");
        }
        // Another seat's action, and the clock's: refused, nothing changes.
        socket
            .send(Message::text(
                json!({"protocol": 1, "type": "act", "action": {"RedLight": {"player": "Silver"}}})
                    .to_string(),
            ))
            .await
            .unwrap();
        let refused = next_of(&mut socket, "refused").await.unwrap();
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .contains("you play gold"),
            "{refused}"
        );
        socket
            .send(Message::text(
                json!({"protocol": 1, "type": "act", "action": "GraceOver"}).to_string(),
            ))
            .await
            .unwrap();
        assert!(next_of(&mut socket, "refused").await.is_some());
        // A flood: past the burst, frames are answered with an error and not read.
        let mut slowed = false;
        for _ in 0..60 {
            socket
                .send(Message::text(r#"{"protocol":1,"type":"next"}"#))
                .await
                .unwrap();
        }
        for _ in 0..60 {
            match next_of(&mut socket, "error").await {
                Some(e) if e["message"].as_str().unwrap().contains("too many frames") => {
                    slowed = true;
                    break;
                }
                Some(_) => {}
                None => break,
            }
        }
        assert!(slowed, "a flood is slowed");
        assert_eq!(
            actions(addr, &id).await,
            before,
            "nothing changed the match"
        );
        // A frame over 64 KiB closes the connection; the match goes on for the others.
        let huge = format!(
            r#"{{"protocol":1,"type":"hello","token":"{}"}}"#,
            "a".repeat(70_000)
        );
        let _ = socket.send(Message::text(huge)).await;
        assert!(next_of(&mut socket, "view").await.is_none(), "closed");
        let mut again = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": silver["token"]}),
        )
        .await;
        assert!(next_of(&mut again, "view").await.is_some());
        assert_eq!(actions(addr, &id).await, before);
        // A flood of lobby requests from one address: past its burst, 429 and a message.
        let mut refused = None;
        for _ in 0..100 {
            let (status, body) = http(addr, "GET", "/api/matches", "").await;
            if status == 429 {
                refused = Some(body);
                break;
            }
        }
        let refused = refused.expect("a flood of lobby requests is refused");
        assert!(refused.contains("too many requests"), "{refused}");
    });
}

//! Matches asleep over the wire: a match nobody is connected to leaves memory once it has been
//! quiet long enough (on a manual clock the test moves), is listed meanwhile as it stood, comes
//! back for the next person with the view it had, is woken by its own clock to end a move
//! out of time, and a restarted server starts with every match asleep.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

mod common;

use common::{Socket, connect, info, next_of, options, posted, seated};
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const MINUTE_MS: u64 = 60_000;

/// Waits (20 s at most) until `done` says the server got there.
async fn until(what: &str, done: impl Fn() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(20), "never {what}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A core match of two people, a move given `move_time`: its id and the seats' tokens.
async fn match_of_two(addr: SocketAddr, move_time: &str) -> (String, Vec<String>) {
    let create = json!({"protocol": 1, "pack": "core", "seed": 5,
                        "settings": {"move_time": move_time}});
    let id = posted(addr, "/api/matches", create).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut tokens = Vec::new();
    for seat in ["gold", "silver"] {
        let take = json!({"protocol": 1, "seat": seat, "name": seat});
        let taken = posted(addr, &format!("/api/matches/{id}/seats"), take).await;
        tokens.push(taken["token"].as_str().unwrap().to_string());
    }
    (id, tokens)
}

/// The view a seat's socket is sent after `action`.
async fn act(socket: &mut Socket, action: Value) -> Value {
    let frame = json!({"protocol": 1, "type": "act", "action": action});
    socket.send(Message::text(frame.to_string())).await.unwrap();
    next_of(socket, "view").await.unwrap()
}

#[test]
fn a_quiet_match_sleeps_and_comes_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let clock = scryptic_server::Clock::manual(1_800_000_000_000);
    let serve = || {
        let mut options = options(dir.path());
        options.clock = clock.clone();
        options.sleep_after = Duration::from_secs(60);
        scryptic_server::start(options).unwrap()
    };
    let started = serve();
    let addr = started.addr;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (id, timed) = runtime.block_on(async {
        let (id, tokens) = match_of_two(addr, "off").await;
        let mut gold = seated(addr, &id, &tokens[0]).await;
        act(&mut gold, json!("EndTurn")).await;
        let mut silver = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": tokens[1]}),
        )
        .await;
        let before = next_of(&mut silver, "view").await.unwrap();
        drop((gold, silver));
        // Nobody connected: a minute of quiet on the server's clock, and it sleeps.
        let start = Instant::now();
        let listed = loop {
            assert!(start.elapsed() < Duration::from_secs(20), "never away");
            let listed = info(addr, &id).await;
            let away = |seat: usize| listed["seats"][seat]["occupant"]["connected"] == false;
            if away(0) && away(1) {
                break listed;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        clock.advance(MINUTE_MS - 1);
        // A match with a clock to come sleeps too, and its clock wakes it.
        let (timed, _) = match_of_two(addr, "1h").await;
        clock.advance(1);
        until("the first match asleep", || {
            started.matches_in_memory() == 1
        })
        .await;
        // Listed as it stood, without waking it.
        assert_eq!(info(addr, &id).await, listed);
        assert_eq!(started.matches_in_memory(), 1);
        // Silver comes back to the view it had; the match is in memory again.
        let mut silver = connect(
            addr,
            &id,
            json!({"protocol": 1, "type": "hello", "token": tokens[1], "seen": 1}),
        )
        .await;
        let after = next_of(&mut silver, "view").await.unwrap();
        assert_eq!(after["snapshot"], before["snapshot"]);
        assert_eq!(after["actions"], 1);
        assert_eq!(started.matches_in_memory(), 2);
        act(&mut silver, json!("EndTurn")).await;
        drop(silver);
        // The timed match fell asleep a minute after it began; its hour wakes it, and gold,
        // who never moved, loses on time.
        clock.advance(MINUTE_MS);
        until("the timed match asleep", || {
            started.matches_in_memory() <= 1
        })
        .await;
        clock.advance(60 * MINUTE_MS);
        let start = Instant::now();
        loop {
            let listed = info(addr, &timed).await;
            if listed["state"] == "over" {
                assert_eq!(listed["ended"]["winner"], "silver", "{listed}");
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "never out of time"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        (id, timed)
    });
    // Restarted, every match is asleep and listed as it was.
    started.stop();
    let started = serve();
    assert_eq!(started.matches_in_memory(), 0);
    assert_eq!(started.restored, 2);
    runtime.block_on(async {
        let listed = info(started.addr, &id).await;
        assert_eq!(listed["actions"], 2);
        let listed = info(started.addr, &timed).await;
        assert_eq!(listed["state"], "over");
        assert_eq!(started.matches_in_memory(), 0);
    });
}

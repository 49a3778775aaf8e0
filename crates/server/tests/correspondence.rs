//! Correspondence play: a match that gives each move a day (the `move_time` setting every mode
//! has), its clock the server's. The server's clock here is a manual one the test moves, so a
//! day passes at once and nothing waits on time: the match ends when the day is out, not a
//! millisecond before, and a restart keeps when each move began.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

mod common;

use common::{http, info, next_of, options, posted, seated};
use serde_json::{Value, json};

const DAY_MS: u64 = 86_400_000;
const START_MS: u64 = 1_800_000_000_000;

#[test]
fn a_move_not_made_within_its_day_loses_the_game_on_the_servers_clock() {
    let dir = tempfile::tempdir().unwrap();
    let clock = scryptic_server::Clock::manual(START_MS);
    let serve = || {
        let mut options = options(dir.path());
        options.clock = clock.clone();
        scryptic_server::start(options).unwrap()
    };
    let started = serve();
    let addr = started.addr;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let id = runtime.block_on(async {
        // Every mode offers the move's time, as the Host forms list it.
        let (_, packs) = http(addr, "GET", "/api/packs", "").await;
        let packs: Value = serde_json::from_str(&packs).unwrap();
        let core = packs["packs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == "core")
            .unwrap();
        let move_time = core["settings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["id"] == "move_time")
            .expect("the move's time is offered");
        assert!(move_time.to_string().contains("\"3d\""), "{move_time}");

        let create = json!({"protocol": 1, "pack": "core", "seed": 7,
                            "settings": {"move_time": "1d"}});
        let made = posted(addr, "/api/matches", create).await;
        let id = made["id"].as_str().unwrap().to_string();
        let mut tokens = Vec::new();
        for seat in ["gold", "silver"] {
            let take = json!({"protocol": 1, "seat": seat, "name": seat});
            let taken = posted(addr, &format!("/api/matches/{id}/seats"), take).await;
            tokens.push(taken["token"].as_str().unwrap().to_string());
        }
        let listed = info(addr, &id).await;
        assert_eq!(listed["to_act"], json!(["gold"]));
        assert_eq!(listed["move_due_ms"], json!(START_MS + DAY_MS), "{listed}");

        // Gold passes after half a day: silver's day begins then.
        clock.advance(DAY_MS / 2);
        let mut gold = seated(addr, &id, &tokens[0]).await;
        let pass = json!({"protocol": 1, "type": "act", "action": "EndTurn"});
        futures_util::SinkExt::send(
            &mut gold,
            tokio_tungstenite::tungstenite::Message::text(pass.to_string()),
        )
        .await
        .unwrap();
        let view = next_of(&mut gold, "view").await.unwrap();
        assert_eq!(view["actions"], 1);
        assert_eq!(view["move_left_ms"], json!(DAY_MS), "{view}");
        let listed = info(addr, &id).await;
        assert_eq!(listed["to_act"], json!(["silver"]));
        assert_eq!(listed["move_due_ms"], json!(START_MS + DAY_MS / 2 + DAY_MS));
        id
    });
    // A restart keeps when silver's move began: the log says when gold passed.
    started.stop();
    let started = serve();
    let addr = started.addr;
    runtime.block_on(async {
        let listed = info(addr, &id).await;
        assert_eq!(listed["move_due_ms"], json!(START_MS + DAY_MS / 2 + DAY_MS));
        let mut watching =
            common::connect(addr, &id, json!({"protocol": 1, "type": "hello"})).await;
        next_of(&mut watching, "view").await.unwrap();
        // A millisecond before the day is out, the clock has not fallen.
        clock.advance(DAY_MS - 1);
        let mut again = common::connect(addr, &id, json!({"protocol": 1, "type": "hello"})).await;
        let view = next_of(&mut again, "view").await.unwrap();
        assert_eq!(view["move_left_ms"], json!(1), "{view}");
        assert_eq!(view["actions"], 1);
        clock.advance(1);
        let listed = loop {
            let seats = next_of(&mut watching, "seats")
                .await
                .expect("the end is told");
            if seats["match"]["state"] == "over" {
                break seats["match"].clone();
            }
        };
        assert_eq!(listed["actions"], 2, "one action: the clock's");
        assert_eq!(listed["ended"]["winner"], "gold", "{listed}");
        let why = listed["ended"]["why"].as_str().unwrap();
        assert!(why.contains("silver ran out of time"), "{why}");
        assert!(
            listed["move_due_ms"].is_null(),
            "the clock stops with the game"
        );
    });
}

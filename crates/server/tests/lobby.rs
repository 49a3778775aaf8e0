//! The lobby's list a page at a time: the newest first, `offset` and `limit`, the matches of
//! `ids` (a player's own, by the tokens they keep), and a page asked for wrongly refused as a
//! `Problem` that says how to ask.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

mod common;

use common::{http, server};
use serde_json::{Value, json};

fn ids(list: &Value) -> Vec<String> {
    list["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_lobby_lists_a_page_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let started = server(dir.path());
    let addr = started.addr;
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut made = Vec::new();
        for seed in 0..3 {
            let create = json!({"protocol": 1, "pack": "core", "seed": seed}).to_string();
            let (status, body) = http(addr, "POST", "/api/matches", &create).await;
            assert_eq!(status, 201, "{body}");
            let info: Value = serde_json::from_str(&body).unwrap();
            made.push(info["id"].as_str().unwrap().to_string());
        }
        let get = |path: String| async move {
            let (status, body) = http(addr, "GET", &path, "").await;
            (status, serde_json::from_str::<Value>(&body).unwrap())
        };
        let (_, all) = get("/api/matches".into()).await;
        assert_eq!(all["total"], 3);
        let newest_first = ids(&all);
        assert_eq!(newest_first.len(), 3);
        let (_, first) = get("/api/matches?limit=2".into()).await;
        assert_eq!(ids(&first), newest_first[..2]);
        assert_eq!(first["total"], 3);
        let (_, rest) = get("/api/matches?offset=2&limit=2".into()).await;
        assert_eq!(ids(&rest), newest_first[2..]);
        // An offset past any database's own (a stranger's) is a page past the end.
        let (status, past) = get(format!("/api/matches?offset={}", usize::MAX)).await;
        assert_eq!(status, 200, "{past}");
        assert!(ids(&past).is_empty());
        let wanted = format!("/api/matches?ids={},{},nosuchmatch", made[0], made[2]);
        let (_, mine) = get(wanted).await;
        let both: Vec<String> = newest_first
            .iter()
            .filter(|id| **id == made[0] || **id == made[2])
            .cloned()
            .collect();
        assert_eq!(ids(&mine), both, "newest first");
        assert_eq!(mine["total"], 2);
        for (path, says) in [
            ("/api/matches?limit=0", "1 to 500 matches"),
            ("/api/matches?limit=501", "1 to 500 matches"),
            ("/api/matches?offset=many", "?offset=N&limit=N"),
        ] {
            let (status, problem) = get(path.into()).await;
            assert_eq!(status, 400, "{path}");
            let message = problem["error"].as_str().unwrap_or_default();
            assert!(message.contains(says), "{path}: {problem}");
        }
        let many: Vec<String> = (0..501).map(|i| format!("m{i}")).collect();
        let (status, _) = get(format!("/api/matches?ids={}", many.join(","))).await;
        assert_eq!(status, 400);
    });
}

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

fn process(url: &str, shard: (u32, u32), data: &std::path::Path) -> scryptic_server::Started {
    let mut options = Options::new("127.0.0.1:0".parse().unwrap(), data.to_path_buf());
    options.shard = shard;
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
    drop((first, second, store));
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
}

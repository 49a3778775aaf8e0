//! Three `scryptic serve` processes share one PostgreSQL database, as a community would run
//! them: a match hosted on one is joined through another, its serving process is killed
//! (`kill -9`), and the match plays on at the process that takes its shard's lease over, the
//! players' terminals coming back to it by themselves. Run where `.ci/run` starts a
//! PostgreSQL (`SCRYPTIC_TEST_POSTGRES`); with `SCRYPTIC_REQUIRE_POSTGRES=1` its absence fails
//! instead of skipping.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::serve::{Client, Server};

/// A database of the test's own on the PostgreSQL named by `url`: its name and connection
/// string.
fn own_database(url: &str) -> (String, String) {
    let name = format!("scryptic_three_{:08x}", rand::random::<u32>());
    let mut admin = postgres::Client::connect(url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let own = format!("{url} dbname={name}");
    (name, own)
}

#[test]
fn a_match_plays_on_when_its_process_is_killed() {
    let Ok(url) = std::env::var("SCRYPTIC_TEST_POSTGRES") else {
        assert!(
            std::env::var("SCRYPTIC_REQUIRE_POSTGRES").is_err(),
            "SCRYPTIC_REQUIRE_POSTGRES is set but SCRYPTIC_TEST_POSTGRES names no database"
        );
        eprintln!("no PostgreSQL named by SCRYPTIC_TEST_POSTGRES: three processes not tested");
        return;
    };
    let (name, database) = own_database(&url);
    let dir = tempfile::tempdir().unwrap();
    let serve = |k: u32| {
        let shard = format!("{k}/3");
        let more = ["--database", database.as_str(), "--shard", shard.as_str()];
        Server::start_with(
            &dir.path().join(format!("server-{k}")),
            "127.0.0.1:0",
            &more,
        )
    };
    let (mut first, second, third) = (serve(0), serve(1), serve(2));
    // Hosted on the first, gold the host's; silver joins through the second, gold comes
    // back through the third: both play at the first, which serves the match.
    let id = first.host(&["core", "--seed", "5", "--seat", "gold=me"]);
    let listed = second.matches();
    assert!(
        listed.contains(&format!("join: scryptic join {}", first.url(&id))),
        "every lobby lists it, at its process: {listed}"
    );
    let mut silver = Client::join(
        &second.url(&id),
        &dir.path().join("bob"),
        &["--seat", "silver", "--name", "Bob"],
    );
    silver.expect("you play silver");
    let host_home = dir.path().join("server-0").join("host");
    let mut gold = Client::join(&third.url(&id), &host_home, &["--seat", "gold"]);
    gold.expect("back at gold");
    gold.expect("turn 1: gold to play");
    gold.send("pass");
    silver.expect("gold passes");
    silver.expect("turn 2: silver to play");
    // The first process dies; another takes its shard's lease, and the terminals come back.
    first.kill();
    silver.expect("back in the match");
    gold.expect("back in the match");
    silver.send("pass");
    gold.expect("silver passes");
    gold.expect("turn 3: gold to play");
    let listed = third.matches();
    assert!(
        !listed.contains(&first.url(&id)),
        "the lobby names the process that took it over: {listed}"
    );
    assert_eq!(gold.quit(), 0);
    assert_eq!(silver.quit(), 0);
    drop((second, third));
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
}

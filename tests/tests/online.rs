//! Online play through the real binary over loopback: `scryptic serve`, `host` and `join`
//! processes, as people run them. Each client reads its own pipe; a test types a line once
//! the client has shown what a person would wait for.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::scryptic_binary;
use scryptic_tests::serve::{Client, Server};
use std::process::Command;

#[test]
fn two_terminals_play_a_whole_word_wars_match_and_its_save_replays() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let id = server.host(&["word-wars", "--seed", "1", "--set", "rounds=2"]);
    let url = server.url(&id);
    // The lobby lists it as waiting, with the address to join it.
    let listed = server.matches();
    assert!(
        listed.contains(&id) && listed.contains("waiting for players"),
        "{listed}"
    );
    assert!(
        listed.contains(&format!("join: scryptic join {url}")),
        "{listed}"
    );
    let mut gold = Client::join(
        &url,
        &dir.path().join("ann"),
        &["--seat", "gold", "--name", "Ann"],
    );
    let mut silver = Client::join(
        &url,
        &dir.path().join("bob"),
        &["--seat", "silver", "--name", "Bob"],
    );
    let mut watcher = Client::join(&url, &dir.path().join("eve"), &["--spectate"]);
    gold.expect("you play gold");
    silver.expect("you play silver");
    watcher.expect("you are watching");
    // Round 1: gold plays a word; silver sees it, and never gold's rack.
    gold.expect("turn 1: gold to play");
    let rack = gold.expect("pool");
    let gold_rack = rack
        .split("rack ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        gold_rack, "W D L U T P O",
        "the seed deals gold's rack: {rack}"
    );
    gold.send("commit H8 across PLOT");
    silver.expect("gold plays PLOT at H8 across");
    silver.expect("turn 2: silver to play");
    // A word not in the dictionary is refused by the server, and nothing changes.
    silver.send("commit H9 across QQQ");
    silver.expect("refused");
    assert!(
        !silver.everything().contains(&gold_rack),
        "silver never saw gold's rack:\n{}",
        silver.everything()
    );
    // The spectator sees the play and nobody's rack.
    watcher.expect("gold plays PLOT at H8 across");
    watcher.send("board");
    let board = watcher.expect("legend");
    assert_eq!(
        board.matches("rack 7 letters (hidden)").count(),
        2,
        "{board}"
    );
    assert!(!watcher.everything().contains(&gold_rack));
    let listed = server.matches();
    assert!(
        listed.contains("under way") && listed.contains("gold Ann; silver Bob"),
        "{listed}"
    );
    silver.send("forfeit");
    gold.expect("silver forfeits");
    gold.expect("the round is over");
    silver.expect("the round is over");
    // Round 2 begins when both are ready.
    gold.send("next");
    silver.send("next");
    gold.expect("the next round has begun");
    silver.expect("the next round has begun");
    gold.send("forfeit");
    silver.send("forfeit");
    gold.expect("the match is over");
    silver.expect("the match is over");
    let save = dir.path().join("match.ron");
    gold.send(&format!("save {}", save.display()));
    gold.expect("saved to");
    let replayed = Command::new(scryptic_binary())
        .args(["replay"])
        .arg(&save)
        .output()
        .unwrap();
    assert!(
        replayed.status.success(),
        "the match's save replays: {}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    assert_eq!(gold.quit(), 0);
    assert_eq!(silver.quit(), 0);
}

#[test]
fn a_server_killed_mid_match_resumes_it_and_the_seats_come_back_by_themselves() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(&dir.path().join("server"));
    let id = server.host(&["word-wars", "--seed", "1", "--set", "rounds=2"]);
    let url = server.url(&id);
    let mut gold = Client::join(&url, &dir.path().join("ann"), &["--seat", "gold"]);
    let mut silver = Client::join(&url, &dir.path().join("bob"), &["--seat", "silver"]);
    gold.expect("turn 1: gold to play");
    gold.send("commit H8 across PLOT");
    silver.expect("gold plays PLOT at H8 across");
    silver.expect("turn 2: silver to play");
    server.restart();
    assert!(server.said.contains("(1 match resumed"), "{}", server.said);
    gold.expect("back in the match");
    silver.expect("back in the match");
    // The restarted server replayed the log: the word and its score are where they were.
    silver.expect("turn 2: silver to play");
    silver.expect("gold: score 4");
    silver.send("forfeit");
    gold.expect("silver forfeits");
    gold.send("quit");
    silver.send("quit");
    // The whole log is in the database: exported as a save, it replays.
    let save = dir.path().join("export.ron");
    let exported = Command::new(scryptic_binary())
        .args(["serve", "--export", &id])
        .arg(&save)
        .arg("--data")
        .arg(dir.path().join("server"))
        .output()
        .unwrap();
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let replayed = Command::new(scryptic_binary())
        .args(["replay"])
        .arg(&save)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&replayed.stdout);
    assert!(
        replayed.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&replayed.stderr)
    );
    assert!(
        said.contains("PLOT"),
        "the export holds the word played before the kill:\n{said}"
    );
}

/// Lexicon Crossing between three terminals: everyone lays out at once, green light deals to
/// all, and after red light the server's clock ends the game with nobody typing.
#[test]
fn three_terminals_play_lexicon_crossing_at_once_and_the_clock_ends_it() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let id = server.host(&[
        "lexicon-crossing",
        "--map",
        "maps/deals/three.ron",
        "--seed",
        "1",
        "--set",
        "players=3",
        "--set",
        "grace=15",
    ]);
    let url = server.url(&id);
    let mut gold = Client::join(&url, &dir.path().join("a"), &["--seat", "gold"]);
    let mut silver = Client::join(&url, &dir.path().join("b"), &["--seat", "silver"]);
    let mut third = Client::join(&url, &dir.path().join("c"), &["--seat", "bronze"]);
    for client in [&mut gold, &mut silver, &mut third] {
        client.expect("round 1: everyone plays at once");
    }
    // Help says only what the server allows: no keyboard to pass, no clock to end, no save
    // before the log may be fetched, one way out.
    gold.send("help");
    let help = gold.expect("Cells are named");
    let starts = |word: &str| help.lines().filter(|l| l.starts_with(word)).count();
    assert_eq!(starts("pass"), 0, "{help}");
    assert_eq!(starts("time"), 0, "{help}");
    assert_eq!(starts("save"), 0, "{help}");
    assert_eq!(starts("quit"), 1, "{help}");
    assert_eq!(starts("green"), 1, "{help}");
    // All three act at once, each in their own region.
    gold.send("layout A1 across CAT");
    silver.send("layout U1 across DOG");
    third.send("layout AO1 across EMU");
    gold.expect("your crossword is complete");
    silver.expect("your crossword is complete");
    third.expect("your crossword is complete");
    // Nobody sees another's tiles: silver's screens never show gold's rack.
    assert!(
        !silver.everything().contains("rack C A T"),
        "{}",
        silver.everything()
    );
    third.send("green");
    for client in [&mut gold, &mut silver, &mut third] {
        client.expect("bronze calls green light: round 2, every player draws");
    }
    gold.expect("the pool runs low: red light when complete");
    gold.send("add A1 across CATS");
    gold.expect("your crossword is complete");
    gold.send("red");
    silver.expect("gold calls red light: the others have 15 s to finish");
    // Nobody types: the server's clock ends the grace period.
    for client in [&mut gold, &mut silver, &mut third] {
        client.expect("the grace period after gold's red light is over");
    }
    let save = dir.path().join("match.ron");
    gold.send(&format!("save {}", save.display()));
    gold.expect("saved to");
    assert!(save.is_file(), "the whole log is written where asked");
}

/// Scryper between two terminals: both set up in secret at the same time, and neither sees
/// the other's choice until both are made.
#[test]
fn scrypers_secret_setup_is_made_by_both_at_once_and_seen_by_each_alone() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    let id = server.host(&["scryper", "--seed", "3"]);
    let url = server.url(&id);
    let mut white = Client::join(&url, &dir.path().join("a"), &["--seat", "white"]);
    let mut brown = Client::join(&url, &dir.path().join("b"), &["--seat", "brown"]);
    white.expect("you play white");
    brown.expect("you play brown");
    white.send("field 1 A8");
    brown.send("field 4 F1");
    white.expect("white: 1 on the board, available 15 (1 1 1 2");
    brown.expect("brown: 1 on the board, available 15 (1 1 1 1 2 2 2 2 3 3 3 3 4 4 4)");
    white.send("ready");
    brown.expect("white made a secret choice");
    // Brown still sees none of white's bricks, and white none of brown's.
    brown.send("board");
    let board = brown.expect("legend");
    assert!(
        !board.contains("1+"),
        "white's brick is secret until both are ready:\n{board}"
    );
    assert!(
        !white.everything().contains("4-"),
        "brown's brick is secret:\n{}",
        white.everything()
    );
    brown.send("ready");
    // Both choices are made together: now each sees the other's bricks on the back lines.
    white.expect("brown made a secret choice");
    white.send("board");
    let board = white.expect("legend");
    assert!(board.contains("1+") && board.contains("?-"), "{board}");
}

/// `matches --mine` lists the matches this data folder holds a seat in, those where it is
/// the seat's turn first.
#[test]
fn matches_mine_lists_where_it_is_your_turn() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("server"));
    // Two matches held by the host's data folder: in the first gold (the host) moves first
    // against the AI; in the second the host sits at silver and waits for a player.
    server.host(&[
        "word-wars",
        "--seed",
        "1",
        "--seat",
        "gold=me",
        "--seat",
        "silver=ai",
    ]);
    server.host(&["word-wars", "--seed", "2", "--seat", "silver=me"]);
    // A third where each move has a day: waiting on the host too, its clock running, so first.
    let timed = server.host(&[
        "word-wars",
        "--seed",
        "3",
        "--seat",
        "gold=me",
        "--seat",
        "silver=ai",
        "--set",
        "move_time=1d",
    ]);
    let out = Command::new(scryptic_binary())
        .args(["matches", &server.base, "--mine"])
        .env("SCRYPTIC_DATA", dir.path().join("server").join("host"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(lines.len(), 3, "{text}");
    let day_left = [
        "YOUR TURN, 1d left (gold)",
        "YOUR TURN, 23h 59m left (gold)",
    ];
    assert!(day_left.iter().any(|l| lines[0].starts_with(l)), "{text}");
    assert!(lines[1].starts_with("YOUR TURN (gold)"), "{text}");
    assert!(lines[2].starts_with("waiting (silver)"), "{text}");
    // Joined again, the host's seat is told how long its move has.
    let host_home = dir.path().join("server").join("host");
    let mut gold = Client::join(&server.url(&timed), &host_home, &["--seat", "gold"]);
    gold.expect("your move: ");
    gold.expect("left on the server's clock");
    assert_eq!(gold.quit(), 0);
    // Another folder holds no seat there.
    let none = Command::new(scryptic_binary())
        .args(["matches", &server.base, "--mine"])
        .env("SCRYPTIC_DATA", dir.path().join("elsewhere"))
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&none.stdout).contains("you hold no seat"),
        "{none:?}"
    );
}

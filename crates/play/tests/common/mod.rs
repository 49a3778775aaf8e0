//! What the play view's tests against a real server share: the server on loopback with the
//! repository's packs, a match with a seat taken and the server's AI in another, the seat
//! joined, and waits for frames (a wake-up channel), never for time.
#![allow(
    clippy::unwrap_used,
    dead_code,
    reason = "test helpers: a panic there is a failure; not every test file uses each"
)]

use scryptic_client::Lobby;
use scryptic_core::lexicon::Lexicon;
use scryptic_play::server_seat::{Join, Joining, SeatAddress, ServerSeat, Wake};
use scryptic_protocol::{CreateMatch, SeatRequest, TakeSeat};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server on a free port of loopback with the repository's packs, its AI quick.
pub fn server() -> (scryptic_server::Started, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("data"));
    options.packs = vec![root().join("packs")];
    options.ai_pace = Duration::from_millis(20);
    options.ai_letter = Some(Duration::from_millis(20));
    (scryptic_server::start(options).unwrap(), dir)
}

/// A wake-up that says so on a channel, and the channel.
pub fn waker() -> (Wake, Receiver<()>) {
    let (tx, rx) = channel();
    let wake: Wake = Arc::new(move || {
        let _ = tx.send(());
    });
    (wake, rx)
}

/// Waits for the next frame's wake-up (a minute at most: a server that says nothing fails).
pub fn next_wake(woken: &Receiver<()>, what: &str) {
    woken
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("nothing came from the server while waiting for {what}"));
}

/// A match of `pack` (its mode `mode`, empty: the first) with `settings`, the server's easy AI
/// in seat `ai`, dealt by `seed`, and seat `mine` taken.
pub fn seat_against_the_ai(
    base: &str,
    pack: &str,
    settings: &[(&str, &str)],
    mine: &str,
    ai: &str,
    seed: u64,
) -> SeatAddress {
    let lobby = Lobby::new(base);
    let info = lobby
        .create(CreateMatch {
            pack: pack.into(),
            mode: String::new(),
            map: String::new(),
            settings: settings
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            seats: [(
                ai.to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(seed),
            log_after_end: true,
        })
        .unwrap();
    let taken = lobby
        .take(
            &info.id,
            TakeSeat {
                seat: Some(mine.into()),
                name: "ada".into(),
            },
        )
        .unwrap();
    SeatAddress {
        base: base.to_string(),
        match_id: info.id,
        token: Some(taken.token),
    }
}

/// Joins the match at `address`: the seat once welcomed and shown the game, and its wake-ups.
pub fn join(address: SeatAddress) -> (ServerSeat, Receiver<()>) {
    let (wake, woken) = waker();
    let mut joining = Joining::start(address, Arc::new(Lexicon::english()), Some(wake)).unwrap();
    loop {
        next_wake(&woken, "the welcome and the first view");
        joining = match joining.poll() {
            Join::Waiting(joining) => *joining,
            Join::Joined(seat) => return (*seat, woken),
            Join::Refused(why) | Join::Failed(why) => panic!("joining failed: {why}"),
        };
    }
}

//! The browser's page, run natively against a real server on loopback (the browser runs the
//! same code compiled to WebAssembly): a match's link opened, a name typed and a seat taken,
//! the match played in the play view, the seat come back to with the token the browser kept,
//! and given up. Waits are for the page's wake-ups, never for time.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use scryptic_client::Lobby;
use scryptic_play::server_seat::Wake;
use scryptic_protocol::{CreateMatch, MatchInfo, Occupant, SeatRequest};
use scryptic_web::WebApp;
use scryptic_web::app::Screen;
use scryptic_web::keep::{self, Keep};
use scryptic_web::link::MatchLink;
use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A server on a free port of loopback with the repository's packs, its AI quick.
fn server() -> (scryptic_server::Started, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().to_path_buf());
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    options.ai_pace = Duration::from_millis(20);
    (scryptic_server::start(options).unwrap(), dir)
}

/// The browser's storage, shared between the pages of one test (a tab closed and opened again).
#[derive(Clone, Default)]
struct Storage(Arc<Mutex<HashMap<String, String>>>);

impl Keep for Storage {
    fn get(&self, key: &str) -> Option<String> {
        self.0.lock().unwrap().get(key).cloned()
    }
    fn set(&mut self, key: &str, value: &str) {
        self.0.lock().unwrap().insert(key.into(), value.into());
    }
    fn remove(&mut self, key: &str) {
        self.0.lock().unwrap().remove(key);
    }
}

/// A Word Wars match, gold open, silver the server's easy AI.
fn word_wars(base: &str) -> MatchInfo {
    Lobby::new(base)
        .create(CreateMatch {
            pack: "word-wars".into(),
            mode: String::new(),
            map: String::new(),
            settings: Default::default(),
            seats: [(
                "silver".to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(5),
            log_after_end: true,
        })
        .unwrap()
}

/// The page opened at `link` with `storage`, and its wake-ups.
fn page(link: &str, storage: &Storage) -> (Harness<'static, WebApp>, Receiver<()>) {
    let (tx, woken) = channel();
    let wake: Wake = Arc::new(move || {
        let _ = tx.send(());
    });
    let (origin, rest) = link.split_at(link.find("/matches").unwrap());
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let app = WebApp::new(
        MatchLink::read(origin, path, query),
        Box::new(storage.clone()),
        wake,
    );
    let harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut WebApp| app.ui(ui), app);
    (harness, woken)
}

/// Draws frames until `done` holds, waiting for a wake-up between them (a minute at most).
fn until(
    h: &mut Harness<'static, WebApp>,
    woken: &Receiver<()>,
    what: &str,
    done: impl Fn(&Harness<'static, WebApp>) -> bool,
) {
    loop {
        h.step();
        if done(h) {
            return;
        }
        if woken.recv_timeout(Duration::from_secs(60)).is_err() {
            let said = h.state().message.clone();
            panic!("the page never got to {what} (its last message: {said:?})");
        }
    }
}

fn playing(h: &Harness<'static, WebApp>) -> bool {
    matches!(h.state().screen, Screen::Playing { .. })
}

fn choosing(h: &Harness<'static, WebApp>) -> bool {
    matches!(h.state().screen, Screen::Choosing(_))
}

/// A friend sent a match's link takes a seat with a name and plays; the page opened again
/// comes back to that seat with the token the browser kept; Leave gives it up.
#[test]
fn a_link_takes_a_seat_comes_back_to_it_and_gives_it_up() {
    let (server, _data) = server();
    let base = format!("http://{}", server.addr);
    let made = word_wars(&base);
    let link = format!("{base}/matches/{}", made.id);
    let storage = Storage::default();

    let (mut h, woken) = page(&link, &storage);
    until(&mut h, &woken, "the seat picker", choosing);
    assert!(h.query_by_label_contains("silver: AI easy").is_some());
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.step();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text("ada");
    h.step();
    h.get_by_label("Take gold").click();
    until(&mut h, &woken, "the match", playing);
    h.step();
    assert!(
        h.query_by_label_contains("You play").is_some(),
        "the bar says whose seat this is"
    );
    let kept = keep::kept_seat(&storage, &made.id).expect("the browser keeps the seat's token");
    assert_eq!(kept.seat, "gold");
    let list = Lobby::new(&base).matches().unwrap().matches;
    let seen = list.into_iter().find(|m| m.id == made.id).unwrap();
    assert_eq!(
        seen.seats[0].occupant,
        Occupant::Person {
            name: "ada".into(),
            connected: true
        },
        "the others see the name typed"
    );
    drop(h);

    // The tab closed and the link opened again: the same seat, with no seat picked.
    let (mut h, woken) = page(&link, &storage);
    assert!(
        matches!(h.state().screen, Screen::Joining { .. }),
        "straight back to the seat"
    );
    until(&mut h, &woken, "the match again", playing);
    h.step();
    h.get_by_label("Leave").click();
    until(&mut h, &woken, "the seat picker after leaving", choosing);
    assert!(
        keep::kept_seat(&storage, &made.id).is_none(),
        "a seat given up is forgotten"
    );
    assert!(
        h.query_by_label("Take gold").is_some(),
        "gold is open again"
    );
}

/// `?watch` opens the match as a spectator: no seat is taken and none is kept.
#[test]
fn a_watch_link_watches() {
    let (server, _data) = server();
    let base = format!("http://{}", server.addr);
    let made = word_wars(&base);
    let (mut h, woken) = page(
        &format!("{base}/matches/{}?watch", made.id),
        &Storage::default(),
    );
    until(&mut h, &woken, "the match", playing);
    h.step();
    assert!(h.query_by_label_contains("Watching").is_some());
    assert!(h.query_by_label("Leave").is_none());
}

/// A kept token the server no longer takes (the seat given up elsewhere) is forgotten and the
/// seat picker says why.
#[test]
fn a_stale_token_is_forgotten() {
    let (server, _data) = server();
    let base = format!("http://{}", server.addr);
    let made = word_wars(&base);
    let mut storage = Storage::default();
    let stale = keep::KeptSeat {
        seat: "gold".into(),
        token: "00".repeat(16),
    };
    keep::keep_seat(&mut storage, &made.id, &stale);
    let (mut h, woken) = page(&format!("{base}/matches/{}", made.id), &storage);
    until(&mut h, &woken, "the seat picker", choosing);
    let said = h.state().message.clone().unwrap_or_default();
    assert!(said.contains("could not be come back to"), "{said}");
    assert!(keep::kept_seat(&storage, &made.id).is_none());
}

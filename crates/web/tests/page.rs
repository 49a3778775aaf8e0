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
use scryptic_core::{Player, Pos};
use scryptic_play::rack::rack_label;
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
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("data"));
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    options.ai_pace = Duration::from_millis(20);
    options.ai_letter = Some(Duration::from_millis(20));
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
    page_sized(link, storage, egui::vec2(1280.0, 800.0))
}

fn page_sized(
    link: &str,
    storage: &Storage,
    size: egui::Vec2,
) -> (Harness<'static, WebApp>, Receiver<()>) {
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
        .with_size(size)
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

/// On a phone (390x844): the match's bar, the board, the rack and the turn's buttons all on
/// the screen; a word laid by taps (a cell, then its letters), committed with a tap, is played
/// by the server, and the AI answers.
#[test]
fn a_phone_plays_a_turn_by_taps() {
    let (server, _data) = server();
    let base = format!("http://{}", server.addr);
    let made = word_wars(&base);
    let link = format!("{base}/matches/{}?seat=gold&name=Pia", made.id);
    let (mut h, woken) = page_sized(&link, &Storage::default(), egui::vec2(390.0, 844.0));
    until(&mut h, &woken, "the match", playing);
    // A few frames for the panels to take their sizes (a panel is sized by the frame before).
    for _ in 0..5 {
        h.step();
    }
    let commit = h.get_by_label("Commit").rect();
    assert!(
        commit.max.y <= 844.0 && commit.max.x <= 390.0 && commit.height() >= 40.0,
        "{commit:?}"
    );
    let (word, start, centre) = match &h.state().screen {
        Screen::Playing { session, view, .. } => {
            let rack: Vec<char> = session.game().rack_letters(Player::Gold).chars().collect();
            let board = h.get_by_label(scryptic_play::board::BOARD_LABEL).rect();
            let (w, hgt) = (
                session.game().board().terrain.width(),
                session.game().board().terrain.height(),
            );
            let start = Pos::new(w / 2, hgt / 2);
            (
                a_word_of(&rack),
                start,
                view.board.view.cell_centre(board, start),
            )
        }
        _ => unreachable!(),
    };
    tap(&mut h, centre);
    for letter in word.chars() {
        // The rack closes up after each letter: its coins are found where they now are.
        h.step();
        h.step();
        let coin = h
            .get_all_by_label(&rack_label(letter))
            .next()
            .unwrap()
            .rect();
        tap(&mut h, coin.center());
    }
    if let Screen::Playing { session, .. } = &h.state().screen {
        assert_eq!(
            session.placed.len(),
            word.len(),
            "{word} laid from {start:?}: {:?}",
            session.refusal
        );
    }
    h.get_by_label("Commit").click();
    let lobby = Lobby::new(&base);
    until(&mut h, &woken, "gold's turn again, after silver's", |_| {
        let list = lobby.matches().unwrap().matches;
        let info = list.into_iter().find(|m| m.id == made.id).unwrap();
        info.actions >= 2 && info.to_act == ["gold"]
    });
}

/// The longest word the English lexicon has of the letters of `rack` (each used once).
fn a_word_of(rack: &[char]) -> String {
    let lexicon = scryptic_core::lexicon::Lexicon::english();
    let mut best = String::new();
    let mut used = vec![false; rack.len()];
    let mut word = String::new();
    fn search(
        rack: &[char],
        used: &mut [bool],
        word: &mut String,
        best: &mut String,
        lexicon: &scryptic_core::lexicon::Lexicon,
    ) {
        if word.len() > best.len() && word.len() >= 2 && lexicon.contains(word) {
            best.clone_from(word);
        }
        for i in 0..rack.len() {
            if !used[i] {
                used[i] = true;
                word.push(rack[i]);
                search(rack, used, word, best, lexicon);
                word.pop();
                used[i] = false;
            }
        }
    }
    search(rack, &mut used, &mut word, &mut best, &lexicon);
    assert!(!best.is_empty(), "no word in {rack:?}");
    best
}

/// A finger's tap at `p`.
fn tap(h: &mut Harness<'static, WebApp>, p: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerMoved(p));
        h.event(egui::Event::PointerButton {
            pos: p,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
}

/// A kept seat whose server cannot be reached is not forgotten: the page says so, and once
/// the server answers again, Try again comes back to the seat.
#[test]
fn a_kept_seat_survives_a_server_out_of_reach() {
    let (server, data) = server();
    let base = format!("http://{}", server.addr);
    let made = word_wars(&base);
    let taken = Lobby::new(&base)
        .take(
            &made.id,
            scryptic_protocol::TakeSeat {
                seat: Some("gold".into()),
                name: "Ada".into(),
            },
        )
        .unwrap();
    let mut storage = Storage::default();
    let kept = keep::KeptSeat {
        seat: "gold".into(),
        token: taken.token,
    };
    keep::keep_seat(&mut storage, &made.id, &kept);
    let addr = server.addr;
    drop(server);
    let (mut h, woken) = page(&format!("{base}/matches/{}", made.id), &storage);
    until(&mut h, &woken, "the failure said", |h| {
        matches!(h.state().screen, Screen::Failed(_))
    });
    assert_eq!(
        keep::kept_seat(&storage, &made.id),
        Some(kept.clone()),
        "still kept"
    );
    // The server back on its data and address: Try again comes back to the seat.
    let mut options = scryptic_server::Options::new(addr, data.path().join("data"));
    options.packs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs")];
    let _again = scryptic_server::start(options).unwrap();
    h.get_by_label("Try again").click();
    until(&mut h, &woken, "the seat again", playing);
}

/// A finished match's link offers its log: stepped through move by move in the play view, to
/// its end, where the game is over as it was.
#[test]
fn a_finished_match_is_stepped_through() {
    let (server, _data) = server();
    let base = format!("http://{}", server.addr);
    let lobby = Lobby::new(&base);
    let ai = |level: &str| SeatRequest::Ai {
        level: level.into(),
    };
    let made = lobby
        .create(CreateMatch {
            pack: "word-wars".into(),
            mode: String::new(),
            map: String::new(),
            settings: [("rounds".to_string(), "2".to_string())].into(),
            seats: [
                ("gold".to_string(), ai("easy")),
                ("silver".to_string(), ai("easy")),
            ]
            .into(),
            seed: Some(9),
            log_after_end: true,
        })
        .unwrap();
    // The AIs play it out, watched (each view wakes the page; no clock).
    let (mut watching, woken) = page(
        &format!("{base}/matches/{}?watch", made.id),
        &Storage::default(),
    );
    until(&mut watching, &woken, "the match's end", |h| {
        match &h.state().screen {
            // The second round's result is the match's end (a view does not say the match
            // is over; its game does).
            Screen::Playing { session, .. } => {
                session.game().round_number() == 2 && session.game().result().is_some()
            }
            _ => false,
        }
    });
    drop(watching);
    let (mut h, woken) = page(&format!("{base}/matches/{}", made.id), &Storage::default());
    until(&mut h, &woken, "the seat picker", choosing);
    h.get_by_label("Step through it").click();
    until(&mut h, &woken, "the replay", |h| {
        matches!(h.state().screen, Screen::Replaying(_))
    });
    h.step();
    let moves = match &h.state().screen {
        Screen::Replaying(replay) => replay.replay().unwrap().moves(),
        _ => unreachable!(),
    };
    assert!(moves > 2, "{moves} moves");
    // The seats named by who sat in them (not "elsewhere"), the match by its title, and the
    // board drawn with its tileset once its pack is here.
    assert!(h.query_by_label_contains("elsewhere").is_none());
    assert!(h.query_by_label_contains("gold (AI easy)").is_some());
    assert!(h.query_by_label_contains("silver (AI easy)").is_some());
    assert!(h.query_all_by_label_contains(&made.title).next().is_some());
    until(&mut h, &woken, "the replay's tileset", |h| {
        match &h.state().screen {
            Screen::Replaying(replay) => replay.view().board.textures().is_some(),
            _ => false,
        }
    });
    assert!(
        h.query_by_label_contains(&format!("move 0 of {moves}"))
            .is_some()
    );
    h.get_by_label("▶").click();
    h.step();
    h.step();
    assert!(
        h.query_by_label_contains(&format!("move 1 of {moves}"))
            .is_some()
    );
    h.get_by_label("⏭").click();
    h.step();
    h.step();
    match &h.state().screen {
        Screen::Replaying(replay) => {
            assert_eq!(replay.replay().unwrap().shown(), moves);
            let game = scryptic_play::Referee::game(replay.replay().unwrap());
            assert!(game.result().is_some(), "the end as it was");
        }
        _ => unreachable!(),
    }
}

//! The browser client (`crates/web` compiled to WebAssembly, served by `scryptic serve` at a
//! match's link) in a real browser (`scryptic_tests::browser`): a link that names a seat takes
//! it, the board is drawn, the seat's token is kept by the browser, and the link opened again
//! after the page was left or its tab closed comes back to the same seat; and what the page's
//! WebSocket received (the browser's own network log) is its seat's view, nothing of another's.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use scryptic::protocol::{MatchInfo, Occupant};
use scryptic_tests::browser::{Browser, ai_match, playing_server};
use std::time::{Duration, Instant};

/// Asks the lobby for match `id` until `done` holds (a minute at most).
fn lobby_until(
    address: &str,
    id: &str,
    what: &str,
    done: impl Fn(&MatchInfo) -> bool,
) -> MatchInfo {
    let lobby = scryptic::client::Lobby::new(address);
    let start = Instant::now();
    loop {
        let list = lobby.matches().unwrap().matches;
        let info = list.into_iter().find(|m| m.id == id).unwrap();
        if done(&info) {
            return info;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never {what}: {info:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn gold(info: &MatchInfo) -> &Occupant {
    &info.seats[0].occupant
}

/// The colours of the screenshot's pixels, counted: a page drawn by the client has many, a
/// blank or failed canvas one or two.
fn colours(png: &[u8]) -> usize {
    let image = image::load_from_memory(png).unwrap().to_rgb8();
    let mut seen: Vec<[u8; 3]> = image.pixels().map(|p| p.0).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

#[test]
fn a_link_takes_a_seat_in_the_browser_and_the_browser_comes_back_to_it() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made = ai_match(&address, "word-wars", &[("silver", "easy")], 7);

    browser.open(&format!("{address}/matches/{}?seat=gold&name=Bea", made.id));
    browser.wait_for(
        "the client started (its loading words gone)",
        "return document.getElementById('loading') === null",
    );
    let taken = lobby_until(&address, &made.id, "gold taken by Bea", |m| {
        *gold(m)
            == Occupant::Person {
                name: "Bea".into(),
                connected: true,
            }
    });
    assert_eq!(taken.seats.len(), 2);
    let kept = browser.run(&format!(
        "return localStorage.getItem('scryptic.seat.{}')",
        made.id
    ));
    assert!(
        kept.as_str().unwrap().starts_with("gold\n"),
        "the browser keeps the seat: {kept}"
    );
    let shot = browser.screenshot();
    if let Some(dir) = std::env::var_os("SCRYPTIC_SCREENSHOTS") {
        std::fs::write(std::path::Path::new(&dir).join("browser-client.png"), &shot).unwrap();
    }
    assert!(
        colours(&shot) > 200,
        "the board is drawn ({} colours)",
        colours(&shot)
    );

    // Gone to the site's list (the client's "All matches"): the seat is away; back, the same
    // seat (the page is not kept frozen with its connection open by the browser's cache).
    browser.open(&format!("{address}/"));
    away(&address, &made.id);
    // The site lists the match among this browser's own, waiting on its seat (gold begins).
    browser.wait_for(
        "the site's own matches list the seat's, its turn",
        &format!(
            "const item = document.querySelector('#my-matches li[data-id=\"{}\"]'); \
             return !document.getElementById('mine').hidden && item !== null \
               && item.textContent.startsWith('Your turn') && item.textContent.includes('(gold)')",
            made.id
        ),
    );
    browser.open(&format!("{address}/matches/{}", made.id));
    back(&address, &made.id);
    // The tab closed, and the link opened again in another: the same seat.
    browser.close_tab_for_a_new_one();
    away(&address, &made.id);
    browser.open(&format!("{address}/matches/{}", made.id));
    back(&address, &made.id);
}

fn away(address: &str, id: &str) {
    lobby_until(address, id, "gold away", |m| {
        matches!(
            gold(m),
            Occupant::Person {
                connected: false,
                ..
            }
        )
    });
}

/// Gold is Bea's again, connected: come back to with the kept token (no seat was taken anew).
fn back(address: &str, id: &str) {
    lobby_until(address, id, "gold back", |m| {
        *gold(m)
            == Occupant::Person {
                name: "Bea".into(),
                connected: true,
            }
    });
}

/// The site's Host form with the host's own seat ("me", the first by default) and a name:
/// hosted, its "Play your seat" link opens the client on that seat, taken under that name.
#[test]
fn the_host_form_hosts_and_the_host_plays_their_seat() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    browser.open(&format!("{address}/"));
    browser.wait_for(
        "the Host form's seats",
        "return document.querySelectorAll('#host-seat-list [data-seat]').length > 0",
    );
    browser.run(
        "const pack = document.getElementById('host-pack'); pack.value = 'word-wars'; \
         pack.dispatchEvent(new Event('change')); \
         document.querySelector('#host-seat-list [data-seat=\"silver\"]').value = 'easy'; \
         return true",
    );
    let first =
        browser.run("return document.querySelector('#host-seat-list [data-seat=\"gold\"]').value");
    assert_eq!(first, "me", "the first seat is the host's");
    browser.type_into("#host-name", "Cai");
    browser.click("#host-submit");
    browser.wait_for(
        "the hosted match's links",
        "return document.querySelector('#host-result a.play') !== null",
    );
    let id = browser.run(
        "return document.querySelector('#host-result a.hosted').getAttribute('href').split('/').pop()",
    );
    let id = id.as_str().unwrap().to_string();
    browser.click("#host-result a.play");
    browser.wait_for(
        "the client started",
        "return document.getElementById('loading') === null",
    );
    lobby_until(&address, &id, "gold taken by the host", |m| {
        *gold(m)
            == Occupant::Person {
                name: "Cai".into(),
                connected: true,
            }
    });
}

/// How long a match's link takes to show its board in the browser on loopback (a measurement
/// for PERFORMANCE.md, run by hand: `cargo test -p scryptic-tests --test
/// browser_client -- --ignored --nocapture`): the page's own timeline, from the request to the
/// client running, the first board drawn (the seat joined) and the tileset on it; each first
/// with nothing in the browser's cache, then again with the client's files kept.
#[test]
#[ignore = "a measurement, run by hand"]
fn time_to_the_first_board() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    for visit in ["first visit", "files kept"] {
        let made = ai_match(&address, "word-wars", &[("silver", "easy")], 7);
        browser.open(&format!("{address}/matches/{}?watch", made.id));
        browser.wait_for(
            "the tileset on the board",
            "return performance.getEntriesByName('scryptic-tileset').length > 0",
        );
        let times = browser.run(
            "const at = (n) => Math.round(performance.getEntriesByName(n)[0].startTime); \
             const nav = performance.getEntriesByType('navigation')[0]; \
             const wasm = performance.getEntriesByType('resource').filter(r => r.name.endsWith('.wasm'))[0]; \
             return { page: Math.round(nav.responseEnd), module: Math.round(wasm.responseEnd), \
               module_bytes: wasm.transferSize, board: at('scryptic-board'), tileset: at('scryptic-tileset') }",
        );
        eprintln!("{visit}: {times} (ms from the request)");
    }
}

/// How long the browser client takes to draw a frame of a 40x40 board (the classic duel's
/// largest shipped map) while the pointer moves over it: the time spent in each of the page's
/// animation-frame callbacks (where eframe runs egui, lays the frame out and paints it), over
/// 300 pointer moves a frame apart. WebGL is chromium's software renderer here (no GPU).
#[test]
#[ignore = "a measurement, run by hand"]
fn frame_time_on_a_40_by_40_board() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made = scryptic::client::Lobby::new(&address)
        .create(scryptic::protocol::CreateMatch {
            pack: "core".into(),
            mode: String::new(),
            map: "maps/duel-40.ron".into(),
            settings: Default::default(),
            seats: Default::default(),
            seed: Some(7),
            log_after_end: true,
        })
        .unwrap();
    for (what, watch) in [
        ("watching", "?watch"),
        ("playing gold", "?seat=gold&name=Ada"),
    ] {
        browser.open(&format!("{address}/matches/{}{watch}", made.id));
        browser.wait_for(
            "the tileset on the board",
            "return performance.getEntriesByName('scryptic-tileset').length > 0",
        );
        let times = browser.run_async(
            "const canvas = document.getElementById('scryptic'); \
             const box = canvas.getBoundingClientRect(); \
             const spent = []; \
             const frame = window.requestAnimationFrame.bind(window); \
             window.requestAnimationFrame = (callback) => frame((t) => { \
               const start = performance.now(); callback(t); spent.push(performance.now() - start); }); \
             let n = 0; \
             const move = () => { \
               n += 1; \
               canvas.dispatchEvent(new MouseEvent('mousemove', { \
                 clientX: box.left + 50 + (n * 7) % 600, clientY: box.top + 200 + (n * 3) % 600, \
                 bubbles: true })); \
               if (n < 300) { frame(move); return; } \
               spent.sort((a, b) => a - b); \
               const at = (q) => spent[Math.floor(q * (spent.length - 1))].toFixed(2); \
               done({ frames: spent.length, median: at(0.5), p95: at(0.95), most: at(1) }); \
             }; \
             frame(move);",
        );
        eprintln!("{what}: {times} (ms a frame)");
    }
}

/// The server killed as by `kill -9` and started again on the same data while a browser plays:
/// the page makes its connection again by itself and the seat is connected again, with no
/// seat taken anew.
#[test]
fn the_seat_comes_back_after_the_server_is_killed_and_started_again() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut server = scryptic_tests::serve::Server::start(&dir.path().join("server"));
    let id = server.host(&["word-wars", "--seed", "3", "--seat", "silver=ai:easy"]);
    browser.open(&format!("{}?seat=gold&name=Bea", server.url(&id)));
    back(&server.base, &id);
    server.restart();
    // Nobody is connected to a server just started: connected again is the page's doing.
    back(&server.base, &id);
    let kept = browser.run(&format!(
        "return localStorage.getItem('scryptic.seat.{id}')"
    ));
    assert!(kept.as_str().unwrap().starts_with("gold\n"), "{kept}");
}

/// What the frames a browser received show of the seats' hidden letters: `viewer` (a seat's
/// index, none for a spectator) may see its own; every other seat's rack, pile and draws must be
/// `?`, and `secret` (another seat's rack as the test knows it, in the snapshot's JSON form)
/// must appear in no frame. Answers how many letters of the viewer's own the views showed (the
/// check reads the right fields only if it finds those).
fn check_frames(frames: &[String], viewer: Option<usize>, secret: &str) -> usize {
    let hidden = |v: &serde_json::Value| v.as_str().is_none_or(|s| s.chars().all(|c| c == '?'));
    let me = viewer.map(|i| ["Gold", "Silver"][i]);
    let mut own_letters = 0;
    for frame in frames {
        let fail = |what: &str| panic!("a frame for {viewer:?} shows {what}:\n{frame}");
        assert!(!frame.contains(secret), "a frame shows the other rack");
        let value: serde_json::Value = serde_json::from_str(frame).unwrap();
        if value["type"] != "view" || !value["snapshot"]["result"].is_null() {
            continue;
        }
        let snapshot = &value["snapshot"];
        for (i, player) in snapshot["players"].as_array().unwrap().iter().enumerate() {
            let letters = player["rack"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|item| item.get("Letter"));
            if Some(i) == viewer {
                own_letters += letters.filter(|l| !hidden(l)).count();
            } else if !letters.into_iter().all(hidden) {
                fail(&format!("seat {i}'s rack"));
            } else if !player["pool"].as_array().unwrap().iter().all(hidden) {
                fail(&format!("seat {i}'s pile"));
            }
        }
        for event in value["events"].as_array().into_iter().flatten() {
            let Some((_, fields)) = event.as_object().and_then(|o| o.iter().next()) else {
                continue;
            };
            let theirs = fields.get("player").and_then(|p| p.as_str()) != me;
            for field in ["letters", "drew"] {
                if theirs && fields.get(field).is_some_and(|l| !hidden(l)) {
                    fail(&format!("another seat's {field}"));
                }
            }
        }
    }
    own_letters
}

/// Every frame a browser's WebSocket received, as the browser's own network log recorded it,
/// holds its seat's view alone: the other seat's rack (a person at a terminal, here the test)
/// is `?` in it, as it is to a spectator's page, which sees no rack at all.
#[test]
fn the_browser_receives_its_seats_view_and_nothing_of_anothers() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(20));
    let address = format!("http://{}", server.addr);
    let made = ai_match(&address, "word-wars", &[], 5);
    let lobby = scryptic::client::Lobby::new(&address);
    let request = scryptic::protocol::TakeSeat {
        seat: Some("silver".into()),
        name: "Sam".into(),
    };
    let silver = lobby.take(&made.id, request).unwrap();
    let connection =
        scryptic::client::Connection::open(&address, &made.id, Some(silver.token), None, None)
            .unwrap();
    let silver_rack = loop {
        let incoming = connection
            .incoming
            .recv_timeout(Duration::from_secs(60))
            .unwrap();
        if let scryptic::client::Incoming::Frame(frame) = incoming
            && let scryptic::protocol::ServerFrame::View(view) = *frame
        {
            let snapshot = serde_json::to_value(&view.snapshot).unwrap();
            break serde_json::to_string(&snapshot["players"][1]["rack"]).unwrap();
        }
    };
    assert!(
        silver_rack.matches("\"Letter\"").count() >= 5 && !silver_rack.contains("\"?\""),
        "silver sees its own rack: {silver_rack}"
    );

    browser.open(&format!("{address}/matches/{}?seat=gold&name=Bea", made.id));
    let frames = frames_until_a_view(&browser);
    let own = check_frames(&frames, Some(0), &silver_rack);
    assert!(own >= 5, "gold's page got gold's letters ({own})");

    browser.open(&format!("{address}/matches/{}?watch", made.id));
    let frames = frames_until_a_view(&browser);
    assert_eq!(check_frames(&frames, None, &silver_rack), 0);
    assert!(
        frames.iter().any(|f| f.contains("\"welcome\"")),
        "the watching page was welcomed"
    );
}

/// The frames the page's sockets received until one of them is a view of the game (the
/// browser's log is read as the page goes; a minute at most).
fn frames_until_a_view(browser: &Browser) -> Vec<String> {
    let start = Instant::now();
    let mut frames = Vec::new();
    while !frames
        .iter()
        .any(|f: &String| f.contains("\"type\":\"view\""))
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no view reached the page: {frames:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
        frames.extend(browser.websocket_frames());
    }
    frames
}

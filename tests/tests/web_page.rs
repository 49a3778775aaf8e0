//! The server's web page in a real browser (`scryptic_tests::browser`): the page lists the
//! packs the server publishes, a search narrows them, a README is rendered, a download's
//! SHA-256 (taken in the page) is the index's, and a match is watched live; each match says
//! where it stands, and `/?match=ID` opens the page on it.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::browser::{Browser, ai_match, playing_server};
use scryptic_tests::root;
use serde_json::json;
use std::time::{Duration, Instant};

#[test]
fn the_page_lists_searches_renders_and_serves_packs_and_shows_a_match_live() {
    let Some(browser) = Browser::start() else {
        return;
    };
    // Two shipped packs published as releases, and a match of AIs to watch.
    let dir = tempfile::tempdir().unwrap();
    let releases = dir.path().join("releases");
    std::fs::create_dir_all(&releases).unwrap();
    for id in ["word-wars", "wending"] {
        let pack = scryptic::pack::Pack::open(&root().join("packs").join(id)).unwrap();
        let zip = releases.join(format!("{id}-{}.zip", pack.manifest.version));
        scryptic::pack::archive::zip_folder(&pack, &zip).unwrap();
    }
    let mut options =
        scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("data"));
    options.packs = vec![root().join("packs")];
    options.publish = vec![releases];
    options.ai_pace = Duration::from_millis(20);
    options.ai_letter = Some(Duration::from_millis(20));
    let server = scryptic::server::start(options).unwrap();
    assert_eq!(server.published, 2, "{:?}", server.unpublished);
    let address = format!("http://{}", server.addr);
    let made = ai_match(
        &address,
        "word-wars",
        &[("gold", "easy"), ("silver", "easy")],
        4,
    );

    browser.open(&address);
    browser.wait_for(
        "the packs listed",
        "return document.querySelectorAll('#pack-list li.pack').length === 2",
    );
    browser.type_into("#search", "campaign ford");
    browser.wait_for(
        "the search to narrow the list",
        "const shown = [...document.querySelectorAll('#pack-list li.pack')].map(l => l.dataset.id); \
         return shown.length === 1 && shown[0] === 'wending'",
    );
    // Each pack's title opens its page.
    let page = browser
        .run("return document.querySelector('#pack-list li.pack a.page').getAttribute('href')");
    assert_eq!(page, "/packs/wending");
    browser.click("#pack-list li.pack .readme");
    browser.wait_for(
        "the README rendered",
        "const body = document.querySelector('#pack-list li.pack .readme-body'); \
         return !body.hidden && body.querySelector('h1, h2') !== null",
    );
    // The download, hashed in the page, is the index's.
    let hashed = browser.run_async(
        "const link = document.querySelector('#pack-list li.pack a.download'); \
         fetch(link.href).then(r => r.arrayBuffer()).then(b => crypto.subtle.digest('SHA-256', b)) \
         .then(d => done({ got: [...new Uint8Array(d)].map(x => x.toString(16).padStart(2, '0')).join(''), \
           listed: link.dataset.sha256 })).catch(e => done({ error: String(e) }));",
    );
    let wending = scryptic_tests::published_pack(&address, "wending");
    assert_eq!(hashed["got"], wending["releases"][0]["sha256"], "{hashed}");
    assert_eq!(hashed["got"], hashed["listed"], "{hashed}");
    // Filtered by a tag (a pack page's tag links open the list so), sorted by name.
    browser.open(&format!("{address}/?tag=race"));
    browser.wait_for(
        "only the packs tagged race",
        "const shown = [...document.querySelectorAll('#pack-list li.pack')].map(l => l.dataset.id); \
         return shown.length === 1 && shown[0] === 'word-wars'",
    );
    browser.run(
        "const tag = document.getElementById('tag-filter'); tag.value = ''; \
         tag.dispatchEvent(new Event('change')); return true",
    );
    browser.wait_for(
        "every pack, by name",
        "const shown = [...document.querySelectorAll('#pack-list li.pack')].map(l => l.dataset.id); \
         return shown.join(',') === 'wending,word-wars'",
    );
    // The match, watched live: the board drawn and letters coming onto it.
    browser.wait_for(
        "the match listed",
        &format!(
            "return document.querySelector('li.match[data-id=\"{}\"]') !== null",
            made.id
        ),
    );
    browser.click(&format!("li.match[data-id=\"{}\"] .watch", made.id));
    browser.wait_for(
        "the board with letters",
        "const cells = document.querySelectorAll('#board .cell'); \
         const letters = [...cells].filter(c => c.textContent.length === 1); \
         return cells.length > 100 && letters.length > 0",
    );
    let status = browser.run("return document.getElementById('watching-status').textContent");
    assert!(status.as_str().unwrap().contains("actions"), "{status}");
}

/// The match list says where each match stands (waiting for players, or over with its winner
/// and scores), its id, when it started and last moved, and gives its link and, once it is
/// over, its log, and its link (`/matches/ID`, the browser client); `/?match=ID` opens the page
/// on that match, watching it; the packs the server plays are listed with their modes and
/// settings; the page asks for nothing the server lacks (its icon).
#[test]
fn each_match_says_where_it_stands_and_its_link_opens_it() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(5));
    let address = format!("http://{}", server.addr);
    let waiting = ai_match(&address, "word-wars", &[("silver", "easy")], 7);
    let played = ai_match(
        &address,
        "word-wars",
        &[("gold", "easy"), ("silver", "easy")],
        7,
    );
    // Wait for the AIs' match to end (the server's own word, not a clock).
    let lobby = scryptic::client::Lobby::new(&address);
    let start = Instant::now();
    let over = loop {
        let list = lobby.matches().unwrap();
        let info = list
            .matches
            .into_iter()
            .find(|m| m.id == played.id)
            .unwrap();
        if info.state == scryptic::protocol::MatchState::Over {
            break info;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the AIs' match never ended: {info:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    let ended = over.ended.clone().expect("an ended match says how");
    assert_eq!(over.scores.len(), 2, "{over:?}");
    assert!(over.last_moved_ms >= over.started_ms && over.to_act.is_empty());

    // The page opened on the waiting match.
    browser.open(&format!("{address}/?match={}", waiting.id));
    let item = |id: &str| format!("li.match[data-id=\"{id}\"]");
    browser.wait_for(
        "the linked match chosen and watched",
        &format!(
            "const item = document.querySelector('{}'); \
             return item !== null && item.classList.contains('chosen') && \
             !document.getElementById('watching').hidden && \
             document.getElementById('watching-title').textContent === '{}'",
            item(&waiting.id),
            waiting.title
        ),
    );
    let text = |css: &str| {
        browser.run(&format!(
            "return document.querySelector('{css}').textContent"
        ))
    };
    assert!(
        browser
            .run(&format!(
                "return document.querySelector('{} #watching') !== null",
                item(&waiting.id)
            ))
            .as_bool()
            .unwrap(),
        "the board is shown under the match watched, where the eye is"
    );
    // Its link opens the browser client, to play.
    let play = browser.run(&format!(
        "const a = document.querySelector('{} a.link'); return [a.textContent, a.getAttribute('href')]",
        item(&waiting.id)
    ));
    assert_eq!(play, json!(["Play", format!("/matches/{}", waiting.id)]));
    let waiting_text = text(&item(&waiting.id));
    let waiting_text = waiting_text.as_str().unwrap();
    assert!(
        waiting_text.contains("waiting for 1 player")
            && waiting_text.contains(&waiting.id)
            && waiting_text.contains("started ")
            && waiting_text.contains(&format!("scryptic join {address}/matches/{}", waiting.id)),
        "{waiting_text}"
    );
    // The finished match: its winner (or a draw), why, the scores, and its log to download.
    let over_text = text(&item(&over.id));
    let over_text = over_text.as_str().unwrap();
    let who = match &ended.winner {
        Some(seat) => format!("{seat} won"),
        None => "a draw".to_string(),
    };
    assert!(
        over_text.contains(&format!("over: {who} ({})", ended.why))
            && over_text.contains(&format!("gold {}", over.scores[0]))
            && over_text.contains(&format!("silver {}", over.scores[1])),
        "{over_text}"
    );
    let log = browser.run_async(&format!(
        "fetch(document.querySelector('{} a.log').href).then(async r => \
         done({{ status: r.status, text: (await r.text()).slice(0, 40) }}))",
        item(&over.id)
    ));
    assert_eq!(log["status"], 200, "{log}");
    assert!(
        log["text"].as_str().unwrap().trim_start().starts_with('('),
        "{log}"
    );
    assert!(
        browser
            .run(&format!(
                "return document.querySelector('{} a.log') === null",
                item(&waiting.id)
            ))
            .as_bool()
            .unwrap(),
        "no log before the end"
    );
    // The icon the page names, and the one a browser asks for unasked, are there.
    let icons = browser.run_async(
        "Promise.all(['/favicon.svg', '/favicon.ico'].map(u => fetch(u).then(r => r.status))) \
         .then(done)",
    );
    assert_eq!(icons, json!([200, 200]));
    // The packs the server plays, each with its modes and its settings' ranges.
    browser.wait_for(
        "the packs played listed",
        "const scryper = document.querySelector('#played-list li.played[data-id=\"scryper\"]'); \
         return scryper !== null && \
         scryper.querySelector('li.mode[data-id=\"scryper\"]') !== null && \
         scryper.textContent.includes('Bricks of each value: 1 to 4 (4)') && \
         document.querySelector('#played-list li.played[data-id=\"word-wars\"]') !== null",
    );
    // Host a match from the page: Scryper's seats go by its names; Word Wars with silver the
    // server's easy AI gives a link, and the match is listed, waiting for one player.
    browser.run(
        "const pack = document.getElementById('host-pack'); pack.value = 'scryper'; \
         pack.dispatchEvent(new Event('change')); return true",
    );
    browser.wait_for(
        "Scryper's seats by its names",
        "const seats = [...document.querySelectorAll('#host-seat-list [data-seat]')].map(s => s.dataset.seat); \
         return seats.join(',') === 'white,brown'",
    );
    browser.run(
        "const pack = document.getElementById('host-pack'); pack.value = 'word-wars'; \
         pack.dispatchEvent(new Event('change')); \
         document.querySelector('#host-seat-list [data-seat=\"silver\"]').value = 'easy'; \
         return true",
    );
    browser.click("#host-submit");
    browser.wait_for(
        "the hosted match's link",
        "return document.querySelector('#host-result a.hosted') !== null",
    );
    let hosted = browser.run(
        "return document.querySelector('#host-result a.hosted').getAttribute('href').split('/').pop()",
    );
    let hosted = hosted.as_str().unwrap().to_string();
    let made = lobby.matches().unwrap();
    let info = made.matches.iter().find(|m| m.id == hosted).unwrap();
    assert_eq!(info.mode, "word-wars:standard", "{info:?}");
    assert_eq!(info.settings.get("rounds").map(String::as_str), Some("3"));
    assert_eq!(
        info.state,
        scryptic::protocol::MatchState::Waiting,
        "{info:?}"
    );
    browser.wait_for(
        "the hosted match listed, waiting for one player",
        &format!(
            "const item = document.querySelector('{}'); \
             return item !== null && item.textContent.includes('waiting for 1 player')",
            item(&hosted)
        ),
    );
    // A link to a match the server does not have says so.
    browser.open(&format!("{address}/?match=0000000000000000"));
    browser.wait_for(
        "the missing match named",
        "const missing = document.getElementById('match-missing'); \
         return !missing.hidden && missing.textContent.includes('0000000000000000')",
    );
}

/// A Scryper match watched: its bricks are drawn on their cells, each value a spectator may not
/// see as `?` (the page once drew letters only, and a Scryper match showed an empty grid).
#[test]
fn a_scryper_match_is_watched_with_its_bricks() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Paced so that the match is still under way while it is watched.
    let server = playing_server(&dir.path().join("data"), Duration::from_millis(300));
    let address = format!("http://{}", server.addr);
    let made = ai_match(
        &address,
        "scryper",
        &[("white", "easy"), ("brown", "easy")],
        5,
    );
    browser.open(&format!("{address}/?match={}", made.id));
    browser.wait_for(
        "bricks on the board, their values hidden from a spectator",
        "const pieces = [...document.querySelectorAll('#board .cell.piece')]; \
         return pieces.length > 0 && pieces.every(p => p.textContent === '?' || /^[1-4]$/.test(p.textContent)) \
           && pieces.some(p => p.textContent === '?')",
    );
    // Seats by the mode's names.
    browser.wait_for(
        "whose move, by the mode's names",
        "const status = document.getElementById('watching-status').textContent; \
         return /(white|brown) to play/.test(status) || status.startsWith('over')",
    );
}

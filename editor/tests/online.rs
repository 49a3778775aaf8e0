//! Online play in the editor, headless, against a server on loopback: three editors play
//! Lexicon Crossing at once (one hosts from the Online screen, two take the open seats from
//! its list), each laying its own crossword through the play view while the others do; and a
//! Word Wars match against the server's AI, a word committed on the board and answered.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

mod common;

use common::{harness, root};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use scryptic::Player;
use scryptic::game::Action;
use scryptic::pack::SettingValue;
use scryptic_editor::EditorApp;
use scryptic_editor::app::Mode;
use scryptic_editor::play::EditorSession;
use scryptic_editor::play::Screen;
use scryptic_editor::play::online::SeatChoice;
use std::time::{Duration, Instant};

type H = Harness<'static, EditorApp>;

/// A server on a free port of loopback with the repository's packs, its matches in a folder
/// of the test's own.
fn server() -> (scryptic::server::Started, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut options =
        scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("data"));
    options.packs = vec![root().join("packs")];
    options.ai_pace = Duration::from_millis(20);
    options.ai_letter = Some(Duration::from_millis(20));
    (scryptic::server::start(options).unwrap(), dir)
}

/// An editor on its Online screen, its address the server's, knowing the repository's packs
/// (as one started in the repository's folder does).
fn editor_online(server: &scryptic::server::Started, name: &str) -> H {
    static PACKS: std::sync::Once = std::sync::Once::new();
    PACKS.call_once(|| {
        for pack in scryptic::pack::Pack::scan(&root().join("packs")).0 {
            scryptic_editor::add_opened_pack(pack).ok();
        }
    });
    let mut h = harness(EditorApp::default());
    h.state_mut().mode = Mode::Play;
    h.state_mut().play.screen = Screen::Online;
    h.state_mut().play.online.address = server.addr.to_string();
    h.state_mut().play.online.name = name.to_string();
    h.run();
    h
}

/// Runs frames of `h` until `done` holds (the network answers on threads of its own).
fn wait_for(h: &mut H, what: &str, done: impl Fn(&EditorApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        if start.elapsed() > Duration::from_secs(60) {
            let session = h.state().play.session.as_ref();
            panic!(
                "waited a minute for {what}; the Online screen says {:?}; the game's refusal {:?}, log {:?}",
                h.state().play.online.message,
                session.map(|s| &s.refusal),
                session.map(|s| &s.log)
            );
        }
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

/// Clicks the button labelled `label` (the network's spinner keeps the window repainting, so
/// a frame is stepped rather than run to rest).
fn press_button(h: &mut H, label: &str) {
    h.get_by_label(label).click();
    h.step();
    h.step();
}

fn playing(app: &EditorApp) -> bool {
    app.play.session.is_some() && app.play.screen == Screen::Play
}

/// Lists the server's matches and takes `seat` of the one there is.
fn take_seat(h: &mut H, seat: &str) {
    press_button(h, "Refresh");
    wait_for(h, "the matches", |app| !app.play.online.matches.is_empty());
    press_button(h, &format!("Take {seat}"));
    wait_for(h, "the seat's first view", playing);
}

/// The crossword the AI's search would lay for `player` on what `h`'s seat sees.
fn crossword_of(h: &H, player: Player) -> Vec<scryptic::game::Placement> {
    let session = h.state().play.session.as_ref().unwrap();
    let mut helper = scryptic::ai::AiPlayer::new(scryptic::ai::Level::Normal, 1);
    match helper.choose_at_once(session.game(), player) {
        Some(Action::Layout { letters, .. }) => letters,
        other => panic!("no crossword for {player}'s tiles: {other:?}"),
    }
}

/// Completes `player`'s crossword as the AI's search would from what `h`'s seat sees:
/// jaywalking a tile the plan leaves over, or laying a better layout, each answered by the
/// server before the next.
fn finish_crossword(h: &mut H, player: Player) {
    for _ in 0..20 {
        let session = h.state_mut().play.session.as_mut().unwrap();
        if session.game().crossword_lacks(player).is_none() {
            return;
        }
        let seen = |app: &EditorApp| {
            let game = app.play.session.as_ref().unwrap().game();
            (game.rack_letters(player), game.laid_letters(player))
        };
        let before = seen(h.state());
        let session = h.state_mut().play.session.as_mut().unwrap();
        let mut helper = scryptic::ai::AiPlayer::new(scryptic::ai::Level::Normal, 1);
        match helper.choose_at_once(session.game(), player) {
            Some(Action::Jaywalk { letter, .. }) => session.jaywalk(letter),
            Some(action @ Action::Layout { .. }) => session.act(action),
            other => panic!("{player} cannot complete the crossword: {other:?}"),
        }
        wait_for(h, "the server's answer", move |app| seen(app) != before);
    }
    panic!("{player}'s crossword is not complete after twenty tries");
}

#[test]
fn three_editors_play_lexicon_crossing_at_once() {
    let (server, _data) = server();
    let mut gold = editor_online(&server, "ada");
    {
        let online = &mut gold.state_mut().play.online;
        online.host.choose_pack("lexicon-crossing", "s98");
        for (id, value) in &mut online.host.settings {
            match id.as_str() {
                "players" => *value = SettingValue::Int(3),
                "grace" => *value = SettingValue::Int(15),
                _ => {}
            }
        }
    }
    gold.run();
    let seats: Vec<(String, SeatChoice)> = gold.state().play.online.seats.clone();
    assert_eq!(seats.len(), 3, "three seats for three players: {seats:?}");
    assert_eq!(seats[0].1, SeatChoice::Me, "the host plays the first seat");
    assert!(seats[1..].iter().all(|(_, c)| *c == SeatChoice::Open));
    press_button(&mut gold, "Host");
    wait_for(&mut gold, "the host's seat", playing);
    let third = seats[2].0.clone();
    let mut silver = editor_online(&server, "bea");
    take_seat(&mut silver, &seats[1].0);
    let mut seat3 = editor_online(&server, "cy");
    take_seat(&mut seat3, &third);
    let mut editors = [
        (gold, Player::Gold),
        (silver, Player::Silver),
        (seat3, Player::seat(2).unwrap()),
    ];
    for (h, me) in &mut editors {
        wait_for(h, "every seat taken", |app| {
            let s = app.play.session.as_ref().unwrap();
            s.remote().unwrap().info.state == scryptic::protocol::MatchState::Playing
        });
        let session = h.state().play.session.as_ref().unwrap();
        assert_eq!(session.viewer(), *me, "each editor plays its own seat");
        assert!(session.remote().is_some_and(|r| r.seat == Some(*me)));
        h.get_by_label_contains("Round 1: everyone plays at once");
    }
    // Everyone lays their crossword at once, a tile each in turn, as three people would,
    // faster than the server answers: each tile is laid beside those sent, not yet shown.
    let crosswords: Vec<_> = editors.iter().map(|(h, me)| crossword_of(h, *me)).collect();
    let most = crosswords.iter().map(Vec::len).max().unwrap();
    for i in 0..most {
        for ((h, _), crossword) in editors.iter_mut().zip(&crosswords) {
            if let Some(tile) = crossword.get(i) {
                let session = h.state_mut().play.session.as_mut().unwrap();
                session.place(tile.letter, tile.at).unwrap();
                h.step();
            }
        }
    }
    for ((h, me), crossword) in editors.iter_mut().zip(&crosswords) {
        let (me, laid) = (*me, crossword.len());
        wait_for(h, "every tile shown by the server", move |app| {
            let game = app.play.session.as_ref().unwrap().game();
            game.laid_letters(me).len() == laid
        });
    }
    for (h, me) in &mut editors {
        // A first plan may leave a tile or two that fit nowhere: the seat trades them in
        // (jaywalks) and lays out again until the crossword is complete.
        let me = *me;
        finish_crossword(h, me);
        let game = h.state().play.session.as_ref().unwrap().game();
        // Each sees its own rack and crossword, and nothing of the others' tiles.
        for other in game.seats().filter(|p| *p != me) {
            assert!(
                game.rack_letters(other).chars().all(|c| c == '?'),
                "{me} sees {other}'s rack: {}",
                game.rack_letters(other)
            );
            assert!(
                game.board()
                    .letters
                    .positions()
                    .filter_map(|p| game.board().letters[p])
                    .filter(|t| t.player == other)
                    .all(|t| t.letter == '?'),
                "{me} sees {other}'s crossword"
            );
        }
        h.get_by_label_contains("Your crossword is complete");
    }
    // Gold calls green light on its screen: every seat draws, and each hears of it.
    let racks: Vec<usize> = editors
        .iter()
        .map(|(h, me)| {
            h.state()
                .play
                .session
                .as_ref()
                .unwrap()
                .game()
                .rack_letters(*me)
                .len()
        })
        .collect();
    press_button(&mut editors[0].0, "Green light");
    for ((h, me), before) in editors.iter_mut().zip(racks) {
        let me = *me;
        wait_for(h, "the draw after green light", move |app| {
            let game = app.play.session.as_ref().unwrap().game();
            game.rack_letters(me).len() > before
        });
        h.get_by_label_contains("Round 2: everyone plays at once");
        let log = &h.state().play.session.as_ref().unwrap().log;
        assert!(
            log.iter().any(|l| l.contains("green light")),
            "{me}'s log tells of the green light: {log:?}"
        );
    }
    // A refused layout is told on the seat's own screen and changes nothing.
    let (h, me) = &mut editors[1];
    let session = h.state_mut().play.session.as_mut().unwrap();
    let rack = session.game().rack_letters(*me);
    let absent = ('A'..='Z').find(|c| !rack.contains(*c)).unwrap();
    let far = session.game().own_region_bounds(*me).unwrap().0;
    session.place(absent, far).ok();
    wait_for(h, "the refusal", |app| {
        app.play.session.as_ref().unwrap().refusal.is_some()
    });
}

#[test]
fn a_word_wars_word_is_committed_on_the_board_and_the_server_ai_answers() {
    let (server, _data) = server();
    let mut h = editor_online(&server, "ada");
    {
        let online = &mut h.state_mut().play.online;
        online.host.choose_pack("word-wars", "");
    }
    h.run();
    h.state_mut().play.online.seats[1].1 = SeatChoice::Ai("easy".into());
    // A deal by a seed, so that gold's rack makes a word (a deal drawn by the server may not).
    h.state_mut().play.online.seed = Some(11);
    // The Host form offers a move's time, as every mode has on a server: a day a move.
    h.get_by_label("Move time");
    let settings = &mut h.state_mut().play.online.host.settings;
    let move_time = settings
        .iter_mut()
        .find(|(id, _)| id == "move_time")
        .unwrap();
    move_time.1 = scryptic::pack::SettingValue::Choice("1d".into());
    press_button(&mut h, "Host");
    wait_for(&mut h, "the host's seat", playing);
    let session = h.state().play.session.as_ref().unwrap();
    assert!(session.seat_label(Player::Silver).contains("AI"));
    assert!(session.seat_label(Player::Gold).contains("ada, you"));
    let left = session
        .move_left()
        .expect("the server's clock for the move");
    assert!(left > std::time::Duration::from_secs(86_000), "{left:?}");
    h.get_by_label_contains("left for this move");
    // Gold's best word, as the move generator finds it on gold's rack, laid on the board and
    // committed. (The AI was asked for it first, and now and then chose to trade instead.)
    let game = session.game();
    let rack = game.rack_letters(Player::Gold);
    let letters = scryptic::ai::MoveGen::new()
        .all(game, Player::Gold, &rack)
        .into_iter()
        .map(|m| (m.face(), m.placements()))
        .filter(|(_, letters)| game.check_commit(letters).is_ok())
        .max_by_key(|(face, _)| *face)
        .map(|(_, letters)| letters)
        .expect("a word for gold's rack");
    let session = h.state_mut().play.session.as_mut().unwrap();
    for p in &letters {
        session.place(p.letter, p.at).unwrap();
    }
    session.request_commit();
    assert!(session.refusal.is_none(), "{:?}", session.refusal);
    wait_for(&mut h, "the word committed", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.placed.is_empty() && s.game().score(Player::Gold).total > 0
    });
    // The turn passes; the server's AI plays and gold's turn comes back.
    let session = h.state_mut().play.session.as_mut().unwrap();
    session.end_turn();
    wait_for(&mut h, "the AI's answer", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.game().active() == Player::Gold && s.game().turn() > 1
    });
    let session = h.state().play.session.as_ref().unwrap();
    assert!(
        session.log.iter().any(|l| l.contains("silver")),
        "the AI's turn is in the log: {:?}",
        session.log
    );
    assert!(!session.can_undo(), "a server's match is not undone here");
    // Leaving gives the seat up: back on the Online screen, the seat is open again.
    press_button(&mut h, "Leave the match");
    assert!(h.state().play.session.is_none());
    assert_eq!(h.state().play.screen, Screen::Online);
    wait_for(&mut h, "the matches again", |app| {
        !app.play.online.busy() && !app.play.online.matches.is_empty()
    });
    let info = &h.state().play.online.matches[0];
    assert_eq!(
        info.seats[0].occupant,
        scryptic::protocol::Occupant::Open,
        "gold's seat is open again"
    );
    h.get_by_label("Take gold");
}

#[test]
fn a_pack_only_the_server_has_travels_to_the_editor_for_its_tileset() {
    // A pack of the server's own (Scryper under another id): the editor has never seen it.
    let dir = tempfile::tempdir().unwrap();
    let scryper = scryptic::pack::Pack::open(&root().join("packs/scryper")).unwrap();
    let exported = scryptic::pack::archive::export(&scryper, &dir.path().join("packs")).unwrap();
    let travelling = dir.path().join("packs/scryper-travel");
    std::fs::rename(exported, &travelling).unwrap();
    let manifest = travelling.join("pack.ron");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("id: \"scryper\"", "id: \"scryper-travel\"", 1),
    )
    .unwrap();
    let mut options =
        scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), dir.path().join("data"));
    options.packs = vec![dir.path().join("packs")];
    let server = scryptic::server::start(options).unwrap();
    let base = format!("http://{}", server.addr);
    let request = scryptic::protocol::CreateMatch {
        pack: "scryper-travel".into(),
        mode: String::new(),
        map: String::new(),
        settings: Default::default(),
        seats: Default::default(),
        seed: Some(3),
        log_after_end: true,
    };
    let info = scryptic::client::Lobby::new(&base).create(request).unwrap();
    assert!(scryptic_editor::catalog().get("scryper-travel").is_none());
    let mut h = editor_online(&server, "ada");
    press_button(&mut h, "Refresh");
    wait_for(&mut h, "the matches", |app| {
        !app.play.online.matches.is_empty()
    });
    press_button(&mut h, "Watch");
    wait_for(&mut h, "the spectator's view", playing);
    let session = h.state().play.session.as_ref().unwrap();
    let remote = session.remote().unwrap();
    assert!(remote.watching());
    assert!(
        remote
            .pack_notes
            .iter()
            .any(|n| n.contains("fetched pack scryper-travel")),
        "{:?}",
        remote.pack_notes
    );
    let tileset = remote.tileset.as_ref().expect("the board's tileset");
    let wanted = info
        .packs
        .iter()
        .find(|p| p.id == "scryper-travel")
        .unwrap();
    // Kept in the data folder's cache, by hash, apart from the installed packs.
    let data = scryptic::pack::places::data_dir().unwrap();
    let kept = scryptic::client::pack_cache(&data)
        .join(&wanted.sha256)
        .join("scryper-travel");
    assert!(kept.join(&tileset.path).is_file(), "{}", tileset.path);
    assert!(
        h.state().play.view.board.textures().is_some(),
        "the board is drawn with the fetched tileset"
    );
    h.get_by_label_contains("You are watching");
}

#[test]
fn a_seat_comes_back_by_itself_when_the_server_restarts() {
    let (server, data) = server();
    let addr = server.addr;
    let mut h = editor_online(&server, "ada");
    h.state_mut().play.online.host.choose_pack("word-wars", "");
    h.run();
    h.state_mut().play.online.seats[1].1 = SeatChoice::Ai("easy".into());
    press_button(&mut h, "Host");
    wait_for(&mut h, "the host's seat", playing);
    // The server goes away and comes back on the same address with the same data folder.
    drop(server);
    wait_for(&mut h, "the loss noticed", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.log.iter().any(|l| l.contains("connecting again"))
    });
    let mut options = scryptic::server::Options::new(addr, data.path().join("data"));
    options.packs = vec![root().join("packs")];
    let back = scryptic::server::start(options).unwrap();
    assert_eq!(back.restored, 1, "the match resumes from the log");
    wait_for(&mut h, "the seat back", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.log.iter().any(|l| l == "connected again")
    });
    // And plays on: a letter traded back (the turn ends), the AI answers.
    let session = h.state_mut().play.session.as_mut().unwrap();
    let letter = session
        .game()
        .rack_letters(Player::Gold)
        .chars()
        .next()
        .unwrap();
    session.act(Action::Exchange {
        letters: letter.to_string(),
    });
    // The AI's answer: a word, a trade, or (its rack dealt without a vowel, as a match's
    // chance deal may be) sudden death offered, which gold must answer: gold acts again.
    wait_for(&mut h, "the AI's answer after the restart", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.game().to_act() == Player::Gold && s.game().turn() > 1
    });
    // On the Online screen the match is listed first, waiting on this editor's seat.
    h.state_mut().play.screen = Screen::Online;
    h.run();
    press_button(&mut h, "Refresh");
    wait_for(&mut h, "the matches listed", |app| {
        !app.play.online.busy() && !app.play.online.matches.is_empty()
    });
    h.get_by_label("Your turn:");
}

/// Two servers share a PostgreSQL database (`.ci/run` starts one; without it the test says so
/// and passes, unless `SCRYPTIC_REQUIRE_POSTGRES` is set): the editor lists the match of the
/// second through the first, plays it at the second, and when the second goes and the first
/// takes its shard over, the seat comes back by itself at the first.
#[test]
fn a_seat_follows_its_match_to_the_server_that_took_it_over() {
    let Ok(url) = std::env::var("SCRYPTIC_TEST_POSTGRES") else {
        assert!(
            std::env::var("SCRYPTIC_REQUIRE_POSTGRES").is_err(),
            "SCRYPTIC_REQUIRE_POSTGRES is set but SCRYPTIC_TEST_POSTGRES names no database"
        );
        eprintln!("no PostgreSQL named by SCRYPTIC_TEST_POSTGRES: not tested here");
        return;
    };
    let name = format!("scryptic_editor_{:08x}", rand_id());
    let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let own = format!("{url} dbname={name}");
    let dir = tempfile::tempdir().unwrap();
    let process = |k: u32| {
        let data = dir.path().join(format!("server-{k}"));
        let mut options = scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), data);
        options.packs = vec![root().join("packs")];
        options.shard = (k, 2);
        options.lease_check = Duration::from_millis(50);
        let store = scryptic::server::PostgresStore::connect(&own).unwrap();
        scryptic::server::start_with(options, Box::new(store)).unwrap()
    };
    let (first, second) = (process(0), process(1));
    let lobby = scryptic::client::Lobby::new(&format!("http://{}", second.addr));
    let create = scryptic::protocol::CreateMatch {
        pack: "core".into(),
        mode: String::new(),
        map: String::new(),
        settings: Default::default(),
        seats: [(
            "silver".to_string(),
            scryptic::protocol::SeatRequest::Ai {
                level: "easy".into(),
            },
        )]
        .into(),
        seed: Some(5),
        log_after_end: true,
    };
    lobby.create(create).unwrap();
    let mut h = editor_online(&first, "ada");
    take_seat(&mut h, "gold");
    drop(second);
    wait_for(&mut h, "the seat back at the first server", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.log.iter().any(|l| l == "connected again")
    });
    let session = h.state_mut().play.session.as_mut().unwrap();
    session.end_turn();
    wait_for(&mut h, "gold's pass played at the first server", |app| {
        let s = app.play.session.as_ref().unwrap();
        s.game().turn() > 1
    });
    drop((h, first));
    admin
        .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
}

/// A number for a name of the test's own.
fn rand_id() -> u32 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(0, |d| d.subsec_nanos() ^ std::process::id())
}

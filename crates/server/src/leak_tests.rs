//! The leak test: whole matches of every shipped mode (and the scripted community pack
//! Wending), every seat a person connected to the match, each seat's moves chosen by an AI
//! that plays on the truth (the test's, not the server's). Every frame queued for each
//! connection (what its socket sends, verbatim) is read as JSON and checked: no other seat's
//! rack, pile, draws, crossword letters (in simultaneous play), hidden values or secret
//! moves, and none of the other seats' racks as the truth holds them.

use crate::MemoryStore;
use crate::referee::Match;
use scryptic_ai::AiPlayer;
use scryptic_core::board::Player;
use scryptic_core::game::{Action, Game};
use scryptic_core::lexicon::Lexicon;
use scryptic_pack::{Catalog, Pack};
use scryptic_protocol::{CreateMatch, TakeSeat};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::mpsc;

pub(crate) fn catalog() -> Catalog {
    let (mut catalog, _) = Catalog::discover();
    let packs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../packs");
    let (found, _) = Pack::scan(&packs);
    for pack in found {
        let _ = catalog.add(pack);
    }
    catalog
}

/// A seat's connection (none: a spectator's): the frames queued for it.
struct Seat {
    player: Option<Player>,
    frames: mpsc::Receiver<String>,
    got: usize,
}

/// Whose move it is, and the AI's choice for that seat, on the truth.
pub(crate) fn next_action(
    game: &Game,
    ais: &mut [AiPlayer],
    turn: &mut usize,
) -> Option<(Player, Action)> {
    if game.result().is_some() {
        return None;
    }
    let seats: Vec<Player> = game.seats().collect();
    if game.rules().flow.simultaneous {
        for _ in 0..seats.len() {
            let at = *turn % seats.len();
            *turn += 1;
            if let Some(action) = ais[at].choose_at_once(game, seats[at]) {
                return Some((seats[at], action));
            }
        }
        return None;
    }
    if game.rules().flow.scripted {
        let choosing = game.choosing();
        let seat = choosing.first().copied().unwrap_or(game.to_act());
        return Some((seat, ais[seat.index()].choose_scripted_as(game, seat)));
    }
    let seat = game.to_act();
    Some((seat, ais[seat.index()].choose(game)))
}

fn name(player: Player) -> Value {
    serde_json::to_value(player).unwrap()
}

/// What `viewer` (none: a spectator) must not find in `frame`, checked field by field.
fn check_frame(frame: &str, viewer: Option<Player>, truth: &Game, label: &str) {
    let value: Value = serde_json::from_str(frame).unwrap();
    let me = viewer.map_or(Value::Null, name);
    let mine = |i: usize| viewer.is_some_and(|p| p.index() == i);
    let who = viewer.map_or("a spectator".to_string(), |p| p.to_string());
    let hidden = |v: &Value| v.as_str().is_none_or(|s| s.chars().all(|c| c == '?'));
    let fail = |what: &str| panic!("{label}: a frame for {who} shows {what}:\n{frame}");
    if value["type"] == "view" {
        let snapshot = &value["snapshot"];
        let over = !snapshot["result"].is_null();
        for (i, player) in snapshot["players"].as_array().unwrap().iter().enumerate() {
            if mine(i) || over {
                continue;
            }
            for item in player["rack"].as_array().unwrap() {
                if let Some(letter) = item.get("Letter")
                    && !hidden(letter)
                {
                    fail(&format!("seat {i}'s rack"));
                }
            }
            if !player["pool"].as_array().unwrap().iter().all(hidden) {
                fail(&format!("seat {i}'s pile"));
            }
        }
        if !over
            && !snapshot["shared_pool"]
                .as_array()
                .unwrap()
                .iter()
                .all(hidden)
        {
            fail("the shared pile");
        }
        if truth.rules().flow.simultaneous && !over {
            let letters = &snapshot["board"]["letters"];
            for tile in letters["cells"].as_array().into_iter().flatten() {
                if !tile.is_null() && tile["player"] != me && !hidden(&tile["letter"]) {
                    fail("another crossword's letter");
                }
            }
        }
        check_table(&snapshot["table"], viewer, truth, &fail);
        if let Some(moves) = snapshot["secret"]["moves"].as_array() {
            for (i, made) in moves.iter().enumerate() {
                if !mine(i) && !made.as_array().unwrap().is_empty() {
                    fail(&format!("seat {i}'s secret moves"));
                }
            }
        }
        for event in value["events"].as_array().into_iter().flatten() {
            check_event(event, &me, &fail);
        }
    }
    // And the truth's racks of the others, as they are, appear nowhere.
    let truth_json = serde_json::to_value(truth.snapshot()).unwrap();
    for (i, player) in truth_json["players"].as_array().unwrap().iter().enumerate() {
        let rack = &player["rack"];
        let own = viewer.map(|p| &truth_json["players"][p.index()]["rack"]);
        if !mine(i) && rack.as_array().unwrap().len() >= 3 && Some(rack) != own {
            let text = serde_json::to_string(rack).unwrap();
            if frame.contains(&text) && truth.result().is_none() {
                fail(&format!("seat {i}'s rack as it is"));
            }
        }
    }
}

fn check_table(table: &Value, viewer: Option<Player>, truth: &Game, fail: &dyn Fn(&str)) {
    let Some(pieces) = table["pieces"].as_array() else {
        return;
    };
    let truth_table = serde_json::to_value(truth.snapshot()).unwrap()["table"].clone();
    let truth_pieces = truth_table["pieces"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let bit = viewer.map_or(0, |p| 1u64 << p.index());
    let seats = truth_table["seats"].as_u64().unwrap_or(0);
    for (k, piece) in pieces.iter().enumerate() {
        if viewer.is_some_and(|p| piece["owner"] == name(p)) || piece["value"].is_null() {
            continue;
        }
        // A value the viewer is shown must be one the truth shows them.
        let shown = truth_pieces
            .get(k)
            .and_then(|p| p["shown"].as_u64())
            .unwrap_or(0);
        // A value shown to every seat but its owner's is public: a spectator sees it (SC-11).
        let owner = truth_pieces
            .get(k)
            .and_then(|p| serde_json::from_value::<Player>(p["owner"].clone()).ok())
            .map_or(0, |p| 1u64 << p.index());
        let every_seat = (1u64 << seats) - 1;
        let public = (shown | owner) & every_seat == every_seat;
        let seen = if viewer.is_some() {
            shown & bit != 0
        } else {
            public
        };
        let truth_value = truth_pieces.get(k).map(|p| &p["value"]);
        if !seen && truth_value == Some(&piece["value"]) && truth.result().is_none() {
            fail(&format!("the value of piece {k}, hidden from them"));
        }
    }
}

fn check_event(event: &Value, me: &Value, fail: &dyn Fn(&str)) {
    let Some((kind, fields)) = event.as_object().and_then(|o| o.iter().next()) else {
        return;
    };
    let theirs = fields.get("player").is_some_and(|p| p != me);
    if !theirs {
        return;
    }
    for field in ["letters", "drew"] {
        if let Some(text) = fields.get(field).and_then(Value::as_str)
            && (kind == "Drew" || kind == "TurnStarted" || kind == "Exchanged")
            && !text.chars().all(|c| c == '?')
        {
            fail(&format!("another seat's draw ({kind})"));
        }
    }
    if kind == "Moved"
        && fields["secret"] == true
        && fields["mv"].as_str().is_some_and(|m| !m.is_empty())
    {
        fail("another seat's secret move");
    }
}

/// Plays a whole match of `request` with a person connected at every seat; returns the
/// number of frames checked.
fn play_and_check(request: CreateMatch, label: &str) -> usize {
    let store = MemoryStore::default();
    let lexicon = Arc::new(Lexicon::english());
    let (mut game, stored) = Match::create("m".into(), request, &catalog(), lexicon, 0)
        .unwrap_or_else(|e| panic!("{label}: {}", e.message));
    keep(&store, &game, &stored);
    let players: Vec<Player> = game.game().seats().collect();
    let mut seats = Vec::new();
    for &player in &players {
        let taken = game
            .take_seat(
                &TakeSeat {
                    seat: Some(game.game().seat_names().name(player).to_string()),
                    name: format!("person {}", player.index()),
                },
                &store,
            )
            .unwrap();
        let (tx, frames) = mpsc::channel(100_000);
        let seat = game.seat_of(&taken.token).unwrap();
        game.connect(Some(seat), None, tx);
        seats.push(Seat {
            player: Some(player),
            frames,
            got: 0,
        });
    }
    let (tx, frames) = mpsc::channel(100_000);
    game.connect(None, None, tx);
    seats.push(Seat {
        player: None,
        frames,
        got: 0,
    });
    let seed = game.game().seed();
    let mut ais: Vec<AiPlayer> = players
        .iter()
        .map(|p| AiPlayer::new(scryptic_ai::Level::Easy, seed + p.index() as u64))
        .collect();
    let mut turn = 0;
    let mut checked = 0;
    for step in 0..3_000 {
        for seat in &mut seats {
            while let Ok(frame) = seat.frames.try_recv() {
                check_frame(&frame, seat.player, game.game(), label);
                seat.got += 1;
                checked += 1;
            }
        }
        if !play_a_step(&mut game, &store, (&mut ais, &mut turn), (label, step)) {
            break;
        }
    }
    assert!(
        game.game().result().is_some(),
        "{label}: the match ends within the test's steps"
    );
    for seat in &seats {
        assert!(seat.got > 2, "{label}: {:?} got frames", seat.player);
    }
    checked
}

/// Plays the match's next step with a person's AI at every seat: the next round once everyone
/// is ready, the grace period's end at once (the test does not wait a minute), or a seat's
/// action. False once the match is over.
pub(crate) fn play_a_step(
    game: &mut Match,
    store: &MemoryStore,
    (ais, turn): (&mut [AiPlayer], &mut usize),
    (label, step): (&str, usize),
) -> bool {
    let over = game.game().result().is_some();
    if over && !game.game().match_goes_on() {
        return false;
    }
    if over {
        let players: Vec<Player> = game.game().seats().collect();
        for p in players {
            game.ready_for_next(p).unwrap();
        }
        assert!(game.step(store), "{label}: the next round begins");
    } else if game.grace_deadline_ms().is_some() {
        game.act(None, Action::GraceOver, store).unwrap();
    } else {
        let Some((seat, action)) = next_action(game.game(), ais, turn) else {
            panic!("{label}: nobody can act at step {step}");
        };
        if let Err(e) = game.act(Some(seat), action, store) {
            panic!("{label}: {seat}'s AI action refused at step {step}: {e}");
        }
    }
    true
}

pub(crate) fn keep(store: &MemoryStore, game: &Match, stored: &crate::store::StoredMatch) {
    use crate::store::Store;
    store.create(stored, &game.listing()).unwrap();
}

pub(crate) fn request(pack: &str, settings: &[(&str, &str)]) -> CreateMatch {
    CreateMatch {
        pack: pack.to_string(),
        mode: String::new(),
        map: String::new(),
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
        seats: BTreeMap::new(),
        seed: Some(7),
        log_after_end: true,
    }
}

#[test]
fn no_frame_of_any_mode_shows_a_seat_what_is_anothers() {
    let modes = [
        ("core", request("core", &[])),
        ("word-wars", request("word-wars", &[("rounds", "2")])),
        (
            "lexicon-crossing",
            request("lexicon-crossing", &[("players", "3")]),
        ),
        ("scryper", request("scryper", &[])),
        ("wending", request("wending", &[])),
    ];
    for (label, create) in modes {
        let checked = play_and_check(create, label);
        assert!(checked > 10, "{label}: {checked} frames checked");
    }
}

/// The check sees what it looks for: a frame of the truth fails it.
#[test]
#[should_panic(expected = "rack")]
fn the_leak_check_catches_a_frame_of_the_truth() {
    let (game, _) = Match::create(
        "m".into(),
        request("word-wars", &[]),
        &catalog(),
        Arc::new(Lexicon::english()),
        0,
    )
    .unwrap();
    let truth = game.game();
    let view = scryptic_protocol::View {
        actions: 0,
        snapshot: truth.snapshot(),
        events: Vec::new(),
        events_dropped: 0,
        moves: Vec::new(),
        console: Vec::new(),
        grace_left_ms: None,
        move_left_ms: None,
    };
    let frame = scryptic_protocol::write(scryptic_protocol::ServerFrame::View(Box::new(view)));
    check_frame(&frame, Some(Player::Gold), truth, "truth");
}

/// A connection that stops reading is dropped once its queue is full; the match and the
/// other connections go on, and the dropped seat may connect again.
#[test]
fn a_reader_that_stops_reading_is_dropped_and_nothing_else_changes() {
    let store = MemoryStore::default();
    let (mut game, stored) = Match::create(
        "m".into(),
        request("lexicon-crossing", &[]),
        &catalog(),
        Arc::new(Lexicon::english()),
        0,
    )
    .unwrap();
    keep(&store, &game, &stored);
    let mut tokens = Vec::new();
    for seat in ["gold", "silver"] {
        let take = TakeSeat {
            seat: Some(seat.into()),
            name: seat.into(),
        };
        tokens.push(game.take_seat(&take, &store).unwrap().token);
    }
    let (slow, _never_read) = mpsc::channel(crate::referee::QUEUE_FRAMES);
    let (reader, mut read) = mpsc::channel(100_000);
    game.connect(Some(Player::Silver), None, slow);
    game.connect(Some(Player::Gold), None, reader);
    let empty = Action::Layout {
        player: Player::Gold,
        letters: Vec::new(),
    };
    for _ in 0..crate::referee::QUEUE_FRAMES + 5 {
        game.act(Some(Player::Gold), empty.clone(), &store).unwrap();
    }
    let seats = game.info().seats;
    assert!(
        matches!(
            seats[1].occupant,
            scryptic_protocol::Occupant::Person {
                connected: false,
                ..
            }
        ),
        "silver's connection was dropped: {seats:?}"
    );
    let mut got = 0;
    while read.try_recv().is_ok() {
        got += 1;
    }
    assert!(
        got > crate::referee::QUEUE_FRAMES,
        "gold's connection was kept: {got}"
    );
    let (again, mut frames) = mpsc::channel(crate::referee::QUEUE_FRAMES);
    let silver = game.seat_of(&tokens[1]).unwrap();
    game.connect(Some(silver), Some(0), again);
    assert!(
        frames.try_recv().is_ok(),
        "silver connects again and is sent the match"
    );
    assert_eq!(game.info().actions, crate::referee::QUEUE_FRAMES as u64 + 5);
}

/// In simultaneous play an AI takes a person's time: its layout is played a pace a letter
/// after it was chosen, not at once.
/// A Lexicon Crossing match of two, gold taken by a person, silver the server's easy AI, on a
/// clock that moves only when told (the figures do not depend on how long a choice took on a
/// busy machine, and no test sleeps).
fn crossing_with_an_ai(store: &MemoryStore) -> Match {
    let mut create = request("lexicon-crossing", &[]);
    create.seats.insert(
        "silver".into(),
        scryptic_protocol::SeatRequest::Ai {
            level: "easy".into(),
        },
    );
    let (mut game, stored) = Match::create(
        "m".into(),
        create,
        &catalog(),
        Arc::new(Lexicon::english()),
        0,
    )
    .unwrap();
    keep(store, &game, &stored);
    let take = TakeSeat {
        seat: Some("gold".into()),
        name: "Ann".into(),
    };
    game.take_seat(&take, store).unwrap();
    game.clock = crate::Clock::manual(1_000_000);
    game
}

#[test]
fn an_ai_at_once_with_a_person_keeps_a_persons_pace() {
    let store = MemoryStore::default();
    let mut game = crossing_with_an_ai(&store);
    let pace = scryptic_ai::Pace::of(scryptic_ai::Level::Easy, game.game().rules());
    let start = game.clock.now_ms();
    assert!(!game.step(&store), "the AI looks its tiles over first");
    assert_eq!(game.ai_plan_due_ms(), Some(start + pace.look_ms()));
    let mut laid_in_all = 0;
    let mut last = start;
    loop {
        // The driver steps again after a step that played: the AI, busy, says until when.
        if last > start {
            assert!(!game.step(&store), "busy with the letters it laid");
        }
        let due = game
            .ai_plan_due_ms()
            .expect("the AI says when it acts next");
        let before = game.info().actions;
        game.clock.advance(due - game.clock.now_ms() - 1);
        assert!(!game.step(&store), "not a millisecond early");
        assert_eq!(game.info().actions, before);
        game.clock.advance(1);
        assert!(game.step(&store), "played when due");
        let now = game.clock.now_ms();
        match game.game().log().last() {
            Some(Action::Layout { letters, .. }) => {
                let added = letters.len() - laid_in_all.min(letters.len());
                assert!(
                    (1..=scryptic_ai::pace::LETTERS_AT_A_TIME).contains(&added),
                    "a few letters at a time: {added}"
                );
                laid_in_all = letters.len();
                if last > start {
                    assert!(now - last >= pace.letter_ms, "each letter takes its pace");
                }
            }
            Some(Action::GreenLight { .. }) => {
                let least = pace.look_ms() + pace.letter_ms * laid_in_all as u64;
                assert!(
                    now - start >= least,
                    "green light after {} ms, before {least} ms: a person lays {laid_in_all} \
                     letters slower",
                    now - start
                );
                break;
            }
            other => panic!("an AI alone with its first tiles lays them out: {other:?}"),
        }
        last = now;
    }
    assert!(
        laid_in_all >= 20,
        "the whole crossword is laid: {laid_in_all}"
    );
    // After its own green light it has a new tile to look over.
    assert!(!game.step(&store));
    assert_eq!(
        game.ai_plan_due_ms(),
        Some(game.clock.now_ms() + pace.look_ms())
    );
}

/// The AI thinks off its match: a person acting meanwhile is not kept waiting, and what the AI
/// chose on the game before is not played on the game after (it thinks again).
#[test]
fn a_person_acts_while_the_ai_thinks_off_the_match() {
    let store = MemoryStore::default();
    let mut game = crossing_with_an_ai(&store);
    game.ai_letter_ms = Some(1);
    assert!(!game.step(&store), "the AI looks its tiles over first");
    game.clock.advance(10);
    let crate::referee::Stepped::Think(mut thinking) = game.step_or_think(&store) else {
        panic!("the AI, its look over, thinks");
    };
    let (low, _) = game.game().own_region_bounds(Player::Gold).unwrap();
    let letter = game
        .game()
        .rack_letters(Player::Gold)
        .chars()
        .next()
        .unwrap();
    let one = Action::Layout {
        player: Player::Gold,
        letters: vec![scryptic_core::game::Placement { at: low, letter }],
    };
    game.act(Some(Player::Gold), one, &store).unwrap();
    let chose = thinking.think();
    assert!(
        matches!(chose, Some((Player::Silver, Action::Layout { .. }))),
        "{chose:?}"
    );
    assert!(
        game.thought(*thinking, chose, &store),
        "the match moved on: think again"
    );
    assert_eq!(game.info().actions, 1, "only gold's action");
    assert!(game.step(&store), "the AI thinks again and lays");
    assert!(!game.game().laid_letters(Player::Silver).is_empty());
    assert_eq!(game.info().actions, 2);
}

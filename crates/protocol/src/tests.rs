use super::*;

fn check_refused<T: serde::de::DeserializeOwned + std::fmt::Debug>(text: &str, expected: &str) {
    let got = read::<T>(text, MAX_CLIENT_FRAME);
    let message = got.expect_err("the message should be refused").to_string();
    assert!(
        message.contains(expected),
        "{text}: `{message}` should say `{expected}`"
    );
}

#[test]
fn a_client_frame_travels_as_tagged_json_with_its_version() {
    let frame = ClientFrame::Hello {
        token: Some("ab".repeat(16)),
        seen: Some(3),
    };
    let text = write(frame.clone());
    assert!(text.contains(r#""protocol":1"#), "{text}");
    assert!(text.contains(r#""type":"hello""#), "{text}");
    assert_eq!(read::<ClientFrame>(&text, MAX_CLIENT_FRAME), Ok(frame));
    let act = ClientFrame::Act {
        after: None,
        action: Action::EndTurn,
    };
    assert_eq!(
        read::<ClientFrame>(&write(act.clone()), MAX_CLIENT_FRAME),
        Ok(act)
    );
}

#[test]
fn bad_messages_are_refused_with_what_is_wrong() {
    check_refused::<ClientFrame>("{", "not a message of this protocol");
    check_refused::<ClientFrame>(r#"{"type":"hello"}"#, "no `protocol` field");
    check_refused::<ClientFrame>(r#"{"protocol":2,"type":"hello"}"#, "protocol version 2");
    check_refused::<ClientFrame>(
        r#"{"protocol":1,"type":"shout"}"#,
        "unknown variant `shout`",
    );
    check_refused::<ClientFrame>(r#"{"protocol":1,"type":"act"}"#, "missing field `action`");
    let long = format!(
        r#"{{"protocol":1,"type":"hello","token":"{}"}}"#,
        "a".repeat(70_000)
    );
    check_refused::<ClientFrame>(&long, "longer than the 65536 bytes");
}

#[test]
fn a_lobby_request_fills_its_defaults() {
    let create: CreateMatch = read(r#"{"protocol":1,"pack":"core"}"#, MAX_CLIENT_FRAME).unwrap();
    assert_eq!(create.mode, "");
    assert!(create.seats.is_empty() && create.settings.is_empty());
    assert!(create.log_after_end);
    let seat: SeatRequest = serde_json::from_str(r#"{"kind":"ai","level":"hard"}"#).unwrap();
    assert_eq!(
        seat,
        SeatRequest::Ai {
            level: "hard".into()
        }
    );
}

/// docs/protocol.schema.json with its top narrowed to the message `def`.
fn schema_of(def: &str) -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.schema.json"
    );
    let mut schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    schema["anyOf"] = serde_json::json!([{ "$ref": format!("#/$defs/{def}") }]);
    jsonschema::validator_for(&schema).unwrap()
}

/// Checks that `text` is a message `def` of the documented schema.
fn check(def: &str, text: &str) {
    let instance: serde_json::Value = serde_json::from_str(text).unwrap();
    let validator = schema_of(def);
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{def}: {text}\n{}", errors.join("\n"));
}

fn sample_game() -> scryptic_core::game::Game {
    use scryptic_core::lexicon::Lexicon;
    use scryptic_core::map::Map;
    let rules = RuleSet::preset("classic").unwrap();
    let map = Map::new("sample", 15, 15);
    scryptic_core::game::Game::new(&map, rules, std::sync::Arc::new(Lexicon::english()), 1)
}

#[test]
fn every_message_written_is_one_the_schema_documents() {
    use scryptic_core::board::{Player, Pos};
    use scryptic_core::game::{Placement, WordKey};
    use scryptic_core::map::Direction;
    let at = Pos { x: 7, y: 7 };
    let key = WordKey {
        start: at,
        dir: Direction::Across,
        len: 3,
    };
    let actions = [
        Action::Commit {
            letters: vec![Placement { at, letter: 'A' }],
        },
        Action::Defend {
            order: Some(vec![key]),
        },
        Action::Defend { order: None },
        Action::Redeploy { word: key },
        Action::Discard {
            letters: "AB".into(),
        },
        Action::Exchange {
            letters: "AB".into(),
        },
        Action::Invoke {
            token: "flood_1".into(),
        },
        Action::Spy,
        Action::Forfeit,
        Action::CallSuddenDeath,
        Action::Answer { accept: true },
        Action::EndTurn,
        Action::Layout {
            player: Player::seat(2).unwrap(),
            letters: vec![Placement { at, letter: 'Z' }],
        },
        Action::GreenLight {
            player: Player::Gold,
        },
        Action::RedLight {
            player: Player::Silver,
        },
        Action::GraceOver,
        Action::Jaywalk {
            player: Player::Gold,
            letter: 'Q',
        },
        Action::Move {
            player: Player::Silver,
            mv: "C8-C6".into(),
        },
    ];
    for action in actions {
        check(
            "client_act",
            &write(ClientFrame::Act {
                action,
                after: Some(3),
            }),
        );
    }
    check(
        "client_hello",
        &write(ClientFrame::Hello {
            token: None,
            seen: None,
        }),
    );
    check("client_next", &write(ClientFrame::Next));
    // A view of a game under way, with its events, as a seat sees them.
    let mut game = sample_game();
    let events = game
        .apply(Action::Exchange {
            letters: String::new(),
        })
        .unwrap_or_default();
    let events: Vec<Event> = events
        .iter()
        .chain(game.apply(Action::EndTurn).unwrap_or_default().iter())
        .filter_map(|e| e.shown_to(Some(Player::Silver)))
        .collect();
    assert!(!events.is_empty());
    let view = View {
        actions: 2,
        snapshot: game.seen_by(Some(Player::Silver)).snapshot(),
        events,
        events_dropped: 0,
        moves: vec!["C8-C6".into()],
        console: vec!["[script] hello".into()],
        grace_left_ms: Some(3_000),
        move_left_ms: Some(86_400_000),
    };
    check("server_view", &write(ServerFrame::View(Box::new(view))));
    let info = MatchInfo {
        id: "0123456789abcdef".into(),
        title: "sample".into(),
        mode: "core:classic".into(),
        packs: vec![PackRef {
            id: "core".into(),
            version: "1.0.0".into(),
            sha256: "ab".repeat(32),
        }],
        settings: [("rounds".to_string(), "3".to_string())].into(),
        seats: vec![
            SeatInfo {
                seat: "gold".into(),
                occupant: Occupant::Person {
                    name: "Ann".into(),
                    connected: true,
                },
            },
            SeatInfo {
                seat: "silver".into(),
                occupant: Occupant::Ai {
                    level: "hard".into(),
                },
            },
        ],
        state: MatchState::Playing,
        actions: 2,
        log_after_end: true,
        turn: 2,
        to_act: vec!["silver".into()],
        scores: vec![12, 0],
        ended: None,
        started_ms: 1_764_000_000_000,
        last_moved_ms: 1_764_000_060_000,
        move_due_ms: Some(1_764_086_460_000),
        server: Some("http://play-2.example.org".into()),
    };
    check(
        "server_welcome",
        &write(ServerFrame::Welcome {
            match_info: info.clone(),
            seat: Some("gold".into()),
            map: scryptic_core::map::Map::new("sample", 15, 15).to_ron(),
            rules: Box::new(game.rules().clone()),
            help: None,
            tileset: Some(PackFile {
                pack: "core".into(),
                path: "tilesets/stone/tileset.ron".into(),
            }),
        }),
    );
    check(
        "server_seats",
        &write(ServerFrame::Seats {
            match_info: info.clone(),
        }),
    );
    check(
        "server_refused",
        &write(ServerFrame::Refused {
            message: "no".into(),
        }),
    );
    check(
        "server_error",
        &write(ServerFrame::Error {
            message: "no".into(),
        }),
    );
    check("lobby_match_info", &write(info.clone()));
    let over = MatchInfo {
        state: MatchState::Over,
        to_act: Vec::new(),
        ended: Some(MatchEnd {
            winner: Some("gold".into()),
            why: "silver holds no city".into(),
        }),
        ..info.clone()
    };
    let drawn = MatchInfo {
        ended: Some(MatchEnd {
            winner: None,
            why: "both pools are empty and the players passed".into(),
        }),
        ..over.clone()
    };
    check("lobby_match_info", &write(over.clone()));
    check(
        "lobby_match_list",
        &write(MatchList {
            matches: vec![info, over, drawn],
            total: 3,
        }),
    );
    check(
        "lobby_pack_list",
        &write(PackList {
            packs: vec![PlayedPack {
                id: "word-wars".into(),
                title: "Word Wars".into(),
                version: "0.1.0".into(),
                description: "Two players, one board.".into(),
                tags: vec!["two players".into()],
                authors: vec!["The Scryptic toolkit".into()],
                license: "MIT OR Apache-2.0".into(),
                modes: vec![ModeInfo {
                    id: "duel".into(),
                    title: "Duel".into(),
                    description: "Three rounds.".into(),
                    min_seats: 2,
                    max_seats: 2,
                    seat_names: vec!["gold".into(), "silver".into()],
                }],
                settings: [
                    scryptic_core::save::SettingKind::Bool { default: true },
                    scryptic_core::save::SettingKind::Int {
                        min: 1,
                        max: 9,
                        step: 2,
                        default: 3,
                    },
                    scryptic_core::save::SettingKind::Choice {
                        options: vec!["short".into(), "long".into()],
                        default: "short".into(),
                    },
                ]
                .into_iter()
                .enumerate()
                .map(|(i, kind)| SettingInfo {
                    id: format!("s{i}"),
                    title: format!("Setting {i}"),
                    description: String::new(),
                    kind,
                })
                .collect(),
            }],
        }),
    );
    check(
        "lobby_create_match",
        &write(CreateMatch {
            pack: "word-wars".into(),
            mode: String::new(),
            map: String::new(),
            settings: [("rounds".to_string(), "2".to_string())].into(),
            seats: [(
                "silver".to_string(),
                SeatRequest::Ai {
                    level: "easy".into(),
                },
            )]
            .into(),
            seed: Some(1),
            log_after_end: true,
        }),
    );
    check(
        "lobby_take_seat",
        &write(TakeSeat {
            seat: Some("gold".into()),
            name: "Ann".into(),
        }),
    );
    check(
        "lobby_seat_taken",
        &write(SeatTaken {
            match_id: "m".into(),
            seat: "gold".into(),
            token: "0f".repeat(16),
        }),
    );
    check("lobby_leave_seat", &write(LeaveSeat { token: "t".into() }));
    check("lobby_problem", &write(Problem { error: "no".into() }));
}

/// The schema is not vacuous: a frame it does not document fails it.
#[test]
fn the_schema_refuses_what_it_does_not_document() {
    let validator = schema_of("client_act");
    for text in [
        r#"{"protocol":1,"type":"act","action":"Fly"}"#,
        r#"{"protocol":1,"type":"act","action":{"Commit":{"letters":[{"at":{"x":-1,"y":0},"letter":"A"}]}}}"#,
        r#"{"protocol":2,"type":"act","action":"EndTurn"}"#,
        r#"{"protocol":1,"type":"act","action":"EndTurn","extra":1}"#,
    ] {
        let instance: serde_json::Value = serde_json::from_str(text).unwrap();
        assert!(!validator.is_valid(&instance), "{text}");
    }
}

#[test]
fn times_are_told_in_their_two_largest_units() {
    for (ms, words) in [
        (0, "0s"),
        (1, "1s"),
        (40_000, "40s"),
        (320_000, "5m 20s"),
        (3_600_000, "1h"),
        (3_660_000, "1h 1m"),
        (259_199_000, "2d 23h"),
        (86_400_000 + 59_000, "1d"),
    ] {
        assert_eq!(super::time_words(ms), words, "{ms} ms");
    }
}

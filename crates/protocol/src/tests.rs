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

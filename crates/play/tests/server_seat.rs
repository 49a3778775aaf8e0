//! The play view's seat on a real server on loopback (natively; the browser runs the same
//! code): joining with a token, the game as the server shows it, an action sent and answered,
//! a refusal told, a spectator kept from acting, and the connection made again after the
//! server drops it. Waits are for frames (a wake-up channel), never for time.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

mod common;

use common::{join, next_wake, root, server};
use scryptic_core::Player;
use scryptic_core::game::{Action, Event, Placement};
use scryptic_play::referee::{Heard, Referee};
use scryptic_play::server_seat::{SeatAddress, ServerSeat};
use scryptic_play::{Seat, Session};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// A Word Wars match with gold open and silver the server's easy AI, and gold's seat taken.
fn word_wars_against_the_ai(base: &str) -> SeatAddress {
    common::seat_against_the_ai(base, "word-wars", &[], "gold", "silver", 11)
}

/// Polls `seat` at each frame until `done` says what it waited for is heard.
fn hear_until(
    seat: &mut ServerSeat,
    woken: &Receiver<()>,
    what: &str,
    mut done: impl FnMut(&ServerSeat, &Heard) -> bool,
) -> Vec<Heard> {
    let mut all = Vec::new();
    loop {
        for heard in seat.poll(false) {
            let found = done(seat, &heard);
            all.push(heard);
            if found {
                return all;
            }
        }
        next_wake(woken, what);
    }
}

#[test]
fn a_seat_joins_plays_is_refused_and_is_answered() {
    let (server, _dir) = server();
    let base = format!("http://{}", server.addr);
    let (mut seat, woken) = join(word_wars_against_the_ai(&base));
    assert_eq!(seat.seat, Some(Player::Gold));
    assert_eq!(seat.occupant(Player::Gold), "ada, you");
    assert_eq!(seat.occupant(Player::Silver), "AI easy");
    let online = seat.online().unwrap();
    assert_eq!(
        online.address,
        format!("{base}/matches/{}", seat.address().match_id)
    );
    assert!(!online.watching);
    // Gold's rack is gold's to see; silver's letters stay hidden from gold's seat.
    assert!(!seat.game().rack_letters(Player::Gold).is_empty());
    assert!(
        seat.game()
            .rack_letters(Player::Silver)
            .chars()
            .all(|c| c == '?')
    );

    // Gold's turn comes (the AI may have begun).
    if seat.game().to_act() != Player::Gold {
        hear_until(&mut seat, &woken, "gold's turn", |seat, _| {
            seat.game().to_act() == Player::Gold
        });
    }
    // A word off the board is refused by the server, in its words, and changes nothing.
    let log = seat.game().log().len();
    let wild = Action::Commit {
        letters: vec![Placement {
            at: scryptic_core::Pos::new(400, 400),
            letter: 'A',
        }],
    };
    assert!(seat.apply(wild).is_ok(), "sent, not played here");
    let heard = hear_until(&mut seat, &woken, "the refusal", |_, h| {
        matches!(h, Heard::Refused(_))
    });
    assert!(matches!(heard.last(), Some(Heard::Refused(why)) if !why.is_empty()));
    assert_eq!(seat.game().log().len(), log);

    // Gold concedes: the server's view says the game is over, with gold's forfeit among its
    // events.
    seat.apply(Action::Forfeit).unwrap();
    let heard = hear_until(&mut seat, &woken, "the game's end", |seat, _| {
        seat.game().result().is_some()
    });
    let events: Vec<&Event> = heard
        .iter()
        .filter_map(|h| match h {
            Heard::View { events, .. } => Some(events),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(
        events.iter().any(|e| matches!(e, Event::GameOver { .. })),
        "{events:?}"
    );
}

#[test]
fn a_spectator_sees_no_rack_and_cannot_act() {
    let (server, _dir) = server();
    let base = format!("http://{}", server.addr);
    let seated = word_wars_against_the_ai(&base);
    let watcher = SeatAddress {
        token: None,
        ..seated
    };
    let (mut seat, _woken) = join(watcher);
    assert!(seat.watching());
    for player in [Player::Gold, Player::Silver] {
        assert!(seat.game().rack_letters(player).chars().all(|c| c == '?'));
    }
    let refused = seat.apply(Action::EndTurn).unwrap_err();
    assert!(refused.contains("watching"), "{refused}");
}

#[test]
fn the_session_shows_what_the_server_says() {
    let (server, _dir) = server();
    let base = format!("http://{}", server.addr);
    let (seat, woken) = join(word_wars_against_the_ai(&base));
    let mut session = Session::new(
        Box::new(seat),
        vec![Seat::Human, Seat::Elsewhere],
        "ww".into(),
    );
    assert_eq!(session.seat_label(Player::Silver), "AI easy");
    // The server's views reach the session until it is gold's turn (the AI may begin).
    session.update();
    while session.game().to_act() != Player::Gold {
        next_wake(&woken, "gold's turn");
        session.update();
    }
    session.act(Action::Forfeit);
    while session.game().result().is_none() {
        next_wake(&woken, "the end");
        session.update();
    }
    // The end is told in the log, as the engine describes it to gold.
    let result = session.game().result().unwrap().clone();
    let told = session
        .game()
        .seat_names()
        .render(&scryptic_core::game::describe::describe_result(&result));
    assert!(
        session.log.iter().any(|line| line.starts_with(&told)),
        "{told:?} not in {:?}",
        session.log
    );
    assert_eq!(result.winner, Some(Player::Silver));
}

/// The server goes away and comes back on the same data: the seat is told the connection is
/// lost, makes it again with its token by itself, and carries on with the match as it was.
#[test]
fn a_lost_connection_is_made_again_with_the_token() {
    let (server, dir) = server();
    let addr = server.addr;
    let base = format!("http://{addr}");
    let (mut seat, woken) = join(word_wars_against_the_ai(&base));
    let actions_before = seat.game().log().len();
    drop(server);
    // Polled as a window polls while it reconnects: at each wake-up, or now and then.
    let mut heard_all = Vec::new();
    let mut again = None;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        assert!(std::time::Instant::now() < deadline, "heard {heard_all:?}");
        let _ = woken.recv_timeout(Duration::from_millis(100));
        let heard = seat.poll(false);
        let lost = heard
            .iter()
            .any(|h| matches!(h, Heard::Lost { retrying: true, .. }));
        heard_all.extend(heard);
        if lost && again.is_none() {
            assert!(seat.reconnecting());
            let mut options = scryptic_server::Options::new(addr, dir.path().join("data"));
            options.packs = vec![root().join("packs")];
            again = Some(scryptic_server::start(options).unwrap());
        }
        // Back, and a view after it: the server answered the hello made again.
        let back = heard_all.iter().position(|h| matches!(h, Heard::Back));
        let viewed = back.is_some_and(|at| {
            heard_all[at..]
                .iter()
                .any(|h| matches!(h, Heard::View { .. }))
        });
        if viewed {
            break;
        }
    }
    assert!(!seat.reconnecting());
    assert!(
        seat.game().log().len() >= actions_before,
        "the match goes on where it was"
    );
    assert!(seat.apply(Action::Forfeit).is_ok(), "the seat acts again");
}

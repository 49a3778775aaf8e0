//! What the fuzzers feed the server (`tests/src/fuzz.rs`, `fuzz/`): a stranger's frames, as a
//! seat's socket reads them, played on a match of its own.

use crate::MemoryStore;
use crate::referee::Match;
use crate::store::Store;
use scryptic_core::board::Player;
use scryptic_core::lexicon::Lexicon;
use scryptic_pack::Catalog;
use scryptic_protocol::{ClientFrame, CreateMatch, MAX_CLIENT_FRAME, TakeSeat};
use std::sync::{Arc, OnceLock};

fn lexicon() -> Arc<Lexicon> {
    static LEXICON: OnceLock<Arc<Lexicon>> = OnceLock::new();
    LEXICON.get_or_init(|| Arc::new(Lexicon::english())).clone()
}

/// Plays `text`, one client frame a line, on a new match of the built-in pack's first mode
/// whose two seats are people: each line is read as a socket reads a frame, and a hello, an
/// action or a `next` is made for gold or silver in turn, as the referee would take it. Lobby
/// requests (`CreateMatch`, `TakeSeat`) are read too. Returns how many frames were accepted.
/// It must never panic, whatever the text.
pub fn frames(text: &str) -> usize {
    let store = MemoryStore::default();
    let request = CreateMatch {
        pack: "core".into(),
        mode: String::new(),
        map: String::new(),
        settings: Default::default(),
        seats: Default::default(),
        seed: Some(1),
        log_after_end: true,
    };
    let (catalog, _) = Catalog::discover();
    let Ok((mut game, stored)) = Match::create("f".into(), request, &catalog, lexicon(), 0) else {
        return 0;
    };
    if store.create(&stored, &game.listing()).is_err() {
        return 0;
    }
    for seat in ["gold", "silver"] {
        let take = TakeSeat {
            seat: Some(seat.into()),
            name: seat.into(),
        };
        if game.take_seat(&take, &store).is_err() {
            return 0;
        }
    }
    let mut accepted = 0;
    for (i, line) in text.lines().enumerate().take(200) {
        let _ = scryptic_protocol::read_strict::<CreateMatch>(line, MAX_CLIENT_FRAME);
        let _ = scryptic_protocol::read_strict::<TakeSeat>(line, MAX_CLIENT_FRAME);
        let seat = Player::seat(i % 2);
        match scryptic_protocol::read_strict::<ClientFrame>(line, MAX_CLIENT_FRAME) {
            Ok(ClientFrame::Hello { token, seen }) => {
                let known = token.as_deref().and_then(|t| game.seat_of(t));
                let (frames, _kept) = tokio::sync::mpsc::channel(4);
                game.connect(known, seen, frames);
                accepted += 1;
            }
            Ok(ClientFrame::Act { action, .. }) => {
                if game.act(seat, action, &store).is_ok() {
                    accepted += 1;
                }
            }
            Ok(ClientFrame::Next) => {
                if seat.is_some_and(|p| game.ready_for_next(p).is_ok()) {
                    accepted += 1;
                }
            }
            Err(_) => {}
        }
        let _ = game.info();
        game.step(&store);
    }
    accepted
}

//! A match put to sleep and brought back from its log is the match that slept: every mode,
//! at many points of a match (between rounds, in a grace period, mid-turn), its game's
//! checksums, every seat's view, its listing and its move clock the same.

use crate::MemoryStore;
use crate::leak_tests::{catalog, keep, play_a_step, request};
use crate::referee::Match;
use crate::store::Store;
use scryptic_ai::AiPlayer;
use scryptic_core::board::Player;
use scryptic_core::lexicon::Lexicon;
use scryptic_protocol::{CreateMatch, TakeSeat};
use std::sync::Arc;

/// What must come back the same: the checksums, each seat's and a spectator's view, the
/// listing (when its clock next needs it included).
fn state_of(game: &Match) -> (u64, u64, Vec<String>, String) {
    let truth = game.game();
    let mut views: Vec<String> = truth
        .seats()
        .map(|p| serde_json::to_string(&truth.seen_by(Some(p)).snapshot()).unwrap())
        .collect();
    views.push(serde_json::to_string(&truth.seen_by(None).snapshot()).unwrap());
    let listing = serde_json::to_string(&game.listing()).unwrap();
    (truth.checksum(), truth.quick_checksum(), views, listing)
}

fn woken(store: &MemoryStore, id: &str, lexicon: &Arc<Lexicon>, clock: &crate::Clock) -> Match {
    let stored = store.load(id).unwrap().unwrap();
    let mut back = Match::restore(stored, lexicon.clone()).unwrap();
    back.clock = clock.clone();
    back
}

fn sleeps_and_wakes_the_same(request: CreateMatch, label: &str) -> usize {
    let store = MemoryStore::default();
    let lexicon = Arc::new(Lexicon::english());
    let (mut game, stored) =
        Match::create("m".into(), request, &catalog(), lexicon.clone(), 1_000_000).unwrap();
    let clock = crate::Clock::manual(1_000_000);
    game.clock = clock.clone();
    keep(&store, &game, &stored);
    let players: Vec<Player> = game.game().seats().collect();
    for &player in &players {
        let seat = game.game().seat_names().name(player).to_string();
        let take = TakeSeat {
            seat: Some(seat),
            name: format!("person {}", player.index()),
        };
        game.take_seat(&take, &store).unwrap();
    }
    let seed = game.game().seed();
    let mut ais: Vec<AiPlayer> = players
        .iter()
        .map(|p| AiPlayer::new(scryptic_ai::Level::Easy, seed + p.index() as u64))
        .collect();
    let (mut turn, mut compared) = (0, 0);
    for step in 0..400 {
        // Every seventh step, and wherever the match stands between rounds or in a grace
        // period, it sleeps and is brought back.
        let between = game.game().result().is_some() || game.grace_deadline_ms().is_some();
        if step % 7 == 0 || between {
            let back = woken(&store, "m", &lexicon, &clock);
            let (was, is) = (state_of(&game), state_of(&back));
            assert!(
                was.0 == is.0 && was.1 == is.1,
                "{label}: checksums at step {step}"
            );
            assert!(was.2 == is.2, "{label}: the views at step {step}");
            assert_eq!(was.3, is.3, "{label}: the listing at step {step}");
            compared += 1;
            game = back;
        }
        game.clock.advance(1_000);
        if !play_a_step(&mut game, &store, (&mut ais, &mut turn), (label, step)) {
            break;
        }
    }
    compared
}

#[test]
fn every_mode_comes_back_from_its_log_as_it_slept() {
    let modes = [
        ("core", request("core", &[("move_time", "1d")])),
        ("word-wars", request("word-wars", &[("rounds", "2")])),
        (
            "lexicon-crossing",
            request("lexicon-crossing", &[("players", "3")]),
        ),
        ("scryper", request("scryper", &[("move_time", "1h")])),
        ("wending", request("wending", &[])),
    ];
    for (label, create) in modes {
        let compared = sleeps_and_wakes_the_same(create, label);
        assert!(compared > 3, "{label}: compared {compared} times");
    }
}

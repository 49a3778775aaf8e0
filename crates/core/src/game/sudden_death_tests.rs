//! Sudden death (`flow.sudden_death`): the call, the prompt it makes, refusal,
//! and acceptance won or lost, each with what the end awards.

use super::flow_tests::{across_the_centre, game_awarding};
use super::*;
use crate::rules::{Exhaustion, FinalAward, FlowOverrides};

/// A judge of "can make a word": whether the active player's rack holds all of `word`'s
/// letters (the move generator's stand-in; the tests name who can play).
struct CanPlay(&'static str);

impl Advisor for CanPlay {
    fn strongest_placement(&self, game: &Game) -> Option<Vec<Placement>> {
        let mut rack = game.rack_letters(game.active());
        for letter in self.0.chars() {
            let at = rack.find(letter)?;
            rack.remove(at);
        }
        Some(Vec::new())
    }
}

/// Word Wars' flow: no pass, one play a turn, skipping, both out, forfeit, sudden death.
fn sudden_death(racks: [&str; 2], can_play: &'static str) -> Game {
    let flow = FlowOverrides {
        may_pass: Some(false),
        one_play_per_turn: Some(true),
        skip_without_letters: Some(true),
        exhaustion: Some(Exhaustion::BothOut),
        forfeit: Some(true),
        no_word_ends_turns_in_a_row: Some(true),
        sudden_death: Some(true),
        ..Default::default()
    };
    let mut game = game_awarding(flow, racks, Some(["", ""]), FinalAward::TilesInPlay);
    game.set_advisor(Arc::new(CanPlay(can_play)));
    game
}

#[test]
fn an_offer_waits_for_the_answer_and_a_refusal_lets_play_go_on() {
    let mut g = sudden_death(["QZ", "CAT"], "CAT");
    g.apply(Action::CallSuddenDeath).unwrap();
    assert_eq!(g.to_act(), Player::Silver, "silver must answer");
    assert_eq!(
        g.prompt(),
        Some(Prompt::SuddenDeath {
            caller: Player::Gold
        })
    );
    let before = g.log().len();
    for action in [Action::EndTurn, Action::Forfeit, across_the_centre("QZ")] {
        let refused = g.apply(action).unwrap_err();
        assert!(
            matches!(
                refused,
                ActionError::AnswerFirst {
                    player: Player::Silver,
                    ..
                }
            ),
            "{refused}"
        );
    }
    assert_eq!(g.log().len(), before, "a refused action changes nothing");
    let events = g.apply(Action::Answer { accept: false }).unwrap();
    assert!(events.contains(&Event::SuddenDeathAnswered {
        taker: Player::Silver,
        accepted: false
    }));
    assert_eq!(g.to_act(), Player::Gold, "gold's turn goes on");
    assert_eq!(g.rack_letters(Player::Gold), "QZ");
    let again = g.apply(Action::CallSuddenDeath).unwrap_err();
    assert!(
        matches!(again, ActionError::CannotCallSuddenDeath { .. }),
        "{again}"
    );
    g.apply(Action::Forfeit).unwrap();
    assert_eq!(g.result().unwrap().winner, Some(Player::Silver));
}

#[test]
fn the_taker_who_uses_every_tile_wins_double() {
    let mut g = sudden_death(["S", "CAT"], "CATS");
    g.apply(Action::CallSuddenDeath).unwrap();
    g.apply(Action::Answer { accept: true }).unwrap();
    assert_eq!(g.rack_letters(Player::Gold), "", "the hand was given");
    assert_eq!(g.to_act(), Player::Silver, "the taker plays");
    assert_eq!(g.sudden_death_taker(), Some(Player::Silver));
    g.apply(across_the_centre("CATS")).unwrap();
    let result = g.result().expect("every tile used");
    assert_eq!(result.winner, Some(Player::Silver));
    assert_eq!(
        result.reason,
        EndReason::SuddenDeath {
            taker: Player::Silver,
            won: true
        }
    );
    assert_eq!(
        g.final_award(),
        Some([0, 16]),
        "four tiles, doubled, in half points"
    );
}

#[test]
fn the_taker_left_without_a_word_gives_the_caller_the_round_undoubled() {
    let mut g = sudden_death(["Q", "CAT"], "CAT");
    g.apply(Action::CallSuddenDeath).unwrap();
    g.apply(Action::Answer { accept: true }).unwrap();
    // The hand taken holds the rack past no limit: the taker plays at once.
    assert_eq!(g.rack_excess(Player::Silver).1, 0);
    g.apply(across_the_centre("CAT")).unwrap();
    let result = g
        .result()
        .expect("silver, left with the Q, can make no word");
    assert_eq!(result.winner, Some(Player::Gold));
    assert_eq!(
        result.reason,
        EndReason::SuddenDeath {
            taker: Player::Silver,
            won: false
        }
    );
    assert_eq!(g.final_award(), Some([6, 0]), "three tiles, not doubled");
}

/// Table: who may not call, and why.
#[test]
fn sudden_death_is_for_a_stuck_player_where_the_rules_have_it() {
    let cases: [(&str, Game, &str); 3] = [
        (
            "a player who can make a word",
            sudden_death(["CAT", "DOG"], "CAT"),
            "you can still make a word",
        ),
        (
            "an opponent without tiles",
            sudden_death(["QZ", ""], "CAT"),
            "has no tiles left",
        ),
        (
            "rules without it",
            game_awarding(
                FlowOverrides::default(),
                ["QZ", "CAT"],
                None,
                FinalAward::Nothing,
            ),
            "flow.sudden_death is false",
        ),
    ];
    for (what, mut game, says) in cases {
        let refused = game.apply(Action::CallSuddenDeath).unwrap_err();
        assert!(refused.to_string().contains(says), "{what}: {refused}");
        assert_eq!(game.prompt(), None, "{what}");
        assert!(game.log().is_empty(), "{what}");
    }
    let mut nothing = sudden_death(["QZ", "CAT"], "CAT");
    assert_eq!(
        nothing.apply(Action::Answer { accept: true }),
        Err(ActionError::NothingToAnswer)
    );
}

/// A script ending the game while an offer waits leaves no question behind.
#[test]
fn an_offer_left_unanswered_at_the_end_asks_nothing() {
    let mut g = sudden_death(["QZ", "CAT"], "CAT");
    g.apply(Action::CallSuddenDeath).unwrap();
    g.end_game(Some(Player::Silver), "the referee stops it".into());
    assert_eq!(g.prompt(), None);
    assert_eq!(
        g.apply(Action::Answer { accept: true }),
        Err(ActionError::GameOver)
    );
}

//! Turn flow (`flow`): no passing, one play a turn, a player without letters skipped, running
//! out as one or both, forfeiting; each against Scryptic's own flow.

use super::*;
use crate::board::Pos;
use crate::rules::{
    CrosswordModel, CrosswordOverrides, Exhaustion, ExhaustionWinner, FirstWord, FlowOverrides,
    PoolModel, RuleOverrides, SupplyOverrides,
};

/// A 15x15 plain shared crossword; racks and piles fixed (`None`: dealt).
fn game(flow: FlowOverrides, racks: [&str; 2], piles: Option<[&str; 2]>) -> Game {
    game_awarding(flow, racks, piles, crate::rules::FinalAward::Nothing)
}

/// [`game`], with `award` at its end.
pub(super) fn game_awarding(
    flow: FlowOverrides,
    racks: [&str; 2],
    piles: Option<[&str; 2]>,
    award: crate::rules::FinalAward,
) -> Game {
    let mut map = Map::new("flow", 15, 15);
    for (player, rack) in Player::BOTH.into_iter().zip(racks) {
        map.scenario.racks.insert(player, rack.into());
    }
    if let Some(piles) = piles {
        for (player, pile) in Player::BOTH.into_iter().zip(piles) {
            map.scenario.pools.insert(player, pile.into());
        }
    }
    map.rules.preset = "classic".into();
    map.rules.overrides = RuleOverrides {
        crossword: Some(CrosswordOverrides {
            model: Some(CrosswordModel::Shared),
            first_word: Some(FirstWord::Centre),
            final_award: Some(award),
            ..Default::default()
        }),
        supply: Some(SupplyOverrides {
            pool: Some(PoolModel::Split),
            draw: None,
            ..Default::default()
        }),
        flow: Some(flow),
        ..Default::default()
    };
    let rules = map.rule_set().expect("the overrides are sound");
    Game::new(&map, rules, Arc::new(Lexicon::english()), 1)
}

fn cat_across_the_centre() -> Action {
    across_the_centre("CAT")
}

/// `word` across the centre of the 15x15 board, from G8.
pub(super) fn across_the_centre(word: &str) -> Action {
    Action::Commit {
        letters: word
            .chars()
            .enumerate()
            .map(|(i, letter)| Placement {
                at: Pos::new(6 + i as u32, 7),
                letter,
            })
            .collect(),
    }
}

fn no_pass() -> FlowOverrides {
    FlowOverrides {
        may_pass: Some(false),
        forfeit: Some(true),
        ..Default::default()
    }
}

#[test]
fn without_passing_a_turn_ends_only_after_a_play() {
    let mut g = game(no_pass(), ["CATS", "DOGS"], None);
    let refused = g.apply(Action::EndTurn);
    let Err(ActionError::MustPlay { options }) = refused else {
        panic!("a pass was not refused: {refused:?}");
    };
    assert_eq!(options, "play a word, or forfeit");
    assert_eq!(g.active(), Player::Gold, "a refusal changes nothing");
    g.apply(cat_across_the_centre()).unwrap();
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.active(), Player::Silver);
}

#[test]
fn one_play_a_turn_ends_the_turn_with_the_word() {
    let flow = FlowOverrides {
        one_play_per_turn: Some(true),
        ..Default::default()
    };
    let mut g = game(flow, ["CATS", "DOGS"], None);
    let events = g.apply(cat_across_the_centre()).unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::TurnEnded {
            player: Player::Gold,
            passed: false
        }
    )));
    assert_eq!(g.active(), Player::Silver);
}

/// Gold plays every letter while silver, out from the start, is skipped; returns the events
/// of gold's last word.
fn play_out(exhaustion_winner: ExhaustionWinner) -> (Game, Vec<Event>) {
    play_out_awarding(exhaustion_winner, crate::rules::FinalAward::Nothing)
}

fn play_out_awarding(
    exhaustion_winner: ExhaustionWinner,
    award: crate::rules::FinalAward,
) -> (Game, Vec<Event>) {
    let flow = FlowOverrides {
        skip_without_letters: Some(true),
        exhaustion: Some(Exhaustion::BothOut),
        exhaustion_winner: Some(exhaustion_winner),
        ..Default::default()
    };
    let mut g = game_awarding(flow, ["CATS", ""], Some(["", ""]), award);
    assert!(g.result().is_none(), "one player out does not end the game");
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(
        g.active(),
        Player::Gold,
        "silver has nothing: gold plays again"
    );
    g.apply(cat_across_the_centre()).unwrap();
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.active(), Player::Gold);
    let s = vec![Placement {
        at: Pos::new(9, 7),
        letter: 'S',
    }];
    // Gold's last letter: both are out, and the game ends with the word.
    let events = g.apply(Action::Commit { letters: s }).unwrap();
    (g, events)
}

#[test]
fn a_player_without_letters_is_skipped_until_both_are_out() {
    let (g, events) = play_out(ExhaustionWinner::HigherScore);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::GameOver {
                result: GameResult {
                    reason: EndReason::Exhaustion { .. },
                    ..
                },
                ..
            }
        )),
        "both out: {events:?}"
    );
    assert_eq!(
        g.result().unwrap().winner,
        Some(Player::Gold),
        "the higher score"
    );
    let (g, _) = play_out(ExhaustionWinner::Draw);
    assert_eq!(g.result().unwrap().winner, None, "both out: a draw");
}

/// An advisor that finds no word, whatever the rack.
struct NoWords;

impl Advisor for NoWords {
    fn strongest_placement(&self, _: &Game) -> Option<Vec<Placement>> {
        None
    }
}

#[test]
fn turns_in_a_row_end_when_no_word_can_be_made() {
    let flow = FlowOverrides {
        skip_without_letters: Some(true),
        exhaustion: Some(Exhaustion::BothOut),
        no_word_ends_turns_in_a_row: Some(true),
        ..Default::default()
    };
    let mut g = game(flow, ["QZ", ""], Some(["", ""]));
    g.set_advisor(Arc::new(NoWords));
    let events = g.apply(Action::EndTurn).unwrap();
    assert_eq!(
        g.result(),
        Some(&GameResult {
            winner: Some(Player::Silver),
            reason: EndReason::NoWord {
                player: Player::Gold
            },
        }),
        "{events:?}"
    );
}

#[test]
fn scryptics_flow_ends_as_soon_as_one_player_is_out() {
    let mut g = game(FlowOverrides::default(), ["CATS", ""], Some(["", ""]));
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(
        g.result().map(|r| r.reason.clone()),
        Some(EndReason::Exhaustion {
            player: Player::Silver
        })
    );
}

#[test]
fn a_forfeit_gives_the_game_to_the_opponent_where_allowed() {
    let mut g = game(FlowOverrides::default(), ["CATS", "DOGS"], None);
    assert_eq!(g.apply(Action::Forfeit), Err(ActionError::NoForfeit));
    assert!(g.result().is_none());
    let mut g = game(no_pass(), ["CATS", "DOGS"], None);
    g.apply(Action::Forfeit).unwrap();
    assert_eq!(
        g.result(),
        Some(&GameResult {
            winner: Some(Player::Silver),
            reason: EndReason::Forfeit {
                loser: Player::Gold
            },
        })
    );
}

#[test]
fn no_passing_needs_a_way_out() {
    let mut rules = crate::rules::RuleSet::preset("classic").unwrap();
    rules.flow.may_pass = false;
    assert!(rules.validate().iter().any(|p| p.key == "flow.may_pass"));
    rules.flow.forfeit = true;
    assert!(rules.validate().is_empty(), "{:?}", rules.validate());
}

/// The letters on the board are awarded at the end: all to the winner, split on a draw, in
/// half points.
#[test]
fn the_tiles_in_play_are_awarded_at_the_end() {
    use crate::rules::FinalAward::{Nothing, TilesInPlay};
    let (g, _) = play_out_awarding(ExhaustionWinner::Draw, TilesInPlay);
    assert_eq!(
        g.final_award(),
        Some([4, 4]),
        "four letters split: two points each"
    );
    let (g, events) = play_out_awarding(ExhaustionWinner::HigherScore, TilesInPlay);
    assert_eq!(g.final_award(), Some([8, 0]), "all four to the winner");
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::GameOver {
                award: Some([8, 0]),
                ..
            }
        )),
        "the event says the award: {events:?}"
    );
    assert_eq!(
        super::describe::describe_award(&g).as_deref(),
        Some("points awarded: gold 4, silver 0")
    );
    let (g, _) = play_out_awarding(ExhaustionWinner::Draw, Nothing);
    assert_eq!(g.final_award(), None);
    assert_eq!(super::describe::half_points(25), "12.5");
}

fn with_move_clock(seconds: i64) -> FlowOverrides {
    FlowOverrides {
        move_seconds: Some(seconds),
        ..FlowOverrides::default()
    }
}

#[test]
fn running_out_of_time_is_refused_without_a_move_clock_and_for_the_one_not_waited_on() {
    let mut g = game(FlowOverrides::default(), ["CATS", "DOGS"], None);
    assert!(g.on_the_clock().is_empty());
    let refused = g.apply(Action::OutOfTime {
        player: Player::Gold,
    });
    assert!(
        refused.unwrap_err().to_string().contains("no move clock"),
        "without flow.move_seconds"
    );
    let mut g = game(with_move_clock(60), ["CATS", "DOGS"], None);
    assert_eq!(g.on_the_clock(), vec![Player::Gold]);
    let refused = g.apply(Action::OutOfTime {
        player: Player::Silver,
    });
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("not waiting on silver")
    );
    assert!(
        g.result().is_none() && g.log().is_empty(),
        "a refusal changes nothing"
    );
    g.apply(Action::OutOfTime {
        player: Player::Gold,
    })
    .unwrap();
    assert_eq!(
        g.result(),
        Some(&GameResult {
            winner: Some(Player::Silver),
            reason: EndReason::OutOfTime {
                loser: Player::Gold
            },
        })
    );
    assert!(g.on_the_clock().is_empty(), "the clock stops with the game");
}

#[test]
fn the_move_clock_runs_for_a_whole_turn_and_starts_anew_for_the_next_player() {
    let mut g = game(with_move_clock(60), ["CATS", "DOGS"], None);
    let mut clock = MoveClock::default();
    clock.update(&g, 1_000);
    assert_eq!(clock.runs_out(&g), Some((Player::Gold, 61_000)));
    // Gold's play does not end the turn: the clock goes on from the turn's start.
    g.apply(across_the_centre("CATS")).unwrap();
    clock.update(&g, 30_000);
    assert_eq!(clock.runs_out(&g), Some((Player::Gold, 61_000)));
    g.apply(Action::EndTurn).unwrap();
    clock.update(&g, 40_000);
    assert_eq!(clock.runs_out(&g), Some((Player::Silver, 100_000)));
    assert_eq!(clock.runs_out_for(&g, Player::Gold), None);
    assert_eq!(clock.runs_out_for(&g, Player::Silver), Some(100_000));
}

//! Simultaneous play (`flow.simultaneous`): layouts laid anew in one checked step, apart from
//! the others' letters, and green light for a complete crossword, every player drawing.

use super::*;
use crate::board::Pos;
use crate::rules::{
    CrosswordOverrides, FirstWord, FlowOverrides, PoolModel, RuleOverrides, Scoring, SeatOverrides,
    SupplyOverrides,
};

/// Three players at once on a 15x15 board, racks as given, one shared pool left to draw.
fn at_once(racks: [&str; 3], simultaneous: bool) -> Game {
    let flow = FlowOverrides {
        simultaneous: Some(simultaneous),
        ..Default::default()
    };
    at_once_with(racks, None, flow)
}

/// Three players at once as `flow` has it, racks as given, the shared pool `pool` in draw
/// order (else shuffled).
fn at_once_with(racks: [&str; 3], pool: Option<&str>, flow: FlowOverrides) -> Game {
    let mut map = super::tests::shared_crossword(
        FirstWord::Anywhere,
        RuleOverrides {
            supply: Some(SupplyOverrides {
                pool: Some(PoolModel::Shared),
                ..Default::default()
            }),
            flow: Some(FlowOverrides {
                simultaneous: Some(flow.simultaneous.unwrap_or(true)),
                ..flow
            }),
            seats: Some(SeatOverrides {
                count: Some(3),
                ..Default::default()
            }),
            crossword: Some(CrosswordOverrides {
                scoring: Some(Scoring::CrossingRatio),
                ..Default::default()
            }),
            ..Default::default()
        },
    );
    for (i, rack) in racks.iter().enumerate() {
        map.scenario
            .racks
            .insert(Player::seat(i).unwrap(), (*rack).into());
    }
    map.scenario.shared_pool = pool.map(Into::into);
    super::tests::start(&map, 1)
}

/// `word` across from (`x`, `y`).
fn across(word: &str, x: u32, y: u32) -> Vec<Placement> {
    word.chars()
        .enumerate()
        .map(|(i, letter)| Placement {
            at: Pos::new(x + i as u32, y),
            letter,
        })
        .collect()
}

fn layout(player: Player, letters: Vec<Placement>) -> Action {
    Action::Layout { player, letters }
}

#[test]
fn a_layout_is_laid_anew_apart_from_the_others() {
    let seat3 = Player::seat(2).unwrap();
    let mut g = at_once(["CATS", "DOG", "EMU"], true);
    // Seat 3 acts first: there are no turns.
    g.apply(layout(seat3, across("EMU", 0, 0))).unwrap();
    g.apply(layout(Player::Gold, across("CAT", 5, 5))).unwrap();
    assert_eq!(g.rack_letters(Player::Gold), "S");
    // Rearranged: the letters on the board are the player's to lay again.
    g.apply(layout(Player::Gold, across("CATS", 6, 9))).unwrap();
    assert_eq!(g.rack_letters(Player::Gold), "");
    assert_eq!(g.board().letters[Pos::new(5, 5)], None);
    let before = g.log().len();
    for (action, says) in [
        (
            layout(Player::Silver, across("DOG", 6, 10)),
            "touches another player's letter",
        ),
        (
            layout(Player::Silver, across("DOGS", 0, 12)),
            "you hold no S",
        ),
        (
            layout(Player::Silver, across("DOG", 14, 12)),
            "off the board",
        ),
        (
            Action::Commit {
                letters: across("DOG", 0, 12),
            },
            "act at once",
        ),
    ] {
        let refused = g.apply(action).unwrap_err();
        assert!(refused.to_string().contains(says), "{refused}");
    }
    assert_eq!(g.log().len(), before, "a refused action changes nothing");
    let turns = at_once(["CAT", "DOG", "EMU"], false);
    let mut turns = turns;
    let refused = turns.apply(layout(Player::Gold, across("CAT", 5, 5)));
    assert!(refused.unwrap_err().to_string().contains("played in turns"));
}

#[test]
fn green_light_needs_a_complete_crossword_and_everyone_draws() {
    let mut g = at_once(["CATS", "DOG", "EMU"], true);
    g.apply(layout(Player::Gold, across("CAT", 5, 5))).unwrap();
    let refused = g.apply(Action::GreenLight {
        player: Player::Gold,
    });
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("still on your rack"),
        "the S is left"
    );
    g.apply(layout(Player::Gold, across("CATS", 5, 5))).unwrap();
    let pool = g.pool_letters(Player::Gold).len();
    let events = g
        .apply(Action::GreenLight {
            player: Player::Gold,
        })
        .unwrap();
    let drew = events
        .iter()
        .filter(|e| matches!(e, Event::Drew { .. }))
        .count();
    assert_eq!(drew, 3, "every player draws: {events:?}");
    assert_eq!(g.pool_letters(Player::Gold).len(), pool - 3);
    assert_eq!(g.rack_letters(Player::Gold).len(), 1);
    assert_eq!(g.rack_letters(Player::Silver).len(), 4);
}

/// Seat 3 (the third player).
fn seat3() -> Player {
    Player::seat(2).unwrap()
}

/// Each player lays their rack's word out across, on rows 0, 5 and 10.
fn everyone_lays(g: &mut Game, words: [&str; 3]) {
    for (i, word) in words.iter().enumerate() {
        let player = Player::seat(i).unwrap();
        g.apply(layout(player, across(word, 0, 5 * i as u32)))
            .unwrap();
    }
}

/// The message of the refusal of `action`, checking that it changed nothing.
fn refusal(g: &mut Game, action: Action) -> String {
    let before = (g.log().len(), g.pool_letters(Player::Gold).clone());
    let refused = g.apply(action).unwrap_err().to_string();
    assert_eq!(
        (g.log().len(), g.pool_letters(Player::Gold).clone()),
        before
    );
    refused
}

#[test]
fn red_light_once_the_pool_runs_low_then_the_grace_period_ends_the_game() {
    // Four letters left: one green light for three players, then red light.
    let mut g = at_once_with(
        ["CAT", "DOG", "EMU"],
        Some("SSSA"),
        FlowOverrides::default(),
    );
    everyone_lays(&mut g, ["CAT", "DOG", "EMU"]);
    let early = refusal(
        &mut g,
        Action::RedLight {
            player: Player::Gold,
        },
    );
    assert!(early.contains("call green light"), "{early}");
    let early = refusal(&mut g, Action::GraceOver);
    assert!(early.contains("no grace period"), "{early}");
    g.apply(Action::GreenLight { player: seat3() }).unwrap();
    assert_eq!(g.light_round(), 2);
    assert_eq!(g.pool_letters(Player::Gold).iter().collect::<String>(), "A");
    everyone_lays(&mut g, ["CATS", "DOGS", "EMUS"]);
    let low = refusal(
        &mut g,
        Action::GreenLight {
            player: Player::Gold,
        },
    );
    assert!(low.contains("call red light"), "{low}");
    let events = g
        .apply(Action::RedLight {
            player: Player::Silver,
        })
        .unwrap();
    assert!(matches!(
        events[..],
        [Event::RedLight {
            player: Player::Silver,
            grace_seconds: 60
        }]
    ));
    assert_eq!(g.red_light_caller(), Some(Player::Silver));
    let again = refusal(
        &mut g,
        Action::RedLight {
            player: Player::Gold,
        },
    );
    assert!(again.contains("silver called red light"), "{again}");
    // During the grace period the others may still rearrange.
    g.apply(layout(Player::Gold, across("CAT", 0, 0))).unwrap();
    let events = g.apply(Action::GraceOver).unwrap();
    let Some(Event::GameOver { result, .. }) = events.last() else {
        panic!("the game ends: {events:?}")
    };
    // Silver and seat 3 each score 0 over one word; gold's S left over makes two.
    assert_eq!(result.winner, None);
    assert_eq!(
        result.reason,
        EndReason::RedLight {
            caller: Player::Silver,
            shared: vec![Player::Gold, Player::Silver, seat3()],
        }
    );
    assert!(g.result().is_some());
}

#[test]
fn a_crossing_wins_alone() {
    let mut g = at_once_with(["CATEA", "DOG", "TEA"], Some(""), FlowOverrides::default());
    // CAT across, TEA down through its T: the T is in two words.
    let mut cross = across("CAT", 0, 0);
    cross.extend([(1, 'E'), (2, 'A')].map(|(y, letter)| Placement {
        at: Pos::new(2, y),
        letter,
    }));
    g.apply(layout(Player::Gold, cross)).unwrap();
    g.apply(layout(Player::Silver, across("DOG", 0, 5)))
        .unwrap();
    g.apply(layout(seat3(), across("TEA", 0, 10))).unwrap();
    g.apply(Action::RedLight { player: seat3() }).unwrap();
    let events = g.apply(Action::GraceOver).unwrap();
    assert!(matches!(
        events.last(),
        Some(Event::GameOver { result, .. }) if result.winner == Some(Player::Gold)
    ));
    let c = g.crossing_score(Player::Gold);
    assert_eq!((c.words, c.leftovers), (2, 0));
}

#[test]
fn jaywalk_once_a_round_and_not_for_the_latest_caller() {
    let flow = FlowOverrides {
        jaywalk: Some(true),
        ..Default::default()
    };
    let mut g = at_once_with(["CAT", "DOG", "EMU"], Some("XYZQRS"), flow);
    let events = g
        .apply(Action::Jaywalk {
            player: Player::Gold,
            letter: 'c',
        })
        .unwrap();
    assert!(matches!(
        events[0],
        Event::Jaywalked {
            player: Player::Gold
        }
    ));
    assert_eq!(g.rack_letters(Player::Gold).len(), 3);
    assert_eq!(g.pool_letters(Player::Gold).len(), 6, "one back, one drawn");
    let letters_in_play: String = {
        let mut all: Vec<char> = g.rack_letters(Player::Gold).chars().collect();
        all.extend(g.pool_letters(Player::Gold).iter());
        all.sort_unstable();
        all.into_iter().collect()
    };
    assert_eq!(
        letters_in_play, "ACQRSTXYZ",
        "the C went back, nothing lost"
    );
    let twice = refusal(
        &mut g,
        Action::Jaywalk {
            player: Player::Gold,
            letter: 'A',
        },
    );
    assert!(twice.contains("once a round"), "{twice}");
    let missing = refusal(
        &mut g,
        Action::Jaywalk {
            player: Player::Silver,
            letter: 'A',
        },
    );
    assert!(missing.contains("no A on your rack"), "{missing}");
    // Silver calls green light: a new round, everyone but silver may jaywalk again.
    g.apply(layout(Player::Silver, across("DOG", 0, 5)))
        .unwrap();
    g.apply(Action::GreenLight {
        player: Player::Silver,
    })
    .unwrap();
    let caller = g.rack_letters(Player::Silver);
    let refused = refusal(
        &mut g,
        Action::Jaywalk {
            player: Player::Silver,
            letter: caller.chars().next().unwrap(),
        },
    );
    assert!(refused.contains("latest green light"), "{refused}");
    assert!(g.may_jaywalk(Player::Gold) && !g.may_jaywalk(Player::Silver));
    let gold = g.rack_letters(Player::Gold);
    g.apply(Action::Jaywalk {
        player: Player::Gold,
        letter: gold.chars().next().unwrap(),
    })
    .unwrap();
    let off = at_once(["CAT", "DOG", "EMU"], true).apply(Action::Jaywalk {
        player: Player::Gold,
        letter: 'C',
    });
    assert!(off.unwrap_err().to_string().contains("flow.jaywalk"));
}

#[test]
fn the_caller_waits_for_the_others_to_lay_out() {
    let flow = FlowOverrides {
        caller_waits: Some(true),
        green_light_draw: Some(2),
        ..Default::default()
    };
    let mut g = at_once_with(["CAT", "DOG", "EMU"], Some("ABCDEFGHIJKLMN"), flow);
    g.apply(layout(Player::Gold, across("CAT", 0, 0))).unwrap();
    let events = g
        .apply(Action::GreenLight {
            player: Player::Gold,
        })
        .unwrap();
    let drew: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::Drew { .. }))
        .collect();
    assert_eq!(drew.len(), 2, "the others draw now: {events:?}");
    assert_eq!(
        g.rack_letters(Player::Gold),
        "",
        "gold's letters are face down"
    );
    assert_eq!(g.crossing_score(Player::Gold).leftovers, 2);
    let refused = refusal(
        &mut g,
        Action::GreenLight {
            player: Player::Gold,
        },
    );
    assert!(
        refused.contains("green light needs a complete crossword"),
        "{refused}"
    );
    g.apply(layout(Player::Silver, across("DOG", 0, 5)))
        .unwrap();
    assert_eq!(g.rack_letters(Player::Gold), "");
    let events = g.apply(layout(seat3(), across("EMU", 0, 10))).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Drew { player: Player::Gold, letters } if letters == "AB"))
    );
    assert_eq!(g.rack_letters(Player::Gold), "AB");
}

#[test]
fn the_opening_comes_from_the_table_by_the_number_of_players() {
    use crate::rules::{Opening, OpeningRule};
    let mut rules = crate::rules::RuleSet::preset("classic").unwrap();
    rules.supply.opening = Opening::By(OpeningRule::Table);
    rules.supply.opening_table = vec![25, 17, 15];
    rules.turn.rack_limit = 100;
    for (seats, each) in [(2, Ok(25)), (3, Ok(17)), (4, Ok(15))] {
        assert_eq!(rules.supply.opening_rack(&rules.turn, seats), each);
    }
    let five = rules.supply.opening_rack(&rules.turn, 5).unwrap_err();
    assert!(five.contains("no opening for 5 players"), "{five}");
    rules.supply.opening = Opening::Letters(20);
    assert_eq!(rules.supply.opening_rack(&rules.turn, 5), Ok(20));
}

#[test]
fn at_once_the_grace_period_is_the_only_clock() {
    let flow = FlowOverrides {
        move_seconds: Some(60),
        ..FlowOverrides::default()
    };
    let mut g = at_once_with(["CAT", "DOG", "EMU"], None, flow);
    assert!(g.on_the_clock().is_empty());
    let why = refusal(
        &mut g,
        Action::OutOfTime {
            player: Player::Gold,
        },
    );
    assert!(why.contains("grace period is the only clock"), "{why}");
}

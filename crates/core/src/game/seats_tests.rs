//! More players than two (`seats.count`): one set dealt among them, turns in seat order,
//! a player without letters skipped, the sole highest score winning; and the rules that are
//! played between two refused for more.

use super::*;
use crate::board::Pos;
use crate::rules::{
    CrosswordModel, CrosswordOverrides, DrawModel, Exhaustion, FirstWord, FlowOverrides, PoolModel,
    RuleOverrides, SeatOverrides, SupplyOverrides,
};

/// A 15x15 shared crossword for `seats` players, one set split among them, racks as given
/// (`None`: dealt) and piles empty when racks are given.
fn table(seats: i64, racks: Option<&[&str]>) -> Game {
    let mut map = super::tests::shared_crossword(
        FirstWord::Centre,
        RuleOverrides {
            supply: Some(SupplyOverrides {
                pool: Some(PoolModel::Split),
                draw: Some(DrawModel::RefillHand),
                ..Default::default()
            }),
            flow: Some(FlowOverrides {
                skip_without_letters: Some(true),
                exhaustion: Some(Exhaustion::BothOut),
                ..Default::default()
            }),
            seats: Some(SeatOverrides {
                count: Some(seats),
                ..Default::default()
            }),
            ..Default::default()
        },
    );
    for (i, rack) in racks.unwrap_or_default().iter().enumerate() {
        let seat = Player::seat(i).unwrap();
        map.scenario.racks.insert(seat, (*rack).into());
        map.scenario.pools.insert(seat, String::new());
    }
    super::tests::start(&map, 1)
}

#[test]
fn one_set_is_dealt_among_three_and_turns_go_round() {
    let mut g = table(3, None);
    let seats: Vec<Player> = g.seats().collect();
    assert_eq!(seats.len(), 3);
    let set: i64 = g.rules().letters.tiles.values().map(|t| t.count).sum();
    let held: Vec<usize> = seats
        .iter()
        .map(|&p| g.rack_letters(p).len() + g.pool_letters(p).len())
        .collect();
    assert_eq!(held.iter().sum::<usize>() as i64, set, "one set, all dealt");
    assert!(
        held.iter().max().unwrap() - held.iter().min().unwrap() <= 1,
        "{held:?}"
    );
    let mut turns = Vec::new();
    for _ in 0..4 {
        turns.push(g.to_act());
        g.apply(Action::EndTurn).unwrap();
    }
    let seat3 = Player::seat(2).unwrap();
    assert_eq!(
        turns,
        vec![Player::Gold, Player::Silver, seat3, Player::Gold]
    );
}

#[test]
fn a_player_without_letters_is_skipped_and_the_sole_highest_wins() {
    // Silver holds nothing: after gold, seat 3 plays (silver skipped). Gold plays CAT, seat 3
    // an O below its T (TO, credited to gold, whose T begins it): all are out, and the sole
    // highest score, gold's, wins.
    let seat3 = Player::seat(2).unwrap();
    let mut g = table(3, Some(&["CAT", "", "O"]));
    let at = |x, letter| Placement {
        at: Pos::new(x, 7),
        letter,
    };
    g.apply(Action::Commit {
        letters: vec![at(6, 'C'), at(7, 'A'), at(8, 'T')],
    })
    .unwrap();
    assert_eq!(g.result(), None, "seat 3 still holds letters");
    g.apply(Action::EndTurn).unwrap();
    assert_eq!(g.to_act(), seat3, "silver, without letters, is skipped");
    g.apply(Action::Commit {
        letters: vec![Placement {
            at: Pos::new(8, 8),
            letter: 'O',
        }],
    })
    .unwrap();
    assert_eq!(g.result().map(|r| r.winner), Some(Some(Player::Gold)));
}

/// Table: what more than two players cannot play yet, each refused by name.
#[test]
fn rules_played_between_two_are_refused_for_more() {
    let three = |overrides: RuleOverrides| {
        let mut rules = crate::rules::RuleSet::preset("classic").unwrap();
        rules.overlay(&overrides);
        rules.seats.count = 3;
        rules.validate()
    };
    let separate = three(RuleOverrides::default());
    assert!(
        separate
            .iter()
            .any(|p| p.to_string().contains("crossword.model is Separate")),
        "{separate:?}"
    );
    let shared = RuleOverrides {
        crossword: Some(CrosswordOverrides {
            model: Some(CrosswordModel::Shared),
            ..Default::default()
        }),
        ..Default::default()
    };
    assert_eq!(
        three(shared.clone()),
        Vec::new(),
        "a shared crossword seats three"
    );
    let sudden = RuleOverrides {
        flow: Some(FlowOverrides {
            sudden_death: Some(true),
            ..Default::default()
        }),
        ..shared
    };
    let refused = three(sudden);
    assert!(
        refused
            .iter()
            .any(|p| p.to_string().contains("flow.sudden_death")),
        "{refused:?}"
    );
}

//! Simultaneous play (`flow.simultaneous`): layouts laid anew in one checked step, apart from
//! the others' letters, and green light for a complete crossword, every player drawing.

use super::*;
use crate::rules::{
    FirstWord, FlowOverrides, PoolModel, RuleOverrides, SeatOverrides, SupplyOverrides,
};

/// Three players at once on a 15x15 board, racks as given, one shared pool left to draw.
fn at_once(racks: [&str; 3], simultaneous: bool) -> Game {
    let mut map = super::tests::shared_crossword(
        FirstWord::Anywhere,
        RuleOverrides {
            supply: Some(SupplyOverrides {
                pool: Some(PoolModel::Shared),
                draw: None,
            }),
            flow: Some(FlowOverrides {
                simultaneous: Some(simultaneous),
                ..Default::default()
            }),
            seats: Some(SeatOverrides { count: Some(3) }),
            ..Default::default()
        },
    );
    for (i, rack) in racks.iter().enumerate() {
        map.scenario
            .racks
            .insert(Player::seat(i).unwrap(), (*rack).into());
    }
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

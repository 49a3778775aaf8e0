//! A shared crossword (`crossword.model` Shared): words through anyone's letters, the first
//! word across the centre, no combat, no city needed, letters on the board as the score. Each
//! case is a commit and what it must lead to, through one `check` helper.

use super::*;
use crate::board::Pos;
use crate::rules::{CrosswordModel, CrosswordOverrides, FirstWord, RuleOverrides, Scoring};

/// A 15x15 plain board without cities, under a shared crossword; racks fixed.
fn shared_game(gold: &str, silver: &str) -> Game {
    let mut map = Map::new("shared", 15, 15);
    map.scenario.racks.insert(Player::Gold, gold.into());
    map.scenario.racks.insert(Player::Silver, silver.into());
    map.rules.preset = "classic".into();
    map.rules.overrides = RuleOverrides {
        crossword: Some(CrosswordOverrides {
            model: Some(CrosswordModel::Shared),
            first_word: Some(FirstWord::Centre),
            scoring: Some(Scoring::TilesOnBoard),
            ..Default::default()
        }),
        ..Default::default()
    };
    let rules = map.rule_set().expect("the overrides are sound");
    Game::new(&map, rules, Arc::new(Lexicon::english()), 1)
}

/// `word` placed from `(x, y)` in `dir`, skipping cells that already hold a letter.
fn letters(game: &Game, word: &str, x: u32, y: u32, dir: crate::map::Direction) -> Vec<Placement> {
    word.chars()
        .enumerate()
        .filter_map(|(i, letter)| {
            let at = dir.step(Pos::new(x, y), i as u32)?;
            game.board().letters[at]
                .is_none()
                .then_some(Placement { at, letter })
        })
        .collect()
}

/// Commits `word` for the player to act and checks the outcome: `Ok(())` or the refusal's
/// message containing `refused`.
fn check(
    game: &mut Game,
    word: &str,
    at: (u32, u32),
    dir: crate::map::Direction,
    refused: Option<&str>,
) {
    let placed = letters(game, word, at.0, at.1, dir);
    let before = game.board().letters.clone();
    // What a player is shown before committing agrees with what the commit does: no combat
    // ahead (the editor asked the preview and showed "Combat ahead" in Word Wars).
    if let Ok(preview) = game.preview_commit(&placed) {
        assert!(
            preview.defenders.is_empty(),
            "{word}: the preview shows defenders in a shared crossword"
        );
    }
    let result = game.apply(Action::Commit { letters: placed });
    match (refused, result) {
        (None, Ok(events)) => assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::CombatStarted { .. })),
            "{word}: contact is no attack: {events:?}"
        ),
        (Some(why), Err(e)) => {
            assert!(e.to_string().contains(why), "{word}: {e}");
            assert_eq!(
                game.board().letters,
                before,
                "{word}: a refusal changes nothing"
            );
        }
        (expected, got) => panic!("{word}: expected {expected:?}, got {got:?}"),
    }
}

#[test]
fn a_shared_crossword_is_built_through_anyones_letters() {
    use crate::map::Direction::{Across, Down};
    let mut game = shared_game("CATSHOE", "EATRIND");
    check(
        &mut game,
        "CAT",
        (0, 0),
        Across,
        Some("across the centre cell H8"),
    );
    check(&mut game, "CAT", (6, 7), Across, None);
    game.apply(Action::EndTurn).unwrap();
    // Silver writes down from gold's T: the word runs through the other player's letter.
    check(&mut game, "TEA", (8, 7), Down, None);
    assert!(
        game.words().iter().any(|w| w.word.text == "TEA" && w.valid),
        "{:?}",
        game.words()
    );
    game.apply(Action::EndTurn).unwrap();
    check(
        &mut game,
        "SHOE",
        (0, 0),
        Across,
        Some("must use a letter already on the board"),
    );
    let onto = vec![Placement {
        at: Pos::new(7, 7),
        letter: 'S',
    }];
    let refused = game.apply(Action::Commit { letters: onto });
    assert!(
        matches!(refused, Err(ActionError::Occupied { .. })),
        "{refused:?}"
    );
    assert_eq!(
        game.score(Player::Gold).total,
        3,
        "a point a letter on the board"
    );
    assert_eq!(game.score(Player::Silver).total, 2);
    assert!(
        game.result().is_none(),
        "no city is needed: nobody is conquered"
    );
}

#[test]
fn separate_crosswords_refuse_a_first_word_away_from_a_city() {
    let mut rules = crate::rules::RuleSet::preset("classic").unwrap();
    rules.crossword.first_word = FirstWord::Centre;
    let problems = rules.validate();
    assert!(
        problems.iter().any(|p| p.key == "crossword.first_word"),
        "{problems:?}"
    );
}

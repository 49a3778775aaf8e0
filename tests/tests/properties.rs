//! Properties of random legal games, checked after every action: letters are conserved, the
//! two crosswords never touch, scores are what the board says, and replaying the log gives the
//! same game.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use proptest::prelude::*;
use scryptic::board::{Player, Pos};
use scryptic::game::Game;
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::save::SaveFile;
use scryptic_tests::random_play::RandomPlayer;
use scryptic_tests::root;
use std::sync::{Arc, OnceLock};

fn lexicon() -> Arc<Lexicon> {
    static LEXICON: OnceLock<Arc<Lexicon>> = OnceLock::new();
    LEXICON.get_or_init(|| Arc::new(Lexicon::english())).clone()
}

fn tutorial(preset: &str) -> Map {
    let mut map = Map::load(&root().join("maps/tutorial.ron")).unwrap();
    map.rules.preset = preset.to_string();
    map
}

fn check_invariants(game: &Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        game.letters_in_play() + game.letters_lost(),
        game.initial_letters(),
        "letters are conserved"
    );
    let letters = &game.board().letters;
    for p in letters.positions() {
        let Some(t) = letters[p] else { continue };
        for n in letters.neighbours4(p) {
            prop_assert!(
                letters[n].is_none_or(|u| u.player == t.player),
                "{:?} at {} touches the other crossword at {}",
                t,
                p,
                n
            );
        }
    }
    for player in Player::BOTH {
        let valid_faces: i64 = game
            .words()
            .iter()
            .filter(|w| w.word.player == player && w.valid)
            .map(|w| {
                w.word
                    .text
                    .chars()
                    .map(|c| game.rules().letter_value(c).unwrap_or(0))
                    .sum::<i64>()
            })
            .sum();
        let score = game.score(player);
        prop_assert_eq!(
            score.word,
            valid_faces,
            "word score is the face value of the valid words"
        );
        prop_assert_eq!(score.total, score.word + score.base);
    }
    for w in game.words().iter().filter(|w| w.valid) {
        prop_assert!(
            game.lexicon().contains(&w.word.text),
            "{} is valid but not a word",
            w.word.text
        );
    }
    Ok(())
}

fn same_game(a: &Game, b: &Game) -> bool {
    let cells = |g: &Game| -> Vec<(Pos, Option<scryptic::game::Tile>)> {
        g.board()
            .letters
            .positions()
            .map(|p| (p, g.board().letters[p]))
            .collect()
    };
    cells(a) == cells(b)
        && a.board().terrain == b.board().terrain
        && Player::BOTH.iter().all(|&p| {
            a.score(p) == b.score(p)
                && a.rack_letters(p) == b.rack_letters(p)
                && a.player(p).pool == b.player(p).pool
        })
        && a.to_act() == b.to_act()
        && a.turn() == b.turn()
        && a.result() == b.result()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_legal_games_keep_every_invariant(seed in any::<u64>(), gdd in any::<bool>()) {
        let map = tutorial(if gdd { "gdd-1.6" } else { "classic" });
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut player = RandomPlayer::new(seed);
        let mut commits = 0;
        for _ in 0..160 {
            if game.result().is_some() {
                break;
            }
            let action = player.choose(&game);
            commits += usize::from(matches!(action, scryptic::game::Action::Commit { .. }));
            let applied = game.apply(action.clone());
            prop_assert!(applied.is_ok(), "the random player chose a refused action {:?}: {:?}", action, applied);
            check_invariants(&game)?;
        }
        prop_assert!(commits > 0, "some words were played");
        let (replayed, _) = SaveFile::of(&game).replay(lexicon(), Some(scryptic::ai::spy())).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(same_game(&game, &replayed), "replaying the log gives the same game");
        let text = SaveFile::of(&game).to_ron();
        let reloaded: SaveFile = scryptic::ronfile::options().from_str(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (again, _) = reloaded.replay(lexicon(), Some(scryptic::ai::spy())).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(same_game(&game, &again), "a save written and read back replays to the same game");
    }
}

/// The random games reach the interesting rules: combat, captures and the end of the game.
#[test]
fn random_games_reach_combat_captures_and_the_end() {
    let map = tutorial("classic");
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12u64 {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut player = RandomPlayer::new(seed);
        for _ in 0..400 {
            if game.result().is_some() {
                seen.insert("GameOver".to_string());
                break;
            }
            let events = game
                .apply(player.choose(&game))
                .expect("the random player plays legal moves");
            for e in events {
                let name = format!("{e:?}");
                seen.insert(
                    name.split([' ', '{', '('])
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                );
            }
        }
    }
    for wanted in [
        "CombatStarted",
        "DefenderDefeated",
        "CityCaptured",
        "TokenCaptured",
        "GameOver",
    ] {
        assert!(
            seen.contains(wanted),
            "no random game reached {wanted}: {seen:?}"
        );
    }
}

use super::*;
use crate::board::Pos;
use crate::board::Terrain;
use crate::map::{GenerateOptions, generate};
use std::collections::BTreeSet;

fn english() -> Arc<Lexicon> {
    Arc::new(Lexicon::english())
}

/// A 12x12 generated map with a pair of neutral cities and of tokens, under `preset`.
pub(super) fn small_map(preset: &str) -> Map {
    let mut map = generate(&GenerateOptions {
        name: "T".into(),
        width: 12,
        height: 12,
        seed: 4,
        neutral_city_pairs: 1,
        token_pairs: 1,
    })
    .expect("the generated map has room for its pieces");
    map.rules.preset = preset.to_string();
    map
}

/// A plain 15x15 map under classic rules with one shared crossword whose first word stands
/// as `first_word` says, `more` overrides over that.
pub(super) fn shared_crossword(
    first_word: crate::rules::FirstWord,
    more: crate::rules::RuleOverrides,
) -> Map {
    use crate::rules::{CrosswordModel, CrosswordOverrides};
    let mut map = Map::new("shared", 15, 15);
    map.rules.preset = "classic".into();
    let crossword = more.crossword.clone().unwrap_or_default();
    map.rules.overrides = crate::rules::RuleOverrides {
        crossword: Some(CrosswordOverrides {
            model: Some(CrosswordModel::Shared),
            first_word: Some(first_word),
            ..crossword
        }),
        ..more
    };
    map
}

/// The game of `map` under its own rules, with the English dictionary.
pub(super) fn start(map: &Map, seed: u64) -> Game {
    let rules = map.rule_set().expect("the overrides are sound");
    Game::new(map, rules, english(), seed)
}

fn new_game(preset: &str, seed: u64) -> Game {
    let map = small_map(preset);
    let rules = map.rule_set().unwrap();
    Game::new(&map, rules, english(), seed)
}

#[test]
fn the_same_seed_deals_the_same_pools_and_another_does_not() {
    let (a, b, c) = (
        new_game("classic", 7),
        new_game("classic", 7),
        new_game("classic", 8),
    );
    assert_eq!(a.rack_letters(Player::Gold), b.rack_letters(Player::Gold));
    assert_eq!(a.player(Player::Silver).pool, b.player(Player::Silver).pool);
    assert_ne!(a.player(Player::Gold).pool, c.player(Player::Gold).pool);
    assert_eq!(a.rack_letters(Player::Gold).len(), 9);
    assert_eq!(new_game("gdd-1.6", 7).rack_letters(Player::Gold).len(), 7);
}

#[test]
fn letters_are_counted_from_the_start() {
    let game = new_game("classic", 1);
    assert_eq!(game.initial_letters(), 2 * 98);
    assert_eq!(
        game.letters_in_play() + game.letters_lost(),
        game.initial_letters()
    );
}

#[test]
fn a_refused_preview_or_commit_changes_nothing() {
    let mut game = new_game("classic", 3);
    let before = (
        game.rack_letters(Player::Gold),
        game.board().letters.clone(),
        game.log().len(),
    );
    let bad = vec![
        Placement {
            at: Pos::new(0, 0),
            letter: 'Q',
        },
        Placement {
            at: Pos::new(5, 5),
            letter: 'Z',
        },
    ];
    assert!(game.preview_commit(&bad).is_err());
    assert!(game.apply(Action::Commit { letters: bad }).is_err());
    assert_eq!(
        before,
        (
            game.rack_letters(Player::Gold),
            game.board().letters.clone(),
            game.log().len()
        )
    );
}

struct FixedAdvisor(Vec<Placement>);

impl Advisor for FixedAdvisor {
    fn strongest_placement(&self, _: &Game) -> Option<Vec<Placement>> {
        (!self.0.is_empty()).then(|| self.0.clone())
    }
}

#[test]
fn spies_are_counted_per_game_as_the_preset_allows() {
    let suggestion = vec![Placement {
        at: Pos::new(1, 1),
        letter: 'A',
    }];
    let mut classic = new_game("classic", 1);
    assert_eq!(classic.apply(Action::Spy), Err(ActionError::NoSpy));
    classic.set_advisor(Arc::new(FixedAdvisor(suggestion.clone())));
    for _ in 0..3 {
        let events = classic.apply(Action::Spy).unwrap();
        assert_eq!(
            events,
            vec![Event::SpyReport {
                letters: suggestion.clone()
            }]
        );
    }
    assert_eq!(
        classic.apply(Action::Spy),
        Err(ActionError::NoSpiesLeft {
            used: 3,
            allowed: 3
        })
    );
    assert_eq!(classic.spies_left(Player::Gold), 0);
    assert_eq!(classic.spies_left(Player::Silver), 3);
    let mut gdd = new_game("gdd-1.6", 1);
    gdd.set_advisor(Arc::new(FixedAdvisor(suggestion)));
    assert_eq!(
        gdd.apply(Action::Spy),
        Err(ActionError::NoSpiesLeft {
            used: 0,
            allowed: 0
        })
    );
    let mut nothing = new_game("classic", 1);
    nothing.set_advisor(Arc::new(FixedAdvisor(Vec::new())));
    assert_eq!(
        nothing.apply(Action::Spy),
        Err(ActionError::SpyFoundNothing)
    );
    assert_eq!(
        nothing.spies_left(Player::Gold),
        3,
        "a spy that finds nothing is not spent"
    );
}

/// Gold invoking a `kind` token at `spot` (the spot's id is `spot`).
fn invocation(kind: &str, spot: Pos) -> super::Invocation<'_> {
    super::Invocation {
        kind,
        token: "spot",
        spot,
        player: crate::board::Player::Gold,
    }
}

#[test]
fn the_volcano_grows_a_connected_patch_of_the_given_size_from_the_seed() {
    let game = new_game("classic", 1);
    let spot = Pos::new(6, 6);
    let lava = |seed: u64| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        StandardElementals
            .effect(
                &invocation("volcano", spot),
                game.board(),
                game.rules(),
                &mut rng,
            )
            .unwrap()
    };
    let effect = lava(1);
    let cells: BTreeSet<Pos> = effect
        .terrain
        .iter()
        .map(|&(p, t)| {
            assert_eq!(t, Terrain::Lava);
            p
        })
        .collect();
    assert_eq!(cells.len() as i64, game.rules().tokens.volcano_cells);
    assert!(cells.contains(&spot));
    let mut reached = BTreeSet::from([spot]);
    let mut queue = vec![spot];
    while let Some(p) = queue.pop() {
        for n in game.board().terrain.neighbours4(p) {
            if cells.contains(&n) && reached.insert(n) {
                queue.push(n);
            }
        }
    }
    assert_eq!(reached, cells, "lava grows from the spot without gaps");
    assert_eq!(lava(1), effect);
    assert_ne!(lava(2), effect);
}

#[test]
fn unknown_token_kinds_are_refused_by_the_standard_elementals() {
    let game = new_game("classic", 1);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let effect = StandardElementals.effect(
        &invocation("quake", Pos::new(1, 1)),
        game.board(),
        game.rules(),
        &mut rng,
    );
    assert_eq!(effect, Err(EffectError::UnknownKind));
}

#[test]
fn infinite_pools_never_run_dry() {
    let mut map = small_map("classic");
    map.rules.overrides.letters = Some(crate::rules::LetterOverrides {
        infinite_pool: Some(true),
        ..Default::default()
    });
    let rules = map.rule_set().unwrap();
    let mut game = Game::new(&map, rules, english(), 5);
    assert!(game.player(Player::Gold).pool.is_empty());
    assert_eq!(game.rack_letters(Player::Gold).len(), 9);
    for _ in 0..10 {
        if game.rack_excess(game.active()).1 > 0 {
            let letters: String = game
                .rack_letters(game.active())
                .chars()
                .take(game.rack_excess(game.active()).1)
                .collect();
            game.apply(Action::Discard { letters }).unwrap();
        }
        game.apply(Action::EndTurn).unwrap();
    }
    assert!(
        game.result().is_none(),
        "no exhaustion and no stalemate with infinite pools"
    );
    assert_eq!(
        game.letters_in_play() + game.letters_lost(),
        game.initial_letters()
    );
}

#[test]
fn a_script_can_end_the_game() {
    let mut game = new_game("classic", 1);
    let events = game.end_game(Some(Player::Silver), "silver reached 150".into());
    assert_eq!(game.result().unwrap().winner, Some(Player::Silver));
    assert_eq!(events.len(), 1);
    assert_eq!(game.apply(Action::EndTurn), Err(ActionError::GameOver));
}

#[test]
fn reloaded_rules_apply_from_the_next_action_and_replay() {
    let mut game = new_game("classic", 2);
    let mut rules = game.rules().clone();
    rules.turn.rack_limit = 7;
    rules.turn.start_rack = 7;
    game.apply(Action::ReloadRules {
        rules: Box::new(rules.clone()),
    })
    .unwrap();
    assert_eq!(game.rules().turn.rack_limit, 7);
    assert!(matches!(
        game.apply(Action::EndTurn),
        Err(ActionError::MustDiscard { limit: 7, .. })
    ));
    let mut broken = rules.clone();
    broken.turn.rack_limit = 0;
    let refused = game.apply(Action::ReloadRules {
        rules: Box::new(broken),
    });
    assert!(
        matches!(refused, Err(ActionError::BadReload { .. })),
        "{refused:?}"
    );
    assert_eq!(
        game.rules().turn.rack_limit,
        7,
        "a refused reload changes nothing"
    );
    let replayed = crate::save::SaveFile::of(&game)
        .replay(english(), None)
        .unwrap()
        .0;
    assert_eq!(replayed.rules().turn.rack_limit, 7);
}

#[test]
fn a_reloaded_connotation_list_changes_strength_from_the_next_action() {
    let mut game = new_game("classic", 2);
    assert!(game.lexicon().connotations("TABLE").is_empty());
    game.apply(Action::ReloadConnotations {
        list: "defending".into(),
        words: vec!["table".into(), "wall".into()],
    })
    .unwrap();
    assert_eq!(game.lexicon().connotations("TABLES"), vec!["defending"]);
    assert!(
        game.lexicon().connotations("CASTLE").is_empty(),
        "the list was replaced"
    );
    let refused = game.apply(Action::ReloadConnotations {
        list: "defending".into(),
        words: vec!["Bad Word".into()],
    });
    assert!(matches!(refused, Err(ActionError::BadReload { .. })));
    let replayed = crate::save::SaveFile::of(&game)
        .replay(english(), None)
        .unwrap()
        .0;
    assert_eq!(replayed.lexicon().connotations("TABLE"), vec!["defending"]);
}

#[test]
fn script_awards_saturate_instead_of_wrapping() {
    let mut game = new_game("classic", 1);
    for points in [i64::MAX, i64::MAX, 1] {
        game.script_command(&ScriptCommand::Award {
            player: Player::Gold,
            points,
        })
        .unwrap();
    }
    assert_eq!(game.score(Player::Gold).base, i64::MAX);
    assert_eq!(game.score(Player::Gold).total, i64::MAX);
    for points in [i64::MIN, i64::MIN] {
        game.script_command(&ScriptCommand::Award {
            player: Player::Silver,
            points,
        })
        .unwrap();
    }
    assert_eq!(game.score(Player::Silver).total, i64::MIN);
}

//! The supply models (`supply.pool`, `supply.draw`) and trading (`exchange`), each against
//! the original model's behaviour, through one `check` helper that builds a game under
//! overrides.

use super::*;
use crate::rules::{
    DrawModel, ExchangeOverrides, PoolModel, RuleOverrides, SupplyOverrides, TurnOverrides,
};

fn game_with(overrides: RuleOverrides, seed: u64) -> Game {
    let mut map = super::tests::small_map("classic");
    map.rules.overrides = overrides;
    let rules = map.rule_set().expect("the overrides are sound");
    Game::new(&map, rules, Arc::new(Lexicon::english()), seed)
}

fn supply(pool: PoolModel, draw: DrawModel) -> RuleOverrides {
    RuleOverrides {
        supply: Some(SupplyOverrides {
            pool: Some(pool),
            draw: Some(draw),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Every letter each player holds or will draw, sorted.
fn holdings(game: &Game, player: Player) -> Vec<char> {
    let mut letters: Vec<char> = game
        .rack_letters(player)
        .chars()
        .chain(game.player(player).pool.iter().copied())
        .collect();
    letters.sort_unstable();
    letters
}

/// The rule set's distribution, as a sorted list of letters.
fn one_set(game: &Game) -> Vec<char> {
    let mut letters: Vec<char> = game
        .rules()
        .letters
        .tiles
        .iter()
        .flat_map(|(&c, t)| std::iter::repeat_n(c, usize::try_from(t.count).unwrap_or(0)))
        .collect();
    letters.sort_unstable();
    letters
}

fn conserved(game: &Game) {
    assert_eq!(
        game.letters_in_play() + game.letters_lost(),
        game.initial_letters(),
        "letters are conserved"
    );
}

#[test]
fn each_pool_model_deals_what_it_says() {
    let copy = game_with(supply(PoolModel::CopyEach, DrawModel::PerTurn), 3);
    assert_eq!(holdings(&copy, Player::Gold), one_set(&copy));
    assert_eq!(holdings(&copy, Player::Silver), one_set(&copy));

    let split = game_with(supply(PoolModel::Split, DrawModel::PerTurn), 3);
    let mut both = holdings(&split, Player::Gold);
    both.extend(holdings(&split, Player::Silver));
    both.sort_unstable();
    assert_eq!(both, one_set(&split), "one set between them");
    let (gold, silver) = (
        holdings(&split, Player::Gold).len(),
        holdings(&split, Player::Silver).len(),
    );
    assert_eq!(gold, one_set(&split).len().div_ceil(2));
    assert_eq!(gold + silver, one_set(&split).len());
    conserved(&split);

    let shared = game_with(supply(PoolModel::Shared, DrawModel::PerTurn), 3);
    assert!(shared.player(Player::Gold).pool.is_empty());
    assert_eq!(
        shared.pool_letters(Player::Gold),
        shared.pool_letters(Player::Silver),
        "both draw from one pool"
    );
    let racks = shared.rack_letters(Player::Gold).len() + shared.rack_letters(Player::Silver).len();
    assert_eq!(
        shared.pool_letters(Player::Gold).len() + racks,
        one_set(&shared).len()
    );
    conserved(&shared);
}

#[test]
fn the_original_model_deals_as_it_always_did() {
    let explicit = game_with(supply(PoolModel::CopyEach, DrawModel::PerTurn), 11);
    let default = game_with(RuleOverrides::default(), 11);
    for p in Player::BOTH {
        assert_eq!(explicit.rack_letters(p), default.rack_letters(p));
        assert_eq!(explicit.player(p).pool, default.player(p).pool);
    }
}

#[test]
fn a_shared_pool_is_drawn_by_both_players() {
    let mut game = game_with(supply(PoolModel::Shared, DrawModel::PerTurn), 5);
    let start = game.pool_letters(Player::Gold).len();
    let per_turn = usize::try_from(game.rules().turn.draw_per_turn).unwrap();
    game.apply(Action::EndTurn).unwrap();
    game.apply(Action::EndTurn).unwrap();
    // Silver's first turn draws nothing; gold's second draws from the shared pool.
    assert_eq!(game.pool_letters(Player::Silver).len(), start - per_turn);
    conserved(&game);
}

#[test]
fn refill_hand_tops_the_rack_up_after_each_turn_and_never_draws_at_its_start() {
    let mut overrides = supply(PoolModel::Split, DrawModel::RefillHand);
    overrides.turn = Some(TurnOverrides {
        start_rack: Some(7),
        ..Default::default()
    });
    let mut game = game_with(overrides, 9);
    assert_eq!(game.rack_letters(Player::Gold).len(), 7);
    let rack = game.rack_letters(Player::Gold);
    // Silver's rack is whole, so ending silver's turn draws nothing.
    game.apply(Action::EndTurn).unwrap();
    let events = game.apply(Action::EndTurn).unwrap();
    assert!(!events.iter().any(|e| matches!(e, Event::Drew { .. })));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::TurnStarted { drew, .. } if drew.is_empty())),
        "nothing is drawn at a turn's start"
    );
    assert_eq!(game.rack_letters(Player::Gold), rack);
    // A letter discarded over the limit is not there to refill; take one by a script's hand.
    game.script_command(&ScriptCommand::TakeLetters {
        player: Player::Gold,
        letters: rack[..2].to_string(),
    })
    .unwrap();
    let events = game.apply(Action::EndTurn).unwrap();
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Drew { player: Player::Gold, letters } if letters.len() == 2)
        ),
        "{events:?}"
    );
    assert_eq!(game.rack_letters(Player::Gold).len(), 7);
}

fn trading(points: i64) -> RuleOverrides {
    let mut overrides = supply(PoolModel::Split, DrawModel::RefillHand);
    overrides.exchange = Some(ExchangeOverrides {
        allowed: Some(true),
        opponent_points_per_letter: Some(points),
    });
    overrides
}

#[test]
fn trading_returns_letters_to_the_pool_scores_the_opponent_and_ends_the_turn() {
    let mut game = game_with(trading(1), 2);
    let rack = game.rack_letters(Player::Gold);
    let pool = game.pool_letters(Player::Gold).len();
    let traded: String = rack.chars().take(3).collect();
    let events = game
        .apply(Action::Exchange {
            letters: traded.to_lowercase(),
        })
        .unwrap();
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Exchanged {
            player: Player::Gold,
            count: 3,
            opponent_gain: 3,
            ..
        }
    )));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::TurnEnded {
            player: Player::Gold,
            passed: false
        }
    )));
    assert_eq!(game.active(), Player::Silver);
    assert_eq!(game.score(Player::Silver).base, 3);
    assert_eq!(game.rack_letters(Player::Gold).len(), rack.len());
    assert_eq!(game.pool_letters(Player::Gold).len(), pool);
    assert_eq!(holdings(&game, Player::Gold).len(), rack.len() + pool);
    conserved(&game);
}

#[test]
fn a_refused_trade_changes_nothing() {
    let check = |overrides: RuleOverrides, letters: &str, why: &str| {
        let mut game = game_with(overrides, 2);
        let before = (
            game.rack_letters(Player::Gold),
            game.player(Player::Gold).pool.clone(),
            game.log().len(),
        );
        let refused = game.apply(Action::Exchange {
            letters: letters.into(),
        });
        let Err(ActionError::CannotExchange { reason }) = refused else {
            panic!("{letters}: not refused as a trade: {refused:?}");
        };
        assert!(reason.contains(why), "{reason}");
        let after = (
            game.rack_letters(Player::Gold),
            game.player(Player::Gold).pool.clone(),
            game.log().len(),
        );
        assert_eq!(before, after);
    };
    let rack = game_with(trading(1), 2).rack_letters(Player::Gold);
    let missing = ('A'..='Z')
        .find(|c| !rack.contains(*c))
        .unwrap()
        .to_string();
    check(RuleOverrides::default(), &rack[..1], "no trading");
    check(trading(1), "", "name the letters");
    check(trading(1), &missing, "your rack lacks ");
}

#[test]
fn a_finite_supply_model_refuses_an_infinite_pool() {
    let mut overrides = supply(PoolModel::Split, DrawModel::PerTurn);
    overrides.letters = Some(crate::rules::LetterOverrides {
        infinite_pool: Some(true),
        ..Default::default()
    });
    let mut rules = crate::rules::RuleSet::preset("classic").unwrap();
    rules.overlay(&overrides);
    let problems = rules.validate();
    assert!(
        problems.iter().any(|p| p.key == "supply.pool"),
        "{problems:?}"
    );
}

/// A draw's letters are seen by the player who drew them; anyone else sees how many.
#[test]
fn a_draw_is_seen_only_by_its_player() {
    let turn_started = Event::TurnStarted {
        player: Player::Gold,
        turn: 3,
        drew: "ABC".into(),
    };
    let told = super::describe::describe(&turn_started.seen_by(None));
    assert_eq!(told, "turn 3: gold to play, drew 3 letters");
    let cases = [
        turn_started,
        Event::Drew {
            player: Player::Gold,
            letters: "ABC".into(),
        },
        Event::Exchanged {
            player: Player::Gold,
            count: 3,
            drew: "ABC".into(),
            opponent_gain: 3,
        },
    ];
    for event in cases {
        assert_eq!(event.seen_by(Some(Player::Gold)), event);
        for viewer in [Some(Player::Silver), None] {
            let seen = super::describe::describe(&event.seen_by(viewer));
            assert!(!seen.contains("ABC"), "{viewer:?} sees {seen}");
        }
    }
    let public = Event::TurnEnded {
        player: Player::Gold,
        passed: true,
    };
    assert_eq!(public.seen_by(None), public);
}

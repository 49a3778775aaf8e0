//! The AI: its actions are always legal, the spy finds the strongest placement, and in
//! simulation hard beats normal and normal beats easy.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::ai::simulate::{self, Setup};
use scryptic::ai::spy::strongest;
use scryptic::ai::{AiPlayer, Level, MoveGen, Think};
use scryptic::game::{Action, Event, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::{GenerateOptions, generate};
use scryptic::{Map, Player};
use scryptic_tests::root;
use std::sync::Arc;

fn lexicon() -> Arc<Lexicon> {
    Arc::new(Lexicon::english())
}

fn shipped(name: &str) -> Map {
    Map::load(&root().join("maps").join(name)).expect("the map loads")
}

fn small(seed: u64) -> Map {
    generate(&GenerateOptions {
        name: format!("small {seed}"),
        width: 12,
        height: 12,
        seed,
        neutral_city_pairs: 1,
        token_pairs: 1,
    })
    .expect("the generated map has room for its pieces")
}

/// Plays a whole game between two AIs; every action must be accepted. Returns the game and
/// what happened.
fn play(map: &Map, levels: [Level; 2], seed: u64) -> (Game, Vec<Event>) {
    let mut game = Game::new(map, map.rule_set().unwrap(), lexicon(), seed);
    let mut players = levels.map(|l| AiPlayer::new(l, seed));
    let mut events = Vec::new();
    while game.result().is_none() {
        assert!(
            game.log().len() < 5000,
            "the game does not end: {} {levels:?} seed {seed}, last {:?}",
            map.name,
            &game.log()[game.log().len() - 6..]
        );
        let seat = usize::from(game.to_act() == Player::Silver);
        let action = players[seat].choose(&game);
        match game.apply(action.clone()) {
            Ok(more) => events.extend(more),
            Err(e) => panic!(
                "{:?} AI chose an illegal action on turn {} of {} (seed {seed}): {action:?}: {e}",
                levels[seat],
                game.turn(),
                map.name
            ),
        }
    }
    (game, events)
}

#[test]
fn every_level_only_makes_legal_moves() {
    let mut commits = 0;
    let mut defences = 0;
    let mut tokens = 0;
    let maps = [shipped("tutorial.ron"), small(1), small(2), small(3)];
    for (i, map) in maps.iter().enumerate() {
        for (j, levels) in [
            [Level::Easy, Level::Normal],
            [Level::Hard, Level::Easy],
            [Level::Normal, Level::Hard],
        ]
        .into_iter()
        .enumerate()
        {
            let (game, events) = play(map, levels, (i * 10 + j) as u64);
            commits += game
                .log()
                .iter()
                .filter(|a| matches!(a, Action::Commit { .. }))
                .count();
            defences += game
                .log()
                .iter()
                .filter(|a| matches!(a, Action::Defend { .. }))
                .count();
            tokens += events
                .iter()
                .filter(|e| matches!(e, Event::TokenInvoked { .. }))
                .count();
        }
    }
    assert!(commits > 300, "only {commits} commits");
    assert!(defences > 0, "no AI ever defended");
    assert!(tokens > 0, "no AI ever invoked a token");
}

#[test]
fn the_spy_finds_the_strongest_placement() {
    let map = shipped("duel-24.ron");
    let (mut game, _) = {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), 4);
        let mut ai = AiPlayer::new(Level::Normal, 4);
        while game.turn() < 14 {
            game.apply(ai.choose(&game)).unwrap();
        }
        (game, ())
    };
    let player = game.active();
    let rack = game.rack_letters(player);
    let mut generator = MoveGen::new();
    let best = strongest(&mut generator, &game, player, &rack).expect("some placement");
    let best_attack = game.attack_strength(&best.placements()).unwrap().value;
    let all = generator.all(&game, player, &rack);
    let strongest_of_all = all
        .iter()
        .map(|m| game.attack_strength(&m.placements()).unwrap().value)
        .max()
        .unwrap();
    assert_eq!(
        best_attack,
        strongest_of_all,
        "{} is not the strongest",
        best.word()
    );
    // Through the engine, the spy is counted against the rule set's allowance.
    game.set_advisor(scryptic::ai::spy());
    let allowed = game.rules().turn.spies_per_game;
    for _ in 0..allowed {
        let events = game.apply(Action::Spy).unwrap();
        assert!(
            matches!(&events[..], [Event::SpyReport { letters }] if *letters == best.placements())
        );
    }
    assert!(game.apply(Action::Spy).is_err(), "the spies are used up");
}

fn wins(map: &Map, levels: [Level; 2], games: usize) -> [usize; 2] {
    let setup = Setup {
        map: Arc::new(map.clone()),
        rules: map.rule_set().unwrap(),
        lexicon: lexicon(),
        levels: levels.to_vec(),
        thinks: Vec::new(),
        first_seed: 100,
        games,
        max_actions: 5000,
        start: None,
    };
    let report = simulate::report(&simulate::run(&setup, &|_| {}));
    assert_eq!(report.unfinished, 0);
    [report.ai_wins[0].count, report.ai_wins[1].count]
}

/// Fixed seeds make these exact; the margins leave room for changes to the AI that keep the
/// levels in order. (Measured on these seeds: normal won 16 of 16 against easy, hard 12 of 16
/// against normal.)
#[test]
fn hard_beats_normal_and_normal_beats_easy() {
    let map = shipped("duel-24.ron");
    let [normal, easy] = wins(&map, [Level::Normal, Level::Easy], 16);
    assert!(
        normal >= 13,
        "normal won {normal} of 16 against easy ({easy})"
    );
    let [hard, normal] = wins(&map, [Level::Hard, Level::Normal], 16);
    assert!(
        hard >= 9 && hard > normal,
        "hard won {hard} of 16 against normal ({normal})"
    );
}

/// A 15x15 plain board without cities under a shared crossword, one set of letters split
/// between the players, hands refilled (the shape of Word Wars' rules).
fn shared_board() -> Map {
    let mut map = Map::new("shared 15", 15, 15);
    map.rules.preset = "classic".into();
    map.rules.overrides = scryptic::rules::RuleOverrides {
        crossword: Some(scryptic::rules::CrosswordOverrides {
            model: Some(scryptic::rules::CrosswordModel::Shared),
            first_word: Some(scryptic::rules::FirstWord::Centre),
            scoring: Some(scryptic::rules::Scoring::TilesOnBoard),
            ..Default::default()
        }),
        supply: Some(scryptic::rules::SupplyOverrides {
            pool: Some(scryptic::rules::PoolModel::Split),
            draw: Some(scryptic::rules::DrawModel::RefillHand),
            ..Default::default()
        }),
        turn: Some(scryptic::rules::TurnOverrides {
            start_rack: Some(7),
            rack_limit: Some(7),
            ..Default::default()
        }),
        ..Default::default()
    };
    map
}

/// On a shared crossword the move generator builds through anyone's letters and places only
/// on empty cells: every move it finds is one the engine accepts, and the AIs play a whole
/// game of legal moves in which words cross the other player's letters.
#[test]
fn the_move_generator_builds_a_shared_crossword() {
    let map = shared_board();
    let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), 4);
    let mut generator = MoveGen::new();
    let first = generator.all(&game, Player::Gold, &game.rack_letters(Player::Gold));
    assert!(!first.is_empty(), "a first word across the centre");
    let centre = game.centre_cell();
    assert!(first.iter().all(|m| m.key().covers(centre)));
    for m in &first {
        let mut copy = game.clone();
        copy.apply(Action::Commit {
            letters: m.placements(),
        })
        .unwrap_or_else(|e| panic!("{} refused: {e}", m.word()));
    }
    game.apply(Action::Commit {
        letters: first[0].placements(),
    })
    .unwrap();
    game.apply(Action::EndTurn).unwrap();
    let second = generator.all(&game, Player::Silver, &game.rack_letters(Player::Silver));
    assert!(!second.is_empty(), "silver builds on gold's word");
    for m in second.iter().take(200) {
        let mut copy = game.clone();
        copy.apply(Action::Commit {
            letters: m.placements(),
        })
        .unwrap_or_else(|e| panic!("{} refused: {e}", m.word()));
    }
    let (end, events) = play(&map, [Level::Normal, Level::Hard], 4);
    let commits = events
        .iter()
        .filter(|e| matches!(e, Event::WordCommitted { .. }))
        .count();
    assert!(commits >= 6, "{commits} words in the game");
    let mixed = end.words().into_iter().any(|w| {
        let owners: std::collections::BTreeSet<Player> = w
            .word
            .key
            .cells()
            .filter_map(|c| end.board().letters[c].map(|t| t.player))
            .collect();
        owners.len() == 2
    });
    assert!(mixed, "a word runs through both players' letters");
}

/// Under Word Wars' flow (no passing, one play a turn, trading at a point a letter,
/// forfeiting, a player out of letters skipped until both are out) the AIs play whole games
/// of legal actions that end.
#[test]
fn the_ai_plays_a_race_without_passing() {
    let mut map = shared_board();
    map.rules.overrides.flow = Some(scryptic::rules::FlowOverrides {
        may_pass: Some(false),
        one_play_per_turn: Some(true),
        skip_without_letters: Some(true),
        exhaustion: Some(scryptic::rules::Exhaustion::BothOut),
        forfeit: Some(true),
        exhaustion_winner: Some(scryptic::rules::ExhaustionWinner::Draw),
        no_word_ends_turns_in_a_row: Some(true),
        sudden_death: Some(true),
        ..Default::default()
    });
    map.rules.overrides.exchange = Some(scryptic::rules::ExchangeOverrides {
        allowed: Some(true),
        opponent_points_per_letter: Some(1),
    });
    for seed in 1..=3 {
        let (game, events) = play(&map, [Level::Normal, Level::Easy], seed);
        assert!(game.result().is_some());
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::TurnEnded { passed: true, .. })),
            "nobody passed (seed {seed})"
        );
    }
}

/// No peeking (issue 26): what the AI does depends only on what its side sees. On games that
/// differ only in what it cannot see (the other rack, the piles' order, chance), every level
/// does the same; and the games it is given differ indeed.
#[test]
fn the_ai_plays_the_same_whatever_it_cannot_see() {
    let map = shipped("duel-24.ron");
    let mut differed = 0;
    for (seed, actions) in [(3, 8), (4, 20), (5, 36)] {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut normal = AiPlayer::new(Level::Normal, seed);
        while game.log().len() < actions && game.result().is_none() {
            game.apply(normal.choose(&game)).unwrap();
        }
        let me = game.to_act();
        let other = if me == Player::Gold {
            Player::Silver
        } else {
            Player::Gold
        };
        let worlds: Vec<Game> = (0..3)
            .map(|k| game.sample_for(me, &mut scryptic_tests::rng(k)))
            .collect();
        for world in &worlds {
            // What `me` sees is the same in every world.
            assert_eq!(world.rack_letters(me), game.rack_letters(me));
            assert_eq!(world.board().letters, game.board().letters);
            assert_eq!(world.score(me), game.score(me));
            let sorted = |g: &Game, p: Player| {
                let mut all: Vec<char> = g.rack_letters(p).chars().collect();
                all.extend(g.pool_letters(p).iter());
                all.sort_unstable();
                all
            };
            assert_eq!(sorted(world, other), sorted(&game, other));
            assert_eq!(sorted(world, me), sorted(&game, me));
            let hidden = |g: &Game| (g.rack_letters(other), g.pool_letters(other).clone());
            differed += usize::from(hidden(world) != hidden(&game));
        }
        let ais = [
            (Level::Easy, Think::Off),
            (Level::Normal, Think::Off),
            (Level::Hard, Think::Off),
            (Level::Hard, Think::Samples(2)),
        ];
        for (level, think) in ais {
            let ai = || AiPlayer::new(level, 9).thinking(think);
            let truth = ai().choose(&game);
            for world in &worlds {
                let seen = ai().choose(world);
                assert_eq!(
                    seen, truth,
                    "{level:?} thinking {think} at {actions} actions (seed {seed})"
                );
            }
        }
    }
    assert_eq!(
        differed, 9,
        "the other's rack and pile were dealt again in every world"
    );
}

/// Letters `game` has left to place, every seat's rack and pile together.
fn letters_left(game: &Game) -> usize {
    (game.seats())
        .map(|p| game.rack_letters(p).chars().count() + game.pool_letters(p).len())
        .sum()
}

/// No peeking where the hard level plays the game out (issue 55): in Word Wars' endgame, on
/// games that differ only in what the seat to act cannot see, every level does the same, and
/// the hard level's endgame search does play out there.
#[test]
fn the_endgame_is_played_out_only_in_worlds_the_seat_might_be_in() {
    let mut tested = 0;
    for seed in [3, 4, 5] {
        let mut scripted = scryptic_tests::pack_game("word-wars", seed, &[]);
        let mut normal = AiPlayer::new(Level::Normal, seed);
        while letters_left(scripted.game()) > 20 && scripted.game().result().is_none() {
            let action = normal.choose(scripted.game());
            scripted.apply(action).unwrap();
        }
        let game = scripted.game().clone();
        if game.result().is_some() {
            continue;
        }
        let me = game.to_act();
        let worlds: Vec<Game> = (0..3)
            .map(|k| game.sample_for(me, &mut scryptic_tests::rng(k)))
            .collect();
        for level in Level::ALL {
            let truth = AiPlayer::new(level, 9).choose(&game);
            for world in &worlds {
                let seen = AiPlayer::new(level, 9).choose(world);
                assert_eq!(seen, truth, "{level:?}, Word Wars seed {seed}");
            }
        }
        tested += 1;
    }
    assert!(tested >= 2, "the endgame was reached in {tested} games");
}

/// No peeking at once (issue 55): in Lexicon Crossing every level's crossword, light and
/// jaywalk depend only on the seat's own tiles and region, not on the others' tiles or the
/// pool's order.
#[test]
fn a_crossword_at_once_is_chosen_from_the_seats_own_tiles_only() {
    let mut scripted = scryptic_tests::pack_game("lexicon-crossing", 5, &[("players", "3")]);
    let seats: Vec<Player> = scripted.game().seats().collect();
    let mut ais: Vec<AiPlayer> = seats
        .iter()
        .map(|_| AiPlayer::new(Level::Normal, 5))
        .collect();
    for _ in 0..12 {
        let game = scripted.game();
        let next = (seats.iter().zip(&mut ais)).find_map(|(&p, ai)| ai.choose_at_once(game, p));
        let Some(action) = next else {
            break;
        };
        scripted.apply(action).unwrap();
    }
    let game = scripted.game().clone();
    for &me in &seats {
        let worlds: Vec<Game> = (0..3)
            .map(|k| game.sample_for(me, &mut scryptic_tests::rng(k)))
            .collect();
        for level in Level::ALL {
            let truth = AiPlayer::new(level, 9).choose_at_once(&game, me);
            for world in &worlds {
                let seen = AiPlayer::new(level, 9).choose_at_once(world, me);
                assert_eq!(seen, truth, "{level:?} for {me}");
            }
        }
    }
}

/// The hard level's simulation step: with worlds to think in, it sometimes plays another of
/// its best candidates than the one best by the immediate outcome (so the step is not idle),
/// the same one every run, and always a legal one.
#[test]
fn thinking_plays_candidates_on_in_sampled_worlds() {
    let map = shipped("duel-24.ron");
    let mut changed = 0;
    let mut positions = 0;
    for seed in 20..22 {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut normal = AiPlayer::new(Level::Normal, seed);
        // Past the opening, where the best first words leave little to weigh.
        while game.log().len() < 100 && game.result().is_none() {
            let mid_game = game.log().len() >= 40;
            let before = game.committed_this_turn() || game.to_act() != game.active();
            if mid_game && !before {
                positions += 1;
                let quick = AiPlayer::new(Level::Hard, seed).choose(&game);
                let thinking = || AiPlayer::new(Level::Hard, seed).thinking(Think::Samples(3));
                let thought = thinking().choose(&game);
                assert_eq!(thought, thinking().choose(&game), "the same every run");
                assert!(game.clone().apply(thought.clone()).is_ok(), "{thought:?}");
                changed += usize::from(thought != quick);
            }
            game.apply(normal.choose(&game)).unwrap();
        }
    }
    assert!(
        changed > 0 && changed < positions,
        "thinking changed {changed} of {positions} choices"
    );
}

/// With time to think, the hard level lifts a word of its own when the letters back on its
/// rack make a better placement, and then plays in the same turn: never two lifts in a turn,
/// never a lift followed by a pass.
#[test]
fn the_thinking_hard_level_lifts_a_word_to_play_a_better_one() {
    let map = shipped("duel-24.ron");
    let mut lifted_and_played = 0;
    for seed in 100_000..100_004 {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut players = [
            AiPlayer::new(Level::Hard, seed).thinking(Think::Samples(2)),
            AiPlayer::new(Level::Normal, seed),
        ];
        let (mut lifted, mut played) = (false, false);
        while game.result().is_none() && game.log().len() < 400 {
            let hard_to_act = game.to_act() == Player::Gold;
            let action = players[game.to_act().index()].choose(&game);
            match &action {
                _ if !hard_to_act => {}
                Action::Redeploy { .. } => {
                    assert!(!lifted, "two lifts in one turn (seed {seed})");
                    lifted = true;
                }
                Action::Commit { .. } if lifted => {
                    played = true;
                    lifted_and_played += 1;
                }
                Action::EndTurn => {
                    assert!(played || !lifted, "a lift and no word (seed {seed})");
                    (lifted, played) = (false, false);
                }
                _ => {}
            }
            game.apply(action).unwrap();
        }
        if lifted_and_played > 0 {
            break;
        }
    }
    assert!(
        lifted_and_played > 0,
        "a word was lifted to play a better one"
    );
}

/// The hard level spends a token whose effect costs it nothing (held, it takes a rack slot);
/// the normal level keeps it, spending only a token whose effect leaves it better off.
#[test]
fn the_hard_level_spends_tokens_that_cost_it_nothing() {
    let map = shipped("duel-24.ron");
    for seed in 0..40 {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut hard = AiPlayer::new(Level::Hard, seed);
        while game.result().is_none() && game.log().len() < 400 {
            if let Some(token) = neutral_token(&game) {
                let chose = AiPlayer::new(Level::Hard, seed).choose(&game);
                assert_eq!(chose, Action::Invoke { token }, "hard spends it");
                let normal = AiPlayer::new(Level::Normal, seed).choose(&game);
                assert!(
                    !matches!(normal, Action::Invoke { .. }),
                    "normal keeps it: {normal:?}"
                );
                return;
            }
            game.apply(hard.choose(&game)).unwrap();
        }
    }
    panic!("no game of 40 had the hard level holding a token whose effect changes nothing");
}

/// The one token the player to move holds at the start of their turn, if spending it (an
/// effect without chance: not a volcano) leaves their worth exactly as it is.
fn neutral_token(game: &Game) -> Option<String> {
    let me = game.to_act();
    let mut held = game.player(me).tokens();
    let (Some((id, kind)), None) = (held.next(), held.next()) else {
        return None;
    };
    let fresh = me == game.active() && !game.committed_this_turn() && game.rack_excess(me).1 == 0;
    if !fresh || kind == "volcano" {
        return None;
    }
    let now = scryptic::ai::eval::value(game, me);
    let spent = scryptic::ai::eval::after(
        game,
        Action::Invoke {
            token: id.to_string(),
        },
    )?;
    (scryptic::ai::eval::value(&spent, me) == now).then(|| id.to_string())
}

/// Gold's first word SEAT laid from its capital in the corner of an 8x8 board of lava (classic
/// rules, which allow more than one word a turn), OEEN left on its rack, where the only land
/// left is two cells below the T (a second word can only go down from it: TOE, TEN, TEE, TON);
/// with `town`, a neutral town lies under the E of TOE.
fn after_a_first_word(town: bool) -> Game {
    let town = if town {
        r#"(id: "millbrook", name: "Millbrook", at: (x: 3, y: 2), owner: Neutral),"#
    } else {
        ""
    };
    let text = format!(
        r#"(
            version: 1,
            name: "A second word",
            size: (width: 8, height: 8),
            terrain: ["........", "xxx.xxxx", "xxx.xxxx", "xxxxxxxx", "xxxxxxxx", "xxxxxxxx", "xxxxxxx.", "xxxxxx.."],
            cities: [
                (id: "aurum", name: "Aurum", at: (x: 0, y: 0), owner: Gold),
                {town}
                (id: "argentum", name: "Argentum", at: (x: 7, y: 7), owner: Silver),
            ],
            rules: (preset: "classic"),
            scenario: (racks: {{Gold: "SEATOEEN", Silver: "AEIOU"}}, pools: {{Gold: "RST", Silver: "RST"}}),
        )"#
    );
    let map = Map::from_text(std::path::Path::new("second-word.ron"), &text).unwrap();
    let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), 1);
    let seat = scryptic::game::notation::parse_command(&game, "commit A1 across SEAT").unwrap();
    game.apply(seat).unwrap();
    game
}

/// Where the rules allow more than one word a turn, the hard level plays another when it gains
/// well beyond its letters' worth (here a town in reach), and otherwise keeps its letters for
/// later turns; the normal level plays one word a turn.
#[test]
fn the_hard_level_plays_a_second_word_when_it_takes_something() {
    let game = after_a_first_word(true);
    let second = AiPlayer::new(Level::Hard, 1).choose(&game);
    let Action::Commit { letters } = &second else {
        panic!("hard ends its turn with the town in reach: {second:?}");
    };
    let mut taken = game.clone();
    let events = taken.apply(second.clone()).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::CityCaptured { .. })),
        "the second word {letters:?} takes the town"
    );
    assert_eq!(
        AiPlayer::new(Level::Normal, 1).choose(&game),
        Action::EndTurn,
        "normal plays one word a turn"
    );
    let plain = after_a_first_word(false);
    assert_eq!(
        AiPlayer::new(Level::Hard, 1).choose(&plain),
        Action::EndTurn,
        "with nothing to take, hard keeps OEEN for later turns"
    );
}

/// Pressing an attack toward a capital when a conquest is in reach: gold's SOT, laid beside
/// silver's TO on its only city, is repelled (3 against 2 + 2 on its city), which leaves TO
/// weaker by 3 until gold's turn ends; with TSAE left, the hard level attacks again in the
/// same turn and takes the city (SOTS over the T), winning by conquest. The normal level,
/// one word a turn, lets the moment pass.
#[test]
fn the_hard_level_presses_a_repelled_attack_to_a_conquest() {
    let map = Map::from_text(
        std::path::Path::new("press.ron"),
        r#"(
            version: 1,
            name: "Press the attack",
            size: (width: 6, height: 6),
            terrain: ["......", "......", "......", "......", "......", "......"],
            cities: [
                (id: "aurum", name: "Aurum", at: (x: 0, y: 0), owner: Gold),
                (id: "argentum", name: "Argentum", at: (x: 0, y: 3), owner: Silver),
            ],
            rules: (preset: "classic"),
            scenario: (
                words: [
                    (player: Gold, at: (x: 0, y: 0), dir: Down, text: "SO"),
                    (player: Silver, at: (x: 0, y: 3), dir: Across, text: "TO"),
                ],
                racks: {Gold: "TTSAE", Silver: "AEIOU"},
                pools: {Gold: "RST", Silver: "RST"},
            ),
        )"#,
    )
    .unwrap();
    let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), 1);
    let sot = scryptic::game::notation::parse_command(&game, "commit A1 down SOT").unwrap();
    let events = settled(&mut game, sot);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::AttackRepelled { .. })),
        "SOT is repelled: {events:?}"
    );
    let pressed = AiPlayer::new(Level::Hard, 1).choose(&game);
    let mut conquered = game.clone();
    settled(&mut conquered, pressed.clone());
    let result = conquered.result().map(|r| (r.winner, r.reason.clone()));
    assert!(
        matches!(
            result,
            Some((
                Some(Player::Gold),
                scryptic::game::EndReason::Conquest { .. }
            ))
        ),
        "hard's {pressed:?} ends in {result:?}"
    );
    assert_eq!(
        AiPlayer::new(Level::Normal, 1).choose(&game),
        Action::EndTurn
    );
}

/// Applies `action` and, if a combat then waits for the defender's order, the engine's own
/// order; the events of both.
fn settled(game: &mut Game, action: Action) -> Vec<Event> {
    let mut events = game.apply(action).unwrap();
    if game.to_act() != game.active() && game.result().is_none() {
        events.extend(game.apply(Action::Defend { order: None }).unwrap());
    }
    events
}

/// A trial copy (what the AI weighs placements on) plays on exactly as the game does: the same
/// events, board, racks, piles, scores and result after every action of whole games, a volcano
/// among them (its spread drawn from the game's chance); only its log starts empty.
#[test]
fn a_trial_copy_plays_on_as_the_game_does() {
    let map = shipped("duel-24.ron");
    let mut volcanoes = 0;
    for seed in 0..16 {
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
        let mut players = [
            AiPlayer::new(Level::Hard, seed),
            AiPlayer::new(Level::Hard, seed),
        ];
        while game.result().is_none() {
            let action = players[game.to_act().index()].choose(&game);
            let mut trial = game.trial_copy();
            let events = game.apply(action.clone()).unwrap();
            assert_eq!(trial.apply(action.clone()).unwrap(), events);
            assert_eq!(trial.board().letters, game.board().letters);
            assert_eq!(trial.scores(), game.scores());
            for seat in [Player::Gold, Player::Silver] {
                assert_eq!(trial.rack_letters(seat), game.rack_letters(seat));
                assert_eq!(trial.pool_letters(seat), game.pool_letters(seat));
            }
            assert_eq!(
                (trial.result().cloned(), trial.active(), trial.turn()),
                (game.result().cloned(), game.active(), game.turn())
            );
            assert_eq!(trial.log(), [action]);
            volcanoes += events
                .iter()
                .filter(|e| matches!(e, Event::TokenInvoked { kind, .. } if kind == "volcano"))
                .count();
        }
        if volcanoes > 0 {
            return;
        }
    }
    panic!("no volcano in sixteen games");
}

/// The AI counts each outcome's score beside the position it came from, walking only the rows
/// and columns that differ (`Game::scores_beside`): after every action of whole games (commits
/// with combat, further words, redeploys, tokens, ends of turn that clear fragments) and for
/// every placement the AI weighs, under both presets, the count beside is the score counted
/// afresh.
#[test]
fn a_score_counted_beside_the_position_before_is_the_score() {
    let mut checked = [0usize; 2];
    for (p, preset) in ["classic", "gdd-1.6"].into_iter().enumerate() {
        let mut map = shipped("duel-24.ron");
        map.rules.preset = preset.into();
        for seed in 0..3 {
            let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon(), seed);
            let mut players = [
                AiPlayer::new(Level::Hard, seed),
                AiPlayer::new(Level::Normal, seed),
            ];
            let mut generator = MoveGen::new();
            while game.result().is_none() {
                if game.to_act() == game.active() && game.turn().is_multiple_of(5) {
                    checked[p] += check_outcomes_beside(&game, &mut generator);
                }
                let action = players[game.to_act().index()].choose(&game);
                let before = game.clone();
                game.apply(action.clone()).unwrap();
                let beside = game.scores_beside(&before, &before.scores());
                assert_eq!(beside, game.scores(), "{preset}, seed {seed}: {action:?}");
                checked[p] += 1;
            }
        }
    }
    assert!(checked.iter().all(|&n| n > 500), "{checked:?}");
}

/// Checks the score beside `game` of every placement of the active player's rack played out,
/// its combat fought in the engine's order; answers how many were checked.
fn check_outcomes_beside(game: &Game, generator: &mut MoveGen) -> usize {
    let player = game.active();
    let scores = game.scores();
    let moves = generator.all(game, player, &game.rack_letters(player));
    let mut checked = 0;
    for m in moves.iter().step_by(5) {
        let mut next = game.clone();
        let commit = Action::Commit {
            letters: m.placements(),
        };
        if next.apply(commit).is_err() {
            continue;
        }
        if next.to_act() != next.active() && next.result().is_none() {
            next.apply(Action::Defend { order: None }).unwrap();
        }
        assert_eq!(next.scores_beside(game, &scores), next.scores(), "{m:?}");
        checked += 1;
    }
    checked
}

/// Well ahead, the hard level presses toward the cities the opponent holds (`PRESS_LEAD`), and
/// takes them all: a conquest ends the game while it leads. On these seeds hard conquers easy
/// in 31 turns (seed 3); without the press no game of 400 against easy ended by conquest.
#[test]
fn the_hard_level_well_ahead_presses_to_a_conquest() {
    let map = shipped("duel-24.ron");
    let setup = Setup {
        map: Arc::new(map.clone()),
        rules: map.rule_set().unwrap(),
        lexicon: lexicon(),
        levels: vec![Level::Hard, Level::Easy],
        thinks: Vec::new(),
        first_seed: 1,
        games: 4,
        max_actions: 5000,
        start: None,
    };
    let records = simulate::run(&setup, &|_| {});
    let conquests: Vec<_> = (records.iter())
        .filter(|r| r.reason == "conquest")
        .map(|r| (r.seed, r.winner.map(|w| r.seats[w.index()])))
        .collect();
    assert_eq!(conquests, [(3, Some(Level::Hard))], "{records:?}");
}

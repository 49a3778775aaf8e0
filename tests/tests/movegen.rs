//! The move generator against brute force: on many small random boards (generated maps after
//! random play, so both players' letters, overlaps, every terrain and captured cities occur),
//! the generator finds exactly the placements the engine accepts, each once.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use scryptic::ai::MoveGen;
use scryptic::game::{Game, Placement};
use scryptic::lexicon::Lexicon;
use scryptic::map::Direction;
use scryptic::map::{GenerateOptions, generate};
use scryptic::{Map, Pos};
use scryptic_tests::random_play::RandomPlayer;
use std::collections::BTreeSet;
use std::sync::Arc;

type PlacementSet = BTreeSet<Vec<(u32, u32, char)>>;

fn key(placements: &[Placement]) -> Vec<(u32, u32, char)> {
    let mut k: Vec<(u32, u32, char)> = placements
        .iter()
        .map(|p| (p.at.x, p.at.y, p.letter))
        .collect();
    k.sort();
    k
}

/// Every distinct ordering of `k` letters chosen from `rack`.
fn arrangements(rack: &[char], k: usize) -> BTreeSet<Vec<char>> {
    fn go(rest: &mut Vec<char>, k: usize, now: &mut Vec<char>, out: &mut BTreeSet<Vec<char>>) {
        if now.len() == k {
            out.insert(now.clone());
            return;
        }
        for i in 0..rest.len() {
            let c = rest.remove(i);
            now.push(c);
            go(rest, k, now, out);
            now.pop();
            rest.insert(i, c);
        }
    }
    let mut out = BTreeSet::new();
    go(&mut rack.to_vec(), k, &mut Vec::new(), &mut out);
    out
}

/// Every placement the engine accepts: from every cell, in both directions, the rack's
/// letters on the next cells that hold no own letter (a legal placement's letters are always
/// so), in every order.
fn brute_force(game: &Game, rack: &[char]) -> PlacementSet {
    let player = game.active();
    let board = game.board();
    let own = |p: Pos| board.letters[p].is_some_and(|t| t.player == player);
    let mut found = PlacementSet::new();
    for start in board.terrain.positions() {
        if own(start) {
            continue;
        }
        for dir in [Direction::Across, Direction::Down] {
            let cells: Vec<Pos> = (0..)
                .map_while(|i| dir.step(start, i).filter(|&p| board.terrain.contains(p)))
                .filter(|&p| !own(p))
                .take(rack.len())
                .collect();
            for k in 1..=cells.len() {
                for letters in arrangements(rack, k) {
                    let placements: Vec<Placement> = cells[..k]
                        .iter()
                        .zip(&letters)
                        .map(|(&at, &letter)| Placement { at, letter })
                        .collect();
                    if game.check_commit(&placements).is_ok() {
                        found.insert(key(&placements));
                    }
                }
            }
        }
    }
    found
}

fn generated(seed: u64, size: u32) -> Map {
    generate(&GenerateOptions {
        name: format!("test {seed}"),
        width: size,
        height: size,
        seed,
        neutral_city_pairs: 1,
        token_pairs: 0,
    })
    .expect("the generated map has room for its pieces")
}

/// Compares the generator with brute force for the player to move, with up to four letters
/// of their rack; returns how many placements there were.
fn check(game: &Game, rng: &mut ChaCha8Rng, generator: &mut MoveGen) -> usize {
    let mut rack: Vec<char> = game.rack_letters(game.active()).chars().collect();
    rack.shuffle(rng);
    rack.truncate(4);
    check_rack(game, &rack, generator).len()
}

/// Compares the generator with brute force for the player to move and `rack`; returns the
/// placements.
fn check_rack(game: &Game, rack: &[char], generator: &mut MoveGen) -> PlacementSet {
    let rack_text: String = rack.iter().collect();
    let mut generated = PlacementSet::new();
    let mut repeats = Vec::new();
    generator.generate(game, game.active(), &rack_text, &mut |m| {
        if !generated.insert(key(&m.placements())) {
            repeats.push(m.word().to_string());
        }
    });
    assert!(repeats.is_empty(), "found twice: {repeats:?}");
    let expected = brute_force(game, rack);
    let missing: Vec<_> = expected.difference(&generated).take(5).collect();
    let extra: Vec<_> = generated.difference(&expected).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "rack {rack_text} for {:?} on turn {} of {}:\nmissing {missing:?}\nextra {extra:?}",
        game.active(),
        game.turn(),
        game.map().name,
    );
    expected
}

#[test]
fn the_generator_finds_exactly_what_brute_force_finds() {
    let lexicon = Arc::new(Lexicon::english());
    let mut generator = MoveGen::new();
    let mut positions = 0;
    let mut placements = 0;
    for seed in 0..12 {
        let map = generated(seed, 8 + (seed % 3) as u32);
        let mut game = Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), seed);
        let mut player = RandomPlayer::new(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let stops: BTreeSet<usize> = (0..4).map(|_| rng.random_range(0..60)).collect();
        for step in 0..60 {
            if game.result().is_some() {
                break;
            }
            if stops.contains(&step) && game.to_act() == game.active() {
                placements += check(&game, &mut rng, &mut generator);
                positions += 1;
            }
            game.apply(player.choose(&game)).unwrap();
        }
    }
    assert!(positions >= 30, "only {positions} positions were compared");
    assert!(placements > 1000, "only {placements} placements in all");
}

/// Left parts that the dictionary only just lets through: before an own word AS, words whose
/// first letters have no longer continuation than the rest of the word (BW- has nothing
/// longer than BWANAS), so that pruning left parts by what must follow them is checked at
/// its edge.
#[test]
fn left_parts_are_kept_as_long_as_a_word_can_follow() {
    use scryptic::map::PlacedWord;
    use scryptic::{Owner, Player};
    let lexicon = Arc::new(Lexicon::english());
    let mut map = Map::new("Left parts", 10, 3);
    map.cities = vec![
        scryptic_tests::city("gold", 8, 1, Owner::Gold),
        scryptic_tests::city("silver", 0, 0, Owner::Silver),
    ];
    map.scenario.words = vec![PlacedWord {
        player: Player::Gold,
        at: Pos::new(8, 1),
        dir: Direction::Across,
        text: "AS".into(),
    }];
    let mut generator = MoveGen::new();
    for (rack, word) in [
        ("BWAN", "BWANAS"),
        ("BAJAD", "BAJADAS"),
        ("FAJIT", "FAJITAS"),
        ("CUEST", "CUESTAS"),
    ] {
        // The engine checks placements against the player's own rack.
        map.scenario.racks.insert(Player::Gold, rack.into());
        let game = Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), 1);
        let rack: Vec<char> = rack.chars().collect();
        let found = check_rack(&game, &rack, &mut generator);
        let start = 10 - word.len() as u32;
        let expected: Vec<(u32, u32, char)> = word
            .chars()
            .take(word.len() - 2)
            .enumerate()
            .map(|(i, letter)| (start + i as u32, 1, letter))
            .collect();
        assert!(found.contains(&expected), "{word} not found");
    }
}

#[test]
fn the_first_word_must_cover_an_owned_city() {
    let lexicon = Arc::new(Lexicon::english());
    let map = generated(3, 9);
    let game = Game::new(&map, map.rule_set().unwrap(), lexicon, 3);
    let cities: Vec<Pos> = game
        .board()
        .cities
        .iter()
        .filter(|c| c.owner == scryptic::Owner::from(game.active()))
        .map(|c| c.at)
        .collect();
    let moves = MoveGen::new().all(&game, game.active(), "AEINRST");
    assert!(!moves.is_empty());
    for m in &moves {
        assert!(
            m.cells().any(|(at, _, _)| cities.contains(&at)),
            "{} at {:?} covers no owned city",
            m.word(),
            m.start
        );
    }
}

/// The spy's bounded search finds what weighing every placement finds: the highest attack
/// strength, then face value. Racks are the player's own and longer ones made up (the spy is
/// also asked about racks that are not in play), under both presets (mountains weigh letter
/// by letter in one, the whole word in the other; water weakens in both).
#[test]
fn the_spy_finds_what_weighing_every_placement_finds() {
    let lexicon = Arc::new(Lexicon::english());
    let mut generator = MoveGen::new();
    let mut compared = 0;
    for seed in 0..16 {
        let map = generated(100 + seed, 12 + (seed % 4) as u32 * 4);
        let preset = ["classic", "gdd-1.6"][(seed % 2) as usize];
        let rules = scryptic::rules::RuleSet::preset(preset).unwrap();
        let mut game = Game::new(&map, rules, lexicon.clone(), seed);
        let mut player = RandomPlayer::new(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for step in 0..80 {
            if game.result().is_some() {
                break;
            }
            if step % 10 == 9 && game.to_act() == game.active() {
                let player = game.active();
                let own = game.rack_letters(player);
                let made_up: String = (0..rng.random_range(7..12))
                    .map(|_| "AEIOUAEIRSTLNCDMPBGHKWYZ".as_bytes()[rng.random_range(0..24)] as char)
                    .collect();
                for rack in [own, made_up] {
                    let mut best: Option<(i64, i64)> = None;
                    generator.generate(&game, player, &rack, &mut |m| {
                        let attack = game.word_attack_strength(player, m.key(), m.word()).value;
                        best = best.max(Some((attack, m.face())));
                    });
                    let found = scryptic::ai::spy::strongest(&mut generator, &game, player, &rack)
                        .map(|m| {
                            let attack = game.word_attack_strength(player, m.key(), m.word());
                            (attack.value, m.face())
                        });
                    assert_eq!(
                        found,
                        best,
                        "rack {rack} for {player:?} on turn {} of {} ({preset})",
                        game.turn(),
                        map.name
                    );
                    compared += usize::from(best.is_some());
                }
            }
            game.apply(player.choose(&game)).unwrap();
        }
    }
    assert!(compared >= 40, "only {compared} positions had placements");
}

use super::*;
use crate::board::{City, Owner, Player};
use crate::diag::Finding;
use std::path::Path;

/// A small valid map file; tests change one thing in it.
const GOOD: &str = r#"(
    version: 1,
    name: "Test",
    size: (width: 6, height: 6),
    terrain: [
        "......",
        ".f~~..",
        "..^*..",
        "..x...",
        "......",
        "......",
    ],
    cities: [
        (id: "g", name: "Gold", at: (x: 0, y: 5), owner: Gold),
        (id: "s", name: "Silver", at: (x: 5, y: 0), owner: Silver),
    ],
    tokens: [(id: "v", kind: "volcano", at: (x: 4, y: 3))],
    rules: (preset: "classic"),
)"#;

/// Loads `text` as a map; `Ok` wants it to load, `Err` wants exactly these error lines.
fn check(text: &str, expected: Result<(), &[&str]>) {
    let got = Map::from_text(Path::new("m.ron"), text);
    match (got, expected) {
        (Ok(_), Ok(())) => {}
        (Err(err), Err(lines)) => assert_eq!(err.problems(), lines, "for\n{text}"),
        (Ok(_), Err(lines)) => panic!("expected {lines:?}, but it loaded:\n{text}"),
        (Err(err), Ok(())) => panic!("expected to load, got {err}"),
    }
}

/// `GOOD` with `from` replaced by `to`.
fn good_with(from: &str, to: &str) -> String {
    assert!(GOOD.contains(from), "{from}");
    GOOD.replacen(from, to, 1)
}

#[test]
fn good_map_loads() {
    check(GOOD, Ok(()));
    let map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    assert_eq!((map.width(), map.height()), (6, 6));
    assert_eq!(map.terrain[Pos::new(2, 1)], Terrain::Water);
    assert_eq!(map.terrain[Pos::new(2, 3)], Terrain::Lava);
}

#[test]
fn malformed_maps_say_what_and_where() {
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            good_with(r#"        ".f~~..","#, r#"        ".f~~.","#),
            vec!["m.ron:7:10: row 1 has 5 cells; the map's size says it is 6 wide"],
        ),
        (
            good_with(r#"        "..^*..","#, r#"        "..^Q..","#),
            vec![
                "m.ron:8:13: 'Q' at (3, 2) is not in the legend; the legend has '*' ice, '.' plains, '^' mountain, 'f' forest, 'x' lava, '~' water",
            ],
        ),
        (
            good_with("size: (width: 6, height: 6)", "size: (width: 6, height: 7)"),
            vec!["m.ron:5:5: `terrain` has 6 rows; the map's size says it is 7 high"],
        ),
        (
            good_with(
                "size: (width: 6, height: 6)",
                "size: (width: 4000000, height: 6)",
            ),
            vec![
                "m.ron:4:5: the map is 4000000x6; under these rules a map is from 6 to 512 cells on each side",
            ],
        ),
        (
            good_with(
                "size: (width: 6, height: 6)",
                "size: (width: -6, height: 6)",
            ),
            vec!["m.ron:4:20: this number is too large (or too small) for this field"],
        ),
        (
            good_with("name: \"Test\",", "name: \"Test\",\n    colour: \"red\","),
            vec![
                "m.ron:4:5: unknown field `colour` in the map; expected one of: version, name, author, description, size, legend, terrain, forest_density, ice_thickness, cities, tokens, rules, scripts, tileset, scenario",
            ],
        ),
        (
            good_with("owner: Gold", "owner: Gould"),
            vec!["m.ron:14:58: unknown value `Gould` in `Owner`; did you mean `Gold`?"],
        ),
        (
            good_with("name: \"Test\"", "name: 7"),
            vec!["m.ron:3:10: expected text in double quotes here"],
        ),
        (
            GOOD[..GOOD.len() / 2].to_string(),
            vec![
                "m.ron:14:9: the file ends too early: something is not closed (a `)`, `]`, `}` or `\"`)",
            ],
        ),
        (
            good_with("version: 1", "version: 7"),
            vec![
                "m.ron:2:5: map file version 7 was made by a newer Scryptic; this build reads versions 1 to 1; update Scryptic to open it",
            ],
        ),
        (
            good_with(
                "rules: (preset: \"classic\")",
                "rules: (preset: \"classic\", overrides: (turn: (rack_limit: 2)))",
            ),
            vec![
                "m.ron:18:51: turn.rack_limit (2) is below turn.start_rack (9): players would have to discard before their first move; raise rack_limit or lower start_rack",
            ],
        ),
        (
            good_with(
                "at: (x: 5, y: 0), owner: Silver",
                "at: (x: 5, y: 256), owner: Silver",
            ),
            vec![
                "m.ron:15:14: city `s` is at (5, 256), outside the 6x6 map; cells go from (0, 0) to (5, 5)",
            ],
        ),
        (
            good_with(
                "tokens:",
                "forest_density: [(at: (x: 1, y: 1), value: 4600000000000000000)],\n    tokens:",
            ),
            vec![
                "m.ron:17:5: `forest_density` at (1, 1) is 4600000000000000000; it must be from 0 to 1000, as board.default_forest_density must",
            ],
        ),
        (
            good_with(
                "tokens:",
                "ice_thickness: [(at: (x: 9, y: 1), value: 1)],\n    tokens:",
            ),
            vec![
                "m.ron:17:5: a value in `ice_thickness` is at (9, 1), outside the 6x6 map; cells go from (0, 0) to (5, 5)",
            ],
        ),
        (
            good_with("rules:", "scripts: [\"/etc/passwd\"],\n    rules:"),
            vec![
                "m.ron:18:15: script: `/etc/passwd` is an absolute path; name files relative to the map's folder (scripts/intro.lua)",
            ],
        ),
        (
            good_with("rules:", "tileset: \"C:\\\\tiles\\\\t.ron\",\n    rules:"),
            vec![
                "m.ron:18:5: tileset: `C:\\tiles\\t.ron` is an absolute path; name files relative to the map's folder (scripts/intro.lua)",
            ],
        ),
        (
            good_with(
                "rules: (preset: \"classic\")",
                "rules: (preset: \"classic\"),\n    scenario: (words: [(player: Gold, at: (x: 4, y: 5), dir: Across, text: \"SWORD\")], pools: {Silver: \"AB1\"})",
            ),
            vec![
                "m.ron:19:76: the scenario word \"SWORD\" at (4, 5) does not fit on the 6x6 map",
                "m.ron:19:87: silver's pools entry: '1' is not a letter of the rule set's alphabet",
            ],
        ),
        (
            good_with("name: \"Test\"", &format!("name: \"{}\"", "n".repeat(201))),
            vec!["m.ron:3:5: `name` has 201 characters; the most is 200"],
        ),
        (String::new(), vec!["m.ron:1:1: the file is empty"]),
        (
            "[1, 2]".to_string(),
            vec!["m.ron:1:1: expected `(` to open the map here"],
        ),
    ];
    for (text, lines) in &cases {
        check(text, Err(lines));
    }
}

#[test]
fn custom_legend_and_duplicate_legend_chars() {
    let custom = good_with("size:", "legend: {'.': Plains, 'F': Forest, '~': Water, '^': Mountain, '*': Ice, 'x': Lava},\n    size:")
        .replace(".f~~..", ".F~~..");
    check(&custom, Ok(()));
    let doubled = good_with(
        "size:",
        "legend: {'.': Plains, 'f': Forest, 'F': Forest, '~': Water, '^': Mountain, '*': Ice, 'x': Lava},\n    size:",
    );
    check(
        &doubled,
        Err(&["m.ron:4:5: the legend gives forest 2 characters ('F', 'f'); keep one"]),
    );
}

#[test]
fn save_is_canonical_and_round_trips() {
    let map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    let saved = map.to_ron();
    let again = Map::from_text(Path::new("m.ron"), &saved).unwrap();
    assert_eq!(again, map);
    assert_eq!(again.to_ron(), saved);
}

#[test]
fn save_and_load_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ron");
    let map = generate(&GenerateOptions {
        name: "G".into(),
        width: 30,
        height: 20,
        seed: 9,
        neutral_city_pairs: 2,
        token_pairs: 1,
    })
    .expect("the generated map has room for its pieces");
    map.save(&path).unwrap();
    assert_eq!(Map::load(&path).unwrap(), map);
}

#[test]
fn painting_a_terrain_the_legend_lacks_still_saves() {
    let mut map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    map.legend.retain(|_, t| *t != Terrain::Ice);
    let again = Map::from_text(Path::new("m.ron"), &map.to_ron()).unwrap();
    assert_eq!(again.terrain, map.terrain);
}

fn codes(map: &Map) -> Vec<&'static str> {
    let rules = map.rule_set().unwrap();
    validate(map, &rules, &ValidationContext::default())
        .into_iter()
        .map(|f: Finding| f.code)
        .collect()
}

/// A scenario word of `player` starting at `(x, y)`.
fn word(player: Player, (x, y): (u32, u32), dir: Direction, text: &str) -> PlacedWord {
    PlacedWord {
        player,
        at: Pos::new(x, y),
        dir,
        text: text.into(),
    }
}

/// A change made to a valid map to provoke one finding.
type MapEdit = dyn Fn(&mut Map);

/// A shared crossword's first word stands across the centre, not on a city: a map without
/// cities is sound under it.
#[test]
fn a_shared_crossword_needs_no_city() {
    let mut map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    map.cities.clear();
    assert!(codes(&map).contains(&"no-city"));
    map.rules.overrides.crossword = Some(crate::rules::CrosswordOverrides {
        model: Some(crate::rules::CrosswordModel::Shared),
        first_word: Some(crate::rules::FirstWord::Centre),
        scoring: None,
        ..Default::default()
    });
    assert_eq!(codes(&map), Vec::<&str>::new());
}

#[test]
fn validation_finds_design_problems() {
    let base = || Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    assert_eq!(codes(&base()), Vec::<&str>::new());
    let cases: Vec<(&str, Box<MapEdit>)> = vec![
        (
            "no-city",
            Box::new(|m| m.cities.retain(|c| c.owner != Owner::Silver)),
        ),
        (
            "city-on-water",
            Box::new(|m| m.cities[0].at = Pos::new(2, 1)),
        ),
        (
            "city-on-lava",
            Box::new(|m| m.cities[0].at = Pos::new(2, 3)),
        ),
        (
            "out-of-bounds",
            Box::new(|m| m.tokens[0].at = Pos::new(6, 0)),
        ),
        ("duplicate-id", Box::new(|m| m.tokens[0].id = "g".into())),
        ("bad-id", Box::new(|m| m.tokens[0].id = "has space".into())),
        (
            "unknown-token-kind",
            Box::new(|m| m.tokens[0].kind = "quake".into()),
        ),
        (
            "stacked-cities",
            Box::new(|m| m.cities[1].at = Pos::new(0, 5)),
        ),
        (
            "token-on-lava",
            Box::new(|m| m.tokens[0].at = Pos::new(2, 3)),
        ),
        (
            "negative-value",
            Box::new(|m| {
                m.forest_density.insert(Pos::new(1, 1), -1);
            }),
        ),
        (
            "value-on-wrong-terrain",
            Box::new(|m| {
                m.ice_thickness.insert(Pos::new(0, 0), 3);
            }),
        ),
        (
            "unreachable-city",
            Box::new(|m| {
                for p in [Pos::new(4, 5), Pos::new(5, 4)] {
                    m.terrain.set(p, Terrain::Lava);
                }
                m.cities.push(City {
                    id: "n".into(),
                    name: "N".into(),
                    at: Pos::new(5, 5),
                    owner: Owner::Neutral,
                    bonus: None,
                });
            }),
        ),
        (
            "city-cannot-start",
            Box::new(|m| {
                for p in [Pos::new(1, 5), Pos::new(0, 4)] {
                    m.terrain.set(p, Terrain::Lava);
                }
            }),
        ),
        (
            "scenario-adjacent",
            Box::new(|m| {
                m.scenario
                    .words
                    .push(word(Player::Gold, (0, 4), Direction::Across, "AT"));
                m.scenario
                    .words
                    .push(word(Player::Silver, (2, 4), Direction::Across, "IT"));
            }),
        ),
        (
            "scenario-conflict",
            Box::new(|m| {
                m.scenario
                    .words
                    .push(word(Player::Gold, (0, 4), Direction::Across, "AT"));
                m.scenario
                    .words
                    .push(word(Player::Gold, (0, 4), Direction::Down, "ON"));
            }),
        ),
        (
            "scenario-on-lava",
            Box::new(|m| {
                m.scenario
                    .words
                    .push(word(Player::Gold, (1, 3), Direction::Across, "AT"))
            }),
        ),
        (
            "scenario-unknown-letter",
            Box::new(|m| {
                m.scenario.racks.insert(Player::Gold, "AB1".into());
            }),
        ),
        (
            "scenario-rack-too-big",
            Box::new(|m| {
                m.scenario.racks.insert(Player::Gold, "ABCDEFGHIJKL".into());
            }),
        ),
        (
            "scenario-seat",
            Box::new(|m| {
                m.scenario.first = Player::seat(2);
            }),
        ),
    ];
    for (code, change) in cases {
        let mut map = base();
        change(&mut map);
        assert_eq!(codes(&map), vec![code], "{code}");
    }
}

/// Seats read and write as the two players always did (`Gold`, `Silver`), and the seats past
/// them by number (`Seat3`).
#[test]
fn seats_read_and_write_by_name() {
    let seat3 = Player::seat(2).unwrap();
    for (player, text) in [
        (Player::Gold, "Gold"),
        (Player::Silver, "Silver"),
        (seat3, "Seat3"),
    ] {
        assert_eq!(
            crate::ronfile::to_canonical(&player, 1).unwrap().trim(),
            text
        );
        let read: Player = crate::ronfile::options().from_str(text).unwrap();
        assert_eq!(read, player);
        assert_eq!(format!("{player:?}"), text);
    }
    assert_eq!(Player::from_name("seat3"), Some(seat3));
    // A seat leaves room for `None`: tiles and seat options are as small as with two players.
    assert_eq!(std::mem::size_of::<Option<Player>>(), 1);
    assert_eq!(std::mem::size_of::<Option<(u32, Player)>>(), 8);
    assert!(
        crate::ronfile::options()
            .from_str::<Player>("Seat9")
            .is_err()
    );
}

#[test]
fn validation_names_the_cells() {
    let mut map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    map.cities[0].at = Pos::new(3, 1);
    let rules = map.rule_set().unwrap();
    let findings = validate(&map, &rules, &ValidationContext::default());
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].cells, vec![Pos::new(3, 1)]);
    assert_eq!(
        findings[0].message,
        "city `g` stands on water at (3, 1); no word can end there, so put it on land"
    );
}

#[test]
fn script_token_kinds_and_missing_files() {
    let mut map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    map.tokens[0].kind = "quake".into();
    map.scripts.push("quake.lua".into());
    let rules = map.rule_set().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ValidationContext {
        base_dir: Some(dir.path().to_path_buf()),
        ..Default::default()
    };
    ctx.script_token_kinds.insert("quake".into());
    let codes: Vec<_> = validate(&map, &rules, &ctx)
        .into_iter()
        .map(|f| f.code)
        .collect();
    assert_eq!(codes, vec!["missing-script"]);
    std::fs::write(dir.path().join("quake.lua"), "-- quake").unwrap();
    assert_eq!(validate(&map, &rules, &ctx), vec![]);
}

#[test]
fn generated_maps_are_deterministic_symmetric_and_valid() {
    let options = GenerateOptions {
        name: "G".into(),
        width: 48,
        height: 40,
        seed: 11,
        neutral_city_pairs: 3,
        token_pairs: 1,
    };
    let map = generate(&options).expect("the generated map has room for its pieces");
    assert_eq!(
        map,
        generate(&options).expect("the generated map has room for its pieces")
    );
    assert_ne!(
        map.terrain,
        generate(&GenerateOptions {
            seed: 12,
            ..options.clone()
        })
        .expect("the generated map has room for its pieces")
        .terrain
    );
    for p in map.terrain.positions() {
        let m = Pos::new(47 - p.x, 39 - p.y);
        assert_eq!(map.terrain[p], map.terrain[m], "{p}");
    }
    let errors: Vec<_> = codes(&map)
        .into_iter()
        .filter(|c| !c.starts_with("unreachable"))
        .collect();
    assert_eq!(errors, Vec::<&str>::new());
    assert_eq!(map.tokens.len(), 8);
}

/// A map whose terrain is symmetric claims to be fair: a city whose image is not the other
/// player's is warned of; the fair map, and an asymmetric one, are not.
#[test]
fn a_symmetric_map_is_checked_for_fairness() {
    use crate::board::City;
    let city = |id: &str, x, y, owner| City {
        id: id.into(),
        name: id.into(),
        at: Pos::new(x, y),
        owner,
        bonus: None,
    };
    let mut map = Map::new("duel", 10, 8);
    map.cities = vec![
        city("gold_home", 1, 2, Owner::Gold),
        city("silver_home", 8, 5, Owner::Silver),
        city("mill", 4, 1, Owner::Neutral),
        city("mill_2", 5, 6, Owner::Neutral),
    ];
    let unfair = |map: &Map| {
        codes(map)
            .iter()
            .filter(|c| **c == "unfair-symmetry")
            .count()
    };
    assert_eq!(unfair(&map), 0, "fair under a half turn");
    map.cities[2].bonus = Some(20);
    assert_eq!(
        unfair(&map),
        2,
        "a town worth more than its image, seen from each"
    );
    map.cities[3].bonus = Some(20);
    assert_eq!(unfair(&map), 0, "both towns worth the same");
    map.cities[1].owner = Owner::Gold;
    assert_eq!(unfair(&map), 2, "each gold city's image is gold's");
    map.terrain.set(Pos::new(0, 0), Terrain::Water);
    assert_eq!(
        unfair(&map),
        0,
        "the terrain is not symmetric: it claims nothing"
    );
}

#[test]
fn an_unknown_token_kind_lists_each_known_kind_once() {
    let mut map = Map::from_text(Path::new("m.ron"), GOOD).unwrap();
    map.tokens[0].kind = "quake".into();
    let rules = map.rule_set().unwrap();
    // The standard kinds' scripts define them again, as a map with scripts loads them.
    let ctx = ValidationContext {
        script_token_kinds: ["volcano", "drought", "flood", "firestorm", "omen"]
            .map(String::from)
            .into(),
        base_dir: None,
    };
    let findings = validate(&map, &rules, &ctx);
    let message = &findings
        .iter()
        .find(|f| f.code == "unknown-token-kind")
        .unwrap()
        .message;
    assert!(
        message.contains("known kinds: volcano, drought, flood, firestorm, omen ("),
        "{message}"
    );
}

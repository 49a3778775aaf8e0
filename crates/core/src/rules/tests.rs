use super::*;
use std::path::Path;

/// Loads `text` as a rule-set file and compares what comes out: `Ok(check)` runs `check` on
/// the rule set; `Err(expected)` wants exactly these error lines.
fn check(text: &str, expected: Result<fn(&RuleSet), &[&str]>) {
    let got = RuleSet::from_file_text(Path::new("r.ron"), text);
    match (got, expected) {
        (Ok(rules), Ok(check)) => check(&rules),
        (Err(err), Err(lines)) => assert_eq!(err.problems(), lines, "for {text}"),
        (Ok(rules), Err(lines)) => panic!("expected {lines:?}, loaded {}", rules.name),
        (Err(err), Ok(_)) => panic!("expected to load, got {err}"),
    }
}

#[test]
fn every_preset_loads_and_is_sound() {
    for name in RuleSet::preset_names() {
        let rules = RuleSet::preset(name).unwrap();
        assert_eq!(rules.name, name);
        assert_eq!(rules.validate(), vec![], "{name}");
        let total: i64 = rules.letters.tiles.values().map(|t| t.count).sum();
        assert_eq!(total, 98, "{name}: docs/RULES.md section 2 says 98 letters");
    }
}

#[test]
fn presets_differ_where_rules_md_says() {
    let gdd = RuleSet::preset("gdd-1.6").unwrap();
    let classic = RuleSet::preset("classic").unwrap();
    assert_eq!((gdd.turn.start_rack, classic.turn.start_rack), (7, 9));
    assert_eq!((gdd.turn.rack_limit, classic.turn.rack_limit), (12, 10));
    assert_eq!(
        (gdd.turn.spies_per_game, classic.turn.spies_per_game),
        (0, 3)
    );
    assert_eq!(
        (
            gdd.capture.city_capture_bonus,
            classic.capture.city_capture_bonus
        ),
        (40, 30)
    );
    assert_eq!(gdd.placement.forest_cut, ForestCut::Exceed);
    assert_eq!(classic.placement.forest_cut, ForestCut::Match);
    assert_eq!(gdd.ice.collapse, IceCollapse::WholeWord);
    assert_eq!(classic.ice.collapse, IceCollapse::HeavyLetters);
    assert_eq!(gdd.end.conquest, Conquest::OpponentWins);
    assert_eq!(classic.end.conquest, Conquest::HigherScore);
}

#[test]
fn presets_round_trip_through_ron() {
    for name in RuleSet::preset_names() {
        let rules = RuleSet::preset(name).unwrap();
        let again: RuleSet = ronfile::options().from_str(&rules.to_ron()).unwrap();
        assert_eq!(again, rules);
    }
}

#[test]
fn overrides_change_only_what_they_name() {
    check(
        r#"(version: 1, preset: "classic", overrides: (turn: (rack_limit: 12), capture: (neutral_city_bonus: 5)))"#,
        Ok(|r| {
            let classic = RuleSet::preset("classic").unwrap();
            assert_eq!(r.turn.rack_limit, 12);
            assert_eq!(r.capture.neutral_city_bonus, 5);
            assert_eq!(r.turn.start_rack, classic.turn.start_rack);
            assert_eq!(r.strength, classic.strength);
        }),
    );
}

#[test]
fn tables_merge_entry_by_entry() {
    check(
        r#"(version: 1, name: "heavy q", preset: "gdd-1.6", overrides: (
            letters: (tiles: {'Q': (value: 10, count: 1)}),
            strength: (connotations: {"freezing": (attack: 1.0, defence: 2.0, forest: 1.0)}),
        ))"#,
        Ok(|r| {
            assert_eq!(r.name, "heavy q");
            assert_eq!(r.letter_value('Q'), Some(10));
            assert_eq!(r.letter_value('A'), Some(1));
            assert_eq!(r.letters.tiles.len(), 26);
            assert_eq!(r.strength.connotations.len(), 5);
        }),
    );
}

#[test]
fn enums_and_payloads_override() {
    check(
        r#"(version: 1, preset: "gdd-1.6", overrides: (strength: (mountain: PerLetter(factor: 2.0)), redeploy: (max_crossing_words: AtMost(2))))"#,
        Ok(|r| {
            assert_eq!(r.strength.mountain, Mountain::PerLetter { factor: 2.0 });
            assert_eq!(r.redeploy.max_crossing_words, Limit::AtMost(2));
        }),
    );
}

#[test]
fn bad_rule_files_say_what_and_where() {
    let cases: &[(&str, &[&str])] = &[
        (
            "(version: 1, preset: \"classic\", overrides: (turn: (rack_limit: 5)))",
            &[
                "r.ron:1:52: turn.rack_limit (5) is below turn.start_rack (9): players would have to discard before their first move; raise rack_limit or lower start_rack",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (supply: (opening: Table, opening_table: [])))",
            &[
                "r.ron:1:54: supply.opening is Table, but supply.opening_table ([]) gives no opening for 2 players (its first entry is for two); add one or seat fewer players",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (seats: (names: [\"white\", \"gold\"])))",
            &[
                "r.ron:1:53: seats.names: \"gold\" would name two seats; give each seat a name of its own",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (seats: (names: [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"])))",
            &["r.ron:1:53: seats.names and seats.colours give at most one a seat, 8 in all"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (seats: (colours: [\"white\"])))",
            &["r.ron:1:53: seats.colours: \"white\" is not a colour written #rrggbb"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (supply: (opening: Tabel)))",
            &[
                "r.ron:1:68: supply.opening must be StartRack, Table or a number of letters such as 20",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (turn: (rak_limit: 12)))",
            &["r.ron:1:52: unknown field `rak_limit` in `turn`; did you mean `rack_limit`?"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (trun: (rack_limit: 12)))",
            &["r.ron:1:45: unknown field `trun` in `overrides`; did you mean `turn`?"],
        ),
        (
            "(version: 1, preset: \"clasic\")",
            &["r.ron:1:14: unknown preset `clasic`; did you mean `classic`?"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (board: (default_forest_density: -2)))",
            &["r.ron:1:53: board.default_forest_density is -2; it must be from 0 to 1000"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (placement: (forest_cut: Mtach)))",
            &["r.ron:1:69: unknown value `Mtach` in `ForestCut`; did you mean `Match`?"],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (turn: (rack_limit: \"ten\")))",
            &["r.ron:1:63: expected a whole number here"],
        ),
        (
            "(version: 9, preset: \"classic\")",
            &[
                "r.ron:1:2: rule-set file version 9 is not one this build reads (it reads version 1)",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (turn: (rack_limit: 12)",
            &[
                "r.ron:1:66: the file ends too early: something is not closed (a `)`, `]`, `}` or `\"`)",
            ],
        ),
        (
            "(version: 1, preset: \"classic\", overrides: (letters: (tiles: {'a': (value: 1, count: 0)})))",
            &["r.ron:1:55: letters.tiles has 'a'; letters must be uppercase A to Z"],
        ),
    ];
    for (text, lines) in cases {
        check(text, Err(lines));
    }
}

#[test]
fn misspelt_fields_in_plural_sections_name_the_section() {
    check(
        "(version: 1, preset: \"classic\", overrides: (letters: (infinite_pol: true)))",
        Err(&[
            "r.ron:1:55: unknown field `infinite_pol` in `letters`; did you mean `infinite_pool`?",
        ]),
    );
}

#[test]
fn every_constant_is_described() {
    let constants = RuleSet::constants();
    assert!(constants.len() >= 30, "{}", constants.len());
    for c in &constants {
        assert!(!c.description.is_empty(), "{} has no description", c.key);
    }
    assert!(
        constants
            .iter()
            .any(|c| c.key == "turn.rack_limit" && c.range == Some((1.0, 1000.0)))
    );
}

#[test]
fn locate_key_skips_longer_names() {
    let text = "(a_rack_limit: 1,\n  rack_limit: 2)";
    assert_eq!(locate_key(text, "rack_limit"), Some((2, 3)));
    assert_eq!(locate_key(text, "missing"), None);
}

/// A complete rule set written before a section's later constants existed (an older save)
/// reads them as the section's defaults: the rules as they were.
#[test]
fn a_rule_set_missing_a_sections_later_constants_reads_them_as_before() {
    let classic = RuleSet::preset("classic").unwrap();
    let text = crate::ronfile::to_canonical(&classic, 3).unwrap();
    let older: String = text
        .lines()
        .filter(|l| !l.contains("sudden_death") && !l.contains("judge_no_word"))
        .collect::<Vec<_>>()
        .join("\n");
    assert_ne!(older, text);
    let read: RuleSet = crate::ronfile::options().from_str(&older).unwrap();
    assert_eq!(read, classic);
}

#[test]
fn a_constant_of_a_list_names_its_choices() {
    for (key, some) in [
        ("placement.forest_cut", Some("Exceed")),
        ("crossword.model", Some("Shared")),
        ("turn.rack_limit", None),
        ("letters.tiles", None),
        ("nothing.here", None),
    ] {
        let choices = RuleSet::constant_choices(key);
        match some {
            Some(choice) => assert!(choices.contains(&choice), "{key}: {choices:?}"),
            None => assert!(choices.is_empty(), "{key}: {choices:?}"),
        }
    }
}

//! Broken files: every one gives a clear error, none a panic.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use proptest::prelude::*;
use scryptic::Map;
use scryptic::rules::RuleSet;
use scryptic_tests::{root, scryptic};
use std::path::Path;

fn tutorial() -> String {
    std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap()
}

#[test]
fn a_non_utf8_map_names_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.ron");
    let mut bytes = tutorial().into_bytes();
    let at = bytes.iter().position(|&b| b == b'F').unwrap();
    bytes[at] = 0xE9;
    std::fs::write(&path, bytes).unwrap();
    let err = Map::load(&path).unwrap_err().to_string();
    assert!(
        err.ends_with("byte 0xe9 is not UTF-8 text; save the file as UTF-8"),
        "{err}"
    );
    assert!(err.starts_with(&format!("{}:", path.display())), "{err}");
}

#[test]
fn every_truncation_of_a_real_map_is_an_error_with_a_place() {
    let text = tutorial();
    for len in (0..text.len() - 2).step_by(7) {
        let Some(cut) = text.get(..len) else { continue };
        let err =
            Map::from_text(Path::new("t.ron"), cut).expect_err("a truncated map must not load");
        for line in err.problems() {
            assert!(line.starts_with("t.ron:"), "{line}");
        }
    }
}

#[test]
fn garbage_files_fail_in_the_cli_with_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("empty.ron", &b""[..]),
        ("binary.ron", &[0u8, 159, 146, 150, 255][..]),
        ("deep.ron", "[".repeat(10_000).as_bytes()),
        ("huge-number.ron", b"(version: 99999999999999999999999)"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            vec!["map", "validate", p],
            vec!["map", "info", p],
            vec!["rules", "check", p],
            vec!["map", "render", p],
        ] {
            let o = scryptic(&args);
            assert_eq!(o.code, 1, "{args:?}: {o:?}");
            assert!(o.err.contains(name), "{args:?}: {}", o.err);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_word_lists_never_panic(text in "(?s).{0,300}") {
        let parsed = scryptic::lexicon::listfile::parse_word_list(&text);
        for p in &parsed.problems {
            prop_assert!(p.line >= 1 && p.column >= 1);
        }
        let mut lexicon = scryptic::lexicon::Lexicon::english();
        let _ = lexicon.set_connotation_list("any", Path::new("any.txt"), &text);
    }

    #[test]
    fn arbitrary_searches_never_panic(query in "[a-z?*A-Z0-9 ]{0,24}") {
        let lexicon = scryptic::lexicon::Lexicon::english();
        let _ = lexicon.pattern(&query, 5);
        let _ = lexicon.fuzzy(&query, 1, 5);
        let _ = lexicon.prefix(&query, 5);
        let _ = lexicon.anagrams(&query, true, 5);
        let _ = lexicon.connotations(&query);
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,400}") {
        let _ = Map::from_text(Path::new("p.ron"), &text);
        let _ = RuleSet::from_file_text(Path::new("p.ron"), &text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(text) = scryptic::fsutil::text_from_bytes(Path::new("p.ron"), bytes) {
            let _ = Map::from_text(Path::new("p.ron"), &text);
        }
    }

    #[test]
    fn edited_real_maps_load_or_say_where(edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..6)) {
        let mut chars: Vec<char> = tutorial().chars().collect();
        for (index, ch) in edits {
            let i = index.index(chars.len());
            chars[i] = ch;
        }
        let text: String = chars.into_iter().collect();
        match Map::from_text(Path::new("e.ron"), &text) {
            Ok(map) => {
                // Whatever loads validates without panicking and saves canonically.
                if let Ok(rules) = map.rule_set() {
                    let _ = scryptic::map::validate(&map, &rules, &Default::default());
                }
                let again = Map::from_text(Path::new("e.ron"), &map.to_ron());
                prop_assert_eq!(again.ok(), Some(map));
            }
            Err(err) => {
                for line in err.problems() {
                    prop_assert!(line.starts_with("e.ron"), "{}", line);
                }
            }
        }
    }
}

/// A save of a short game on the tutorial map, as `scryptic play` writes it.
fn tutorial_save(dir: &Path) -> String {
    let save = dir.join("base.ron");
    let typed = format!(
        "commit D10 across BOG\nend\nsave {}\nquit\n",
        save.display()
    );
    let map = root().join("maps/tutorial.ron");
    let o =
        scryptic_tests::scryptic_typing(&["play", map.to_str().unwrap(), "--seed", "3"], &typed);
    assert_eq!(o.code, 0, "{o:?}");
    std::fs::read_to_string(save).unwrap()
}

/// A save edited so that it must be refused: what to replace, by what, and the words the
/// refusal must hold.
type SaveEdit = (&'static str, &'static str, String, &'static str);

/// docs/RULES.md's bounds hold inside a save exactly as in files of their own: every command that
/// reads a save refuses a damaged one with file:line:column and exit code 1, never a panic or
/// an allocation the size of the damage.
#[test]
fn damaged_saves_are_refused_with_a_place_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let base = tutorial_save(dir.path());
    let many_letters: String = (0..5000)
        .map(|i| format!("(at: (x: {}, y: 0), letter: 'A'), ", i % 12))
        .collect();
    let cases: Vec<SaveEdit> = vec![
        (
            "city-off-board",
            "at: (x: 3, y: 9), owner: Gold",
            "at: (x: 3, y: 256), owner: Gold".into(),
            "outside the 12x12 map",
        ),
        (
            "city-bonus",
            "at: (x: 3, y: 9), owner: Gold",
            "at: (x: 3, y: 9), owner: Gold, bonus: 9000000000000".into(),
            "bonus 9000000000000 is out of range",
        ),
        (
            "letter-count",
            "'A': (value: 1, count: 9)",
            "'A': (value: 1, count: 1000000000)".into(),
            "counts from 0 to 100000",
        ),
        (
            "forest-density",
            "(at: (x: 5, y: 2), value: 3)",
            "(at: (x: 5, y: 2), value: 4600000000000000000)".into(),
            "must be from 0 to 1000",
        ),
        (
            "board-limit",
            "min_side: 6",
            "min_side: 13".into(),
            "under the save's rules a map is from 13 to 512",
        ),
        (
            "script-path",
            "actions: [",
            "scripts: [(name: \"/etc/passwd\", source: \"\")],\n    actions: [".into(),
            "is an absolute path",
        ),
        (
            "scenario-pool",
            "rules: (",
            "scenario: (pools: {Gold: \"é\"}),\n        rules: (".into(),
            "is not a letter of the rule set's alphabet",
        ),
        (
            "huge-commit",
            "actions: [",
            format!("actions: [Commit(letters: [{many_letters}]), "),
            "is refused on replay",
        ),
    ];
    for (name, from, to, expected) in cases {
        assert!(base.contains(from), "{name}: the save has no `{from}`");
        let path = dir.path().join(format!("{name}.ron"));
        std::fs::write(&path, base.replacen(from, &to, 1)).unwrap();
        let p = path.to_str().unwrap();
        for args in [
            vec!["replay", p],
            vec!["replay", p, "--json"],
            vec!["moves", p],
            vec!["play", "--load", p],
        ] {
            let o = scryptic(&args);
            assert_eq!(o.code, 1, "{name} {args:?}: {o:?}");
            assert!(o.err.contains(expected), "{name} {args:?}: {}", o.err);
            assert!(
                o.err.starts_with(&format!("{p}:")),
                "{name} {args:?}: {}",
                o.err
            );
        }
    }
}

/// Some editors start UTF-8 files with a byte-order mark; every text file loads with one.
#[test]
fn a_byte_order_mark_is_accepted_in_every_text_file() {
    let dir = tempfile::tempdir().unwrap();
    let with_bom = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("\u{feff}{text}")).unwrap();
        path.to_str().unwrap().to_string()
    };
    let map_text = tutorial().replace("../tilesets/stone/tileset.ron", "tileset.ron");
    let map = with_bom("map.ron", &map_text);
    let stone = root().join("tilesets/stone");
    for entry in std::fs::read_dir(&stone).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    let manifest = std::fs::read_to_string(stone.join("tileset.ron")).unwrap();
    with_bom("tileset.ron", &manifest);
    let rules = with_bom(
        "rules.ron",
        "(version: 1, preset: \"classic\", overrides: (turn: (rack_limit: 14)))",
    );
    let script = with_bom(
        "intro.lua",
        "scryptic.on(\"game_start\", function(game, ev) end)\n",
    );
    let words = with_bom("words.txt", "# a list\ncat\ndog\n");
    let out = dir.path().join("words.fst");
    for args in [
        vec!["map", "validate", map.as_str()],
        vec!["rules", "check", rules.as_str()],
        vec!["script", "check", script.as_str()],
        vec![
            "lexicon",
            "build",
            words.as_str(),
            "--out",
            out.to_str().unwrap(),
        ],
    ] {
        let o = scryptic(&args);
        assert_eq!(o.code, 0, "{args:?}: {o:?}");
    }
    let save = dir.path().join("game.ron");
    let o = scryptic_tests::scryptic_typing(
        &["play", &map, "--seed", "3"],
        &format!("end\nsave {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    let saved = std::fs::read_to_string(&save).unwrap();
    let save = with_bom("game.ron", &saved);
    let o = scryptic(&["replay", &save]);
    assert_eq!(o.code, 0, "{o:?}");
}

/// The runtime's refusals are data a client can act on, not only text: a save out of bounds
/// names the field at fault, and a word too weak for the forest gives the numbers.
#[test]
fn refusals_carry_their_data() {
    let map = Map::load(&root().join("maps/tutorial.ron")).unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let game = scryptic::game::Game::new(&map, map.rule_set().unwrap(), lexicon.clone(), 3);
    let mut save = scryptic::save::SaveFile::of(&game);
    save.rules.turn.rack_limit = 0;
    match scryptic::script::ScriptedGame::from_save(&save, lexicon) {
        Err(scryptic::save::SaveError::Invalid(problems)) => {
            assert_eq!(problems[0].key, "rules", "{problems:?}");
            assert!(
                problems[0].message.contains("turn.rack_limit"),
                "{problems:?}"
            );
        }
        other => panic!(
            "expected the save to be refused, got {:?}",
            other.map(|_| ())
        ),
    }
    let refused = scryptic::game::ActionError::ForestTooDense {
        word: "OAK".into(),
        comparison: "above",
        needed: 6,
        cells: 3,
        has: 4.5,
    };
    assert_eq!(
        refused.to_string(),
        "OAK needs strength above 6 to cut through 3 forest cells; it has 4.5"
    );
}

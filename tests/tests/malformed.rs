//! Broken files: every one gives a clear error, none a panic.

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

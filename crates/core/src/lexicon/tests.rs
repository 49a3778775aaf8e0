use super::*;
use std::path::Path;

fn english() -> Lexicon {
    Lexicon::english()
}

#[test]
fn real_words_and_non_words() {
    let lexicon = english();
    let table: &[(&str, bool)] = &[
        ("sword", true),
        ("SWORD", true),
        ("swords", true),
        ("attacking", true),
        ("hidden", true),
        ("colour", true),
        ("color", true),
        ("qi", true),
        ("za", true),
        ("xu", true),
        ("aa", true),
        ("ok", true),
        ("hmm", true),
        ("crwth", true),
        ("zyzzyva", true),
        ("qzxv", false),
        ("bs", false),
        ("kb", false),
        ("swordz", false),
        ("", false),
        ("two words", false),
        ("épée", false),
    ];
    for &(word, expected) in table {
        assert_eq!(lexicon.contains(word), expected, "{word}");
    }
    assert!(lexicon.len() >= 150_000, "{}", lexicon.len());
}

#[test]
fn the_usual_two_letter_words_are_there() {
    let lexicon = english();
    for word in "am an as at be by do go he if in is it me my no of on or so to up us we ax ox ex qi za xu jo".split(' ') {
        assert!(lexicon.contains(word), "{word}");
    }
}

/// `word`'s connotations are exactly `expected`.
fn check_connotations(lexicon: &Lexicon, word: &str, expected: &[&str]) {
    assert_eq!(lexicon.connotations(word), expected, "{word}");
}

#[test]
fn connotations_with_inflections() {
    let lexicon = english();
    let table: &[(&str, &[&str])] = &[
        ("SWORD", &["attacking", "burning"]),
        ("SWORDS", &["attacking", "burning"]),
        ("attack", &["attacking"]),
        ("ATTACKING", &["attacking"]),
        ("assailed", &["attacking"]),
        ("destroys", &["attacking"]),
        ("shield", &["defending"]),
        ("CASTLES", &["defending"]),
        ("defense", &["defending"]),
        ("protecting", &["defending"]),
        ("HIDDEN", &["sneaking"]),
        ("spies", &["sneaking"]),
        ("sneaked", &["sneaking"]),
        ("assassinate", &["attacking", "sneaking"]),
        ("burnt", &["burning"]),
        ("carving", &["burning"]),
        ("table", &[]),
        ("zzz", &[]),
    ];
    for &(word, expected) in table {
        check_connotations(&lexicon, word, expected);
    }
}

#[test]
fn base_forms_are_dictionary_words() {
    let lexicon = english();
    assert!(lexicon.base_forms("hidden").contains(&"hide".to_string()));
    assert!(lexicon.base_forms("swords").contains(&"sword".to_string()));
    assert!(lexicon.base_forms("knives").contains(&"knife".to_string()));
    assert_eq!(lexicon.base_forms("sword"), Vec::<String>::new());
}

/// Base forms English spelling makes likely, and none it rules out: a stem that would have
/// doubled its consonant is not the base (CUTER is not cut), an e is not added to a stem
/// that kept its own (BEING is not bee), and an irregular form's base is the only one.
#[test]
fn the_base_form_guesser_knows_english_spelling() {
    let lexicon = english();
    let cases: [(&str, &[&str]); 23] = [
        ("cuter", &["cute"]),
        ("being", &["be"]),
        ("seeing", &["see"]),
        ("agreed", &["agree"]),
        ("bigger", &["big"]),
        ("hoping", &["hope"]),
        ("hopping", &["hop"]),
        ("taped", &["tape"]),
        ("tapped", &["tap"]),
        ("opening", &["open"]),
        ("visited", &["visit"]),
        ("passed", &["pass"]),
        ("stuffed", &["stuff"]),
        ("cutting", &["cut"]),
        ("swords", &["sword"]),
        ("hidden", &["hide"]),
        ("attacking", &["attack"]),
        ("burned", &["burn"]),
        ("stabbed", &["stab"]),
        ("knives", &["knife"]),
        ("stared", &["stare"]),
        ("planned", &["plan"]),
        ("planed", &["plane"]),
    ];
    for (word, bases) in cases {
        assert_eq!(lexicon.base_forms(word), bases.to_vec(), "{word}");
    }
    assert!(
        !lexicon.connotations("cuter").contains(&"attacking"),
        "CUTER is not a cutting word"
    );
}

#[test]
fn prefix_search() {
    let words = english().prefix("SWORDS", 100);
    assert!(words.starts_with(&["swords".to_string()]), "{words:?}");
    assert!(words.iter().all(|w| w.starts_with("swords")));
    assert!(words.contains(&"swordsman".to_string()));
    assert_eq!(english().prefix("sw", 5).len(), 5);
}

#[test]
fn fuzzy_search() {
    let lexicon = english();
    let near = lexicon.fuzzy("swerd", 1, 100).unwrap();
    assert!(near.contains(&"sword".to_string()), "{near:?}");
    assert!(!near.contains(&"swords".to_string()));
    let further = lexicon.fuzzy("swerd", 2, 1000).unwrap();
    assert!(further.contains(&"swords".to_string()));
    let nearest = lexicon.fuzzy("swerd", 2, 3).unwrap();
    assert_eq!(
        nearest[..2],
        ["sward", "sword"],
        "nearest first: the one-edit words before any two-edit word"
    );
    assert_eq!(nearest[2], "award", "then two edits, alphabetically");
    assert_eq!(
        lexicon.fuzzy("sword", 3, 10),
        Err(QueryError::FuzzyDistance { distance: 3 })
    );
}

#[test]
fn pattern_search() {
    let lexicon = english();
    assert_eq!(
        lexicon.pattern("sw?rd", 10).unwrap(),
        vec!["sward", "sword"]
    );
    let ending = lexicon.pattern("*SWORD", 100).unwrap();
    assert!(
        ending.contains(&"broadsword".to_string()) && ending.contains(&"sword".to_string()),
        "{ending:?}"
    );
    assert!(ending.iter().all(|w| w.ends_with("sword")));
    assert_eq!(lexicon.pattern("q*", 3).unwrap().len(), 3);
    assert_eq!(
        lexicon.pattern("sw0rd", 10),
        Err(QueryError::PatternChar {
            ch: '0',
            position: 3
        })
    );
    assert!(matches!(
        lexicon.pattern(&"?".repeat(64), 1),
        Err(QueryError::PatternTooLong { .. })
    ));
}

#[test]
fn anagram_search() {
    let lexicon = english();
    let exact = lexicon.anagrams("DROWS", false, 100).unwrap();
    assert!(
        exact.contains(&"sword".to_string()) && exact.contains(&"words".to_string()),
        "{exact:?}"
    );
    assert!(exact.iter().all(|w| w.len() == 5));
    let subsets = lexicon.anagrams("drows", true, 1000).unwrap();
    assert!(subsets.contains(&"rod".to_string()) && subsets.contains(&"sword".to_string()));
    assert!(
        subsets.windows(2).all(|w| w[0].len() >= w[1].len()),
        "longest first"
    );
    let blank = lexicon.anagrams("swor?", false, 1000).unwrap();
    assert!(blank.contains(&"sword".to_string()) && blank.contains(&"swore".to_string()));
    assert_eq!(
        lexicon.anagrams("ab1", true, 10),
        Err(QueryError::RackChar { ch: '1' })
    );
}

/// Parses `text` as a list file named `l.txt`; wants `Ok(words)` or `Err(error lines)`, and
/// in both cases exactly `warnings`.
fn check_list(text: &str, expected: Result<&[&str], &[&str]>, warnings: &[&str]) {
    match (read_list(Path::new("l.txt"), text), expected) {
        (Ok((words, got)), Ok(want)) => {
            assert_eq!(words, want, "{text:?}");
            let got: Vec<String> = got.iter().map(ToString::to_string).collect();
            assert_eq!(got, warnings, "{text:?}");
        }
        (Err(err), Err(want)) => assert_eq!(err.problems(), want, "{text:?}"),
        (got, want) => panic!("{text:?}: expected {want:?}, got {:?}", got.map(|(w, _)| w)),
    }
}

#[test]
fn malformed_list_files() {
    check_list(
        "# comment\n\nshield\n\n  sword  \r\n",
        Ok(&["shield", "sword"]),
        &[],
    );
    check_list(
        "b\na\n",
        Ok(&["a", "b"]),
        &[
            "l.txt:2:1: 'a' comes after 'b': the file is not sorted; it is sorted when loaded (sort the file to keep diffs small)",
        ],
    );
    check_list(
        "a\nb\na\n",
        Ok(&["a", "b"]),
        &["l.txt:3:1: 'a' is already on line 1; the repeat is ignored"],
    );
    check_list(
        "sword\nShield\n",
        Err(&["l.txt:2:1: 'Shield' has capitals; words are written in lowercase ('shield')"]),
        &[],
    );
    check_list(
        "épée\n",
        Err(&[
            "l.txt:1:1: 'épée' has 'é', which is not a plain letter; words use only the letters a to z",
        ]),
        &[],
    );
    check_list(
        "ok\nlong sword\n",
        Err(&["l.txt:2:5: 'long sword' has a space; write one word per line"]),
        &[],
    );
    check_list(
        "  rock'n'roll\n",
        Err(&["l.txt:1:7: 'rock'n'roll' has '''; words use only the letters a to z"]),
        &[],
    );
    check_list("", Ok(&[]), &[]);
}

#[test]
fn mods_add_lists_and_words() {
    let mut lexicon = english();
    let warnings = lexicon
        .set_connotation_list(
            "freezing",
            Path::new("freezing.txt"),
            "freeze\nfrost\nice\n",
        )
        .unwrap();
    assert!(warnings.is_empty());
    check_connotations(&lexicon, "FROZEN", &["freezing"]);
    check_connotations(&lexicon, "icy", &[]);
    let connoted = |lexicon: &Lexicon| {
        let graph = lexicon.connoted_graph(&["freezing"]);
        ["frozen", "frost", "icy"].map(|w| {
            let letters: Vec<u8> = w.bytes().map(|b| b - b'a').collect();
            graph
                .walk(graph.root(), &letters)
                .is_some_and(|n| graph.is_word(n))
        })
    };
    assert_eq!(connoted(&lexicon), [true, true, false]);
    assert!(!lexicon.contains("glorp"));
    lexicon
        .add_words(Path::new("extra.txt"), "glorp\nsword\n")
        .unwrap();
    assert!(lexicon.contains("glorp") && lexicon.contains("sword"));
    assert_eq!(lexicon.len(), english().len() + 1);
    lexicon
        .set_connotation_list("freezing", Path::new("freezing.txt"), "icy\n")
        .unwrap();
    check_connotations(&lexicon, "frost", &[]);
    check_connotations(&lexicon, "icy", &["freezing"]);
    assert_eq!(
        connoted(&lexicon),
        [false, false, true],
        "the cache follows the list"
    );
    let err = lexicon
        .set_connotation_list("bad", Path::new("bad.txt"), "Ice\n")
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad.txt:1:1: 'Ice' has capitals; words are written in lowercase ('ice')"
    );
    check_connotations(&lexicon, "icy", &["freezing"]);
}

#[test]
fn a_mod_folder_loads_like_the_shipped_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("connotations")).unwrap();
    std::fs::write(dir.path().join("words.txt"), "frost\nice\nsword\nswords\n").unwrap();
    std::fs::write(dir.path().join("connotations/freezing.txt"), "frost\nice\n").unwrap();
    let (lexicon, warnings) = Lexicon::load_dir(dir.path()).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(lexicon.len(), 4);
    assert_eq!(lexicon.list_names().collect::<Vec<_>>(), vec!["freezing"]);
    check_connotations(&lexicon, "ices", &["freezing"]);
    std::fs::write(dir.path().join("connotations/Bad Name.txt"), "x\n").unwrap();
    assert!(Lexicon::load_dir(dir.path()).is_err());
}

#[test]
fn the_shipped_folder_and_the_compiled_lexicon_agree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lexicon");
    let (loaded, warnings) = Lexicon::load_dir(&root).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let compiled = english();
    assert_eq!(loaded.dictionary_bytes(), compiled.dictionary_bytes());
    assert_eq!(
        loaded.list_names().collect::<Vec<_>>(),
        compiled.list_names().collect::<Vec<_>>()
    );
    for name in ["attacking", "defending", "sneaking", "burning"] {
        let words = compiled.list_words(name).unwrap();
        assert!(words.len() >= 150, "{name}: {}", words.len());
        assert!(
            words.iter().all(|w| compiled.contains(w)),
            "{name} has a word the dictionary lacks"
        );
        assert_eq!(loaded.list_words(name), Some(words));
    }
}

#[test]
fn the_design_documents_words_are_in_their_lists() {
    let lexicon = english();
    for (list, words) in [
        ("attacking", ["sword", "attack", "destroy", "assail"]),
        ("defending", ["shield", "defense", "protect", "castle"]),
        ("sneaking", ["spy", "hide", "sneak", "assassinate"]),
        ("burning", ["fire", "burn", "cut", "carve"]),
    ] {
        for word in words {
            assert!(lexicon.has_connotation(word, list), "{word} is not {list}");
        }
    }
}

#[test]
fn the_lexicon_is_small() {
    let stats = english().stats();
    assert!(stats.total_bytes < 2 * 1024 * 1024, "{stats:?}");
    assert_eq!(stats.lists.len(), 4);
}

/// The words with a connotation, found from the lists outward, are exactly those that the
/// word-by-word check finds among every dictionary word (here those from `a` to `d`, which
/// keeps a debug build's test short).
#[test]
fn words_with_connotations_are_found_from_the_lists() {
    let lexicon = english();
    for lists in [&["attacking", "sneaking"][..], &["burning"][..]] {
        let found: Vec<String> = lexicon
            .words_with_connotations(lists)
            .into_iter()
            .filter(|w| w.as_str() < "e")
            .collect();
        let mut all = lexicon.words.range().lt("e").into_stream();
        let mut expected = Vec::new();
        while let Some(word) = all.next() {
            let word = std::str::from_utf8(word).unwrap();
            if lexicon.connotations(word).iter().any(|c| lists.contains(c)) {
                expected.push(word.to_string());
            }
        }
        assert!(expected.len() > 100, "{lists:?}: {}", expected.len());
        assert_eq!(found, expected, "{lists:?}");
    }
    let graph = lexicon.connoted_graph(&["attacking"]);
    let walk = |w: &str| {
        let letters: Vec<u8> = w.bytes().map(|b| b - b'a').collect();
        graph
            .walk(graph.root(), &letters)
            .is_some_and(|n| graph.is_word(n))
    };
    assert!(walk("sword") && walk("swords") && !walk("cat"));
}

/// Once the letter graph is made, `contains` looks words up there: it answers as the fst
/// does, for every word of the dictionary (in any case), near-misses, and words with letters
/// the graph does not hold.
#[test]
fn looking_up_in_the_graph_answers_as_the_fst() {
    let plain = Lexicon::english();
    let graphed = Lexicon::english();
    graphed.graph();
    let words = collect(plain.words.stream(), 40_000);
    let mut checked = 0;
    for word in words.iter().step_by(7) {
        let upper = word.to_ascii_uppercase();
        let mut missing_end = upper.clone();
        missing_end.pop();
        let doubled = format!("{upper}Q");
        for probe in [
            word.as_str(),
            &upper,
            &missing_end,
            &doubled,
            "",
            "ÉTÉ",
            "DON'T",
            "A1",
        ] {
            assert_eq!(graphed.contains(probe), plain.contains(probe), "{probe:?}");
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked} words looked up");
}

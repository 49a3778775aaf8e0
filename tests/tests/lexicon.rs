//! The dictionary and connotation lists through the `scryptic lexicon` commands.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic};

#[test]
fn check_says_what_each_word_is() {
    let o = scryptic(&["lexicon", "check", "SWORDS", "hidden", "qi"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert_eq!(
        o.out,
        "SWORDS: word; base form sword; attacking, burning\nHIDDEN: word; base form hide; sneaking\nQI: word\n"
    );
    let o = scryptic(&["lexicon", "check", "swordz", "--json"]);
    assert_eq!(o.code, 1);
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(json[0]["valid"], false);
}

#[test]
fn every_query_kind_answers() {
    let lines = |args: &[&str]| {
        let o = scryptic(args);
        assert_eq!(o.code, 0, "{args:?}: {o:?}");
        o.out.lines().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(
        lines(&["lexicon", "query", "--prefix", "swordf"]),
        ["swordfish", "swordfishes"]
    );
    assert!(lines(&["lexicon", "query", "--fuzzy", "swerd"]).contains(&"sword".to_string()));
    assert_eq!(
        lines(&["lexicon", "query", "--pattern", "sw?rd"]),
        ["sward", "sword"]
    );
    let anagrams = lines(&["lexicon", "query", "--anagram", "aeinrst", "--exact"]);
    assert!(anagrams.contains(&"nastier".to_string()) && anagrams.contains(&"retains".to_string()));
    let json: Vec<String> = serde_json::from_str(
        &scryptic(&[
            "lexicon", "query", "--prefix", "qu", "--limit", "3", "--json",
        ])
        .out,
    )
    .unwrap();
    assert_eq!(json.len(), 3);
}

#[test]
fn bad_queries_are_refused_with_reasons() {
    let o = scryptic(&["lexicon", "query", "--pattern", "s%rd"]);
    assert_eq!(o.code, 1);
    assert!(
        o.err.contains("`%` at position 2 cannot be in a pattern"),
        "{}",
        o.err
    );
    let o = scryptic(&["lexicon", "query", "--fuzzy", "sword", "--distance", "5"]);
    assert_eq!(o.code, 1);
    assert_eq!(
        scryptic(&["lexicon", "query"]).code,
        2,
        "a search kind is required"
    );
}

#[test]
fn build_checks_a_list_and_writes_a_dictionary_that_loads() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("mine.txt");
    let fst = dir.path().join("mine.fst");
    std::fs::write(&list, "glorp\nzap\n").unwrap();
    let o = scryptic(&[
        "lexicon",
        "build",
        list.to_str().unwrap(),
        "--out",
        fst.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.starts_with("built 2 words"), "{}", o.out);
    let o = scryptic(&[
        "lexicon",
        "check",
        "glorp",
        "sword",
        "--lexicon",
        fst.to_str().unwrap(),
    ]);
    assert_eq!(o.out, "GLORP: word\nSWORD: not a word\n");
    std::fs::write(&list, "glorp\nZap\n").unwrap();
    let o = scryptic(&["lexicon", "build", list.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.err.contains("mine.txt:2:1: 'Zap' has capitals"),
        "{}",
        o.err
    );
}

#[test]
fn the_shipped_list_builds_clean() {
    let words = root().join("lexicon/words.txt");
    let o = scryptic(&["lexicon", "build", words.to_str().unwrap(), "--json"]);
    assert_eq!(o.code, 0, "{o:?}");
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert!(json["words"].as_u64().unwrap() >= 150_000);
    assert_eq!(json["warnings"].as_array().unwrap().len(), 0);
}

#[test]
fn a_mod_adds_a_connotation_list() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("connotations")).unwrap();
    std::fs::write(dir.path().join("connotations/freezing.txt"), "frost\nice\n").unwrap();
    std::fs::write(dir.path().join("extra-words.txt"), "glorp\n").unwrap();
    let m = dir.path().to_str().unwrap();
    let o = scryptic(&["lexicon", "check", "FROSTS", "glorp", "--mod", m]);
    assert_eq!(
        o.out, "FROSTS: word; base form frost; freezing\nGLORP: word\n",
        "{o:?}"
    );
    let o = scryptic(&["lexicon", "stats", "--mod", m, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(json["lists"].as_array().unwrap().len(), 5);
}

#[test]
fn stats_reports_sizes() {
    let o = scryptic(&["lexicon", "stats"]);
    assert_eq!(o.code, 0);
    assert!(o.out.contains("connotation attacking:"), "{}", o.out);
}

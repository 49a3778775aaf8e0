//! The repository's own documents: every file a source, a script, a document or `--help` names
//! exists in the repository (none points at design notes users do not have), and the page of
//! rule constants is the rule sets' own registry, written out.
//! `SCRYPTIC_BLESS=1 cargo test -p scryptic-tests --test docs` writes docs/rule-constants.md
//! anew after a constant changes.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::RuleSet;
use scryptic_tests::root;
use std::path::{Path, PathBuf};

/// The files whose words are read: sources, scripts, documents, data and the page's files.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let skipped = ["target", ".git", "fuzz", "corpus"];
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            // Fuzz inputs are mutated strangers' files, not the project's words.
            let fuzz_inputs = path.ends_with("tests/fuzz");
            if !skipped.contains(&name.as_str()) && !fuzz_inputs {
                files(&path, out);
            }
        } else if ["rs", "md", "lua", "ron", "toml", "html", "js"]
            .iter()
            .any(|e| name.ends_with(&format!(".{e}")))
            || name == "run"
        {
            out.push(path);
        }
    }
}

/// Every `NAME.md` or `path/NAME.md` a text names, and every target of a Markdown link.
fn references(text: &str, markdown: bool) -> Vec<String> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut found: Vec<String> = text
        .split(|c: char| !is_path(c))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.ends_with(".md") && w.len() > 3)
        .map(|w| w.trim_start_matches("./").to_string())
        .collect();
    if markdown {
        for link in text.split("](").skip(1) {
            let target = link.split([')', ' ']).next().unwrap_or_default();
            let target = target.split('#').next().unwrap_or_default();
            if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                found.push(target.to_string());
            }
        }
    }
    found
}

#[test]
fn every_file_named_exists_in_the_repository() {
    let root = root();
    let mut all = Vec::new();
    files(&root, &mut all);
    let mut missing = Vec::new();
    for file in &all {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let markdown = file.extension().is_some_and(|e| e == "md");
        // This file's own examples name nothing.
        if file.ends_with("tests/tests/docs.rs") {
            continue;
        }
        for named in references(&text, markdown) {
            // The example pack docs/PACKS.md builds from an empty folder is made, not shipped.
            if named.starts_with("harvest/") {
                continue;
            }
            // A pack's changelog (docs/PACKS.md) is a pack's own file; the shipped packs have
            // none.
            if named.ends_with("CHANGELOG.md") {
                continue;
            }
            // A name is found from the file's folder or one of its parents within the
            // repository (`../README.md` from a crate's manifest folder), never elsewhere.
            let exists = file
                .ancestors()
                .skip(1)
                .take_while(|dir| dir.starts_with(&root))
                .any(|dir| dir.join(&named).exists());
            if !exists {
                let shown = file
                    .strip_prefix(&root)
                    .unwrap_or(file)
                    .display()
                    .to_string();
                missing.push(format!("{shown}: {named}"));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "files named that the repository does not have:\n{}",
        missing.join("\n")
    );
}

/// A constant's value in `rules`, as a rule file writes it (a long table shortened).
fn value_of(rules: &serde_json::Value, key: &str) -> String {
    let (section, field) = key.split_once('.').unwrap();
    let value = &rules[section][field];
    let text = match value {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.chars().count() > 40 {
        "(a table: `scryptic rules show`)".to_string()
    } else {
        text.replace('|', "\\|")
    }
}

/// docs/rule-constants.md as the registry and the presets make it.
fn constants_page() -> String {
    let presets: Vec<(&str, serde_json::Value)> = ["classic", "gdd-1.6"]
        .into_iter()
        .map(|name| {
            let rules = RuleSet::preset(name).unwrap();
            (name, serde_json::to_value(&rules).unwrap())
        })
        .collect();
    let mut page = String::from(
        "# Rule constants\n\n\
         Every constant of a rule set, by the name a rule-set file and `--set` use, with its\n\
         range and its value in the two presets. Generated from the rule sets' own registry\n\
         (a test fails when this page and the registry differ); [docs/RULES.md](RULES.md) says\n\
         what the game does with them, `scryptic rules show PRESET` prints a whole rule set.\n\n\
         | constant | what it is | range | classic | gdd-1.6 |\n\
         | --- | --- | --- | --- | --- |\n",
    );
    for constant in RuleSet::constants() {
        let description = constant
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace('|', "\\|");
        let range = constant
            .range
            .map(|(lo, hi)| format!("{lo} to {hi}"))
            .unwrap_or_default();
        let values: Vec<String> = presets
            .iter()
            .map(|(_, rules)| value_of(rules, constant.key))
            .collect();
        page.push_str(&format!(
            "| `{}` | {description} | {range} | {} | {} |\n",
            constant.key, values[0], values[1]
        ));
    }
    page
}

#[test]
fn the_rule_constants_page_is_the_registry() {
    let path = root().join("docs/rule-constants.md");
    let page = constants_page();
    if std::env::var_os("SCRYPTIC_BLESS").is_some() {
        std::fs::write(&path, &page).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == page,
        "docs/rule-constants.md differs from the rule sets' registry: run \
         `SCRYPTIC_BLESS=1 cargo test -p scryptic-tests --test docs`"
    );
    let rules = std::fs::read_to_string(root().join("docs/RULES.md")).unwrap();
    assert!(
        rules.contains("(rule-constants.md)"),
        "docs/RULES.md links the page"
    );
    // Every constant docs/RULES.md names is one of the registry's.
    let keys: Vec<&str> = RuleSet::constants().iter().map(|c| c.key).collect();
    for named in rules.split('`').skip(1).step_by(2) {
        let key = named.split(':').next().unwrap_or_default();
        let looks_like_key = key.split_once('.').is_some_and(|(s, f)| {
            !s.is_empty()
                && !f.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
        });
        let section = key.split('.').next().unwrap_or_default();
        let a_section = keys.iter().any(|k| k.split('.').next() == Some(section));
        if looks_like_key && a_section {
            assert!(
                keys.contains(&key),
                "docs/RULES.md names `{key}`, which is no rule constant"
            );
        }
    }
}

#[test]
fn the_reference_finder_sees_what_it_looks_for() {
    let mut found = references("see docs/X.md section 4, and [x](a/b.md#c) or Y.md.", true);
    found.sort();
    found.dedup();
    assert_eq!(found, ["Y.md", "a/b.md", "docs/X.md"]);
}

/// A game's rule named by its number (`WW-8`, `LC-5`, `SC-7`) anywhere in the repository is
/// one its pack's README numbers, where a reader can look it up.
#[test]
fn every_numbered_rule_named_is_in_its_packs_readme() {
    let root = root();
    let mut all = Vec::new();
    files(&root, &mut all);
    let numbered = |readme: &str| -> Vec<String> {
        let text = std::fs::read_to_string(root.join(readme)).unwrap();
        rule_numbers(&text)
    };
    let known = [
        ("WW", numbered("packs/word-wars/README.md")),
        ("LC", numbered("packs/lexicon-crossing/README.md")),
        ("SC", numbered("packs/scryper/README.md")),
    ];
    let mut unknown = Vec::new();
    for file in &all {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        if file.ends_with("tests/tests/docs.rs") {
            continue;
        }
        for named in rule_numbers(&text) {
            let (game, _) = named.split_once('-').unwrap();
            let (_, listed) = known.iter().find(|(g, _)| *g == game).unwrap();
            if !listed.contains(&named) {
                let shown = file
                    .strip_prefix(&root)
                    .unwrap_or(file)
                    .display()
                    .to_string();
                unknown.push(format!("{shown}: {named}"));
            }
        }
    }
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "rules named that no pack README numbers:\n{}",
        unknown.join("\n")
    );
}

/// Every `WW-n`, `LC-n` and `SC-n` in `text`, ranges (`LC-4 to LC-7`) counted by their ends.
fn rule_numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        for game in ["WW", "LC", "SC"] {
            if let Some(n) = word.strip_prefix(game).and_then(|r| r.strip_prefix('-'))
                && !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
            {
                found.push(word.to_string());
            }
        }
    }
    found
}

//! SCRIPTING.md's "Write your first pack", followed as a person would: from a blank folder,
//! with the `scryptic` binary, every command and every file exactly as the guide gives them
//! (read from the guide itself, so that the guide and this test cannot drift apart).
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The guide's walk-through, as fenced blocks in order: (language, text).
fn guide_blocks() -> Vec<(String, String)> {
    section_blocks("SCRIPTING.md", "## Write your first pack")
}

/// The fenced blocks of the section headed `heading` of the repository's document `file`,
/// in order: (language, text).
fn section_blocks(file: &str, heading: &str) -> Vec<(String, String)> {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file))
            .unwrap();
    let section = guide
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("{file} has the section {heading}"))
        .split("\n## ")
        .next()
        .unwrap();
    let mut blocks = Vec::new();
    // The language, the fence's indent and the lines so far.
    let mut current: Option<(String, usize, Vec<String>)> = None;
    for line in section.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match (&mut current, trimmed.strip_prefix("```")) {
            (None, Some(lang)) => current = Some((lang.to_string(), indent, Vec::new())),
            (Some(_), Some(_)) => {
                let (lang, _, lines) = current.take().unwrap();
                blocks.push((lang, lines.join("\n") + "\n"));
            }
            (Some((_, indent, lines)), None) => {
                // The blocks are indented under their list items, as deep as their fences.
                let cut = line.len().min(*indent);
                let text = if line[..cut].trim().is_empty() {
                    &line[cut..]
                } else {
                    line
                };
                lines.push(text.to_string());
            }
            (None, None) => {}
        }
    }
    blocks
}

/// Runs `scryptic ARGS` in `dir` (its data folder inside `dir` too), typing `input`.
fn scryptic(dir: &Path, args: &[&str], input: &str) -> (bool, String) {
    scryptic_with(dir, &[], args, input)
}

/// As `scryptic`, with the environment's `env` besides.
fn scryptic_with(dir: &Path, env: &[(&str, &str)], args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scryptic"))
        .args(args)
        // English, whatever this machine speaks, unless `env` says otherwise.
        .env_remove("SCRYPTIC_LANG")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .envs(env.iter().copied())
        .current_dir(dir)
        .env("SCRYPTIC_DATA", dir.join("data"))
        .env_remove("SCRYPTIC_PACK_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that reads nothing may be gone before its input is written: that is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_first_pack_walk_through_works_from_a_blank_folder() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = guide_blocks();
    let kinds: Vec<&str> = blocks.iter().map(|(lang, _)| lang.as_str()).collect();
    assert_eq!(
        kinds,
        ["sh", "ron", "lua", "sh", "ron", "sh", "sh", "sh"],
        "the guide's steps"
    );
    let mut played = String::new();
    for (lang, text) in &blocks {
        match lang.as_str() {
            // A block that names its file is that file.
            "ron" if text.starts_with("// harvest/") => {
                let path = text[3..].split(':').next().unwrap();
                let file = dir.path().join(path);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, text).unwrap();
            }
            "ron" => {
                let manifest = dir.path().join("harvest/pack.ron");
                let old = std::fs::read_to_string(&manifest).unwrap();
                let new = old.trim_end().strip_suffix(')').unwrap().to_string() + text + ")\n";
                std::fs::write(manifest, new).unwrap();
            }
            "lua" => std::fs::write(dir.path().join("harvest/scripts/main.lua"), text).unwrap(),
            _ => {
                for command in text.lines().filter(|l| !l.trim().is_empty()) {
                    let words: Vec<&str> = command.split_whitespace().collect();
                    assert_eq!(words[0], "scryptic", "{command}");
                    let (ok, output) = scryptic(dir.path(), &words[1..], "quit\n");
                    assert!(ok, "`{command}` failed:\n{output}");
                    if words[1] == "play" {
                        played = output;
                    } else if words[2] == "test" {
                        assert!(output.contains("1 scenario passed"), "{output}");
                    }
                }
            }
        }
    }
    assert!(
        played.contains("The first town taken pays 15 points."),
        "the script read the setting chosen: {played}"
    );
    assert!(dir.path().join("harvest-0.1.0.zip").is_file());
    assert!(dir.path().join("data/packs/harvest/pack.ron").is_file());
    let (ok, listed) = scryptic(dir.path(), &["pack", "list"], "");
    assert!(ok && listed.contains("harvest"), "{listed}");
}

/// The guide's rule-set file for a split race on a shared crossword is checked by `scryptic
/// rules check`, and a game under it deals and trades as the guide says.
#[test]
fn the_guides_rule_set_models_example_holds() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = section_blocks(
        "SCRIPTING.md",
        "## Rule-set models: games other than Scryptic",
    );
    let (_, text) = blocks
        .iter()
        .find(|(lang, _)| lang == "ron")
        .expect("the section has its rule-set file");
    let file = dir.path().join("split-race.ron");
    std::fs::write(&file, text).unwrap();
    let (ok, out) = scryptic(dir.path(), &["rules", "check", "split-race.ron"], "");
    assert!(ok, "{out}");
    let rules = scryptic::rules::RuleSet::from_file_text(&file, text).unwrap();
    let map =
        scryptic::Map::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tutorial.ron"))
            .unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let mut game = scryptic::game::Game::new(&map, rules, lexicon, 1);
    let gold = scryptic::Player::Gold;
    let held = |g: &scryptic::game::Game, p| g.rack_letters(p).len() + g.pool_letters(p).len();
    let set: i64 = game.rules().letters.tiles.values().map(|t| t.count).sum();
    assert_eq!(
        (held(&game, gold) + held(&game, scryptic::Player::Silver)) as i64,
        set,
        "one set split between the players"
    );
    assert_eq!(game.rack_letters(gold).len(), 7);
    let letter = game.rack_letters(gold)[..1].to_string();
    game.apply(scryptic::game::Action::Exchange { letters: letter })
        .unwrap();
    assert_eq!(
        game.score(scryptic::Player::Silver).base,
        1,
        "a point a letter"
    );
    // The trade ended gold's turn; silver forfeits the round, and, having lost, starts the
    // second of three.
    game.apply(scryptic::game::Action::Forfeit).unwrap();
    let next = game.next_round().expect("a match of three rounds");
    assert_eq!(next.map.scenario.first, Some(scryptic::Player::Silver));
    assert_eq!(next.earlier.len(), 1);
    assert_eq!(
        next.earlier[0].points,
        [0, 2],
        "silver's trade point, in half points"
    );
}

/// The file a block of the pack guide writes, named on its first line (`// harvest/pack.ron:
/// ...`, `-- harvest/scripts/x.lua: ...`, `<!-- harvest/README.md -->`).
fn named_file(text: &str) -> Option<&str> {
    let first = text.lines().next()?;
    let named = first
        .strip_prefix("// ")
        .or_else(|| first.strip_prefix("-- "))
        .or_else(|| first.strip_prefix("<!-- "))?;
    Some(named.split([':', ' ']).next().unwrap_or(named))
}

/// docs/PACKS.md's complete pack, built as an author would from an empty folder with the
/// docs alone: every file as written there, every command run as given; then what the page
/// says happens is checked (the scripts take part in the balance, both languages speak, the
/// granary and the omen pay, the save replays).
#[test]
fn the_complete_pack_of_the_pack_format_page_works_from_a_blank_folder() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = section_blocks("docs/PACKS.md", "## A complete pack, from an empty folder");
    let mut outputs: Vec<(String, String)> = Vec::new();
    for (i, (lang, text)) in blocks.iter().enumerate() {
        if lang == "text" {
            continue; // What is typed at the `play` before it.
        }
        if lang != "sh" {
            let path = named_file(text).unwrap_or_else(|| panic!("block {i} names no file"));
            let file = dir.path().join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
            continue;
        }
        let typed = match blocks.get(i + 1) {
            Some((lang, typed)) if lang == "text" => typed.as_str(),
            _ => "",
        };
        for command in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut words: Vec<&str> = command.split_whitespace().collect();
            if words[0] == "rm" {
                for file in &words[1..] {
                    std::fs::remove_file(dir.path().join(file)).unwrap();
                }
                continue;
            }
            let env: Vec<(&str, &str)> = words.iter().map_while(|w| w.split_once('=')).collect();
            words.drain(..env.len());
            assert_eq!(words[0], "scryptic", "{command}");
            let (ok, output) = scryptic_with(dir.path(), &env, &words[1..], typed);
            assert!(ok, "`{command}` failed:\n{output}");
            outputs.push((command.to_string(), output));
        }
    }
    let said = |start: &str| -> &str {
        &outputs
            .iter()
            .find(|(c, _)| c.starts_with(start))
            .unwrap_or_else(|| panic!("the page runs `{start}`"))
            .1
    };
    assert!(said("scryptic pack test harvest ").contains("2 scenarios passed"));
    assert!(said("scryptic pack test harvest-omens").contains("1 scenario passed"));
    assert!(
        said("scryptic balance").contains("scripts taking part: scripts/harvest.lua"),
        "{}",
        said("scryptic balance")
    );
    let played = said("SCRYPTIC_LANG=fr scryptic play");
    for line in [
        "» La première ville prise rapporte 10 points.",
        "» Des oies survolent les champs de silver : bon présage (+1).",
        "» gold ouvre le grenier : 5 points.",
    ] {
        assert!(played.contains(line), "{line} is not told:\n{played}");
        assert!(
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/PACKS.md"))
                .unwrap()
                .contains(&format!("`{line}`")),
            "the page says {line}"
        );
    }
    let replayed = said("scryptic replay");
    assert!(replayed.contains("gold ouvre le grenier"), "{replayed}");
    for id in ["harvest", "harvest-omens"] {
        assert!(
            dir.path()
                .join(format!("data/packs/{id}/pack.ron"))
                .is_file()
        );
        assert!(
            !dir.path().join(format!("data/packs/{id}/types")).exists(),
            "the author's tooling is not shipped"
        );
    }
}

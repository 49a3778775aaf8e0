//! Saves a stranger might send, or scripts that make a replay differ from its game: the save
//! records a checksum of the game after each action and a replay finds the first action where
//! it departs; a save's script that is not the file its game was played with, or settings out
//! of their pack's ranges, are refused; a replay's scripts are bounded in all. The scripts are
//! in `tests/hostile/replay/`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::board::Player;
use scryptic::game::Action;
use scryptic::lexicon::Lexicon;
use scryptic::save::{Checks, SaveFile, ScriptSource};
use scryptic::script::{ReplayOptions, ReplayStop, ScriptedGame};
use scryptic_tests::hostile::{Hostile, corpus, hostile_map};
use scryptic_tests::scryptic;
use std::sync::Arc;

fn lexicon() -> Arc<Lexicon> {
    Arc::new(Lexicon::english())
}

fn the(name: &str) -> Hostile {
    corpus("replay")
        .into_iter()
        .find(|h| h.name.ends_with(name))
        .unwrap_or_else(|| panic!("{name} is in tests/hostile/replay"))
}

/// A game of `hostile_map` with `hostile` as the level's script, its turns ended `turns` times.
fn played(hostile: &Hostile, turns: usize) -> ScriptedGame {
    played_passing(hostile, turns, None)
}

/// As `played`, the game ending after `passes` passes in a row (else the preset's count).
fn played_passing(hostile: &Hostile, turns: usize, passes: Option<i64>) -> ScriptedGame {
    let mut map = hostile_map();
    // Empty pools, so that ending turns never fills a rack past its limit.
    for seat in [Player::Gold, Player::Silver] {
        map.scenario.pools.insert(seat, String::new());
    }
    let script = ScriptSource {
        name: hostile.name.clone(),
        source: hostile.source.clone(),
    };
    let mut rules = map.rule_set().unwrap();
    if let Some(passes) = passes {
        rules.end.passes_to_end = passes;
    }
    let (mut game, errors) =
        ScriptedGame::start(&map, rules, lexicon(), 3, vec![script], None).unwrap();
    assert!(errors.is_empty(), "{errors:?}");
    for _ in 0..turns {
        if game.game().result().is_some() {
            break;
        }
        game.apply(Action::EndTurn).unwrap();
    }
    game
}

/// Whatever makes a replay differ, the first action after which its state differs from the
/// game's is found and named with the scripts that ran in it; a replay that does not differ
/// says nothing.
#[test]
fn a_replay_that_departs_from_its_game_is_found_at_the_first_action() {
    let hostile = the("tables-as-keys.lua");
    let game = played(&hostile, 12);
    let save = game.save();
    assert_eq!(
        save.checks
            .as_ref()
            .and_then(Checks::sums)
            .map(|(quick, full)| (quick.len(), full.len())),
        Some((save.actions.len(), 1)),
        "a quick checksum an action, and the full one at the end"
    );
    // Run after run, the order `pairs` takes may or may not change: a replay that reaches
    // another state must say where, one that does not must say nothing.
    for _ in 0..4 {
        let (replayed, _) = ScriptedGame::from_save(&save, lexicon()).unwrap();
        let same = replayed.game().checksum() == game.game().checksum();
        match replayed.departure() {
            None => assert!(same, "the replay differs and nothing says so"),
            Some(departure) => {
                assert!(departure.action >= 1 && departure.action <= save.actions.len());
                assert!(
                    departure.to_string().contains(&hostile.expect),
                    "{departure}"
                );
            }
        }
    }
    // Whatever the cause (here a checksum the save holds for the third action is not the
    // game's), the first action found is that one, with the scripts that ran in it.
    let steady = Hostile {
        name: "steady.lua".into(),
        source: "scryptic.on('turn_end', function(game) game:award('gold', 1) end)".into(),
        expect: String::new(),
    };
    let save = played(&steady, 6).save();
    let (replayed, _) = ScriptedGame::from_save(&save, lexicon()).unwrap();
    assert!(
        replayed.departure().is_none(),
        "a steady game replays as played"
    );
    let mut forged = save.clone();
    let (mut quick, full) = forged.checks.as_ref().and_then(Checks::sums).unwrap();
    quick[2] ^= 1;
    forged.checks = Some(Checks::of(&quick, &full));
    let (replayed, _) = ScriptedGame::from_save(&forged, lexicon()).unwrap();
    let departure = replayed.departure().expect("found").clone();
    assert_eq!(departure.action, 3, "{departure}");
    assert!(departure.to_string().contains("at action 3"), "{departure}");
    assert_eq!(departure.packs, [String::new()], "the level's scripts ran");
    assert!(departure.to_string().contains("the level's"), "{departure}");
    // A change only the full checksum sees (a letter's place kept, its letter not) is found
    // at the next full checksum, here the save's last action, after the last that agreed.
    let mut forged = save.clone();
    let (quick, mut full) = forged.checks.as_ref().and_then(Checks::sums).unwrap();
    full[0] ^= 1;
    forged.checks = Some(Checks::of(&quick, &full));
    let (replayed, _) = ScriptedGame::from_save(&forged, lexicon()).unwrap();
    let departure = replayed.departure().expect("found").clone();
    assert_eq!(
        (departure.since, departure.action),
        (Some(0), save.actions.len())
    );
    assert!(
        departure
            .to_string()
            .contains(&format!("between actions 1 and {}", save.actions.len())),
        "{departure}"
    );
    // A save without checks (an older one) replays as before, with nothing to compare.
    let mut old = save.clone();
    old.checks = None;
    let (replayed, _) = ScriptedGame::from_save(&old, lexicon()).unwrap();
    assert!(replayed.departure().is_none());
}

/// Checks that cannot be a save's are refused with the save, naming them.
#[test]
fn forged_checks_are_refused() {
    let game = played(&the("tables-as-keys.lua"), 4);
    let too_many = "0".repeat(16 * 40);
    let cases = [
        ("xyz", ""),
        (too_many.as_str(), ""),
        ("0123456789abcdeg", ""),
        ("", too_many.as_str()),
        ("", "123"),
    ];
    for (after, full) in cases {
        let mut save = game.save();
        save.checks = Some(Checks {
            version: scryptic::game::CHECKSUM_VERSION,
            after: after.to_string(),
            full: full.to_string(),
        });
        let problems = save.problems();
        assert!(
            problems.iter().any(|p| p.to_string().contains("checks")),
            "{after}: {problems:?}"
        );
    }
}

/// A replay's scripts are bounded in all, deterministically (by their instructions), and a
/// look at each action (a progress bar, Ctrl-C) may stop it: either gives the game where it
/// stopped; `from_save` refuses a replay its scripts would make too long.
#[test]
fn a_replay_is_bounded_and_can_be_stopped() {
    let hostile = the("slow-every-turn.lua");
    let save = played(&hostile, 20).save();
    assert!(save.actions.len() >= 4, "{}", save.actions.len());
    let options = ReplayOptions {
        max_work: 3_000_000,
        ..ReplayOptions::default()
    };
    let replayed = ScriptedGame::from_save_with(&save, lexicon(), options).unwrap();
    let Some(ReplayStop::Work { at, spent, most }) = replayed.stopped.clone() else {
        panic!("not stopped: {:?}", replayed.stopped);
    };
    assert!(at < save.actions.len() && spent > most, "{at} {spent}");
    assert_eq!(replayed.game.game().log().len(), at);
    assert!(
        replayed
            .stopped
            .unwrap()
            .to_string()
            .contains(&hostile.expect),
        "the message names the limit"
    );

    let mut seen = 0;
    let mut look = |at: usize, _: usize| {
        seen = at;
        at < 2
    };
    let options = ReplayOptions {
        progress: Some(&mut look),
        ..ReplayOptions::default()
    };
    let replayed = ScriptedGame::from_save_with(&save, lexicon(), options).unwrap();
    assert_eq!(replayed.stopped, Some(ReplayStop::Stopped { at: 2 }));
    assert_eq!(replayed.game.game().log().len(), 2);
    assert_eq!(seen, 2);
}

/// Writes a pack `award` whose mode's script awards gold `points` a turn, in `dir`.
fn award_pack(dir: &std::path::Path) -> std::path::PathBuf {
    let pack = dir.join("award");
    std::fs::create_dir_all(pack.join("scripts")).unwrap();
    std::fs::write(
        pack.join("pack.ron"),
        r#"(format: 1, id: "award", title: "Award", version: "1.0.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "m", title: "M", map: "core:maps/tutorial.ron", scripts: ["scripts/award.lua"])],
            settings: [(id: "bonus", title: "Bonus", kind: Int(min: 1, max: 5, default: 1))])"#,
    )
    .unwrap();
    std::fs::write(
        pack.join("scripts/award.lua"),
        "scryptic.on('turn_end', function(game) game:award('gold', game:setting('bonus')) end)\n",
    )
    .unwrap();
    pack
}

/// A game of the `award` pack (in `dir`) of three turns, saved: the pack's folder as an
/// argument, and the save's path.
fn award_game(dir: &std::path::Path) -> (String, std::path::PathBuf) {
    let pack_arg = award_pack(dir).display().to_string();
    let save_path = dir.join("game.ron");
    let o = scryptic_tests::scryptic_typing(
        &["play", "--seed", "1", "--pack", &pack_arg],
        &format!("end\nend\nend\nsave {}\nquit\n", save_path.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    (pack_arg, save_path)
}

/// A save whose script is not the file its game was played with (edited by hand, or by a
/// stranger) is refused, naming the script; replayed only with `--allow-changed-scripts`,
/// with a warning, and the replay says where it departs from the game. Settings out of the
/// pack's ranges are refused, naming the setting.
#[test]
fn a_save_with_another_script_or_settings_out_of_range_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (pack_arg, save_path) = award_game(dir.path());
    let save_arg = save_path.display().to_string();
    let o = scryptic(&["replay", &save_arg, "--pack", &pack_arg]);
    assert_eq!(o.code, 0, "the save replays as played: {o:?}");
    assert!(!o.err.contains("departs"), "{}", o.err);

    let mut save = SaveFile::load(&save_path).unwrap();
    let source = &mut save.scripts[0].source;
    *source = source.replace("game:setting('bonus')", "game:setting('bonus') * 7");
    assert!(source.contains("* 7"), "{source}");
    save.save(&save_path).unwrap();
    let replay = |allow: bool| {
        let mut args = vec!["replay", save_arg.as_str(), "--pack", pack_arg.as_str()];
        if allow {
            args.push("--allow-changed-scripts");
        }
        scryptic(&args)
    };
    let o = replay(false);
    assert!(
        o.code == 1
            && o.err.contains("scripts/award.lua")
            && o.err.contains("--allow-changed-scripts"),
        "{o:?}"
    );
    let o = replay(true);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.err
            .contains("warning: the save's script scripts/award.lua")
            && o.err
                .contains("the replay departs from the saved game at action 1"),
        "{}",
        o.err
    );

    let save = SaveFile::load(&save_path).unwrap();
    let mut far = save.clone();
    far.settings
        .insert("bonus".into(), scryptic::save::SettingValue::Int(i64::MAX));
    far.save(&save_path).unwrap();
    let o = replay(true);
    assert!(
        o.code == 1 && o.err.contains("setting `bonus` is 1 to 5"),
        "{o:?}"
    );
}

/// A save of the most actions a save may hold, each running a small handler, is refused before
/// anything is replayed: its actions alone are more work than a replay may do (it once kept
/// `replay` busy 52 s and 436 MB). A long save within the bound replays whole, and `replay`
/// prints the first and last hundred of its events unless `--events` asks for all.
#[test]
fn a_save_of_a_million_actions_is_refused_unreplayed() {
    let hostile = the("small-handler-every-turn.lua");
    let mut save = played(&hostile, 2).save();
    let pass = save.actions[0].clone();
    save.actions = vec![pass; scryptic::limits::MAX_SAVE_ACTIONS];
    save.checks = None;
    assert!(save.problems().is_empty(), "a save may hold that many");
    let mut looked = 0;
    let mut look = |_: usize, _: usize| {
        looked += 1;
        true
    };
    let options = ReplayOptions {
        progress: Some(&mut look),
        ..ReplayOptions::default()
    };
    let refused = ScriptedGame::from_save_with(&save, lexicon(), options)
        .err()
        .expect("refused");
    assert!(refused.to_string().contains(&hostile.expect), "{refused}");
    assert_eq!(looked, 0, "nothing was replayed");

    // The longest game the rules allow here (a thousand passes) replays whole.
    let game = played_passing(&hostile, 999, Some(1000));
    let save = game.save();
    assert_eq!(save.actions.len(), 999);
    let (replayed, events) = ScriptedGame::from_save(&save, lexicon()).unwrap();
    assert!(replayed.departure().is_none());
    assert!(events.len() > 1000, "{}", events.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.ron");
    save.save(&path).unwrap();
    let path = path.display().to_string();
    let o = scryptic(&["replay", &path]);
    assert_eq!(o.code, 0, "{o:?}");
    let numbered = |out: &str| out.lines().filter(|l| l.contains(". ")).count();
    let hidden = events.len() - 200;
    assert!(
        o.out.contains(&format!(
            "... {hidden} events not shown (`--events` prints them all)"
        )),
        "{}",
        o.out
    );
    assert!(
        o.out.contains(&format!("{:>4}. ", events.len())),
        "the last is shown"
    );
    let o = scryptic(&["replay", &path, "--events"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(!o.out.contains("not shown"));
    assert!(numbered(&o.out) >= events.len(), "{}", numbered(&o.out));
}

/// A save's settings are judged against the declarations it carries, so that a save edited to
/// values its pack never allows is refused the same, naming the setting, wherever it is
/// opened: with its pack at hand or not (replayed elsewhere it once failed only later, with
/// what the scripts made of the value).
#[test]
fn a_saves_settings_are_judged_the_same_without_its_pack() {
    let dir = tempfile::tempdir().unwrap();
    let (pack_arg, save_path) = award_game(dir.path());
    let save = SaveFile::load(&save_path).unwrap();
    assert!(
        save.declared.contains_key("bonus"),
        "the save carries its settings' declarations: {:?}",
        save.declared
    );
    let save_arg = save_path.display().to_string();
    let o = scryptic(&["replay", &save_arg]);
    assert_eq!(o.code, 0, "the save replays without its pack: {o:?}");
    use scryptic::save::SettingValue;
    let cases = [
        (
            SettingValue::Int(1000),
            "setting `bonus` is 1 to 5; 1000 is not allowed",
        ),
        (
            SettingValue::Int(-5),
            "setting `bonus` is 1 to 5; -5 is not allowed",
        ),
        (
            SettingValue::Choice("lots".into()),
            "setting `bonus` is not of that type",
        ),
    ];
    for (value, expect) in cases {
        let mut edited = save.clone();
        edited.settings.insert("bonus".into(), value.clone());
        edited.save(&save_path).unwrap();
        for with_pack in [false, true] {
            let mut args = vec!["replay", save_arg.as_str()];
            if with_pack {
                args.extend(["--pack", pack_arg.as_str()]);
            }
            let o = scryptic(&args);
            assert!(
                o.code == 1 && o.err.contains(expect),
                "{value:?}, pack given: {with_pack}: {o:?}"
            );
        }
        let problems = edited.problems();
        assert!(
            problems.iter().any(|p| p.to_string().contains(expect)),
            "{problems:?}"
        );
    }
    let mut undeclared = save.clone();
    undeclared
        .settings
        .insert("extra".into(), SettingValue::Int(1));
    assert!(undeclared.problems().iter().any(|p| {
        p.to_string()
            .contains("the save sets `extra`, which it declares nowhere")
    }));
}

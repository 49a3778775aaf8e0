//! `pack test`: every board played and replayed, and the packs' own scenarios.

use super::*;

/// `pack test` plays AI games of every board with the scripts taking part, and replays them:
/// a shipped pack passes; a script that fails in play is caught, naming the mode and seed.
#[test]
fn pack_test_plays_and_replays_every_board_and_catches_failing_scripts() {
    let o = scryptic(&["pack", "test", &path("packs/wending"), "--games", "1"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("3 games played and replayed"), "{}", o.out);

    let dir = tempfile::tempdir().unwrap();
    scryptic(&["pack", "new", "brittle", "--dir", text(dir.path())]);
    let pack = dir.path().join("brittle");
    std::fs::write(
        pack.join("scripts/main.lua"),
        "scryptic.on('turn_start', function(game, ev)\n    if ev.turn == 3 then error('cracked') end\nend)\n",
    )
    .unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "starting a game does not reach turn 3: {o:?}");
    let o = scryptic(&["pack", "test", text(&pack), "--games", "1"]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err.contains("mode `standard`") && o.err.contains("seed 1") && o.err.contains("cracked"),
        "{}",
        o.err
    );
}

/// `pack test` also plays the pack's scenarios (`tests/*.ron`) with its scripts taking part:
/// the shipped campaign's pass; a step that does not go as written is reported with its file
/// and step, and `pack check` reads scenario files as it reads maps.
#[test]
fn pack_test_plays_the_packs_scenarios() {
    let o = scryptic(&["pack", "test", &path("packs/wending"), "--games", "0"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("1 scenario passed"), "{}", o.out);

    let dir = tempfile::tempdir().unwrap();
    scryptic(&["pack", "new", "storied", "--dir", text(dir.path())]);
    let pack = dir.path().join("storied");
    std::fs::write(
        pack.join("scripts/main.lua"),
        "scryptic.on('game_start', function(game) game:message('Once upon a time') end)\n",
    )
    .unwrap();
    // The greeting's scenario `pack new` wrote is this test's own below.
    std::fs::remove_file(pack.join("tests/first.ron")).unwrap();
    let scenario = |said: &str| {
        format!(
            "(title: \"told\", steps: [Expect((messages: [\"{said}\"], active: Gold)), Do(\"end\"), Expect((active: Silver))])"
        )
    };
    std::fs::write(pack.join("tests/told.ron"), scenario("Once upon")).unwrap();
    let o = scryptic(&["pack", "test", text(&pack), "--games", "0"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("1 scenario passed"), "{}", o.out);

    std::fs::write(pack.join("tests/told.ron"), scenario("Happily ever after")).unwrap();
    let o = scryptic(&["pack", "test", text(&pack), "--games", "0"]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err.contains("told.ron step 1") && o.err.contains("Happily ever after"),
        "{}",
        o.err
    );

    std::fs::write(
        pack.join("tests/told.ron"),
        "(title: \"x\", steps: [Jump(\"a\")])",
    )
    .unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.err.contains("told.ron:1:"), "{}", o.err);
}

/// A scenario that fails says seats by their names and "nobody yet" for a game not over, not
/// the engine's `Some(Gold)`.
#[test]
fn a_scenario_failure_names_seats_in_words() {
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "wording",
        r#"(format: 1, id: "wording", title: "W", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            extension: (modes: ["core:tutorial"], scripts: []))"#,
        &[(
            "tests/early.ron",
            r#"(title: "early", pack: "core", mode: "tutorial",
                steps: [Expect((winner: Silver, to_act: Silver))])"#,
        )],
    );
    let o = scryptic(&[
        "pack",
        "test",
        text(&dir.path().join("wording")),
        "--games",
        "0",
    ]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err
            .contains("winner: expected silver, got nobody yet (the game is not over)"),
        "{}",
        o.err
    );
    assert!(
        o.err.contains("to act: expected silver, got gold"),
        "{}",
        o.err
    );
    assert!(!o.err.contains("Some("), "{}", o.err);
}

/// A scenario's `chapter` counts from 1, as `campaign --chapter` does: `chapter: 2` plays the
/// second chapter, and `chapter: 0` is refused where it is written.
#[test]
fn a_scenarios_chapter_counts_from_one_as_the_campaign_does() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("wending");
    for entry in walk(&root().join("packs/wending")) {
        let to = pack.join(entry.strip_prefix(root().join("packs/wending")).unwrap());
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &to).unwrap();
    }
    let scenario = |chapter: u32| {
        format!(
            "(title: \"the pass\", mode: \"campaign\",\n    chapter: {chapter},\n    steps: [Expect((messages: [\"Chapter 2: the Frozen Pass\"]))])\n"
        )
    };
    std::fs::write(pack.join("tests/2-the-pass.ron"), scenario(2)).unwrap();
    let o = scryptic(&["pack", "test", text(&pack), "--games", "0"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("2 scenarios passed"), "{}", o.out);

    std::fs::write(pack.join("tests/2-the-pass.ron"), scenario(0)).unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err.contains("2-the-pass.ron:2:5") && o.err.contains("chapters count from 1"),
        "{}",
        o.err
    );
}

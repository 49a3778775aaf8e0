//! Packs as their users use them: `scryptic pack ...`, and playing a pack's modes with
//! `--pack` and `--set`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic, scryptic_typing};
use std::path::Path;

fn path(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_shipped_packs_are_listed_and_check_clean() {
    let o = scryptic(&["pack", "list"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("core") && o.out.contains("built in") && o.out.contains("classic"),
        "{}",
        o.out
    );
    let o = scryptic(&["pack", "check", "core"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("ok: core 1.0.0") && o.out.contains("3 games started"),
        "{}",
        o.out
    );
    let o = scryptic(&["pack", "check", &path("packs/wending")]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("3 games started"), "{}", o.out);
    let o = scryptic(&["pack", "info", &path("packs/wending")]);
    assert!(
        o.out.contains("depends on: core ^1.0") && o.out.contains("it runs Lua"),
        "{}",
        o.out
    );
}

/// The walk-through of the guide: make a pack, check it, play it, and export core beside it.
#[test]
fn a_new_pack_checks_plays_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&["pack", "new", "my-first", "--dir", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let pack = dir.path().join("my-first");
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic_typing(&["play", "--seed", "1", "--pack", text(&pack)], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("Welcome: grow your crossword"), "{}", o.out);
    let o = scryptic(&["pack", "new", "my-first", "--dir", text(dir.path())]);
    assert_eq!(o.code, 1, "a second pack of the same name is refused");
    let o = scryptic(&["pack", "new", "My Pack", "--dir", text(dir.path())]);
    assert!(o.code == 1 && o.err.contains("a-z, 0-9"), "{o:?}");

    let o = scryptic(&["pack", "export", "core", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let exported = dir.path().join("core");
    assert!(exported.join("pack.ron").is_file() && exported.join("maps/duel-24.ron").is_file());
    // An exported core is to read and copy from: its id is the built-in pack's own.
    let o = scryptic(&["pack", "check", text(&exported)]);
    assert!(
        o.code == 1 && o.err.contains("built into scryptic"),
        "{o:?}"
    );
    let o = scryptic(&["pack", "export", "core", text(dir.path())]);
    assert!(o.code == 1 && o.err.contains("already exists"), "{o:?}");
}

#[test]
fn a_pack_mode_plays_with_its_settings() {
    let dir = tempfile::tempdir().unwrap();
    scryptic(&["pack", "new", "tuned", "--dir", text(dir.path())]);
    let pack = dir.path().join("tuned");
    let manifest = std::fs::read_to_string(pack.join("pack.ron")).unwrap();
    assert!(manifest.trim_end().ends_with(')'), "{manifest}");
    let manifest = manifest.trim_end().trim_end_matches(')').to_string()
        + "    settings: [(id: \"draw\", title: \"Letters drawn\", kind: Int(min: 1, max: 9, default: 3), binds: \"turn.draw_per_turn\")],\n)\n";
    std::fs::write(pack.join("pack.ron"), manifest).unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &format!("{}:standard", text(&pack)),
            "--set",
            "draw=5",
        ],
        "quit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    for (set, wanted) in [
        ("draw=12", "1 to 9"),
        ("drew=2", "no setting `drew`"),
        ("draw", "id=value"),
    ] {
        let o = scryptic(&["play", "--seed", "1", "--pack", text(&pack), "--set", set]);
        assert!(o.code == 1 && o.err.contains(wanted), "{set}: {o:?}");
    }
    let o = scryptic(&[
        "play",
        "--seed",
        "1",
        "--pack",
        &format!("{}:nope", text(&pack)),
    ]);
    assert!(o.code == 1 && o.err.contains("no mode `nope`"), "{o:?}");
    let o = scryptic(&["play", "--seed", "1", "--pack", "no-such-pack"]);
    assert!(
        o.code == 1 && o.err.contains("no pack `no-such-pack`"),
        "{o:?}"
    );
    let o = scryptic(&[
        "simulate",
        "--pack",
        text(&pack),
        "--set",
        "draw=4",
        "--games",
        "1",
        "--max-actions",
        "20",
        "--json",
    ]);
    assert_eq!(o.code, 0, "{o:?}");
}

#[test]
fn a_pack_campaign_plays_chapter_by_chapter() {
    let dir = tempfile::tempdir().unwrap();
    let progress = dir.path().join("progress.ron");
    let o = scryptic_typing(
        &[
            "campaign",
            "--pack",
            &path("packs/wending"),
            "--progress",
            text(&progress),
        ],
        "quit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("(1 of 3)") && o.out.contains("Chapter 1: the Ford at Wending"),
        "{}",
        o.out
    );
    let o = scryptic(&[
        "campaign",
        "--pack",
        &path("packs/wending"),
        "--progress",
        text(&progress),
        "--chapter",
        "3",
    ]);
    assert!(
        o.code == 1 && o.err.contains("cannot be played yet"),
        "{o:?}"
    );
}

/// Manifests and layouts a stranger might send: each refused naming the file, line and fix.
#[test]
fn hostile_packs_are_refused_with_the_place_and_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let make = |id: &str, manifest: &str| {
        let pack = dir.path().join(id);
        std::fs::create_dir_all(&pack).unwrap();
        std::fs::write(pack.join("pack.ron"), manifest).unwrap();
        pack
    };
    let head = |id: &str| {
        format!("(format: 1, id: \"{id}\", title: \"T\", version: \"1.0.0\", scryptic: \"^0.5\",\n")
    };
    let cases = [
        (
            "escape",
            format!(
                "{}modes: [(id: \"m\", title: \"M\", map: \"../../etc/passwd\")])",
                head("escape")
            ),
            "pack.ron:2:",
            "must stay inside the pack",
        ),
        (
            "version",
            "(format: 1, id: \"version\", title: \"T\", version: \"one\", scryptic: \"^0.5\")"
                .to_string(),
            "pack.ron:1:",
            "",
        ),
        (
            "needs",
            format!("{}depends: {{ \"word-warz\": \"^1\" }})", head("needs")),
            "",
            "needs pack `word-warz`",
        ),
        (
            "renamed",
            head("other") + ")",
            "pack.ron:1:",
            "folder is called `renamed`",
        ),
        (
            "long-version",
            format!(
                "(format: 1, id: \"long-version\", title: \"T\", version: \"1.0.0-{}\", scryptic: \"^0.5\")",
                "a".repeat(100_000)
            ),
            "pack.ron:1:",
            "version has 100006 characters; the most is 64",
        ),
    ];
    for (id, manifest, place, message) in cases {
        let pack = make(id, &manifest);
        let o = scryptic(&["pack", "check", text(&pack)]);
        assert_eq!(o.code, 1, "{id}: {o:?}");
        assert!(
            o.err.contains(place) && o.err.contains(message),
            "{id}: {}",
            o.err
        );
        assert!(o.err.len() < 2_000, "{id}: a long value echoed whole");
    }
}

/// The manifest fuzzer starts from manifests that load (else its mutations test only the parser).
#[test]
fn the_manifest_fuzz_seeds_load() {
    use scryptic_tests::fuzz::Target;
    for seed in Target::Manifest.seeds() {
        let bytes = std::fs::read(&seed).unwrap();
        assert!(
            Target::Manifest.run(&bytes),
            "{} does not load",
            seed.display()
        );
    }
}

/// An archive entry: its name, its contents (a link's target), and whether it is a link.
type ZipEntry<'a> = (&'a str, &'a str, bool);

/// A zip at `path` of `entries`.
fn write_zip(path: &Path, entries: &[ZipEntry]) {
    use std::io::Write;
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    let options = zip::write::SimpleFileOptions::default();
    for (name, text, link) in entries {
        if *link {
            zip.add_symlink(*name, *text, options).unwrap();
        } else {
            zip.start_file(*name, options).unwrap();
            zip.write_all(text.as_bytes()).unwrap();
        }
    }
    zip.finish().unwrap();
}

/// Everything under `dir`, as paths relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).unwrap().display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_pack_zips_installs_replaces_and_removes() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("wending.zip");
    let o = scryptic(&[
        "pack",
        "zip",
        &path("packs/wending"),
        "--out",
        text(&archive),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic(&["pack", "check", text(&archive)]);
    assert_eq!(o.code, 0, "{o:?}");
    let packs = dir.path().join("installed");
    let o = scryptic(&[
        "pack",
        "install",
        text(&archive),
        "--packs-dir",
        text(&packs),
    ]);
    assert!(
        o.code == 0 && o.out.contains("installed wending 1.0.0"),
        "{o:?}"
    );
    let o = scryptic(&[
        "pack",
        "install",
        &path("packs/wending"),
        "--packs-dir",
        text(&packs),
    ]);
    assert!(o.out.contains("(replacing 1.0.0)"), "{o:?}");
    assert_eq!(
        tree(&packs).iter().filter(|p| !p.contains('/')).count(),
        1,
        "{:?}",
        tree(&packs)
    );
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            text(&packs.join("wending")),
        ],
        "quit\n",
    );
    assert!(o.out.contains("Chapter 1"), "{o:?}");
    let o = scryptic(&["pack", "remove", "wending", "--packs-dir", text(&packs)]);
    assert!(o.code == 0 && o.out.contains("removed wending"), "{o:?}");
    assert!(tree(&packs).is_empty(), "{:?}", tree(&packs));
    let o = scryptic(&["pack", "remove", "wending", "--packs-dir", text(&packs)]);
    assert_eq!(o.code, 1, "{o:?}");
}

/// Archives a stranger might send: refused before anything is written, with nothing left.
#[test]
fn hostile_archives_are_refused_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        "(format: 1, id: \"evil\", title: \"T\", version: \"1.0.0\", scryptic: \"^0.5\")";
    let cases: [(&str, Vec<ZipEntry>, &str); 6] = [
        (
            "dotdot",
            vec![
                ("evil/pack.ron", manifest, false),
                ("evil/../../escaped.txt", "x", false),
            ],
            "must stay inside the pack",
        ),
        (
            "absolute",
            vec![
                ("evil/pack.ron", manifest, false),
                ("/tmp/escaped.txt", "x", false),
            ],
            "absolute",
        ),
        (
            "link",
            vec![
                ("evil/pack.ron", manifest, false),
                ("evil/maps", "/etc", true),
            ],
            "is a link",
        ),
        (
            "backslash",
            vec![
                ("evil/pack.ron", manifest, false),
                ("evil\\..\\x", "x", false),
            ],
            "backslash",
        ),
        (
            "empty",
            vec![("evil/readme.txt", "x", false)],
            "holds no pack.ron",
        ),
        (
            "bad-manifest",
            vec![("evil/pack.ron", "(format: 1, id: \"evil\")", false)],
            "pack.ron:1:",
        ),
    ];
    let packs = dir.path().join("installed");
    std::fs::create_dir_all(&packs).unwrap();
    for (name, entries, wanted) in cases {
        let archive = dir.path().join(format!("{name}.zip"));
        write_zip(&archive, &entries);
        let o = scryptic(&[
            "pack",
            "install",
            text(&archive),
            "--packs-dir",
            text(&packs),
        ]);
        assert!(o.code == 1 && o.err.contains(wanted), "{name}: {o:?}");
        assert!(tree(&packs).is_empty(), "{name} left {:?}", tree(&packs));
        let o = scryptic(&["pack", "check", text(&archive)]);
        assert_eq!(o.code, 1, "{name}: {o:?}");
    }
    assert!(!dir.path().join("escaped.txt").exists());
    let o = scryptic(&[
        "pack",
        "install",
        text(&dir.path().join("missing.zip")),
        "--packs-dir",
        text(&packs),
    ]);
    assert_eq!(o.code, 1, "{o:?}");
}

/// A save records the packs and settings a game was made from; replayed against a pack that
/// changed since, it still replays as played and a note names the pack and the file.
#[test]
fn a_save_records_its_packs_and_settings_and_notes_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    scryptic(&["pack", "new", "noted", "--dir", text(dir.path())]);
    let pack = dir.path().join("noted");
    let manifest = std::fs::read_to_string(pack.join("pack.ron")).unwrap();
    let manifest = manifest.trim_end().trim_end_matches(')').to_string()
        + "    settings: [(id: \"fog\", title: \"Fog\", kind: Bool(default: false))],\n)\n";
    std::fs::write(pack.join("pack.ron"), manifest).unwrap();
    let save = dir.path().join("game.ron");
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            text(&pack),
            "--set",
            "fog=true",
        ],
        &format!("end\nsave {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    let saved = std::fs::read_to_string(&save).unwrap();
    assert!(
        saved.contains("id: \"core\"")
            && saved.contains("id: \"noted\"")
            && saved.contains("scripts/main.lua"),
        "{saved}"
    );
    assert!(saved.contains("\"fog\": Bool(true)"), "{saved}");

    let o = scryptic(&["replay", text(&save), "--pack", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(!o.err.contains("note:"), "nothing changed: {}", o.err);
    std::fs::write(pack.join("scripts/main.lua"), "-- changed\n").unwrap();
    let o = scryptic(&["replay", text(&save), "--pack", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.err.contains("pack `noted`") && o.err.contains("scripts/main.lua differs"),
        "{}",
        o.err
    );
}

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

/// A pack's texts live in string tables (`locale/en.ron`, and a language's own over it):
/// `scryptic.t(key, args)` gives the text in the game's language with its `{names}` filled; a
/// missing key shows itself; the save carries the tables, so it replays as played.
#[test]
fn scripts_speak_the_games_language_from_their_packs_string_tables() {
    use scryptic::pack::{Catalog, Choice, Level, Pack};
    use scryptic::script::{ConsoleLine, ScriptedGame};
    let dir = tempfile::tempdir().unwrap();
    scryptic(&["pack", "new", "polyglot", "--dir", text(dir.path())]);
    let pack = dir.path().join("polyglot");
    std::fs::create_dir_all(pack.join("locale")).unwrap();
    std::fs::write(
        pack.join("locale/en.ron"),
        "{ \"welcome\": \"Welcome to {town}!\", \"bye\": \"Goodbye.\" }",
    )
    .unwrap();
    std::fs::write(
        pack.join("locale/fr.ron"),
        "{ \"welcome\": \"Bienvenue à {town} !\" }",
    )
    .unwrap();
    std::fs::write(
        pack.join("scripts/main.lua"),
        r#"scryptic.on("game_start", function(game)
    game:message(scryptic.t("welcome", { town = "Riverside" }))
    game:message(scryptic.t("bye"))
    game:message(scryptic.t("missing.key"))
end)
"#,
    )
    .unwrap();
    let mut catalog = Catalog::new(vec![scryptic::pack::core().unwrap()]);
    catalog.add(Pack::open(&pack).unwrap()).unwrap();
    let said = |language: &str| {
        let choice = Choice {
            pack: "polyglot".into(),
            language: language.into(),
            ..Choice::default()
        };
        let level = Level::from_pack(&catalog, &choice).unwrap();
        let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
        let (game, problems) = ScriptedGame::start_level(&level, lexicon, 1, None).unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        let told: Vec<String> = game
            .host()
            .drain_console()
            .into_iter()
            .filter_map(|l| match l {
                ConsoleLine::Message(t) => Some(t),
                _ => None,
            })
            .collect();
        (told, game.save())
    };
    let (english, _) = said("");
    assert_eq!(
        english,
        ["Welcome to Riverside!", "Goodbye.", "missing.key"]
    );
    let (french, save) = said("fr");
    assert_eq!(
        french,
        ["Bienvenue à Riverside !", "Goodbye.", "missing.key"]
    );
    // The pack's files may change or go: the save carries the texts it was played with.
    std::fs::remove_dir_all(pack.join("locale")).unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let (replayed, _) = ScriptedGame::from_save(&save, lexicon).unwrap();
    let told: Vec<String> = replayed
        .host()
        .drain_console()
        .into_iter()
        .filter_map(|l| match l {
            ConsoleLine::Message(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(told[0], "Bienvenue à Riverside !");
}

/// Writes a pack folder: its manifest and its files.
fn write_pack(root: &Path, id: &str, manifest: &str, files: &[(&str, &str)]) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pack.ron"), manifest).unwrap();
    for (path, content) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, content).unwrap();
    }
}

/// Two packs in one game, each in its own Lua state: a library pack's interface is used by
/// the level's pack (functions run in the library's state, values copied), each keeps its
/// own `storage` (the save holds both, by pack id), and the save replays with both.
#[test]
fn packs_in_one_game_keep_their_own_state_and_talk_through_interfaces() {
    use scryptic::pack::{Catalog, Choice, Level, Pack};
    use scryptic::script::{ConsoleLine, ScriptedGame};
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "economy",
        r#"(format: 1, id: "economy", title: "Economy", version: "1.2.0", scryptic: "^0.5",
            depends: { "core": "^1.0" })"#,
        &[(
            "scripts/bank.lua",
            r#"storage.opened = (storage.opened or 0) + 1
secret = "economy's own"
local vault = 0
scryptic.provide("bank", {
    rate = 3,
    deposit = function(n) vault = vault + n; storage.vault = vault; return vault end,
})
"#,
        )],
    );
    write_pack(
        dir.path(),
        "town",
        r#"(format: 1, id: "town", title: "Town", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0", "economy": "^1.0" },
            modes: [(id: "market", title: "Market", map: "core:maps/tutorial.ron",
                     scripts: ["economy:scripts/bank.lua", "scripts/town.lua"])])"#,
        &[(
            "scripts/town.lua",
            r#"scryptic.on("game_start", function(game)
    local bank = scryptic.use("economy:bank")
    storage.deposits = 2
    game:message("vault " .. bank.deposit(bank.rate) .. " " .. bank.deposit(4))
    game:message("secret " .. tostring(secret) .. ", opened " .. tostring(storage.opened))
end)
"#,
        )],
    );
    let mut catalog = Catalog::new(vec![scryptic::pack::core().unwrap()]);
    catalog
        .add(Pack::open(&dir.path().join("economy")).unwrap())
        .unwrap();
    catalog
        .add(Pack::open(&dir.path().join("town")).unwrap())
        .unwrap();
    let choice = Choice {
        pack: "town".into(),
        ..Choice::default()
    };
    let level = Level::from_pack(&catalog, &choice).unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let told = |game: &ScriptedGame| -> Vec<String> {
        game.host()
            .drain_console()
            .into_iter()
            .map(|l| match l {
                ConsoleLine::Message(t) => t,
                other => panic!("{other}"),
            })
            .collect()
    };
    let (game, problems) = ScriptedGame::start_level(&level, lexicon.clone(), 1, None).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(told(&game), ["vault 3 7", "secret nil, opened nil"]);
    let packs: Vec<String> = game
        .host()
        .pack_states()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(packs, ["core", "economy", "town"]);
    let storage: serde_json::Value =
        serde_json::from_str(&game.host().storage_json().unwrap()).unwrap();
    assert_eq!(
        storage["packs"]["economy"],
        serde_json::json!([["opened", 1], ["vault", 7]])
    );
    assert_eq!(
        storage["packs"]["town"],
        serde_json::json!([["deposits", 2]])
    );

    let (replayed, _) = ScriptedGame::from_save(&game.save(), lexicon).unwrap();
    assert_eq!(told(&replayed), ["vault 3 7", "secret nil, opened nil"]);
    assert_eq!(
        replayed.host().storage_json().unwrap(),
        game.host().storage_json().unwrap()
    );
}

/// An extension pack is loaded only when ticked (`--with`), only for the modes it fits; its
/// scripts run after the mode's, in a state of their own, and the save records it.
#[test]
fn extensions_join_the_modes_they_fit_when_ticked() {
    use scryptic::pack::{Catalog, Choice, Level, Pack};
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "shrines",
        r#"(format: 1, id: "shrines", title: "Shrines", version: "0.3.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            extension: (modes: ["core:tutorial"], scripts: ["scripts/shrine.lua"]))"#,
        &[
            (
                "scripts/shrine.lua",
                "scryptic.on('game_start', function(game) game:message('The shrines are blessed.') end)\n",
            ),
            (
                "tests/blessed.ron",
                r#"(title: "blessed", pack: "core", mode: "tutorial",
                    steps: [Expect((messages: ["shrines are blessed"]))])"#,
            ),
        ],
    );
    let shrines = dir.path().join("shrines");
    let o = scryptic(&["pack", "check", text(&shrines)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("1 game started"),
        "the mode it fits, with it: {}",
        o.out
    );
    let o = scryptic(&["pack", "test", text(&shrines), "--games", "1"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out
            .contains("1 game played and replayed, 1 scenario passed"),
        "{}",
        o.out
    );

    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            "core:tutorial",
            "--with",
            text(&shrines),
        ],
        "quit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("The shrines are blessed."), "{}", o.out);
    let o = scryptic_typing(
        &["play", "--seed", "1", "--pack", "core:tutorial"],
        "quit\n",
    );
    assert!(
        !o.out.contains("shrines"),
        "not ticked, not loaded: {}",
        o.out
    );

    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            "core:classic",
            "--with",
            text(&shrines),
        ],
        "quit\n",
    );
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err
            .contains("extension `shrines` fits core:tutorial, not mode `core:classic`"),
        "{}",
        o.err
    );
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            "core:tutorial",
            "--with",
            &path("packs/wending"),
        ],
        "quit\n",
    );
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.err.contains("`wending` is not an extension"), "{}", o.err);

    let mut catalog = Catalog::new(vec![scryptic::pack::core().unwrap()]);
    catalog.add(Pack::open(&shrines).unwrap()).unwrap();
    let choice = Choice {
        pack: "core".into(),
        mode: "tutorial".into(),
        extensions: vec!["shrines".into()],
        ..Choice::default()
    };
    let level = Level::from_pack(&catalog, &choice).unwrap();
    let names: Vec<&str> = level.scripts.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.last(), Some(&"shrines:scripts/shrine.lua"));
    let records: Vec<&str> = level.records.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(records, ["core", "shrines"]);
    assert_eq!(
        level.pack, "core",
        "the level is core's, though shrines loads last"
    );
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    let (game, _) =
        scryptic::script::ScriptedGame::start_level(&level, lexicon.clone(), 1, None).unwrap();
    let states: Vec<String> = game
        .host()
        .pack_states()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert_eq!(states, ["core", "shrines"]);
    let save = game.save();
    assert_eq!(save.pack, "core");
    let (replayed, _) = scryptic::script::ScriptedGame::from_save(&save, lexicon).unwrap();
    assert_eq!(replayed.save().pack, "core");
}

/// An extension naming a mode or a pack that does not exist is refused by `pack check`,
/// naming what is there.
#[test]
fn an_extension_for_a_mode_that_does_not_exist_fails_its_check() {
    let dir = tempfile::tempdir().unwrap();
    for (id, fits, wanted) in [
        (
            "omens",
            "core:tutorail",
            "pack core has no mode `tutorail`: its modes are",
        ),
        ("signs", "nowhere:classic", "no pack `nowhere` is found"),
    ] {
        write_pack(
            dir.path(),
            id,
            &format!(
                r#"(format: 1, id: "{id}", title: "X", version: "0.1.0", scryptic: "^0.5",
                depends: {{ "core": "^1.0" }},
                extension: (modes: ["{fits}"], scripts: []))"#
            ),
            &[],
        );
        let o = scryptic(&["pack", "check", text(&dir.path().join(id))]);
        assert_eq!(o.code, 1, "{id}: {o:?}");
        assert!(o.err.contains(wanted), "{id}: {}", o.err);
        assert!(
            o.err.contains(": 1 problem\n"),
            "one problem, in words: {}",
            o.err
        );
    }
}

/// `campaign --pack` plays a campaign mode only: a pack without one, or a mode that is not
/// one, is refused naming the pack's campaigns.
#[test]
fn a_campaign_is_refused_for_a_mode_that_is_not_one() {
    let o = scryptic_typing(&["campaign", "--pack", &path("packs/word-wars")], "quit\n");
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err.contains("pack word-wars has no campaign"),
        "{}",
        o.err
    );
    let o = scryptic_typing(&["campaign", "--pack", "core:classic"], "quit\n");
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.err.contains("has no campaign"), "{}", o.err);
}

/// `--version` says which scripting API packs' `scryptic:` requirements are checked against.
#[test]
fn the_version_names_the_scripting_api() {
    let o = scryptic(&["--version"]);
    let api = scryptic::pack::manifest::API_VERSION.to_string();
    assert!(o.out.contains(&format!("scripting API {api}")), "{o:?}");
}

/// `pack info` counts a pack's files by what they are.
#[test]
fn pack_info_counts_files_by_kind() {
    let o = scryptic(&["pack", "info", &path("packs/lexicon-crossing")]);
    assert!(
        o.out.contains("4 maps, 2 rule sets, 10 scenarios"),
        "{}",
        o.out
    );
    let o = scryptic(&["pack", "info", &path("packs/scryper")]);
    assert!(
        o.out
            .contains("1 map, 1 rule set, 6 scenarios, 1 tileset, 39 pictures, 1 script"),
        "{}",
        o.out
    );
}

/// A map naming another pack's tileset (`core:tilesets/...`) renders with it, and `map
/// validate` refuses a misspelt one or a path that is no pack's.
#[test]
fn a_core_tileset_is_found_by_render_and_a_wrong_one_refused_by_validate() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("ford.png");
    let o = scryptic(&[
        "map",
        "render",
        &path("packs/wending/campaigns/wending/1-the-ford.ron"),
        "--out",
        text(&png),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(png.is_file());
    let ford =
        std::fs::read_to_string(root().join("packs/wending/campaigns/wending/1-the-ford.ron"))
            .unwrap()
            .replace("\"../../scripts/1-the-ford.lua\",", "");
    let named = "core:tilesets/stone/tileset.ron";
    for (name, tileset, wanted) in [
        ("right", named, None),
        (
            "misspelt",
            "core:tilesets/stonee/tileset.ron",
            Some("cannot read"),
        ),
        (
            "climbing",
            "../../core:tilesets/stone/tileset.ron",
            Some("a pack that is not found"),
        ),
    ] {
        let map = dir.path().join(format!("{name}.ron"));
        std::fs::write(&map, ford.replace(named, tileset)).unwrap();
        let o = scryptic(&["map", "validate", text(&map)]);
        match wanted {
            None => assert!(
                o.code == 0 && o.out.contains("0 errors, 0 warnings"),
                "{name}: {o:?}"
            ),
            Some(wanted) => {
                assert_eq!(o.code, 1, "{name}: {o:?}");
                assert!(o.err.contains(wanted), "{name}: {}", o.err);
            }
        }
    }
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

/// A map token whose kind the pack's own script defines passes `pack check`, as it passes
/// `map validate` and plays (one judgement of a pack).
#[test]
fn a_token_kind_the_packs_script_defines_passes_its_check() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&["pack", "new", "shrines", "--dir", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let pack = dir.path().join("shrines");
    let script = pack.join("scripts/main.lua");
    let mut lua = std::fs::read_to_string(&script).unwrap();
    lua.push_str(
        "\nscryptic.token { id = \"shrine\", name = \"Shrine\", color = \"#ccaa44\",\n    invoke = function(game, token) game:message(\"The shrine glows.\") end }\n",
    );
    std::fs::write(&script, lua).unwrap();
    let map = pack.join("maps/first.ron");
    let text_of_map = std::fs::read_to_string(&map).unwrap();
    let with_shrine = text_of_map.replacen(
        "tokens: [",
        "tokens: [\n        (id: \"shrine_1\", kind: \"shrine\", at: (x: 2, y: 8)),",
        1,
    );
    assert_ne!(
        with_shrine, text_of_map,
        "the map has a token list to add to"
    );
    std::fs::write(&map, with_shrine).unwrap();
    let o = scryptic(&["map", "validate", text(&map)]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(!o.err.contains("nothing defines"), "{}", o.err);
}

/// A pack's map played by its path plays as part of its pack: the pack's settings are there
/// for its scripts, at their defaults.
#[test]
fn a_packs_map_played_by_path_has_the_packs_settings() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&["pack", "new", "harvest", "--dir", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let pack = dir.path().join("harvest");
    let manifest = pack.join("pack.ron");
    let with_setting = std::fs::read_to_string(&manifest).unwrap().replacen(
        "    modes: [",
        "    settings: [(id: \"bounty\", title: \"Bounty\", kind: Int(min: 0, max: 10, default: 3))],\n    modes: [",
        1,
    );
    std::fs::write(&manifest, with_setting).unwrap();
    let script = pack.join("scripts/main.lua");
    std::fs::write(
        &script,
        "scryptic.on(\"game_start\", function(game)\n    game:message(\"bounty \" .. game:setting(\"bounty\"))\nend)\n",
    )
    .unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    let map = pack.join("maps/first.ron");
    let o = scryptic_typing(&["play", text(&map), "--seed", "1"], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("bounty 3"), "{}\n{}", o.out, o.err);
    assert!(!o.err.contains("no setting"), "{}", o.err);
}

/// A script that cannot be read is named as written, at the line and column where it is
/// named (it was the first missing folder of its path, with no place).
#[test]
fn a_missing_script_is_named_as_written_where_it_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&["pack", "new", "harvest", "--dir", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let map = dir.path().join("harvest/maps/first.ron");
    let named = std::fs::read_to_string(&map)
        .unwrap()
        .replace("\"../scripts/main.lua\"", "\"lua/missing.lua\"");
    std::fs::write(&map, named).unwrap();
    let o = scryptic(&["pack", "check", text(&dir.path().join("harvest"))]);
    assert_eq!(o.code, 1, "{o:?}");
    let line = o
        .err
        .lines()
        .find(|l| l.contains("the script `lua/missing.lua` cannot be read"))
        .unwrap_or_else(|| panic!("{}", o.err));
    let place = format!("{}:", map.display());
    assert!(line.starts_with(&place), "{line}");
    let rest = &line[place.len()..];
    let numbers: Vec<&str> = rest.split(':').take(2).collect();
    assert!(
        numbers.iter().all(|n| n.parse::<usize>().is_ok()),
        "line and column: {line}"
    );
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

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// A token's message is told once at the table (the console tells it; the event's line does
/// not tell it again), and once in the replay, which has no console.
#[test]
fn a_tokens_message_is_told_once_in_play_and_in_replay() {
    let dir = tempfile::tempdir().unwrap();
    let terrain = "        \"........\",\n".repeat(8);
    write_pack(
        dir.path(),
        "shrine",
        r#"(format: 1, id: "shrine", title: "Shrine", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "one", title: "One", map: "maps/one.ron", scripts: ["scripts/shrine.lua"])])"#,
        &[
            (
                "scripts/shrine.lua",
                "scryptic.token { id = \"shrine\", invoke = function(game, token) game:message(\"The shrine glows.\") end }\n",
            ),
            (
                "maps/one.ron",
                &format!(
                    "(version: 1, name: \"one\", size: (width: 8, height: 8), terrain: [\n{terrain}],
                    cities: [(id: \"g\", name: \"G\", at: (x: 1, y: 6), owner: Gold),
                             (id: \"s\", name: \"S\", at: (x: 6, y: 1), owner: Silver)],
                    tokens: [(id: \"shrine_1\", kind: \"shrine\", at: (x: 3, y: 6))],
                    scenario: (racks: {{Gold: \"BOOTSEA\"}}))"
                ),
            ),
        ],
    );
    let save = dir.path().join("g.json");
    let o = scryptic_typing(
        &["play", "--pack", text(&dir.path().join("shrine"))],
        &format!(
            "commit B7 across BOOTS\nend\nend\ninvoke shrine_1\nsave {}\nquit\n",
            save.display()
        ),
    );
    assert_eq!(o.out.matches("The shrine glows.").count(), 1, "{o:?}");
    let o = scryptic(&["replay", text(&save)]);
    assert_eq!(o.out.matches("The shrine glows.").count(), 1, "{o:?}");
}

/// A campaign whose folder holds no map (misspelt, or not made yet) fails `pack check`,
/// naming the mode and the folder, as playing it would.
#[test]
fn a_campaign_of_no_chapters_fails_its_check() {
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "empty",
        r#"(format: 1, id: "empty", title: "Empty", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "tale", title: "Tale", campaign: "campaigns/tale")])"#,
        &[("campaigns/tale/notes.txt", "maps go here\n")],
    );
    let o = scryptic(&["pack", "check", text(&dir.path().join("empty"))]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err.contains("mode `tale`") && o.err.contains("campaigns/tale holds no map"),
        "{}",
        o.err
    );
}

/// `pack new` sets an author up: a scenario that `pack test` plays, `.luarc.json` pointing a Lua
/// editor at `types/scryptic.lua` (the API's definitions, which `script types` writes anew
/// there), and a `.packignore` that `pack zip` and a folder's install honour, so the tooling is
/// never shipped; `pack info` counts what ships and gives settings' ranges.
#[test]
fn a_new_pack_has_its_authors_tooling_and_ships_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&["pack", "new", "tooled", "--dir", text(dir.path())]);
    assert_eq!(o.code, 0, "{o:?}");
    let pack = dir.path().join("tooled");
    let luarc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(pack.join(".luarc.json")).unwrap()).unwrap();
    assert_eq!(luarc["workspace.library"], serde_json::json!(["types"]));
    let definitions = std::fs::read_to_string(pack.join("types/scryptic.lua")).unwrap();
    assert_eq!(definitions, scryptic::script::api::luals_definitions());
    std::fs::remove_file(pack.join("types/scryptic.lua")).unwrap();
    let out = pack.join("types/scryptic.lua");
    let o = scryptic(&["script", "types", "--out", text(&out)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(out.is_file());

    let o = scryptic(&["pack", "test", text(&pack), "--games", "0"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("1 scenario passed"), "{}", o.out);

    std::fs::write(pack.join("notes.bak"), "mine\n").unwrap();
    let mut ignore = std::fs::read_to_string(pack.join(".packignore")).unwrap();
    ignore.push_str("*.bak\n");
    std::fs::write(pack.join(".packignore"), ignore).unwrap();
    let zip = dir.path().join("tooled.zip");
    let o = scryptic(&["pack", "zip", text(&pack), "--out", text(&zip)]);
    assert_eq!(o.code, 0, "{o:?}");
    let archive = zip::ZipArchive::new(std::fs::File::open(&zip).unwrap()).unwrap();
    let names: Vec<String> = archive
        .file_names()
        .map(|n| n.unwrap().to_string())
        .collect();
    assert!(
        names.contains(&"tooled/tests/first.ron".to_string()),
        "{names:?}"
    );
    for left in [".luarc.json", "types/scryptic.lua", "notes.bak"] {
        assert!(
            !names.contains(&format!("tooled/{left}")),
            "{left} shipped: {names:?}"
        );
    }
    let o = scryptic(&["pack", "info", text(&pack)]);
    assert!(
        o.out.contains("holds 6 files")
            && o.out
                .contains("3 more, the author's own, left out of its archive"),
        "{}",
        o.out
    );

    let data = tempfile::tempdir().unwrap();
    let installed = scryptic::pack::archive::install(&pack, data.path()).unwrap();
    let folder = installed.pack.files.folder().unwrap().to_path_buf();
    assert!(!folder.join("types").exists() && !folder.join("notes.bak").exists());
}

/// `pack info` gives each setting's range, default and the rule it binds.
#[test]
fn pack_info_gives_settings_ranges() {
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "ranged",
        r#"(format: 1, id: "ranged", title: "R", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "one", title: "One", map: "core:maps/tutorial.ron")],
            settings: [
                (id: "bounty", title: "Bounty", kind: Int(min: 0, max: 20, step: 5, default: 10)),
                (id: "length", title: "Length", kind: Choice(options: ["short", "long"], default: "short")),
                (id: "draw", title: "Draw", kind: Int(min: 2, max: 5, default: 3), binds: "turn.draw_per_turn"),
            ])"#,
        &[],
    );
    let o = scryptic(&["pack", "info", text(&dir.path().join("ranged"))]);
    for line in [
        "setting bounty: Bounty (0 to 20 in steps of 5, default 10)",
        "setting length: Length (one of short, long, default short)",
        "setting draw: Draw (2 to 5, default 3, sets turn.draw_per_turn)",
    ] {
        assert!(o.out.contains(line), "{line}\n{}", o.out);
    }
}

/// `pack check` reads a pack's texts as players would meet them: a key a script asks for
/// that `locale/en.ron` lacks is a problem at the call; a key another language lacks is a
/// warning. A game speaks the system's language (`LANG`, `LC_ALL`), `SCRYPTIC_LANG` over it.
#[test]
fn translations_are_checked_and_the_language_follows_the_locale() {
    let dir = tempfile::tempdir().unwrap();
    write_pack(
        dir.path(),
        "bilingual",
        r#"(format: 1, id: "bilingual", title: "B", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "one", title: "One", map: "core:maps/tutorial.ron", scripts: ["scripts/main.lua"])])"#,
        &[
            (
                "scripts/main.lua",
                "scryptic.on(\"game_start\", function(game)\n    game:message(scryptic.t(\"hello\"))\nend)\n",
            ),
            (
                "locale/en.ron",
                "{ \"hello\": \"Hello!\", \"bye\": \"Bye.\" }",
            ),
            ("locale/fr.ron", "{ \"hello\": \"Bonjour !\" }"),
        ],
    );
    let pack = dir.path().join("bilingual");
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.err
            .contains("fr.ron lacks 1 key that locale/en.ron has (bye)")
            && o.out.contains("1 warning"),
        "{o:?}"
    );

    let script = pack.join("scripts/main.lua");
    let lua = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, lua.replace("\"hello\"", "\"helo\"")).unwrap();
    let o = scryptic(&["pack", "check", text(&pack)]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err
            .contains("main.lua:2:30: the text `helo` is not in locale/en.ron"),
        "{}",
        o.err
    );
    std::fs::write(&script, lua).unwrap();

    let play = |env: &[(&str, &str)]| {
        let mut command = std::process::Command::new(scryptic_tests::scryptic_binary());
        command
            .args(["play", "--pack", text(&pack)])
            .env_remove("SCRYPTIC_LANG")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("SCRYPTIC_DATA", dir.path().join("data"))
            .stdin(std::process::Stdio::null());
        for (k, v) in env {
            command.env(k, v);
        }
        String::from_utf8_lossy(&command.output().unwrap().stdout).into_owned()
    };
    assert!(play(&[("LANG", "fr_FR.UTF-8")]).contains("» Bonjour !"));
    assert!(play(&[("LANG", "en_GB.UTF-8"), ("LC_ALL", "fr_CA.UTF-8")]).contains("» Bonjour !"));
    assert!(play(&[("LANG", "fr_FR.UTF-8"), ("SCRYPTIC_LANG", "en")]).contains("» Hello!"));
    assert!(play(&[("LANG", "C.UTF-8")]).contains("» Hello!"));
}

/// A pack's map named by its path plays as the mode that plays it: with the mode's scripts
/// (whose token kinds `map validate` then accepts on the map) and its rules, the pack's
/// settings at their defaults bound to them, as `--pack ID:MODE` plays it.
#[test]
fn a_packs_map_by_its_path_plays_as_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let terrain = "        \"........\",\n".repeat(8);
    write_pack(
        dir.path(),
        "moded",
        r#"(format: 1, id: "moded", title: "Moded", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "one", title: "One", rules: "core:classic", map: "maps/one.ron", scripts: ["scripts/mode.lua"])],
            settings: [(id: "draw", title: "Draw", kind: Int(min: 2, max: 5, default: 5), binds: "turn.draw_per_turn")])"#,
        &[
            (
                "scripts/mode.lua",
                "scryptic.token { id = \"well\", invoke = function(game, token) end }\nscryptic.on(\"game_start\", function(game) game:message(\"The mode speaks: draw \" .. game:rule(\"turn.draw_per_turn\")) end)\n",
            ),
            (
                "maps/one.ron",
                &format!(
                    "(version: 1, name: \"one\", size: (width: 8, height: 8), terrain: [\n{terrain}],
                    cities: [(id: \"g\", name: \"G\", at: (x: 1, y: 6), owner: Gold),
                             (id: \"s\", name: \"S\", at: (x: 6, y: 1), owner: Silver)],
                    tokens: [(id: \"well_1\", kind: \"well\", at: (x: 3, y: 6))])"
                ),
            ),
        ],
    );
    let map = dir.path().join("moded/maps/one.ron");
    let o = scryptic(&["map", "validate", text(&map)]);
    assert_eq!(o.code, 0, "{o:?}");
    let o = scryptic_typing(&["play", text(&map)], "quit\n");
    assert!(o.out.contains("» The mode speaks: draw 5"), "{o:?}");
}

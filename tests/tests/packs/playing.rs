//! Playing packs: modes with `--set`, campaigns, saves, several packs in one game, extensions.

use super::*;

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

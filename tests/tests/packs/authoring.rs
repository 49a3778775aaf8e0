//! Making a pack: `pack list`, `check`, `new`, `info`, and what a check refuses.

use super::*;

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

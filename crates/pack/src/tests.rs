//! Table tests of manifests, paths, resolution and levels.
#![allow(
    clippy::unwrap_used,
    reason = "tests unwrap: a panic there is a failure"
)]

use super::files::{path_problem, relative_to};
use super::level::{Choice, Level};
use super::{Catalog, Manifest, Pack, PackFiles, ResolveError};
use std::path::{Path, PathBuf};

/// A manifest with `fields` (RON fields, each ending in a comma) after a valid minimum.
fn manifest_text(id: &str, fields: &str) -> String {
    format!(
        "(\n    format: 1,\n    id: \"{id}\",\n    title: \"T\",\n    version: \"1.0.0\",\n    scryptic: \"^0.5\",\n{fields}\n)\n"
    )
}

/// Parses a manifest with `fields`; `expected` is `Ok(())` or `Err((line, part of the message))`.
fn check(fields: &str, expected: Result<(), (usize, &str)>) {
    let text = manifest_text("p", fields);
    let got = Manifest::parse(Path::new("p/pack.ron"), &text);
    match (got, expected) {
        (Ok(_), Ok(())) => {}
        (Err(e), Err((line, part))) => {
            let shown = e.to_string();
            assert!(
                shown.contains(&format!("p/pack.ron:{line}:")) && shown.contains(part),
                "{fields}\nwanted line {line} and `{part}`, got: {shown}"
            );
        }
        (got, expected) => panic!("{fields}\nwanted {expected:?}, got {got:?}"),
    }
}

#[test]
fn manifests_are_checked_field_by_field_and_located() {
    check("", Ok(()));
    check("    depends: { \"core\": \"^1.0\" },", Ok(()));
    check(
        "    settings: [(id: \"draw\", title: \"Draw\", kind: Int(min: 1, max: 9, default: 3), binds: \"turn.draw_per_turn\")],",
        Ok(()),
    );
    check("    tittle: \"x\",", Err((7, "tittle")));
    check("    depends: { \"core\": \"one\" },", Err((7, "")));
    check("    depends: { \"Core\": \"^1\" },", Err((7, "a-z, 0-9")));
    check("    depends: { \"p\": \"^1\" },", Err((7, "names itself")));
    check(
        "    depends: { \"a\": \"^1\" },\n    conflicts: { \"a\": \"^1\" },",
        Err((7, "both in depends and in conflicts")),
    );
    check(
        "    modes: [(id: \"m\", title: \"M\")],",
        Err((7, "has no board")),
    );
    check(
        "    modes: [(id: \"m\", title: \"M\", map: \"../outside.ron\")],",
        Err((7, "must stay inside the pack")),
    );
    check(
        "    modes: [(id: \"m\", title: \"M\", map: \"/etc/passwd\")],",
        Err((7, "absolute")),
    );
    check(
        "    modes: [(id: \"m\", title: \"M\", map: \"a.ron\"), (id: \"m\", title: \"N\", map: \"a.ron\")],",
        Err((7, "two modes")),
    );
    check(
        "    settings: [(id: \"n\", title: \"N\", kind: Int(min: 5, max: 1, default: 3))],",
        Err((7, "above max")),
    );
    check(
        "    settings: [(id: \"n\", title: \"N\", kind: Int(min: 1, max: 9, step: 2, default: 4))],",
        Err((7, "4 is not allowed")),
    );
    check(
        "    settings: [(id: \"n\", title: \"N\", kind: Choice(options: [\"a\"], default: \"b\"))],",
        Err((7, "`b` is not")),
    );
    check(
        "    settings: [(id: \"n\", title: \"N\", kind: Bool(default: true), binds: \"turn.draw_per_trun\")],",
        Err((7, "turn.draw_per_turn")),
    );
    check(
        "    settings: [(id: \"n\", title: \"N\", kind: Int(min: 0, max: 5000, default: 3), binds: \"turn.draw_per_turn\")],",
        Err((7, "allows 0 to 1000")),
    );
}

#[test]
fn a_manifest_for_another_api_or_format_is_refused_naming_the_line() {
    let text = manifest_text("p", "").replace("^0.5", "^9");
    let e = Manifest::parse(Path::new("pack.ron"), &text)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("pack.ron:6:") && e.contains("scripting API ^9"),
        "{e}"
    );
    let text = manifest_text("p", "").replace("format: 1", "format: 2");
    let e = Manifest::parse(Path::new("pack.ron"), &text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("pack.ron:2:") && e.contains("format 2"), "{e}");
}

#[test]
fn pack_paths_stay_inside_the_pack() {
    for ok in ["maps/a.ron", "a", "tilesets/stone/tileset.ron"] {
        assert_eq!(path_problem(ok), None, "{ok}");
    }
    for bad in [
        "",
        "../x",
        "maps/../../x",
        "./x",
        "a//b",
        "/abs",
        "C:/x",
        "a\\b",
        "a\0b",
        "victim:spy.lua",
        "scripts/a:b.lua",
        "a\x1b[2Jb",
    ] {
        assert!(path_problem(bad).is_some(), "{bad:?} accepted");
    }
    let table = [
        ("maps/a.ron", "../tilesets/t.ron", Ok("tilesets/t.ron")),
        (
            "campaigns/c/1.ron",
            "../../scripts/1.lua",
            Ok("scripts/1.lua"),
        ),
        ("pack.ron", "maps/a.ron", Ok("maps/a.ron")),
        ("maps/a.ron", "../../x", Err("leads out of the pack")),
        ("pack.ron", "../x", Err("leads out of the pack")),
        ("maps/a.ron", "/etc/passwd", Err("absolute")),
    ];
    for (from, path, expected) in table {
        match (relative_to(from, path), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{from} {path}"),
            (Err(got), Err(want)) => assert!(got.contains(want), "{from} {path}: {got}"),
            (got, want) => panic!("{from} {path}: wanted {want:?}, got {got:?}"),
        }
    }
}

/// A pack in memory (its files are never read) with `deps` as `depends` and `extra` fields.
fn pack(id: &str, version: &str, deps: &[(&str, &str)], extra: &str) -> Pack {
    let depends: Vec<String> = deps
        .iter()
        .map(|(id, req)| format!("\"{id}\": \"{req}\""))
        .collect();
    let text = manifest_text(
        id,
        &format!("    depends: {{ {} }},\n{extra}", depends.join(", ")),
    )
    .replace("\"1.0.0\"", &format!("\"{version}\""));
    Pack {
        manifest: Manifest::parse(Path::new("pack.ron"), &text).unwrap(),
        files: PackFiles::Folder(PathBuf::from("/nowhere")),
    }
}

fn order(catalog: &Catalog, wanted: &[&str]) -> Result<Vec<String>, ResolveError> {
    Ok(catalog.resolve(wanted)?.iter().map(|p| p.label()).collect())
}

#[test]
fn dependencies_load_first_at_the_newest_version_that_fits() {
    let catalog = Catalog::new(vec![
        pack("core", "1.0.0", &[], ""),
        pack("core", "1.4.0", &[], ""),
        pack("core", "2.0.0", &[], ""),
        pack("lib", "1.0.0", &[("core", "^1.2")], ""),
        pack("zed", "1.0.0", &[("core", "^1")], ""),
        pack("game", "1.0.0", &[("zed", "^1"), ("lib", "^1")], ""),
    ]);
    assert_eq!(
        order(&catalog, &["game"]).unwrap(),
        ["core 1.4.0", "lib 1.0.0", "zed 1.0.0", "game 1.0.0"]
    );
    assert_eq!(order(&catalog, &["core"]).unwrap(), ["core 2.0.0"]);
}

#[test]
fn unresolvable_packs_are_refused_naming_which_and_why() {
    let catalog = Catalog::new(vec![
        pack("core", "0.9.0", &[], ""),
        pack("old", "1.0.0", &[("core", "^1.0")], ""),
        pack("lost", "1.0.0", &[("missing", "^1")], ""),
        pack("a", "1.0.0", &[("b", "*")], ""),
        pack("b", "1.0.0", &[("c", "*")], ""),
        pack("c", "1.0.0", &[("a", "*")], ""),
        pack("x", "1.0.0", &[], "    conflicts: { \"core\": \"<1\" },"),
        pack("y", "1.0.0", &[("core", "*")], ""),
    ]);
    let e = order(&catalog, &["old"]).unwrap_err().to_string();
    assert!(
        e.contains("`core`") && e.contains("old needs ^1.0") && e.contains("found 0.9.0"),
        "{e}"
    );
    let e = order(&catalog, &["lost"]).unwrap_err().to_string();
    assert!(e.contains("`lost` needs pack `missing` (^1)"), "{e}");
    let e = order(&catalog, &["a"]).unwrap_err();
    assert_eq!(
        e,
        ResolveError::Cycle(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let e = order(&catalog, &["x", "y"]).unwrap_err().to_string();
    assert!(e.contains("`x` conflicts with `core` 0.9.0"), "{e}");
    let e = order(&catalog, &["cor"]).unwrap_err().to_string();
    assert!(
        e.contains("no pack `cor`") && e.contains("did you mean `core`"),
        "{e}"
    );
}

#[test]
fn optional_packs_load_first_when_present_and_are_skipped_when_not() {
    let catalog = Catalog::new(vec![
        pack("aaa", "1.0.0", &[], ""),
        pack(
            "m",
            "1.0.0",
            &[],
            "    optional: { \"zzz\": \"*\", \"absent\": \"*\" },",
        ),
        pack("zzz", "1.0.0", &[], ""),
    ]);
    assert_eq!(order(&catalog, &["m"]).unwrap(), ["zzz 1.0.0", "m 1.0.0"]);
}

#[test]
fn ties_can_be_shuffled_but_dependencies_cannot() {
    let catalog = Catalog::new(vec![
        pack("core", "1.0.0", &[], ""),
        pack("a", "1.0.0", &[("core", "*")], ""),
        pack("b", "1.0.0", &[("core", "*")], ""),
        pack("g", "1.0.0", &[("a", "*"), ("b", "*")], ""),
    ]);
    let last = |ready: &[&str]| ready.len() - 1;
    let shuffled: Vec<String> = catalog
        .resolve_with(&["g"], &mut { last })
        .unwrap()
        .iter()
        .map(|p| p.id().to_string())
        .collect();
    assert_eq!(shuffled, ["core", "b", "a", "g"]);
}

#[test]
fn core_pack_loads_and_each_of_its_modes_assembles() {
    let core = super::core().unwrap();
    assert_eq!(core.id(), "core");
    let catalog = Catalog::new(vec![core.clone()]);
    for mode in &core.manifest.modes {
        let choice = Choice {
            pack: "core".into(),
            mode: mode.id.clone(),
            ..Choice::default()
        };
        let level = Level::from_pack(&catalog, &choice).unwrap();
        assert!(level.tileset.is_some(), "{}", mode.id);
        assert_eq!(level.records.len(), 1);
    }
}

/// Writes `files` (path, text) under `dir`.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
}

/// The demo pack's mode with the settings `set` (`--set id=value` pairs).
fn choice(set: &[(&str, &str)]) -> Choice {
    Choice {
        pack: "demo".into(),
        set: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Choice::default()
    }
}

/// A pack folder `demo` whose mode binds a setting to `turn.draw_per_turn`, with a map that
/// names a script beside it and core's tileset.
fn demo_pack(root: &Path) -> PathBuf {
    let dir = root.join("demo");
    let core = super::core().unwrap();
    let mut map = crate::map::Map::from_text(
        Path::new("tutorial.ron"),
        &core.files.read_text("maps/tutorial.ron").unwrap(),
    )
    .unwrap();
    map.scripts = vec!["../scripts/hello.lua".into()];
    map.tileset = "core:tilesets/stone/tileset.ron".into();
    let manifest = manifest_text(
        "demo",
        "    depends: { \"core\": \"^1\" },
    modes: [(id: \"duel\", title: \"Duel\", rules: \"core:classic\", map: \"maps/m.ron\", scripts: [\"scripts/mode.lua\"])],
    settings: [(id: \"draw\", title: \"Draw\", kind: Int(min: 1, max: 9, default: 4), binds: \"turn.draw_per_turn\")],",
    );
    write_files(
        &dir,
        &[
            ("pack.ron", &manifest),
            ("maps/m.ron", &map.to_ron()),
            ("scripts/hello.lua", "-- hello\n"),
            ("scripts/mode.lua", "-- mode\n"),
            ("lexicon/connotations/frosty.txt", "glacier\n"),
        ],
    );
    dir
}

#[test]
fn a_pack_mode_assembles_with_its_settings_scripts_lists_and_tileset() {
    let root = tempfile::tempdir().unwrap();
    let dir = demo_pack(root.path());
    let mut catalog = Catalog::new(vec![super::core().unwrap()]);
    catalog.add(Pack::open(&dir).unwrap()).unwrap();
    let level = Level::from_pack(&catalog, &choice(&[])).unwrap();
    assert_eq!(level.rules.turn.draw_per_turn, 4);
    let names: Vec<&str> = level.scripts.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["scripts/mode.lua", "scripts/hello.lua"]);
    assert_eq!(level.connotations[0].name, "frosty");
    let tileset = level.tileset.unwrap();
    assert_eq!(tileset.path, "tilesets/stone/tileset.ron");
    assert!(matches!(
        tileset.files,
        PackFiles::Embedded { id: "core", .. }
    ));
    let packs: Vec<&str> = level.records.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(packs, ["core", "demo"]);

    let level = Level::from_pack(&catalog, &choice(&[("draw", "7")])).unwrap();
    assert_eq!(level.rules.turn.draw_per_turn, 7);
    for (set, wanted) in [
        (("draw", "10"), "1 to 9"),
        (("draw", "x"), "whole number"),
        (("drwa", "2"), "no setting `drwa`"),
    ] {
        let e = Level::from_pack(&catalog, &choice(&[set]))
            .unwrap_err()
            .to_string();
        assert!(e.contains(wanted), "{set:?}: {e}");
    }
    // The map played on its own is still part of its pack, played as the mode that plays it:
    // the mode's scripts, its settings at their defaults bound to its rules.
    let alone = Level::from_map_file(&dir.join("maps/m.ron"), None, &catalog).unwrap();
    let names: Vec<&str> = alone.scripts.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["scripts/mode.lua", "scripts/hello.lua"]);
    assert_eq!(alone.rules.turn.draw_per_turn, 4);
    assert!(alone.tileset.is_some());
}

#[test]
fn every_mode_has_a_moves_time_kept_only_when_set() {
    let root = tempfile::tempdir().unwrap();
    let dir = demo_pack(root.path());
    let mut catalog = Catalog::new(vec![super::core().unwrap()]);
    catalog.add(Pack::open(&dir).unwrap()).unwrap();
    // Not set: the game is as it always was, its save naming only the pack's own.
    let level = Level::from_pack(&catalog, &choice(&[])).unwrap();
    assert_eq!(level.rules.flow.move_seconds, 0);
    let ids: Vec<&str> = level.settings.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["draw"]);
    assert!(!level.declared.contains_key("move_time"));
    let level = Level::from_pack(&catalog, &choice(&[("move_time", "3d")])).unwrap();
    assert_eq!(level.rules.flow.move_seconds, 3 * 86_400);
    let ids: Vec<&str> = level.settings.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["draw", "move_time"]);
    // A save declares it, so that the save reads back (a server's restart replays it).
    assert!(level.declared.contains_key("move_time"));
    let level = Level::from_pack(&catalog, &choice(&[("move_time", "30s")])).unwrap();
    assert_eq!(level.rules.flow.move_seconds, 30);
    for (set, wanted) in [
        (("move_time", "3w"), "one of off, 30s"),
        (("mvoe_time", "3d"), "its settings: draw, move_time"),
    ] {
        let e = Level::from_pack(&catalog, &choice(&[set]))
            .unwrap_err()
            .to_string();
        assert!(e.contains(wanted), "{set:?}: {e}");
    }
    let manifest = Pack::open(&dir).unwrap().manifest;
    let offered: Vec<String> = manifest
        .offered_settings()
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(offered, ["draw", "move_time", "ai_pace"]);
    // An AI's pace is for modes played at once; this one takes turns.
    let e = Level::from_pack(&catalog, &choice(&[("ai_pace", "2s")]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("is for modes played at once"), "{e}");
}

#[test]
fn a_pack_cannot_reach_outside_itself() {
    let root = tempfile::tempdir().unwrap();
    let dir = demo_pack(root.path());
    std::fs::write(root.path().join("secret.lua"), "-- secret\n").unwrap();
    let mut catalog = Catalog::new(vec![super::core().unwrap()]);
    let text = std::fs::read_to_string(dir.join("maps/m.ron")).unwrap();
    std::fs::write(
        dir.join("maps/m.ron"),
        text.replace("../scripts/hello.lua", "../../secret.lua"),
    )
    .unwrap();
    catalog.add(Pack::open(&dir).unwrap()).unwrap();
    let choice = Choice {
        pack: "demo".into(),
        ..Choice::default()
    };
    let e = Level::from_pack(&catalog, &choice).unwrap_err().to_string();
    assert!(e.contains("leads out of the pack"), "{e}");
}

#[cfg(unix)]
#[test]
fn links_inside_a_pack_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = demo_pack(root.path());
    std::fs::write(root.path().join("secret.lua"), "-- secret\n").unwrap();
    std::fs::remove_file(dir.join("scripts/hello.lua")).unwrap();
    std::os::unix::fs::symlink(
        root.path().join("secret.lua"),
        dir.join("scripts/hello.lua"),
    )
    .unwrap();
    let pack = Pack::open(&dir).unwrap();
    let e = pack
        .files
        .read_text("scripts/hello.lua")
        .unwrap_err()
        .to_string();
    assert!(e.contains("symbolic link"), "{e}");
    let e = pack.files.all_files().unwrap_err().to_string();
    assert!(e.contains("symbolic link"), "{e}");
}

#[test]
fn a_pack_folder_must_be_named_as_its_id() {
    let root = tempfile::tempdir().unwrap();
    let dir = demo_pack(root.path());
    let renamed = root.path().join("other");
    std::fs::rename(&dir, &renamed).unwrap();
    let e = Pack::open(&renamed).unwrap_err().to_string();
    assert!(
        e.contains("pack.ron:3:") && e.contains("folder is called `other`"),
        "{e}"
    );
}

#[test]
fn a_new_pack_refuses_two_scripts_of_one_name_and_leaves_nothing() {
    let root = tempfile::tempdir().unwrap();
    let mut seed = super::new::tutorial_seed("twins").unwrap();
    seed.scripts = vec![
        ("a/main.lua".into(), "-- a\n".into()),
        ("b/main.lua".into(), "-- b\n".into()),
    ];
    let e = super::new::make("twins", root.path(), seed, "")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("two of the map's scripts are called main.lua"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_dir(root.path()).unwrap().count(),
        0,
        "nothing is left"
    );
}

/// A saved game's map names its tileset for the save's own folder: inside a pack by the
/// pack's id (built in, or a folder the catalog has), else by the path from the save's folder
/// (the map's reference was written from the map's folder).
#[test]
fn a_saved_map_names_its_tileset_from_where_the_save_is() {
    use super::level::{TilesetRef, tileset_reference_from};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let demo = demo_pack(root);
    write_files(root, &[("art/tiles/tileset.ron", "()")]);
    std::fs::create_dir_all(root.join("saves/old")).unwrap();
    let core = super::core().unwrap();
    let catalog = Catalog::new(vec![core.clone(), Pack::open(&demo).unwrap()]);
    let save = root.join("saves/old/game.ron");
    let in_folder = |files: PackFiles, path: &str| TilesetRef {
        files,
        path: path.to_string(),
    };
    for (tileset, named) in [
        (
            in_folder(core.files.clone(), "tilesets/stone/tileset.ron"),
            "core:tilesets/stone/tileset.ron",
        ),
        (
            in_folder(PackFiles::Folder(demo.clone()), "tiles/t.ron"),
            "demo:tiles/t.ron",
        ),
        (
            in_folder(PackFiles::Folder(root.join("art")), "tiles/tileset.ron"),
            "../../art/tiles/tileset.ron",
        ),
    ] {
        assert_eq!(
            tileset_reference_from(&save, &tileset, &catalog).as_deref(),
            Some(named)
        );
    }
}

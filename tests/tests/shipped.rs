//! The content that ships: presets, maps and the stone tileset.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::map::{Map, ValidationContext, validate};
use scryptic::tileset::{GenerateOptions, MANIFEST_NAME, Style, Tileset, generate};
use scryptic::{RuleSet, Terrain};
use scryptic_tests::{root, shipped_maps};
use std::collections::BTreeSet;

#[test]
fn there_are_the_promised_maps() {
    let names: Vec<String> = shipped_maps()
        .iter()
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    for expected in [
        "maps/tutorial.ron",
        "maps/duel-24.ron",
        "maps/duel-40.ron",
        "maps/continent-256.ron",
        "packs/wending/campaigns/wending/1-the-ford.ron",
        "packs/wending/campaigns/wending/2-the-frozen-pass.ron",
        "packs/wending/campaigns/wending/3-the-burning-throne.ron",
    ] {
        assert!(
            names.contains(&expected.to_string()),
            "{expected} missing from {names:?}"
        );
    }
}

/// The shipped folders hold only what ships: no editor autosave (the editor writes
/// `NAME.ron.autosave` beside a map it edits; `.gitignore` keeps them out of commits).
#[test]
fn no_autosave_ships_and_git_ignores_them() {
    fn autosaves(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                autosaves(&path, out);
            } else if path.extension().is_some_and(|e| e == "autosave") {
                out.push(path);
            }
        }
    }
    let mut found = Vec::new();
    for folder in ["maps", "scripts", "tilesets", "lexicon"] {
        autosaves(&root().join(folder), &mut found);
    }
    assert!(
        found.is_empty(),
        "autosaves among the shipped files: {found:?}"
    );
    let ignore = std::fs::read_to_string(root().join(".gitignore")).unwrap();
    assert!(ignore.lines().any(|l| l.trim() == "*.autosave"), "{ignore}");
}

#[test]
fn every_shipped_map_loads_validates_clean_and_round_trips_byte_for_byte() {
    for path in shipped_maps() {
        let text = std::fs::read_to_string(&path).unwrap();
        let map = Map::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rules = map.rule_set().unwrap();
        let ctx = ValidationContext {
            base_dir: path.parent().map(Into::into),
            ..Default::default()
        };
        let findings = validate(&map, &rules, &ctx);
        assert!(findings.is_empty(), "{}: {findings:?}", path.display());
        assert_eq!(
            map.to_ron(),
            text,
            "{} is not in canonical form (run scryptic map fmt)",
            path.display()
        );
    }
}

#[test]
fn the_duels_use_every_terrain_both_kinds_of_city_and_all_elementals() {
    for name in ["duel-24.ron", "duel-40.ron"] {
        let map = Map::load(&root().join("maps").join(name)).unwrap();
        for (terrain, count) in map.terrain_counts() {
            assert!(count > 0, "{name} has no {terrain}");
        }
        assert!(
            map.cities
                .iter()
                .any(|c| c.owner == scryptic::Owner::Neutral),
            "{name}"
        );
        let kinds: BTreeSet<&str> = map.tokens.iter().map(|t| t.kind.as_str()).collect();
        assert_eq!(
            kinds,
            BTreeSet::from(["drought", "firestorm", "flood", "volcano"]),
            "{name}"
        );
    }
}

#[test]
fn the_duels_are_fair_point_symmetric() {
    for name in ["duel-24.ron", "duel-40.ron", "continent-256.ron"] {
        let map = Map::load(&root().join("maps").join(name)).unwrap();
        let (w, h) = (map.width(), map.height());
        for p in map.terrain.positions() {
            let m = scryptic::Pos::new(w - 1 - p.x, h - 1 - p.y);
            assert_eq!(map.terrain[p], map.terrain[m], "{name} at {p}");
        }
    }
}

#[test]
fn the_maps_have_the_promised_sizes() {
    let size = |name: &str| {
        let m = Map::load(&root().join("maps").join(name)).unwrap();
        (m.width(), m.height())
    };
    assert_eq!(size("tutorial.ron"), (12, 12));
    assert_eq!(size("duel-24.ron"), (24, 24));
    assert_eq!(size("duel-40.ron"), (40, 40));
    assert_eq!(size("continent-256.ron"), (256, 256));
}

#[test]
fn the_final_campaign_map_starts_with_silvers_keep() {
    let map = Map::load(&root().join("packs/wending/campaigns/wending/3-the-burning-throne.ron"))
        .unwrap();
    let texts: Vec<&str> = map.scenario.words.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(texts, vec!["KEEP", "FIRE"]);
    let throne = map.cities.iter().find(|c| c.id == "ember_throne").unwrap();
    assert!(
        map.scenario
            .words
            .iter()
            .flat_map(|w| w.letters())
            .any(|(p, _)| p == throne.at)
    );
}

#[test]
fn every_preset_loads_and_validates() {
    let names: Vec<&str> = RuleSet::preset_names().collect();
    assert_eq!(names, vec!["gdd-1.6", "classic"]);
    for name in names {
        assert_eq!(RuleSet::preset(name).unwrap().validate(), vec![]);
    }
}

#[test]
fn the_shipped_tileset_loads_with_eight_variants_of_every_terrain() {
    let tileset = Tileset::load(&root().join("tilesets/stone").join(MANIFEST_NAME)).unwrap();
    for t in Terrain::ALL {
        assert_eq!(tileset.terrain[&t].variants.len(), 8, "{t}");
    }
    assert_eq!(tileset.cities.len(), 3);
    assert_eq!(tileset.tokens.len(), 4);
    for coins in tileset.coins.values() {
        assert_eq!(coins.len(), 3);
    }
}

/// Every generated tileset that ships, with the options that made it (the command line's
/// `scryptic tileset generate` flags in a comment).
#[test]
fn the_shipped_tilesets_are_exactly_what_generate_makes() {
    check_generated("tilesets/stone", &GenerateOptions::default());
    // --out packs/scryper/tilesets/wood --style wood --variants 4 --piece brick=#eeeadf,#8a5a35
    check_generated(
        "packs/scryper/tilesets/wood",
        &GenerateOptions {
            variants: 4,
            style: Style::Wood,
            pieces: vec!["brick=#eeeadf,#8a5a35".parse().unwrap()],
            ..GenerateOptions::default()
        },
    );
}

/// The tileset in `folder` holds exactly the files `options` generate, byte for byte.
fn check_generated(folder: &str, options: &GenerateOptions) {
    let dir = tempfile::tempdir().unwrap();
    let files = generate(dir.path(), options).unwrap();
    let shipped = root().join(folder);
    let shipped_count = std::fs::read_dir(&shipped).unwrap().count();
    assert_eq!(
        files.len(),
        shipped_count,
        "{folder} has files generate does not make"
    );
    for file in files {
        let name = file.file_name().unwrap();
        let fresh = std::fs::read(&file).unwrap();
        let committed = std::fs::read(shipped.join(name)).unwrap();
        assert!(
            fresh == committed,
            "{folder}/{name:?} differs: run `scryptic tileset generate` with the options above"
        );
    }
}

/// Scryper's bricks are drawn from its own tileset, one image for each seat.
#[test]
fn scrypers_tileset_draws_a_brick_for_each_seat() {
    let tileset = Tileset::load(
        &root()
            .join("packs/scryper/tilesets/wood")
            .join(MANIFEST_NAME),
    )
    .unwrap();
    assert_eq!(tileset.pieces["brick"].len(), 2);
    let white = tileset.piece("brick", 0).unwrap();
    let brown = tileset.piece("brick", 1).unwrap();
    assert_ne!(white, brown, "the seats' bricks differ");
    assert_eq!(
        tileset.piece("brick", 5),
        Some(brown),
        "a seat past the list uses the last"
    );
    assert_eq!(tileset.piece("pawn", 0), None);
}

/// Every shipped map finds its tileset as the editor and the games find it (beside the map,
/// inside its pack, or another pack's, `core:tilesets/...`), and it loads with every image: the
/// same pictures as the tileset loaded straight from its folder.
#[test]
fn every_shipped_map_finds_and_loads_its_tileset() {
    let (catalog, problems) = scryptic::pack::Catalog::discover();
    assert!(problems.is_empty(), "{problems:?}");
    let direct = Tileset::load(&root().join("tilesets/stone").join(MANIFEST_NAME)).unwrap();
    for path in shipped_maps() {
        let map = Map::load(&path).unwrap();
        let found = scryptic::pack::level::map_tileset(Some(&path), &map.tileset, &catalog)
            .unwrap_or_else(|| panic!("{}: no tileset found", path.display()));
        let loaded = Tileset::from_pack(&found.files, &found.path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            loaded.terrain.len(),
            direct.terrain.len(),
            "{}",
            path.display()
        );
        assert_eq!(
            loaded.cities.len(),
            direct.cities.len(),
            "{}",
            path.display()
        );
        assert_eq!(
            loaded.tokens.len(),
            direct.tokens.len(),
            "{}",
            path.display()
        );
    }
}

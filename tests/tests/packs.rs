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
    let o = scryptic_typing(&["play", "--pack", text(&pack)], "quit\n");
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
    let o = scryptic(&["pack", "check", text(&exported)]);
    assert_eq!(o.code, 0, "{o:?}");
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
        let o = scryptic(&["play", "--pack", text(&pack), "--set", set]);
        assert!(o.code == 1 && o.err.contains(wanted), "{set}: {o:?}");
    }
    let o = scryptic(&["play", "--pack", &format!("{}:nope", text(&pack))]);
    assert!(o.code == 1 && o.err.contains("no mode `nope`"), "{o:?}");
    let o = scryptic(&["play", "--pack", "no-such-pack"]);
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

//! Packs as archives and folders from strangers: zip, install, replace, remove, and refusals.

use super::*;

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

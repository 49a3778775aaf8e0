//! The packs' string tables: scripts speak the game's language, and translations are checked.

use super::*;

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

//! The `scryptic` command line, used the way a designer or a script uses it.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{repo_path, root, scryptic, scryptic_typing};

#[test]
fn rules_list_names_both_presets() {
    let o = scryptic(&["rules", "list"]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("gdd-1.6") && o.out.contains("classic"),
        "{}",
        o.out
    );
    let json: serde_json::Value =
        serde_json::from_str(&scryptic(&["rules", "list", "--json"]).out).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
}

#[test]
fn rules_show_prints_a_complete_rule_set_that_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    for preset in ["gdd-1.6", "classic"] {
        let o = scryptic(&["rules", "show", preset]);
        assert_eq!(o.code, 0, "{o:?}");
        let file = dir.path().join(format!("{preset}.ron"));
        std::fs::write(&file, &o.out).unwrap();
        let checked = scryptic(&["rules", "check", file.to_str().unwrap()]);
        assert_eq!(
            checked.code, 0,
            "rules check takes what rules show prints: {checked:?}"
        );
        let again = scryptic::RuleSet::load(&file).unwrap();
        assert_eq!(again, scryptic::RuleSet::preset(preset).unwrap());
        let shown_again = scryptic(&["rules", "show", file.to_str().unwrap()]);
        assert_eq!(shown_again.out, o.out, "a shown file shows as itself");
    }
    let json: serde_json::Value =
        serde_json::from_str(&scryptic(&["rules", "show", "classic", "--json"]).out).unwrap();
    assert_eq!(json["turn"]["rack_limit"], 10);
}

#[test]
fn rules_show_describes_every_constant() {
    let o = scryptic(&["rules", "show", "classic", "--describe"]);
    assert_eq!(o.code, 0);
    assert!(o.out.contains("turn.rack_limit [1 to 1000]"), "{}", o.out);
    assert!(
        o.out
            .contains("The most items (letters and tokens) a rack holds")
    );
}

#[test]
fn rules_check_reports_file_line_column() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.ron");
    let bad = dir.path().join("bad.ron");
    std::fs::write(&good, "(version: 1, name: \"long racks\", preset: \"classic\", overrides: (turn: (rack_limit: 14)))").unwrap();
    std::fs::write(
        &bad,
        "(version: 1, preset: \"classic\",\n overrides: (turn: (rack_limimt: 14)))",
    )
    .unwrap();
    let o = scryptic(&["rules", "check", good.to_str().unwrap()]);
    assert_eq!(
        (o.code, o.out.trim()),
        (0, format!("ok: {}", good.display()).as_str())
    );
    let o = scryptic(&[
        "rules",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.err.trim(),
        format!(
            "{}:2:21: unknown field `rack_limimt` in `turn`; did you mean `rack_limit`?",
            bad.display()
        )
    );
    let shown = scryptic(&["rules", "show", good.to_str().unwrap()]);
    assert!(
        shown.out.contains("name: \"long racks\"") && shown.out.contains("rack_limit: 14"),
        "{}",
        shown.out
    );
}

#[test]
fn map_validate_passes_the_shipped_maps_and_fails_a_broken_one() {
    let o = scryptic(&[
        "map",
        "validate",
        &repo_path("maps/duel-24.ron"),
        &repo_path("maps/tutorial.ron"),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ron");
    let text = std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap();
    std::fs::write(&broken, text.replacen("owner: Silver", "owner: Neutral", 1)).unwrap();
    let o = scryptic(&["map", "validate", broken.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.out.contains("error[no-city]: silver owns no city"),
        "{}",
        o.out
    );
    let json: serde_json::Value = serde_json::from_str(
        &scryptic(&["map", "validate", "--json", broken.to_str().unwrap()]).out,
    )
    .unwrap();
    assert_eq!(json[0]["findings"][0]["code"], "no-city");
}

#[test]
fn map_validate_accepts_script_token_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("quake.ron");
    let text = std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap();
    std::fs::write(
        &map,
        text.replace("kind: \"firestorm\"", "kind: \"quake\"")
            .replace("../tilesets", "../nowhere"),
    )
    .unwrap();
    let o = scryptic(&["map", "validate", map.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.out.contains("unknown-token-kind") && o.out.contains("missing-tileset"),
        "{}",
        o.out
    );
    let o = scryptic(&[
        "map",
        "validate",
        "--token-kind",
        "quake",
        map.to_str().unwrap(),
    ]);
    assert!(!o.out.contains("unknown-token-kind"), "{}", o.out);
}

/// `map validate` loads what the map names as a game would: its scripts (a kind they define
/// is known, an error in one is reported at its line) and its tileset.
#[test]
fn map_validate_loads_the_scripts_and_tileset_the_map_names() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("quake.ron");
    let text = std::fs::read_to_string(root().join("maps/tutorial.ron")).unwrap();
    let tileset = root().join("tilesets/stone/tileset.ron");
    let with_parts = |scripts: &str, tileset: &str| {
        text.replace("kind: \"firestorm\"", "kind: \"quake\"")
            .replace(
                "tileset: \"../tilesets/stone/tileset.ron\"",
                &format!("tileset: \"{tileset}\",\n    scripts: [{scripts}]"),
            )
    };
    std::fs::write(
        dir.path().join("quake.lua"),
        "scryptic.token { id = \"quake\", name = \"Quake\", invoke = function(game, token) end }\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("broken.lua"), "-- fine\nlocal x = = 1\n").unwrap();
    std::fs::create_dir(dir.path().join("tiles")).unwrap();
    let stone = tileset.parent().unwrap();
    for entry in std::fs::read_dir(stone).unwrap().flatten() {
        std::fs::copy(
            entry.path(),
            dir.path().join("tiles").join(entry.file_name()),
        )
        .unwrap();
    }
    std::fs::write(
        dir.path().join("tiles/tileset.ron"),
        std::fs::read_to_string(&tileset)
            .unwrap()
            .replacen(".png\"", ".gif\"", 1),
    )
    .unwrap();
    std::fs::write(&map, with_parts("\"quake.lua\"", "tiles/tileset.ron")).unwrap();
    let m = map.to_str().unwrap();
    let o = scryptic(&["map", "validate", m]);
    assert!(
        !o.out.contains("unknown-token-kind"),
        "the script defines quake: {}",
        o.out
    );
    assert_eq!(
        o.code, 1,
        "the tileset names an image that is not there: {o:?}"
    );
    assert!(
        o.err.contains("tiles/tileset.ron:") && o.err.contains(".gif` cannot be read"),
        "{}",
        o.err
    );
    std::fs::write(&map, with_parts("\"quake.lua\", \"broken.lua\"", "")).unwrap();
    let o = scryptic(&["map", "validate", m]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(o.err.contains("broken.lua:2:"), "{}", o.err);
    std::fs::write(&map, with_parts("\"quake.lua\"", "")).unwrap();
    let o = scryptic(&["map", "validate", m]);
    assert_eq!(o.code, 0, "{o:?}");
}

#[test]
fn map_info_describes_a_map() {
    let o = scryptic(&["map", "info", &repo_path("maps/duel-40.ron")]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.starts_with("Duel: The Great Divide (40x40)"),
        "{}",
        o.out
    );
    assert!(o.out.contains("rules: classic with 1 overridden constants"));
    let json: serde_json::Value = serde_json::from_str(
        &scryptic(&["map", "info", "--json", &repo_path("maps/duel-40.ron")]).out,
    )
    .unwrap();
    assert_eq!(json["width"], 40);
    assert_eq!(json["tokens"].as_array().unwrap().len(), 8);
}

#[test]
fn map_render_writes_a_png_of_the_right_size() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("duel.png");
    let o = scryptic(&[
        "map",
        "render",
        &repo_path("maps/duel-24.ron"),
        "-o",
        out.to_str().unwrap(),
        "--cell-size",
        "16",
        "--grid",
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    let img = image_dimensions(&out);
    assert_eq!(img, (384, 384));
    let o = scryptic(&[
        "map",
        "render",
        &repo_path("maps/continent-256.ron"),
        "-o",
        out.to_str().unwrap(),
        "--max-side",
        "512",
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    assert_eq!(image_dimensions(&out), (512, 512));
}

#[test]
fn map_render_refuses_an_image_too_large_to_make() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("huge.png");
    let o = scryptic(&[
        "map",
        "render",
        &repo_path("maps/continent-256.ron"),
        "-o",
        out.to_str().unwrap(),
        "--cell-size",
        "512",
    ]);
    assert_eq!(o.code, 1, "{o:?}");
    assert!(
        o.err
            .contains("the image would be 131072x131072; the most is 16384"),
        "{}",
        o.err
    );
    assert!(!out.exists());
}

fn image_dimensions(path: &std::path::Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    (be(16), be(20))
}

#[test]
fn map_new_refuses_to_overwrite_and_fmt_canonicalises() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("new.ron");
    let m = map.to_str().unwrap();
    assert_eq!(
        scryptic(&[
            "map", "new", m, "--width", "30", "--height", "20", "--seed", "5"
        ])
        .code,
        0
    );
    let first = std::fs::read(&map).unwrap();
    let o = scryptic(&["map", "new", m, "--seed", "6"]);
    assert_eq!(o.code, 1);
    assert!(o.err.contains("pass --force"), "{}", o.err);
    assert_eq!(
        std::fs::read(&map).unwrap(),
        first,
        "a refused command changed the file"
    );
    assert_eq!(scryptic(&["map", "fmt", "--check", m]).code, 0);
    let text = String::from_utf8(first).unwrap();
    std::fs::write(&map, text.replace("    version: 1,", "  version:   1,")).unwrap();
    assert_eq!(scryptic(&["map", "fmt", "--check", m]).code, 1);
    assert_eq!(scryptic(&["map", "fmt", m]).code, 0);
    assert_eq!(std::fs::read_to_string(&map).unwrap(), text);
    let commented = text
        .replacen("(\n", "// A generated map.\n(\n", 1)
        .replacen(
            "    cities: [",
            "    // Both capitals are mirrored.\n    cities:   [",
            1,
        )
        .replacen("    version: 1,", "    version: 1, // the file format", 1);
    std::fs::write(&map, &commented).unwrap();
    assert_eq!(
        scryptic(&["map", "fmt", "--check", m]).code,
        1,
        "`cities:   [` is not canonical"
    );
    assert_eq!(scryptic(&["map", "fmt", m]).code, 0);
    let formatted = std::fs::read_to_string(&map).unwrap();
    assert_eq!(
        formatted,
        commented.replace("cities:   [", "cities: ["),
        "map fmt keeps // comments"
    );
    assert_eq!(scryptic(&["map", "fmt", "--check", m]).code, 0);
    let o = scryptic(&["map", "new", m, "--force", "--width", "4"]);
    assert_eq!(o.code, 1);
    assert!(o.err.contains("from 6 to 512 cells"), "{}", o.err);
}

#[test]
fn tileset_generate_writes_a_loadable_tileset() {
    let dir = tempfile::tempdir().unwrap();
    let o = scryptic(&[
        "tileset",
        "generate",
        "--out",
        dir.path().to_str().unwrap(),
        "--tile-size",
        "16",
        "--variants",
        "2",
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("wrote 26 files"), "{}", o.out);
    scryptic::tileset::Tileset::load(&dir.path().join("tileset.ron")).unwrap();
    // A board game's wooden tileset with a block for each seat of a piece kind.
    let out = dir.path().join("wood");
    let args = [
        "tileset",
        "generate",
        "--out",
        out.to_str().unwrap(),
        "--style",
        "wood",
    ];
    let o = scryptic(
        &[
            &args[..],
            &["--variants", "1", "--piece", "pawn=#ffffff,#000000,#ff0000"],
        ]
        .concat(),
    );
    assert_eq!(o.code, 0, "{o:?}");
    let wood = scryptic::tileset::Tileset::load(&out.join("tileset.ron")).unwrap();
    assert_eq!((wood.name.as_str(), wood.pieces["pawn"].len()), ("Wood", 3));
    let o = scryptic(&[&args[..], &["--piece", "pawn=white"]].concat());
    assert_eq!(o.code, 2, "{o:?}");
    assert!(
        o.err
            .contains("colour \"white\" is not of the form #rrggbb"),
        "{}",
        o.err
    );
}

#[test]
fn every_command_has_help() {
    for args in [
        vec!["--help"],
        vec!["rules", "--help"],
        vec!["rules", "check", "--help"],
        vec!["map", "--help"],
        vec!["map", "render", "--help"],
        vec!["tileset", "generate", "--help"],
        vec!["lexicon", "--help"],
        vec!["lexicon", "build", "--help"],
        vec!["lexicon", "check", "--help"],
        vec!["lexicon", "query", "--help"],
        vec!["lexicon", "stats", "--help"],
        vec!["play", "--help"],
        vec!["replay", "--help"],
        vec!["campaign", "--help"],
        vec!["script", "check", "--help"],
        vec!["simulate", "--help"],
        vec!["balance", "--help"],
        vec!["moves", "--help"],
    ] {
        let o = scryptic(&args);
        assert_eq!(o.code, 0, "{args:?}");
        assert!(o.out.contains("Usage:"), "{args:?}: {}", o.out);
    }
}

#[test]
fn play_runs_a_game_typed_at_the_terminal_and_saves_it_for_replay() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    let typed = format!(
        "help\ncommit A1 across QQQ\nboard\ncommit D10 across BOG\nend\ncommit J3 down MAD\nend\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(
        &["play", &repo_path("maps/tutorial.ron"), "--seed", "3"],
        &typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("commit CELL across|down WORD"),
        "help lists the commands"
    );
    assert!(
        o.out
            .contains("refused: your rack has no Q left for this word"),
        "{}",
        o.out
    );
    assert!(o.out.contains("gold plays BOG at D10 across"), "{}", o.out);
    assert!(o.out.contains("silver plays MAD at J3 down"), "{}", o.out);
    assert!(o.out.contains(&format!("saved to {}", save.display())));
    let replay = scryptic(&["replay", save.to_str().unwrap(), "--json"]);
    assert_eq!(replay.code, 0, "{replay:?}");
    let json: serde_json::Value = serde_json::from_str(&replay.out).unwrap();
    assert_eq!(json["turn"], 3);
    assert_eq!(json["to_play"], "Gold");
    assert_eq!(json["players"][0]["word_score"], 4);
    assert_eq!(json["players"][1]["word_score"], 4);
    assert_eq!(json["letters"].as_array().unwrap().len(), 6);
    assert!(
        json["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e == "silver plays MAD at J3 down")
    );
    let text = scryptic(&["replay", save.to_str().unwrap()]);
    assert!(text.out.starts_with("turn 3: gold to play"), "{}", text.out);
    let resumed = scryptic_typing(&["play", "--load", save.to_str().unwrap()], "quit\n");
    assert!(
        resumed.out.contains("turn 3: gold to play"),
        "{}",
        resumed.out
    );
}

/// A map whose game ends at gold's first commit: gold's rack is AT and its pool is empty.
const ENDS_AT_ONCE: &str = r#"(
    version: 1,
    name: "Ends at once",
    size: (width: 8, height: 8),
    terrain: ["........", "........", "........", "........", "........", "........", "........", "........"],
    cities: [
        (id: "aurum", name: "Aurum", at: (x: 0, y: 0), owner: Gold),
        (id: "argentum", name: "Argentum", at: (x: 7, y: 7), owner: Silver),
    ],
    rules: (preset: "gdd-1.6"),
    scenario: (
        words: [(player: Silver, at: (x: 5, y: 7), dir: Across, text: "DOG")],
        racks: {Gold: "AT", Silver: "AEIOU"},
        pools: {Gold: "", Silver: ""},
    ),
)"#;

#[test]
fn a_finished_game_can_still_be_shown_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("ends.ron");
    std::fs::write(&map, ENDS_AT_ONCE).unwrap();
    let save = dir.path().join("over.ron");
    let typed = format!(
        "commit A1 across AT\nboard\nend\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(&["play", "--seed", "1", map.to_str().unwrap()], &typed);
    assert_eq!(o.code, 0, "{o:?}");
    let before_board = &o.out[..o.out.find("game over>").unwrap()];
    assert_eq!(
        before_board.matches("game over: silver wins").count(),
        1,
        "the end is told once: {}",
        o.out
    );
    assert!(
        o.out
            .contains("  the game is over: `board`, `save FILE` or `quit`"),
        "a move after the end is answered: {}",
        o.out
    );
    assert!(
        o.out.contains(&format!("saved to {}", save.display())),
        "{}",
        o.out
    );
    let after_end = &o.out[o.out.find("game over>").unwrap()..];
    assert!(
        after_end.contains("legend:"),
        "board shows the finished game: {after_end}"
    );
    let replay = scryptic(&["replay", save.to_str().unwrap(), "--json"]);
    assert_eq!(replay.code, 0, "{replay:?}");
    let json: serde_json::Value = serde_json::from_str(&replay.out).unwrap();
    assert_eq!(json["over"], true);
    assert_eq!(json["winner"], "Silver");
}

#[test]
fn replay_refuses_a_save_that_does_not_replay() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("game.ron");
    let o = scryptic_typing(
        &["play", &repo_path("maps/tutorial.ron"), "--seed", "3"],
        &format!("end\nsave {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0);
    let text = std::fs::read_to_string(&save).unwrap();
    let tampered = text.replacen(
        "EndTurn",
        "Commit(letters: [(at: (x: 0, y: 0), letter: 'Q')])",
        1,
    );
    std::fs::write(&save, tampered).unwrap();
    let o = scryptic(&["replay", save.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.err.contains("action 1") && o.err.contains("is refused on replay"),
        "{}",
        o.err
    );
    std::fs::write(&save, "(version: 1, map: 3)").unwrap();
    let o = scryptic(&["replay", save.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(o.err.contains("game.ron:1:"), "{}", o.err);
}

#[test]
fn script_check_reports_errors_with_file_and_line() {
    let o = scryptic(&[
        "script",
        "check",
        &repo_path("scripts/win/first_to_score.lua"),
        &repo_path("scripts/win/total_control.lua"),
    ]);
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out
            .contains("win conditions first_to_score, total_control"),
        "{}",
        o.out
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.lua");
    std::fs::write(
        &bad,
        "print('loading')\nscryptic.on('turn_begin', function() end)\n",
    )
    .unwrap();
    let o = scryptic(&["script", "check", bad.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert_eq!(
        o.err.lines().next().unwrap_or_default(),
        format!(
            "error: script {}:2 in event load: unknown event `turn_begin`; the events are game_start, turn_start, turn_end, word_committed, combat_resolved, city_captured, token_captured, token_invoked, game_end, on_reload (a custom event is named with a `:`, `economy:payday`)",
            bad.display()
        )
    );
    assert!(
        o.err
            .contains(&format!("{}:2: in main chunk", bad.display())),
        "the traceback follows: {}",
        o.err
    );
    let o = scryptic(&[
        "script",
        "check",
        &repo_path("packs/wending/scripts/1-the-ford.lua"),
        "--map",
        &repo_path("packs/wending/campaigns/wending/1-the-ford.ron"),
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert_eq!(json["ok"], true, "{}", o.out);
}

#[test]
fn a_scripted_game_saves_its_scripts_and_replays_from_the_save_alone() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("ford.ron");
    let o = scryptic_typing(
        &[
            "play",
            &repo_path("packs/wending/campaigns/wending/1-the-ford.ron"),
            "--seed",
            "2",
        ],
        &format!("end\nend\nsave {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("» Chapter 1: the Ford at Wending."),
        "{}",
        o.out
    );
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(
        text.contains("scripts: [") && text.contains("storage.campaign"),
        "the save carries the script's text"
    );
    let moved = dir.path().join("elsewhere.ron");
    std::fs::rename(&save, &moved).unwrap();
    let o = scryptic(&["replay", moved.to_str().unwrap(), "--json"]);
    assert_eq!(o.code, 0, "{o:?}");
    let json: serde_json::Value = serde_json::from_str(&o.out).unwrap();
    assert!(
        json["console"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("Chapter 1")),
        "{}",
        o.out
    );
}

/// Every problem `script check` finds is written the one way, with its file and line: a
/// budget or memory stop as a syntax error is.
#[test]
fn script_check_writes_every_problem_one_way_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "loop.lua",
            "local n = 0\nwhile true do n = n + 1 end\n",
            2,
            "instruction budget exceeded",
        ),
        (
            "hoard.lua",
            "local t = {}\nlocal i = 0 while true do i = i + 1 t[i] = {} end\n",
            2,
            "not enough memory",
        ),
        ("syntax.lua", "local x =\n", 2, "unexpected symbol"),
    ];
    for (name, text, line, message) in cases {
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let o = scryptic(&["script", "check", file.to_str().unwrap()]);
        assert_eq!(o.code, 1, "{name}: {o:?}");
        let first = o.err.lines().next().unwrap_or_default();
        let head = format!("error: script {}:{line} in event load: ", file.display());
        assert!(
            first.starts_with(&head) && first.contains(message),
            "{name}: {first}"
        );
    }
}

#[test]
fn script_check_shows_the_traceback_of_a_runtime_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("deep.lua");
    std::fs::write(&bad, "local function inner()\n  error('deep trouble')\nend\nlocal function outer() inner() end\nouter()\n").unwrap();
    let o = scryptic(&["script", "check", bad.to_str().unwrap()]);
    assert_eq!(o.code, 1);
    assert!(
        o.err.starts_with(&format!(
            "error: script {}:2 in event load: deep trouble",
            bad.display()
        )),
        "{}",
        o.err
    );
    assert!(
        o.err.contains("stack traceback:") && o.err.contains("in local 'outer'")
            || o.err.contains("in function"),
        "{}",
        o.err
    );
}

/// One refusal of the command line: the arguments (`{dir}` is a scratch folder holding
/// `tutorial.ron` and `save.ron`, a short game on it), the exit code, and text the message
/// must hold.
struct Refusal {
    args: &'static str,
    code: i32,
    says: &'static str,
}

const fn refusal(args: &'static str, code: i32, says: &'static str) -> Refusal {
    Refusal { args, code, says }
}

/// Every way the command line refuses, as a table: 2 for misuse (clap's convention), 1 for a
/// refused file or action, with the message on standard error and no colour codes.
#[test]
fn the_command_line_refuses_with_a_reason_and_an_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("maps/tutorial.ron"),
        dir.path().join("tutorial.ron"),
    )
    .unwrap();
    let d = dir.path().display().to_string();
    let made = scryptic_typing(
        &["play", "--seed", "1", &format!("{d}/tutorial.ron")],
        &format!("end\nsave {d}/save.ron\nquit\n"),
    );
    assert_eq!(made.code, 0, "{made:?}");
    let table = [
        refusal("map frobnicate", 2, "unrecognized subcommand"),
        refusal(
            "map render {dir}/tutorial.ron --cell-size 0",
            2,
            "0 is not in 1..=512",
        ),
        refusal(
            "simulate {dir}/tutorial.ron --games 0",
            2,
            "0 is not in 1..=1000000",
        ),
        refusal(
            "simulate {dir}/tutorial.ron --games 5000000",
            2,
            "5000000 is not in 1..=1000000",
        ),
        refusal(
            "simulate {dir}/tutorial.ron --ai hard",
            2,
            "name an AI for each player",
        ),
        refusal(
            "simulate {dir}/tutorial.ron --json --jsonl",
            2,
            "cannot be used with",
        ),
        refusal("campaign {dir} --chapter 0", 2, "0 is not in 1.."),
        refusal(
            "play --load {dir}/save.ron --rules x.ron",
            2,
            "cannot be used with",
        ),
        refusal(
            "map info /no/such/map.ron",
            1,
            "cannot read /no/such/map.ron",
        ),
        refusal("play", 1, "name a map to play"),
        refusal("rules show clasic", 1, "did you mean `classic`?"),
        refusal(
            "lexicon check sword --mod {dir}/no-such-mod",
            1,
            "there is no such folder",
        ),
        refusal(
            "lexicon query --fuzzy sword --distance 3",
            1,
            "1 or 2 edits away; 3 is not allowed",
        ),
        refusal(
            "map new {dir}/crowded.ron --width 8 --height 8 --neutral-pairs 40",
            1,
            "has room for",
        ),
        refusal(
            "map new {dir}/tutorial.ron",
            1,
            "exists; pass --force to replace it",
        ),
        refusal(
            "map new {dir}/huge.ron --width 5000 --height 8",
            1,
            "cells on each side",
        ),
        refusal(
            "preview {dir}/save.ron end",
            1,
            "only a commit can be previewed",
        ),
        refusal(
            "preview {dir}/save.ron A1 across QQQ",
            1,
            "your rack has no Q",
        ),
        refusal("replay {dir}/no-save.ron", 1, "cannot read"),
        refusal("campaign {dir}/no-campaign", 1, "cannot read"),
    ];
    let mut failures = Vec::new();
    for r in &table {
        let line = r.args.replace("{dir}", &d);
        let args: Vec<&str> = line.split_whitespace().collect();
        let o = scryptic(&args);
        if o.code != r.code || !o.err.contains(r.says) || o.err.contains('\u{1b}') {
            failures.push(format!(
                "`{line}`: expected {} and `{}`, got {} and {:?}",
                r.code, r.says, o.code, o.err
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        !dir.path().join("crowded.ron").exists() && !dir.path().join("huge.ron").exists(),
        "a refused map new writes nothing"
    );
}

/// `--help` says what the exit codes mean.
#[test]
fn help_documents_the_exit_codes() {
    let o = scryptic(&["--help"]);
    assert_eq!(o.code, 0);
    assert!(
        o.out
            .contains("Exit codes: 0 success, 1 a refused file or action")
            && o.out.contains("2 misuse (bad flags or values)"),
        "{}",
        o.out
    );
}

/// Without `--seed`, `play` draws its seed from the system and tells it when the players leave
/// (not before: with it, anyone could deal the game again and read the other side's tiles):
/// every game deals other tiles (and hidden pieces other ids), and the told seed plays the
/// same game again.
#[test]
fn play_draws_its_seed_and_tells_it_at_the_end() {
    let tutorial = repo_path("maps/tutorial.ron");
    let told = "this game's seed was ";
    let seed_of = |out: &str| -> u64 {
        let at = out.find(told).unwrap_or_else(|| panic!("no seed in {out}"));
        out[at + told.len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no seed in {out}"))
    };
    let rack = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("gold:") && l.contains("rack"))
            .unwrap_or_default()
            .to_string()
    };
    let first = scryptic_typing(&["play", &tutorial], "quit\n");
    let second = scryptic_typing(&["play", &tutorial], "quit\n");
    let (a, b) = (seed_of(&first.out), seed_of(&second.out));
    assert_ne!(a, b, "two games drew the same seed");
    assert!(
        first
            .out
            .trim_end()
            .ends_with(&format!("{told}{a}: `--seed {a}` plays it again")),
        "the seed is the last thing said: {}",
        first.out
    );
    let again = scryptic_typing(&["play", &tutorial, "--seed", &a.to_string()], "quit\n");
    assert!(!again.out.contains(told), "{}", again.out);
    assert_eq!(rack(&again.out), rack(&first.out));
}

//! `scryptic campaign`: a campaign's chapters played in order at the terminal, storage carried
//! between them, resumed at a chapter or from a saved game.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::scryptic_typing;

/// A two-chapter campaign in `dir`: chapter 1 gives a crown to storage and is won (or, with
/// `lose`, lost) at once; chapter 2 says what it carries.
fn two_chapter_campaign(dir: &std::path::Path, lose: bool) {
    use scryptic::board::Owner;
    let winner = if lose { "silver" } else { "gold" };
    for (file, name, script) in [
        (
            "1-first.ron",
            "First",
            format!("scryptic.on('game_start', function(game)\n  storage.gift = 'a silver crown'\n  game:end_game('{winner}', 'decided at once')\nend)"),
        ),
        (
            "2-second.ron",
            "Second",
            "scryptic.on('game_start', function(game)\n  game:message('you carry ' .. (storage.gift or 'nothing'))\nend)".to_string(),
        ),
    ] {
        let mut map = scryptic::Map::new(name, 8, 8);
        map.cities = vec![
            scryptic_tests::city("a", 0, 0, Owner::Gold),
            scryptic_tests::city("b", 7, 7, Owner::Silver),
        ];
        let script_name = file.replace(".ron", ".lua");
        map.scripts = vec![script_name.clone()];
        map.save(&dir.join(file)).unwrap();
        std::fs::write(dir.join(script_name), script).unwrap();
    }
}

/// `scryptic campaign DIR --progress FILE ...` typing `input`.
fn campaign(dir: &std::path::Path, more: &[&str], input: &str) -> scryptic_tests::Output {
    let progress = dir.join("progress").join("wending.ron");
    let mut args = vec![
        "campaign",
        dir.to_str().unwrap(),
        "--progress",
        progress.to_str().unwrap(),
    ];
    args.extend_from_slice(more);
    scryptic_typing(&args, input)
}

#[test]
fn campaign_plays_the_chapters_in_order_carrying_storage() {
    let dir = tempfile::tempdir().unwrap();
    two_chapter_campaign(dir.path(), false);
    let o = campaign(dir.path(), &[], "next\nquit\n");
    assert_eq!(o.code, 0, "{o:?}");
    let first = o.out.find("== First (1 of 2)").expect("chapter 1 starts");
    let won = o
        .out
        .find("game over: gold wins (decided at once)")
        .expect("chapter 1 ends");
    let second = o.out.find("== Second (2 of 2)").expect("chapter 2 starts");
    assert!(first < won && won < second);
    assert!(
        o.out.contains("» you carry a silver crown"),
        "storage is carried: {}",
        o.out
    );
    assert!(
        o.out
            .contains("the campaign stops here; `--chapter 2` starts this chapter again"),
        "{}",
        o.out
    );
}

/// A campaign resumes where it was left: at a chapter it reached (`--chapter`, with the
/// storage that chapter started with), or in a saved chapter game (`--continue`); a chapter not
/// yet reached is refused, and a lost chapter says how to play it again.
#[test]
fn a_campaign_resumes_at_a_chapter_or_a_saved_game() {
    let dir = tempfile::tempdir().unwrap();
    two_chapter_campaign(dir.path(), false);
    let o = campaign(dir.path(), &["--chapter", "2"], "");
    assert_eq!(o.code, 1, "chapter 2 was never reached: {o:?}");
    assert!(
        o.err.contains("chapter 2 cannot be played yet"),
        "{}",
        o.err
    );
    let saves = tempfile::tempdir().unwrap();
    let save = saves.path().join("chapter-2.ron");
    let o = campaign(
        dir.path(),
        &[],
        &format!("next\nsave {}\nquit\n", save.display()),
    );
    assert_eq!(o.code, 0, "{o:?}");
    let o = campaign(dir.path(), &["--chapter", "2"], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(!o.out.contains("== First"), "{}", o.out);
    assert!(
        o.out.contains("== Second (2 of 2)") && o.out.contains("» you carry a silver crown"),
        "{}",
        o.out
    );
    let o = campaign(
        dir.path(),
        &["--continue", save.to_str().unwrap()],
        "quit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(o.out.contains("== Second (2 of 2)"), "{}", o.out);
    let elsewhere = tempfile::tempdir().unwrap();
    two_chapter_campaign(elsewhere.path(), true);
    let o = campaign(elsewhere.path(), &[], "");
    assert!(
        o.out
            .contains("the campaign is lost here; play this chapter again with")
            && o.out.contains("--chapter 1"),
        "{}",
        o.out
    );
    let other = tempfile::tempdir().unwrap();
    let o = campaign(other.path(), &["--continue", save.to_str().unwrap()], "");
    assert_eq!(o.code, 1, "{o:?}");
}

/// Winning chapter 1 and quitting says `--chapter 2` goes on, and it does, with the storage
/// chapter 1 gave (one truth about progress).
#[test]
fn quitting_after_a_won_chapter_keeps_the_next_reached() {
    let dir = tempfile::tempdir().unwrap();
    two_chapter_campaign(dir.path(), false);
    let o = campaign(dir.path(), &[], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out
            .contains("the campaign stops here; `--chapter 2` goes on"),
        "{}",
        o.out
    );
    let o = campaign(dir.path(), &["--chapter", "2"], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("== Second (2 of 2)") && o.out.contains("» you carry a silver crown"),
        "{}",
        o.out
    );
}

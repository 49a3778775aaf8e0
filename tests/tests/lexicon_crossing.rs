//! Lexicon Crossing as its players meet it: at the terminal three players pass one keyboard,
//! each seeing only their own tiles and region, signal green and red light, and the clock ends
//! the grace period; the save replays the same game; AIs play it for 2 to 5 players.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{root, scryptic, scryptic_typing};

fn pack() -> String {
    root().join("packs/lexicon-crossing").display().to_string()
}

/// The lines of `out` that are not the board's rows (the regions are wide).
fn said(out: &str) -> String {
    out.lines()
        .filter(|l| !l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn three_players_share_one_keyboard_and_the_clock_ends_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("three.ron");
    let typed = format!(
        "layout A1 across CAT\npass\nlayout A1 across DOG\nlayout U1 across DOG\npass\n\
         layout AO1 across EMU\ngreen\npass\nadd A1 across CATS\nred\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/deals/three.ron",
            "--set",
            "players=3",
            "--set",
            "grace=0",
        ],
        &typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    let out = said(&o.out);
    for line in [
        // Gold's rack is gold's alone; the others show counts.
        "gold: score 0/3 = 0 (crossing points 0 over 0 words and 3 left over); rack C A T; pool 5",
        "silver: score 0/3 = 0 (crossing points 0 over 0 words and 3 left over); rack 3 letters (hidden); pool 5",
        "your crossword is complete; you may jaywalk",
        "round 1: everyone plays at once; silver at the keyboard (`pass` hands it on)",
        "refused: A1 is outside your region (the one from U1): each player builds in their own",
        "bronze calls green light: round 2, every player draws",
        // Draws are told face down: every player reads this screen.
        "gold draws 1 letter",
        "the pool runs low: red light when complete",
        "gold calls red light: the others have 0 s to finish their crosswords",
        "time is up: the grace period is over",
        "game over: gold, silver and bronze share the win (the grace period after gold's red light is over)",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    // Silver, at the keyboard, sees their own region (columns U on), not gold's CAT.
    let silver_board = o
        .out
        .split("silver at the keyboard")
        .nth(1)
        .unwrap()
        .split("silver>")
        .next()
        .unwrap();
    assert!(!silver_board.contains("C+A+T+"), "{silver_board}");
    assert!(silver_board.contains("   U V W"), "{silver_board}");
    let replayed = scryptic(&["replay", save.to_str().unwrap()]);
    assert_eq!(replayed.code, 0, "{replayed:?}");
    assert!(
        replayed.out.contains("share the win"),
        "the save replays to the same end: {}",
        replayed.out
    );
}

#[test]
fn the_98_tiles_seat_no_fifth_player() {
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "--set",
            "players=5",
        ],
        "quit\n",
    );
    assert_ne!(o.code, 0);
    assert!(
        o.err
            .contains("mode `s98` is for 2 to 4 players, but its rules seat 5"),
        "{}",
        o.err
    );
}

#[test]
fn ais_play_it_for_three_and_five() {
    for (mode, players, ai) in [
        ("s98", "3", "normal,easy,easy"),
        ("lc120", "5", "normal,normal,easy,easy,hard"),
    ] {
        let o = scryptic(&[
            "simulate",
            "--pack",
            &format!("{}:{mode}", pack()),
            "--set",
            &format!("players={players}"),
            "--games",
            "3",
            "--ai",
            ai,
        ]);
        assert_eq!(o.code, 0, "{o:?}");
        assert!(o.out.contains("endings: red light 3"), "{}", o.out);
        assert!(o.out.contains("unfinished 0"), "{}", o.out);
        assert!(o.out.contains("bronze "), "{}", o.out);
    }
}

/// A player's own word list (`--words`) replaces the dictionary; the save records it, replays
/// with it, and is refused once the list has changed.
#[test]
fn a_players_own_word_list_plays_saves_and_guards_its_replay() {
    let dir = tempfile::tempdir().unwrap();
    let words = dir.path().join("mine.txt");
    std::fs::write(&words, "keyboard\ncake\nbed\nrubbish\ntsac\n").unwrap();
    let save = dir.path().join("own.ron");
    let typed = format!(
        "layout A3 across KEYBOARD, A1 down CAKE, D3 down BED, G3 down RUBBISH\nred\npass\n\
         layout U1 across TSAC\nboard\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/deals/keyboard.ron",
            "--words",
            words.to_str().unwrap(),
        ],
        &typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("silver: score 0/1 = 0"),
        "TSAC is a word of the list: {}",
        o.out
    );
    let replayed = scryptic(&["replay", save.to_str().unwrap()]);
    assert_eq!(replayed.code, 0, "{replayed:?}");
    std::fs::write(&words, "keyboard\ncake\n").unwrap();
    let refused = scryptic(&["replay", save.to_str().unwrap()]);
    assert_ne!(refused.code, 0);
    assert!(
        refused.err.contains("which has changed since (now 2 words"),
        "{}",
        refused.err
    );
}

/// Input that comes as a person types it: each line after its pause.
struct Typing {
    lines: std::collections::VecDeque<(std::time::Duration, String)>,
}

impl std::io::Read for Typing {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((pause, line)) = self.lines.pop_front() else {
            return Ok(0);
        };
        std::thread::sleep(pause);
        let bytes = line.as_bytes();
        let n = bytes.len().min(buf.len());
        buf[..n].copy_from_slice(&bytes[..n]);
        Ok(n)
    }
}

/// LC-7: the grace period after red light runs on the clock by itself: a layout typed after
/// it ended counts for nothing (the clock's end is in the log before it), even though no line
/// was read while the time ran out.
#[test]
fn a_layout_typed_after_the_grace_period_counts_for_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("red.ron");
    let typed = format!(
        "layout A1 across CAT\npass\nlayout U1 across DOG\npass\n\
         layout AO1 across EMU\ngreen\npass\nadd A1 across CATS\nred\nsave {}\nquit\n",
        save.display()
    );
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/deals/three.ron",
            "--set",
            "players=3",
        ],
        &typed,
    );
    assert_eq!(o.code, 0, "{o:?}");
    // The grace period of the save made short, so that the test waits past it.
    let mut saved = scryptic::save::SaveFile::load(&save).unwrap();
    saved.rules.flow.grace_seconds = 1;
    saved.save(&save).unwrap();
    let slowly = |pause_ms: u64, line: &str| {
        (
            std::time::Duration::from_millis(pause_ms),
            format!("{line}\n"),
        )
    };
    let mut input = std::io::BufReader::new(Typing {
        lines: [
            slowly(0, "pass"),
            // Typed after the grace period ran out: late.
            slowly(1_600, "add U2 down OS"),
            slowly(0, "quit"),
        ]
        .into(),
    });
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = ["scryptic", "play", "--load", save.to_str().unwrap()];
    let code = scryptic::cli::run(argv, &mut input, &mut out, &mut err);
    let out = String::from_utf8_lossy(&out);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("time is up: the grace period is over")
            && out.contains("too late: the grace period ended before that line"),
        "{out}"
    );
    assert!(
        !out.contains("silver adds"),
        "the late layout counted: {out}"
    );
}

/// At a shared keyboard a player acts for themselves only: gold cannot lay out silver's tiles
/// (nor learn from the refusal which letters silver holds).
#[test]
fn the_keyboard_acts_for_the_seat_that_holds_it_only() {
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/deals/three.ron",
            "--set",
            "players=3",
        ],
        "silver layout U1 across DOG\nsilver green\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    let refused =
        "refused: gold is at the keyboard and acts for gold only: silver acts for themselves";
    assert_eq!(o.out.matches(refused).count(), 2, "{}", o.out);
    assert!(!o.out.contains("you hold no"), "{}", o.out);
}

/// Lexicon Crossing's `help` lists what is played at once, without a combat's preview.
#[test]
fn lexicon_crossings_help_has_no_preview() {
    let o = scryptic_typing(
        &[
            "play",
            "--seed",
            "1",
            "--pack",
            &pack(),
            "maps/deals/three.ron",
            "--set",
            "players=3",
        ],
        "help\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("green") && !o.out.contains("preview"),
        "{}",
        o.out
    );
}

/// Lexicon Crossing seats AIs at the terminal, as simulate and the editor do: each acts once
/// for every line typed, and the keyboard stays with the people.
#[test]
fn ais_take_seats_at_the_terminal() {
    let o = scryptic_typing(
        &[
            "play",
            "--pack",
            &pack(),
            "maps/deals/three.ron",
            "--set",
            "players=3",
            "--ai",
            "seat3:normal",
            "--ai",
            "silver:normal",
            "--seed",
            "4",
        ],
        "layout A1 across CAT\npass silver\nboard\nboard\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    let first = o
        .out
        .find("bronze (AI):")
        .expect("the third seat's AI acts, by the mode's name");
    let typed = o.out.find("gold lays out").expect("gold's line");
    assert!(typed < first, "the AIs wait for the first line: {}", o.out);
    assert!(o.out.contains("silver (AI):"), "{}", o.out);
    assert!(
        o.out
            .contains("silver is played by the AI: the keyboard stays with people"),
        "{}",
        o.out
    );
}

/// The AI seats' pace is in help: each level's, or the one the game's `ai_pace` setting gives
/// them all; a mode that takes turns refuses the setting.
#[test]
fn help_tells_the_ais_pace_and_the_setting_sets_it() {
    let levels = scryptic_typing(
        &["play", "--pack", &pack(), "--ai", "silver", "--seed", "2"],
        "help\nquit\n",
    );
    assert_eq!(levels.code, 0, "{levels:?}");
    assert!(
        levels
            .out
            .contains("(easy 5 s, normal 3 s, hard 2 s a letter;"),
        "{}",
        levels.out
    );
    let set = scryptic_typing(
        &[
            "play",
            "--pack",
            &pack(),
            "--ai",
            "silver",
            "--set",
            "ai_pace=8s",
            "--seed",
            "2",
        ],
        "help\nquit\n",
    );
    assert_eq!(set.code, 0, "{set:?}");
    assert!(
        set.out
            .contains("(8 s a letter, as the game's ai_pace setting says)"),
        "{}",
        set.out
    );
    let word_wars = root().join("packs/word-wars").display().to_string();
    let turns = scryptic(&["play", "--pack", &word_wars, "--set", "ai_pace=2s"]);
    assert_ne!(turns.code, 0);
    assert!(
        turns.err.contains("is for modes played at once"),
        "{turns:?}"
    );
}

/// A player whose region lies past column Z is told the names of its columns, which they type
/// as any cell (`AO1`), and help does not offer to act for another seat.
#[test]
fn a_region_past_z_names_the_columns_to_type() {
    let o = scryptic_typing(
        &[
            "play",
            "--pack",
            &pack(),
            "--set",
            "players=3",
            "--ai",
            "gold",
            "--ai",
            "silver",
            "--seed",
            "3",
        ],
        "help\nlayout AO1 across HILL\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains(
            "your region: columns AO to BG (the board writes their names downwards), rows 1 to 19; its top-left cell is AO1"
        ),
        "{}",
        o.out
    );
    assert!(
        o.out
            .contains("bronze lays out a crossword of 4 letters, 13 left on the rack"),
        "{}",
        o.out
    );
    assert!(!o.out.contains("act for that player"), "{}", o.out);
    // Alone with the AIs, there is nobody to pass the keyboard to.
    assert!(!o.out.contains("`pass` hands it on"), "{}", o.out);
    // The layout is on the board shown right after it, in the region's first row.
    let after = o.out.split("bronze lays out").nth(1).unwrap_or_default();
    assert!(after.contains("\n 1 H3I3L3L3. ."), "{after}");
    // The region is plain: the lava walls around it are not in its legend.
    assert!(after.contains("legend: . plains\n"), "{after}");
}

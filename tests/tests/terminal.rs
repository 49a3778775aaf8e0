//! The terminal game as a person reads it: capitals for both players told apart by colour or
//! a mark, terrain that is never a letter, columns aligned past Z, token spots and who took
//! them, and hot-seat that shows each player only their own rack.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic::cli::TerminalOptions;
use scryptic_tests::{Output, root, scryptic, scryptic_typing};

fn path(rel: &str) -> String {
    root().join(rel).display().to_string()
}

/// `scryptic ARGS` typing `input` at a terminal that can do what `terminal` says.
fn at_terminal(args: &[&str], terminal: TerminalOptions, input: &str) -> Output {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = std::iter::once("scryptic").chain(args.iter().copied());
    let code = scryptic::cli::run_with(argv, terminal, &mut input.as_bytes(), &mut out, &mut err);
    Output {
        code,
        out: String::from_utf8_lossy(&out).into_owned(),
        err: String::from_utf8_lossy(&err).into_owned(),
    }
}

/// The rows of the last board printed: the lines that start with a row number.
fn last_board(out: &str) -> Vec<String> {
    let start = out.rfind("\n   A").expect("a board was printed") + 1;
    out[start..]
        .lines()
        .take_while(|l| !l.starts_with("legend"))
        .map(str::to_string)
        .collect()
}

#[test]
fn letters_are_capitals_told_apart_by_a_mark_without_colour() {
    let o = scryptic_typing(
        &["play", &path("maps/tutorial.ron"), "--seed", "3"],
        "commit D10 across BOG\nend\ncommit J3 down MAD\nend\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    let board = last_board(&o.out);
    let row = |n: usize| {
        board
            .iter()
            .find(|l| l.trim_start().starts_with(&format!("{n} ")))
            .unwrap()
            .clone()
    };
    assert!(
        row(10).contains("B+O+G+"),
        "gold's BOG, marked +: {board:?}"
    );
    assert!(
        row(3).contains("M-") && row(4).contains("A-") && row(5).contains("D-"),
        "{board:?}"
    );
    let lowercase: String = board
        .concat()
        .chars()
        .filter(char::is_ascii_lowercase)
        .collect();
    assert_eq!(
        lowercase, "f",
        "the only lowercase glyph is the firestorm's spot: {board:?}"
    );
    assert!(row(9).contains(". f ."), "the firestorm spot: {}", row(9));
    assert!(
        !o.out.contains('\u{1b}'),
        "no colour codes without a colour terminal"
    );
    assert!(o.out.contains(
        "legend: . plains  % forest  ~ water  ^ mountain  * ice  @ city  tokens: f firestorm"
    ));
    assert!(o.out.contains("token spots: B9 f"), "{}", o.out);
    assert!(
        o.out
            .contains("a mark after a letter, city or captured token says whose"),
        "{}",
        o.out
    );
    assert!(
        o.out
            .contains("A1 is the top-left cell (x 0, y 0 in map files)")
    );
}

#[test]
fn colour_tells_the_players_apart_when_the_terminal_has_it() {
    let colour = TerminalOptions {
        colour: true,
        ..TerminalOptions::default()
    };
    let o = at_terminal(
        &["play", &path("maps/tutorial.ron"), "--seed", "3"],
        colour,
        "commit D10 across BOG\nend\ncommit J3 down MAD\nend\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("\u{1b}[1;33mB\u{1b}[0m "),
        "gold's letters in yellow"
    );
    assert!(
        o.out.contains("\u{1b}[1;36mM\u{1b}[0m "),
        "silver's in cyan"
    );
    assert!(!o.out.contains("B+O+G+"), "no marks where colour tells");
}

#[test]
fn columns_past_z_stay_aligned_with_their_cells() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("wide.ron");
    let made = scryptic(&[
        "map",
        "new",
        map.to_str().unwrap(),
        "--width",
        "30",
        "--height",
        "12",
        "--seed",
        "4",
    ]);
    assert_eq!(made.code, 0, "{made:?}");
    let o = scryptic_typing(&["play", "--seed", "1", map.to_str().unwrap()], "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    let first_header = o
        .out
        .lines()
        .position(|l| l.trim() == "A A A A")
        .expect("a two-line header");
    let lines: Vec<&str> = o.out.lines().skip(first_header).take(3).collect();
    let (tens, units, row1) = (lines[0], lines[1], lines[2]);
    assert!(row1.trim_start().starts_with("1 "), "{row1}");
    let cell_start = row1
        .find(|c: char| !c.is_ascii_digit() && c != ' ')
        .unwrap();
    for (x, name) in [(0, "A"), (25, "Z"), (26, "AA"), (29, "AD")] {
        let at = cell_start + 2 * x;
        let top = tens.as_bytes().get(at).map_or(' ', |&b| b as char);
        let bottom = units.as_bytes()[at] as char;
        let shown: String = [top, bottom].iter().filter(|c| **c != ' ').collect();
        assert_eq!(shown, name, "column {x}:\n{tens}\n{units}\n{row1}");
    }
}

#[test]
fn hot_seat_shows_only_the_player_to_move_their_rack() {
    let pause = TerminalOptions {
        pause_between_players: true,
        ..TerminalOptions::default()
    };
    let o = at_terminal(
        &["play", &path("maps/tutorial.ron"), "--seed", "3"],
        pause,
        "board\nend\n\nboard\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    let handed = o
        .out
        .find("Pass the keyboard to silver. silver, press Enter when ready: ")
        .expect("the keyboard is handed over");
    let (before, after) = o.out.split_at(handed);
    assert!(
        before.contains("gold: score 0 (words 0, base 0); rack O O G B O U S T Z"),
        "{before}"
    );
    assert!(
        before.contains("silver: score 0 (words 0, base 0); rack 9 letters (hidden)"),
        "{before}"
    );
    assert!(
        after.contains("gold: score 0 (words 0, base 0); rack 9 letters (hidden)"),
        "{after}"
    );
    assert!(
        after.contains("silver: score 0 (words 0, base 0); rack M X D A I I D T E"),
        "{after}"
    );
    let plain = scryptic_typing(
        &["play", &path("maps/tutorial.ron"), "--seed", "3"],
        "end\nquit\n",
    );
    assert!(
        !plain.out.contains("Pass the keyboard"),
        "no pause on a pipe"
    );
    assert!(
        plain.out.contains("rack 9 letters (hidden)"),
        "racks stay hidden on a pipe too"
    );
}

#[test]
fn a_captured_token_spot_says_who_took_it() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("spots.ron");
    std::fs::write(
        &map,
        r#"(
    version: 1,
    name: "Spots",
    size: (width: 8, height: 8),
    terrain: ["........", "........", "........", "........", "........", "........", "........", "........"],
    cities: [
        (id: "aurum", name: "Aurum", at: (x: 0, y: 0), owner: Gold),
        (id: "argentum", name: "Argentum", at: (x: 7, y: 7), owner: Silver),
    ],
    tokens: [
        (id: "f1", kind: "flood", at: (x: 1, y: 0)),
        (id: "f2", kind: "firestorm", at: (x: 5, y: 5)),
        (id: "v1", kind: "volcano", at: (x: 2, y: 5)),
    ],
    rules: (preset: "classic"),
    scenario: (racks: {Gold: "ATE", Silver: "AEIOU"}),
)"#,
    )
    .unwrap();
    let o = scryptic_typing(
        &["play", "--seed", "1", map.to_str().unwrap()],
        "commit A1 across AT\nboard\nquit\n",
    );
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("tokens: f firestorm, l flood, v volcano"),
        "{}",
        o.out
    );
    assert!(o.out.contains("token spots: B1 l, F6 f, C6 v"), "{}", o.out);
    assert!(
        o.out.contains("token spots: B1 l gold's, F6 f, C6 v"),
        "{}",
        o.out
    );
    let board = last_board(&o.out);
    assert!(
        board.iter().any(|l| l.contains(". . v . . f .")),
        "{board:?}"
    );
}

/// Colour only on a terminal, and never when `NO_COLOR` is set (no-color.org) or the terminal
/// is `dumb`; the hot-seat pause and line editing only with a person at both ends.
#[test]
fn colour_and_pauses_follow_the_terminal_and_no_color() {
    use scryptic::cli::Terminals;
    use std::ffi::OsStr;
    let all = Terminals {
        stdin: true,
        stdout: true,
        stderr: true,
    };
    let decide = |t, no_color: Option<&str>, term: Option<&str>| {
        TerminalOptions::decide(t, no_color.map(OsStr::new), term.map(OsStr::new))
    };
    assert!(decide(all, None, Some("xterm-256color")).colour);
    assert!(!decide(all, Some("1"), Some("xterm")).colour, "NO_COLOR");
    assert!(
        decide(all, Some(""), Some("xterm")).colour,
        "an empty NO_COLOR is unset"
    );
    assert!(!decide(all, None, Some("dumb")).colour);
    let piped_out = Terminals {
        stdout: false,
        ..all
    };
    let options = decide(piped_out, None, None);
    assert!(!options.colour && !options.pause_between_players && !options.line_editing);
    assert!(
        options.progress,
        "the bar still goes to a terminal's standard error"
    );
    let piped_in = decide(
        Terminals {
            stdin: false,
            ..all
        },
        None,
        None,
    );
    assert!(piped_in.colour && !piped_in.line_editing && !piped_in.pause_between_players);
}

/// The legend names every seat of the game, by the name the mode gives it, with its mark (or in
/// its colour): a third seat's letters are marked `3`, and the legend says whose that is.
#[test]
fn the_legend_names_every_seat_of_the_game() {
    let pack = path("packs/lexicon-crossing");
    let args = ["play", "--pack", &pack, "--set", "players=3"];
    let o = scryptic_typing(&args, "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("says whose: + gold, - silver, 3 bronze\n"),
        "{}",
        o.out
    );
    let colour = TerminalOptions {
        colour: true,
        ..TerminalOptions::default()
    };
    let o = at_terminal(&args, colour, "quit\n");
    assert_eq!(o.code, 0, "{o:?}");
    assert!(
        o.out.contains("letters are in their seat's colour: \u{1b}[1;38;2;230;180;40mgold\u{1b}[0m, \u{1b}[1;38;2;200;205;215msilver\u{1b}[0m, \u{1b}[1;38;2;184;115;58mbronze\u{1b}[0m"),
        "{}",
        o.out
    );
}

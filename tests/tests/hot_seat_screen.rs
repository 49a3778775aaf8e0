//! The hot-seat game at a real terminal (tmux's, which keeps a scrollback as a person's
//! terminal does): once the keyboard passes to the next player, nothing of the last player's
//! secrets is on the screen or a scroll away. `.ci/run` installs tmux.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::{repo_path, scryptic_binary};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux session of its own (its own server socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(command: &str) -> Tmux {
        // A server of its own for each test of this process (they run at once).
        static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("scryptic-test-{}-{n}", std::process::id());
        let tmux = Tmux { socket };
        let status = tmux
            .run(&[
                "new-session",
                "-d",
                "-s",
                "t",
                "-x",
                "120",
                "-y",
                "40",
                command,
            ])
            .status
            .success();
        assert!(status, "tmux starts (is it installed? .ci/run installs it)");
        tmux
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs (.ci/run installs it)")
    }

    fn send(&self, line: &str) {
        self.run(&["send-keys", "-t", "t", "-l", line]);
        self.run(&["send-keys", "-t", "t", "Enter"]);
    }

    /// Everything the terminal holds: the screen and the whole scrollback.
    fn everything(&self) -> String {
        let o = self.run(&["capture-pane", "-t", "t", "-p", "-S", "-"]);
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Waits until the terminal holds `text` (at most 20 s).
    fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let all = self.everything();
            if all.contains(text) || start.elapsed() > Duration::from_secs(20) {
                return all;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

#[test]
fn the_last_players_rack_is_not_a_scroll_away() {
    let tmux = playing(&format!("{} --seed 3", repo_path("maps/tutorial.ron")));
    let first = tmux.wait_for("gold>");
    let rack = first
        .lines()
        .find(|l| l.starts_with("gold:") && l.contains("rack"))
        .unwrap_or_else(|| panic!("gold's rack is shown:\n{first}"))
        .to_string();
    // Gold ends the turn: the keyboard passes to silver.
    tmux.send("end");
    hidden_after_hand_over(&tmux, &rack, "silver>");
    let silver = tmux.everything();
    assert!(
        silver
            .lines()
            .any(|l| l.starts_with("silver:") && l.contains("rack")),
        "silver sees their own rack:\n{silver}"
    );
    tmux.send("quit");
}

/// The game at `args` at a terminal of its own.
fn playing(args: &str) -> Tmux {
    let command = format!("{} play {args}", scryptic_binary().display());
    Tmux::start(&format!("NO_COLOR=1 SCRYPTIC_DATA=/nonexistent {command}"))
}

/// Fails if `secret` is on the screen or in the scrollback once the keyboard has passed and
/// the next player's prompt `next` is up (after the hand-over's pause).
fn hidden_after_hand_over(tmux: &Tmux, secret: &str, next: &str) {
    let handed = tmux.wait_for("press Enter when ready");
    assert!(
        handed.contains("press Enter when ready") && !handed.contains(secret),
        "{secret:?} is still on the screen or in the scrollback:\n{handed}"
    );
    tmux.send("");
    let after = tmux.wait_for(next);
    assert!(
        after.contains(next) && !after.contains(secret),
        "{next:?} can scroll back to {secret:?}:\n{after}"
    );
}

/// Lexicon Crossing: `pass` hands the keyboard on, and the last player's tiles are gone.
#[test]
fn the_last_players_tiles_are_not_a_scroll_away_at_once() {
    let tmux = playing(&format!(
        "--pack {} --seed 3",
        repo_path("packs/lexicon-crossing")
    ));
    let first = tmux.wait_for("gold>");
    let rack = first
        .lines()
        .find(|l| l.starts_with("gold:") && l.contains("rack"))
        .unwrap_or_else(|| panic!("gold's tiles are shown:\n{first}"))
        .to_string();
    tmux.send("pass");
    hidden_after_hand_over(&tmux, &rack, "silver>");
    tmux.send("quit");
}

/// Scryper between two people: white's secret set-up (which values are left, so which were
/// fielded) is gone before brown chooses.
#[test]
fn a_secret_setup_is_not_a_scroll_away() {
    let tmux = playing(&format!("--pack {} --seed 3", repo_path("packs/scryper")));
    tmux.wait_for("white>");
    tmux.send("field 1 A8");
    let fielded = "white: 1 on the board, available 15 (1 1 1 2";
    let shown = tmux.wait_for(fielded);
    assert!(shown.contains(fielded), "{shown}");
    tmux.send("ready");
    hidden_after_hand_over(&tmux, fielded, "brown>");
    tmux.send("quit");
}

/// Lines that reach the terminal at once (pasted, or typed ahead while the game prints) are
/// all read, each as it comes, with no key pressed after them.
#[test]
fn lines_pasted_at_once_are_all_read() {
    let tmux = playing(&format!(
        "--pack {} --ai brown --seed 5",
        repo_path("packs/scryper")
    ));
    tmux.wait_for("white>");
    tmux.run(&[
        "send-keys",
        "-t",
        "t",
        "-l",
        "field 1 A8\rfield 4 C8\rready\r",
    ]);
    let after = tmux.wait_for("white made a secret choice");
    assert!(
        after.contains("white made a secret choice"),
        "the pasted lines were not all read:\n{after}"
    );
}

/// A pack of one map whose script is `lua`, in a folder of its own.
fn pack_with_script(lua: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("told");
    std::fs::create_dir_all(pack.join("scripts")).unwrap();
    std::fs::write(
        pack.join("pack.ron"),
        r#"(format: 1, id: "told", title: "Told", version: "0.1.0", scryptic: "^0.5",
            depends: { "core": "^1.0" },
            modes: [(id: "one", title: "One", map: "core:maps/tutorial.ron", scripts: ["scripts/main.lua"])])"#,
    )
    .unwrap();
    std::fs::write(pack.join("scripts/main.lua"), lua).unwrap();
    dir
}

/// What a script tells the player whose turn begins (`turn_start`) is on that player's screen
/// after the hand-over has cleared the last one's.
#[test]
fn a_turn_start_message_is_shown_to_the_player_whose_turn_it_is() {
    let dir = pack_with_script(
        "scryptic.on(\"turn_start\", function(game, event) game:message(\"Dawn breaks for \" .. event.player) end)\n",
    );
    let tmux = playing(&format!("--pack {}", dir.path().join("told").display()));
    tmux.wait_for("gold>");
    tmux.send("end");
    tmux.wait_for("press Enter when ready");
    tmux.send("");
    let after = tmux.wait_for("silver>");
    assert!(
        after.contains("» Dawn breaks for silver"),
        "silver does not see the message of their turn:\n{after}"
    );
    tmux.send("quit");
}

/// A script saved while a player types is in force for the command they send next (the old
/// handler never answers it), and the reload is announced once.
#[test]
fn a_script_saved_while_typing_answers_the_next_command_and_is_announced_once() {
    let dir = pack_with_script(
        "scryptic.on(\"turn_end\", function(game) game:message(\"the old handler\") end)\n",
    );
    // Against the AI: no hand-over clears the screen.
    let tmux = playing(&format!(
        "--pack {} --ai silver",
        dir.path().join("told").display()
    ));
    tmux.wait_for("gold>");
    std::fs::write(
        dir.path().join("told/scripts/main.lua"),
        "scryptic.on(\"turn_end\", function(game) game:message(\"the new handler\") end)\n",
    )
    .unwrap();
    // At once, before the watcher's event can have come.
    tmux.send("end");
    let after = tmux.wait_for("silver (AI)");
    assert!(
        after.contains("the new handler") && !after.contains("the old handler"),
        "{after}"
    );
    assert_eq!(after.matches("was reloaded").count(), 1, "{after}");
    tmux.send("quit");
}

/// The line editor's history is each seat's own: what gold typed (a refused word, letters of
/// their rack in it) never comes back on silver's Up, and gold's comes back to gold.
#[test]
fn each_seat_has_its_own_history() {
    let tmux = playing(&format!("{} --seed 3", repo_path("maps/tutorial.ron")));
    tmux.wait_for("gold>");
    tmux.send("commit H8 across QXZQ");
    tmux.wait_for("refused");
    tmux.send("end");
    tmux.wait_for("press Enter when ready");
    tmux.send("");
    tmux.wait_for("silver>");
    // Up, then a mark: the line reads the mark alone when Up brought nothing back.
    tmux.run(&["send-keys", "-t", "t", "Up"]);
    tmux.run(&["send-keys", "-t", "t", "-l", "ZZ"]);
    let silver = tmux.wait_for("silver> ZZ");
    assert!(
        silver.contains("silver> ZZ") && !silver.contains("QXZQZZ"),
        "silver's Up brought gold's line back:\n{silver}"
    );
    tmux.run(&["send-keys", "-t", "t", "C-u"]);
    tmux.send("end");
    tmux.wait_for("press Enter when ready");
    tmux.send("");
    tmux.wait_for("gold>");
    tmux.run(&["send-keys", "-t", "t", "Up"]);
    tmux.run(&["send-keys", "-t", "t", "-l", "ZZ"]);
    let gold = tmux.wait_for("gold> endZZ");
    assert!(
        gold.contains("gold> endZZ"),
        "gold's own line came back:\n{gold}"
    );
    tmux.run(&["send-keys", "-t", "t", "C-u"]);
    tmux.send("quit");
}

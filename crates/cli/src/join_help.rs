//! What `help` says to a seat of an online match, or to a spectator: only what the server
//! lets it do now (no keyboard to pass, no clock to end, `save` once the log may be fetched).

use super::join_screen::Seen;
use super::play_cmd::{CELL_NAMES, aligned, has_combat, in_rounds, turn_commands};
use crate::game::{Game, notation::SIMULTANEOUS_COMMANDS};
use scryptic_protocol::MatchState;

/// Leaving, said once.
const QUIT: &str = "quit                             leave; your seat stays yours (`scryptic join` with the match's address comes back to it)";
const LEAVE: &str =
    "leave                            give your seat up for good: anyone may take it";
const BOARD: &str = "board                            show the board and what you may see";
const PREVIEW: &str =
    "preview CELL across|down WORD    what committing it would lead to, without committing";
const NEXT: &str =
    "next                             ready for the next round, once a round is over";
const SAVE: &str = "save FILE                        save the whole match (its log) to FILE";

/// The help for `seen`'s seat (or spectator) in `game` as it stands.
pub(super) fn online_help(seen: &Seen, game: &Game) -> String {
    let over = seen.info.state == MatchState::Over;
    let save = (over && seen.info.log_after_end).then_some(SAVE);
    let Some(_) = seen.seat else {
        let lines: Vec<&str> = [
            Some(BOARD),
            save,
            Some("help                             this help"),
            Some("quit                             stop watching"),
        ]
        .into_iter()
        .flatten()
        .collect();
        return format!(
            "You are watching: every rack is hidden.\n{}",
            aligned(&lines.join("\n"))
        );
    };
    let flow = &game.rules().flow;
    let combat = has_combat(game);
    let own = if flow.scripted {
        crate::game::MOVE_COMMANDS.to_string()
    } else if flow.simultaneous {
        // The server's clock ends the grace period: there is no `time` to type.
        SIMULTANEOUS_COMMANDS
            .lines()
            .filter(|l| !l.starts_with("time"))
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        turn_commands(game, combat)
    };
    let rounds = in_rounds(game);
    let lines: Vec<&str> = [
        Some(own.as_str()),
        combat.then_some(PREVIEW),
        Some(BOARD),
        rounds.then_some(NEXT),
        save,
        Some(QUIT),
        (!over).then_some(LEAVE),
    ]
    .into_iter()
    .flatten()
    .collect();
    let commands = aligned(&lines.join("\n"));
    match seen.help.as_ref().filter(|_| flow.scripted) {
        Some(rules) => format!("{rules}\n\n{commands}\n{CELL_NAMES}"),
        None => format!("{commands}\n{CELL_NAMES}"),
    }
}

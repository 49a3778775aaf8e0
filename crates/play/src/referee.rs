//! Where a game in play is refereed, as the play view sees it: a [`Referee`] shows the game
//! (as this screen may see it), takes actions, and between frames says what happened since
//! (an AI's move, a server's view, a reload, a connection lost). The editor referees games
//! here with their scripts; a server referees a match for one seat. The view draws and sends
//! through this trait alone, so it is one view wherever the game runs.

use scryptic_core::Player;
use scryptic_core::game::{Action, Event, Game};
use scryptic_protocol::MatchState;
use std::any::Any;
use std::time::Duration;

/// What became of an action handed to the referee.
#[derive(Debug)]
pub enum Outcome {
    /// Played at once: what happened.
    Played(Vec<Event>),
    /// Sent: the answer comes later, as a [`Heard::View`] or a [`Heard::Refused`].
    Sent,
}

/// What became of asking for the match's next round.
#[derive(Debug)]
pub enum NextRound {
    /// The round began here; what its scripts said as it began.
    Began(Vec<String>),
    /// The others were told this seat is ready; the round begins when everyone is.
    Asked,
}

/// What the referee says happened since the last look, for the session to take in.
#[derive(Debug)]
pub enum Heard {
    /// An action played by the referee itself (an AI's move, the grace period's end): its
    /// events.
    Played(Vec<Event>),
    /// A new view of the game from afar (the game is already the new one): what happened.
    View {
        /// The events since the last view, as this seat saw them.
        events: Vec<Event>,
        /// Events before those that were not kept for this seat.
        dropped: u64,
        /// What the scripts said.
        console: Vec<String>,
        /// Whether the view begins the match's next round.
        new_round: bool,
    },
    /// Lines for the console (the scripts' output and errors).
    Console(Vec<String>),
    /// A notice to show over the board and keep in the console (a file reloaded).
    Notice(String),
    /// An action of this seat's was refused, in the engine's words.
    Refused(String),
    /// Something went wrong that is not a refusal of the person's action (an AI that could
    /// not act, a frame that cannot be shown), in words.
    Problem(String),
    /// The seats changed (someone came, went or left), in a line.
    Seats(String),
    /// The connection was lost; whether it is being made again.
    Lost {
        /// Why.
        why: String,
        /// Whether it is tried again.
        retrying: bool,
    },
    /// The connection is back.
    Back,
}

/// A match played on a server, as the view tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineMatch {
    /// The match's address, which others open or give `scryptic join`.
    pub address: String,
    /// Whether it waits for players, is under way or is over.
    pub state: MatchState,
    /// Whether its whole log may be had once it is over.
    pub log_after_end: bool,
    /// Whether this screen watches without a seat.
    pub watching: bool,
    /// Whether a lost connection is being made again.
    pub reconnecting: bool,
}

/// The AIs' pace, where AIs play each other here and a person watches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// Whether the AIs wait.
    pub paused: bool,
    /// Seconds between their moves, so a person can follow.
    pub delay: f64,
    /// In a game played at once with people, the milliseconds every AI seat takes a letter,
    /// whatever its level or the match says (tests); `None`: theirs.
    pub letter_ms: Option<u64>,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace {
            paused: false,
            delay: 0.4,
            letter_ms: None,
        }
    }
}

/// Who referees the game the view shows.
pub trait Referee: Any {
    /// The game as this screen may see it.
    fn game(&self) -> &Game;

    /// Plays or sends a person's `action`; a refusal in words (which changed nothing).
    fn apply(&mut self, action: Action) -> Result<Outcome, String>;

    /// The legal moves of `player` in a scripted game, as the referee lists them.
    fn moves_of(&self, player: Player) -> Vec<String>;

    /// What happened since the last look; the referee's own work between frames (an AI's
    /// move, a clock run out) is done here. `dialog_open`: a person is reading a dialog, and
    /// nothing the referee may hold back is played meanwhile.
    fn poll(&mut self, dialog_open: bool) -> Vec<Heard>;

    /// Starts (or asks for) the match's next round, once this one has ended.
    fn next_round(&mut self) -> Result<NextRound, String>;

    /// While a grace period runs, the time left on the referee's clock.
    fn grace_left(&self) -> Option<Duration>;

    /// In a match that gives a move a time (a server keeps it), the time left for the move
    /// the referee's clock waits on.
    fn move_left(&self) -> Option<Duration> {
        None
    }

    /// Who sits in `player`'s seat, in words, when the referee knows better than the view.
    fn seat_label(&self, _player: Player) -> Option<String> {
        None
    }

    /// Whether there is an action to undo.
    fn can_undo(&self) -> bool {
        false
    }

    /// Undoes the last action (with any AI's answers to it).
    fn undo(&mut self) -> Result<(), String> {
        Err("this game cannot be undone".into())
    }

    /// The match on a server, when the game is played on one.
    fn online(&self) -> Option<OnlineMatch> {
        None
    }

    /// The AI thinking now, and for how long.
    fn thinking(&self) -> Option<(Player, Duration)> {
        None
    }

    /// The AIs' pace, where a person may set it.
    fn pace(&mut self) -> Option<&mut Pace> {
        None
    }

    /// Wakes `ctx` whenever something comes between frames (an AI's answer, a frame).
    fn wake_with(&mut self, _ctx: &egui::Context) {}

    /// The referee as [`Any`], for its owner to reach what only it knows (saves, scripts).
    fn as_any(&self) -> &dyn Any;

    /// The referee as mutable [`Any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

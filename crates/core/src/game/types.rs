//! What a client sends the engine (actions), what the engine answers (events), and why it
//! refuses (errors, in words a player understands).

use super::words::WordKey;
use crate::board::{Player, Pos};
use serde::{Deserialize, Serialize};

/// A letter from the rack put on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Placement {
    /// The cell.
    pub at: Pos,
    /// The letter, uppercase.
    pub letter: char,
}

/// Everything a player (or a script, or the AI) can do. The engine knows who acts: the player
/// whose turn it is, or the defender while a combat waits for its order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Commit letters from the rack as one word (docs/RULES.md section 4).
    Commit {
        /// The letters and their cells.
        letters: Vec<Placement>,
    },
    /// The defender's order of defence for the combat waiting on it; `None` lets the engine
    /// choose the order that loses the fewest letters.
    Defend {
        /// The defending words, first to fight first.
        order: Option<Vec<WordKey>>,
    },
    /// Lift one own word back to the rack (section 8).
    Redeploy {
        /// The word to lift.
        word: WordKey,
    },
    /// Discard letters from the rack (section 2).
    Discard {
        /// The letters, uppercase.
        letters: String,
    },
    /// Trade letters from the rack back into the pool, which is reshuffled; the rack is
    /// refilled and the turn ends (when the rule set's `exchange.allowed` says so).
    Exchange {
        /// The letters, uppercase.
        letters: String,
    },
    /// Use a captured token (section 9).
    Invoke {
        /// The token spot's id.
        token: String,
    },
    /// Ask for the strongest placement for the rack (section 3).
    Spy,
    /// Concede the game, which the opponent then wins (where `flow.forfeit` allows it).
    Forfeit,
    /// Offer the hand to the opponent, who must then use every tile they have and the hand
    /// (where `flow.sudden_death` allows it; see `Prompt::SuddenDeath`).
    CallSuddenDeath,
    /// Answer the prompt waiting on this player: accept or refuse (an offer of sudden death).
    Answer {
        /// Whether the player accepts.
        accept: bool,
    },
    /// End the turn (a pass if nothing was committed).
    EndTurn,
    /// Lay out `player`'s crossword anew (simultaneous play, `flow.simultaneous`): their
    /// letters on the board go back to their rack and these are placed, in one checked step,
    /// touching no other player's letters. The crossword may be unfinished.
    Layout {
        /// Whose crossword.
        player: Player,
        /// Every letter of it and its cell.
        letters: Vec<Placement>,
    },
    /// `player`, whose crossword is complete (every tile placed, one group, every run a word),
    /// calls green light (simultaneous play): every player draws `flow.green_light_draw`
    /// letters. Refused once the pool cannot serve everyone: red light then.
    GreenLight {
        /// Who calls it.
        player: Player,
    },
    /// `player`, whose crossword is complete, calls red light once the pool cannot serve a
    /// green light (simultaneous play): the others have `flow.grace_seconds` to finish.
    RedLight {
        /// Who calls it.
        player: Player,
    },
    /// The grace period after red light is over (the clients' clock ran out, or every player
    /// said they were done): the game ends and is scored. In the log, so replays are exact.
    GraceOver,
    /// `player` returns `letter` from their rack to the pool and draws one (where
    /// `flow.jaywalk` allows it: once a round, not for the latest green light's caller).
    Jaywalk {
        /// Who jaywalks.
        player: Player,
        /// The letter returned, uppercase.
        letter: char,
    },
    // A client never sends one (the clock is the server's): not in its schema.
    #[cfg_attr(feature = "schema", schemars(skip))]
    /// `player`'s time for a move ran out (`flow.move_seconds`): they lose. Only a referee's
    /// clock plays it, never a player; in the log, so replays are exact.
    OutOfTime {
        /// Whose time ran out.
        player: Player,
    },
    /// `player` makes `mv`, one of the moves the rules of a scripted game list for them
    /// (`flow.scripted`; `Game::legal_moves`).
    Move {
        /// Who moves.
        player: Player,
        /// The move, exactly as the rules list it.
        mv: String,
    },
    // A client never sends one (the match's files are the server's): not in its schema.
    #[cfg_attr(feature = "schema", schemars(skip))]
    /// The rule-set file changed: from the next action on, play with this rule set. It goes in
    /// the log like any action, so a replay changes rules at the same moment.
    ReloadRules {
        /// The new rule set, complete.
        rules: Box<crate::rules::RuleSet>,
    },
    // A client never sends one (the match's files are the server's): not in its schema.
    #[cfg_attr(feature = "schema", schemars(skip))]
    /// A connotation list changed: from the next action on, the list holds these words.
    ReloadConnotations {
        /// The list's name.
        list: String,
        /// Its base words.
        words: Vec<String>,
    },
    // A client never sends one (the match's files are the server's): not in its schema.
    #[cfg_attr(feature = "schema", schemars(skip))]
    /// A script changed: from the next action on, it runs this text. The engine only checks
    /// and logs it (scripts belong to the scripted game, which reloads it first), so that a
    /// replay reloads each version at the moment the game did.
    ReloadScript {
        /// The script's name, as the level names it.
        name: String,
        /// Its new text.
        source: String,
    },
}

impl Action {
    /// Whether this is a reload (of rules, a connotation list or a script): made by the files
    /// changing, not by a player, so undoing a player's move keeps it.
    pub fn is_reload(&self) -> bool {
        matches!(
            self,
            Action::ReloadRules { .. }
                | Action::ReloadConnotations { .. }
                | Action::ReloadScript { .. }
        )
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum EndReason {
    /// A player owns no city.
    Conquest {
        /// The player left without a city.
        loser: Player,
    },
    /// The grace period after a red light ended (simultaneous play): the crosswords were scored.
    RedLight {
        /// Who called red light.
        caller: Player,
        /// When the highest score is shared (and no one wins alone), the players sharing it,
        /// who share the win.
        shared: Vec<Player>,
    },
    /// A player's pool and rack hold no letters.
    Exhaustion {
        /// The player with no letters.
        player: Player,
    },
    /// Both pools are empty and the last turns were passes.
    Stalemate,
    /// The player taking turns in a row (the other being out of letters) could make no word.
    NoWord {
        /// The player who could make no word.
        player: Player,
    },
    /// A player conceded.
    Forfeit {
        /// Who conceded.
        loser: Player,
    },
    /// A sudden death accepted ended: the taker used every tile (`won`), or could not.
    SuddenDeath {
        /// The player who accepted the offer and had to use every tile.
        taker: Player,
        /// Whether the taker used them all.
        won: bool,
    },
    /// A player's time for a move ran out (`flow.move_seconds`).
    OutOfTime {
        /// Whose time ran out.
        loser: Player,
    },
    /// A script ended the game.
    Script {
        /// The script's reason.
        reason: String,
    },
}

/// A question the game waits on a player to answer before play goes on: the player named
/// acts next, with the answering action alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prompt {
    /// The defender orders its defending words (`Action::Defend`).
    DefenceOrder {
        /// Who must answer.
        defender: Player,
    },
    /// The caller offers their hand in sudden death; the other accepts or refuses
    /// (`Action::Answer`).
    SuddenDeath {
        /// Who called it.
        caller: Player,
    },
}

impl Prompt {
    /// Who must answer.
    pub fn player(&self) -> Player {
        match *self {
            Prompt::DefenceOrder { defender } => defender,
            Prompt::SuddenDeath { caller } => super::opponent(caller),
        }
    }

    /// What is asked, in words, for the player who must answer.
    pub fn question(&self) -> String {
        match *self {
            Prompt::DefenceOrder { defender } => {
                format!("{defender} must order the defence")
            }
            Prompt::SuddenDeath { caller } => format!(
                "{caller} calls sudden death: {} accepts (then must use every tile left, \
                 {caller}'s hand included, to win the award multiplied) or refuses",
                super::opponent(caller)
            ),
        }
    }
}

mod errors;
mod events;

pub use errors::ActionError;
pub use events::{Event, HIDDEN_LETTER};

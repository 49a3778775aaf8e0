//! What the engine answers an action with: its events, in order, and how each is seen by a
//! seat that may not see everything.

use super::*;
use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::strength::Strength;
use crate::game::words::WordKey;
use serde::{Deserialize, Serialize};

/// What happened, in order, as the result of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Event {
    /// A turn began and the player drew letters.
    TurnStarted {
        /// Whose turn.
        player: Player,
        /// The turn's number, from 1.
        turn: u32,
        /// Letters drawn.
        drew: String,
    },
    /// Placed letters turned forest into plains.
    ForestCut {
        /// The cells.
        cells: Vec<Pos>,
    },
    /// A word was committed.
    WordCommitted {
        /// Whose word.
        player: Player,
        /// The main word.
        word: String,
        /// Where it stands.
        key: WordKey,
    },
    /// The word attacks: its strength and each defender's.
    CombatStarted {
        /// The attacker.
        attacker: Player,
        /// The attack's strength, explained.
        attack: Strength,
        /// Each defending word and its strength.
        defenders: Vec<(WordKey, String, Strength)>,
    },
    /// The defender must order its defenders (`Action::Defend`).
    DefenceOrderNeeded {
        /// Who must answer.
        defender: Player,
        /// The defending words.
        defenders: Vec<WordKey>,
    },
    /// A defending word fell.
    DefenderDefeated {
        /// The word.
        word: String,
        /// Where it stood.
        key: WordKey,
        /// The attack's strength left.
        attack_left: i64,
        /// The defender's letters removed.
        removed: Vec<Pos>,
        /// What the attacker gained.
        gain: i64,
    },
    /// A defending word held: the attack's placed letters are lost.
    AttackRepelled {
        /// The word that held.
        by: String,
        /// The attacker's letters removed.
        removed: Vec<Pos>,
        /// The penalty the defending word carries until the attacker's turn ends.
        penalty: i64,
    },
    /// Every defender fell; the defender's letters still touching the word were cleared.
    AttackSucceeded {
        /// Cells cleared.
        cleared: Vec<Pos>,
    },
    /// Ice gave way under a heavy word, which was lost.
    IceBroke {
        /// Ice cells that became water.
        cells: Vec<Pos>,
        /// Letters removed.
        removed: Vec<Pos>,
    },
    /// A token was captured and went to the rack.
    TokenCaptured {
        /// Who captured it.
        player: Player,
        /// The token spot's id.
        token: String,
        /// Its kind.
        kind: String,
    },
    /// A city changed hands.
    CityCaptured {
        /// The new owner.
        player: Player,
        /// The city's id.
        city: String,
        /// The old owner.
        from: Owner,
        /// Base score awarded.
        bonus: i64,
    },
    /// A token took effect.
    TokenInvoked {
        /// Who used it.
        player: Player,
        /// The token spot's id.
        token: String,
        /// Its kind.
        kind: String,
        /// What the token said to the players.
        messages: Vec<String>,
        /// Cells whose terrain changed.
        terrain: Vec<(Pos, Terrain)>,
        /// Letters destroyed.
        removed: Vec<Pos>,
        /// Cities destroyed.
        cities_lost: Vec<String>,
    },
    /// A word was lifted back to the rack.
    WordLifted {
        /// Whose word.
        player: Player,
        /// The word.
        word: String,
        /// Letters returned to the rack.
        returned: String,
    },
    /// A rack was refilled from the pool after its player's turn (`supply.draw` RefillHand).
    Drew {
        /// Whose rack.
        player: Player,
        /// The letters drawn.
        letters: String,
    },
    /// Letters were traded back into the pool and as many drawn.
    Exchanged {
        /// Who traded.
        player: Player,
        /// How many letters went back.
        count: usize,
        /// The letters drawn in their place.
        drew: String,
        /// Points the opponent scored for the trade.
        opponent_gain: i64,
    },
    /// Letters were discarded.
    Discarded {
        /// Who discarded.
        player: Player,
        /// The letters.
        letters: String,
    },
    /// The rule set or a connotation list was reloaded.
    Reloaded {
        /// What was reloaded: `rules` or `connotations NAME`.
        what: String,
    },
    /// The spy's suggestion, laid out but not committed.
    SpyReport {
        /// The suggested letters and cells.
        letters: Vec<Placement>,
    },
    /// A turn ended.
    TurnEnded {
        /// Whose turn.
        player: Player,
        /// Whether it was a pass (nothing committed).
        passed: bool,
    },
    /// A player called sudden death: the other must accept or refuse.
    SuddenDeathCalled {
        /// Who called it.
        caller: Player,
        /// The hand offered, shown to both players.
        hand: String,
    },
    /// The offer of sudden death was answered.
    SuddenDeathAnswered {
        /// Who answered.
        taker: Player,
        /// Whether they accepted (the hand is theirs now, and every turn until the end).
        accepted: bool,
    },
    /// A player laid their crossword out anew (simultaneous play).
    LaidOut {
        /// Whose crossword.
        player: Player,
        /// Letters now on the board.
        placed: usize,
        /// Letters left on the rack.
        on_rack: usize,
    },
    /// A player called green light: every player draws (each `Drew`).
    GreenLight {
        /// Who called it.
        player: Player,
        /// The round that begins (the first is 1, before any green light).
        round: u32,
        /// Whether the caller's letters wait, face down, until every other player has laid out.
        caller_waits: bool,
    },
    /// A player called red light: the grace period for the others begins.
    RedLight {
        /// Who called it.
        player: Player,
        /// Its length, which the clients' clock measures.
        grace_seconds: i64,
    },
    /// A player returned a letter to the pool (and draws one: `Drew`).
    Jaywalked {
        /// Who.
        player: Player,
    },
    /// A player made a move of a scripted game; in a secret choice, the move is theirs
    /// alone to see until every choice is revealed.
    Moved {
        /// Who moved.
        player: Player,
        /// The move (empty where it is hidden from the viewer).
        mv: String,
        /// Whether it is part of a secret choice.
        secret: bool,
    },
    /// A piece of a scripted game was added (`from` is then an empty pit's name) or moved.
    PieceMoved {
        /// The piece's id.
        piece: usize,
        /// Its owner.
        owner: Player,
        /// Its kind.
        kind: String,
        /// Where it was.
        from: crate::game::Place,
        /// Where it is.
        to: crate::game::Place,
    },
    /// A piece's value was shown to some seats.
    PieceShown {
        /// The piece's id.
        piece: usize,
        /// Its owner.
        owner: Player,
        /// Its kind.
        kind: String,
        /// Where it is.
        at: crate::game::Place,
        /// Its value (`None` where the viewer may not see it).
        value: Option<i64>,
        /// To whom it was shown.
        to: crate::game::SeatSet,
    },
    /// A piece's value was hidden again from all but its owner.
    PieceHidden {
        /// The piece's id.
        piece: usize,
        /// Its owner.
        owner: Player,
        /// Its kind.
        kind: String,
        /// Where it is.
        at: crate::game::Place,
    },
    /// The secret choices of these seats were made on the table together.
    ChoicesRevealed {
        /// Whose choices.
        seats: crate::game::SeatSet,
    },
    /// The rules of a scripted game said something, to every seat or to one.
    Said {
        /// What they said.
        text: String,
        /// To whom (`None`: everyone).
        to: Option<Player>,
    },
    /// The game is over.
    GameOver {
        /// How it ended.
        result: GameResult,
        /// What the end awarded each player (gold's, silver's), in half points, where the
        /// rules' `crossword.final_award` awards anything.
        award: Option<[i64; 2]>,
    },
}

/// What stands for each letter of a draw hidden from the viewer.
pub const HIDDEN_LETTER: char = '?';

impl Event {
    /// The player who alone may see the letters this event carries (the letters they drew),
    /// if it carries any private to one player.
    pub fn private_to(&self) -> Option<Player> {
        match self {
            Event::TurnStarted { player, drew, .. } | Event::Exchanged { player, drew, .. }
                if !drew.is_empty() =>
            {
                Some(*player)
            }
            Event::Drew { player, .. } => Some(*player),
            _ => None,
        }
    }

    /// The letters this event carries that are private to one player (see `private_to`).
    pub fn private_letters(&self) -> Option<&str> {
        self.private_to()?;
        match self {
            Event::TurnStarted { drew, .. } | Event::Exchanged { drew, .. } => Some(drew),
            Event::Drew { letters, .. } => Some(letters),
            _ => None,
        }
    }

    /// What `viewer` sees of the event, if anything: as `seen_by`, and nothing of another
    /// seat's secret move (the others learn only that a secret choice was made, once it is,
    /// from the event that says so).
    pub fn shown_to(&self, viewer: Option<Player>) -> Option<Event> {
        match self {
            Event::Moved {
                player,
                mv,
                secret: true,
            } if !mv.is_empty() && viewer != Some(*player) => None,
            _ => Some(self.seen_by(viewer)),
        }
    }

    /// The event as `viewer` may see it: a draw by anyone else has each letter replaced by
    /// [`HIDDEN_LETTER`], so its size shows and its letters do not. `None` is a spectator
    /// (or a screen both players share), who sees nobody's draws.
    pub fn seen_by(&self, viewer: Option<Player>) -> Event {
        if let Some(seen) = self.table_event_seen_by(viewer) {
            return seen;
        }
        let Some(owner) = self.private_to() else {
            return self.clone();
        };
        if viewer == Some(owner) {
            return self.clone();
        }
        let hide = |letters: &str| letters.chars().map(|_| HIDDEN_LETTER).collect::<String>();
        let mut seen = self.clone();
        match &mut seen {
            Event::TurnStarted { drew, .. } | Event::Exchanged { drew, .. } => *drew = hide(drew),
            Event::Drew { letters, .. } => *letters = hide(letters),
            _ => {}
        }
        seen
    }
}

impl Event {
    /// A scripted game's event as `viewer` may see it, if it is one that hides anything: a
    /// secret move's text, a value shown to others, words said to another.
    fn table_event_seen_by(&self, viewer: Option<Player>) -> Option<Event> {
        let mut seen = self.clone();
        match &mut seen {
            Event::Moved {
                player,
                mv,
                secret: true,
            } if viewer != Some(*player) => mv.clear(),
            // Shown to every seat (its owner among them), a value is public: a shared screen
            // or a spectator sees it too.
            Event::PieceShown {
                owner, value, to, ..
            } if !to.contains(*owner) && viewer.is_none_or(|v| v != *owner && !to.contains(v)) => {
                *value = None
            }
            Event::Said { text, to: Some(to) } if viewer != Some(*to) => text.clear(),
            Event::Moved { .. } | Event::PieceShown { .. } | Event::Said { .. } => {}
            _ => return None,
        }
        Some(seen)
    }
}

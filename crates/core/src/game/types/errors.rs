//! Why the engine refuses an action, in words a player understands.

use crate::board::{Player, Pos};
use crate::game::notation::cell_name;

/// Why the engine refused an action. A refused action changes nothing.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A combat waits for the defender's order.
    #[error("{defender} must first choose the order of defence")]
    DefencePending {
        /// Who must answer.
        defender: Player,
    },
    /// No combat waits for an order.
    #[error("there is no combat waiting for an order of defence")]
    NoCombatPending,
    /// The order names words that are not exactly the defenders.
    #[error("the order must name each defending word once: {expected}")]
    BadDefenceOrder {
        /// The defending words.
        expected: String,
    },
    /// The rack is over its limit.
    #[error("your rack holds {held} items; the limit is {limit}: discard {excess} letters first")]
    MustDiscard {
        /// Items held.
        held: usize,
        /// The limit.
        limit: i64,
        /// How many to discard.
        excess: usize,
    },
    /// Nothing placed.
    #[error("place at least one letter")]
    NothingPlaced,
    /// A letter the rack does not hold.
    #[error("your rack has no {letter} left for this word")]
    NotInRack {
        /// The letter.
        letter: char,
    },
    /// Two letters on one cell.
    #[error("two letters are placed on {}", cell_name(*.at))]
    SameCell {
        /// The cell.
        at: Pos,
    },
    /// A cell off the board.
    #[error("{} is off the board", cell_name(*.at))]
    OffBoard {
        /// The cell.
        at: Pos,
    },
    /// A cell already holding an own letter.
    #[error(
        "{} already holds your letter; place letters on empty cells or on your opponent's letters",
        cell_name(*.at)
    )]
    OwnLetter {
        /// The cell.
        at: Pos,
    },
    /// A cell of a shared crossword that holds a letter already.
    #[error("{} already holds a letter; place letters on empty cells", cell_name(*.at))]
    Occupied {
        /// The cell.
        at: Pos,
    },
    /// A word of a shared crossword that uses no letter already on the board.
    #[error("{word} must use a letter already on the board (in the word or a word it crosses)")]
    MustJoin {
        /// The word.
        word: String,
    },
    /// The game's first word elsewhere than the rules say.
    #[error("the first word must stand {place}; {word} does not")]
    FirstWordPlace {
        /// The word.
        word: String,
        /// Where it must stand, in words.
        place: String,
    },
    /// Placed letters not in one row or column.
    #[error("the letters must all be in one row or one column")]
    NotInLine,
    /// Placed letters with a gap.
    #[error(
        "the letters must form one unbroken word with your letters in that line (a gap at {})",
        cell_name(*.at)
    )]
    Gap {
        /// The empty cell.
        at: Pos,
    },
    /// A word too short.
    #[error("a word needs at least {min} letters")]
    TooShort {
        /// The shortest word.
        min: i64,
    },
    /// A word not in the dictionary.
    #[error("{word} is not in the dictionary")]
    NotAWord {
        /// The word.
        word: String,
    },
    /// A letter on lava.
    #[error("no letter can be placed on lava ({})", cell_name(*.at))]
    OnLava {
        /// The cell.
        at: Pos,
    },
    /// A word ending on water.
    #[error("{word} must begin and end on land; it ends on water at {}", cell_name(*.at))]
    EndsOnWater {
        /// The word.
        word: String,
        /// The end on water.
        at: Pos,
    },
    /// Too weak to cut through forest.
    #[error(
        "{word} needs strength {comparison} {needed} to cut through {cells} forest cells; it has {}",
        format_strength(*.has)
    )]
    ForestTooDense {
        /// The word.
        word: String,
        /// "above" or "at least".
        comparison: &'static str,
        /// The forest's total density.
        needed: i64,
        /// Forest cells under placed letters.
        cells: usize,
        /// The word's placement strength (face value with its forest multipliers).
        has: f64,
    },
    /// Not connected to the player's crossword.
    #[error("{word} must cover a city you own or join your connected crossword")]
    NotConnected {
        /// The word.
        word: String,
    },
    /// Too many redeployments.
    #[error("you may lift only {} a turn", crate::diag::counted(usize::try_from(*.limit).unwrap_or(0), "word"))]
    RedeployLimit {
        /// The limit.
        limit: i64,
    },
    /// No such own word.
    #[error("there is no word of yours at {}", cell_name(*.at))]
    NoSuchWord {
        /// Where the word was looked for.
        at: Pos,
    },
    /// A word that may not be lifted.
    #[error("{word} cannot be lifted: {reason}")]
    CannotLift {
        /// The word.
        word: String,
        /// Why.
        reason: String,
    },
    /// Discarding what the rack does not hold or is not over the limit.
    #[error("{reason}")]
    CannotDiscard {
        /// Why.
        reason: String,
    },
    /// A pass where the rules allow none.
    #[error("these rules allow no pass: {options}")]
    MustPlay {
        /// What the player may do instead.
        options: String,
    },
    /// A forfeit the rules do not allow.
    #[error("these rules have no forfeiting (flow.forfeit is false)")]
    NoForfeit,
    /// A trade the rules or the moment do not allow.
    #[error("{reason}")]
    CannotExchange {
        /// Why, and what to do instead.
        reason: String,
    },
    /// A token not on the rack.
    #[error("you hold no token `{token}`")]
    NoSuchToken {
        /// The token spot's id.
        token: String,
    },
    /// A token kind without an effect.
    #[error("nothing defines what a `{kind}` token does")]
    UnknownTokenKind {
        /// The kind.
        kind: String,
    },
    /// A token's definition failed; the token stays on the rack.
    #[error("the {kind} token failed and stays on your rack: {message}")]
    TokenFailed {
        /// The kind.
        kind: String,
        /// What went wrong.
        message: String,
    },
    /// A reloaded rule set or list that does not make sense.
    #[error("the reloaded {what} is refused: {reason}")]
    BadReload {
        /// What was reloaded.
        what: String,
        /// Why it is refused.
        reason: String,
    },
    /// An action other than the answer while a prompt waits.
    #[error("{player} must answer first: {question}")]
    AnswerFirst {
        /// Who must answer.
        player: Player,
        /// What is asked.
        question: String,
    },
    /// An answer with no question waiting.
    #[error("nothing waits for an answer")]
    NothingToAnswer,
    /// A call of sudden death the rules or the moment do not allow.
    #[error("{reason}")]
    CannotCallSuddenDeath {
        /// Why, and what to do instead.
        reason: String,
    },
    /// A turn's action in simultaneous play, or a simultaneous one in a game of turns.
    #[error("{reason}")]
    NotThisFlow {
        /// Which actions this game takes.
        reason: String,
    },
    /// A move the rules of a scripted game do not list for this player now.
    #[error("{mv:?} is not a legal move now{}; the legal moves are: {legal}", because(.why))]
    NotAMove {
        /// The move asked for.
        mv: String,
        /// Why not, as the rules say it (empty if they do not).
        why: String,
        /// Some of the legal moves.
        legal: String,
    },
    /// A move by a player who is not to move.
    #[error("it is not {player}'s move: {to_move} to move")]
    NotYourMove {
        /// Who tried.
        player: Player,
        /// Who moves.
        to_move: String,
    },
    /// The rules of a scripted game failed (their script's error), so nothing changed.
    #[error("the game's rules failed: {reason}")]
    RulesFailed {
        /// The script's error.
        reason: String,
    },
    /// A layout that cannot be made.
    #[error("{reason}")]
    BadLayout {
        /// Why, and what to do about it.
        reason: String,
    },
    /// A signal (green or red light) called on a crossword that is not complete.
    #[error("{signal} needs a complete crossword: {reason}")]
    NotComplete {
        /// The signal: `green light` or `red light`.
        signal: String,
        /// What the crossword lacks.
        reason: String,
    },
    /// A simultaneous action the moment does not allow (a signal, a jaywalk).
    #[error("{reason}")]
    NotNow {
        /// Why, and what to do instead.
        reason: String,
    },
    /// No spies left.
    #[error("you have no spies left ({used} used of {allowed})")]
    NoSpiesLeft {
        /// Spies used.
        used: i64,
        /// Spies allowed.
        allowed: i64,
    },
    /// No advisor to spy with.
    #[error("no spy is available in this game")]
    NoSpy,
    /// The spy found nothing.
    #[error("the spy finds no placement for your rack")]
    SpyFoundNothing,
}

/// A strength for messages: whole numbers without decimals.
fn format_strength(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// `: WHY` after a refused move's text, when the rules said why.
fn because(why: &str) -> String {
    if why.is_empty() {
        String::new()
    } else {
        format!(": {why}")
    }
}

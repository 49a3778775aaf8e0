//! What a client sends the engine (actions), what the engine answers (events), and why it
//! refuses (errors, in words a player understands).

use super::notation::cell_name;
use super::strength::Strength;
use super::words::WordKey;
use crate::board::{Owner, Player, Pos, Terrain};
use serde::{Deserialize, Serialize};

/// A letter from the rack put on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    /// The cell.
    pub at: Pos,
    /// The letter, uppercase.
    pub letter: char,
}

/// Everything a player (or a script, or the AI) can do. The engine knows who acts: the player
/// whose turn it is, or the defender while a combat waits for its order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// `player` makes `mv`, one of the moves the rules of a scripted game list for them
    /// (`flow.scripted`; `Game::legal_moves`).
    Move {
        /// Who moves.
        player: Player,
        /// The move, exactly as the rules list it.
        mv: String,
    },
    /// The rule-set file changed: from the next action on, play with this rule set. It goes in
    /// the log like any action, so a replay changes rules at the same moment.
    ReloadRules {
        /// The new rule set, complete.
        rules: Box<crate::rules::RuleSet>,
    },
    /// A connotation list changed: from the next action on, the list holds these words.
    ReloadConnotations {
        /// The list's name.
        list: String,
        /// Its base words.
        words: Vec<String>,
    },
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
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// What happened, in order, as the result of an action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        from: super::Place,
        /// Where it is.
        to: super::Place,
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
        at: super::Place,
        /// Its value (`None` where the viewer may not see it).
        value: Option<i64>,
        /// To whom it was shown.
        to: super::SeatSet,
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
        at: super::Place,
    },
    /// The secret choices of these seats were made on the table together.
    ChoicesRevealed {
        /// Whose choices.
        seats: super::SeatSet,
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
    #[error("you may lift only {limit} word(s) a turn")]
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

/// `: WHY` after a refused move's text, when the rules said why.
fn because(why: &str) -> String {
    if why.is_empty() {
        String::new()
    } else {
        format!(": {why}")
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

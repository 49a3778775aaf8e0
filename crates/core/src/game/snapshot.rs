//! A game's state as data, for a seat's view to travel: the server takes a snapshot of a
//! seat's view (`Game::seen_by`) and the seat's client makes a game of it on the same map and
//! rules (`Game::from_snapshot`), which its screen reads as it reads a game at home. A
//! snapshot holds no log, no generator and no seed: a game made of one can be shown, never
//! played on. It may come from a stranger's server, so it is checked whole before it is used.

use super::crossings::CrossingScore;
use super::words::WordKey;
use super::{
    Board, Game, GameResult, Marks, PlayerState, RoundResult, Table, TurnState, combat, scripted,
    simultaneous,
};
use crate::board::{Player, Pos};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// The most letters a snapshot's rack or pile may hold (far above any rule set's).
const MAX_LETTERS: usize = 100_000;

/// A game's state without its log, generator or seed (see the module's notes).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Snapshot {
    /// The board: terrain, forest density, ice thickness, each cell's letter (its letter,
    /// owner and state), cities and token spots as they stand.
    board: Board,
    /// Each seat's state, in seat order: its rack (another seat's letters are `?`), its pool
    /// still to draw, its base score, spies used, turns started, letters lost.
    players: Vec<PlayerState>,
    /// The pool every seat draws from, where the rules share one (letters as `?`).
    shared_pool: VecDeque<char>,
    /// Whose turn it is (in a game of turns).
    active: Player,
    /// The turn's number, from 1.
    turn: u32,
    /// What the seat to play did this turn so far.
    turn_state: TurnState,
    /// Turns passed in a row (enough of them end the game, where the rules say).
    passes_in_row: i64,
    /// Words defeated or weakened in combat.
    marks: Marks,
    /// A combat waiting for the defender's order of defence: that seat must answer with
    /// `Defend` before anything else happens.
    pending: Option<combat::Pending>,
    /// The game's end once it came: the winner (none for a draw), why, and the scores.
    /// Then every rack is shown.
    result: Option<GameResult>,
    /// An end that waits for the turn to finish.
    deferred_end: Option<GameResult>,
    /// Letters each seat held at the start.
    initial_letters: usize,
    /// The results of a match's rounds before this one.
    earlier_rounds: Vec<RoundResult>,
    /// A seat that offered sudden death, waiting for the other's `Answer`.
    offer: Option<Player>,
    /// The seat that called sudden death, once accepted.
    sudden_death: Option<Player>,
    /// At once (Lexicon Crossing): green lights called, red light and the grace period, a
    /// green light's draw withheld from its caller.
    lights: simultaneous::Lights,
    /// A scripted game's table (Scryper): its pieces, variables and who moves.
    table: Table,
    /// Whether the scripted table was set up.
    table_set_up: bool,
    /// A secret choice under way: each seat's own moves and position so far, nobody else's.
    secret: Option<Box<scripted::SecretChoices>>,
    /// At once, the crossings' scores as the seat sees them once the game is scored.
    seen_scores: Option<Vec<CrossingScore>>,
}

/// A snapshot that does not fit its map and rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the game's state does not fit its map and rules: {0}")]
pub struct SnapshotError(pub String);

fn unfit<T>(why: impl Into<String>) -> Result<T, SnapshotError> {
    Err(SnapshotError(why.into()))
}

impl Game {
    /// The game's state as data: take it of a seat's view (`seen_by`), never of the truth,
    /// before it leaves the referee.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            board: self.board.clone(),
            players: self.players.clone(),
            shared_pool: self.shared_pool.clone(),
            active: self.active,
            turn: self.turn,
            turn_state: self.turn_state.clone(),
            passes_in_row: self.passes_in_row,
            marks: self.marks.clone(),
            pending: self.pending.clone(),
            result: self.result.clone(),
            deferred_end: self.deferred_end.clone(),
            initial_letters: self.initial_letters,
            earlier_rounds: self.earlier_rounds.clone(),
            offer: self.offer,
            sudden_death: self.sudden_death,
            lights: self.lights.clone(),
            table: self.table.clone(),
            table_set_up: self.table_set_up,
            secret: self.secret.clone(),
            seen_scores: self.seen_scores.as_ref().map(|s| s.to_vec()),
        }
    }

    /// A game to show, made of `snapshot` on `map` under `rules` (the match's), or why the
    /// snapshot does not fit them. It has no log and its chance is not the game's.
    pub fn from_snapshot(
        map: &Map,
        rules: RuleSet,
        lexicon: Arc<Lexicon>,
        snapshot: Snapshot,
    ) -> Result<Game, SnapshotError> {
        let mut game = Game::new(map, rules, lexicon, 0);
        snapshot.check(&game)?;
        let seats = game.players.len();
        let s = snapshot;
        let Some(lights) = s.lights.on_regions_of(&game.lights, seats) else {
            return unfit("a signal of a player who has no seat");
        };
        game.board = s.board;
        game.players = s.players;
        game.shared_pool = s.shared_pool;
        game.active = s.active;
        game.turn = s.turn;
        game.turn_state = s.turn_state;
        game.passes_in_row = s.passes_in_row;
        game.marks = s.marks;
        game.pending = s.pending;
        game.result = s.result;
        game.deferred_end = s.deferred_end;
        game.initial_letters = s.initial_letters;
        game.earlier_rounds = s.earlier_rounds;
        game.offer = s.offer;
        game.sudden_death = s.sudden_death;
        game.lights = lights;
        game.table = s.table;
        game.table_set_up = s.table_set_up;
        game.secret = s.secret;
        game.seen_scores = s.seen_scores.map(Arc::new);
        Ok(game)
    }
}

impl Snapshot {
    /// Whether the snapshot fits `fresh`, a new game on its map and rules: the same seats,
    /// grids of the board's size, every cell and word inside it, counts within bounds.
    fn check(&self, fresh: &Game) -> Result<(), SnapshotError> {
        let seats = fresh.players.len();
        if self.players.len() != seats {
            return unfit(format!(
                "{} players for a game of {seats} seats",
                self.players.len()
            ));
        }
        let is_seat = |p: Player| p.index() < seats;
        let seat_ok = [Some(self.active), self.offer, self.sudden_death]
            .into_iter()
            .flatten()
            .all(is_seat);
        if !seat_ok {
            return unfit("a player who has no seat");
        }
        self.check_board(fresh)?;
        let letters = self.players.iter().map(|p| p.rack.len().max(p.pool.len()));
        if letters
            .chain([self.shared_pool.len()])
            .any(|n| n > MAX_LETTERS)
        {
            return unfit(format!("a rack or pile of more than {MAX_LETTERS} letters"));
        }
        let inside = |at: Pos| fresh.board.terrain.contains(at);
        let key_inside = |key: &WordKey| {
            key.len > 0 && key.cells().count() == key.len as usize && key.cells().all(inside)
        };
        if !self.marks.keys().all(key_inside) {
            return unfit("a marked word off the board");
        }
        if let Some(pending) = &self.pending
            && !pending.fits(&inside, &key_inside, &is_seat)
        {
            return unfit("a combat off the board");
        }
        self.table
            .check_fits(&fresh.table)
            .map_err(|e| SnapshotError(format!("the table: {e}")))?;
        if let Some(secret) = &self.secret {
            secret
                .check_fits(&fresh.table, seats)
                .map_err(|e| SnapshotError(format!("a secret choice: {e}")))?;
        }
        Ok(())
    }

    /// The board's grids are the map's size; its cities and token spots stand on it.
    fn check_board(&self, fresh: &Game) -> Result<(), SnapshotError> {
        let (w, h) = (fresh.board.terrain.width(), fresh.board.terrain.height());
        let b = &self.board;
        let sizes = [
            (b.terrain.width(), b.terrain.height()),
            (b.density.width(), b.density.height()),
            (b.thickness.width(), b.thickness.height()),
            (b.letters.width(), b.letters.height()),
        ];
        if sizes.iter().any(|&size| size != (w, h)) {
            return unfit(format!("a board that is not {w} by {h}"));
        }
        let on_board = b
            .cities
            .iter()
            .map(|c| c.at)
            .chain(b.tokens.iter().map(|t| t.at));
        if b.cities.len() + b.tokens.len() > (w as usize) * (h as usize)
            || !on_board.into_iter().all(|at| b.terrain.contains(at))
        {
            return unfit("a city or token spot off the board");
        }
        let owners_ok = b
            .letters
            .cells()
            .iter()
            .flatten()
            .all(|t| t.player.index() < fresh.players.len());
        if !owners_ok {
            return unfit("a letter of a player who has no seat");
        }
        Ok(())
    }
}

//! A game whose moves its rules define (`flow.scripted`): a pack's mode lists the legal moves
//! of each position, plays them on the table (`table`), and says when the game is over. The
//! engine keeps the table, who moves, the secret choices and the log, and checks what the
//! rules cannot skip: only a seat to move moves, only a move the rules list for that seat's
//! view is played, and a move is played on a copy that is kept only when the rules' whole
//! call succeeds.
//!
//! **Invariant:** the rules list a seat's moves from that seat's view (`Table::seen_by`), so
//! a move's text never tells what its seat may not see; a secret choice is played on its
//! seat's own copy and reaches the table only when every seat's choice is complete.

use super::table::{SeatSet, Table, TableEnd};
use super::{ActionError, EndReason, Event, Game, GameResult};
use crate::board::Player;
use crate::rules::RuleSet;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The rules of a scripted game (the script host implements it over a mode's Lua).
pub trait GameMode: Send + Sync {
    /// Sets the table up for a new game.
    fn setup(
        &self,
        table: &mut Table,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String>;
    /// The legal moves of `player` on `view`, the table as they see it.
    fn moves(
        &self,
        view: &Table,
        player: Player,
        rules: &Arc<RuleSet>,
    ) -> Result<Vec<String>, String>;
    /// Plays `player`'s move `mv` on `table` (listed by `moves`).
    fn play(
        &self,
        table: &mut Table,
        player: Player,
        mv: &str,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String>;
    /// Goes on once the secret choices were made on `table`, together: says who moves next.
    fn revealed(
        &self,
        table: &mut Table,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String>;
    /// Whether the game is over on `table` (asked after every move the table takes).
    fn end_if(&self, table: &Table, rules: &Arc<RuleSet>) -> Result<Option<TableEnd>, String>;
    /// How well `player` stands on `table`, from 0 (lost) to 1 (won), if the rules can tell:
    /// what a search scores a playout it cuts short with.
    fn score(
        &self,
        table: &Table,
        player: Player,
        rules: &Arc<RuleSet>,
    ) -> Result<Option<f64>, String>;
    /// How the game is played, in a player's words (for `help`), if the rules say.
    fn help(&self) -> Option<String> {
        None
    }
    /// Why `mv` is not one of `player`'s legal moves on `view` (the table as they see it), in
    /// a player's words, if the rules can say.
    fn why_not(
        &self,
        _view: &Table,
        _player: Player,
        _mv: &str,
        _rules: &Arc<RuleSet>,
    ) -> Option<String> {
        None
    }
}

/// The secret choices under way: each seat's moves so far and the position they made on
/// that seat's own copy of the table.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(super) struct SecretChoices {
    /// Each seat's moves of the choice so far: a seat sees only its own (others' are empty).
    moves: Vec<Vec<String>>,
    /// Each seat's table as its own choice left it: a seat sees only its own.
    positions: Vec<Option<Table>>,
}

impl SecretChoices {
    /// Whether each seat's table of the choices fits `fresh`, the table of a new game (see
    /// `Table::check_fits`), with a choice for `seats` only.
    pub(super) fn check_fits(&self, fresh: &Table, seats: usize) -> Result<(), String> {
        if self.moves.len() > seats || self.positions.len() > seats {
            return Err("a choice of a seat that is not at the table".into());
        }
        let too_many = self
            .moves
            .iter()
            .any(|m| m.len() > crate::limits::MAX_MOVES);
        let too_long = (self.moves.iter().flatten())
            .any(|m| m.chars().count() > crate::limits::MAX_MOVE_CHARS);
        if too_many || too_long {
            return Err("a move longer than any a rule lists".into());
        }
        self.positions
            .iter()
            .flatten()
            .try_for_each(|t| t.check_fits(fresh))
    }

    /// The choices as `viewer` knows them: their own (on their own copy of the table, as they
    /// see it), and of every other seat only whether its choice is complete (on a copy of
    /// `table`, the table before the choices, marked done).
    pub(super) fn seen_by(&self, viewer: Option<Player>, table: &Table) -> SecretChoices {
        let own = |i: usize| viewer.is_some_and(|p| p.index() == i);
        let position = |i: usize, mine: &Table| {
            if own(i) {
                return Some(mine.seen_by(viewer));
            }
            let seat = Player::seat(i)?;
            (mine.secret() && mine.done().contains(seat))
                .then(|| table.seen_with_choice_done(viewer, seat))
        };
        SecretChoices {
            moves: (0..self.moves.len())
                .map(|i| {
                    if own(i) {
                        self.moves[i].clone()
                    } else {
                        Vec::new()
                    }
                })
                .collect(),
            positions: self
                .positions
                .iter()
                .enumerate()
                .map(|(i, p)| p.as_ref().and_then(|mine| position(i, mine)))
                .collect(),
        }
    }
}

impl Game {
    /// Plays the rules of `mode`; for a game of `flow.scripted` whose table is not yet set
    /// up, sets it up now. Returns what the setup did, or the rules' error (the game then
    /// cannot be played).
    pub fn set_game_mode(&mut self, mode: Arc<dyn GameMode>) -> Result<Vec<Event>, String> {
        if !self.rules.flow.scripted || self.table_set_up {
            self.mode = Some(mode);
            return Ok(Vec::new());
        }
        let mut table = self.table.clone();
        let mut rng = self.rng.clone();
        mode.setup(&mut table, &self.rules, &mut rng)?;
        table.shuffle_ids(&mut rng);
        let mut events = table.take_events();
        self.mode = Some(mode);
        self.rng = rng;
        self.table = table;
        self.table_set_up = true;
        self.active = self.table.to_move().seats().next().unwrap_or(self.active);
        if let Some(end) = self.table.end().cloned() {
            self.end_by_table(end, &mut events);
        }
        Ok(events)
    }

    /// How well `player` stands now, from 0 to 1, as the rules' `score` tells (`None` when
    /// they cannot tell, or the game is not scripted).
    pub fn standing(&self, player: Player) -> Option<f64> {
        let mode = self.mode.as_ref()?;
        let score = mode.score(&self.table, player, &self.rules).ok()??;
        score.is_finite().then(|| score.clamp(0.0, 1.0))
    }

    /// How a scripted game is played, in a player's words, if its rules say (see
    /// `GameMode::help`).
    pub fn mode_help(&self) -> Option<String> {
        self.mode.as_ref()?.help()
    }

    /// Whether this game's rules define its moves and a mode plays them.
    pub fn has_game_mode(&self) -> bool {
        self.mode.is_some()
    }

    /// The table of a scripted game, the whole truth: only for the engine's clients that
    /// may see everything (a referee, a save). Players see `table_for`.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The table as `viewer` sees it (`None`: a spectator): values they may not see taken
    /// out, and in a secret choice, their own choice so far made on it.
    pub fn table_for(&self, viewer: Option<Player>) -> Table {
        let own = viewer.and_then(|p| self.secret_position(p));
        own.unwrap_or(&self.table).seen_by(viewer)
    }

    /// Whether `player`'s secret choice under way is complete (they wait for the others).
    fn choice_complete(&self, player: Player) -> bool {
        let own = self.secret_position(player).unwrap_or(&self.table);
        own.secret() && own.done().contains(player)
    }

    fn secret_position(&self, player: Player) -> Option<&Table> {
        let secret = self.secret.as_ref()?;
        secret.positions.get(player.index())?.as_ref()
    }

    /// A scripted game `viewer` might be in, as far as they can tell: their view of the table
    /// with the values hidden from them drawn at random from those they may be
    /// (`Table::unseen_by`), their own secret choice so far but no one else's, and chance drawn
    /// from `rng` from here on (see `sample_for`).
    pub(super) fn sample_table_for(&self, viewer: Player, rng: &mut impl rand::Rng) -> Game {
        use rand::RngExt;
        use rand::seq::SliceRandom;
        let view = self.table.seen_by(Some(viewer));
        let unseen = self.table.unseen_by(Some(viewer));
        let mut values = std::collections::BTreeMap::new();
        // Dealt in an order that depends only on what the viewer sees (not on ids).
        let order = view.hidden_in_place_order();
        for ((owner, kind), mut unseen) in unseen {
            unseen.shuffle(rng);
            let hidden = order.iter().filter(|&&id| {
                view.piece(id)
                    .is_some_and(|p| p.owner == owner && &*p.kind == kind)
            });
            for (&id, value) in hidden.zip(unseen) {
                values.insert(id, value);
            }
        }
        let mut game = self.clone();
        game.table = view.assuming(&values);
        game.secret = self.secret.as_ref().map(|secret| {
            let mut own = SecretChoices {
                moves: vec![Vec::new(); secret.moves.len()],
                positions: vec![None; secret.positions.len()],
            };
            let i = viewer.index();
            if let (Some(moves), Some(Some(position))) =
                (secret.moves.get(i), secret.positions.get(i))
            {
                own.moves[i] = moves.clone();
                own.positions[i] = Some(position.seen_by(Some(viewer)).assuming(&values));
            }
            Box::new(own)
        });
        game.rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(rng.random::<u64>());
        game
    }

    /// The seats who may move now: in a secret choice, those whose choice is not complete.
    pub fn choosing(&self) -> Vec<Player> {
        if self.result.is_some() {
            return Vec::new();
        }
        let to_move = self.table.to_move().seats();
        to_move.filter(|&p| !self.choice_complete(p)).collect()
    }

    /// The legal moves of `player` now (none when it is not theirs to move).
    pub fn legal_moves(&self, player: Player) -> Result<Vec<String>, ActionError> {
        let mode = self.require_mode()?;
        if self.result.is_some() {
            return Ok(Vec::new());
        }
        let position = self.secret_position(player).unwrap_or(&self.table);
        if !position.to_move().contains(player) || self.choice_complete(player) {
            return Ok(Vec::new());
        }
        let view = position.seen_by(Some(player));
        mode.moves(&view, player, &self.rules)
            .map_err(|reason| ActionError::RulesFailed { reason })
    }

    /// As `legal_moves`, kept for this position: the move then played is checked against
    /// them without asking the rules again (a search lists and plays millions).
    pub fn list_moves(&mut self, player: Player) -> Result<Arc<Vec<String>>, ActionError> {
        if let Some((listed_for, moves)) = &self.listed
            && *listed_for == player
        {
            return Ok(moves.clone());
        }
        let moves = Arc::new(self.legal_moves(player)?);
        self.listed = Some((player, moves.clone()));
        Ok(moves)
    }

    fn require_mode(&self) -> Result<Arc<dyn GameMode>, ActionError> {
        if !self.rules.flow.scripted {
            return Err(ActionError::NotThisFlow {
                reason: "this game's moves are the crossword's (flow.scripted is false)".into(),
            });
        }
        self.mode.clone().ok_or_else(|| ActionError::RulesFailed {
            reason: "no script of this game defines its moves: the mode's script must call \
                     scryptic.game_mode{...}"
                .into(),
        })
    }

    /// Plays `player`'s move `mv` (see `Action::Move`).
    pub(super) fn play_move(
        &mut self,
        player: Player,
        mv: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mode = self.require_mode()?;
        let legal = self.list_moves(player)?;
        if !legal.iter().any(|m| m == mv) {
            return Err(self.not_a_move(player, mv, &legal));
        }
        let rules = self.rules.clone();
        let secret = self.table.secret();
        let mut rng = self.rng.clone();
        let mut position = self.secret_position(player).unwrap_or(&self.table).clone();
        mode.play(&mut position, player, mv, &rules, &mut rng)
            .map_err(|reason| ActionError::RulesFailed { reason })?;
        if secret {
            // The draws of a secret move's copy are not the game's: the move is played again
            // on the table when the choices are revealed.
            return self.keep_secret_move(player, mv, position, events);
        }
        let mut made = position.take_events();
        let end = mode
            .end_if(&position, &rules)
            .map_err(|reason| ActionError::RulesFailed { reason })?;
        events.push(Event::Moved {
            player,
            mv: mv.to_string(),
            secret: false,
        });
        events.append(&mut made);
        self.table = position;
        self.rng = rng;
        self.after_table_move(end, events);
        Ok(())
    }

    /// Keeps a move of a secret choice on its seat's own copy; once every seat's choice is
    /// complete, makes them all on the table together.
    fn keep_secret_move(
        &mut self,
        player: Player,
        mv: &str,
        mut position: Table,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        position.take_events();
        let seats = self.table.seat_count();
        let mut secret = self.secret.clone().map_or_else(
            || SecretChoices {
                moves: vec![Vec::new(); seats],
                positions: vec![None; seats],
            },
            |s| *s,
        );
        let i = player.index();
        secret.moves[i].push(mv.to_string());
        secret.positions[i] = Some(position);
        let choosing = self.table.to_move();
        let all_done = choosing.seats().all(|p| {
            secret.positions[p.index()]
                .as_ref()
                .is_some_and(|t| t.done().contains(p))
        });
        events.push(Event::Moved {
            player,
            mv: mv.to_string(),
            secret: true,
        });
        // The others learn only that a choice was made, once it is complete: not its moves,
        // nor how many they were.
        let complete = secret.positions[i]
            .as_ref()
            .is_some_and(|t| t.done().contains(player));
        if complete {
            events.push(Event::Moved {
                player,
                mv: String::new(),
                secret: true,
            });
        }
        if !all_done {
            self.secret = Some(Box::new(secret));
            if let Some(next) = self.choosing().first() {
                self.active = *next;
            }
            return Ok(());
        }
        self.reveal(&secret, choosing, events)
    }

    /// Makes every seat's secret choice on the table, in seat order, then lets the rules go on.
    fn reveal(
        &mut self,
        secret: &SecretChoices,
        choosing: SeatSet,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mode = self.require_mode()?;
        let rules = self.rules.clone();
        let mut rng = self.rng.clone();
        let mut table = self.table.clone();
        for p in choosing.seats() {
            for mv in &secret.moves[p.index()] {
                mode.play(&mut table, p, mv, &rules, &mut rng)
                    .map_err(|reason| ActionError::RulesFailed {
                        reason: format!(
                            "{p}'s choice {mv:?} cannot be made with the others': {reason}"
                        ),
                    })?;
            }
        }
        table.end_secret();
        mode.revealed(&mut table, &rules, &mut rng)
            .map_err(|reason| ActionError::RulesFailed { reason })?;
        let end = mode
            .end_if(&table, &rules)
            .map_err(|reason| ActionError::RulesFailed { reason })?;
        events.push(Event::ChoicesRevealed { seats: choosing });
        events.append(&mut table.take_events());
        self.table = table;
        self.rng = rng;
        self.secret = None;
        self.after_table_move(end, events);
        Ok(())
    }

    /// After the table took a move: who acts, and the game's end when the rules say so.
    fn after_table_move(&mut self, end: Option<TableEnd>, events: &mut Vec<Event>) {
        self.turn += 1;
        if let Some(p) = self.table.to_move().seats().next() {
            self.active = p;
        }
        let end = self.table.end().cloned().or(end);
        if let Some(end) = end {
            self.end_by_table(end, events);
        }
    }

    fn end_by_table(&mut self, end: TableEnd, events: &mut Vec<Event>) {
        let result = GameResult {
            winner: end.winner,
            reason: EndReason::Script { reason: end.reason },
        };
        events.push(Event::GameOver {
            result: result.clone(),
            award: None,
        });
        self.result = Some(result);
    }

    fn not_a_move(&self, player: Player, mv: &str, legal: &[String]) -> ActionError {
        let to_move = self.table.to_move();
        if !to_move.contains(player) {
            let movers: Vec<String> = to_move.seats().map(|p| p.to_string()).collect();
            return ActionError::NotYourMove {
                player,
                to_move: movers.join(" and "),
            };
        }
        if self.choice_complete(player) {
            return ActionError::NotYourMove {
                player,
                to_move: "the others, whose choices are not complete yet".into(),
            };
        }
        const SHOWN: usize = 12;
        let mut some: Vec<&str> = legal.iter().take(SHOWN).map(String::as_str).collect();
        if legal.len() > SHOWN {
            some.push("...");
        }
        // The rules say why, if they can: from the table as the player sees it.
        let why = self.mode.as_ref().and_then(|mode| {
            let position = self.secret_position(player).unwrap_or(&self.table);
            let view = position.seen_by(Some(player));
            mode.why_not(&view, player, mv, &self.rules)
        });
        ActionError::NotAMove {
            mv: mv.chars().take(crate::limits::MAX_MOVE_CHARS).collect(),
            why: why
                .map(|w| {
                    w.chars()
                        .take(crate::limits::MAX_TABLE_TEXT_CHARS)
                        .collect()
                })
                .unwrap_or_default(),
            legal: some.join(", "),
        }
    }
}

/// The commands of a scripted game, for help texts.
pub const MOVE_COMMANDS: &str =
    "MOVE                the move, as `moves` lists it (any case; spaces as you like)
SEAT MOVE           the move named for your own seat (its own word or the mode's name)
moves               list your legal moves";

/// Reads a typed move of a scripted game for `player` (unless the line names a seat first):
/// the listed move it spells, whatever its case and spacing, or the text as typed (which the
/// engine will refuse, listing the legal moves).
pub(super) fn parse_move(game: &Game, player: Player, words: &[&str]) -> super::Action {
    let names = super::SeatNames::of(game.rules());
    let (player, words) = match words.split_first() {
        Some((first, rest)) if !rest.is_empty() => match names.seat_named(first) {
            Some(named) => (named, rest),
            None => (player, words),
        },
        _ => (player, words),
    };
    let typed = words.join(" ");
    let listed = game.legal_moves(player).unwrap_or_default();
    let mv = move_spelled(&listed, &typed).cloned().unwrap_or(typed);
    super::Action::Move { player, mv }
}

/// The move of `listed` that `typed` spells, whatever its case and spacing.
pub fn move_spelled<'a>(listed: &'a [String], typed: &str) -> Option<&'a String> {
    let spaced = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let typed = spaced(typed);
    listed
        .iter()
        .find(|m| spaced(m).eq_ignore_ascii_case(&typed))
}

//! The game: a deterministic state machine over docs/RULES.md. `Game::apply` takes an action and
//! returns the events it caused, or an error that says why it was refused; a refused action
//! changes nothing, because every action is checked completely before anything is changed.
//!
//! Invariant: the engine does no I/O and knows no client; every constant comes from the
//! `RuleSet`; all randomness comes from the game's one seeded ChaCha generator.

mod checksum;
mod clock;
mod combat;
mod commands;
mod commit;
mod crossings;
pub mod describe;
mod layout_notation;
mod letters;
pub mod notation;
mod private_view;
mod redeploy;
mod regions;
mod removal;
mod rounds;
mod score;
mod scripted;
mod seat_names;
mod seat_view;
mod simultaneous;
mod snapshot;
mod state;
pub mod strength;
mod sudden_death;
pub mod table;
pub mod table_words;
pub mod tokens;
mod turn;
mod types;
pub mod words;

pub use checksum::{CHECKSUM_VERSION, FULL_EVERY};
pub use clock::MoveClock;
pub use combat::CombatPreview;
pub use commands::{CommandError, ScriptCommand};
pub use crossings::{CrossingScore, Crossword, Incomplete};
pub use letters::Letters;
pub use rounds::{MAX_ROUND_TEXT_CHARS, MatchOutcome, MatchScore, NextRound, RoundResult};
pub use scripted::{GameMode, MOVE_COMMANDS, move_spelled};
pub use seat_names::SeatNames;
pub use snapshot::{Snapshot, SnapshotError};
pub use state::*;
pub use table::{Piece, Place, SeatSet, Table, TableEnd, TableError, Var};
pub use tokens::{Effect, EffectError, Invocation, StandardElementals, TokenEffects};
pub use types::*;
pub use words::{Tile, Word, WordKey};

use crate::board::{Grid, Player};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

/// Marks that make words invalid, and penalties on words that repelled an attack.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct Marks {
    /// Words defeated in combat, by owner: they no longer count.
    defeated: BTreeSet<(Player, WordKey)>,
    /// Fragments left by a defeat, by owner.
    fragments: BTreeSet<(Player, WordKey)>,
    /// Words that repelled an attack, weakened for a while (`strength.repel_penalty`).
    penalties: Vec<Penalty>,
}

/// A word that repelled an attack, weakened by the attack's strength until the end of the
/// attacker's next turn.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct Penalty {
    /// The word's owner, the defender.
    player: Player,
    /// The word.
    key: WordKey,
    /// How much weaker it is: the attack's strength.
    amount: i64,
    /// The attacker: it lasts until the end of their next turn.
    until_end_of: Player,
}

impl Marks {
    /// Every word the marks name.
    fn keys(&self) -> impl Iterator<Item = &WordKey> {
        let marked = self.defeated.iter().chain(&self.fragments).map(|(_, k)| k);
        marked.chain(self.penalties.iter().map(|p| &p.key))
    }
}

/// Per-turn counters.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct TurnState {
    /// A word was committed this turn.
    committed: bool,
    /// Letters were traded: the turn was used, though nothing was committed.
    exchanged: bool,
    /// Words lifted back to the rack this turn.
    redeploys: i64,
    /// The player's offer of sudden death was refused this turn (it is not made again).
    offer_refused: bool,
}

/// Something that suggests the strongest placement (the AI), for `Action::Spy`.
pub trait Advisor: Send + Sync {
    /// The strongest placement for the active player's rack, if any.
    fn strongest_placement(&self, game: &Game) -> Option<Vec<Placement>>;
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    map: Arc<Map>,
    rules: Arc<RuleSet>,
    lexicon: Arc<Lexicon>,
    effects: Arc<dyn TokenEffects>,
    modifiers: Option<Arc<dyn strength::StrengthModifiers>>,
    advisor: Option<Arc<dyn Advisor>>,
    board: Board,
    /// Every seat's state, in seat order (`seats.count` of them).
    players: Vec<PlayerState>,
    /// The pool both players draw from, when `supply.pool` is Shared (else empty).
    shared_pool: VecDeque<char>,
    active: Player,
    turn: u32,
    turn_state: TurnState,
    passes_in_row: i64,
    marks: Marks,
    pending: Option<combat::Pending>,
    rng: ChaCha8Rng,
    result: Option<GameResult>,
    /// A script's end of the game that came while a combat waited for its order: it takes
    /// effect once the combat is resolved, so that no ending cuts a combat in half.
    deferred_end: Option<GameResult>,
    log: Vec<Action>,
    seed: u64,
    initial_letters: usize,
    /// The match's rounds played before this game (see `rounds`).
    earlier_rounds: Vec<RoundResult>,
    /// The player whose offer of sudden death waits for an answer.
    offer: Option<Player>,
    /// The caller of a sudden death accepted: the other takes every turn to the end.
    sudden_death: Option<Player>,
    /// Where simultaneous play stands between its signals.
    lights: simultaneous::Lights,
    /// A scripted game's rules (`flow.scripted`), its table, whether the rules set it up,
    /// and the secret choices under way.
    mode: Option<Arc<dyn GameMode>>,
    table: Table,
    table_set_up: bool,
    secret: Option<Box<scripted::SecretChoices>>,
    /// The legal moves last listed for this position, and whose (`Game::list_moves`), so
    /// that the move then chosen is checked without asking the rules again.
    listed: Option<(Player, Arc<Vec<String>>)>,
    /// Each letter A to Z's value under the rules (kept with them: the score's hot loop).
    values: [Option<i64>; 26],
    /// In a seat's view (`Game::seen_by`) of simultaneous play, where the other crosswords'
    /// letters are hidden: every seat's crossing score as the referee counted it.
    seen_scores: Option<Arc<Vec<CrossingScore>>>,
}

/// `player`'s place in a two-player game's pairs (see `Player::in_pair`).
fn index(player: Player) -> usize {
    player.in_pair()
}

/// The other player of a two-player game.
pub fn opponent(player: Player) -> Player {
    if player == Player::Gold {
        Player::Silver
    } else {
        Player::Gold
    }
}

impl Game {
    /// A new game on `map` under `rules`, with words from `lexicon`, all chance drawn from
    /// `seed`. The map's scenario (letters on the board, racks, pool orders) is set up; then
    /// the first turn begins, gold's unless the scenario names the first player.
    pub fn new(map: &Map, rules: RuleSet, lexicon: Arc<Lexicon>, seed: u64) -> Game {
        let board = Self::initial_board(map, &rules);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (players, shared_pool) = turn::initial_supply(map, &rules, &mut rng);
        let mut game = Game {
            map: Arc::new(map.clone()),
            rules: Arc::new(rules),
            lexicon,
            effects: Arc::new(StandardElementals),
            modifiers: None,
            advisor: None,
            board,
            players,
            shared_pool,
            active: map.scenario.first_player(),
            turn: 0,
            turn_state: TurnState::default(),
            passes_in_row: 0,
            marks: Marks::default(),
            pending: None,
            rng,
            result: None,
            deferred_end: None,
            log: Vec::new(),
            seed,
            initial_letters: 0,
            earlier_rounds: Vec::new(),
            offer: None,
            sudden_death: None,
            lights: simultaneous::Lights::default(),
            mode: None,
            table: Table::default(),
            table_set_up: false,
            secret: None,
            listed: None,
            values: [None; 26],
            seen_scores: None,
        };
        game.values = score::ascii_values(&game.rules);
        game.lights = simultaneous::Lights::new(game.rules.flow.simultaneous, &game.board.terrain);
        if game.rules.flow.scripted {
            // The rules' setup (`set_game_mode`) makes the table; no letters are dealt.
            game.table = Table::new(map.width(), map.height(), game.players.len())
                .starting_with(map.scenario.first_player());
            game.turn = 1;
            return game;
        }
        for p in game.seats() {
            game.fill_opening_rack(p, map);
        }
        game.initial_letters = game.letters_in_play();
        game.begin_turn(map.scenario.first_player(), &mut Vec::new());
        game
    }

    fn initial_board(map: &Map, rules: &RuleSet) -> Board {
        let (w, h) = (map.width(), map.height());
        let mut density = Grid::new(w, h, rules.board.default_forest_density);
        let mut thickness = Grid::new(w, h, rules.board.default_ice_thickness);
        for (&p, &v) in &map.forest_density {
            density.set(p, v);
        }
        for (&p, &v) in &map.ice_thickness {
            thickness.set(p, v);
        }
        let mut letters = Letters::new(w, h);
        for word in &map.scenario.words {
            for (pos, letter) in word.letters() {
                letters.set(
                    pos,
                    Some(Tile {
                        player: word.player,
                        letter: letter.to_ascii_uppercase(),
                    }),
                );
            }
        }
        Board {
            terrain: map.terrain.clone(),
            density,
            thickness,
            letters,
            // A map built in code may hold pieces off the board (a loaded one may not): they
            // take no part, so that no grid is ever read outside.
            cities: map
                .cities
                .iter()
                .filter(|c| map.terrain.contains(c.at))
                .map(|c| CityState {
                    id: c.id.as_str().into(),
                    name: c.name.as_str().into(),
                    at: c.at,
                    owner: c.owner,
                    destroyed: false,
                    bonus: c.bonus,
                })
                .collect(),
            tokens: map
                .tokens
                .iter()
                .filter(|t| map.terrain.contains(t.at))
                .map(|t| TokenState {
                    id: t.id.as_str().into(),
                    kind: t.kind.as_str().into(),
                    at: t.at,
                    captured_by: None,
                })
                .collect(),
        }
    }

    /// Uses `effects` for tokens instead of the built-in elementals (the scripting host does).
    pub fn set_token_effects(&mut self, effects: Arc<dyn TokenEffects>) {
        self.effects = effects;
    }

    /// Consults `modifiers` for every strength (the scripting host's strength modifiers).
    pub fn set_strength_modifiers(&mut self, modifiers: Arc<dyn strength::StrengthModifiers>) {
        self.modifiers = Some(modifiers);
    }

    /// Whether scripts' strength modifiers are defined now (a scripted game whose scripts
    /// define none has none: its strengths are the rules' alone).
    pub fn has_strength_modifiers(&self) -> bool {
        self.modifiers.as_ref().is_some_and(|m| m.any())
    }

    /// Uses `advisor` for `Action::Spy` (the AI does).
    pub fn set_advisor(&mut self, advisor: Arc<dyn Advisor>) {
        self.advisor = Some(advisor);
    }

    /// Applies `action` for whoever must act now; returns what happened, or why not.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        let mut events = Vec::new();
        match &action {
            Action::Defend { order } => self.defend(order.as_deref(), &mut events)?,
            Action::Answer { accept } => self.answer(*accept, &mut events)?,
            Action::Layout { player, letters } => {
                self.require_flow_of(&action)?;
                self.lay_out(*player, letters, &mut events)?
            }
            Action::GreenLight { player } => {
                self.require_flow_of(&action)?;
                self.green_light(*player, &mut events)?
            }
            Action::RedLight { player } => {
                self.require_flow_of(&action)?;
                self.red_light(*player, &mut events)?
            }
            Action::GraceOver => {
                self.require_flow_of(&action)?;
                self.grace_over(&mut events)?
            }
            Action::Jaywalk { player, letter } => {
                self.require_flow_of(&action)?;
                self.jaywalk(*player, *letter, &mut events)?
            }
            Action::Move { player, mv } => {
                self.require_flow_of(&action)?;
                self.play_move(*player, mv, &mut events)?
            }
            Action::OutOfTime { player } => self.out_of_time(*player, &mut events)?,
            Action::ReloadRules { rules } => self.reload_rules(rules, &mut events)?,
            Action::ReloadConnotations { list, words } => {
                self.reload_connotations(list, words, &mut events)?
            }
            Action::ReloadScript { name, source } => {
                self.check_script_reload(name, source)?;
                events.push(Event::Reloaded {
                    what: format!("script {name}"),
                });
            }
            other => {
                if let Some(p) = &self.pending {
                    return Err(ActionError::DefencePending {
                        defender: p.defender,
                    });
                }
                self.require_no_offer()?;
                self.require_flow_of(other)?;
                self.apply_turn_action(other, &mut events)?;
            }
        }
        self.log.push(action);
        self.listed = None;
        // A scripted game's turns and end are its rules' own.
        if !self.rules.flow.scripted {
            self.end_turn_after_a_play(&mut events);
            self.check_end(&mut events);
        }
        Ok(events)
    }

    fn apply_turn_action(
        &mut self,
        action: &Action,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if !matches!(action, Action::Discard { .. }) {
            self.require_rack_within_limit()?;
        }
        match action {
            Action::Commit { letters } => self.commit(letters, events),
            Action::Redeploy { word } => self.redeploy(*word, events),
            Action::Discard { letters } => self.discard(letters, events),
            Action::Exchange { letters } => self.exchange(letters, events),
            Action::Invoke { token } => self.invoke(token, events),
            Action::Spy => self.spy(events),
            Action::Forfeit => self.forfeit(events),
            Action::CallSuddenDeath => self.call_sudden_death(events),
            Action::EndTurn => {
                self.require_play_or_pass()?;
                self.end_turn(events);
                Ok(())
            }
            Action::Defend { .. } => Err(ActionError::NoCombatPending),
            Action::Answer { .. } => Err(ActionError::NothingToAnswer),
            // Dispatched before turns are looked at (they name their player).
            Action::Layout { .. }
            | Action::GreenLight { .. }
            | Action::RedLight { .. }
            | Action::GraceOver
            | Action::Jaywalk { .. }
            | Action::Move { .. } => self.require_flow_of(action),
            Action::OutOfTime { .. }
            | Action::ReloadRules { .. }
            | Action::ReloadConnotations { .. }
            | Action::ReloadScript { .. } => Ok(()),
        }
    }

    /// Why the game would refuse `Action::ReloadScript` with these parts: over, a name that
    /// leaves the level's folder, or a text longer than any script may be.
    pub fn check_script_reload(&self, name: &str, source: &str) -> Result<(), ActionError> {
        if self.result.is_some() {
            return Err(ActionError::GameOver);
        }
        if let Some(problem) = crate::limits::relative_path_problem(name) {
            return Err(ActionError::BadReload {
                what: "a script".into(),
                reason: problem,
            });
        }
        let bad = |reason: String| ActionError::BadReload {
            what: format!("script {name}"),
            reason,
        };
        if source.len() > crate::limits::MAX_SCRIPT_BYTES {
            return Err(bad(format!(
                "the text has {} bytes; a script has at most {}",
                source.len(),
                crate::limits::MAX_SCRIPT_BYTES
            )));
        }
        Ok(())
    }

    fn reload_rules(
        &mut self,
        rules: &RuleSet,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let problems = rules.validate();
        if let Some(p) = problems.first() {
            return Err(ActionError::BadReload {
                what: "rule set".into(),
                reason: p.message.clone(),
            });
        }
        let fits =
            |side: u32| (rules.board.min_side..=rules.board.max_side).contains(&i64::from(side));
        if !fits(self.board.terrain.width()) || !fits(self.board.terrain.height()) {
            return Err(ActionError::BadReload {
                what: "rule set".into(),
                reason: "this board's size is outside its limits".into(),
            });
        }
        self.rules = Arc::new(rules.clone());
        self.values = score::ascii_values(&self.rules);
        events.push(Event::Reloaded {
            what: "rules".into(),
        });
        Ok(())
    }

    fn reload_connotations(
        &mut self,
        list: &str,
        words: &[String],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mut lexicon = (*self.lexicon).clone();
        let text = words.join("\n");
        lexicon
            .set_connotation_list(list, std::path::Path::new(list), &text)
            .map_err(|e| ActionError::BadReload {
                what: format!("list {list}"),
                reason: e.to_string(),
            })?;
        self.lexicon = Arc::new(lexicon);
        events.push(Event::Reloaded {
            what: format!("connotations {list}"),
        });
        Ok(())
    }

    fn spy(&mut self, events: &mut Vec<Event>) -> Result<(), ActionError> {
        let allowed = self.rules.turn.spies_per_game;
        let used = self.player(self.active).spies_used;
        if used >= allowed {
            return Err(ActionError::NoSpiesLeft { used, allowed });
        }
        let advisor = self.advisor.clone().ok_or(ActionError::NoSpy)?;
        let letters = advisor
            .strongest_placement(self)
            .ok_or(ActionError::SpyFoundNothing)?;
        self.player_mut(self.active).spies_used += 1;
        events.push(Event::SpyReport { letters });
        Ok(())
    }

    /// The map the game started from.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The rule set in play.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The lexicon in play.
    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    /// The names and colours the rules give the seats (see `SeatNames`).
    pub fn seat_names(&self) -> SeatNames {
        SeatNames::of(&self.rules)
    }

    /// The dictionary, shared (for another game with the same words: a match's next round).
    pub fn shared_lexicon(&self) -> Arc<Lexicon> {
        self.lexicon.clone()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A player's letters and score parts.
    pub fn player(&self, player: Player) -> &PlayerState {
        &self.players[self.seat_index(player)]
    }

    fn player_mut(&mut self, player: Player) -> &mut PlayerState {
        let i = self.seat_index(player);
        &mut self.players[i]
    }

    /// `player`'s place among the seats: their seat, or the last one for a seat the game does
    /// not have (which no file or action can name), so that nothing indexes past the table.
    fn seat_index(&self, player: Player) -> usize {
        player.index().min(self.players.len().saturating_sub(1))
    }

    /// Every player at the table, in seat (and turn) order.
    pub fn seats(&self) -> impl Iterator<Item = Player> + use<> {
        (0..self.players.len()).filter_map(Player::seat)
    }

    /// Whose turn it is.
    pub fn active(&self) -> Player {
        self.active
    }

    /// Whether a combat waits for the defender's order.
    pub fn combat_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Who must act now: the player a prompt waits on (the defender ordering a combat's
    /// defence, the answer to an offer of sudden death), else the active player.
    pub fn to_act(&self) -> Player {
        self.prompt().map_or(self.active, |p| p.player())
    }

    /// The question the game waits on a player to answer, if any.
    pub fn prompt(&self) -> Option<Prompt> {
        if let Some(p) = &self.pending {
            return Some(Prompt::DefenceOrder {
                defender: p.defender,
            });
        }
        self.offer.map(|caller| Prompt::SuddenDeath { caller })
    }

    /// The turn's number, from 1.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// How the game ended, once it has.
    pub fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }

    /// The actions applied so far.
    pub fn log(&self) -> &[Action] {
        &self.log
    }

    /// A copy of the game to try an action on and weigh the outcome (the AI's look-ahead):
    /// everything but the log of actions, which starts empty, since copying the log (a heap
    /// vector for each commit's letters) is half of a copy's cost mid-game. The copy plays on
    /// exactly as the game would; only its `log` lacks what came before. Not for saving.
    pub fn trial_copy(&self) -> Game {
        Game {
            map: self.map.clone(),
            rules: self.rules.clone(),
            lexicon: self.lexicon.clone(),
            effects: self.effects.clone(),
            modifiers: self.modifiers.clone(),
            advisor: self.advisor.clone(),
            board: self.board.clone(),
            players: self.players.clone(),
            shared_pool: self.shared_pool.clone(),
            active: self.active,
            turn: self.turn,
            turn_state: self.turn_state.clone(),
            passes_in_row: self.passes_in_row,
            marks: self.marks.clone(),
            pending: self.pending.clone(),
            rng: self.rng.clone(),
            result: self.result.clone(),
            deferred_end: self.deferred_end.clone(),
            log: Vec::new(),
            seed: self.seed,
            initial_letters: self.initial_letters,
            earlier_rounds: self.earlier_rounds.clone(),
            offer: self.offer,
            sudden_death: self.sudden_death,
            lights: self.lights.clone(),
            mode: self.mode.clone(),
            table: self.table.clone(),
            table_set_up: self.table_set_up,
            secret: self.secret.clone(),
            listed: self.listed.clone(),
            values: self.values,
            seen_scores: self.seen_scores.clone(),
        }
    }

    /// The seed the game was started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Spies `player` has left.
    pub fn spies_left(&self, player: Player) -> i64 {
        (self.rules.turn.spies_per_game - self.player(player).spies_used).max(0)
    }

    /// Whether `player` committed a word this turn (only meaningful for the active player).
    pub fn committed_this_turn(&self) -> bool {
        self.turn_state.committed
    }

    /// The letters on `player`'s rack, as text.
    pub fn rack_letters(&self, player: Player) -> String {
        self.player(player)
            .rack
            .iter()
            .filter_map(|item| match item {
                RackItem::Letter(c) => Some(*c),
                RackItem::Token { .. } => None,
            })
            .collect()
    }

    /// Every word on the board with its validity, connection, face value and connotations.
    pub fn words(&self) -> Vec<WordInfo> {
        let connected: Vec<Grid<bool>> = self.seats().map(|p| self.connected_grid(p)).collect();
        self.board_words()
            .into_iter()
            .map(|word| {
                let valid = self.is_valid(&word);
                let grid = &connected[self.seat_index(word.player)];
                let is_connected = word.key.cells().any(|c| grid[c]);
                WordInfo {
                    face: self.face_value(&word.text),
                    connotations: self.connotations_of(&word.text),
                    valid,
                    connected: is_connected,
                    word,
                }
            })
            .collect()
    }

    /// Which of `player`'s letters are connected to a city they own (in a shared crossword,
    /// which needs no city, every cell).
    pub fn connected_grid(&self, player: Player) -> Grid<bool> {
        match self.rules.crossword.model {
            crate::rules::CrosswordModel::Separate => {
                words::connected(&self.board.letters, player, self.board.city_cells(player))
            }
            crate::rules::CrosswordModel::Shared => Grid::new(
                self.board.letters.width(),
                self.board.letters.height(),
                true,
            ),
        }
    }

    /// Whose letters a word runs through under the rules in play.
    fn runs(&self) -> words::Runs {
        match self.rules.crossword.model {
            crate::rules::CrosswordModel::Separate => words::Runs::OfOnePlayer,
            crate::rules::CrosswordModel::Shared => words::Runs::OfAnyone,
        }
    }

    /// Every word on the board now (runs as the crossword model says).
    fn board_words(&self) -> Vec<Word> {
        words::find_runs(&self.board.letters, self.min_word_len(), self.runs())
    }

    /// Letters in play: in pools, on racks, on the board, and committed in a combat that waits
    /// for the defender's order (for conservation checks).
    pub fn letters_in_play(&self) -> usize {
        let on_board = self.board.letter_count();
        let in_combat = self.pending.as_ref().map_or(0, combat::Pending::letters);
        let held: usize = self
            .seats()
            .map(|p| self.player(p).pool.len() + self.rack_letter_count(p))
            .sum();
        on_board + held + self.shared_pool.len() + in_combat
    }

    /// Letters at the start plus letters removed from the game: what `letters_in_play` plus
    /// the letters lost must always equal.
    pub fn initial_letters(&self) -> usize {
        self.initial_letters
    }

    /// Letters lost by both players so far.
    pub fn letters_lost(&self) -> usize {
        self.players.iter().map(|p| p.lost).sum()
    }

    /// The connotations of `text`, as owned names.
    fn connotations_of(&self, text: &str) -> Vec<String> {
        self.lexicon
            .connotations(text)
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    fn min_word_len(&self) -> u32 {
        u32::try_from(self.rules.placement.min_word_length)
            .unwrap_or(2)
            .max(2)
    }

    fn is_valid(&self, word: &Word) -> bool {
        self.is_valid_text(word.player, word.key, &word.text)
    }

    /// Whether `player`'s run `text` at `key` is a valid word now.
    fn is_valid_text(&self, player: Player, key: WordKey, text: &str) -> bool {
        let marked = (player, key);
        self.lexicon.contains(text)
            && !self.marks.defeated.contains(&marked)
            && !self.marks.fragments.contains(&marked)
    }
}

#[cfg(test)]
mod flow_tests;
#[cfg(test)]
mod seats_tests;
#[cfg(test)]
mod shared_tests;
#[cfg(test)]
mod simultaneous_tests;
#[cfg(test)]
mod sudden_death_tests;
#[cfg(test)]
mod supply_tests;
#[cfg(test)]
mod tests;

//! A game in play, as plain state: its referee, who sits in each seat, the letters laid on the
//! board but not committed, the combat dialog's stage, the event log and the console. The play
//! board and its panels only draw this and call its methods; what happens between frames comes
//! from the referee ([`Session::update`]).

use crate::referee::{NextRound, OnlineMatch, Outcome, Pace, Referee};
use scryptic_core::game::describe::describe;
use scryptic_core::game::notation::cell_name;
use scryptic_core::game::strength::Strength;
use scryptic_core::game::{Action, CombatPreview, Event, Game, Placement, WordKey};
use scryptic_core::{Player, Pos};
use std::time::Duration;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this screen.
    Human,
    /// An AI the referee plays here (its level is the referee's to say).
    Ai,
    /// Someone at another screen, or the server's AI (a match on a server).
    Elsewhere,
}

/// Where the combat dialog stands.
#[derive(Clone, Debug, PartialEq)]
pub enum CombatStage {
    /// Before committing: the attack and its defenders, to cancel or proceed.
    Preview {
        /// The letters that would attack.
        letters: Vec<Placement>,
        /// The strengths.
        preview: CombatPreview,
    },
    /// The defender (a person) puts the defending words in order.
    Order {
        /// Who defends.
        defender: Player,
        /// The defending words, first to fight first: key, text, strength.
        order: Vec<(WordKey, String, Strength)>,
    },
    /// The combat's resolution, one step at a time.
    Resolution {
        /// Every step, in words.
        steps: Vec<String>,
        /// How many are shown so far.
        shown: usize,
    },
}

/// Something worth remembering in the statistics.
#[derive(Clone, Debug, PartialEq)]
pub enum Feat {
    /// A word committed, with its face value.
    Word {
        /// The word.
        word: String,
        /// Its face value.
        face: i64,
        /// Who played it.
        player: Player,
    },
    /// A game won.
    Game {
        /// The winner.
        winner: Player,
        /// The winner's score.
        score: i64,
        /// The loser's score.
        other: i64,
        /// Turns played.
        turns: u32,
    },
}

/// The most lines the event log and the console keep.
pub(crate) const LOG_LIMIT: usize = 500;

/// A game in play.
pub struct Session {
    pub(crate) game: Box<dyn Referee>,
    /// Who plays each seat, gold's first.
    pub seats: Vec<Seat>,
    /// In simultaneous play, the person whose crossword the screen shows (hot-seat: they
    /// take turns at the screen, as they choose).
    pub at_screen: Player,
    /// The map's title, or the save's.
    pub title: String,
    /// Letters laid on the board this turn and not yet committed.
    pub placed: Vec<Placement>,
    /// The letters picked on the rack, for discarding or trading.
    pub discard_pick: Vec<char>,
    /// Whether rack clicks pick letters to trade (where the rules allow trading).
    pub trading: bool,
    /// The combat dialog, when one is open.
    pub combat: Option<CombatStage>,
    /// The last refusal, in words.
    pub refusal: Option<String>,
    /// What happened, in words, newest last.
    pub log: Vec<String>,
    /// The scripts' output and errors, and live reload notices.
    pub console: Vec<String>,
    /// The newest notice (a file reloaded, the connection lost), shown over the board.
    pub notice: Option<String>,
    /// Counts changes to the game (actions, reloads, undo), so views know when to look again.
    pub generation: u64,
    /// Whether the next player's letters are covered (hot-seat, between turns).
    pub rack_hidden: bool,
    /// Whether racks are covered between turns in hot-seat play.
    pub hide_racks: bool,
    /// In a scripted game, the cell the person picked on the board: the moves offered are
    /// those that name it, and a second cell plays the one move naming both.
    pub picked: Option<Pos>,
    /// Whose crossword the log's last line told laid out, and the log's length then, so that
    /// the same player's next layout replaces that line.
    last_laid_out: Option<(Player, usize)>,
    /// Online, an action of this seat's was sent and not yet answered (whether it was the
    /// spy's, whose suggestion stays laid).
    pub(crate) awaiting: Option<bool>,
    /// Online, in simultaneous play, the crossword last sent until the server shows it.
    pub(crate) sent_layout: Option<Vec<Placement>>,
    feats: Vec<Feat>,
    /// Steps of a combat waiting for its order of defence.
    pub(crate) pending_steps: Vec<String>,
    /// The defenders of the last combat begun, with their strengths.
    last_defenders: Vec<(WordKey, String, Strength)>,
}

impl Session {
    /// A session for one person at one screen playing `me` (none: watching) in a game
    /// refereed elsewhere (a server): every other seat is played elsewhere, and nothing is
    /// covered between turns (the screen shows only what this seat may see).
    pub fn one_seat(referee: Box<dyn Referee>, me: Option<Player>, title: String) -> Session {
        let seats = (referee.game().seats())
            .map(|p| {
                if me == Some(p) {
                    Seat::Human
                } else {
                    Seat::Elsewhere
                }
            })
            .collect();
        let mut session = Session::new(referee, seats, title);
        session.hide_racks = false;
        session.rack_hidden = false;
        session
    }

    /// A session over the game `referee` shows, with `seats`.
    pub fn new(referee: Box<dyn Referee>, seats: Vec<Seat>, title: String) -> Session {
        let hide_racks = seats.iter().filter(|&&s| s == Seat::Human).count() > 1;
        let at_screen = (0..seats.len())
            .find(|&i| seats[i] == Seat::Human)
            .and_then(Player::seat)
            .unwrap_or(Player::Gold);
        let mut session = Session {
            game: referee,
            seats,
            at_screen,
            title,
            placed: Vec::new(),
            discard_pick: Vec::new(),
            trading: false,
            combat: None,
            refusal: None,
            log: Vec::new(),
            console: Vec::new(),
            notice: None,
            generation: 0,
            rack_hidden: hide_racks,
            hide_racks,
            picked: None,
            last_laid_out: None,
            awaiting: None,
            sent_layout: None,
            feats: Vec::new(),
            pending_steps: Vec::new(),
            last_defenders: Vec::new(),
        };
        session.update();
        session
    }

    /// Wakes `ctx` whenever something comes between frames (an AI's answer, a frame).
    pub fn repaint_with(&mut self, ctx: &egui::Context) {
        self.game.wake_with(ctx);
    }

    /// The referee, for its owner to reach what only it knows.
    pub fn referee(&self) -> &dyn Referee {
        &*self.game
    }

    /// The referee, mutably.
    pub fn referee_mut(&mut self) -> &mut dyn Referee {
        &mut *self.game
    }

    /// The game, as this screen may see it.
    pub fn game(&self) -> &Game {
        self.game.game()
    }

    /// The seat of `player`.
    pub fn seat(&self, player: Player) -> Seat {
        self.seats
            .get(player.index())
            .copied()
            .unwrap_or(Seat::Human)
    }

    /// Whether anyone at this computer plays.
    pub fn has_human(&self) -> bool {
        self.seats.contains(&Seat::Human)
    }

    /// The person who must act now, if it is a person's move.
    pub fn human_to_act(&self) -> Option<Player> {
        let game = self.game();
        let player = if self.at_once() {
            self.at_screen
        } else {
            game.to_act()
        };
        (game.result().is_none() && self.seat(player) == Seat::Human).then_some(player)
    }

    /// Whose rack the board shows: the person to act, else the person playing, else the
    /// player whose turn it is.
    pub fn viewer(&self) -> Player {
        if self.at_once() {
            return self.at_screen;
        }
        if let Some(p) = self.human_to_act() {
            return p;
        }
        self.game()
            .seats()
            .find(|p| self.seat(*p) == Seat::Human)
            .unwrap_or_else(|| self.game().active())
    }

    /// Whether the person to act may lay letters now (their turn, no combat waiting).
    pub fn can_place(&self) -> bool {
        if self.at_once() {
            return self.human_to_act().is_some() && !self.rack_hidden;
        }
        self.human_to_act() == Some(self.game().active())
            && self.combat.is_none()
            && !self.rack_hidden
    }

    /// The letters of `player`'s rack not laid on the board.
    pub fn rack_left(&self, player: Player) -> Vec<char> {
        let mut letters: Vec<char> = self.game().rack_letters(player).chars().collect();
        if player == self.game().active() && !self.at_once() {
            for p in &self.placed {
                if let Some(i) = letters.iter().position(|&c| c == p.letter) {
                    letters.remove(i);
                }
            }
        }
        letters
    }

    /// The letter laid (not committed) at `at`.
    pub fn placed_at(&self, at: Pos) -> Option<char> {
        if self.at_once() {
            return self.own_letter_at(at);
        }
        self.placed.iter().find(|p| p.at == at).map(|p| p.letter)
    }

    /// Lays `letter` from the rack on `at` (a letter already laid there goes back to the rack).
    pub fn place(&mut self, letter: char, at: Pos) -> Result<(), String> {
        if !self.can_place() {
            return Err("it is not your turn to lay letters".into());
        }
        if self.at_once() {
            return self.lay_letter(letter, at);
        }
        let game = self.game();
        if !game.board().letters.contains(at) {
            return Err(format!("{} is off the board", cell_name(at)));
        }
        if game
            .board()
            .letters
            .get(at)
            .copied()
            .flatten()
            .is_some_and(|t| t.player == game.active())
        {
            return Err(format!("{} already holds your letter", cell_name(at)));
        }
        let previous = self.unplace(at);
        if !self.rack_left(self.game().active()).contains(&letter) {
            if let Some(previous) = previous {
                self.placed.push(Placement {
                    at,
                    letter: previous,
                });
            }
            return Err(format!("your rack has no {letter} left"));
        }
        self.placed.push(Placement { at, letter });
        self.refusal = None;
        Ok(())
    }

    /// Takes the laid letter at `at` back to the rack.
    pub fn unplace(&mut self, at: Pos) -> Option<char> {
        if self.at_once() {
            return self.lift_letter(at);
        }
        let i = self.placed.iter().position(|p| p.at == at)?;
        Some(self.placed.remove(i).letter)
    }

    /// Moves the laid letter at `from` to `to`.
    pub fn move_placed(&mut self, from: Pos, to: Pos) -> Result<(), String> {
        if self.at_once() {
            return self.move_letter(from, to);
        }
        let letter = self
            .unplace(from)
            .ok_or_else(|| format!("no letter is laid at {from}"))?;
        self.place(letter, to).inspect_err(|_| {
            self.placed.push(Placement { at: from, letter });
        })
    }

    /// Returns every laid letter to the rack.
    pub fn recall(&mut self) {
        if self.at_once() {
            // A refusal is told by the session's refusal line.
            self.lay_out(Vec::new()).ok();
        }
        self.placed.clear();
    }

    /// Commits the laid letters, opening the combat dialog first when they would attack.
    pub fn request_commit(&mut self) {
        let letters = self.placed.clone();
        match self.game().preview_commit(&letters) {
            Err(e) => self.refusal = Some(e.to_string()),
            Ok(preview) if preview.defenders.is_empty() => self.act(Action::Commit { letters }),
            Ok(preview) => self.combat = Some(CombatStage::Preview { letters, preview }),
        }
    }

    /// Goes on with the previewed attack.
    pub fn proceed(&mut self) {
        if let Some(CombatStage::Preview { letters, .. }) = self.combat.take() {
            self.act(Action::Commit { letters });
        }
    }

    /// Closes the combat dialog; a previewed attack is not made (the letters stay laid).
    pub fn close_combat(&mut self) {
        if matches!(self.combat, Some(CombatStage::Order { .. })) {
            return;
        }
        self.combat = None;
    }

    /// Shows the next step of the resolution; closes the dialog after the last.
    pub fn next_step(&mut self) {
        if let Some(CombatStage::Resolution { steps, shown }) = &mut self.combat {
            if *shown < steps.len() {
                *shown += 1;
            } else {
                self.combat = None;
            }
        }
    }

    /// Moves defender `index` one place earlier in the order.
    pub fn raise_defender(&mut self, index: usize) {
        if let Some(CombatStage::Order { order, .. }) = &mut self.combat
            && index > 0
            && index < order.len()
        {
            order.swap(index - 1, index);
        }
    }

    /// Sends the order of defence (`false`: the engine's automatic order).
    pub fn defend(&mut self, as_ordered: bool) {
        let Some(CombatStage::Order { order, .. }) = self.combat.take() else {
            return;
        };
        let order = as_ordered.then(|| order.into_iter().map(|(k, _, _)| k).collect());
        self.act(Action::Defend { order });
    }

    /// Lifts the word `key` back to the rack.
    pub fn redeploy(&mut self, key: WordKey) {
        self.act(Action::Redeploy { word: key });
    }

    /// Discards the letters picked for discarding.
    pub fn discard_picked(&mut self) {
        let letters: String = self.discard_pick.iter().collect();
        self.act(Action::Discard { letters });
    }

    /// Whether rack clicks pick letters (to discard over the limit, or to trade) instead of
    /// laying them.
    pub fn picking(&self) -> bool {
        self.excess() > 0 || self.trading
    }

    /// Whether the rules let the player to act trade letters now.
    pub fn can_trade(&self) -> bool {
        let game = self.game();
        game.rules().exchange.allowed && self.can_place() && !game.committed_this_turn()
    }

    /// Trades the picked letters back into the pool (the turn ends).
    pub fn trade_picked(&mut self) {
        let letters: String = self.discard_pick.iter().collect();
        self.trading = false;
        self.act(Action::Exchange { letters });
    }

    /// Picks (or unpicks) a rack letter for discarding or trading.
    pub fn toggle_discard(&mut self, letter: char, picked: bool) {
        if picked {
            if let Some(i) = self.discard_pick.iter().position(|&c| c == letter) {
                self.discard_pick.remove(i);
            }
        } else {
            self.discard_pick.push(letter);
        }
    }

    /// Uses the captured token `id`.
    pub fn invoke(&mut self, id: &str) {
        self.act(Action::Invoke { token: id.into() });
    }

    /// Asks the spy; its suggestion is laid on the board, not committed.
    pub fn spy(&mut self) {
        self.placed.clear();
        self.act(Action::Spy);
    }

    /// Whether ending the turn now is allowed: always where the rules allow passing, else
    /// only once something was played.
    pub fn can_end_turn(&self) -> bool {
        let game = self.game();
        game.rules().flow.may_pass || game.committed_this_turn()
    }

    /// Whether the rules let the player to act call sudden death now (the engine still judges
    /// whether they cannot make a word, and refuses in words if they can).
    pub fn may_call_sudden_death(&self) -> bool {
        self.game().sudden_death_open()
    }

    /// Concedes the game for the player to act (where the rules allow it).
    pub fn forfeit(&mut self) {
        self.placed.clear();
        self.act(Action::Forfeit);
    }

    /// Ends the turn (letters laid and not committed go back to the rack).
    pub fn end_turn(&mut self) {
        self.placed.clear();
        self.act(Action::EndTurn);
    }

    /// Letters over the rack's limit that the person to act must discard.
    pub fn excess(&self) -> usize {
        self.human_to_act()
            .map_or(0, |p| self.game().rack_excess(p).1)
    }

    /// Applies a person's action: refused, it changes nothing and says why.
    pub fn act(&mut self, action: Action) {
        let is_spy = action == Action::Spy;
        match self.game.apply(action) {
            Ok(Outcome::Sent) => {
                self.awaiting = Some(is_spy);
                self.refusal = None;
            }
            Ok(Outcome::Played(events)) => {
                self.generation += 1;
                self.refusal = None;
                if !is_spy {
                    self.placed.clear();
                }
                self.discard_pick.clear();
                self.take_events(&events);
            }
            Err(e) => self.refusal = Some(e),
        }
        self.update();
    }

    /// Puts a loaded game's past `events` in the event log, as they were when it was played.
    pub fn restore_log(&mut self, events: &[Event]) {
        let viewer = self.log_viewer();
        self.log = events
            .iter()
            .filter_map(|e| e.shown_to(viewer))
            .map(|e| self.game().seat_names().render(&describe(&e)))
            .collect();
    }

    /// Who reads the event log: the one person against the AI; nobody in particular when two
    /// people share the screen or two AIs play (then no one's draws are shown).
    fn log_viewer(&self) -> Option<Player> {
        let humans: Vec<Player> = self
            .game()
            .seats()
            .filter(|&p| self.seat(p) == Seat::Human)
            .collect();
        match humans.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// Records what `events` say: the log, the spy's suggestion, the combat's steps, feats,
    /// and the cover over the next player's rack.
    pub(crate) fn take_events(&mut self, events: &[Event]) {
        let mut steps = std::mem::take(&mut self.pending_steps);
        let mut combat = false;
        let viewer = self.log_viewer();
        for event in events {
            if let Some(seen) = event.shown_to(viewer) {
                let text = self.game().seat_names().render(&describe(&seen));
                // A crossword laid out tile by tile is one line, the latest, not a line a tile.
                let laid_out = match event {
                    Event::LaidOut { player, .. } => Some(*player),
                    _ => None,
                };
                let again =
                    laid_out.is_some_and(|p| self.last_laid_out == Some((p, self.log.len())));
                if again {
                    self.log.pop();
                }
                self.log.push(text);
                self.last_laid_out = laid_out.map(|p| (p, self.log.len()));
            }
            match event {
                Event::SpyReport { letters } => self.placed = letters.clone(),
                Event::CombatStarted { defenders, .. } => {
                    combat = true;
                    self.last_defenders = defenders.clone();
                }
                Event::WordCommitted { word, player, .. } => self.feats.push(Feat::Word {
                    word: word.clone(),
                    face: self.face_value(word),
                    player: *player,
                }),
                Event::GameOver { result, .. } => self.game_over(result.winner),
                Event::TurnStarted { player, .. } => {
                    self.rack_hidden = self.hide_racks && self.seat(*player) == Seat::Human;
                }
                // A scripted game's screen is covered when it passes to another person.
                Event::Moved { player, .. } => {
                    let next = self.human_to_act();
                    if next.is_some_and(|p| p != *player) {
                        self.rack_hidden = self.hide_racks;
                    }
                }
                _ => {}
            }
            if combat && is_combat_step(event) {
                steps.push(self.game().seat_names().render(&describe(event)));
            }
            if let Event::DefenceOrderNeeded { defender, .. } = event {
                self.ask_order(*defender, steps);
                steps = Vec::new();
                combat = false;
            }
        }
        let excess = self.log.len().saturating_sub(LOG_LIMIT);
        self.log.drain(..excess);
        if !steps.is_empty() && self.has_human() && !self.combat_open_for_order() {
            self.combat = Some(CombatStage::Resolution { steps, shown: 1 });
        }
    }

    fn combat_open_for_order(&self) -> bool {
        matches!(self.combat, Some(CombatStage::Order { .. }))
    }

    /// The defender orders its defenders: a person through the dialog; the AI on its turn.
    fn ask_order(&mut self, defender: Player, steps: Vec<String>) {
        self.pending_steps = steps;
        if self.seat(defender) != Seat::Human {
            return;
        }
        let keys = self.game().pending_defenders().unwrap_or_default();
        let order = keys
            .into_iter()
            .filter_map(|key| self.last_defenders.iter().find(|d| d.0 == key).cloned())
            .collect();
        self.combat = Some(CombatStage::Order { defender, order });
    }

    fn face_value(&self, word: &str) -> i64 {
        let rules = self.game().rules();
        word.chars().filter_map(|c| rules.letter_value(c)).sum()
    }

    fn game_over(&mut self, winner: Option<Player>) {
        let Some(winner) = winner else { return };
        let other = scryptic_core::game::opponent(winner);
        self.feats.push(Feat::Game {
            winner,
            score: self.game().score(winner).total,
            other: self.game().score(other).total,
            turns: self.game().turn(),
        });
    }

    /// Feats since the last call, for the statistics.
    pub fn drain_feats(&mut self) -> Vec<Feat> {
        std::mem::take(&mut self.feats)
    }

    /// What happens between frames: the referee's news (an AI's move, a reload, a view from
    /// the server, the connection lost and back) taken in.
    pub fn update(&mut self) {
        let dialog_open = self.combat.is_some();
        for heard in self.game.poll(dialog_open) {
            self.hear(heard);
        }
    }

    /// The AI thinking now, and for how long.
    pub fn thinking(&self) -> Option<(Player, Duration)> {
        self.game.thinking()
    }

    /// The AIs' pace, where a person may set it (AIs playing each other here).
    pub fn pace(&mut self) -> Option<&mut Pace> {
        self.game.pace()
    }

    /// The match on a server, when the game is played on one.
    pub fn online(&self) -> Option<OnlineMatch> {
        self.game.online()
    }

    /// Whether this screen watches a match without a seat.
    pub fn watching(&self) -> bool {
        self.online().is_some_and(|o| o.watching)
    }

    /// Who plays `player`'s side, in words.
    pub fn seat_label(&self, player: Player) -> String {
        if let Some(label) = self.game.seat_label(player) {
            return label;
        }
        match self.seat(player) {
            Seat::Human => "person",
            Seat::Ai => "AI",
            Seat::Elsewhere => "elsewhere",
        }
        .to_string()
    }

    /// The legal moves of `player` in a scripted game.
    pub fn moves_of(&self, player: Player) -> Vec<String> {
        self.game.moves_of(player)
    }

    /// Whether there is an action to undo (never online: the server's log is the match's).
    pub fn can_undo(&self) -> bool {
        self.game.can_undo()
    }

    /// Undoes the last action (with the AI's answers to it).
    pub fn undo(&mut self) -> Result<(), String> {
        self.game.undo()?;
        self.game_replaced();
        self.log.push("(undone)".into());
        Ok(())
    }

    /// Whether the round has ended and the match has another.
    pub fn has_next_round(&self) -> bool {
        self.game().match_goes_on()
    }

    /// Starts the match's next round, once this one has ended (online, this seat says it is
    /// ready; the server begins the round when everyone is).
    pub fn next_round(&mut self) -> Result<(), String> {
        match self.game.next_round()? {
            NextRound::Asked => {
                self.log
                    .push("ready for the next round: waiting for the others".into());
            }
            NextRound::Began(console) => {
                self.game_replaced();
                // At one keyboard the round's first player is handed the keyboard as at any
                // turn.
                self.rack_hidden = self.hide_racks;
                self.console_lines(console);
                self.log_round_start();
            }
        }
        Ok(())
    }

    /// The game was replaced whole (undone, a new round): what was laid or asked is gone.
    fn game_replaced(&mut self) {
        self.generation += 1;
        self.placed.clear();
        self.discard_pick.clear();
        self.combat = None;
        self.pending_steps.clear();
        self.refusal = None;
        self.rack_hidden = false;
        self.update();
    }

    /// The grace period's time left, while it runs.
    pub fn grace_left(&self) -> Option<Duration> {
        self.game().red_light_caller()?;
        self.game.grace_left()
    }

    /// The time left for the move the referee's clock waits on, in a match with a move's time.
    pub fn move_left(&self) -> Option<Duration> {
        self.game.move_left()
    }
}

/// Whether `event` is a step of a combat's resolution.
fn is_combat_step(event: &Event) -> bool {
    matches!(
        event,
        Event::CombatStarted { .. }
            | Event::DefenderDefeated { .. }
            | Event::AttackRepelled { .. }
            | Event::AttackSucceeded { .. }
            | Event::IceBroke { .. }
            | Event::CityCaptured { .. }
            | Event::TokenCaptured { .. }
            | Event::GameOver { .. }
    )
}

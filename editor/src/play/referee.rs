//! Where a game in play is refereed: here, by the game with its scripts (undo, saves, the next
//! round, live reloads), or on a server for one seat (the game as the server shows that seat,
//! actions sent and answered by views). The session reads the game and acts through
//! [`Referee`] alone, so the play view is one whether the game runs in the editor or online.

use super::ai_worker::AiWorker;
use super::remote::{Heard, RemoteSeat, occupant_words};
use super::session::{Seat, Session};
use scryptic::Player;
use scryptic::game::{Action, Event, Game};
use scryptic::lexicon::Lexicon;
use scryptic::save::SaveFile;
use scryptic::script::ScriptedGame;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Who referees the game.
pub enum Referee {
    /// This editor, with the game's scripts.
    Here(Box<ScriptedGame>),
    /// A server, for one seat (or a spectator).
    Server(Box<RemoteSeat>),
}

/// What became of an action handed to the referee.
pub enum Outcome {
    /// Played here: what happened.
    Played(Vec<Event>),
    /// Sent to the server: its answer comes as a view or a refusal.
    Sent,
}

impl Referee {
    /// The game as this screen may see it.
    pub fn game(&self) -> &Game {
        match self {
            Referee::Here(game) => game.game(),
            Referee::Server(seat) => seat.game(),
        }
    }

    /// Plays or sends `action`; a refusal in words.
    pub fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        match self {
            Referee::Here(game) => game
                .apply(action)
                .map(Outcome::Played)
                .map_err(|e| e.to_string()),
            Referee::Server(seat) => seat.send(action).map(|()| Outcome::Sent),
        }
    }

    /// The legal moves of `player` in a scripted game: the rules' here, the server's list
    /// for this seat online.
    pub fn moves_of(&self, player: Player) -> Vec<String> {
        match self {
            Referee::Here(game) => game.game().legal_moves(player).unwrap_or_default(),
            Referee::Server(seat) if seat.seat == Some(player) => seat.moves().to_vec(),
            Referee::Server(_) => Vec::new(),
        }
    }
}

impl Session {
    /// A session for a seat of a match on a server (or a spectator): this editor's person
    /// plays that seat; the others play elsewhere.
    pub fn online(seat: RemoteSeat) -> Session {
        let seats = seat
            .game()
            .seats()
            .map(|p| {
                if seat.seat == Some(p) {
                    Seat::Human
                } else {
                    Seat::Elsewhere
                }
            })
            .collect();
        let title = format!("{} (online)", seat.info.title);
        let mut session = Session::new(
            Referee::Server(Box::new(seat)),
            seats,
            scryptic::script::live::LiveFiles::none(),
            title,
        );
        // One person a screen: nothing to cover between turns.
        session.hide_racks = false;
        session.rack_hidden = false;
        session
    }

    /// The game with its scripts, when it runs here.
    pub fn scripted(&self) -> Option<&ScriptedGame> {
        match &self.game {
            Referee::Here(game) => Some(game),
            Referee::Server(_) => None,
        }
    }

    /// The seat on a server this screen plays or watches, when the game runs there.
    pub fn remote(&self) -> Option<&RemoteSeat> {
        match &self.game {
            Referee::Here(_) => None,
            Referee::Server(seat) => Some(seat),
        }
    }

    /// Whether this screen watches a match without a seat.
    pub fn watching(&self) -> bool {
        self.remote().is_some_and(RemoteSeat::watching)
    }

    /// Who plays `player`'s side, in words.
    pub fn seat_label(&self, player: Player) -> String {
        if let Some(remote) = self.remote() {
            return remote.occupant(player);
        }
        match self.seat(player) {
            Seat::Human => "person".to_string(),
            Seat::Ai(level, think) if think.is_on() => format!("AI {level}, think {think}"),
            Seat::Ai(level, _) => format!("AI {level}"),
            Seat::Elsewhere => "elsewhere".to_string(),
        }
    }

    /// Takes in what the server said: views (their events logged as at home, the grace
    /// period's clock set from the server's), refusals, seats coming and going, the
    /// connection lost and back.
    pub(super) fn hear(&mut self) {
        let Referee::Server(seat) = &mut self.game else {
            return;
        };
        let heard = seat.poll();
        for item in heard {
            match item {
                Heard::View {
                    events,
                    dropped,
                    console,
                    grace_left,
                    new_round,
                } => self.take_view(&events, dropped, console, grace_left, new_round),
                Heard::Refused(why) => {
                    self.awaiting = None;
                    self.sent_layout = None;
                    self.log.push(format!("refused: {why}"));
                    self.refusal = Some(why);
                }
                Heard::Seats(info) => {
                    let line = info
                        .seats
                        .iter()
                        .map(|s| format!("{}: {}", s.seat, occupant_words(&s.occupant)))
                        .collect::<Vec<_>>()
                        .join(" · ");
                    self.log.push(format!("seats: {line}"));
                    self.generation += 1;
                }
                Heard::Problem(why) => {
                    self.log.push(format!("the server says: {why}"));
                    self.refusal = Some(why);
                }
                Heard::Lost { why, retrying } => {
                    let then = if retrying { "; connecting again" } else { "" };
                    self.notice = Some(format!("{why}{then}"));
                    self.log.push(format!("{why}{then}"));
                }
                Heard::Back => {
                    self.notice = None;
                    self.log.push("connected again".into());
                }
            }
        }
    }

    fn take_view(
        &mut self,
        events: &[Event],
        dropped: u64,
        console: Vec<String>,
        grace_left: Option<Duration>,
        new_round: bool,
    ) {
        self.generation += 1;
        if dropped > 0 {
            self.log
                .push(format!("({dropped} earlier events not shown)"));
        }
        // The first view after this seat's action is its answer: the letters laid were
        // played (a spy's suggestion is laid by its event).
        if let Some(spy) = self.awaiting.take() {
            if !spy {
                self.placed.clear();
            }
            self.discard_pick.clear();
            self.refusal = None;
        }
        if new_round {
            self.combat = None;
            let game = self.game();
            let first = game.seat_names().name(game.to_act()).to_string();
            let round = game.round_number();
            self.log
                .push(format!("round {round} begins: {first} starts"));
        }
        self.take_events(events);
        self.catch_up_layout();
        self.console.extend(console);
        // The server's clock: the period began as long before now as it has run.
        let grace = self.game().rules().flow.grace_seconds;
        self.red_light_at = grace_left.and_then(|left| {
            let total = Duration::from_secs(u64::try_from(grace).unwrap_or(0));
            Instant::now().checked_sub(total.saturating_sub(left))
        });
    }

    /// Whether there is an action to undo (never online: the server's log is the match's).
    pub fn can_undo(&self) -> bool {
        !self.undo_marks.is_empty()
    }

    /// Undoes the last action (with the AI's answers to it): the game is replayed without it.
    /// Rule and list reloads made since are kept.
    pub fn undo(&mut self) -> Result<(), String> {
        let Referee::Here(game) = &self.game else {
            return Err("a match on a server cannot be undone".into());
        };
        let mark = *self.undo_marks.last().ok_or("nothing to undo")?;
        let mut save = game.save();
        let reloads: Vec<Action> = save.actions[mark..]
            .iter()
            .filter(|a| a.is_reload())
            .cloned()
            .collect();
        save.actions.truncate(mark);
        if let Some(checks) = &mut save.checks {
            checks.truncate(mark);
        }
        save.actions.extend(reloads);
        // The game's own words: a player's word list it was loaded with stays.
        let lexicon = game.game().shared_lexicon();
        let (game, _) =
            ScriptedGame::from_save(&save, lexicon).map_err(|e| format!("cannot undo: {e}"))?;
        self.undo_marks.pop();
        self.replace_game(game);
        self.log.push("(undone)".into());
        Ok(())
    }

    /// Whether the round has ended and the match has another.
    pub fn has_next_round(&self) -> bool {
        self.game().match_goes_on()
    }

    /// Starts the match's next round, once this one has ended: the storage and the rounds so
    /// far carried in. Undo stops at the round's start (a finished round stays as it ended).
    /// Online, this seat says it is ready; the server begins the round when everyone is.
    pub fn next_round(&mut self) -> Result<(), String> {
        let game = match &mut self.game {
            Referee::Here(game) => game,
            Referee::Server(seat) => {
                seat.ready_for_next()?;
                self.log
                    .push("ready for the next round: waiting for the others".into());
                return Ok(());
            }
        };
        let started = game.next_round().ok_or("the match has no next round")?;
        let (round, problems) = started.map_err(|e| format!("the next round cannot start: {e}"))?;
        self.replace_game(round);
        self.undo_marks.clear();
        // At one keyboard the round's first player is handed the keyboard as at any turn.
        self.rack_hidden = self.hide_racks;
        self.console.extend(problems);
        let game = self.game();
        let first = game.to_act();
        self.log.push(format!(
            "round {} begins: {first} starts",
            game.round_number()
        ));
        Ok(())
    }

    fn replace_game(&mut self, game: ScriptedGame) {
        self.generation += 1;
        self.game = Referee::Here(Box::new(game));
        self.placed.clear();
        self.discard_pick.clear();
        self.combat = None;
        self.pending_steps.clear();
        self.refusal = None;
        self.rack_hidden = false;
        // A fresh worker: an AI still thinking about the game replaced is not listened to.
        self.ai = AiWorker::new(&self.seats, self.game().seed());
        self.drain_console();
    }

    /// Saves the game (atomically). Online, the server's whole log is saved, once the match
    /// is over and where it allows that.
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        let cannot = |e: &dyn std::fmt::Display| format!("cannot save {}: {e}", path.display());
        match &self.game {
            Referee::Here(game) => {
                let mut save = game.save();
                // The map's tileset was named from the map's folder; the save may be elsewhere.
                let named = self.tileset.as_ref().and_then(|tileset| {
                    let catalog = crate::catalog();
                    scryptic::pack::level::tileset_reference_from(path, tileset, &catalog)
                });
                if let Some(reference) = named {
                    save.map.tileset = reference;
                }
                save.save(path).map_err(|e| cannot(&e))
            }
            Referee::Server(seat) => {
                let text = seat.save_text().map_err(|e| cannot(&e))?;
                scryptic::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| cannot(&e))
            }
        }
    }
}

/// Loads a saved game, with every event its replay made (the log the game had): with
/// `lexicon`, unless the save was played with a player's own word list, which is read again.
pub fn load_save(path: &Path, lexicon: Arc<Lexicon>) -> Result<(ScriptedGame, Vec<Event>), String> {
    let save = SaveFile::load(path).map_err(|e| e.problems().join("\n"))?;
    let lexicon = match &save.words {
        None => lexicon,
        Some(words) => Arc::new(
            Lexicon::for_save(Some(words)).map_err(|e| format!("{}: {e}", path.display()))?,
        ),
    };
    ScriptedGame::from_save(&save, lexicon).map_err(|e| format!("{}: {e}", path.display()))
}

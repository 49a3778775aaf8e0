//! A finished match stepped through move by move: its log (a save file's text, as a server
//! gives it once the match is over) replayed on the engine up to the move shown. Nothing can be
//! played; every seat is watched. A mode whose rules run scripts cannot be replayed here (the
//! play view runs no Lua): `scryptic replay FILE` replays it.

use crate::referee::{Heard, NextRound, Outcome, Referee};
use scryptic_core::Player;
use scryptic_core::game::{Action, Event, Game};
use scryptic_core::lexicon::Lexicon;
use scryptic_core::save::SaveFile;
use scryptic_protocol::{Occupant, SeatInfo};
use std::any::Any;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A match's log, shown at one of its moves.
pub struct Replay {
    save: Arc<SaveFile>,
    lexicon: Arc<Lexicon>,
    game: Game,
    /// How many of the log's actions are played.
    at: usize,
    /// The last move's events, told once.
    last: Option<Vec<Event>>,
    /// Who sat where, as the server lists the match (none known: empty).
    seats: Arc<Vec<SeatInfo>>,
}

impl Replay {
    /// The log `text` (named `name` in messages), shown before its first move.
    pub fn open(name: &str, text: &str, lexicon: Arc<Lexicon>) -> Result<Replay, String> {
        let save = SaveFile::from_text(Path::new(name), text).map_err(|e| e.to_string())?;
        if !save.scripts.is_empty() {
            return Err(format!(
                "{name}: its mode runs scripts, which a replay here cannot: download it and \
                 replay it with `scryptic replay FILE`"
            ));
        }
        let save = Arc::new(save);
        let game = save.new_game(lexicon.clone());
        Ok(Replay {
            save,
            lexicon,
            game,
            at: 0,
            last: None,
            seats: Arc::default(),
        })
    }

    /// The same replay, its seats labelled by who sat in them (`seats`, as the server lists
    /// the match).
    pub fn seated(mut self, seats: Vec<SeatInfo>) -> Replay {
        self.seats = Arc::new(seats);
        self
    }

    /// The same log shown at move `at` (0: before the first; past the end: the end): the game
    /// replayed from its start. A move the engine refuses (a log made by another version)
    /// stops it there, said.
    pub fn at(&self, at: usize) -> Result<Replay, String> {
        let at = at.min(self.moves());
        let mut game = self.save.new_game(self.lexicon.clone());
        let mut last = None;
        for (i, action) in self.save.actions.iter().take(at).enumerate() {
            let events = game
                .apply(action.clone())
                .map_err(|e| format!("move {} of the log cannot be replayed: {e}", i + 1))?;
            last = Some(events);
        }
        Ok(Replay {
            save: self.save.clone(),
            lexicon: self.lexicon.clone(),
            game,
            at,
            last,
            seats: self.seats.clone(),
        })
    }

    /// The move shown (how many of the log's actions are played).
    pub fn shown(&self) -> usize {
        self.at
    }

    /// How many moves the log holds.
    pub fn moves(&self) -> usize {
        self.save.actions.len()
    }

    /// The move `n` (from 1), as the log writes it.
    pub fn action(&self, n: usize) -> Option<&Action> {
        n.checked_sub(1).and_then(|i| self.save.actions.get(i))
    }
}

impl Referee for Replay {
    fn game(&self) -> &Game {
        &self.game
    }

    fn apply(&mut self, _action: Action) -> Result<Outcome, String> {
        Err("this is a replay: step through it, nothing can be played".into())
    }

    fn moves_of(&self, _player: Player) -> Vec<String> {
        Vec::new()
    }

    fn poll(&mut self, _dialog_open: bool) -> Vec<Heard> {
        self.last.take().map(Heard::Played).into_iter().collect()
    }

    fn next_round(&mut self) -> Result<NextRound, String> {
        Err("a replay has no next round: step through it".into())
    }

    fn grace_left(&self) -> Option<Duration> {
        None
    }

    fn seat_label(&self, player: Player) -> Option<String> {
        let name = self.game.seat_names().name(player).to_string();
        let seat = self.seats.iter().find(|s| s.seat == name)?;
        Some(match &seat.occupant {
            // Whether they are connected now says nothing of the match played.
            Occupant::Person { name, .. } => name.clone(),
            other => crate::server_seat::occupant_words(other),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

//! Simultaneous play (Lexicon Crossing): the person at the screen lays their own crossword out
//! tile by tile, each move a layout the referee checks at once, so it can be rearranged at any
//! time; they signal green or red light when it is complete, jaywalk, and hand the screen to
//! the next person. AI seats and the grace period's clock are the referee's.

use crate::session::{Seat, Session};
use scryptic_core::game::{Action, Placement};
use scryptic_core::{Player, Pos};

impl Session {
    /// Whether everyone plays at once (the rules' `flow.simultaneous`).
    pub fn at_once(&self) -> bool {
        self.game().rules().flow.simultaneous
    }

    /// The letter of the person at the screen's crossword at `at`.
    pub(super) fn own_letter_at(&self, at: Pos) -> Option<char> {
        let tile = self.game().board().letters.get(at).copied().flatten()?;
        (tile.player == self.at_screen).then_some(tile.letter)
    }

    /// The person at the screen's crossword as laid (online, as last sent: the server's
    /// view of it may not have come back yet, and the next tile is laid beside those).
    fn own_layout(&self) -> Vec<Placement> {
        match &self.sent_layout {
            Some(sent) => sent.clone(),
            None => self.game().laid_letters(self.at_screen),
        }
    }

    /// Lays the person at the screen's crossword out as `letters`; the refusal, if any.
    pub(super) fn lay_out(&mut self, letters: Vec<Placement>) -> Result<(), String> {
        let before = self.game().log().len();
        self.act(Action::Layout {
            player: self.at_screen,
            letters: letters.clone(),
        });
        if self.online().is_some() {
            return match &self.refusal {
                None => {
                    self.sent_layout = Some(letters);
                    Ok(())
                }
                Some(why) => Err(why.clone()),
            };
        }
        if self.game().log().len() > before {
            Ok(())
        } else {
            Err(self.refusal.clone().unwrap_or_default())
        }
    }

    /// Lays `letter` from the rack on `at` (a letter of the crossword there goes back).
    pub(super) fn lay_letter(&mut self, letter: char, at: Pos) -> Result<(), String> {
        let mut letters = self.own_layout();
        letters.retain(|p| p.at != at);
        letters.push(Placement { at, letter });
        self.lay_out(letters)
    }

    /// Takes the crossword's letter at `at` back to the rack.
    pub(super) fn lift_letter(&mut self, at: Pos) -> Option<char> {
        let letter = self.own_letter_at(at)?;
        let mut letters = self.own_layout();
        letters.retain(|p| p.at != at);
        self.lay_out(letters).ok().map(|()| letter)
    }

    /// Moves the crossword's letter at `from` to `to` (swapping with a letter there).
    pub(super) fn move_letter(&mut self, from: Pos, to: Pos) -> Result<(), String> {
        let letters = self
            .own_layout()
            .into_iter()
            .map(|p| match p.at {
                at if at == from => Placement { at: to, ..p },
                at if at == to => Placement { at: from, ..p },
                _ => p,
            })
            .collect();
        self.lay_out(letters)
    }

    /// The signal the person at the screen may call now (green light, or red light once the
    /// pool runs low): their crossword complete, no red light called.
    pub fn signal_now(&self) -> Option<Action> {
        let game = self.game();
        let player = self.human_to_act()?;
        if game.red_light_caller().is_some() || game.crossword_lacks(player).is_some() {
            return None;
        }
        Some(if game.green_light_possible() {
            Action::GreenLight { player }
        } else {
            Action::RedLight { player }
        })
    }

    /// Returns `letter` from the person at the screen's rack to the pool and draws one.
    pub fn jaywalk(&mut self, letter: char) {
        self.act(Action::Jaywalk {
            player: self.at_screen,
            letter,
        });
    }

    /// The people who may take the screen (the human seats).
    pub fn human_seats(&self) -> Vec<Player> {
        self.game()
            .seats()
            .filter(|&p| self.seat(p) == Seat::Human)
            .collect()
    }

    /// Hands the screen to `player`, covering the rack when people share it.
    pub fn take_screen(&mut self, player: Player) {
        if player != self.at_screen && self.seat(player) == Seat::Human {
            self.at_screen = player;
            self.rack_hidden = self.hide_racks;
        }
    }

    /// Online, forgets the layout sent once the server's view shows it, or when the game
    /// moved on without it (the round over).
    pub(super) fn catch_up_layout(&mut self) {
        let Some(sent) = &self.sent_layout else {
            return;
        };
        let mut shown = self.game().laid_letters(self.at_screen);
        let mut sent = sent.clone();
        let key = |p: &Placement| (p.at.y, p.at.x, p.letter);
        shown.sort_by_key(key);
        sent.sort_by_key(key);
        if shown == sent || self.game().result().is_some() {
            self.sent_layout = None;
        }
    }
}

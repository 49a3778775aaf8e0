//! Simultaneous play in the editor (Lexicon Crossing): the person at the screen lays their own
//! crossword out tile by tile, each move a layout the engine checks at once, so it can be
//! rearranged at any time; they signal green or red light when it is complete, jaywalk, and
//! hand the screen to the next person. AI seats act in turn as they are ready; the grace
//! period after red light runs on a real clock.

use super::session::{Seat, Session};
use scryptic::game::{Action, Placement};
use scryptic::{Player, Pos};
use std::time::{Duration, Instant};

/// How many times the AI's pace (`Session::ai_delay`) passes between two AI moves when people
/// play too: an AI finds its crossword in a moment, a person takes a while.
const SLOWER_WITH_PEOPLE: f64 = 10.0;

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
        if self.remote().is_some() {
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

    /// The grace period's time left, while it runs.
    pub fn grace_left(&self) -> Option<Duration> {
        let game = self.game();
        game.red_light_caller()?;
        let grace =
            Duration::from_secs(u64::try_from(game.rules().flow.grace_seconds).unwrap_or(0));
        let began = self.red_light_at.unwrap_or_else(Instant::now);
        Some(grace.saturating_sub(began.elapsed()))
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

    /// Starts the grace period's clock at red light, and ends the period when it runs out.
    pub(super) fn run_grace_clock(&mut self) {
        let game = self.game();
        if game.result().is_some() || game.red_light_caller().is_none() {
            return;
        }
        self.red_light_at.get_or_insert_with(Instant::now);
        if self.grace_left().is_some_and(|left| left.is_zero()) {
            self.act(Action::GraceOver);
        }
    }

    /// Sets the next AI seat thinking; with no person at the table, the grace period ends as
    /// soon as every AI has finished.
    pub(super) fn start_ai_at_once(&mut self) {
        // A person laying tiles by hand is given time between the AIs' moves.
        let pace = if self.has_human() {
            self.ai_delay * SLOWER_WITH_PEOPLE
        } else {
            self.ai_delay
        };
        let waited = self
            .last_ai_action
            .map(|t| t.elapsed().as_secs_f64())
            .filter(|waited| *waited < pace);
        if let Some(waited) = waited {
            // Woken when the pace has passed: a person thinking moves no pointer, and the
            // AIs must not wait for one.
            if let Some(ctx) = &self.repaint {
                ctx.request_repaint_after(Duration::from_secs_f64(pace - waited));
            }
            return;
        }
        let started = self
            .ai
            .start_at_once(self.game.game(), self.repaint.clone());
        let game = self.game();
        if !started
            && !self.has_human()
            && game.red_light_caller().is_some()
            && self.ai.all_waiting(game)
        {
            self.act(Action::GraceOver);
        }
    }
}

//! Simultaneous play (`flow.simultaneous`, Lexicon Crossing's LC-4 and LC-5): no turns; each
//! player lays out their own crossword anew whenever they like (`Action::Layout`), and one
//! whose crossword is complete calls green light (`Action::GreenLight`), which has every
//! player draw a letter. Each action names its player; the log orders what happened.

use super::{Action, ActionError, Event, Game, Placement, RackItem, Tile};
use crate::board::{Player, Pos, Terrain};

impl Game {
    /// Refuses an action of the other flow: a turn's action in simultaneous play, or a
    /// simultaneous one in a game of turns.
    pub(super) fn require_flow_of(&self, action: &Action) -> Result<(), ActionError> {
        let simultaneous_action =
            matches!(action, Action::Layout { .. } | Action::GreenLight { .. });
        let reason = match (self.rules.flow.simultaneous, simultaneous_action) {
            (true, false) => {
                "the players act at once here: lay your crossword out (Layout) or call green light"
            }
            (false, true) => "this game is played in turns (flow.simultaneous is false)",
            _ => return Ok(()),
        };
        Err(ActionError::NotThisFlow {
            reason: reason.to_string(),
        })
    }

    /// Lays `player`'s crossword out anew as `letters` (see `Action::Layout`).
    pub(super) fn lay_out(
        &mut self,
        player: Player,
        letters: &[Placement],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_seat(player)?;
        let remaining = self.check_layout(player, letters)?;
        for pos in self.board.letters.positions().collect::<Vec<_>>() {
            if self.board.letters[pos].is_some_and(|t| t.player == player) {
                self.board.letters.set(pos, None);
            }
        }
        for p in letters {
            self.board.letters.set(
                p.at,
                Some(Tile {
                    player,
                    letter: p.letter,
                }),
            );
        }
        let tokens = self
            .player(player)
            .rack
            .iter()
            .filter(|i| matches!(i, RackItem::Token { .. }))
            .cloned();
        let rack: Vec<RackItem> = remaining
            .iter()
            .map(|&c| RackItem::Letter(c))
            .chain(tokens)
            .collect();
        self.player_mut(player).rack = rack;
        events.push(Event::LaidOut {
            player,
            placed: letters.len(),
            on_rack: remaining.len(),
        });
        Ok(())
    }

    /// The letters `player` keeps on their rack after laying `letters` out, or why the layout
    /// cannot be made: a cell off the board, on lava, taken twice, holding or touching another
    /// player's letter, or a letter the player does not hold.
    fn check_layout(
        &self,
        player: Player,
        letters: &[Placement],
    ) -> Result<Vec<char>, ActionError> {
        let bad = |reason: String| Err(ActionError::BadLayout { reason });
        let mut held: Vec<char> = self.rack_letters(player).chars().collect();
        held.extend(
            self.board
                .letters
                .cells()
                .iter()
                .flatten()
                .filter(|t| t.player == player)
                .map(|t| t.letter),
        );
        let mut cells: Vec<Pos> = Vec::with_capacity(letters.len());
        for p in letters {
            let at = super::notation::cell_name(p.at);
            match self.board.terrain.get(p.at) {
                None => return bad(format!("{at} is off the board")),
                Some(Terrain::Lava) => return bad(format!("{at} is lava: nothing stands there")),
                Some(_) => {}
            }
            if cells.contains(&p.at) {
                return bad(format!("{at} is given two letters"));
            }
            cells.push(p.at);
            if self.others_letter_at_or_beside(player, p.at) {
                return bad(format!(
                    "{at} holds or touches another player's letter: each crossword stays apart"
                ));
            }
            let letter = p.letter.to_ascii_uppercase();
            match held.iter().position(|&c| c == letter) {
                Some(i) => {
                    held.swap_remove(i);
                }
                None => return bad(format!("you hold no {letter} for {at}")),
            }
        }
        Ok(held)
    }

    /// Whether another player's letter stands on `at` or beside it.
    fn others_letter_at_or_beside(&self, player: Player, at: Pos) -> bool {
        let letters = &self.board.letters;
        std::iter::once(at)
            .chain(letters.neighbours4(at))
            .any(|c| letters[c].is_some_and(|t| t.player != player))
    }

    /// `player` calls green light: refused unless their crossword is complete; then every
    /// player draws one letter.
    pub(super) fn green_light(
        &mut self,
        player: Player,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_seat(player)?;
        let on_rack = self.rack_letter_count(player);
        if let Some(lacking) = self.crossword().incomplete(player, on_rack) {
            return Err(ActionError::NotComplete {
                reason: lacking.to_string(),
            });
        }
        events.push(Event::GreenLight { player });
        for seat in self.seats().collect::<Vec<_>>() {
            let letters = self.draw(seat, 1);
            if !letters.is_empty() {
                events.push(Event::Drew {
                    player: seat,
                    letters,
                });
            }
        }
        Ok(())
    }

    /// Refuses a player the table does not seat.
    fn require_seat(&self, player: Player) -> Result<(), ActionError> {
        if player.index() < self.players.len() {
            return Ok(());
        }
        Err(ActionError::NotThisFlow {
            reason: format!(
                "there is no {player} at this table: the rules seat {} players",
                self.players.len()
            ),
        })
    }
}

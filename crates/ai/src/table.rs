//! AI players at one table: whose action comes next. In a game of turns, the player to act;
//! in simultaneous play, each seat in turn is asked whether it acts now, and when none does
//! after red light, the grace period is over (AIs finish at once).

use crate::board::Player;
use crate::game::{Action, Game};
use crate::player::AiPlayer;

/// The AI players of a game, one a seat (gold's first).
pub struct AiTable {
    players: Vec<AiPlayer>,
    /// The seat asked first next time, in simultaneous play.
    next_seat: usize,
}

impl AiTable {
    /// A table of `players`, gold's first; a seat beyond them is played by the last.
    pub fn new(players: Vec<AiPlayer>) -> AiTable {
        AiTable {
            players,
            next_seat: 0,
        }
    }

    /// The AI playing `player`.
    fn player_mut(&mut self, player: Player) -> Option<&mut AiPlayer> {
        let last = self.players.len().checked_sub(1)?;
        self.players.get_mut(player.index().min(last))
    }

    /// The next action of the game, or `None` when no AI acts and the game waits for nothing
    /// an AI can do (it is over, or stuck).
    pub fn next_action(&mut self, game: &Game) -> Option<Action> {
        if game.result().is_some() {
            return None;
        }
        if !game.rules().flow.simultaneous {
            let player = game.to_act();
            return Some(self.player_mut(player)?.choose(game));
        }
        let seats = game.seats().count().max(1);
        for _ in 0..seats {
            let seat = Player::seat(self.next_seat % seats)?;
            self.next_seat = (self.next_seat + 1) % seats;
            if let Some(action) = self.player_mut(seat)?.choose_at_once(game, seat) {
                return Some(action);
            }
        }
        game.red_light_caller().map(|_| Action::GraceOver)
    }
}

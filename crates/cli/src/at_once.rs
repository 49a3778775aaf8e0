//! Simultaneous play at one keyboard (Lexicon Crossing): nobody waits for a turn, so the
//! keyboard goes round on request (`pass`); whoever holds it acts for themselves and sees only
//! their own tiles and region. The grace period after red light runs on a real clock, which
//! ends it (the engine's `GraceOver`) the moment its time is out, while a line is being typed
//! at a terminal; a line that comes after (typed too late, or read from a pipe after the time)
//! is refused as late.

use crate::board::{Player, Pos};
use crate::game::notation::{cell_name, column_name};
use crate::game::{Action, Event, Game};
use std::time::{Duration, Instant};

/// The table's commands in simultaneous play.
pub(super) const AT_ONCE_COMMANDS: &str =
    "pass [SEAT]                      hand the keyboard to the next player (or to SEAT)";

/// Who holds the keyboard, and when the grace period began.
#[derive(Debug)]
pub(super) struct AtOnce {
    at_keyboard: Player,
    red_light_at: Option<Instant>,
    /// Whether more than one person shares the keyboard (else nobody to pass it to).
    pub(super) shared: bool,
}

impl AtOnce {
    /// Gold holds the keyboard first; no clock runs.
    pub(super) fn new() -> AtOnce {
        AtOnce {
            at_keyboard: Player::Gold,
            red_light_at: None,
            shared: true,
        }
    }

    /// Who holds the keyboard.
    pub(super) fn at_keyboard(&self) -> Player {
        self.at_keyboard
    }

    /// Gives the keyboard to `player`.
    pub(super) fn hand_to(&mut self, player: Player) {
        self.at_keyboard = player;
    }

    /// `pass` or `pass SEAT`: hands the keyboard on to the next of `people` (the seats people
    /// play; the AI's never hold it), or says why not.
    pub(super) fn pass(
        &mut self,
        game: &Game,
        command: &str,
        people: &[Player],
    ) -> Result<Player, String> {
        let next = match command.split_whitespace().nth(1) {
            None => {
                let after = people
                    .iter()
                    .find(|p| p.index() > self.at_keyboard.index())
                    .or(people.first());
                *after.unwrap_or(&self.at_keyboard)
            }
            Some(name) => match Player::from_name(&name.to_ascii_lowercase()) {
                Some(p) if people.contains(&p) => p,
                Some(p) if game.seats().any(|s| s == p) => {
                    return Err(format!(
                        "{p} is played by the AI: the keyboard stays with people"
                    ));
                }
                _ => {
                    let seats: Vec<String> = game.seats().map(|p| p.to_string()).collect();
                    return Err(format!(
                        "`{name}` is not at this table: {}",
                        seats.join(", ")
                    ));
                }
            },
        };
        self.at_keyboard = next;
        Ok(next)
    }

    /// Starts the clock when `events` tell of red light.
    pub(super) fn note(&mut self, events: &[Event]) {
        if events.iter().any(|e| matches!(e, Event::RedLight { .. })) {
            self.red_light_at = Some(Instant::now());
        }
    }

    /// Sets the clock from the referee's: `left` of the grace period remains (an online
    /// seat shows the server's clock, which ends the period).
    pub(super) fn grace_left_is(&mut self, game: &Game, left: Duration) {
        let grace =
            Duration::from_secs(u64::try_from(game.rules().flow.grace_seconds).unwrap_or(0));
        self.red_light_at = Instant::now().checked_sub(grace.saturating_sub(left));
    }

    /// The grace period's time left, while it runs (for a loaded game, from when it loaded).
    pub(super) fn grace_left(&mut self, game: &Game) -> Option<Duration> {
        game.red_light_caller()?;
        let began = *self.red_light_at.get_or_insert_with(Instant::now);
        let grace =
            Duration::from_secs(u64::try_from(game.rules().flow.grace_seconds).unwrap_or(0));
        Some(grace.saturating_sub(began.elapsed()))
    }

    /// When the grace period ends, while it runs.
    pub(super) fn grace_deadline(&mut self, game: &Game) -> Option<Instant> {
        if game.result().is_some() {
            return None;
        }
        self.grace_left(game).map(|left| Instant::now() + left)
    }

    /// Whether the clock has ended the grace period.
    pub(super) fn time_is_up(&mut self, game: &Game) -> bool {
        game.result().is_none() && self.grace_left(game).is_some_and(|left| left.is_zero())
    }

    /// Refuses the clock's action typed by a player while time is left.
    pub(super) fn check_typed(&mut self, game: &Game, action: &Action) -> Result<(), String> {
        match (action, self.grace_left(game)) {
            (Action::GraceOver, Some(left)) if !left.is_zero() => Err(format!(
                "the clock ends the grace period: {} s left",
                left.as_secs()
            )),
            _ => Ok(()),
        }
    }

    /// The status line of simultaneous play, for the player at the keyboard.
    pub(super) fn status(&mut self, game: &Game) -> String {
        let player = self.at_keyboard;
        let pool = game.pool_letters(player).len();
        let signal = match (self.grace_left(game), game.red_light_caller()) {
            (Some(left), Some(caller)) => format!(
                "{caller} called red light: {} s left to finish",
                left.as_secs()
            ),
            _ if game.green_light_possible() => "green light when complete".to_string(),
            _ => "the pool runs low: red light when complete".to_string(),
        };
        let crossword = match game.crossword_lacks(player) {
            None => "your crossword is complete".to_string(),
            Some(lacking) => format!("your crossword: {lacking}"),
        };
        let jaywalk = if game.may_jaywalk(player) {
            "; you may jaywalk"
        } else {
            ""
        };
        let pass = if self.shared {
            " (`pass` hands it on)"
        } else {
            ""
        };
        format!(
            "round {}: everyone plays at once; {player} at the keyboard{pass}; pool {pool}; {signal}\n{crossword}{jaywalk}{}",
            game.light_round(),
            region_line(self.area(game))
        )
    }

    /// The part of the board the player at the keyboard sees: their own region, if the map
    /// gives them one.
    pub(super) fn area(&self, game: &Game) -> Option<(Pos, Pos)> {
        game.own_region_bounds(self.at_keyboard)
    }
}

/// Where the region of the player at the keyboard lies, by the names they type: past column Z
/// the names have two letters, which the board writes downwards.
fn region_line(area: Option<(Pos, Pos)>) -> String {
    let Some((low, high)) = area else {
        return String::new();
    };
    let (first, last) = (column_name(low.x), column_name(high.x));
    let downwards = if last.len() > 1 {
        " (the board writes their names downwards)"
    } else {
        ""
    };
    format!(
        "\nyour region: columns {first} to {last}{downwards}, rows {} to {}; its top-left cell is {}",
        low.y + 1,
        high.y + 1,
        cell_name(low)
    )
}

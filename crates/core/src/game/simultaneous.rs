//! Simultaneous play (`flow.simultaneous`, Lexicon Crossing's LC-4 to LC-7): no turns; each
//! player lays out their own crossword anew whenever they like (`Action::Layout`), and one
//! whose crossword is complete calls green light (`Action::GreenLight`), which has every
//! player draw and begins a round. Once the pool cannot serve a green light, the first to
//! complete calls red light instead, and the end of its grace period (`Action::GraceOver`,
//! the clients' clock) ends the game. Each action names its player; the log orders what
//! happened.

use super::regions::Regions;
use super::{Action, ActionError, EndReason, Event, Game, GameResult, Placement, RackItem, Tile};
use crate::board::{Player, Pos, Terrain};

/// Where a game of simultaneous play stands between its signals.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(super) struct Lights {
    /// Green lights called so far: the round played is one more.
    green_lights: u32,
    /// Who called the latest green light (none in the first round).
    latest_green: Option<Player>,
    /// The seats that jaywalked this round, a bit each.
    jaywalked: u8,
    /// Who called red light: the grace period runs.
    red_light: Option<Player>,
    /// A green light's caller's letters, face down until the others have laid out.
    withheld: Option<Withheld>,
    /// The board's regions, where players build apart (simultaneous play only): found again
    /// from the terrain, never read from a message.
    #[serde(skip)]
    regions: Option<std::sync::Arc<Regions>>,
}

impl Lights {
    /// The lights as every seat sees them: the letters withheld from a green light's caller
    /// are face down (the caller sees them only once they are theirs; no one else ever).
    pub(super) fn seen(&self) -> Lights {
        let mut seen = self.clone();
        if let Some(withheld) = &mut seen.withheld {
            withheld.letters = withheld
                .letters
                .chars()
                .map(|_| super::HIDDEN_LETTER)
                .collect();
        }
        seen
    }

    /// These lights (read from a message, where regions are not) on the regions of `fresh`,
    /// the lights of a new game on the same map; `None` if they name a player with no seat.
    pub(super) fn on_regions_of(self, fresh: &Lights, seats: usize) -> Option<Lights> {
        let is_seat = |p: Option<Player>| p.is_none_or(|p| p.index() < seats);
        let withheld = self.withheld.as_ref().map(|w| w.caller);
        (is_seat(self.latest_green) && is_seat(self.red_light) && is_seat(withheld)).then(|| {
            Lights {
                regions: fresh.regions.clone(),
                ..self
            }
        })
    }

    /// The lights of a new game: regions found on `terrain` where play is simultaneous.
    pub(super) fn new(simultaneous: bool, terrain: &crate::board::Grid<Terrain>) -> Lights {
        Lights {
            regions: simultaneous.then(|| std::sync::Arc::new(Regions::of(terrain))),
            ..Lights::default()
        }
    }
}

/// Letters drawn for a green light's caller that the caller sees only once every other
/// player has laid out since (`flow.caller_waits`).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct Withheld {
    /// Who called the green light whose draw is withheld.
    caller: Player,
    /// The letters drawn for the caller, shown to them once every other seat laid out (`?` to the others).
    letters: String,
    /// The seats still to lay out, a bit each.
    waiting_on: u8,
}

/// The signals of simultaneous play.
#[derive(Clone, Copy)]
enum Signal {
    Green,
    Red,
}

impl Signal {
    fn name(self) -> &'static str {
        match self {
            Signal::Green => "green light",
            Signal::Red => "red light",
        }
    }
}

/// A seat's bit in a set of seats.
fn bit(player: Player) -> u8 {
    1 << player.index()
}

impl Game {
    /// Refuses an action of the other flow: a turn's action in simultaneous play, or a
    /// simultaneous one in a game of turns.
    pub(super) fn require_flow_of(&self, action: &Action) -> Result<(), ActionError> {
        let simultaneous_action = matches!(
            action,
            Action::Layout { .. }
                | Action::GreenLight { .. }
                | Action::RedLight { .. }
                | Action::GraceOver
                | Action::Jaywalk { .. }
        );
        let scripted_action = matches!(action, Action::Move { .. });
        if self.rules.flow.scripted != scripted_action && !action.is_reload() {
            let reason = if scripted_action {
                "this game's moves are the crossword's (flow.scripted is false)"
            } else {
                "this game's moves are its rules' own: play one of the moves they list (Move)"
            };
            return Err(ActionError::NotThisFlow {
                reason: reason.to_string(),
            });
        }
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
        self.note_layout(player, events);
        Ok(())
    }

    /// After `player` laid out: a green light's caller waiting on them may see their letters.
    fn note_layout(&mut self, player: Player, events: &mut Vec<Event>) {
        let Some(withheld) = &mut self.lights.withheld else {
            return;
        };
        if withheld.caller != player {
            withheld.waiting_on &= !bit(player);
        }
        if withheld.waiting_on == 0 {
            self.reveal_withheld(events);
        }
    }

    /// Puts the letters withheld from a green light's caller on their rack.
    fn reveal_withheld(&mut self, events: &mut Vec<Event>) {
        let Some(Withheld {
            caller, letters, ..
        }) = self.lights.withheld.take()
        else {
            return;
        };
        let rack = &mut self.player_mut(caller).rack;
        rack.extend(letters.chars().map(RackItem::Letter));
        events.push(Event::Drew {
            player: caller,
            letters,
        });
    }

    /// The letters `player` has still to place: on the rack, and any a green light drew them
    /// that they do not see yet.
    pub(super) fn letters_to_place(&self, player: Player) -> usize {
        let withheld = self
            .lights
            .withheld
            .as_ref()
            .filter(|w| w.caller == player)
            .map_or(0, |w| w.letters.chars().count());
        self.rack_letter_count(player) + withheld
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
            if let Some((regions, own)) = self.own_region(player)
                && regions.at(p.at) != Some(own)
            {
                let corner = regions.bounds(own).map(|(low, _)| low).unwrap_or(p.at);
                return bad(format!(
                    "{at} is outside your region (the one from {}): each player builds in their own",
                    super::notation::cell_name(corner)
                ));
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

    /// `player` calls green light: refused unless their crossword is complete and the pool
    /// serves every player's draw; then every player draws and a round begins.
    pub(super) fn green_light(
        &mut self,
        player: Player,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_signal(player, Signal::Green)?;
        // An earlier caller still waiting sees their letters before anyone draws again.
        self.reveal_withheld(events);
        let caller_waits = self.rules.flow.caller_waits && self.seats().count() > 1;
        self.lights.green_lights += 1;
        self.lights.latest_green = Some(player);
        self.lights.jaywalked = 0;
        events.push(Event::GreenLight {
            player,
            round: self.lights.green_lights + 1,
            caller_waits,
        });
        let draw = self.rules.flow.green_light_draw;
        for seat in self.seats().collect::<Vec<_>>() {
            if seat == player && caller_waits {
                self.withhold_draw(player, draw);
                continue;
            }
            let letters = self.draw(seat, draw);
            if !letters.is_empty() {
                events.push(Event::Drew {
                    player: seat,
                    letters,
                });
            }
        }
        Ok(())
    }

    /// Draws `draw` letters for `caller` face down, until the others have laid out.
    fn withhold_draw(&mut self, caller: Player, draw: i64) {
        let mut letters = String::new();
        for _ in 0..draw {
            match self.pool_mut(caller).pop_front() {
                Some(letter) => letters.push(letter),
                None => break,
            }
        }
        let waiting_on = self
            .seats()
            .filter(|&p| p != caller)
            .fold(0, |set, p| set | bit(p));
        self.lights.withheld = Some(Withheld {
            caller,
            letters,
            waiting_on,
        });
    }

    /// `player` calls red light: refused while the pool still serves a green light, or
    /// unless their crossword is complete; then the grace period begins.
    pub(super) fn red_light(
        &mut self,
        player: Player,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_signal(player, Signal::Red)?;
        self.lights.red_light = Some(player);
        events.push(Event::RedLight {
            player,
            grace_seconds: self.rules.flow.grace_seconds,
        });
        Ok(())
    }

    /// The grace period after red light is over: the game ends, the crosswords scored.
    pub(super) fn grace_over(&mut self, events: &mut Vec<Event>) -> Result<(), ActionError> {
        let Some(caller) = self.lights.red_light else {
            return not_now("no grace period runs: it begins when someone calls red light");
        };
        let winner = self.leader();
        let shared = match winner {
            Some(_) => Vec::new(),
            None => self.sharing_the_lead(),
        };
        self.finish(
            GameResult {
                winner,
                reason: EndReason::RedLight { caller, shared },
            },
            events,
        );
        Ok(())
    }

    /// `player` returns `letter` from their rack to the pool, at a place the game's chance
    /// picks, and draws one (see `Action::Jaywalk`).
    pub(super) fn jaywalk(
        &mut self,
        player: Player,
        letter: char,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.require_seat(player)?;
        self.require_jaywalk_allowed(player)?;
        let letter = letter.to_ascii_uppercase();
        let rack = &mut self.player_mut(player).rack;
        let Some(at) = rack.iter().position(|i| *i == RackItem::Letter(letter)) else {
            return not_now(format!(
                "you hold no {letter} on your rack (take it off your crossword first)"
            ));
        };
        rack.remove(at);
        let size = self.pool_letters(player).len();
        let place = rand::RngExt::random_range(&mut self.rng, 0..=size);
        self.pool_mut(player).insert(place, letter);
        self.lights.jaywalked |= bit(player);
        events.push(Event::Jaywalked { player });
        let letters = self.draw(player, 1);
        events.push(Event::Drew { player, letters });
        Ok(())
    }

    /// Refuses a jaywalk the rules or the round do not allow `player`.
    fn require_jaywalk_allowed(&self, player: Player) -> Result<(), ActionError> {
        let lights = &self.lights;
        let reason = if !self.rules.flow.jaywalk {
            "jaywalking is off in these rules (flow.jaywalk)"
        } else if lights.red_light.is_some() {
            "red light was called: no more jaywalking"
        } else if lights.latest_green == Some(player) {
            "the caller of the latest green light may not jaywalk this round"
        } else if lights.jaywalked & bit(player) != 0 {
            "you have jaywalked this round already (once a round)"
        } else if self.pool_letters(player).is_empty() {
            "the pool is empty: there is nothing to draw"
        } else {
            return Ok(());
        };
        not_now(reason)
    }

    /// Whether every player can draw a green light's letters from what is left.
    fn pool_serves_green_light(&self) -> bool {
        let draw = usize::try_from(self.rules.flow.green_light_draw).unwrap_or(usize::MAX);
        match self.rules.supply.pool {
            crate::rules::PoolModel::Shared => {
                self.shared_pool.len() >= draw.saturating_mul(self.seats().count())
            }
            _ => self.seats().all(|p| self.pool_letters(p).len() >= draw),
        }
    }

    /// The letters left to draw: the shared pool's, or the fewest of anyone's own.
    fn fewest_left_to_draw(&self) -> usize {
        self.seats()
            .map(|p| self.pool_letters(p).len())
            .min()
            .unwrap_or(0)
    }

    /// Refuses `signal` unless `player` sits at the table, no red light was called, the pool
    /// calls for this signal (green while it serves a green light, red after) and `player`'s
    /// crossword is complete.
    fn require_signal(&self, player: Player, signal: Signal) -> Result<(), ActionError> {
        self.require_seat(player)?;
        self.require_no_red_light()?;
        let pool = self.fewest_left_to_draw();
        match (signal, self.pool_serves_green_light()) {
            (Signal::Green, false) => {
                return not_now(format!(
                    "the pool holds {pool} letters, too few for every player to draw {}: call red light once your crossword is complete",
                    self.rules.flow.green_light_draw
                ));
            }
            (Signal::Red, true) => {
                return not_now(format!(
                    "the pool still holds {pool} letters, enough for a green light: call green light (red light is for when the pool runs low)"
                ));
            }
            _ => {}
        }
        self.require_complete(player, signal.name())
    }

    /// Refuses a signal once red light was called.
    fn require_no_red_light(&self) -> Result<(), ActionError> {
        match self.lights.red_light {
            Some(caller) => not_now(format!(
                "{caller} called red light: the game ends when the grace period does"
            )),
            None => Ok(()),
        }
    }

    /// Refuses `signal` unless `player`'s crossword is complete.
    fn require_complete(&self, player: Player, signal: &str) -> Result<(), ActionError> {
        match self.crossword_lacks(player) {
            Some(lacking) => Err(ActionError::NotComplete {
                signal: signal.to_string(),
                reason: lacking.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The regions and `player`'s, where the map gives every seat one.
    fn own_region(&self, player: Player) -> Option<(&Regions, u16)> {
        let regions = self.lights.regions.as_deref()?;
        Some((regions, regions.of_player(player, self.players.len())?))
    }

    /// The cells of `player`'s own region, top-left and bottom-right, where the map gives
    /// every seat one (simultaneous play).
    pub fn own_region_bounds(&self, player: Player) -> Option<(Pos, Pos)> {
        let (regions, own) = self.own_region(player)?;
        regions.bounds(own)
    }

    /// The round of simultaneous play under way: 1 before any green light.
    pub fn light_round(&self) -> u32 {
        self.lights.green_lights + 1
    }

    /// Who called red light, once someone has (the grace period runs until `GraceOver`).
    pub fn red_light_caller(&self) -> Option<Player> {
        self.lights.red_light
    }

    /// Whether `player` may jaywalk now (the rules, the round and the pool allow it).
    pub fn may_jaywalk(&self, player: Player) -> bool {
        self.require_jaywalk_allowed(player).is_ok()
    }

    /// Whether the pool still serves a green light (else the signal is red light).
    pub fn green_light_possible(&self) -> bool {
        self.pool_serves_green_light()
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

pub(super) fn not_now<T>(reason: impl Into<String>) -> Result<T, ActionError> {
    Err(ActionError::NotNow {
        reason: reason.into(),
    })
}

//! What scripts may do to a game (SCRIPTING.md): each command is checked like a
//! player's action, and a refused command changes nothing.

use super::{ActionError, Event, Game, RackItem, TokenState};
use crate::board::{Owner, Player, Pos, Terrain};
use serde::{Deserialize, Serialize};

/// A change a script asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScriptCommand {
    /// Changes a cell's terrain; a letter on new lava is destroyed.
    SetTerrain {
        /// The cell.
        at: Pos,
        /// The new terrain.
        terrain: Terrain,
    },
    /// Puts letters on a player's rack (they enter play).
    GiveLetters {
        /// Whose rack.
        player: Player,
        /// The letters.
        letters: String,
    },
    /// Takes letters from a player's rack (they leave play).
    TakeLetters {
        /// Whose rack.
        player: Player,
        /// The letters.
        letters: String,
    },
    /// Adds a token spot.
    PlaceToken {
        /// Its id (unique among cities and tokens).
        id: String,
        /// Its kind.
        kind: String,
        /// Its cell.
        at: Pos,
    },
    /// Gives a city to an owner.
    SetCityOwner {
        /// The city's id.
        city: String,
        /// The new owner.
        owner: Owner,
    },
    /// Adds to a player's base score (may be negative).
    Award {
        /// Who.
        player: Player,
        /// How much.
        points: i64,
    },
}

impl ScriptCommand {
    /// The player the command names, if it names one.
    pub fn player(&self) -> Option<Player> {
        match self {
            ScriptCommand::GiveLetters { player, .. }
            | ScriptCommand::TakeLetters { player, .. }
            | ScriptCommand::Award { player, .. } => Some(*player),
            ScriptCommand::SetTerrain { .. }
            | ScriptCommand::PlaceToken { .. }
            | ScriptCommand::SetCityOwner { .. } => None,
        }
    }
}

/// A script command the engine refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

fn refuse<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError(message.into()))
}

impl Game {
    /// Applies a script's command, or says why not (changing nothing).
    pub fn script_command(&mut self, command: &ScriptCommand) -> Result<Vec<Event>, CommandError> {
        if self.result.is_some() {
            return refuse(ActionError::GameOver.to_string());
        }
        if let Some(player) = command.player()
            && player.index() >= self.players.len()
        {
            return refuse(format!(
                "there is no {player} at this table: the rules seat {} players",
                self.players.len()
            ));
        }
        let mut events = Vec::new();
        match command {
            ScriptCommand::SetTerrain { at, terrain } => {
                self.set_terrain(*at, *terrain, &mut events)?
            }
            ScriptCommand::GiveLetters { player, letters } => {
                self.give_letters(*player, letters)?
            }
            ScriptCommand::TakeLetters { player, letters } => {
                self.take_letters(*player, letters)?
            }
            ScriptCommand::PlaceToken { id, kind, at } => self.place_token(id, kind, *at)?,
            ScriptCommand::SetCityOwner { city, owner } => self.set_city_owner(city, *owner)?,
            ScriptCommand::Award { player, points } => {
                let state = self.player_mut(*player);
                state.base_score = state.base_score.saturating_add(*points);
            }
        }
        self.check_end(&mut events);
        Ok(events)
    }

    fn set_terrain(
        &mut self,
        at: Pos,
        terrain: Terrain,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !self.board.terrain.contains(at) {
            return refuse(format!("{at} is off the board"));
        }
        let destroy = if terrain == Terrain::Lava && self.board.tile(at).is_some() {
            vec![at]
        } else {
            Vec::new()
        };
        let effect = super::Effect {
            terrain: vec![(at, terrain)],
            destroy_letters: destroy,
            ..super::Effect::default()
        };
        let player = self.active;
        let event = self.apply_effect(&effect, player, "", "script");
        if !effect.destroy_letters.is_empty() {
            events.push(event);
        }
        Ok(())
    }

    fn checked_letters(&self, letters: &str) -> Result<Vec<char>, CommandError> {
        let letters: Vec<char> = letters.chars().map(|c| c.to_ascii_uppercase()).collect();
        match letters
            .iter()
            .find(|c| self.rules.letter_value(**c).is_none())
        {
            Some(bad) => refuse(format!("'{bad}' is not a letter of this rule set")),
            None => Ok(letters),
        }
    }

    fn give_letters(&mut self, player: Player, letters: &str) -> Result<(), CommandError> {
        let letters = self.checked_letters(letters)?;
        let held = self.player(player).rack.len();
        if held.saturating_add(letters.len()) > crate::limits::MAX_RACK {
            return refuse(format!(
                "{player}'s rack holds {held} items: {} more would pass the most a rack holds, {}",
                letters.len(),
                crate::limits::MAX_RACK
            ));
        }
        self.initial_letters += letters.len();
        self.player_mut(player)
            .rack
            .extend(letters.into_iter().map(RackItem::Letter));
        Ok(())
    }

    fn take_letters(&mut self, player: Player, letters: &str) -> Result<(), CommandError> {
        let letters = self.checked_letters(letters)?;
        let remaining = super::turn::take_letters(&self.player(player).rack, &letters)
            .map_err(|l| CommandError(format!("{player}'s rack has no {l}")))?;
        let state = self.player_mut(player);
        state.rack = remaining;
        state.lost += letters.len();
        Ok(())
    }

    fn place_token(&mut self, id: &str, kind: &str, at: Pos) -> Result<(), CommandError> {
        if !self.board.terrain.contains(at) {
            return refuse(format!("{at} is off the board"));
        }
        let taken = self.board.tokens.iter().any(|t| *t.id == *id)
            || self.board.cities.iter().any(|c| *c.id == *id);
        if self.board.tokens.len() >= crate::limits::MAX_PIECES {
            return refuse(format!(
                "the board has {} token spots, the most a map may have",
                self.board.tokens.len()
            ));
        }
        let long = [id, kind]
            .iter()
            .any(|s| s.chars().count() > crate::limits::MAX_ID_CHARS);
        if long {
            return refuse(format!(
                "a token spot's id and kind have at most {} characters",
                crate::limits::MAX_ID_CHARS
            ));
        }
        if id.is_empty() || taken {
            return refuse(format!("the id `{id}` is empty or already used"));
        }
        if self
            .board
            .tokens
            .iter()
            .any(|t| t.at == at && !t.captured())
        {
            return refuse(format!("{at} already has a token spot"));
        }
        self.board.tokens.push(TokenState {
            id: id.into(),
            kind: kind.into(),
            at,
            captured_by: None,
        });
        Ok(())
    }

    fn set_city_owner(&mut self, city: &str, owner: Owner) -> Result<(), CommandError> {
        match self
            .board
            .cities
            .iter_mut()
            .find(|c| *c.id == *city && !c.destroyed)
        {
            Some(c) => {
                c.owner = owner;
                Ok(())
            }
            None => refuse(format!("there is no city `{city}`")),
        }
    }
}

//! Tokens (docs/RULES.md section 9). The engine owns capture, rack slots, when an invoke is
//! allowed, and applying an effect; what an effect does comes through [`TokenEffects`], which
//! the scripting host implements in Lua. [`StandardElementals`] is the built-in version of the
//! four standard elementals, with their sizes from the rule set.

use super::{ActionError, Board, Event, Game, RackItem};
use crate::board::{Pos, Terrain};
use crate::rules::RuleSet;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// What a token does to the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Cells whose terrain changes.
    pub terrain: Vec<(Pos, Terrain)>,
    /// Cells whose letters are destroyed.
    pub destroy_letters: Vec<Pos>,
    /// Cells whose cities are destroyed.
    pub destroy_cities: Vec<Pos>,
    /// What the token says to the players, in order.
    pub messages: Vec<String>,
    /// Points awarded to players' base scores.
    pub awards: Vec<(crate::board::Player, i64)>,
}

/// A token being invoked: its kind, its spot's id and cell, and who invokes it.
#[derive(Clone, Copy, Debug)]
pub struct Invocation<'a> {
    /// The token's kind (`volcano`).
    pub kind: &'a str,
    /// The token spot's id.
    pub token: &'a str,
    /// The spot's cell.
    pub spot: Pos,
    /// Who invokes it.
    pub player: crate::board::Player,
}

/// Why a token has no effect to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EffectError {
    /// Nothing defines this kind.
    UnknownKind,
    /// The definition failed (a script error); the message says where and why.
    Failed(String),
}

/// What each token kind does.
pub trait TokenEffects: Send + Sync {
    /// The effect of the token `call` invokes. Randomness must come from `rng`, the game's
    /// generator, or from a generator seeded from the game.
    fn effect(
        &self,
        call: &Invocation<'_>,
        board: &Board,
        rules: &RuleSet,
        rng: &mut ChaCha8Rng,
    ) -> Result<Effect, EffectError>;
}

/// The volcano, drought, flood and firestorm of docs/RULES.md section 9.
#[derive(Clone, Copy, Debug, Default)]
pub struct StandardElementals;

impl TokenEffects for StandardElementals {
    fn effect(
        &self,
        call: &Invocation<'_>,
        board: &Board,
        rules: &RuleSet,
        rng: &mut ChaCha8Rng,
    ) -> Result<Effect, EffectError> {
        let t = &rules.tokens;
        let spot = call.spot;
        Ok(match call.kind {
            "volcano" => volcano(spot, board, t.volcano_cells, rng),
            "drought" => retile(
                board,
                spot,
                t.drought_radius,
                |terrain, _| (terrain == Terrain::Water).then_some(Terrain::Plains),
                false,
            ),
            "flood" => retile(
                board,
                spot,
                t.flood_radius,
                |terrain, city| {
                    (matches!(terrain, Terrain::Plains | Terrain::Forest) && !city)
                        .then_some(Terrain::Water)
                },
                true,
            ),
            "firestorm" => retile(
                board,
                spot,
                t.firestorm_radius,
                |terrain, _| (terrain == Terrain::Forest).then_some(Terrain::Plains),
                false,
            ),
            _ => return Err(EffectError::UnknownKind),
        })
    }
}

/// Cells within `radius` (straight-line distance) of `centre`.
fn within(board: &Board, centre: Pos, radius: i64) -> impl Iterator<Item = Pos> + '_ {
    let r = radius.max(0);
    board.terrain.positions().filter(move |p| {
        let (dx, dy) = (
            i64::from(p.x) - i64::from(centre.x),
            i64::from(p.y) - i64::from(centre.y),
        );
        dx * dx + dy * dy <= r * r
    })
}

/// Changes terrain within `radius` by `change(terrain, has_city)`; with `drown`, letters on
/// changed cells are destroyed.
fn retile(
    board: &Board,
    spot: Pos,
    radius: i64,
    change: impl Fn(Terrain, bool) -> Option<Terrain>,
    drown: bool,
) -> Effect {
    let mut effect = Effect::default();
    for p in within(board, spot, radius) {
        let has_city = board.cities.iter().any(|c| c.at == p && !c.destroyed);
        if let Some(new) = change(board.terrain[p], has_city) {
            effect.terrain.push((p, new));
            if drown && board.letters[p].is_some() {
                effect.destroy_letters.push(p);
            }
        }
    }
    effect
}

/// Lava grown at random from `spot`, one neighbouring cell at a time, over `cells` cells.
fn volcano(spot: Pos, board: &Board, cells: i64, rng: &mut ChaCha8Rng) -> Effect {
    let size = usize::try_from(cells.max(0)).unwrap_or(0);
    let lava = grow_region(board, spot, size, |n| rng.random_range(0..n));
    Effect {
        terrain: lava.iter().map(|&p| (p, Terrain::Lava)).collect(),
        destroy_letters: lava
            .iter()
            .copied()
            .filter(|&p| board.letters[p].is_some())
            .collect(),
        destroy_cities: lava
            .iter()
            .copied()
            .filter(|&p| board.cities.iter().any(|c| c.at == p && !c.destroyed))
            .collect(),
        ..Effect::default()
    }
}

/// A connected region of up to `size` cells grown from `start`: each step adds the cell of
/// those next to the region that `draw(n)` picks (an index below `n`), in the order they were
/// first seen. The engine's volcano draws from the game's generator, a script's region from
/// the scripts' (`game:change`).
pub fn grow_region(
    board: &Board,
    start: Pos,
    size: usize,
    mut draw: impl FnMut(usize) -> usize,
) -> Vec<Pos> {
    if size == 0 {
        return Vec::new();
    }
    let width = board.terrain.width() as usize;
    let index = |p: Pos| p.y as usize * width + p.x as usize;
    let mut taken = vec![false; width * board.terrain.height() as usize];
    taken[index(start)] = true;
    let mut cells = vec![start];
    let mut frontier = Vec::new();
    let mut add_neighbours = |p: Pos, frontier: &mut Vec<Pos>| {
        for n in board.terrain.neighbours4(p) {
            if !std::mem::replace(&mut taken[index(n)], true) {
                frontier.push(n);
            }
        }
    };
    add_neighbours(start, &mut frontier);
    while cells.len() < size && !frontier.is_empty() {
        let next = frontier.swap_remove(draw(frontier.len()));
        cells.push(next);
        add_neighbours(next, &mut frontier);
    }
    cells
}

impl Game {
    pub(super) fn invoke(
        &mut self,
        token: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let player = self.active;
        let slot = self
            .player(player)
            .rack
            .iter()
            .position(|i| matches!(i, RackItem::Token { id, .. } if id == token))
            .ok_or_else(|| ActionError::NoSuchToken {
                token: token.to_string(),
            })?;
        let RackItem::Token { kind, .. } = self.player(player).rack[slot].clone() else {
            return Err(ActionError::NoSuchToken {
                token: token.to_string(),
            });
        };
        let spot = self
            .board
            .tokens
            .iter()
            .find(|t| *t.id == *token)
            .map(|t| t.at)
            .ok_or_else(|| ActionError::NoSuchToken {
                token: token.to_string(),
            })?;
        let mut rng = self.rng.clone();
        let call = Invocation {
            kind: &kind,
            token,
            spot,
            player,
        };
        let effect = self
            .effects
            .effect(&call, &self.board, &self.rules, &mut rng)
            .map_err(|e| match e {
                EffectError::UnknownKind => ActionError::UnknownTokenKind { kind: kind.clone() },
                EffectError::Failed(message) => ActionError::TokenFailed {
                    kind: kind.clone(),
                    message,
                },
            })?;
        self.rng = rng;
        self.player_mut(player).rack.remove(slot);
        let event = self.apply_effect(&effect, player, token, &kind);
        events.push(event);
        Ok(())
    }

    /// Applies what an effect does to the board.
    pub fn apply_effect(
        &mut self,
        effect: &Effect,
        player: crate::board::Player,
        token: &str,
        kind: &str,
    ) -> Event {
        let before = self.board_word_keys();
        let terrain: Vec<(Pos, Terrain)> = effect
            .terrain
            .iter()
            .copied()
            .filter(|&(p, _)| self.board.terrain.contains(p))
            .collect();
        for &(p, t) in &terrain {
            self.board.terrain.set(p, t);
        }
        let removed: Vec<Pos> = effect
            .destroy_letters
            .iter()
            .copied()
            .filter(|&p| self.board.tile(p).is_some())
            .collect();
        self.remove_letters(&removed);
        let mut cities_lost = Vec::new();
        for city in self
            .board
            .cities
            .iter_mut()
            .filter(|c| effect.destroy_cities.contains(&c.at) && !c.destroyed)
        {
            city.destroyed = true;
            cities_lost.push(city.id.to_string());
        }
        self.after_removal(&before);
        for &(to, points) in &effect.awards {
            let state = self.player_mut(to);
            state.base_score = state.base_score.saturating_add(points);
        }
        Event::TokenInvoked {
            player,
            token: token.to_string(),
            kind: kind.to_string(),
            messages: effect.messages.clone(),
            terrain,
            removed,
            cities_lost,
        }
    }
}

//! The table of a scripted game (`flow.scripted`): pieces on the board's cells or in their
//! owners' pits, each with a kind and perhaps a value that only some seats may see, the public
//! variables the game's rules keep, who moves next and whether they choose in secret.
//!
//! The rules (a pack's Lua, through `GameMode`) change a table only through the commands
//! here, each checked as it is made; the engine runs every call on a copy and keeps it only
//! when the whole call succeeds. **Invariant:** a value leaves the table only through
//! `value_for`, `seen_by` and the events' own `seen_by`, which give each seat what it may see.

use super::Event;
use crate::board::{Player, Pos};
use crate::limits::{
    MAX_TABLE_COMMANDS, MAX_TABLE_NAME_CHARS, MAX_TABLE_PIECES, MAX_TABLE_TEXT_CHARS,
    MAX_TABLE_VARS,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A set of seats, a bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The first `count` seats (every seat of a game of `count` players).
    pub fn first(count: usize) -> SeatSet {
        SeatSet((0..count.min(8)).fold(0, |bits, i| bits | 1 << i))
    }

    /// Only `player`.
    pub fn one(player: Player) -> SeatSet {
        SeatSet(1 << player.index())
    }

    /// Whether `player` is in the set.
    pub fn contains(self, player: Player) -> bool {
        self.0 & (1 << player.index()) != 0
    }

    /// The set with `player` added.
    pub fn with(self, player: Player) -> SeatSet {
        SeatSet(self.0 | 1 << player.index())
    }

    /// The seats in both sets.
    pub fn and(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & other.0)
    }

    /// Whether no seat is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in the set, in seat order.
    pub fn seats(self) -> impl Iterator<Item = Player> {
        (0..8)
            .filter(move |i| self.0 & (1 << i) != 0)
            .filter_map(Player::seat)
    }
}

/// Where a piece is: on a cell, or in one of its owner's pits (named by the rules).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Place {
    /// On the board.
    Cell(Pos),
    /// In its owner's pit of this name.
    Pit(String),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Cell(p) => f.write_str(&super::notation::cell_name(*p)),
            Place::Pit(name) => write!(f, "the {name} pit"),
        }
    }
}

/// A piece of a scripted game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Piece {
    /// Whose it is.
    pub owner: Player,
    /// What it is (the rules' word, which also names its sprite); shared, since a search
    /// copies the table at every move.
    pub kind: std::sync::Arc<str>,
    /// Its value: `None` for a piece without one, and for one whose value the viewer may
    /// not see (then `hidden`).
    pub value: Option<i64>,
    /// Whether the value is there but hidden from the viewer.
    pub hidden: bool,
    /// The seats besides its owner who see its value.
    pub shown: SeatSet,
    /// Where it is.
    pub place: Place,
}

/// A variable the rules keep on the table, which every seat may read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Var {
    /// A whole number.
    Int(i64),
    /// A text.
    Text(String),
    /// Yes or no.
    Bool(bool),
}

/// How the rules ended the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TableEnd {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Why, in the rules' words.
    pub reason: String,
}

/// A command the table refused, in words that say what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TableError(pub String);

fn refuse<T>(message: impl Into<String>) -> Result<T, TableError> {
    Err(TableError(message.into()))
}

/// The table: pieces, variables, who moves, and (for the call under way) what changed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Table {
    /// The board's width, in cells.
    width: u32,
    /// Its height.
    height: u32,
    /// How many seats play.
    seats: usize,
    /// Every piece, by id (its index): on a cell or in a pit, its value where the viewer may
    /// see it.
    pieces: Vec<Piece>,
    /// The piece on each cell, row by row.
    at: Vec<Option<u32>>,
    /// The variables the rules keep, which every seat may read (a score, a set's number).
    vars: BTreeMap<String, Var>,
    /// The seats whose move it is, a bit each (bit 0 the first seat).
    to_move: SeatSet,
    /// Whether those seats choose in secret at once (a set-up): each sees only its own choice.
    secret: bool,
    /// In a secret choice, the seats whose choice is complete.
    done: SeatSet,
    /// How the rules ended the game, once they did.
    end: Option<TableEnd>,
    /// Whose view this is (`None`: the whole truth).
    viewer: Option<Option<Player>>,
    /// What the commands of the call under way did, for the engine to report.
    #[serde(skip)]
    events: Vec<Event>,
    #[serde(skip)]
    commands: usize,
    /// The seat this game starts with (a match's rounds set it), if not the first seat.
    first: Option<Player>,
}

impl Table {
    /// An empty table on a board of `width` by `height` cells for `seats` players.
    pub fn new(width: u32, height: u32, seats: usize) -> Table {
        Table {
            width,
            height,
            seats,
            at: vec![None; width as usize * height as usize],
            ..Table::default()
        }
    }

    /// The table of a game that `first` starts (the map's scenario, which a match sets for
    /// each round: the loser of the last, say); the rules read it in `setup`.
    pub fn starting_with(mut self, first: Player) -> Table {
        self.first = Some(first);
        self
    }

    /// The seat this game starts with, as the map's scenario (or the match) says.
    pub fn first(&self) -> Player {
        self.first.unwrap_or(Player::Gold)
    }

    /// The board's width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The board's height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// How many seats play.
    pub fn seat_count(&self) -> usize {
        self.seats
    }

    /// Every piece, by id (its index).
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The piece `id`, if there is one.
    pub fn piece(&self, id: usize) -> Option<&Piece> {
        self.pieces.get(id)
    }

    /// The id of the piece on `cell`, if any.
    pub fn piece_at(&self, cell: Pos) -> Option<usize> {
        let i = self.cell_index(cell)?;
        self.at[i].map(|id| id as usize)
    }

    /// The ids of `owner`'s pieces in the pit `name`, in id order.
    pub fn pit<'a>(&'a self, owner: Player, name: &'a str) -> impl Iterator<Item = usize> + 'a {
        self.pieces.iter().enumerate().filter_map(move |(id, p)| {
            (p.owner == owner && matches!(&p.place, Place::Pit(n) if n == name)).then_some(id)
        })
    }

    /// A variable of the rules.
    pub fn var(&self, name: &str) -> Option<&Var> {
        self.vars.get(name)
    }

    /// Every variable, by name.
    pub fn vars(&self) -> &BTreeMap<String, Var> {
        &self.vars
    }

    /// The seats who may move now.
    pub fn to_move(&self) -> SeatSet {
        self.to_move
    }

    /// Whether the seats to move choose at once and in secret, their choices revealed
    /// together once each is complete.
    pub fn secret(&self) -> bool {
        self.secret
    }

    /// In a secret choice, the seats whose choice is complete.
    pub fn done(&self) -> SeatSet {
        self.done
    }

    /// How the rules ended the game, if they did.
    pub fn end(&self) -> Option<&TableEnd> {
        self.end.as_ref()
    }

    /// Whose view this table is: `None` for the whole truth, `Some(None)` for a spectator's.
    pub fn viewer(&self) -> Option<Option<Player>> {
        self.viewer
    }

    /// Whether `viewer` (`None`: a spectator) may see the value of piece `piece`: its owner
    /// and the seats it is shown to do; a value shown to every seat is public, and a spectator
    /// sees it too (Scryper's used bricks, SC-11).
    pub fn sees(&self, piece: &Piece, viewer: Option<Player>) -> bool {
        let seen_by_all = SeatSet::first(self.seats)
            .seats()
            .all(|p| p == piece.owner || piece.shown.contains(p));
        match viewer {
            Some(v) => v == piece.owner || piece.shown.contains(v),
            None => seen_by_all,
        }
    }

    /// The table as `viewer` sees it (`None`: a spectator): every value they may not see is
    /// taken out, and the piece marked hidden.
    pub fn seen_by(&self, viewer: Option<Player>) -> Table {
        let mut seen = self.clone();
        for (piece, shown) in seen.pieces.iter_mut().zip(&self.pieces) {
            if piece.value.is_some() && !self.sees(shown, viewer) {
                piece.value = None;
                piece.hidden = true;
            }
        }
        seen.viewer = Some(viewer);
        seen.events.clear();
        seen
    }

    /// The values of this truth hidden from `viewer`, by owner and kind, in order. Which
    /// piece holds which value is what is hidden; the values a seat's pieces have are public,
    /// as a game's set of pieces is (Scryper's four bricks of each value, a Stratego army),
    /// so a player (or the AI) may know what the hidden ones are among.
    pub fn unseen_by(&self, viewer: Option<Player>) -> BTreeMap<(Player, &str), Vec<i64>> {
        let mut unseen: BTreeMap<(Player, &str), Vec<i64>> = BTreeMap::new();
        for piece in &self.pieces {
            if let Some(v) = piece.value
                && !self.sees(piece, viewer)
            {
                unseen
                    .entry((piece.owner, &piece.kind))
                    .or_default()
                    .push(v);
            }
        }
        for values in unseen.values_mut() {
            values.sort_unstable();
        }
        unseen
    }

    /// A possible truth behind a view: the hidden pieces given `values` (by id), and the
    /// copy no longer a view, so that a search can play on it.
    pub fn assuming(&self, values: &BTreeMap<usize, i64>) -> Table {
        let mut table = self.clone();
        for (&id, &value) in values {
            if let Some(p) = table.pieces.get_mut(id)
                && p.hidden
            {
                p.value = Some(value);
                p.hidden = false;
            }
        }
        table.viewer = None;
        table
    }

    /// Deals the pieces' ids anew at random within each owner's pieces of a kind, so that an
    /// id says nothing of a hidden value (a setup makes pieces in order of value); returns
    /// each old id's new one.
    pub fn shuffle_ids(&mut self, rng: &mut impl rand::Rng) -> Vec<usize> {
        use rand::seq::SliceRandom;
        let mut new_id: Vec<usize> = (0..self.pieces.len()).collect();
        let mut groups: BTreeMap<(Player, &str), Vec<usize>> = BTreeMap::new();
        for (id, p) in self.pieces.iter().enumerate() {
            groups.entry((p.owner, &*p.kind)).or_default().push(id);
        }
        for ids in groups.into_values() {
            let mut dealt = ids.clone();
            dealt.shuffle(rng);
            for (old, new) in ids.into_iter().zip(dealt) {
                new_id[old] = new;
            }
        }
        let mut pieces = self.pieces.clone();
        for (old, piece) in self.pieces.drain(..).enumerate() {
            pieces[new_id[old]] = piece;
        }
        self.pieces = pieces;
        for cell in self.at.iter_mut().flatten() {
            *cell = new_id[*cell as usize] as u32;
        }
        for event in &mut self.events {
            if let Event::PieceMoved { piece, .. }
            | Event::PieceShown { piece, .. }
            | Event::PieceHidden { piece, .. } = event
            {
                *piece = new_id[*piece];
            }
        }
        new_id
    }

    /// The ids of the pieces hidden from this view's viewer, in an order that depends only on
    /// what the viewer sees: cells in reading order, then pits by owner and name.
    pub fn hidden_in_place_order(&self) -> Vec<usize> {
        let mut hidden: Vec<(u8, u32, u32, Player, &str, usize)> = self
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.hidden)
            .map(|(id, p)| match &p.place {
                Place::Cell(c) => (0, c.y, c.x, p.owner, "", id),
                Place::Pit(name) => (1, 0, 0, p.owner, name.as_str(), id),
            })
            .collect();
        hidden.sort();
        hidden.into_iter().map(|h| h.5).collect()
    }

    /// Takes what the commands since the last call did.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.commands = 0;
        std::mem::take(&mut self.events)
    }

    fn cell_index(&self, cell: Pos) -> Option<usize> {
        (cell.x < self.width && cell.y < self.height)
            .then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    /// Counts a command against the bound of one call, and refuses it on a view: a player's
    /// view is for reading.
    fn command(&mut self) -> Result<(), TableError> {
        if self.viewer.is_some() {
            return refuse("a player's view of the table only reads");
        }
        self.commands += 1;
        if self.commands > MAX_TABLE_COMMANDS {
            return refuse(format!(
                "one call made more than {MAX_TABLE_COMMANDS} commands"
            ));
        }
        Ok(())
    }

    fn seat(&self, player: Player) -> Result<Player, TableError> {
        if player.index() < self.seats {
            Ok(player)
        } else {
            refuse(format!(
                "{player} does not play: this game has {} seats",
                self.seats
            ))
        }
    }

    fn existing(&self, id: usize) -> Result<&Piece, TableError> {
        self.pieces.get(id).ok_or_else(|| {
            TableError(format!(
                "there is no piece {id} (the pieces are 0 to {})",
                self.pieces.len().saturating_sub(1)
            ))
        })
    }

    fn free_cell(&self, cell: Pos) -> Result<usize, TableError> {
        let name = super::notation::cell_name(cell);
        let i = self.cell_index(cell).ok_or_else(|| {
            TableError(format!(
                "{name} is off the board ({} by {})",
                self.width, self.height
            ))
        })?;
        match self.at[i] {
            Some(other) => refuse(format!(
                "{name} holds piece {other}: move it away first (one piece a cell)"
            )),
            None => Ok(i),
        }
    }

    /// Adds a piece of `owner`'s; returns its id.
    pub fn add(
        &mut self,
        owner: Player,
        kind: &str,
        value: Option<i64>,
        place: Place,
    ) -> Result<usize, TableError> {
        self.command()?;
        self.seat(owner)?;
        check_name("a piece's kind", kind)?;
        if self.pieces.len() >= MAX_TABLE_PIECES {
            return refuse(format!("a table holds at most {MAX_TABLE_PIECES} pieces"));
        }
        self.check_place(&place)?;
        let id = self.pieces.len();
        self.pieces.push(Piece {
            owner,
            kind: kind.into(),
            value,
            hidden: false,
            shown: SeatSet::EMPTY,
            place: Place::Pit(String::new()),
        });
        self.put(id, place);
        Ok(id)
    }

    fn check_place(&self, place: &Place) -> Result<(), TableError> {
        match place {
            Place::Cell(c) => self.free_cell(*c).map(drop),
            Place::Pit(name) => check_name("a pit's name", name),
        }
    }

    /// Puts piece `id` at `place` (checked), recording the move.
    fn put(&mut self, id: usize, place: Place) {
        let from = std::mem::replace(&mut self.pieces[id].place, place.clone());
        if let Place::Cell(c) = &from
            && let Some(i) = self.cell_index(*c)
        {
            self.at[i] = None;
        }
        if let Place::Cell(c) = &place
            && let Some(i) = self.cell_index(*c)
        {
            self.at[i] = Some(id as u32);
        }
        let piece = &self.pieces[id];
        self.events.push(Event::PieceMoved {
            piece: id,
            owner: piece.owner,
            kind: piece.kind.to_string(),
            from,
            to: place,
        });
    }

    /// Moves piece `id` to `place`: a free cell of the board, or a pit of its owner's.
    pub fn move_to(&mut self, id: usize, place: Place) -> Result<(), TableError> {
        self.command()?;
        self.existing(id)?;
        if self.pieces[id].place == place {
            return Ok(());
        }
        self.check_place(&place)?;
        self.put(id, place);
        Ok(())
    }

    /// Shows piece `id`'s value to `seats` (besides those who see it already).
    pub fn show(&mut self, id: usize, seats: SeatSet) -> Result<(), TableError> {
        self.command()?;
        let piece = self.existing(id)?;
        if piece.value.is_none() {
            return refuse(format!("piece {id} has no value to show"));
        }
        let to = seats.and(SeatSet::first(self.seats));
        self.pieces[id].shown = SeatSet(piece.shown.0 | to.0);
        let piece = &self.pieces[id];
        self.events.push(Event::PieceShown {
            piece: id,
            owner: piece.owner,
            kind: piece.kind.to_string(),
            at: piece.place.clone(),
            value: piece.value,
            to,
        });
        Ok(())
    }

    /// Hides piece `id`'s value again from everyone but its owner.
    pub fn hide(&mut self, id: usize) -> Result<(), TableError> {
        self.command()?;
        let piece = self.existing(id)?;
        let (owner, kind, at) = (piece.owner, piece.kind.to_string(), piece.place.clone());
        self.pieces[id].shown = SeatSet::EMPTY;
        self.events.push(Event::PieceHidden {
            piece: id,
            owner,
            kind,
            at,
        });
        Ok(())
    }

    /// Sets the rules' variable `name` (every seat may read it).
    pub fn set_var(&mut self, name: &str, value: Var) -> Result<(), TableError> {
        self.command()?;
        check_name("a variable's name", name)?;
        if let Var::Text(t) = &value
            && t.chars().count() > MAX_TABLE_TEXT_CHARS
        {
            return refuse(format!(
                "the variable {name}'s text is longer than {MAX_TABLE_TEXT_CHARS} characters"
            ));
        }
        if !self.vars.contains_key(name) && self.vars.len() >= MAX_TABLE_VARS {
            return refuse(format!("the rules keep at most {MAX_TABLE_VARS} variables"));
        }
        self.vars.insert(name.to_string(), value);
        Ok(())
    }

    /// Gives the next move to `player` alone.
    pub fn give_turn(&mut self, player: Player) -> Result<(), TableError> {
        self.command()?;
        self.seat(player)?;
        self.to_move = SeatSet::one(player);
        self.secret = false;
        self.done = SeatSet::EMPTY;
        Ok(())
    }

    /// Lets every seat of `seats` choose at once, in secret: each one's moves are kept from
    /// the others until every one's choice is complete (`choice_done`), then all are made
    /// and revealed together.
    pub fn choose_in_secret(&mut self, seats: SeatSet) -> Result<(), TableError> {
        self.command()?;
        let seats = seats.and(SeatSet::first(self.seats));
        if seats.is_empty() {
            return refuse("a secret choice needs at least one seat that plays");
        }
        self.to_move = seats;
        self.secret = true;
        self.done = SeatSet::EMPTY;
        Ok(())
    }

    /// Whether this table (read from a message) fits `fresh`, the table of a new game on the
    /// same map and rules: the same size and seats, a cell index that matches its pieces'
    /// places, every piece a seat's and every count bounded; or what does not fit.
    pub(super) fn check_fits(&self, fresh: &Table) -> Result<(), String> {
        let (width, height, seats) = (fresh.width, fresh.height, fresh.seats);
        let cells = width as usize * height as usize;
        if (self.width, self.height, self.seats) != (width, height, seats) {
            return Err(format!(
                "a table of {} by {} for {} seats on a board of {width} by {height} for {seats}",
                self.width, self.height, self.seats
            ));
        }
        if self.at.len() != cells
            || self.pieces.len() > MAX_TABLE_PIECES
            || self.vars.len() > MAX_TABLE_VARS
        {
            return Err("its cells, pieces or variables are miscounted".into());
        }
        let long = |t: &str, most: usize| t.chars().count() > most;
        let long_var = self.vars.iter().any(|(name, value)| {
            long(name, MAX_TABLE_NAME_CHARS)
                || matches!(value, Var::Text(t) if long(t, MAX_TABLE_TEXT_CHARS))
        });
        let long_piece = self.pieces.iter().any(|p| {
            long(&p.kind, MAX_TABLE_NAME_CHARS)
                || matches!(&p.place, Place::Pit(pit) if long(pit, MAX_TABLE_NAME_CHARS))
        });
        if long_var || long_piece {
            return Err("a name or text is longer than a table's".into());
        }
        for (id, piece) in self.pieces.iter().enumerate() {
            if piece.owner.index() >= seats {
                return Err(format!("piece {id} belongs to no seat"));
            }
            if let Place::Cell(at) = piece.place {
                let index = at.y as usize * width as usize + at.x as usize;
                let here = (at.x < width && at.y < height).then(|| self.at[index]);
                if here != Some(u32::try_from(id).ok()) {
                    return Err(format!("piece {id} is not where its cell says"));
                }
            }
        }
        let placed = self.at.iter().flatten().count();
        let on_cells = self
            .pieces
            .iter()
            .filter(|p| matches!(p.place, Place::Cell(_)))
            .count();
        if placed != on_cells {
            return Err("a cell holds a piece that is elsewhere".into());
        }
        Ok(())
    }

    /// This table as `viewer` sees it, with `player`'s secret choice complete: what a seat
    /// knows of another's choice once it is made (that it is, not what it is).
    pub(super) fn seen_with_choice_done(&self, viewer: Option<Player>, player: Player) -> Table {
        let mut seen = self.seen_by(viewer);
        seen.done = seen.done.with(player);
        seen
    }

    /// Says that `player`'s secret choice is complete.
    pub fn choice_done(&mut self, player: Player) -> Result<(), TableError> {
        self.command()?;
        if !self.secret || !self.to_move.contains(player) {
            return refuse(format!("{player} is not making a secret choice"));
        }
        self.done = self.done.with(player);
        Ok(())
    }

    /// Ends the game: `winner` wins (`None`: a draw) for `reason`.
    pub fn end_game(&mut self, winner: Option<Player>, reason: &str) -> Result<(), TableError> {
        self.command()?;
        if let Some(w) = winner {
            self.seat(w)?;
        }
        self.end = Some(TableEnd {
            winner,
            reason: reason.chars().take(MAX_TABLE_TEXT_CHARS).collect(),
        });
        Ok(())
    }

    /// Says `text` to every seat, or to `to` alone.
    pub fn say(&mut self, text: &str, to: Option<Player>) -> Result<(), TableError> {
        self.command()?;
        if let Some(p) = to {
            self.seat(p)?;
        }
        self.events.push(Event::Said {
            text: text.chars().take(MAX_TABLE_TEXT_CHARS).collect(),
            to,
        });
        Ok(())
    }

    /// Clears the secret choice (before the choices are made in the open).
    pub(super) fn end_secret(&mut self) {
        self.secret = false;
        self.done = SeatSet::EMPTY;
        self.to_move = SeatSet::EMPTY;
    }
}

fn check_name(what: &str, name: &str) -> Result<(), TableError> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_TABLE_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if ok {
        Ok(())
    } else {
        refuse(format!(
            "{what} is 1 to {MAX_TABLE_NAME_CHARS} letters, digits, `_` or `-`: not {:?}",
            name.chars()
                .take(MAX_TABLE_NAME_CHARS + 8)
                .collect::<String>()
        ))
    }
}

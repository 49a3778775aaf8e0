//! One match on the server: its game (the engine and its scripts, the truth nobody sees
//! whole), its seats and their tokens, its AI seats, its connections and what each has been
//! sent. Everything here is synchronous and runs under the match's lock, off the async
//! threads; what a connection is sent is always made from `Game::seen_by` of its seat.

use crate::Clock;
use crate::store::{Entry, LoggedAction, Store, StoredMatch, StoredSeat};
use scryptic_ai::{AiPlayer, Level as AiLevel};
use scryptic_core::board::Player;
use scryptic_core::game::{Action, Event, Game, MoveClock};
use scryptic_core::lexicon::Lexicon;
use scryptic_core::save::SaveFile;
use scryptic_pack::{Catalog, Choice, Level};
use scryptic_protocol::{
    CreateMatch, MatchInfo, MatchState, Occupant, PackFile, PackRef, SeatInfo, SeatRequest,
    SeatTaken, ServerFrame, TakeSeat, View,
};
use scryptic_script::{ReplayOptions, ScriptedGame};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use tokio::sync::mpsc;

mod automatic;
mod listing;
mod seats;
mod thinking;

pub(crate) use thinking::Stepped;

/// How many actions' events a match keeps for connections that fall behind (a client that
/// reconnects later gets the view and a count of the events it missed).
const KEPT_ACTIONS: usize = 512;

use scryptic_protocol::MAX_PERSON_NAME;

/// How long the next round of a match waits for people not ready, unless the server says.
const ROUND_PAUSE_MS: u64 = 60_000;

/// A connection's queue of frames: a reader slower than this many frames is dropped.
pub(crate) const QUEUE_FRAMES: usize = 64;

/// A lobby request or an action refused, and the HTTP status it answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub status: u16,
    pub message: String,
}

impl Refusal {
    pub(crate) fn bad(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 400,
            message: message.into(),
        }
    }

    pub(crate) fn conflict(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 409,
            message: message.into(),
        }
    }

    /// The match is served by the process at `base`: the request is sent on there (307).
    pub(crate) fn elsewhere(base: String) -> Refusal {
        Refusal {
            status: 307,
            message: base,
        }
    }

    /// The match could not be brought back (its log, the database): 503, with why.
    pub(crate) fn unavailable(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 503,
            message: message.into(),
        }
    }

    pub(crate) fn forbidden(message: impl Into<String>) -> Refusal {
        Refusal {
            status: 403,
            message: message.into(),
        }
    }
}

struct Seat {
    player: Player,
    occupant: Occupant,
    token_hash: Option<String>,
    /// When a person took it (the last seat taken starts the first move's time).
    taken_ms: Option<u64>,
}

/// What one accepted action did, kept for the connections not yet told.
struct Told {
    /// The number of actions after it.
    actions: u64,
    events: Vec<Event>,
    console: Vec<String>,
}

struct Connection {
    id: u64,
    seat: Option<Player>,
    /// Actions whose events it was sent.
    seen: u64,
    frames: mpsc::Sender<String>,
}

/// A match being refereed.
pub(crate) struct Match {
    pub id: String,
    pub created_ms: u64,
    /// When its last action was played (milliseconds since 1970; its making, before any).
    last_moved_ms: u64,
    request: CreateMatch,
    title: String,
    packs: Vec<PackRef>,
    game: ScriptedGame,
    seats: Vec<Seat>,
    ais: Vec<(Player, AiPlayer)>,
    told: VecDeque<Told>,
    actions: u64,
    connections: Vec<Connection>,
    next_connection: u64,
    /// When red light was called, while its grace period runs (milliseconds since 1970).
    red_light_at_ms: Option<u64>,
    /// The tileset its board is drawn with, as a file of one of its packs.
    tileset: Option<PackFile>,
    /// Why the match stopped taking actions: its log could not be written.
    broken: Option<String>,
    /// The next AI seat asked, in simultaneous play (each in turn).
    ai_turn: usize,
    /// Between the rounds of a match: when the round ended, and the people ready for the
    /// next.
    round_over_at_ms: Option<u64>,
    ready: Vec<Player>,
    /// How long the next round waits for people not ready.
    pub round_pause_ms: u64,
    /// How long an AI seat waits before it acts (with only AIs at a table played at once,
    /// between their actions).
    pub ai_pace_ms: u64,
    /// In a game played at once with people, the time every AI seat takes a letter whatever
    /// its level or the match says (the server's `--ai-letter-ms`).
    pub ai_letter_ms: Option<u64>,
    /// In a game played at once with people, each AI seat's clock (by seat index).
    pacers: scryptic_ai::Pacers,
    /// When the next AI seat playing at once with people may act.
    ai_wake_ms: Option<u64>,
    /// Whether AIs of the match are out thinking (`thinking`).
    thinking: bool,
    /// The time every clock of the match reads (the server's).
    pub clock: Clock,
    /// When each seat the move clock waits on began to wait (`flow.move_seconds`).
    move_clock: MoveClock,
    /// Since when nothing has happened in it (no action, nobody came or went): a match quiet
    /// long enough, nobody connected and nothing due, goes to sleep (`asleep`).
    quiet_since_ms: u64,
}

/// A token's hash, as stored.
fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn new_token() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}

fn ai_level(level: &str) -> Result<AiLevel, Refusal> {
    level
        .parse()
        .map_err(|e| Refusal::bad(format!("AI level `{level}`: {e}")))
}

impl Match {
    /// A new match of `request`'s pack and mode from `catalog`, and what to store of it.
    pub(crate) fn create(
        id: String,
        request: CreateMatch,
        catalog: &Catalog,
        lexicon: Arc<Lexicon>,
        now_ms: u64,
    ) -> Result<(Match, StoredMatch), Refusal> {
        if catalog.get(&request.pack).is_none() {
            let mut plays: Vec<&str> = catalog.packs().iter().map(|p| p.id()).collect();
            plays.dedup();
            return Err(Refusal::bad(format!(
                "this server has no pack `{}`: it plays {} (its owner installs the pack, or \
                 serves its folder with --packs)",
                request.pack,
                plays.join(", ")
            )));
        }
        let level = Level::from_pack(catalog, &choice_of(&request))
            .map_err(|e| Refusal::bad(e.to_string()))?;
        let seed = request.seed.unwrap_or_else(|| rand::random::<u64>() >> 11);
        let (game, problems) = ScriptedGame::start_level(&level, lexicon, seed, None)
            .map_err(|e| Refusal::bad(format!("the match cannot start: {e}")))?;
        if let Some(problem) = problems.first() {
            return Err(Refusal::bad(format!("the match cannot start: {problem}")));
        }
        let start = game.save().to_ron();
        let mut seats = open_seats(game.game());
        for (name, wanted) in &request.seats {
            let player = game.game().seat_called(name).map_err(Refusal::bad)?;
            if let SeatRequest::Ai { level } = wanted {
                ai_level(level)?;
                seats[player.index()].occupant = Occupant::Ai {
                    level: level.clone(),
                };
            }
        }
        let stored = StoredMatch {
            id: id.clone(),
            created_ms: now_ms,
            request: request.clone(),
            start,
            seats: seats.iter().map(Seat::stored).collect(),
            actions: Vec::new(),
        };
        let mut built = Match::around(id, now_ms, request, game, seats)?;
        built.tileset = tileset_file(&level, catalog);
        Ok((built, stored))
    }

    /// Finds the tileset again in `catalog` (a match restored from its log: its level is loaded
    /// again for it, once for every match of the same pack, mode, board and settings; none if
    /// it no longer loads, and boards are drawn plain).
    pub(crate) fn find_tileset(&mut self, catalog: &Catalog, found: &mut TilesetsFound) {
        let r = &self.request;
        let key = (
            r.pack.clone(),
            r.mode.clone(),
            r.map.clone(),
            r.settings.clone(),
        );
        let request = &self.request;
        self.tileset = found
            .entry(key)
            .or_insert_with(|| {
                Level::from_pack(catalog, &choice_of(request))
                    .ok()
                    .and_then(|level| tileset_file(&level, catalog))
            })
            .clone();
    }

    /// The match `stored` as its log leaves it: its start replayed, then every action.
    pub(crate) fn restore(stored: StoredMatch, lexicon: Arc<Lexicon>) -> Result<Match, String> {
        let save = SaveFile::from_text(Path::new(&stored.id), &stored.start)
            .map_err(|e| format!("its start cannot be read: {e}"))?;
        let options = ReplayOptions {
            // The server wrote this save from the packs it had: it is its own.
            allow_changed_scripts: true,
            ..ReplayOptions::default()
        };
        let replayed = ScriptedGame::from_save_with(&save, lexicon, options)
            .map_err(|e| format!("its start does not replay: {e}"))?;
        if let Some(stop) = replayed.stopped {
            return Err(format!("its start does not replay: {stop}"));
        }
        let game = replayed.game;
        let mut seats = open_seats(game.game());
        if stored.seats.len() != seats.len() {
            return Err(format!(
                "{} seats stored for a game of {}",
                stored.seats.len(),
                seats.len()
            ));
        }
        for (seat, kept) in seats.iter_mut().zip(&stored.seats) {
            seat.occupant = match &kept.occupant {
                Occupant::Person { name, .. } => Occupant::Person {
                    name: name.clone(),
                    connected: false,
                },
                other => other.clone(),
            };
            seat.token_hash = kept.token_hash.clone();
            seat.taken_ms = kept.taken_ms;
        }
        let mut restored = Match::around(stored.id, stored.created_ms, stored.request, game, seats)
            .map_err(|e| e.message)?;
        restored.start_move_clock(stored.created_ms);
        for (i, logged) in stored.actions.into_iter().enumerate() {
            let events = match logged.entry {
                Entry::Action(action) => restored
                    .game
                    .apply(action)
                    .map_err(|e| format!("its action {} no longer applies: {e}", i + 1))?,
                Entry::NextRound => {
                    restored.game = restored
                        .next_round()
                        .map_err(|e| format!("its entry {}: {e}", i + 1))?;
                    Vec::new()
                }
            };
            restored.record(events, logged.at_ms);
        }
        restored.resume_move_clock();
        Ok(restored)
    }

    fn around(
        id: String,
        created_ms: u64,
        request: CreateMatch,
        game: ScriptedGame,
        seats: Vec<Seat>,
    ) -> Result<Match, Refusal> {
        let save = game.save();
        let packs = save
            .packs
            .iter()
            .map(|p| PackRef {
                id: p.id.clone(),
                version: p.version.clone(),
                sha256: p.hash.clone(),
            })
            .collect();
        let mut ais = Vec::new();
        for seat in &seats {
            if let Occupant::Ai { level } = &seat.occupant {
                let seed = game.game().seed() ^ (seat.player.index() as u64 + 1);
                ais.push((seat.player, AiPlayer::new(ai_level(level)?, seed)));
            }
        }
        let mut built = Match {
            id,
            created_ms,
            last_moved_ms: created_ms,
            title: game.game().map().name.clone(),
            request,
            packs,
            game,
            seats,
            ais,
            told: VecDeque::new(),
            actions: 0,
            connections: Vec::new(),
            next_connection: 0,
            red_light_at_ms: None,
            tileset: None,
            broken: None,
            ai_turn: 0,
            round_over_at_ms: None,
            ready: Vec::new(),
            round_pause_ms: ROUND_PAUSE_MS,
            ai_pace_ms: 0,
            ai_letter_ms: None,
            pacers: Default::default(),
            ai_wake_ms: None,
            thinking: false,
            clock: Clock::default(),
            move_clock: MoveClock::default(),
            quiet_since_ms: created_ms,
        };
        // What the scripts said as the game began is told with the first view.
        let console = built.drain_console();
        built.told.push_back(Told {
            actions: 0,
            events: Vec::new(),
            console,
        });
        Ok(built)
    }

    fn drain_console(&self) -> Vec<String> {
        let lines = self.game.host().drain_console();
        lines.iter().map(ToString::to_string).collect()
    }

    /// Counts an accepted action and keeps what it did for the connections.
    fn record(&mut self, events: Vec<Event>, at_ms: u64) {
        self.actions += 1;
        self.last_moved_ms = at_ms;
        self.quiet_since_ms = at_ms;
        let round_over = self.game().result().is_some();
        if round_over && self.round_over_at_ms.is_none() {
            self.round_over_at_ms = Some(at_ms);
        } else if !round_over {
            self.round_over_at_ms = None;
            self.ready.clear();
        }
        if events.iter().any(|e| matches!(e, Event::RedLight { .. })) {
            self.red_light_at_ms = Some(at_ms);
        }
        self.start_move_clock(at_ms);
        let console = self.drain_console();
        self.told.push_back(Told {
            actions: self.actions,
            events,
            console,
        });
        while self.told.len() > KEPT_ACTIONS {
            self.told.pop_front();
        }
    }

    pub(crate) fn game(&self) -> &Game {
        self.game.game()
    }

    fn stored_seats(&self) -> Vec<StoredSeat> {
        self.seats.iter().map(Seat::stored).collect()
    }

    /// Queues a frame for each connection `frame_for` makes one for; a connection whose
    /// queue is full (a reader that stopped reading) is closed: it may reconnect.
    fn deliver(&mut self, mut frame_for: impl FnMut(&Connection) -> Option<String>) {
        let mut dropped = Vec::new();
        self.connections.retain(|c| {
            let kept = frame_for(c).is_none_or(|text| c.frames.try_send(text).is_ok());
            if !kept {
                dropped.push(c.seat);
            }
            kept
        });
        self.gone(&dropped);
    }

    /// Marks away the seats of connections just dropped that have no other, and tells the
    /// rest (a bounded recursion: each round drops a connection).
    fn gone(&mut self, dropped: &[Option<Player>]) {
        let mut changed = false;
        for player in dropped.iter().flatten() {
            let still = self.connections.iter().any(|c| c.seat == Some(*player));
            if let Occupant::Person { connected, .. } = &mut self.seats[player.index()].occupant
                && *connected
                && !still
            {
                *connected = false;
                changed = true;
            }
        }
        if changed {
            self.send_seats();
        }
    }

    /// Sends each connection its view, with the events it has not been told.
    fn send_views(&mut self) {
        self.send_views_to(None);
    }

    /// As `send_views`, to connection `only` alone if it names one.
    fn send_views_to(&mut self, only: Option<u64>) {
        let mut views = Vec::with_capacity(self.connections.len());
        for c in self
            .connections
            .iter()
            .filter(|c| only.is_none_or(|id| id == c.id))
        {
            views.push((
                c.id,
                scryptic_protocol::write(ServerFrame::View(Box::new(self.view(c.seat, c.seen)))),
            ));
        }
        let actions = self.actions;
        let mut dropped = Vec::new();
        self.connections.retain_mut(|c| {
            let Some((_, text)) = views.iter().find(|(id, _)| *id == c.id) else {
                return true;
            };
            c.seen = actions;
            let kept = c.frames.try_send(text.clone()).is_ok();
            if !kept {
                dropped.push(c.seat);
            }
            kept
        });
        self.gone(&dropped);
    }

    /// The game as `seat` sees it, and what happened after action `seen` as it saw it.
    fn view(&self, seat: Option<Player>, seen: u64) -> View {
        let game = self.game();
        let mut events = Vec::new();
        let mut console = Vec::new();
        for told in self
            .told
            .iter()
            .filter(|t| t.actions > seen || (seen == 0 && t.actions == 0))
        {
            events.extend(told.events.iter().filter_map(|e| e.shown_to(seat)));
            console.extend(told.console.iter().cloned());
        }
        let first_kept = self.told.front().map_or(0, |t| t.actions);
        let moves = match seat {
            Some(p) if game.rules().flow.scripted && game.result().is_none() => {
                game.legal_moves(p).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        View {
            actions: self.actions,
            snapshot: game.seen_by(seat).snapshot(),
            events,
            events_dropped: first_kept.saturating_sub(seen + 1),
            moves,
            console,
            grace_left_ms: self
                .grace_deadline_ms()
                .map(|at| at.saturating_sub(self.clock.now_ms())),
            move_left_ms: self
                .move_runs_out()
                .map(|(_, at)| at.saturating_sub(self.clock.now_ms())),
        }
    }

    /// Plays `action` for `seat` (none: the server's own, its clock), logs it and sends
    /// every connection its view; or why not, having changed nothing.
    pub(crate) fn act(
        &mut self,
        seat: Option<Player>,
        action: Action,
        store: &dyn Store,
    ) -> Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        if let Some(player) = seat {
            self.check_may_act(player, &action)?;
        }
        let at_ms = self.clock.now_ms();
        let state_before = self.state();
        let events = self.game.apply(action.clone()).map_err(|e| e.to_string())?;
        let logged = LoggedAction {
            entry: Entry::Action(action),
            at_ms,
        };
        let seq = self.actions;
        self.record(events, at_ms);
        self.log(store, seq, &logged)?;
        self.send_views();
        // The match's end is said in a frame of its own: the seats' frame, `over`, the winner.
        if self.state() != state_before {
            self.send_seats();
        }
        Ok(())
    }

    /// Appends `logged` as entry `seq`, with the listing it leaves, before anyone is told.
    /// A log that cannot follow stops the match: the game went on where its log could not,
    /// so it takes no more actions, and a restart resumes it where its log ends.
    fn log(&mut self, store: &dyn Store, seq: u64, logged: &LoggedAction) -> Result<(), String> {
        if let Err(e) = store.append(&self.id, seq, logged, &self.listing()) {
            let why = format!("the match stopped: {e}; the server must be restarted");
            self.broken = Some(why.clone());
            return Err(why);
        }
        Ok(())
    }

    /// Refuses an action chosen from the view after `after` actions once the game has moved
    /// on from it (none: any moment will do).
    pub(crate) fn still_at(&self, after: Option<u64>) -> Result<(), String> {
        match after {
            Some(seen) if seen != self.actions => Err(format!(
                "the game moved on: this action was chosen after {seen} actions, and it is at {}; \
                 choose again from the latest view",
                self.actions
            )),
            _ => Ok(()),
        }
    }

    /// Why `player` may not make `action` now, if they may not.
    fn check_may_act(&self, player: Player, action: &Action) -> Result<(), String> {
        let names = self.game().seat_names();
        match self.state() {
            MatchState::Waiting => {
                let open: Vec<&str> = self
                    .seats
                    .iter()
                    .filter(|s| s.occupant == Occupant::Open)
                    .map(|s| names.name(s.player))
                    .collect();
                return Err(format!(
                    "the match waits for every seat to be taken: {} open",
                    open.join(", ")
                ));
            }
            MatchState::Over => return Err("the match is over".to_string()),
            MatchState::Playing if self.game().result().is_some() => {
                return Err("the round is over: `next` when you are ready for the next".to_string());
            }
            MatchState::Playing => {}
        }
        let actor = match action {
            Action::Layout { player, .. }
            | Action::GreenLight { player }
            | Action::RedLight { player }
            | Action::Jaywalk { player, .. }
            | Action::Move { player, .. } => *player,
            Action::GraceOver => {
                return Err("the server's clock ends the grace period".to_string());
            }
            Action::OutOfTime { .. } => {
                return Err("the server's clock says when a move's time is out".to_string());
            }
            a if a.is_reload() => {
                return Err("the match's files are the server's: no seat reloads them".to_string());
            }
            _ => self.game().to_act(),
        };
        if actor != player {
            return Err(format!(
                "you play {}: that is {}'s to do",
                names.name(player),
                names.name(actor)
            ));
        }
        Ok(())
    }

    /// The match as a save file, which `replay` reads.
    pub(crate) fn save_text(&self) -> String {
        self.game.save().to_ron()
    }
}

impl Seat {
    fn stored(&self) -> StoredSeat {
        let occupant = match &self.occupant {
            Occupant::Person { name, .. } => Occupant::Person {
                name: name.clone(),
                connected: false,
            },
            other => other.clone(),
        };
        StoredSeat {
            occupant,
            token_hash: self.token_hash.clone(),
            taken_ms: self.taken_ms,
        }
    }
}

/// Every seat of `game`, open.
fn open_seats(game: &Game) -> Vec<Seat> {
    game.seats()
        .map(|player| Seat {
            player,
            occupant: Occupant::Open,
            token_hash: None,
            taken_ms: None,
        })
        .collect()
}

/// The tilesets found for restored matches, by the pack, mode, board and settings their
/// levels are made of.
pub(crate) type TilesetsFound = std::collections::BTreeMap<
    (
        String,
        String,
        String,
        std::collections::BTreeMap<String, String>,
    ),
    Option<PackFile>,
>;

/// The level `request` names, as the pack loader is asked for it.
fn choice_of(request: &CreateMatch) -> Choice {
    Choice {
        pack: request.pack.clone(),
        mode: request.mode.clone(),
        chapter: 0,
        map: request.map.clone(),
        set: request
            .settings
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        language: String::new(),
        extensions: Vec::new(),
    }
}

/// The tileset `level` draws its board with, as a file of the pack of `catalog` it is in.
fn tileset_file(level: &Level, catalog: &Catalog) -> Option<PackFile> {
    use scryptic_pack::PackFiles;
    let tileset = level.tileset.as_ref()?;
    let packs = catalog.packs();
    let pack = packs.iter().find(|p| match (&p.files, &tileset.files) {
        (PackFiles::Folder(a), PackFiles::Folder(b)) => a == b,
        (PackFiles::Embedded { id: a, .. }, PackFiles::Embedded { id: b, .. }) => a == b,
        _ => false,
    })?;
    Some(PackFile {
        pack: pack.id().to_string(),
        path: tileset.path.clone(),
    })
}

//! A seat of a match on a server, as the play view sees it: the connection (the shared client's
//! WebSocket on its own thread), the match's map and rules from the welcome, and the game as the
//! server last showed it to this seat (its snapshot rebuilt and checked whole), with the moves
//! it may make. Lost connections are made again on a thread of their own with the seat's
//! token, asking for what was missed.

use scryptic::client::{Connection, Incoming, Waker, Welcome, fetch_pack, pack_cache};
use scryptic::game::{Action, Game, SeatNames};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::pack::TilesetRef;
use scryptic::pack::record::pack_hash;
use scryptic::protocol::{ClientFrame, MatchInfo, Occupant, PackFile, ServerFrame, View};
use scryptic::{Player, RuleSet};
use scryptic_play::{Heard, NextRound, OnlineMatch, Outcome, Referee, Seat, Session};
use std::any::Any;
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// How long joining waits for the server's welcome and first view.
const JOIN_WAIT: Duration = Duration::from_secs(15);

/// How long after a connection is lost it is made again, and for how long that is tried.
const RETRY_EVERY: Duration = Duration::from_secs(1);
const RETRY_FOR: Duration = Duration::from_secs(120);

/// The match, seen from one seat (or a spectator's chair).
pub struct RemoteSeat {
    /// The server's address (`http://HOST:PORT`).
    pub base: String,
    /// The match's id.
    pub match_id: String,
    /// The seat's token (none: watching).
    token: Option<String>,
    /// The seat played (none: watching).
    pub seat: Option<Player>,
    /// The match as the lobby describes it.
    pub info: MatchInfo,
    /// The mode's own help, if it has one.
    pub help: Option<String>,
    /// The board's tileset, from the match's pack (this editor's copy, or fetched by hash).
    pub tileset: Option<TilesetRef>,
    /// What became of the match's packs (a pack fetched, or why it could not be).
    pub pack_notes: Vec<String>,
    map: Map,
    rules: RuleSet,
    lexicon: Arc<Lexicon>,
    game: Game,
    moves: Vec<String>,
    actions: u64,
    connection: Option<Connection>,
    /// A connection being made again, on its thread.
    reconnecting: Option<Receiver<Result<Connection, String>>>,
    /// When the connection was lost, and when it is next tried.
    lost: Option<(Instant, Instant)>,
    wake: Option<Waker>,
    /// While a grace period runs, when it ends by the server's clock.
    grace_ends: Option<Instant>,
}

impl RemoteSeat {
    /// Connects to match `id` at `base` with the seat's `token` (none: to watch), and waits for
    /// the welcome and the first view. `wake` is called whenever a frame arrives. Blocks: call
    /// it off the window's thread.
    pub fn join(
        base: &str,
        id: &str,
        token: Option<String>,
        lexicon: Arc<Lexicon>,
        wake: Option<Waker>,
    ) -> Result<RemoteSeat, String> {
        let connection = Connection::open(base, id, token.clone(), None, wake.clone())?;
        let deadline = Instant::now() + JOIN_WAIT;
        let mut welcome = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let incoming = connection
                .incoming
                .recv_timeout(left)
                .map_err(|_| format!("the server at {base} sent no view of match {id}"))?;
            let frame = match incoming {
                Incoming::Frame(frame) => *frame,
                Incoming::Closed { why, .. } => return Err(why),
            };
            if let Some(read) = Welcome::read(&frame) {
                welcome = Some(read?);
                continue;
            }
            match frame {
                ServerFrame::View(view) => {
                    let Some(w) = welcome.take() else {
                        return Err("the server sent a view before its welcome".into());
                    };
                    let View {
                        snapshot,
                        moves,
                        actions,
                        ..
                    } = *view;
                    let game = seen_game(&w.map, &w.rules, &lexicon, snapshot)?;
                    let mut seat = RemoteSeat {
                        base: base.to_string(),
                        match_id: id.to_string(),
                        token,
                        seat: w.seat,
                        info: w.info,
                        help: w.help,
                        tileset: None,
                        pack_notes: Vec::new(),
                        map: w.map,
                        rules: w.rules,
                        lexicon,
                        game,
                        moves,
                        actions,
                        connection: Some(connection),
                        reconnecting: None,
                        lost: None,
                        wake,
                        grace_ends: None,
                    };
                    seat.find_tileset(w.tileset.as_ref());
                    return Ok(seat);
                }
                ServerFrame::Refused { message } | ServerFrame::Error { message } => {
                    return Err(message);
                }
                ServerFrame::Seats { .. } | ServerFrame::Welcome { .. } => {}
            }
        }
    }

    /// Finds the board's tileset `file` names: in this editor's copy of its pack when that
    /// copy's files hash as the match's, else in the pack fetched from the server by its hash
    /// (kept in the data folder's cache, apart from installed packs). Blocks while it fetches.
    fn find_tileset(&mut self, file: Option<&PackFile>) {
        let Some(file) = file else {
            return;
        };
        let Some(wanted) = self.info.packs.iter().find(|p| p.id == file.pack).cloned() else {
            self.pack_notes.push(format!(
                "the server names a tileset in pack {}, which the match does not load",
                file.pack
            ));
            return;
        };
        let here = crate::catalog()
            .get(&wanted.id)
            .filter(|p| pack_hash(p).is_ok_and(|h| h == wanted.sha256))
            .cloned();
        let pack = match here {
            Some(pack) => pack,
            None => {
                let fetched = scryptic::pack::places::data_dir()
                    .ok_or_else(|| "no data folder to keep packs in: set SCRYPTIC_DATA".to_string())
                    .and_then(|data| fetch_pack(&self.base, &wanted, &pack_cache(&data)));
                match fetched {
                    Ok(pack) => {
                        self.pack_notes.push(format!(
                            "fetched pack {} {} from the server (its files hash as the match's)",
                            wanted.id, wanted.version
                        ));
                        pack
                    }
                    Err(e) => {
                        self.pack_notes
                            .push(format!("{e}: the board is drawn plain"));
                        return;
                    }
                }
            }
        };
        self.tileset = Some(TilesetRef {
            files: pack.files.clone(),
            path: file.path.clone(),
        });
    }

    /// The game as the server last showed it to this seat.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The match's map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The moves this seat may make now, in a scripted game.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// Whether this chair watches (no seat).
    pub fn watching(&self) -> bool {
        self.seat.is_none()
    }

    /// Sends the seat's `action`; the answer comes as a view or a refusal.
    pub fn send(&self, action: Action) -> Result<(), String> {
        self.send_frame(ClientFrame::Act { action })
    }

    /// Says this seat is ready for the match's next round.
    pub fn ready_for_next(&self) -> Result<(), String> {
        self.send_frame(ClientFrame::Next)
    }

    fn send_frame(&self, frame: ClientFrame) -> Result<(), String> {
        if self.seat.is_none() {
            return Err("you are watching: spectators do not act".into());
        }
        match &self.connection {
            Some(c) if c.send(frame) => Ok(()),
            _ => Err("the connection to the server is lost: it is being made again".into()),
        }
    }

    /// What the server said since the last look; the game is brought up to date.
    fn heard(&mut self) -> Vec<Heard> {
        let mut heard = Vec::new();
        self.poll_reconnect(&mut heard);
        while let Some(incoming) = self
            .connection
            .as_ref()
            .and_then(|c| c.incoming.try_recv().ok())
        {
            match incoming {
                Incoming::Frame(frame) => heard.extend(self.take(*frame)),
                Incoming::Closed { why, retry } => {
                    self.connection = None;
                    let now = Instant::now();
                    if retry {
                        self.lost = Some((now, now + RETRY_EVERY));
                    }
                    heard.push(Heard::Lost {
                        why,
                        retrying: retry,
                    });
                }
            }
        }
        heard
    }

    /// Starts connecting again when it is time, and takes the connection once made.
    fn poll_reconnect(&mut self, heard: &mut Vec<Heard>) {
        if let Some(receiver) = &self.reconnecting {
            match receiver.try_recv() {
                Ok(Ok(connection)) => {
                    self.connection = Some(connection);
                    self.reconnecting = None;
                    self.lost = None;
                    heard.push(Heard::Back);
                }
                Ok(Err(_)) | Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.reconnecting = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => {}
            }
            return;
        }
        let Some((since, next)) = self.lost else {
            return;
        };
        let now = Instant::now();
        if now.duration_since(since) > RETRY_FOR {
            self.lost = None;
            heard.push(Heard::Lost {
                why: format!(
                    "the server did not come back within {} s",
                    RETRY_FOR.as_secs()
                ),
                retrying: false,
            });
            return;
        }
        if now < next {
            return;
        }
        self.lost = Some((since, now + RETRY_EVERY));
        let (base, id, token) = (self.base.clone(), self.match_id.clone(), self.token.clone());
        let (seen, wake) = (Some(self.actions), self.wake.clone());
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(Connection::open(&base, &id, token, seen, wake.clone()));
            // The answer is looked at on the window's next frame.
            if let Some(wake) = wake {
                wake();
            }
        });
        self.reconnecting = Some(receiver);
    }

    /// Whether a lost connection is being made again (the window looks again in a while).
    pub fn reconnecting(&self) -> bool {
        self.lost.is_some()
    }

    fn take(&mut self, frame: ServerFrame) -> Option<Heard> {
        match frame {
            ServerFrame::Welcome {
                match_info, help, ..
            } => {
                self.info = match_info;
                self.help = help;
                None
            }
            ServerFrame::View(view) => Some(self.take_view(*view)),
            ServerFrame::Seats { match_info } => {
                let line = (match_info.seats.iter())
                    .map(|s| format!("{}: {}", s.seat, occupant_words(&s.occupant)))
                    .collect::<Vec<_>>()
                    .join(" · ");
                self.info = match_info;
                Some(Heard::Seats(line))
            }
            ServerFrame::Refused { message } => Some(Heard::Refused(message)),
            ServerFrame::Error { message } => {
                Some(Heard::Problem(format!("the server says: {message}")))
            }
        }
    }

    fn take_view(&mut self, view: View) -> Heard {
        let game = match seen_game(&self.map, &self.rules, &self.lexicon, view.snapshot) {
            Ok(game) => game,
            Err(e) => return Heard::Problem(e),
        };
        let new_round = game.round_number() != self.game.round_number();
        self.game = game;
        self.actions = view.actions;
        self.moves = view.moves;
        // The server's clock: the period ends as long after now as it has left.
        self.grace_ends = (view.grace_left_ms)
            .and_then(|left| Instant::now().checked_add(Duration::from_millis(left)));
        Heard::View {
            events: view.events,
            dropped: view.events_dropped,
            console: view.console,
            new_round,
        }
    }

    /// Who sits in `player`'s seat, in words (`ada, you`, `ada (away)`, `AI hard`, `open`).
    pub fn occupant(&self, player: Player) -> String {
        let name = SeatNames::of(&self.rules).name(player).to_string();
        let Some(seat) = self.info.seats.iter().find(|s| s.seat == name) else {
            return "?".into();
        };
        let you = if self.seat == Some(player) {
            ", you"
        } else {
            ""
        };
        format!("{}{you}", occupant_words(&seat.occupant))
    }

    /// Gives the seat up (it is open again for anyone), or stops watching.
    pub fn leave(&self) -> Result<(), String> {
        let (Some(token), Some(seat)) = (&self.token, self.seat) else {
            return Ok(());
        };
        scryptic::client::Lobby::new(&self.base).leave(&self.match_id, token)?;
        let name = SeatNames::of(&self.rules).name(seat).to_string();
        let data = scryptic::pack::places::data_dir();
        // A seat given up is not come back to.
        let _ = scryptic::client::forget_token(data.as_deref(), &self.base, &self.match_id, &name);
        Ok(())
    }

    /// The whole match as a save file's text, where the match allows it once over.
    pub fn save_text(&self) -> Result<String, String> {
        scryptic::client::Lobby::new(&self.base).save(&self.match_id)
    }
}

/// A session for a seat of a match on a server (or a spectator): this editor's person plays
/// that seat; the others play elsewhere.
pub fn online_session(seat: RemoteSeat) -> Session {
    let seats = (seat.game().seats())
        .map(|p| {
            if seat.seat == Some(p) {
                Seat::Human
            } else {
                Seat::Elsewhere
            }
        })
        .collect();
    let title = format!("{} (online)", seat.info.title);
    let mut session = Session::new(Box::new(seat), seats, title);
    // One person a screen: nothing to cover between turns.
    session.hide_racks = false;
    session.rack_hidden = false;
    session
}

impl Referee for RemoteSeat {
    fn game(&self) -> &Game {
        &self.game
    }

    fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        self.send(action).map(|()| Outcome::Sent)
    }

    fn moves_of(&self, player: Player) -> Vec<String> {
        if self.seat == Some(player) {
            self.moves.clone()
        } else {
            Vec::new()
        }
    }

    fn poll(&mut self, _dialog_open: bool) -> Vec<Heard> {
        self.heard()
    }

    fn next_round(&mut self) -> Result<NextRound, String> {
        self.ready_for_next().map(|()| NextRound::Asked)
    }

    fn grace_left(&self) -> Option<Duration> {
        self.game.red_light_caller()?;
        let ends = self.grace_ends?;
        Some(ends.saturating_duration_since(Instant::now()))
    }

    fn seat_label(&self, player: Player) -> Option<String> {
        Some(self.occupant(player))
    }

    fn online(&self) -> Option<OnlineMatch> {
        Some(OnlineMatch {
            address: format!("{}/matches/{}", self.base, self.match_id),
            state: self.info.state,
            log_after_end: self.info.log_after_end,
            watching: self.watching(),
            reconnecting: self.reconnecting(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Who sits in a seat, in words (`ada`, `ada (away)`, `AI hard`, `open`).
pub fn occupant_words(occupant: &Occupant) -> String {
    match occupant {
        Occupant::Open => "open".into(),
        Occupant::Person { name, connected } if *connected => name.clone(),
        Occupant::Person { name, .. } => format!("{name} (away)"),
        Occupant::Ai { level } => format!("AI {level}"),
    }
}

/// The game `view` shows, checked against the match's map and rules.
fn seen_game(
    map: &Map,
    rules: &RuleSet,
    lexicon: &Arc<Lexicon>,
    snapshot: scryptic::game::Snapshot,
) -> Result<Game, String> {
    Game::from_snapshot(map, rules.clone(), lexicon.clone(), snapshot)
        .map_err(|e| format!("the server's view cannot be shown: {e}"))
}

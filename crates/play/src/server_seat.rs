//! A seat of a match on a server (or a spectator's chair) as a [`Referee`], through a WebSocket
//! that works natively and in the browser (ewebsock): joining (the hello with the seat's token,
//! the welcome read as every client reads it, the first view), the game rebuilt from each
//! view's snapshot and checked whole, actions sent, and a lost connection made again with the
//! token, asking for what was missed. Nothing here blocks: everything comes through
//! [`Referee::poll`], so a browser's one thread is never held.

use crate::referee::{Heard, NextRound, OnlineMatch, Outcome, Referee};
use ewebsock::{WsEvent, WsMessage, WsSender};
use scryptic_core::game::{Action, Game, SeatNames, Snapshot};
use scryptic_core::lexicon::Lexicon;
use scryptic_core::map::Map;
use scryptic_core::{Player, RuleSet};
use scryptic_protocol::welcome::Welcome;
use scryptic_protocol::{
    ClientFrame, MAX_SERVER_FRAME, MatchInfo, Occupant, PackFile, ServerFrame, View,
};
use std::any::Any;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;
use web_time::Instant;

/// Called whenever something arrives (a window wakes up to look).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// How long after a connection is lost it is made again, and for how long that is tried.
const RETRY_EVERY: Duration = Duration::from_secs(1);
const RETRY_FOR: Duration = Duration::from_secs(120);

/// Where a match is and who asks: the server's address (`http://HOST:PORT`), the match's id,
/// and the seat's token (none: to watch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAddress {
    /// The server's address, `http://HOST:PORT` or `https://...`.
    pub base: String,
    /// The match's id.
    pub match_id: String,
    /// The seat's token (none: watching).
    pub token: Option<String>,
}

impl SeatAddress {
    /// The match's WebSocket address (`ws://` for `http://`, `wss://` for `https://`).
    pub fn socket_url(&self) -> String {
        let base = self.base.trim_end_matches('/');
        let base = match base.strip_prefix("https://") {
            Some(rest) => format!("wss://{rest}"),
            None => format!("ws://{}", base.trim_start_matches("http://")),
        };
        format!("{base}/api/matches/{}/play", self.match_id)
    }
}

/// One WebSocket, and whether it has opened (nothing is sent before).
struct Socket {
    sender: WsSender,
    receiver: Receiver<WsEvent>,
    /// The hello to send once open.
    hello: Option<ClientFrame>,
}

impl Socket {
    fn open(
        address: &SeatAddress,
        seen: Option<u64>,
        wake: Option<&Wake>,
    ) -> Result<Socket, String> {
        let url = address.socket_url();
        let options = ewebsock::Options {
            max_incoming_frame_size: MAX_SERVER_FRAME,
            ..ewebsock::Options::default()
        };
        // The event is kept before the wake-up is called: woken, the reader finds it (ewebsock's
        // own wake-up comes first, and a reader on another thread could look too soon and
        // then wait for a wake-up that never comes).
        let (events, receiver) = channel();
        let wake = wake.cloned();
        let on_event = Box::new(move |event: WsEvent| {
            let listening = events.send(event).is_ok();
            if let Some(wake) = &wake {
                wake();
            }
            if listening {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        let sender = ewebsock::ws_connect(url.clone(), options, on_event)
            .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        Ok(Socket {
            sender,
            receiver,
            hello: Some(ClientFrame::Hello {
                token: address.token.clone(),
                seen,
            }),
        })
    }

    fn send(&mut self, frame: ClientFrame) {
        self.sender
            .send(WsMessage::Text(scryptic_protocol::write(frame)));
    }
}

/// What one event of the socket was.
enum Got {
    Frame(Box<ServerFrame>),
    Opened,
    Closed(String),
    Nothing,
}

fn look(socket: &mut Socket) -> Option<Got> {
    let event = socket.receiver.try_recv().ok()?;
    Some(match event {
        WsEvent::Opened => {
            if let Some(hello) = socket.hello.take() {
                socket.send(hello);
            }
            Got::Opened
        }
        WsEvent::Message(WsMessage::Text(text)) => {
            match scryptic_protocol::read::<ServerFrame>(&text, MAX_SERVER_FRAME) {
                Ok(frame) => Got::Frame(Box::new(frame)),
                Err(e) => Got::Closed(format!("the server sent what this client cannot read: {e}")),
            }
        }
        WsEvent::Message(_) => Got::Nothing,
        WsEvent::Error(e) => Got::Closed(format!("the connection broke: {e}")),
        WsEvent::Closed => Got::Closed("the server closed the connection".into()),
    })
}

/// A seat joining: the connection made, the welcome and the first view awaited.
pub struct Joining {
    address: SeatAddress,
    lexicon: Arc<Lexicon>,
    wake: Option<Wake>,
    socket: Socket,
    welcome: Option<Welcome>,
}

/// Where joining stands after a look.
pub enum Join {
    /// Still waiting for the server.
    Waiting(Box<Joining>),
    /// The seat, with the match as the server first showed it.
    Joined(Box<ServerSeat>),
    /// The server refused in its own words (the token is no key to a seat of the match).
    Refused(String),
    /// The connection failed, or the server sent what cannot be shown.
    Failed(String),
}

impl Joining {
    /// Connects to the match at `address` (its frames woken through `wake`); the game is
    /// checked with `lexicon`.
    pub fn start(
        address: SeatAddress,
        lexicon: Arc<Lexicon>,
        wake: Option<Wake>,
    ) -> Result<Joining, String> {
        let socket = Socket::open(&address, None, wake.as_ref())?;
        Ok(Joining {
            address,
            lexicon,
            wake,
            socket,
            welcome: None,
        })
    }

    /// Takes in what came: the seat once the welcome and the first view are here.
    pub fn poll(mut self) -> Join {
        while let Some(got) = look(&mut self.socket) {
            let frame = match got {
                Got::Frame(frame) => *frame,
                Got::Closed(why) => return Join::Failed(why),
                Got::Opened | Got::Nothing => continue,
            };
            if let Some(read) = Welcome::read(&frame) {
                match read {
                    Ok(welcome) => self.welcome = Some(welcome),
                    Err(e) => return Join::Failed(e),
                }
                continue;
            }
            match frame {
                ServerFrame::View(view) => return self.joined(*view),
                ServerFrame::Refused { message } | ServerFrame::Error { message } => {
                    return Join::Refused(message);
                }
                ServerFrame::Seats { .. } | ServerFrame::Welcome { .. } => {}
            }
        }
        Join::Waiting(Box::new(self))
    }

    fn joined(self, view: View) -> Join {
        let Some(welcome) = self.welcome else {
            return Join::Failed("the server sent a view before its welcome".into());
        };
        let game = match seen_game(&welcome.map, &welcome.rules, &self.lexicon, view.snapshot) {
            Ok(game) => game,
            Err(e) => return Join::Failed(e),
        };
        let mut seat = ServerSeat {
            address: self.address,
            seat: welcome.seat,
            info: welcome.info,
            help: welcome.help,
            tileset: welcome.tileset,
            map: welcome.map,
            rules: welcome.rules,
            lexicon: self.lexicon,
            game,
            moves: view.moves,
            actions: view.actions,
            socket: Some(self.socket),
            lost: None,
            wake: self.wake,
            grace_ends: None,
            move_ends: None,
            last_was_error: false,
        };
        seat.set_clocks((view.grace_left_ms, view.move_left_ms));
        Join::Joined(Box::new(seat))
    }
}

/// The match, seen from one seat (or a spectator's chair).
pub struct ServerSeat {
    address: SeatAddress,
    /// The seat played (none: watching).
    pub seat: Option<Player>,
    /// The match as the lobby describes it.
    pub info: MatchInfo,
    /// The mode's own help, if it has one.
    pub help: Option<String>,
    /// The board's tileset, as a file of one of the match's packs.
    pub tileset: Option<PackFile>,
    map: Map,
    rules: RuleSet,
    lexicon: Arc<Lexicon>,
    game: Game,
    moves: Vec<String>,
    actions: u64,
    socket: Option<Socket>,
    /// When the connection was lost, and when it is next tried.
    lost: Option<(Instant, Instant)>,
    wake: Option<Wake>,
    /// While a grace period runs, when it ends by the server's clock.
    grace_ends: Option<Instant>,
    /// In a match with a move's time, when the move waited on runs out by the server's clock.
    move_ends: Option<Instant>,
    /// Whether the last frame was an error (a connection closed after one is not made again:
    /// the server refused the seat).
    last_was_error: bool,
}

impl ServerSeat {
    /// Where the match is, and the seat's token.
    pub fn address(&self) -> &SeatAddress {
        &self.address
    }

    /// The match's map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// Whether this chair watches (no seat).
    pub fn watching(&self) -> bool {
        self.seat.is_none()
    }

    /// The match is served at `base` now (where processes share a database, another took its
    /// shard over): the next connection is made there.
    pub fn served_at(&mut self, base: String) {
        self.address.base = base;
    }

    /// Whether a lost connection is being made again.
    pub fn reconnecting(&self) -> bool {
        self.lost.is_some()
    }

    fn send_frame(&mut self, frame: ClientFrame) -> Result<(), String> {
        if self.seat.is_none() {
            return Err("you are watching: spectators do not act".into());
        }
        match &mut self.socket {
            Some(socket) if socket.hello.is_none() => {
                socket.send(frame);
                Ok(())
            }
            _ => Err("the connection to the server is lost: it is being made again".into()),
        }
    }

    /// Sets the server's clocks from a view: each ends as long after now as it has left.
    fn set_clocks(&mut self, (grace_left_ms, move_left_ms): (Option<u64>, Option<u64>)) {
        let ends = |left: Option<u64>| {
            left.and_then(|left| Instant::now().checked_add(Duration::from_millis(left)))
        };
        self.grace_ends = ends(grace_left_ms);
        self.move_ends = ends(move_left_ms);
    }

    /// Makes the connection again when it is time; gives up after a while.
    fn reconnect(&mut self, heard: &mut Vec<Heard>) {
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
        // A connection that cannot even start is tried again at the next time.
        self.socket = Socket::open(&self.address, Some(self.actions), self.wake.as_ref()).ok();
    }

    fn take(&mut self, frame: ServerFrame) -> Option<Heard> {
        self.last_was_error = matches!(frame, ServerFrame::Error { .. });
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
        self.set_clocks((view.grace_left_ms, view.move_left_ms));
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
}

impl Referee for ServerSeat {
    fn game(&self) -> &Game {
        &self.game
    }

    fn apply(&mut self, action: Action) -> Result<Outcome, String> {
        self.send_frame(ClientFrame::Act {
            action,
            after: None,
        })
        .map(|()| Outcome::Sent)
    }

    fn moves_of(&self, player: Player) -> Vec<String> {
        if self.seat == Some(player) {
            self.moves.clone()
        } else {
            Vec::new()
        }
    }

    fn poll(&mut self, _dialog_open: bool) -> Vec<Heard> {
        let mut heard = Vec::new();
        if self.socket.is_none() {
            self.reconnect(&mut heard);
        }
        while let Some(got) = self.socket.as_mut().and_then(look) {
            match got {
                Got::Frame(frame) => heard.extend(self.take(*frame)),
                Got::Opened => {
                    if self.lost.take().is_some() {
                        heard.push(Heard::Back);
                    }
                }
                Got::Nothing => {}
                Got::Closed(why) => {
                    self.socket = None;
                    // A failed attempt to connect again is not news: only the loss is told.
                    if self.lost.is_some() {
                        continue;
                    }
                    let retrying = !self.last_was_error;
                    if retrying {
                        let now = Instant::now();
                        self.lost = Some((now, now + RETRY_EVERY));
                    }
                    heard.push(Heard::Lost { why, retrying });
                }
            }
        }
        heard
    }

    fn next_round(&mut self) -> Result<NextRound, String> {
        self.send_frame(ClientFrame::Next)
            .map(|()| NextRound::Asked)
    }

    fn grace_left(&self) -> Option<Duration> {
        self.game.red_light_caller()?;
        let ends = self.grace_ends?;
        Some(ends.saturating_duration_since(Instant::now()))
    }

    fn move_left(&self) -> Option<Duration> {
        if self.game.result().is_some() {
            return None;
        }
        let ends = self.move_ends?;
        Some(ends.saturating_duration_since(Instant::now()))
    }

    fn seat_label(&self, player: Player) -> Option<String> {
        Some(self.occupant(player))
    }

    fn online(&self) -> Option<OnlineMatch> {
        Some(OnlineMatch {
            address: format!(
                "{}/matches/{}",
                self.address.base.trim_end_matches('/'),
                self.address.match_id
            ),
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

/// The game a view shows, checked against the match's map and rules.
fn seen_game(
    map: &Map,
    rules: &RuleSet,
    lexicon: &Arc<Lexicon>,
    snapshot: Snapshot,
) -> Result<Game, String> {
    Game::from_snapshot(map, rules.clone(), lexicon.clone(), snapshot)
        .map_err(|e| format!("the server's view cannot be shown: {e}"))
}

//! A seat's or a spectator's WebSocket. The first frame says who (`hello` with the seat's
//! token, or none to watch); then the client sends actions and the match sends views. Bad
//! frames get an error frame and change nothing; a flood is slowed, then closed; a reader
//! that stops reading is dropped by the match (its queue is bounded) and may reconnect.

use crate::listen::Held;
use crate::lobby::PastTheRate;
use crate::rate::Rate;
use crate::referee::QUEUE_FRAMES;
use crate::{MatchCell, Server};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, State};
use axum::response::Response;
use scryptic_core::board::Player;
use scryptic_protocol::{ClientFrame, MAX_CLIENT_FRAME, ServerFrame};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a new connection has to say hello.
const HELLO_WITHIN: Duration = Duration::from_secs(10);
/// How long a frame may take to go out before the reader counts as gone.
const SEND_WITHIN: Duration = Duration::from_secs(10);
/// Frames a connection may send a second, and in a burst.
const FRAMES_PER_SECOND: f64 = 20.0;
const BURST: f64 = 40.0;
/// Frames over the rate a connection may send before it is closed.
const STRIKES: u32 = 100;

/// `GET /api/matches/ID/play`.
pub(crate) async fn play(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    ConnectInfo(from): ConnectInfo<std::net::SocketAddr>,
    held: Option<axum::Extension<Held>>,
    past_the_rate: Option<axum::Extension<PastTheRate>>,
    uri: axum::http::Uri,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(cell) = server.get(&id) else {
        // Another process serves it: the handshake is sent on there (the client follows).
        if let Some(base) = server.served_at(&id).await {
            return crate::shards::socket_sent_on(&base, &uri);
        }
        return crate::lobby::problem(404, format!("there is no match {id}"));
    };
    let seats_only = past_the_rate.is_some();
    upgrade
        .max_message_size(MAX_CLIENT_FRAME)
        .max_frame_size(MAX_CLIENT_FRAME)
        .on_upgrade(move |socket| async move {
            // The connection's count lasts as long as the WebSocket.
            let _held = held;
            let connection = Connection {
                socket,
                server,
                cell,
                from: from.ip(),
                seats_only,
            };
            connection.run().await;
        })
}

/// A WebSocket, the match it plays, and what it was let in on.
struct Connection {
    socket: WebSocket,
    server: Arc<Server>,
    cell: Arc<MatchCell>,
    from: std::net::IpAddr,
    /// Its address was past the lobby's rate: a seat's token lets it in, nothing else.
    seats_only: bool,
}

async fn send(socket: &mut WebSocket, frame: ServerFrame) -> bool {
    let text = scryptic_protocol::write(frame);
    matches!(
        tokio::time::timeout(SEND_WITHIN, socket.send(Message::text(text))).await,
        Ok(Ok(()))
    )
}

/// Closes with `code` (1008: a policy's refusal; 1001: going away; 1009: too big) and why.
async fn close(socket: &mut WebSocket, code: u16, why: &str) {
    let frame = CloseFrame {
        code,
        reason: why.chars().take(100).collect::<String>().into(),
    };
    let _ = tokio::time::timeout(SEND_WITHIN, socket.send(Message::Close(Some(frame)))).await;
}

/// Says why in an error frame, then closes with a close frame.
async fn refuse(socket: &mut WebSocket, code: u16, why: &str) {
    send(socket, error(why)).await;
    close(socket, code, why).await;
}

fn error(message: impl Into<String>) -> ServerFrame {
    ServerFrame::Error {
        message: message.into(),
    }
}

/// What the first frame said: the seat its token is the key to (none: a spectator), the
/// token, and the actions it had seen.
struct Hello {
    seat: Option<Player>,
    token: Option<String>,
    seen: Option<u64>,
}

/// Why a frame read from the socket is not one to answer.
enum Read {
    /// A text frame.
    Text(axum::extract::ws::Utf8Bytes),
    /// A frame to let pass (a ping, a pong).
    Pass,
    /// Binary: refused with an error.
    Binary,
    /// Over the size limit: refused, and the connection closed (the rest of the frame was not
    /// read, so nothing after it can be).
    TooLong,
    /// Closed or broken.
    Gone,
}

async fn read(socket: &mut WebSocket) -> Read {
    match socket.recv().await {
        Some(Ok(Message::Text(text))) => Read::Text(text),
        Some(Ok(Message::Binary(_))) => Read::Binary,
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Read::Pass,
        Some(Ok(Message::Close(_))) | None => Read::Gone,
        // tungstenite refuses a frame over the limit with an error of its capacity; any
        // other error is a broken connection.
        Some(Err(e)) if e.to_string().contains("Space limit exceeded") => Read::TooLong,
        Some(Err(_)) => Read::Gone,
    }
}

fn too_long() -> String {
    format!(
        "a frame is at most {MAX_CLIENT_FRAME} bytes (64 KiB): this one was longer, and the connection is closed; connect again"
    )
}

impl Connection {
    /// The seat the first frame names and what it had seen, or why the connection is
    /// refused (empty: it closed).
    async fn hello(&mut self) -> Result<Hello, (u16, String)> {
        let first = match tokio::time::timeout(HELLO_WITHIN, read(&mut self.socket)).await {
            Ok(Read::Text(text)) => text,
            Ok(Read::TooLong) => return Err((1009, too_long())),
            Ok(Read::Binary | Read::Pass) => {
                return Err((
                    1008,
                    "the first frame is a `hello` in JSON text".to_string(),
                ));
            }
            Ok(Read::Gone) => return Err((1000, String::new())),
            Err(_) => {
                return Err((
                    1008,
                    format!("no `hello` within {} s", HELLO_WITHIN.as_secs()),
                ));
            }
        };
        let (token, seen) =
            match scryptic_protocol::read_strict::<ClientFrame>(first.as_str(), MAX_CLIENT_FRAME) {
                Ok(ClientFrame::Hello { token, seen }) => (token, seen),
                Ok(_) => return Err((1008, "the first frame is a `hello`".to_string())),
                Err(e) => return Err((1008, e.to_string())),
            };
        // The match is brought back from its log if it sleeps: someone has come.
        let (server, cell, kept) = (self.server.clone(), self.cell.clone(), token.clone());
        let seat_of = tokio::task::spawn_blocking(move || {
            let game = server.live(&cell)?;
            Ok::<_, String>(kept.map(|token| game.seat_of(&token)))
        })
        .await;
        let seat = match seat_of {
            Ok(Ok(None)) => None,
            Ok(Ok(Some(Some(seat)))) => Some(seat),
            Ok(Ok(Some(None))) => return Err((1008, "that token is no seat's of this match: take a seat in the lobby, or leave the token out to watch".to_string())),
            Ok(Err(why)) => return Err((1011, why)),
            Err(_) => return Err((1011, "the match failed on the server".to_string())),
        };
        if seat.is_none() && self.seats_only {
            self.server
                .limited(self.from, "a spectator's WebSocket past the lobby's rate");
            return Err((
                1008,
                "too many requests from your address: a seat's token lets you in, watching waits a moment".to_string(),
            ));
        }
        Ok(Hello { seat, token, seen })
    }

    async fn run(mut self) {
        let hello = match self.hello().await {
            Ok(hello) => hello,
            Err((code, why)) => {
                if !why.is_empty() {
                    refuse(&mut self.socket, code, &why).await;
                }
                return;
            }
        };
        let (frames, mut outgoing) = mpsc::channel(QUEUE_FRAMES);
        let (server, connecting) = (self.server.clone(), self.cell.clone());
        let (seat, seen) = (hello.seat, hello.seen);
        let connected = tokio::task::spawn_blocking(move || {
            let mut game = server.live(&connecting)?;
            let id = game.connect(seat, seen, frames);
            game.keep_listing(&*server.store);
            Ok::<u64, String>(id)
        })
        .await;
        let id = match connected {
            Ok(Ok(id)) => id,
            Ok(Err(why)) => {
                refuse(&mut self.socket, 1011, &why).await;
                return;
            }
            Err(_) => return,
        };
        self.cell.wake.notify_one();
        let mut stopping = self.server.stopping.subscribe();
        let mut rate = Rate::new(FRAMES_PER_SECOND, BURST);
        let mut strikes = 0;
        loop {
            tokio::select! {
                incoming = read(&mut self.socket) => {
                    let text = match incoming {
                        Read::Text(text) => text,
                        Read::Binary => {
                            if !send(&mut self.socket, error("frames are JSON text, not binary")).await { break; }
                            continue;
                        }
                        Read::Pass => continue,
                        Read::TooLong => {
                            refuse(&mut self.socket, 1009, &too_long()).await;
                            break;
                        }
                        Read::Gone => break,
                    };
                    if !rate.take() {
                        strikes += 1;
                        if strikes > STRIKES {
                            self.server.limited(self.from, "a WebSocket that kept flooding");
                            close(&mut self.socket, 1008, "too many frames").await;
                            break;
                        }
                        let slow = format!("too many frames: at most {FRAMES_PER_SECOND} a second; this one was not read");
                        if !send(&mut self.socket, error(slow)).await { break; }
                        continue;
                    }
                    if let Some(frame) = answer(&self.cell, &self.server, seat, &text).await && !send(&mut self.socket, frame).await {
                        break;
                    }
                }
                out = outgoing.recv() => match out {
                    Some(text) => {
                        let sent = tokio::time::timeout(SEND_WITHIN, self.socket.send(Message::text(text))).await;
                        if !matches!(sent, Ok(Ok(()))) { break; }
                    }
                    None => {
                        let why = why_dropped(self.server.clone(), self.cell.clone(), hello.token.clone()).await;
                        close(&mut self.socket, 1008, why).await;
                        break;
                    }
                },
                () = crate::listen::stopped(&mut stopping) => {
                    close(&mut self.socket, 1001, "the server is stopping: connect again when it is back").await;
                    break;
                }
            }
        }
        let (server, leaving) = (self.server.clone(), self.cell.clone());
        let _ = tokio::task::spawn_blocking(move || {
            if let Ok(mut game) = server.live(&leaving) {
                game.disconnect(id);
                game.keep_listing(&*server.store);
            }
        })
        .await;
        // Its driver may put the match to sleep once nobody is connected.
        self.cell.wake.notify_one();
        static TRIM_SCHEDULED: std::sync::atomic::AtomicBool =
            std::sync::atomic::AtomicBool::new(false);
        crate::memory::trim_soon(&TRIM_SCHEDULED);
    }
}

/// Why the match dropped a connection: the seat of `token` was given up, or it read too
/// slowly.
async fn why_dropped(
    server: Arc<Server>,
    cell: Arc<MatchCell>,
    token: Option<String>,
) -> &'static str {
    let seat_kept = tokio::task::spawn_blocking(move || {
        let kept = |t: String| server.live(&cell).is_ok_and(|g| g.seat_of(&t).is_some());
        token.is_none_or(kept)
    })
    .await
    .unwrap_or(true);
    if seat_kept {
        "too far behind: reconnect for the current view"
    } else {
        "this seat was given up: take a seat again to play"
    }
}

/// The answer to a frame of the client's after its hello, if it has one.
async fn answer(
    cell: &Arc<MatchCell>,
    server: &Arc<Server>,
    seat: Option<Player>,
    text: &str,
) -> Option<ServerFrame> {
    match scryptic_protocol::read_strict::<ClientFrame>(text, MAX_CLIENT_FRAME) {
        Err(e) => Some(error(e.to_string())),
        Ok(ClientFrame::Hello { .. }) => Some(error("this connection has said hello already")),
        Ok(ClientFrame::Act { .. } | ClientFrame::Next) if seat.is_none() => {
            Some(error("a spectator watches: take a seat to act"))
        }
        Ok(ClientFrame::Next) => {
            let (readying, server, player) = (cell.clone(), server.clone(), seat);
            let done = tokio::task::spawn_blocking(move || {
                let mut game = server.live(&readying)?;
                player.map_or(Ok(()), |p| game.ready_for_next(p))
            })
            .await;
            cell.wake.notify_one();
            match done {
                Ok(Err(message)) => Some(ServerFrame::Refused { message }),
                _ => None,
            }
        }
        Ok(ClientFrame::Act { action, after }) => {
            let (acting, server) = (cell.clone(), server.clone());
            let done = tokio::task::spawn_blocking(move || {
                let mut game = server.live(&acting)?;
                game.still_at(after)?;
                game.act(seat, action, &*server.store)
            })
            .await;
            match done {
                Ok(Ok(())) => {
                    cell.wake.notify_one();
                    None
                }
                Ok(Err(message)) => Some(ServerFrame::Refused { message }),
                Err(_) => Some(error("the action failed on the server; nothing changed")),
            }
        }
    }
}

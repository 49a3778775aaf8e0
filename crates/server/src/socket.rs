//! A seat's or a spectator's WebSocket. The first frame says who (`hello` with the seat's
//! token, or none to watch); then the client sends actions and the match sends views. Bad
//! frames get an error frame and change nothing; a flood is slowed, then closed; a reader
//! that stops reading is dropped by the match (its queue is bounded) and may reconnect.

use crate::rate::Rate;
use crate::referee::QUEUE_FRAMES;
use crate::{MatchCell, Server};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
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
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(cell) = server.get(&id) else {
        return crate::lobby::problem(404, format!("there is no match {id}"));
    };
    upgrade
        .max_message_size(MAX_CLIENT_FRAME)
        .max_frame_size(MAX_CLIENT_FRAME)
        .on_upgrade(move |socket| run(socket, server, cell))
}

async fn send(socket: &mut WebSocket, frame: ServerFrame) -> bool {
    let text = scryptic_protocol::write(frame);
    matches!(
        tokio::time::timeout(SEND_WITHIN, socket.send(Message::text(text))).await,
        Ok(Ok(()))
    )
}

async fn close(socket: &mut WebSocket, why: &str) {
    let frame = CloseFrame {
        code: 1008,
        reason: why.chars().take(100).collect::<String>().into(),
    };
    let _ = tokio::time::timeout(SEND_WITHIN, socket.send(Message::Close(Some(frame)))).await;
}

fn error(message: impl Into<String>) -> ServerFrame {
    ServerFrame::Error {
        message: message.into(),
    }
}

/// The seat the first frame names (none: a spectator) and the actions it had seen, or why
/// the connection is refused.
async fn hello(
    socket: &mut WebSocket,
    cell: &Arc<MatchCell>,
) -> Result<(Option<Player>, Option<u64>), String> {
    let first = match tokio::time::timeout(HELLO_WITHIN, socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => text,
        Ok(Some(Ok(_))) => return Err("the first frame is a `hello` in JSON text".to_string()),
        Ok(_) => return Err(String::new()),
        Err(_) => return Err(format!("no `hello` within {} s", HELLO_WITHIN.as_secs())),
    };
    match scryptic_protocol::read::<ClientFrame>(first.as_str(), MAX_CLIENT_FRAME) {
        Ok(ClientFrame::Hello { token: None, seen }) => Ok((None, seen)),
        Ok(ClientFrame::Hello {
            token: Some(token),
            seen,
        }) => match cell.lock().seat_of(&token) {
            Some(seat) => Ok((Some(seat), seen)),
            None => Err("that token is no seat's of this match: take a seat in the lobby, or leave the token out to watch".to_string()),
        },
        Ok(_) => Err("the first frame is a `hello`".to_string()),
        Err(e) => Err(e.to_string()),
    }
}

async fn run(mut socket: WebSocket, server: Arc<Server>, cell: Arc<MatchCell>) {
    let (seat, seen) = match hello(&mut socket, &cell).await {
        Ok(who) => who,
        Err(why) => {
            if !why.is_empty() {
                send(&mut socket, error(why.clone())).await;
                close(&mut socket, &why).await;
            }
            return;
        }
    };
    let (frames, mut outgoing) = mpsc::channel(QUEUE_FRAMES);
    let connecting = cell.clone();
    let Ok(id) =
        tokio::task::spawn_blocking(move || connecting.lock().connect(seat, seen, frames)).await
    else {
        return;
    };
    cell.wake.notify_one();
    let mut rate = Rate::new(FRAMES_PER_SECOND, BURST);
    let mut strikes = 0;
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        if !send(&mut socket, error("frames are JSON text, not binary")).await { break; }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    // Closed, or a frame over the size limit (tungstenite refuses it).
                    _ => break,
                };
                if !rate.take() {
                    strikes += 1;
                    if strikes > STRIKES {
                        close(&mut socket, "too many frames").await;
                        break;
                    }
                    let slow = format!("too many frames: at most {FRAMES_PER_SECOND} a second; this one was not read");
                    if !send(&mut socket, error(slow)).await { break; }
                    continue;
                }
                let answer = match scryptic_protocol::read::<ClientFrame>(text.as_str(), MAX_CLIENT_FRAME) {
                    Err(e) => Some(error(e.to_string())),
                    Ok(ClientFrame::Hello { .. }) => Some(error("this connection has said hello already")),
                    Ok(ClientFrame::Act { .. } | ClientFrame::Next) if seat.is_none() => Some(error("a spectator watches: take a seat to act")),
                    Ok(ClientFrame::Next) => {
                        let (readying, player) = (cell.clone(), seat);
                        let done = tokio::task::spawn_blocking(move || {
                            player.map_or(Ok(()), |p| readying.lock().ready_for_next(p))
                        }).await;
                        cell.wake.notify_one();
                        match done {
                            Ok(Err(message)) => Some(ServerFrame::Refused { message }),
                            _ => None,
                        }
                    }
                    Ok(ClientFrame::Act { action }) => {
                        let (acting, server) = (cell.clone(), server.clone());
                        let done = tokio::task::spawn_blocking(move || {
                            acting.lock().act(seat, action, &*server.store)
                        }).await;
                        match done {
                            Ok(Ok(())) => { cell.wake.notify_one(); None }
                            Ok(Err(message)) => Some(ServerFrame::Refused { message }),
                            Err(_) => Some(error("the action failed on the server; nothing changed")),
                        }
                    }
                };
                if let Some(frame) = answer && !send(&mut socket, frame).await {
                    break;
                }
            }
            out = outgoing.recv() => match out {
                Some(text) => {
                    let sent = tokio::time::timeout(SEND_WITHIN, socket.send(Message::text(text))).await;
                    if !matches!(sent, Ok(Ok(()))) { break; }
                }
                None => {
                    close(&mut socket, "too far behind: reconnect for the current view").await;
                    break;
                }
            }
        }
    }
    let leaving = cell.clone();
    let _ = tokio::task::spawn_blocking(move || leaving.lock().disconnect(id)).await;
}

//! The lobby's requests a page makes (the match, a seat taken, a seat given up, a finished
//! match's log, a pack's archive by hash), each answered on a later frame: HTTP through the
//! browser's `fetch` there, natively through ehttp's own client. A refusal comes back as the server's own words (its `Problem`).

use scryptic_play::server_seat::Wake;
use scryptic_protocol::{LeaveSeat, MatchInfo, Problem, SeatTaken, TakeSeat};
use serde::de::DeserializeOwned;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// The largest lobby answer read (a match's description is a few KiB).
const MAX_ANSWER: usize = 1024 * 1024;

/// A request under way.
pub struct Pending<T> {
    answer: Receiver<Result<T, String>>,
}

impl<T> Pending<T> {
    /// Its answer, once it has come.
    pub fn take(&self) -> Option<Result<T, String>> {
        match self.answer.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err("the request ended without an answer".into()))
            }
        }
    }
}

/// The match `id` as the lobby describes it.
pub fn match_info(base: &str, id: &str, wake: Wake) -> Pending<MatchInfo> {
    send(
        ehttp::Request::get(format!("{base}/api/matches/{id}")),
        wake,
    )
}

/// Takes `seat` of match `id` for `name`.
pub fn take_seat(base: &str, id: &str, seat: &str, name: &str, wake: Wake) -> Pending<SeatTaken> {
    let body = TakeSeat {
        seat: Some(seat.to_string()),
        name: name.to_string(),
    };
    send(post(&format!("{base}/api/matches/{id}/seats"), body), wake)
}

/// Gives up the seat whose token is `token` in match `id` (it is open again).
pub fn leave(base: &str, id: &str, token: &str, wake: Wake) -> Pending<MatchInfo> {
    let body = LeaveSeat {
        token: token.to_string(),
    };
    send(post(&format!("{base}/api/matches/{id}/leave"), body), wake)
}

/// The whole log of match `id`, as a save file's text (once it is over, where it allows).
pub fn log(base: &str, id: &str, wake: Wake) -> Pending<String> {
    let request = ehttp::Request::get(format!("{base}/api/matches/{id}/save"));
    fetch(request, wake, |_, bytes| {
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    })
}

/// The archive of the pack whose files hash to `hash` (at most an archive's bytes).
pub fn pack_archive(base: &str, hash: &str, wake: Wake) -> Pending<Vec<u8>> {
    let request = ehttp::Request::get(format!("{base}/api/packs/{hash}"));
    fetch(request, wake, |url, bytes| {
        if bytes.len() as u64 > scryptic_pack::archive::MAX_ARCHIVE_BYTES {
            Err(format!("{url}: the archive is larger than a pack may be"))
        } else {
            Ok(bytes)
        }
    })
}

fn post(url: &str, body: impl serde::Serialize) -> ehttp::Request {
    let mut request = ehttp::Request::post(url, scryptic_protocol::write(body).into_bytes());
    request.headers.insert("Content-Type", "application/json");
    request
}

/// A request whose answer is a message of the protocol.
fn send<T: DeserializeOwned + Send + 'static>(request: ehttp::Request, wake: Wake) -> Pending<T> {
    fetch(request, wake, |url, bytes| {
        let text = String::from_utf8_lossy(&bytes);
        scryptic_protocol::read::<T>(&text, MAX_ANSWER)
            .map_err(|e| format!("the server's answer to {url} cannot be read: {e}"))
    })
}

/// Makes `request`; its answer's body, when the server took it, read by `take` (given the
/// address and the bytes), else the server's refusal in its own words.
fn fetch<T: Send + 'static>(
    request: ehttp::Request,
    wake: Wake,
    take: impl FnOnce(&str, Vec<u8>) -> Result<T, String> + Send + 'static,
) -> Pending<T> {
    let (tell, answer) = channel();
    let url = request.url.clone();
    ehttp::fetch(request, move |response| {
        let read = response
            .map_err(|e| format!("cannot reach the server ({url}): {e}"))
            .and_then(|response| {
                if response.ok {
                    take(&url, response.bytes)
                } else {
                    Err(refusal(&response))
                }
            });
        // The answer is kept before the wake-up, so that the woken frame finds it.
        let _ = tell.send(read);
        wake();
    });
    Pending { answer }
}

/// Why the server refused: its `Problem`, or its status.
fn refusal(response: &ehttp::Response) -> String {
    let text = String::from_utf8_lossy(&response.bytes);
    match scryptic_protocol::read::<Problem>(&text, MAX_ANSWER) {
        Ok(problem) => problem.error,
        Err(_) => format!(
            "the server answered {} {}",
            response.status, response.status_text
        ),
    }
}

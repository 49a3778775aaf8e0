//! The client side of online play, for the command line and the editor alike: a server's
//! address and a match's, the lobby's requests (HTTP with JSON, `ureq`), the seats' tokens
//! kept for reconnecting, and a seat's WebSocket on a thread of its own (`tungstenite`), whose
//! frames arrive on a channel. Blocking calls and threads: no async runtime (only the server
//! knows one).

#![deny(missing_docs)]

pub mod indexes;

use scryptic_pack::Pack;
use scryptic_pack::record::pack_hash;
use scryptic_protocol::{
    ClientFrame, CreateMatch, LeaveSeat, MAX_SERVER_FRAME, MatchInfo, MatchList, PackRef, Problem,
    SeatTaken, ServerFrame, TakeSeat,
};
// A welcome is read as the protocol says, by every client alike.
pub use scryptic_protocol::welcome::Welcome;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;
use tungstenite::stream::MaybeTlsStream;

/// The port `scryptic serve` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7878;

/// A server's base address (`http://127.0.0.1:7878`) and, when the address named one, a
/// match of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// `http://HOST:PORT`, without a trailing slash.
    pub base: String,
    /// The match named (`.../matches/ID`).
    pub match_id: Option<String>,
}

impl Address {
    /// Reads `text`: `HOST[:PORT]`, `http://HOST[:PORT]`, either followed by `/matches/ID`
    /// (or `/api/matches/ID`).
    pub fn parse(text: &str) -> Result<Address, String> {
        let trimmed = text.trim().trim_end_matches('/');
        let rest = match trimmed.split_once("://") {
            Some(("http", rest)) => rest,
            Some((scheme, _)) => {
                return Err(format!(
                    "`{text}`: the server's address starts with http:// ({scheme}:// is not spoken)"
                ));
            }
            None => trimmed,
        };
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
        if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "`{text}` is not a server's address (127.0.0.1:{DEFAULT_PORT})"
            ));
        }
        let host = if host.contains(':') {
            host.to_string()
        } else {
            format!("{host}:{DEFAULT_PORT}")
        };
        let path = path.strip_prefix("api/").unwrap_or(path);
        let match_id = match path.split('/').collect::<Vec<_>>().as_slice() {
            [""] => None,
            ["matches", id] if is_match_id(id) => Some((*id).to_string()),
            _ => {
                return Err(format!(
                    "`{text}`: after the server's address comes /matches/ID, or nothing"
                ));
            }
        };
        Ok(Address {
            base: format!("http://{host}"),
            match_id,
        })
    }

    /// The address others type to join match `id`.
    pub fn of_match(&self, id: &str) -> String {
        format!("{}/matches/{id}", self.base)
    }
}

fn is_match_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// The lobby of the server at `base`.
pub struct Lobby {
    base: String,
    agent: ureq::Agent,
}

impl Lobby {
    /// The lobby at `base` (`http://HOST:PORT`).
    pub fn new(base: &str) -> Lobby {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build();
        Lobby {
            base: base.to_string(),
            agent: config.into(),
        }
    }

    /// The body of a successful answer (at most `limit` bytes), or the server's problem in
    /// its words.
    fn body(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        limit: u64,
    ) -> Result<Vec<u8>, String> {
        let mut response =
            response.map_err(|e| format!("the server at {} does not answer: {e}", self.base))?;
        let status = response.status();
        let body = response
            .body_mut()
            .with_config()
            .limit(limit)
            .read_to_vec()
            .map_err(|e| format!("the server's answer cannot be read: {e}"))?;
        if status.is_success() {
            return Ok(body);
        }
        let text = String::from_utf8_lossy(&body);
        let problem: Result<Problem, _> = scryptic_protocol::read(&text, MAX_SERVER_FRAME);
        Err(problem.map_or_else(|_| format!("the server answered {status}"), |p| p.error))
    }

    /// The text of a successful answer, or the server's problem in its words.
    fn text(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<String, String> {
        let body = self.body(response, MAX_SERVER_FRAME as u64)?;
        String::from_utf8(body).map_err(|_| "the server's answer is not text".to_string())
    }

    fn answer<T: serde::de::DeserializeOwned>(
        &self,
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<T, String> {
        let text = self.text(response)?;
        scryptic_protocol::read(&text, MAX_SERVER_FRAME)
            .map_err(|e| format!("the server's answer is not this protocol's: {e}"))
    }

    fn post<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        body: impl serde::Serialize,
    ) -> Result<T, String> {
        let response = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(scryptic_protocol::write(body));
        self.answer(response)
    }

    /// The server's base address.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The newest matches the server holds (a page of them; `total` says how many there are).
    pub fn matches(&self) -> Result<MatchList, String> {
        self.matches_from(0)
    }

    /// The page of the server's matches from the `offset`th newest.
    pub fn matches_from(&self, offset: usize) -> Result<MatchList, String> {
        let url = format!("{}/api/matches?offset={offset}", self.base);
        let response = self.agent.get(url).call();
        self.answer(response)
    }

    /// The matches of `ids` the server holds (at most `MAX_PAGE` a request: more are asked
    /// for in turn).
    pub fn matches_of(&self, ids: &[String]) -> Result<MatchList, String> {
        let mut all = MatchList {
            matches: Vec::new(),
            total: 0,
        };
        for chunk in ids.chunks(scryptic_protocol::MAX_PAGE) {
            let url = format!("{}/api/matches?ids={}", self.base, chunk.join(","));
            let page: MatchList = self.answer(self.agent.get(url).call())?;
            all.total += page.total;
            all.matches.extend(page.matches);
        }
        Ok(all)
    }

    /// Creates a match as `request` says.
    pub fn create(&self, request: CreateMatch) -> Result<MatchInfo, String> {
        self.post("/api/matches", request)
    }

    /// Takes a seat of match `id`.
    pub fn take(&self, id: &str, request: TakeSeat) -> Result<SeatTaken, String> {
        self.post(&format!("/api/matches/{id}/seats"), request)
    }

    /// Gives up the seat `token` holds in match `id`.
    pub fn leave(&self, id: &str, token: &str) -> Result<MatchInfo, String> {
        let token = token.to_string();
        self.post(&format!("/api/matches/{id}/leave"), LeaveSeat { token })
    }

    /// The archive of the pack whose files hash to `hash` (at most an archive's bytes).
    pub fn pack_archive(&self, hash: &str) -> Result<Vec<u8>, String> {
        let response = self
            .agent
            .get(format!("{}/api/packs/{hash}", self.base))
            .call();
        self.body(response, scryptic_pack::archive::MAX_ARCHIVE_BYTES)
    }

    /// The whole log of the match, as a save file's text (once it is over).
    pub fn save(&self, id: &str) -> Result<String, String> {
        let response = self
            .agent
            .get(format!("{}/api/matches/{id}/save", self.base))
            .call();
        self.text(response)
    }
}

/// Where packs fetched from servers are kept in the data folder `data`: `cache/packs`, apart
/// from the packs installed (`packs/`), each in a folder named by its hash.
pub fn pack_cache(data: &Path) -> PathBuf {
    data.join("cache").join("packs")
}

/// The pack `wanted` (one a match names), from `cache` (see [`pack_cache`]) or else fetched
/// from the server at `base`: its archive checked whole as `pack install` checks one
/// (paths inside the pack, counts and sizes bounded), unpacked beside the cache and its files
/// hashed again; kept only when they hash to `wanted.sha256`. A mismatch is refused naming the
/// pack, and nothing is kept.
pub fn fetch_pack(base: &str, wanted: &PackRef, cache: &Path) -> Result<Pack, String> {
    let hash = wanted.sha256.to_ascii_lowercase();
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "the match names pack {} by `{}`, which is not a hash",
            wanted.id, wanted.sha256
        ));
    }
    let target = cache.join(&hash).join(&wanted.id);
    if let Ok(pack) = Pack::open(&target)
        && pack_hash(&pack).is_ok_and(|h| h == hash)
    {
        return Ok(pack);
    }
    std::fs::create_dir_all(cache).map_err(|e| format!("cannot make {}: {e}", cache.display()))?;
    let bytes = Lobby::new(base).pack_archive(&hash)?;
    let named = |e: &dyn std::fmt::Display| {
        format!("the pack {} {} from {base}: {e}", wanted.id, wanted.version)
    };
    let mut zip = tempfile::NamedTempFile::new_in(cache).map_err(|e| named(&e))?;
    std::io::Write::write_all(&mut zip, &bytes).map_err(|e| named(&e))?;
    let (staging, root) =
        scryptic_pack::archive::unpack(zip.path(), cache).map_err(|e| named(&e))?;
    let pack = Pack::open(&root).map_err(|e| named(&e))?;
    let got = pack_hash(&pack).map_err(|e| named(&e))?;
    if got != hash || pack.id() != wanted.id {
        return Err(format!(
            "the pack {} {} that {base} sent is not the match's: its files hash to {got} (pack {}), the match names {hash}; it was not kept",
            wanted.id,
            wanted.version,
            pack.id()
        ));
    }
    // A copy left by an earlier, broken fetch goes first.
    let _ = std::fs::remove_dir_all(&target);
    let parent = cache.join(&hash);
    std::fs::create_dir_all(&parent).map_err(|e| named(&e))?;
    std::fs::rename(&root, &target).map_err(|e| named(&e))?;
    drop(staging);
    Pack::open(&target).map_err(|e| named(&e))
}

/// Where the seats' tokens are kept: `online/` in the data folder (`data`), a file per match.
fn tokens_dir(data: Option<&Path>) -> Option<PathBuf> {
    data.map(|d| d.join("online"))
}

/// The tokens kept in the data folder `data` for the match `id` of the server at `base`:
/// (seat, token) pairs.
pub fn kept_tokens(data: Option<&Path>, base: &str, id: &str) -> Vec<(String, String)> {
    let Some(path) = tokens_dir(data).map(|d| d.join(token_file(base, id))) else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(seat, token)| (seat.to_string(), token.to_string()))
        .collect()
}

/// The matches of the server at `base` that the data folder `data` keeps a seat's token for,
/// by id.
pub fn kept_matches(data: Option<&Path>, base: &str) -> Vec<String> {
    let Some(dir) = tokens_dir(data) else {
        return Vec::new();
    };
    let prefix = token_file(base, "");
    let prefix = prefix.trim_end_matches(".tokens");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let id = name.strip_prefix(prefix)?.strip_suffix(".tokens")?;
            let id_like = !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric());
            id_like.then(|| id.to_string())
        })
        .collect();
    ids.sort();
    ids
}

/// Keeps `token` for `seat` of match `id` in the data folder `data` (for a client to come
/// back with).
pub fn keep_token(
    data: Option<&Path>,
    base: &str,
    id: &str,
    seat: &str,
    token: &str,
) -> std::io::Result<()> {
    rewrite_tokens(data, base, id, seat, Some(token))
}

/// Forgets the token kept for `seat` of match `id` (the seat was given up).
pub fn forget_token(data: Option<&Path>, base: &str, id: &str, seat: &str) -> std::io::Result<()> {
    rewrite_tokens(data, base, id, seat, None)
}

fn rewrite_tokens(
    data: Option<&Path>,
    base: &str,
    id: &str,
    seat: &str,
    token: Option<&str>,
) -> std::io::Result<()> {
    let Some(dir) = tokens_dir(data) else {
        return Ok(());
    };
    // A token is the only key to its seat: its folder and its file are the user's alone.
    scryptic_core::fsutil::create_private_dir(&dir)?;
    let mut kept: Vec<(String, String)> = kept_tokens(data, base, id)
        .into_iter()
        .filter(|(s, _)| s != seat)
        .collect();
    kept.extend(token.map(|t| (seat.to_string(), t.to_string())));
    let text: String = kept.iter().map(|(s, t)| format!("{s} {t}\n")).collect();
    scryptic_core::fsutil::write_private(&dir.join(token_file(base, id)), text.as_bytes())
}

fn token_file(base: &str, id: &str) -> String {
    let server: String = base
        .trim_start_matches("http://")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("{server}-{id}.tokens")
}

/// What the connection's thread hands over.
pub enum Incoming {
    /// A frame of the server's.
    Frame(Box<ServerFrame>),
    /// The connection closed, with why, and whether connecting again may help (the
    /// connection broke, or the server dropped a reader too far behind; not when the server
    /// refused the seat).
    Closed {
        /// Why.
        why: String,
        /// Whether to connect again.
        retry: bool,
    },
}

/// Called by a connection's thread whenever something arrives (a window wakes up to look).
pub type Waker = std::sync::Arc<dyn Fn() + Send + Sync>;

/// A seat's or a spectator's connection, run on a thread of its own.
pub struct Connection {
    /// Frames to send.
    outgoing: Sender<ClientFrame>,
    /// Frames received.
    pub incoming: Receiver<Incoming>,
}

impl Connection {
    /// Connects to match `id` at `base` and says hello with `token` (none: to watch) and the
    /// number of actions `seen` before (on a reconnect); `wake` is called whenever a frame
    /// arrives or the connection closes.
    pub fn open(
        base: &str,
        id: &str,
        token: Option<String>,
        seen: Option<u64>,
        wake: Option<Waker>,
    ) -> Result<Connection, String> {
        let url = format!(
            "{}/api/matches/{id}/play",
            base.replacen("http://", "ws://", 1)
        );
        let config = tungstenite::protocol::WebSocketConfig::default()
            .max_message_size(Some(MAX_SERVER_FRAME))
            .max_frame_size(Some(MAX_SERVER_FRAME));
        let (mut socket, _) =
            tungstenite::client::connect_with_config(url.as_str(), Some(config), 3)
                .map_err(|e| format!("cannot connect to {url}: {e}"))?;
        if let MaybeTlsStream::Plain(stream) = socket.get_mut() {
            // The thread looks at what there is to send between short waits for frames.
            let _ = stream.set_read_timeout(Some(Duration::from_millis(25)));
            let _ = stream.set_nodelay(true);
        }
        let hello = ClientFrame::Hello { token, seen };
        socket
            .send(tungstenite::Message::text(scryptic_protocol::write(hello)))
            .map_err(|e| format!("cannot greet the server: {e}"))?;
        let (outgoing, to_send) = std::sync::mpsc::channel();
        let (received, incoming) = std::sync::mpsc::channel();
        std::thread::spawn(move || run_socket(socket, &to_send, &received, wake.as_ref()));
        Ok(Connection { outgoing, incoming })
    }

    /// Sends `frame`; false if the connection is gone.
    pub fn send(&self, frame: ClientFrame) -> bool {
        self.outgoing.send(frame).is_ok()
    }
}

type Socket = tungstenite::WebSocket<MaybeTlsStream<TcpStream>>;

fn run_socket(
    mut socket: Socket,
    to_send: &Receiver<ClientFrame>,
    received: &Sender<Incoming>,
    wake: Option<&Waker>,
) {
    let wake = || {
        if let Some(wake) = wake {
            wake();
        }
    };
    let (why, retry) = loop {
        match to_send.try_recv() {
            Ok(frame) => {
                let text = scryptic_protocol::write(frame);
                if let Err(e) = socket.send(tungstenite::Message::text(text)) {
                    break (format!("the connection broke: {e}"), true);
                }
                continue;
            }
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                let _ = socket.close(None);
                let _ = socket.flush();
                return;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
        }
        match socket.read() {
            Ok(tungstenite::Message::Text(text)) => {
                let frame =
                    match scryptic_protocol::read::<ServerFrame>(text.as_str(), MAX_SERVER_FRAME) {
                        Ok(frame) => frame,
                        Err(e) => {
                            break (
                                format!("the server sent what this client cannot read: {e}"),
                                false,
                            );
                        }
                    };
                if received.send(Incoming::Frame(Box::new(frame))).is_err() {
                    return;
                }
                wake();
            }
            Ok(tungstenite::Message::Close(frame)) => {
                let reason = frame.map(|f| f.reason.to_string()).unwrap_or_default();
                // The server drops a reader too far behind, which may come back for the
                // current view; it refuses a seat for good.
                let retry = reason.starts_with("too far behind") || reason.is_empty();
                break (format!("the server closed the connection: {reason}"), retry);
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => break (format!("the connection broke: {e}"), true),
        }
    };
    let _ = received.send(Incoming::Closed { why, retry });
    wake();
}

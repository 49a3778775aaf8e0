//! Scryptic's online protocol: what a client and `scryptic serve` say to each other.
//!
//! The lobby is HTTP with JSON bodies (`LOBBY_ROUTES` lists the routes); play is one WebSocket
//! per seat or spectator, whose text frames are JSON [`ClientFrame`]s up and [`ServerFrame`]s
//! down. Every message carries the protocol's version (`"protocol": 1`) beside its `type`.
//! The server referees: a seat's view ([`ServerFrame::View`]) is the game as that seat may see
//! it (`Game::seen_by`), taken as a [`Snapshot`] that the client checks whole and shows; a
//! client sends actions in the engine's own form ([`ClientFrame::Act`]), never a game state.
//!
//! This crate is data only (serde): the server, the command line and the editor share it, and
//! a bot or a web page can be written against `docs/PROTOCOL.md`, which describes it.

#![deny(missing_docs)]

pub mod welcome;

use scryptic_core::game::{Action, Event, Snapshot};
use scryptic_core::rules::RuleSet;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The protocol's version: a frame or request of another version is refused, naming both.
pub const VERSION: u32 = 1;

/// The largest frame or request body a server reads from a client, in bytes.
pub const MAX_CLIENT_FRAME: usize = 64 * 1024;

/// The longest name a person may take a seat under, in characters (`TakeSeat::name`).
pub const MAX_PERSON_NAME: usize = 40;

/// The largest frame a client reads from a server, in bytes (a view of the largest board).
pub const MAX_SERVER_FRAME: usize = 16 * 1024 * 1024;

/// The lobby's routes, as `METHOD path — what it does` lines (the docs and `--help` show them).
pub const LOBBY_ROUTES: &str = "\
GET  /api/matches                 the newest matches, a page at a time (MatchList):
                                  ?offset=N&limit=N (at most 500), or ?ids=ID,ID those ones
POST /api/matches                 create a match (CreateMatch -> MatchInfo)
GET  /api/matches/ID              one match (MatchInfo)
POST /api/matches/ID/seats        take a seat (TakeSeat -> SeatTaken)
POST /api/matches/ID/leave        give a seat up (LeaveSeat -> MatchInfo)
GET  /api/matches/ID/save         the match as a save file (RON), where its setting allows
GET  /api/matches/ID/play         the WebSocket of a seat or a spectator (ClientFrame, ServerFrame)
GET  /api/packs                   the packs this server plays: their modes and settings (PackList)
GET  /api/packs/SHA256            the archive (zip) of a pack a match names by that hash
GET  /api/published/dates         each published pack's newest release's date (ms since 1970)";

/// A message with the protocol's version beside its own fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// The protocol's version ([`VERSION`]).
    pub protocol: u32,
    /// The message.
    #[serde(flatten)]
    pub body: T,
}

impl<T> Envelope<T> {
    /// `body` in this version's envelope.
    pub fn new(body: T) -> Envelope<T> {
        Envelope {
            protocol: VERSION,
            body,
        }
    }
}

/// Why a message could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Longer than the reader accepts.
    TooLong {
        /// Its length.
        bytes: usize,
        /// The most accepted.
        most: usize,
    },
    /// Not JSON, or not a message of this protocol (an unknown `type`, a missing field).
    Malformed(String),
    /// Of another version.
    Version {
        /// The version the message says.
        theirs: u32,
    },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TooLong { bytes, most } => write!(
                f,
                "a message of {bytes} bytes is longer than the {most} bytes accepted"
            ),
            ReadError::Malformed(why) => write!(f, "not a message of this protocol: {why}"),
            ReadError::Version { theirs } => write!(
                f,
                "protocol version {theirs} is not this server's or client's ({VERSION}): update the older one"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a message of this protocol from `text`, at most `most` bytes long; its version is
/// checked before its body is read, so that another version's message is named as such.
pub fn read<T: serde::de::DeserializeOwned>(text: &str, most: usize) -> Result<T, ReadError> {
    at_most(text, most)?;
    #[derive(Deserialize)]
    struct Version {
        protocol: Option<serde_json::Value>,
    }
    let version: Version = serde_json::from_str(text).map_err(malformed)?;
    this_version(version.protocol)?;
    let envelope: Envelope<T> = serde_json::from_str(text).map_err(malformed)?;
    Ok(envelope.body)
}

/// Reads a message a client sent, as [`read`] does, refusing any field the protocol does not
/// have (the server's reading: a misspelt field is a mistake to be told of, not ignored).
/// Messages are read through a JSON value first, since serde's `flatten` (the envelope's)
/// lets unknown fields through.
pub fn read_strict<T: serde::de::DeserializeOwned>(
    text: &str,
    most: usize,
) -> Result<T, ReadError> {
    at_most(text, most)?;
    let mut value: serde_json::Value = serde_json::from_str(text).map_err(malformed)?;
    let Some(fields) = value.as_object_mut() else {
        return Err(ReadError::Malformed(
            "a message is a JSON object".to_string(),
        ));
    };
    this_version(fields.remove("protocol"))?;
    T::deserialize(value).map_err(malformed)
}

fn malformed(e: serde_json::Error) -> ReadError {
    ReadError::Malformed(e.to_string())
}

fn at_most(text: &str, most: usize) -> Result<(), ReadError> {
    if text.len() > most {
        return Err(ReadError::TooLong {
            bytes: text.len(),
            most,
        });
    }
    Ok(())
}

/// Checks a message's `protocol` field.
fn this_version(protocol: Option<serde_json::Value>) -> Result<(), ReadError> {
    match protocol.as_ref().map(serde_json::Value::as_u64) {
        Some(Some(v)) if v == u64::from(VERSION) => Ok(()),
        Some(Some(theirs)) => Err(ReadError::Version {
            theirs: u32::try_from(theirs).unwrap_or(u32::MAX),
        }),
        Some(None) => Err(ReadError::Malformed(
            "its `protocol` field is not a version number (1)".to_string(),
        )),
        None => Err(ReadError::Malformed(
            "it has no `protocol` field (the version, 1)".to_string(),
        )),
    }
}

/// `body` as the JSON text of a message of this version.
pub fn write<T: Serialize>(body: T) -> String {
    // The protocol's types hold no map with non-text keys and no failing serializer, so
    // writing them cannot fail; a failure would be a bug here, said as a message.
    serde_json::to_string(&Envelope::new(body))
        .unwrap_or_else(|e| format!(r#"{{"protocol":{VERSION},"type":"error","message":"{e}"}}"#))
}

/// A length of time in words, the two largest units (`2d 23h`, `5m 20s`, `40s`), as a move's
/// time left is told to people.
pub fn time_words(ms: u64) -> String {
    let seconds = ms.div_ceil(1000);
    let units = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)];
    let mut parts = Vec::new();
    let mut left = seconds;
    for (name, size) in units {
        if left >= size || (parts.is_empty() && size == 1) {
            parts.push(format!("{}{name}", left / size));
            left %= size;
        } else if !parts.is_empty() {
            break;
        }
        if parts.len() == 2 {
            break;
        }
    }
    parts.join(" ")
}

// ---------------------------------------------------------------------------------------------
// The lobby.

/// A pack a match is made of, as a client finds or fetches it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackRef {
    /// The pack's id.
    pub id: String,
    /// Its version.
    pub version: String,
    /// The SHA-256 of its files (hex), as `pack info` shows it.
    pub sha256: String,
}

/// A file of a pack: the pack's id (one of the match's `packs`) and the file's path in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackFile {
    /// The pack's id.
    pub pack: String,
    /// The file's path inside the pack (`tilesets/stone/tileset.ron`).
    pub path: String,
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Occupant {
    /// Nobody yet: anyone may take it.
    Open,
    /// A person.
    Person {
        /// The name they gave.
        name: String,
        /// Whether their connection is open now.
        connected: bool,
    },
    /// The server's AI.
    Ai {
        /// Its level (`easy`, `normal`, `hard`).
        level: String,
    },
}

/// A seat of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// The seat's name in the match's mode (`gold`, `red`, ...).
    pub seat: String,
    /// Who sits there.
    pub occupant: Occupant,
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchState {
    /// Some seat is open: nobody acts until every seat is taken.
    Waiting,
    /// Under way.
    Playing,
    /// Over.
    Over,
}

/// A match, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchInfo {
    /// Its id, in the lobby's routes.
    pub id: String,
    /// The map's name.
    pub title: String,
    /// The pack and mode (`word-wars:duel`).
    pub mode: String,
    /// The packs it is made of, in load order.
    pub packs: Vec<PackRef>,
    /// The settings chosen (the pack's own names).
    pub settings: BTreeMap<String, String>,
    /// Its seats, in seat order.
    pub seats: Vec<SeatInfo>,
    /// Where it stands.
    pub state: MatchState,
    /// Actions played so far.
    pub actions: u64,
    /// Whether anyone may fetch the whole log (`save`) once it is over.
    pub log_after_end: bool,
    /// The game's turn (of its round, in a match of rounds).
    #[serde(default)]
    pub turn: u32,
    /// The seats that must act now, by name: the one whose turn it is, none while the match
    /// waits for players or is over, or in a game played at once.
    #[serde(default)]
    pub to_act: Vec<String>,
    /// Each seat's score, in seat order, as every seat sees it; empty in a scripted game, whose
    /// rules keep their own count.
    #[serde(default)]
    pub scores: Vec<i64>,
    /// How the game ended, once it has: the winner's seat name (none for a draw) and why.
    #[serde(default)]
    pub ended: Option<MatchEnd>,
    /// When it was made and when its last action was played (milliseconds since 1970).
    #[serde(default)]
    pub started_ms: u64,
    /// See `started_ms`.
    #[serde(default)]
    pub last_moved_ms: u64,
    /// When the move clock runs out for the first of `to_act` (milliseconds since 1970), in a
    /// match that gives a move a time (the `move_time` setting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_due_ms: Option<u64>,
    /// The address of the server process that serves it (`http://host:port`), where several
    /// processes share its database; none: the server asked serves it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
}

/// How a game ended, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEnd {
    /// The winner's seat name; none for a draw.
    pub winner: Option<String>,
    /// Why, in words (`silver holds no city`).
    pub why: String,
}

/// The packs a server plays (`GET /api/packs`): what a match can be made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackList {
    /// By id, the newest version of each.
    pub packs: Vec<PlayedPack>,
}

/// A pack a server plays, with its modes and its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayedPack {
    /// Its id.
    pub id: String,
    /// The name players see.
    pub title: String,
    /// Its version.
    pub version: String,
    /// What it is.
    pub description: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// Its authors.
    pub authors: Vec<String>,
    /// Its licence.
    pub license: String,
    /// The modes a match can be made of (`CreateMatch::mode`), the first by default.
    pub modes: Vec<ModeInfo>,
    /// Its settings (`CreateMatch::settings`), each with its range and default.
    pub settings: Vec<SettingInfo>,
}

/// A pack's mode, as a match is made of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModeInfo {
    /// Its id within its pack.
    pub id: String,
    /// The name players see.
    pub title: String,
    /// How it plays.
    pub description: String,
    /// The fewest players it seats.
    pub min_seats: u32,
    /// The most.
    pub max_seats: u32,
    /// Its seats' names in seat order, as many as it may seat (`CreateMatch::seats` is keyed
    /// by them): `gold`, `silver`, or the mode's own (`white`, `brown`).
    #[serde(default)]
    pub seat_names: Vec<String>,
}

/// A pack's setting: what a match may set it to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SettingInfo {
    /// Its id (`rounds`).
    pub id: String,
    /// The name players see.
    pub title: String,
    /// What it changes.
    pub description: String,
    /// Its type, bounds and default, as the pack declares them.
    pub kind: scryptic_core::save::SettingKind,
}

/// The lobby's matches, a page of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchList {
    /// Newest first: the page asked for (`offset`, `limit`), or the matches `ids` named.
    pub matches: Vec<MatchInfo>,
    /// How many matches the server holds (or of the `ids` named, how many it has).
    #[serde(default)]
    pub total: u64,
}

/// The most matches one page of the lobby lists ([`MatchList`]), and the most `ids` one
/// request names.
pub const MAX_PAGE: usize = 500;

/// The matches a lobby page lists when it names no `limit`.
pub const DEFAULT_PAGE: usize = 100;

/// Who a seat is for when a match is made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, tag = "kind", rename_all = "snake_case")]
pub enum SeatRequest {
    /// A person takes it (`TakeSeat`).
    Open,
    /// The server's AI at `level`.
    Ai {
        /// `easy`, `normal` or `hard`.
        level: String,
    },
}

/// Make a match of a pack's mode (`POST /api/matches`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateMatch {
    /// The pack's id.
    pub pack: String,
    /// The mode's id; empty: the pack's first.
    #[serde(default)]
    pub mode: String,
    /// Another board than the mode's: a map of the pack or of one it loads
    /// (`maps/deals/three.ron`); empty: the mode's.
    #[serde(default)]
    pub map: String,
    /// The pack's settings (`rounds` -> `4`), checked as `--set` is.
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
    /// Seats by name (`silver` -> AI); a seat not named is open.
    #[serde(default)]
    pub seats: BTreeMap<String, SeatRequest>,
    /// The game's seed; none: the server draws one (told with the log after the end).
    #[serde(default)]
    pub seed: Option<u64>,
    /// Whether anyone may fetch the whole log once it is over.
    #[serde(default = "yes")]
    pub log_after_end: bool,
}

fn yes() -> bool {
    true
}

/// Take a seat (`POST /api/matches/ID/seats`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeSeat {
    /// The seat's name; none: the first open one.
    #[serde(default)]
    pub seat: Option<String>,
    /// The name the others see (at most 40 characters).
    pub name: String,
}

/// A seat taken: its token is the only key to it, kept by the client to reconnect.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatTaken {
    /// The match's id.
    pub match_id: String,
    /// The seat's name.
    pub seat: String,
    /// 128 random bits, hex.
    pub token: String,
}

/// Give a seat up (`POST /api/matches/ID/leave`): it is open again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaveSeat {
    /// The seat's token.
    pub token: String,
}

/// A lobby request refused: the HTTP status says what kind, this says what and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The message.
    pub error: String,
}

// ---------------------------------------------------------------------------------------------
// Play.

/// What a client sends on its WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, tag = "type", rename_all = "snake_case")]
pub enum ClientFrame {
    /// The first frame: the seat's token (none: watch as a spectator) and the last action
    /// seen (on a reconnect; the events since then are sent with the view).
    Hello {
        /// The seat's token.
        #[serde(default)]
        token: Option<String>,
        /// The number of actions the client had seen.
        #[serde(default)]
        seen: Option<u64>,
    },
    /// An action of the seat's, in the engine's form.
    Act {
        /// The action.
        action: Action,
        /// The `actions` of the view it was chosen from: the server refuses it if the game
        /// has moved on since (another seat acted, or an earlier action of this seat's not
        /// yet seen), so that an action chosen from a stale view is never played. None: play
        /// it on whatever the game is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<u64>,
    },
    /// The seat is ready for the match's next round (it begins once every person is, or
    /// after the server's pause).
    Next,
}

/// What the server sends on a WebSocket.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerFrame {
    /// The answer to `Hello`: the match, the seat (none for a spectator) and what the client
    /// needs to show the game: the map as a map file's text, the complete rule set, and the
    /// mode's own help if it has one.
    Welcome {
        /// The match.
        #[serde(rename = "match")]
        match_info: MatchInfo,
        /// The seat's name.
        seat: Option<String>,
        /// The map, as a map file (RON).
        map: String,
        /// The rule set played with.
        rules: Box<RuleSet>,
        /// How the mode is played, from its scripts.
        help: Option<String>,
        /// The tileset the board is drawn with, as a file of one of the match's packs (a
        /// client lacking that pack fetches it by its hash: `GET /api/packs/SHA256`).
        #[serde(default)]
        tileset: Option<PackFile>,
    },
    /// The game as the seat sees it after `actions` actions, and what happened since the last
    /// view as the seat saw it.
    View(Box<View>),
    /// The match's seats changed (someone took, left, connected).
    Seats {
        /// The match.
        #[serde(rename = "match")]
        match_info: MatchInfo,
    },
    /// The seat's action was refused by the rules: nothing changed.
    Refused {
        /// Why, in the engine's words.
        message: String,
    },
    /// A frame was not accepted (malformed, too long, not the seat's to send, too many).
    Error {
        /// What was wrong.
        message: String,
    },
}

/// A seat's view (see [`ServerFrame::View`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct View {
    /// Actions played so far.
    pub actions: u64,
    /// The game as the seat may see it.
    pub snapshot: Snapshot,
    /// What happened since the client's last view, as the seat saw it.
    pub events: Vec<Event>,
    /// Events before these that were not kept (a client far behind).
    #[serde(default)]
    pub events_dropped: u64,
    /// In a scripted game, the moves the seat may make now, as `moves` lists them.
    #[serde(default)]
    pub moves: Vec<String>,
    /// What the scripts said since the last view.
    #[serde(default)]
    pub console: Vec<String>,
    /// While a grace period runs, the milliseconds left on the server's clock.
    #[serde(default)]
    pub grace_left_ms: Option<u64>,
    /// In a match that gives a move a time (`move_time`), the milliseconds left on the
    /// server's clock for the move it waits on (the first to run out, if several choose).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_left_ms: Option<u64>,
}

#[cfg(test)]
mod schema_tests;
#[cfg(test)]
mod tests;

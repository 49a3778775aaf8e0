//! Where matches outlive the server: one interface ([`Store`]) over an embedded database. A
//! match is written when it is made (its request, and the save it started as: map, rules,
//! scripts and seed), each accepted action is appended before any seat sees its result, and
//! the seats are rewritten when someone takes or leaves one. With each change goes the match's
//! listing (what the lobby shows of it, and when its clock needs it), so that a restarted
//! server lists every match at once and replays one (the engine is deterministic) only when
//! someone or its clock needs it.

use rusqlite::{Connection, OptionalExtension, params};
use scryptic_core::game::Action;
use scryptic_protocol::{CreateMatch, MatchInfo, Occupant};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

/// A match as stored.
#[derive(Clone, Debug)]
pub struct StoredMatch {
    /// Its id.
    pub id: String,
    /// When it was made, in milliseconds since 1970.
    pub created_ms: u64,
    /// What it was made from.
    pub request: CreateMatch,
    /// The save it started as (RON, the format `replay` reads), with no action of a player.
    pub start: String,
    /// Its seats, in seat order.
    pub seats: Vec<StoredSeat>,
    /// Every action accepted since, in order.
    pub actions: Vec<LoggedAction>,
}

/// A seat as stored: who sits there and the hash of its token (never the token).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// Who sits there (a person's `connected` is not kept: after a restart nobody is).
    pub occupant: Occupant,
    /// SHA-256 of the seat's token, hex.
    pub token_hash: Option<String>,
    /// When a person took it (milliseconds since 1970): the last seat taken starts the first
    /// move's time, which a restart takes up again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_ms: Option<u64>,
}

/// What the log holds: a seat's or the server's action, or the start of a match's next
/// round (a new game, carrying the rounds before it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// An action, in the engine's form.
    Action(Action),
    /// The next round began.
    NextRound,
}

/// An accepted entry and when it was accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedAction {
    /// The action, or the next round.
    pub entry: Entry,
    /// When, in milliseconds since 1970 (the clocks resume from it).
    pub at_ms: u64,
}

/// What the lobby lists of a match, kept with it: a match asleep (or, sharing a database,
/// served by another process) is listed without its game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The match as the lobby lists it.
    pub info: MatchInfo,
    /// When its clock or an AI seat needs it next (milliseconds since 1970); none: only a
    /// person coming wakes it.
    #[serde(default)]
    pub wake_at_ms: Option<u64>,
}

/// A match as the database lists it, without its log.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// When it was made, in milliseconds since 1970.
    pub created_ms: u64,
    /// Its listing as last written (none if never written, or unreadable: the match is then
    /// replayed to list it).
    pub listing: Option<Listing>,
    /// The entries its log holds (a listing that counts fewer was written before the last).
    pub entries: u64,
}

/// Storage failed: the server says so and refuses what it could not keep.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("the match database failed: {0}")]
    Database(#[from] rusqlite::Error),
    /// A stored row is not what this server writes.
    #[error("match {id}: its stored {what} cannot be read ({why})")]
    Unreadable {
        /// The match.
        id: String,
        /// Which part.
        what: &'static str,
        /// Why.
        why: String,
    },
    /// The database's file could not be made its owner's alone.
    #[error("cannot make {} readable by its owner only: {why}", path.display())]
    Private {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        why: String,
    },
    /// The shared database (PostgreSQL) refused or failed.
    #[error("the shared match database failed: {0}")]
    Shared(String),
    /// An action appended out of order.
    #[error("match {id}: action {seq} appended after {had} actions")]
    OutOfOrder {
        /// The match.
        id: String,
        /// The action's number.
        seq: u64,
        /// Actions the log holds.
        had: u64,
    },
}

/// Where matches are kept.
pub trait Store: Send + Sync {
    /// Writes a new match (its log empty) and its listing.
    fn create(&self, stored: &StoredMatch, listing: &Listing) -> Result<(), StoreError>;
    /// Appends the match's entry number `seq` (from 0) and its listing after it, in one
    /// transaction: refused unless it is the next.
    fn append(
        &self,
        id: &str,
        seq: u64,
        action: &LoggedAction,
        listing: &Listing,
    ) -> Result<(), StoreError>;
    /// Rewrites the match's seats and its listing, in one transaction.
    fn set_seats(
        &self,
        id: &str,
        seats: &[StoredSeat],
        listing: &Listing,
    ) -> Result<(), StoreError>;
    /// Rewrites the match's listing (someone connected or left, it fell asleep).
    fn set_listing(&self, id: &str, listing: &Listing) -> Result<(), StoreError>;
    /// Every match's listing, oldest first, with the entries its log holds.
    fn listings(&self) -> Result<Vec<Listed>, StoreError>;
    /// Match `id` with its whole log; none if there is no such match.
    fn load(&self, id: &str) -> Result<Option<StoredMatch>, StoreError>;
    /// A page of the listings, newest first (`limit` from the `offset`th), and how many
    /// matches there are: what every process's lobby lists.
    fn page(&self, offset: usize, limit: usize) -> Result<(Vec<Listing>, u64), StoreError>;
    /// The listings of the matches of `ids` there are, newest first.
    fn listings_of(&self, ids: &[String]) -> Result<Vec<Listing>, StoreError>;
    /// Records that the process at `url` serves shard `shard` of the matches.
    fn set_server(&self, shard: u32, url: &str) -> Result<(), StoreError>;
    /// The address of the process serving each shard, by shard.
    fn servers(&self) -> Result<std::collections::BTreeMap<u32, String>, StoreError>;
    /// Takes the lease of `shard` for this process, if no live process holds it: whether
    /// this process holds it now. A database of one process's own always gives it.
    fn try_lease(&self, _shard: u32) -> Result<bool, StoreError> {
        Ok(true)
    }
}

/// `text` as a listing, or none (a row written before listings were kept, or not readable:
/// the match is replayed to list it).
pub(crate) fn listing_of(text: Option<String>) -> Option<Listing> {
    serde_json::from_str(&text?).ok()
}

/// The matches in one SQLite file (WAL: a reader never waits on the writer, and an append
/// is in the file before `append` returns, so a killed process loses nothing acknowledged).
pub struct SqliteStore {
    db: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    request TEXT NOT NULL,
    start TEXT NOT NULL,
    seats TEXT NOT NULL,
    listing TEXT
);
CREATE TABLE IF NOT EXISTS servers (
    shard INTEGER PRIMARY KEY,
    url TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_by_age ON matches (created_ms);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
);
";

impl SqliteStore {
    /// Opens (or makes) the database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        // SQLite makes its files with the umask's mode, and its journal with the database's:
        // the file is made the owner's alone first, so that every rack stays the server's.
        scryptic_core::fsutil::make_private_file(path).map_err(|e| StoreError::Private {
            path: path.to_path_buf(),
            why: e.to_string(),
        })?;
        let db = Connection::open(path)?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        // NORMAL: a commit is in the WAL before it returns, safe from a killed process (a
        // power cut may lose the last commits, never corrupt the file).
        db.pragma_update(None, "synchronous", "NORMAL")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        db.execute_batch(SCHEMA)?;
        // A database from before listings were kept gains their column (its matches are
        // replayed once to list them).
        if db.prepare("SELECT listing FROM matches LIMIT 0").is_err() {
            db.execute_batch("ALTER TABLE matches ADD COLUMN listing TEXT")?;
        }
        Ok(SqliteStore { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding it cannot leave a half-written row (SQLite's transaction
        // is atomic), so a poisoned lock is still a good connection.
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }
}

pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    id: &str,
    what: &'static str,
    text: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Unreadable {
        id: id.to_string(),
        what,
        why: e.to_string(),
    })
}

impl Store for SqliteStore {
    fn create(&self, stored: &StoredMatch, listing: &Listing) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT INTO matches (id, created_ms, request, start, seats, listing) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                stored.id,
                stored.created_ms as i64,
                to_json(&stored.request),
                stored.start,
                to_json(&stored.seats),
                to_json(listing)
            ],
        )?;
        Ok(())
    }

    fn append(
        &self,
        id: &str,
        seq: u64,
        action: &LoggedAction,
        listing: &Listing,
    ) -> Result<(), StoreError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        let had: i64 = tx
            .query_row(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = ?1",
                params![id],
                |row| row.get(0),
            )
            .optional()?
            .unwrap_or(0);
        if had as u64 != seq {
            return Err(StoreError::OutOfOrder {
                id: id.to_string(),
                seq,
                had: had as u64,
            });
        }
        tx.execute(
            "INSERT INTO actions (match_id, seq, action, at_ms) VALUES (?1, ?2, ?3, ?4)",
            params![id, seq as i64, to_json(&action.entry), action.at_ms as i64],
        )?;
        tx.execute(
            "UPDATE matches SET listing = ?2 WHERE id = ?1",
            params![id, to_json(listing)],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn set_seats(
        &self,
        id: &str,
        seats: &[StoredSeat],
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE matches SET seats = ?2, listing = ?3 WHERE id = ?1",
            params![id, to_json(&seats), to_json(listing)],
        )?;
        Ok(())
    }

    fn set_listing(&self, id: &str, listing: &Listing) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE matches SET listing = ?2 WHERE id = ?1",
            params![id, to_json(listing)],
        )?;
        Ok(())
    }

    fn listings(&self) -> Result<Vec<Listed>, StoreError> {
        let db = self.db();
        let mut statement = db.prepare(
            "SELECT id, created_ms, listing, \
             (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = matches.id) \
             FROM matches ORDER BY created_ms, id",
        )?;
        let rows = statement.query_map([], |row| {
            Ok(Listed {
                id: row.get(0)?,
                created_ms: row.get::<_, i64>(1)? as u64,
                listing: listing_of(row.get(2)?),
                entries: row.get::<_, i64>(3)? as u64,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn load(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        let db = self.db();
        let row = db
            .query_row(
                "SELECT created_ms, request, start, seats FROM matches WHERE id = ?1",
                params![id],
                |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                    ))
                },
            )
            .optional()?;
        let Some((created_ms, request, start, seats)) = row else {
            return Ok(None);
        };
        let mut stored = StoredMatch {
            id: id.to_string(),
            created_ms: created_ms as u64,
            request: from_json(id, "request", &request)?,
            start,
            seats: from_json(id, "seats", &seats)?,
            actions: Vec::new(),
        };
        let mut actions =
            db.prepare("SELECT action, at_ms FROM actions WHERE match_id = ?1 ORDER BY seq")?;
        let rows = actions.query_map(params![id], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
        })?;
        for row in rows {
            let (action, at_ms) = row?;
            stored.actions.push(LoggedAction {
                entry: from_json(id, "action", &action)?,
                at_ms: at_ms as u64,
            });
        }
        Ok(Some(stored))
    }

    fn page(&self, offset: usize, limit: usize) -> Result<(Vec<Listing>, u64), StoreError> {
        let listings = self.read_listings(
            "SELECT listing FROM matches ORDER BY created_ms DESC, id LIMIT ?1 OFFSET ?2",
            params![limit as i64, i64::try_from(offset).unwrap_or(i64::MAX)],
        )?;
        let total: i64 = self
            .db()
            .query_row("SELECT COUNT(*) FROM matches", [], |row| row.get(0))?;
        Ok((listings, total as u64))
    }

    fn listings_of(&self, ids: &[String]) -> Result<Vec<Listing>, StoreError> {
        let ids = serde_json::to_string(ids).unwrap_or_default();
        self.read_listings(
            "SELECT listing FROM matches WHERE id IN (SELECT value FROM json_each(?1)) \
             ORDER BY created_ms DESC, id",
            params![ids],
        )
    }

    fn set_server(&self, shard: u32, url: &str) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT INTO servers (shard, url) VALUES (?1, ?2) \
             ON CONFLICT (shard) DO UPDATE SET url = excluded.url",
            params![shard, url],
        )?;
        Ok(())
    }

    fn servers(&self) -> Result<std::collections::BTreeMap<u32, String>, StoreError> {
        let db = self.db();
        let mut statement = db.prepare("SELECT shard, url FROM servers")?;
        let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

impl SqliteStore {
    /// The listings `sql` selects (its one column), read; unreadable ones left out.
    fn read_listings(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<Listing>, StoreError> {
        let db = self.db();
        let mut statement = db.prepare(sql)?;
        let rows = statement.query_map(params, |row| row.get::<_, Option<String>>(0))?;
        let mut listings = Vec::new();
        for row in rows {
            listings.extend(listing_of(row?));
        }
        Ok(listings)
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
pub(crate) mod tests;

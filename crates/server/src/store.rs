//! Where matches outlive the server: one interface ([`Store`]) over an embedded database. A
//! match is written when it is made (its request, and the save it started as: map, rules,
//! scripts and seed), each accepted action is appended before any seat sees its result, and
//! the seats are rewritten when someone takes or leaves one. A restarted server reads every
//! match back and replays its actions through the engine, which is deterministic.

use rusqlite::{Connection, OptionalExtension, params};
use scryptic_core::game::Action;
use scryptic_protocol::{CreateMatch, Occupant};
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
    /// Writes a new match (its actions empty).
    fn create(&self, stored: &StoredMatch) -> Result<(), StoreError>;
    /// Appends the match's action number `seq` (from 0): refused unless it is the next.
    fn append(&self, id: &str, seq: u64, action: &LoggedAction) -> Result<(), StoreError>;
    /// Rewrites the match's seats.
    fn set_seats(&self, id: &str, seats: &[StoredSeat]) -> Result<(), StoreError>;
    /// Every match, oldest first, with its actions.
    fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError>;
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
    seats TEXT NOT NULL
);
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
    fn create(&self, stored: &StoredMatch) -> Result<(), StoreError> {
        self.db().execute(
            "INSERT INTO matches (id, created_ms, request, start, seats) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                stored.id,
                stored.created_ms as i64,
                to_json(&stored.request),
                stored.start,
                to_json(&stored.seats)
            ],
        )?;
        Ok(())
    }

    fn append(&self, id: &str, seq: u64, action: &LoggedAction) -> Result<(), StoreError> {
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
        tx.commit()?;
        Ok(())
    }

    fn set_seats(&self, id: &str, seats: &[StoredSeat]) -> Result<(), StoreError> {
        self.db().execute(
            "UPDATE matches SET seats = ?2 WHERE id = ?1",
            params![id, to_json(&seats)],
        )?;
        Ok(())
    }

    fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let db = self.db();
        let mut statement = db.prepare(
            "SELECT id, created_ms, request, start, seats FROM matches ORDER BY created_ms, id",
        )?;
        let rows = statement.query_map([], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, i64>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, String>(4)?,
            ))
        })?;
        let mut matches = Vec::new();
        for row in rows {
            let (id, created_ms, request, start, seats) = row?;
            matches.push(StoredMatch {
                request: from_json(&id, "request", &request)?,
                seats: from_json(&id, "seats", &seats)?,
                created_ms: created_ms as u64,
                start,
                actions: Vec::new(),
                id,
            });
        }
        let mut actions =
            db.prepare("SELECT action, at_ms FROM actions WHERE match_id = ?1 ORDER BY seq")?;
        for stored in &mut matches {
            let rows = actions.query_map(params![stored.id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?))
            })?;
            for row in rows {
                let (action, at_ms) = row?;
                stored.actions.push(LoggedAction {
                    entry: from_json(&stored.id, "action", &action)?,
                    at_ms: at_ms as u64,
                });
            }
        }
        Ok(matches)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn stored(id: &str) -> StoredMatch {
        StoredMatch {
            id: id.to_string(),
            created_ms: 1,
            request: CreateMatch {
                pack: "core".into(),
                mode: String::new(),
                map: String::new(),
                settings: Default::default(),
                seats: Default::default(),
                seed: Some(3),
                log_after_end: true,
            },
            start: "(version: 1)".into(),
            seats: vec![StoredSeat {
                occupant: Occupant::Open,
                token_hash: None,
            }],
            actions: Vec::new(),
        }
    }

    /// The suite every store passes: a match and its entries come back in order, and only
    /// in order; its seats as last written. `reopen` gives the store again (after a restart).
    pub(crate) fn check(store: &dyn Store, reopen: &dyn Fn() -> Box<dyn Store>) {
        let id = format!("test-{:016x}", rand::random::<u64>());
        store.create(&stored(&id)).unwrap();
        let end = LoggedAction {
            entry: Entry::Action(Action::EndTurn),
            at_ms: 5,
        };
        store.append(&id, 0, &end).unwrap();
        let late = store.append(&id, 2, &end).unwrap_err();
        assert!(
            late.to_string().contains("action 2 appended after 1"),
            "{late}"
        );
        let again = store.append(&id, 0, &end).unwrap_err();
        assert!(
            again.to_string().contains("action 0 appended after 1"),
            "{again}"
        );
        let next = LoggedAction {
            entry: Entry::NextRound,
            at_ms: 6,
        };
        store.append(&id, 1, &next).unwrap();
        let seat = StoredSeat {
            occupant: Occupant::Ai {
                level: "easy".into(),
            },
            token_hash: None,
        };
        store.set_seats(&id, std::slice::from_ref(&seat)).unwrap();
        assert!(store.create(&stored(&id)).is_err(), "a match is made once");
        let all = reopen().load_all().unwrap();
        let back = all
            .iter()
            .find(|m| m.id == id)
            .expect("the match comes back");
        assert_eq!(back.actions, vec![end, next]);
        assert_eq!(back.seats, vec![seat]);
        assert_eq!(back.request.seed, Some(3));
    }

    #[test]
    fn sqlite_keeps_matches_and_their_order() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("matches.sqlite");
        let store = SqliteStore::open(&path).unwrap();
        check(&store, &|| Box::new(SqliteStore::open(&path).unwrap()));
    }

    #[test]
    fn memory_keeps_matches_and_their_order() {
        let store = std::sync::Arc::new(MemoryStore::default());
        let kept = store.clone();
        check(&*store, &move || Box::new(SharedMemory(kept.clone())));
    }

    /// The same memory store seen again (as a reopened file would be).
    struct SharedMemory(std::sync::Arc<MemoryStore>);

    impl Store for SharedMemory {
        fn create(&self, stored: &StoredMatch) -> Result<(), StoreError> {
            self.0.create(stored)
        }
        fn append(&self, id: &str, seq: u64, action: &LoggedAction) -> Result<(), StoreError> {
            self.0.append(id, seq, action)
        }
        fn set_seats(&self, id: &str, seats: &[StoredSeat]) -> Result<(), StoreError> {
            self.0.set_seats(id, seats)
        }
        fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError> {
            self.0.load_all()
        }
    }

    /// PostgreSQL, where `.ci/run` starts one (`SCRYPTIC_TEST_POSTGRES` names it; with
    /// `SCRYPTIC_REQUIRE_POSTGRES=1` its absence is a failure, not a skip).
    #[test]
    fn postgres_keeps_matches_and_their_order() {
        let Ok(url) = std::env::var("SCRYPTIC_TEST_POSTGRES") else {
            assert!(
                std::env::var("SCRYPTIC_REQUIRE_POSTGRES").is_err(),
                "SCRYPTIC_REQUIRE_POSTGRES is set but SCRYPTIC_TEST_POSTGRES names no database"
            );
            eprintln!(
                "no PostgreSQL named by SCRYPTIC_TEST_POSTGRES: its store is not tested here"
            );
            return;
        };
        let store = crate::PostgresStore::connect(&url).unwrap();
        check(&store, &|| {
            Box::new(crate::PostgresStore::connect(&url).unwrap())
        });
    }
}

/// Matches kept in memory only: for tests, benchmarks, and a server that needs no restart.
#[derive(Default)]
pub struct MemoryStore {
    matches: Mutex<Vec<StoredMatch>>,
}

impl MemoryStore {
    fn with<T>(&self, work: impl FnOnce(&mut Vec<StoredMatch>) -> T) -> T {
        work(&mut self.matches.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Store for MemoryStore {
    fn create(&self, stored: &StoredMatch) -> Result<(), StoreError> {
        self.with(|m| {
            if m.iter().any(|kept| kept.id == stored.id) {
                return Err(StoreError::Unreadable {
                    id: stored.id.clone(),
                    what: "match",
                    why: "a match of that id is there already".to_string(),
                });
            }
            m.push(stored.clone());
            Ok(())
        })
    }

    fn append(&self, id: &str, seq: u64, action: &LoggedAction) -> Result<(), StoreError> {
        self.with(|matches| {
            let Some(stored) = matches.iter_mut().find(|m| m.id == id) else {
                return Err(StoreError::Unreadable {
                    id: id.to_string(),
                    what: "match",
                    why: "it was never created".to_string(),
                });
            };
            let had = stored.actions.len() as u64;
            if had != seq {
                return Err(StoreError::OutOfOrder {
                    id: id.to_string(),
                    seq,
                    had,
                });
            }
            stored.actions.push(action.clone());
            Ok(())
        })
    }

    fn set_seats(&self, id: &str, seats: &[StoredSeat]) -> Result<(), StoreError> {
        self.with(|matches| {
            if let Some(stored) = matches.iter_mut().find(|m| m.id == id) {
                stored.seats = seats.to_vec();
            }
        });
        Ok(())
    }

    fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError> {
        Ok(self.with(|m| m.clone()))
    }
}

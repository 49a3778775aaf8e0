//! The matches in PostgreSQL, for several server processes that share one database: each
//! serves the matches of its shard (`Options::shard`), and the database holds them all. The
//! same tables as SQLite's; an entry is appended in a transaction that refuses a gap or a
//! second writer of the same place in a match's log.

use crate::store::{LoggedAction, Store, StoreError, StoredMatch, StoredSeat, from_json, to_json};
use postgres::{Client, NoTls};
use std::sync::Mutex;

/// A PostgreSQL database of matches.
pub struct PostgresStore {
    db: Mutex<Client>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    created_ms BIGINT NOT NULL,
    request TEXT NOT NULL,
    start TEXT NOT NULL,
    seats TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq BIGINT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
";

fn failed(e: postgres::Error) -> StoreError {
    StoreError::Shared(e.to_string())
}

impl PostgresStore {
    /// Connects to the database `url` (`postgres://user:password@host/db`, or
    /// `host=... user=... dbname=...`) and makes the tables if they are not there.
    pub fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let mut db = Client::connect(url, NoTls).map_err(|e| {
            StoreError::Shared(format!(
                "{e}: is the database `{}` there and reachable? (--database postgres://user:password@host/db)",
                without_password(url)
            ))
        })?;
        db.batch_execute(SCHEMA).map_err(failed)?;
        Ok(PostgresStore { db: Mutex::new(db) })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Client> {
        // A failed statement leaves no transaction open (each is one, or rolled back).
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `url` as a message may show it: its password left out.
fn without_password(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        return match rest.rsplit_once('@') {
            Some((_, host)) => format!("{scheme}://...@{host}"),
            None => url.to_string(),
        };
    }
    url.split_whitespace()
        .filter(|part| !part.starts_with("password="))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Store for PostgresStore {
    fn create(&self, stored: &StoredMatch) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT INTO matches (id, created_ms, request, start, seats) VALUES ($1, $2, $3, $4, $5)",
                &[
                    &stored.id,
                    &(stored.created_ms as i64),
                    &to_json(&stored.request),
                    &stored.start,
                    &to_json(&stored.seats),
                ],
            )
            .map_err(failed)?;
        Ok(())
    }

    fn append(&self, id: &str, seq: u64, action: &LoggedAction) -> Result<(), StoreError> {
        let mut db = self.db();
        let mut tx = db.transaction().map_err(failed)?;
        let row = tx
            .query_one(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = $1",
                &[&id],
            )
            .map_err(failed)?;
        let had: i64 = row.get(0);
        if had as u64 != seq {
            return Err(StoreError::OutOfOrder {
                id: id.to_string(),
                seq,
                had: had as u64,
            });
        }
        tx.execute(
            "INSERT INTO actions (match_id, seq, action, at_ms) VALUES ($1, $2, $3, $4)",
            &[
                &id,
                &(seq as i64),
                &to_json(&action.entry),
                &(action.at_ms as i64),
            ],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)?;
        Ok(())
    }

    fn set_seats(&self, id: &str, seats: &[StoredSeat]) -> Result<(), StoreError> {
        self.db()
            .execute(
                "UPDATE matches SET seats = $2 WHERE id = $1",
                &[&id, &to_json(&seats)],
            )
            .map_err(failed)?;
        Ok(())
    }

    fn load_all(&self) -> Result<Vec<StoredMatch>, StoreError> {
        let mut db = self.db();
        let rows = db
            .query(
                "SELECT id, created_ms, request, start, seats FROM matches ORDER BY created_ms, id",
                &[],
            )
            .map_err(failed)?;
        let mut matches = Vec::with_capacity(rows.len());
        for row in rows {
            let id: String = row.get(0);
            let created_ms: i64 = row.get(1);
            let request: String = row.get(2);
            let seats: String = row.get(4);
            matches.push(StoredMatch {
                request: from_json(&id, "request", &request)?,
                seats: from_json(&id, "seats", &seats)?,
                created_ms: created_ms as u64,
                start: row.get(3),
                actions: Vec::new(),
                id,
            });
        }
        for stored in &mut matches {
            let rows = db
                .query(
                    "SELECT action, at_ms FROM actions WHERE match_id = $1 ORDER BY seq",
                    &[&stored.id],
                )
                .map_err(failed)?;
            for row in rows {
                let action: String = row.get(0);
                let at_ms: i64 = row.get(1);
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
mod tests {
    #[test]
    fn a_message_never_shows_the_password() {
        for (url, shown) in [
            (
                "postgres://ann:secret@db.example/matches",
                "postgres://...@db.example/matches",
            ),
            (
                "host=db user=ann password=secret dbname=m",
                "host=db user=ann dbname=m",
            ),
        ] {
            assert_eq!(super::without_password(url), shown);
        }
    }
}

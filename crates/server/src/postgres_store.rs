//! The matches in PostgreSQL, for several server processes that share one database: each
//! serves the matches of its shard (`Options::shard`), and the database holds them all. The
//! same tables as SQLite's; an entry is appended in a transaction that refuses a gap or a
//! second writer of the same place in a match's log.

use crate::store::{
    Listed, Listing, LoggedAction, Store, StoreError, StoredMatch, StoredSeat, from_json,
    listing_of, to_json,
};
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
ALTER TABLE matches ADD COLUMN IF NOT EXISTS listing TEXT;
CREATE INDEX IF NOT EXISTS matches_by_age ON matches (created_ms);
CREATE TABLE IF NOT EXISTS servers (
    shard BIGINT PRIMARY KEY,
    url TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches(id),
    seq BIGINT NOT NULL,
    action TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
";

/// The class of the advisory locks that are the shards' leases ("SC"), each keyed by its shard.
const LEASE_LOCKS: i32 = 0x5343;

/// The advisory lock under which a process makes the tables ("SCRYPTIC" in ASCII, as a key).
const SCHEMA_LOCK: i64 = 0x5343_5259_5054_4943;

fn failed(e: postgres::Error) -> StoreError {
    // The server's own words, not "db error".
    match e.as_db_error() {
        Some(db) => StoreError::Shared(format!("{}: {}", db.severity(), db.message())),
        None => StoreError::Shared(e.to_string()),
    }
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
        // Processes starting at once would race to make the tables (PostgreSQL refuses the
        // second CREATE of a type): one at a time, under a lock of the transaction's.
        let schema =
            format!("BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} COMMIT;");
        db.batch_execute(&schema).map_err(failed)?;
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
    fn create(&self, stored: &StoredMatch, listing: &Listing) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT INTO matches (id, created_ms, request, start, seats, listing) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &stored.id,
                    &(stored.created_ms as i64),
                    &to_json(&stored.request),
                    &stored.start,
                    &to_json(&stored.seats),
                    &to_json(listing),
                ],
            )
            .map_err(failed)?;
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
        tx.execute(
            "UPDATE matches SET listing = $2 WHERE id = $1",
            &[&id, &to_json(listing)],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)?;
        Ok(())
    }

    fn set_seats(
        &self,
        id: &str,
        seats: &[StoredSeat],
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.db()
            .execute(
                "UPDATE matches SET seats = $2, listing = $3 WHERE id = $1",
                &[&id, &to_json(&seats), &to_json(listing)],
            )
            .map_err(failed)?;
        Ok(())
    }

    fn set_listing(&self, id: &str, listing: &Listing) -> Result<(), StoreError> {
        self.db()
            .execute(
                "UPDATE matches SET listing = $2 WHERE id = $1",
                &[&id, &to_json(listing)],
            )
            .map_err(failed)?;
        Ok(())
    }

    fn listings(&self) -> Result<Vec<Listed>, StoreError> {
        let rows = self
            .db()
            .query(
                "SELECT id, created_ms, listing, \
                 (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE match_id = matches.id) \
                 FROM matches ORDER BY created_ms, id",
                &[],
            )
            .map_err(failed)?;
        Ok(rows
            .into_iter()
            .map(|row| Listed {
                id: row.get(0),
                created_ms: row.get::<_, i64>(1) as u64,
                listing: listing_of(row.get(2)),
                entries: row.get::<_, i64>(3) as u64,
            })
            .collect())
    }

    fn load(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        let mut db = self.db();
        let Some(row) = db
            .query_opt(
                "SELECT created_ms, request, start, seats FROM matches WHERE id = $1",
                &[&id],
            )
            .map_err(failed)?
        else {
            return Ok(None);
        };
        let request: String = row.get(1);
        let seats: String = row.get(3);
        let mut stored = StoredMatch {
            id: id.to_string(),
            created_ms: row.get::<_, i64>(0) as u64,
            request: from_json(id, "request", &request)?,
            start: row.get(2),
            seats: from_json(id, "seats", &seats)?,
            actions: Vec::new(),
        };
        let rows = db
            .query(
                "SELECT action, at_ms FROM actions WHERE match_id = $1 ORDER BY seq",
                &[&id],
            )
            .map_err(failed)?;
        for row in rows {
            let action: String = row.get(0);
            let at_ms: i64 = row.get(1);
            stored.actions.push(LoggedAction {
                entry: from_json(id, "action", &action)?,
                at_ms: at_ms as u64,
            });
        }
        Ok(Some(stored))
    }

    fn page(&self, offset: usize, limit: usize) -> Result<(Vec<Listing>, u64), StoreError> {
        let mut db = self.db();
        let rows = db
            .query(
                "SELECT listing FROM matches ORDER BY created_ms DESC, id LIMIT $1 OFFSET $2",
                &[&(limit as i64), &i64::try_from(offset).unwrap_or(i64::MAX)],
            )
            .map_err(failed)?;
        let total: i64 = db
            .query_one("SELECT COUNT(*) FROM matches", &[])
            .map_err(failed)?
            .get(0);
        let listings = rows.into_iter().filter_map(|r| listing_of(r.get(0)));
        Ok((listings.collect(), total as u64))
    }

    fn listings_of(&self, ids: &[String]) -> Result<Vec<Listing>, StoreError> {
        let rows = self
            .db()
            .query(
                "SELECT listing FROM matches WHERE id = ANY($1) ORDER BY created_ms DESC, id",
                &[&ids],
            )
            .map_err(failed)?;
        Ok(rows
            .into_iter()
            .filter_map(|r| listing_of(r.get(0)))
            .collect())
    }

    fn set_server(&self, shard: u32, url: &str) -> Result<(), StoreError> {
        self.db()
            .execute(
                "INSERT INTO servers (shard, url) VALUES ($1, $2) \
                 ON CONFLICT (shard) DO UPDATE SET url = excluded.url",
                &[&i64::from(shard), &url],
            )
            .map_err(failed)?;
        Ok(())
    }

    fn try_lease(&self, shard: u32) -> Result<bool, StoreError> {
        // A lock of this connection's session: PostgreSQL releases it when the process's
        // connection ends (the process stopped, was killed, or lost the database), and then
        // another process may take the shard. It is never taken twice.
        let row = self
            .db()
            .query_one(
                "SELECT pg_try_advisory_lock($1, $2)",
                &[&LEASE_LOCKS, &(shard as i32)],
            )
            .map_err(failed)?;
        Ok(row.get(0))
    }

    fn servers(&self) -> Result<std::collections::BTreeMap<u32, String>, StoreError> {
        let rows = self
            .db()
            .query("SELECT shard, url FROM servers", &[])
            .map_err(failed)?;
        Ok(rows
            .into_iter()
            .map(|r| (r.get::<_, i64>(0) as u32, r.get(1)))
            .collect())
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

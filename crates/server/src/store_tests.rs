use super::*;
use crate::MemoryStore;
use scryptic_protocol::MatchState;

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
            taken_ms: None,
        }],
        actions: Vec::new(),
    }
}

/// A listing of match `id` after `actions` entries.
fn listing(id: &str, actions: u64, wake_at_ms: Option<u64>) -> Listing {
    Listing {
        info: MatchInfo {
            id: id.to_string(),
            title: "t".into(),
            mode: "core".into(),
            packs: Vec::new(),
            settings: Default::default(),
            seats: Vec::new(),
            state: MatchState::Playing,
            actions,
            log_after_end: true,
            turn: 1,
            to_act: Vec::new(),
            scores: Vec::new(),
            ended: None,
            started_ms: 1,
            last_moved_ms: 1,
            move_due_ms: wake_at_ms,
            server: None,
        },
        wake_at_ms,
    }
}

/// The suite every store passes: a match and its entries come back in order, and only in
/// order; its seats and listing as last written. `reopen` gives the store again (after a
/// restart).
pub(crate) fn check(store: &dyn Store, reopen: &dyn Fn() -> Box<dyn Store>) {
    let id = format!("test-{:016x}", rand::random::<u64>());
    store.create(&stored(&id), &listing(&id, 0, None)).unwrap();
    let end = LoggedAction {
        entry: Entry::Action(Action::EndTurn),
        at_ms: 5,
    };
    store.append(&id, 0, &end, &listing(&id, 1, None)).unwrap();
    let late = store
        .append(&id, 2, &end, &listing(&id, 9, None))
        .unwrap_err();
    assert!(
        late.to_string().contains("action 2 appended after 1"),
        "{late}"
    );
    let again = store
        .append(&id, 0, &end, &listing(&id, 9, None))
        .unwrap_err();
    assert!(
        again.to_string().contains("action 0 appended after 1"),
        "{again}"
    );
    let next = LoggedAction {
        entry: Entry::NextRound,
        at_ms: 6,
    };
    store.append(&id, 1, &next, &listing(&id, 2, None)).unwrap();
    let seat = StoredSeat {
        occupant: Occupant::Ai {
            level: "easy".into(),
        },
        token_hash: None,
        taken_ms: Some(4),
    };
    let seated = listing(&id, 2, Some(99));
    store
        .set_seats(&id, std::slice::from_ref(&seat), &seated)
        .unwrap();
    assert!(
        store.create(&stored(&id), &seated).is_err(),
        "a match is made once"
    );
    let again = reopen();
    let back = again.load(&id).unwrap().expect("the match comes back");
    assert_eq!(back.actions, vec![end, next]);
    assert_eq!(back.seats, vec![seat]);
    assert_eq!(back.request.seed, Some(3));
    assert!(again.load("no-such-match").unwrap().is_none());
    let listed = again.listings().unwrap();
    let listed = listed.iter().find(|l| l.id == id).unwrap();
    assert_eq!(listed.entries, 2);
    assert_eq!(listed.listing.as_ref(), Some(&seated));
    let asleep = listing(&id, 2, Some(120));
    again.set_listing(&id, &asleep).unwrap();
    let listed = reopen().listings().unwrap();
    let listed = listed.iter().find(|l| l.id == id).unwrap();
    assert_eq!(listed.listing.as_ref(), Some(&asleep));
    // The lobby's reads: by id, and a page, newest first (a match made later comes first).
    let later = format!("{id}-later");
    let mut newer = stored(&later);
    newer.created_ms = 2;
    store.create(&newer, &listing(&later, 0, None)).unwrap();
    let both = [id.clone(), later.clone(), "nothing".to_string()];
    let of = store.listings_of(&both).unwrap();
    let ids: Vec<&str> = of.iter().map(|l| l.info.id.as_str()).collect();
    assert_eq!(ids, [later.as_str(), id.as_str()]);
    let (page, total) = store.page(0, 100_000).unwrap();
    // A match listed by none (a database from before listings) is counted, not listed.
    assert!(total >= 2 && page.len() as u64 <= total, "{total}");
    let at = |wanted: &str| page.iter().position(|l| l.info.id == wanted).unwrap();
    assert!(at(&later) < at(&id), "newest first");
    store.set_server(3, "http://a:1").unwrap();
    store.set_server(3, "http://b:2").unwrap();
    assert_eq!(
        reopen().servers().unwrap().get(&3).map(String::as_str),
        Some("http://b:2")
    );
}

#[test]
fn sqlite_keeps_matches_and_their_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("matches.sqlite");
    let store = SqliteStore::open(&path).unwrap();
    check(&store, &|| Box::new(SqliteStore::open(&path).unwrap()));
}

#[test]
fn a_database_from_before_listings_gains_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("matches.sqlite");
    {
        let db = Connection::open(&path).unwrap();
        db.execute_batch(
            "CREATE TABLE matches (id TEXT PRIMARY KEY, created_ms INTEGER NOT NULL, \
             request TEXT NOT NULL, start TEXT NOT NULL, seats TEXT NOT NULL);",
        )
        .unwrap();
        let old = stored("old");
        db.execute(
            "INSERT INTO matches (id, created_ms, request, start, seats) VALUES ('old', 1, ?1, ?2, ?3)",
            params![to_json(&old.request), old.start, to_json(&old.seats)],
        )
        .unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    let listed = store.listings().unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].listing.is_none(), "replayed to be listed");
    assert!(store.load("old").unwrap().is_some());
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
    fn create(&self, stored: &StoredMatch, listing: &Listing) -> Result<(), StoreError> {
        self.0.create(stored, listing)
    }
    fn append(
        &self,
        id: &str,
        seq: u64,
        action: &LoggedAction,
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.0.append(id, seq, action, listing)
    }
    fn set_seats(
        &self,
        id: &str,
        seats: &[StoredSeat],
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.0.set_seats(id, seats, listing)
    }
    fn set_listing(&self, id: &str, listing: &Listing) -> Result<(), StoreError> {
        self.0.set_listing(id, listing)
    }
    fn listings(&self) -> Result<Vec<Listed>, StoreError> {
        self.0.listings()
    }
    fn load(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        self.0.load(id)
    }
    fn page(&self, offset: usize, limit: usize) -> Result<(Vec<Listing>, u64), StoreError> {
        self.0.page(offset, limit)
    }
    fn listings_of(&self, ids: &[String]) -> Result<Vec<Listing>, StoreError> {
        self.0.listings_of(ids)
    }
    fn set_server(&self, shard: u32, url: &str) -> Result<(), StoreError> {
        self.0.set_server(shard, url)
    }
    fn servers(&self) -> Result<std::collections::BTreeMap<u32, String>, StoreError> {
        self.0.servers()
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
        eprintln!("no PostgreSQL named by SCRYPTIC_TEST_POSTGRES: its store is not tested here");
        return;
    };
    let store = crate::PostgresStore::connect(&url).unwrap();
    check(&store, &|| {
        Box::new(crate::PostgresStore::connect(&url).unwrap())
    });
}

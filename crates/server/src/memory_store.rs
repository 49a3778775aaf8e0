//! Matches kept in memory only: for tests, benchmarks, and a server that needs no restart.

use crate::store::{Listed, Listing, LoggedAction, Store, StoreError, StoredMatch, StoredSeat};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Matches kept in memory only: for tests, benchmarks, and a server that needs no restart.
#[derive(Default)]
pub struct MemoryStore {
    matches: Mutex<Vec<(StoredMatch, Listing)>>,
    servers: Mutex<BTreeMap<u32, String>>,
}

impl MemoryStore {
    fn with<T>(&self, work: impl FnOnce(&mut Vec<(StoredMatch, Listing)>) -> T) -> T {
        work(&mut self.matches.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Does `work` on match `id`, or says it was never made.
    fn with_match<T>(
        &self,
        id: &str,
        work: impl FnOnce(&mut (StoredMatch, Listing)) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.with(
            |matches| match matches.iter_mut().find(|(m, _)| m.id == id) {
                Some(kept) => work(kept),
                None => Err(StoreError::Unreadable {
                    id: id.to_string(),
                    what: "match",
                    why: "it was never created".to_string(),
                }),
            },
        )
    }
}

impl Store for MemoryStore {
    fn create(&self, stored: &StoredMatch, listing: &Listing) -> Result<(), StoreError> {
        self.with(|m| {
            if m.iter().any(|(kept, _)| kept.id == stored.id) {
                return Err(StoreError::Unreadable {
                    id: stored.id.clone(),
                    what: "match",
                    why: "a match of that id is there already".to_string(),
                });
            }
            m.push((stored.clone(), listing.clone()));
            Ok(())
        })
    }

    fn append(
        &self,
        id: &str,
        seq: u64,
        action: &LoggedAction,
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.with_match(id, |(stored, listed)| {
            let had = stored.actions.len() as u64;
            if had != seq {
                return Err(StoreError::OutOfOrder {
                    id: id.to_string(),
                    seq,
                    had,
                });
            }
            stored.actions.push(action.clone());
            *listed = listing.clone();
            Ok(())
        })
    }

    fn set_seats(
        &self,
        id: &str,
        seats: &[StoredSeat],
        listing: &Listing,
    ) -> Result<(), StoreError> {
        self.with_match(id, |(stored, listed)| {
            stored.seats = seats.to_vec();
            *listed = listing.clone();
            Ok(())
        })
    }

    fn set_listing(&self, id: &str, listing: &Listing) -> Result<(), StoreError> {
        self.with_match(id, |(_, listed)| {
            *listed = listing.clone();
            Ok(())
        })
    }

    fn listings(&self) -> Result<Vec<Listed>, StoreError> {
        Ok(self.with(|matches| {
            matches
                .iter()
                .map(|(stored, listing)| Listed {
                    id: stored.id.clone(),
                    created_ms: stored.created_ms,
                    listing: Some(listing.clone()),
                    entries: stored.actions.len() as u64,
                })
                .collect()
        }))
    }

    fn page(&self, offset: usize, limit: usize) -> Result<(Vec<Listing>, u64), StoreError> {
        Ok(self.with(|matches| {
            let total = matches.len() as u64;
            (
                newest(matches.iter()).skip(offset).take(limit).collect(),
                total,
            )
        }))
    }

    fn listings_of(&self, ids: &[String]) -> Result<Vec<Listing>, StoreError> {
        Ok(self
            .with(|matches| newest(matches.iter().filter(|(m, _)| ids.contains(&m.id))).collect()))
    }

    fn set_server(&self, shard: u32, url: &str) -> Result<(), StoreError> {
        let mut servers = self.servers.lock().unwrap_or_else(|e| e.into_inner());
        servers.insert(shard, url.to_string());
        Ok(())
    }

    fn servers(&self) -> Result<BTreeMap<u32, String>, StoreError> {
        Ok(self
            .servers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone())
    }

    fn load(&self, id: &str) -> Result<Option<StoredMatch>, StoreError> {
        Ok(self.with(|matches| {
            matches
                .iter()
                .find(|(m, _)| m.id == id)
                .map(|(m, _)| m.clone())
        }))
    }
}

/// The listings of `matches`, newest first.
fn newest<'a>(
    matches: impl Iterator<Item = &'a (StoredMatch, Listing)>,
) -> impl Iterator<Item = Listing> {
    let mut sorted: Vec<&(StoredMatch, Listing)> = matches.collect();
    sorted.sort_by(|a, b| {
        b.0.created_ms
            .cmp(&a.0.created_ms)
            .then_with(|| a.0.id.cmp(&b.0.id))
    });
    sorted.into_iter().map(|(_, listing)| listing.clone())
}

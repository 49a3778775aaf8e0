//! Many processes, one lobby: processes sharing a database (`--database`, `--shard K/N`) each
//! serve the matches of the shards whose leases they hold (their own shard K, and any whose
//! process is gone: the leases are PostgreSQL's advisory locks of each process's connection,
//! released when it dies). Every process lists every match (the listings are the database's),
//! names in each the address of the process that serves it (its `--public-url`, recorded in
//! the database when it takes a shard), and sends a request for a match it does not serve on
//! to that process: a temporary redirect (307) to the same path there, which browsers and
//! WebSocket clients follow (a WebSocket's handshake too, so a match's link works from any
//! process); a client that cannot resend a POST asks the lobby for `server` first.

use crate::store::{Listing, Store, StoreError};
use crate::{MatchCell, Options, Server, asleep, driver, referee, shard_of};
use axum::response::{IntoResponse, Redirect, Response};
use scryptic_core::lexicon::Lexicon;
use scryptic_pack::Catalog;
use scryptic_protocol::MatchInfo;
use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::sync::Arc;

/// Where clients reach a process listening on `addr`: `--public-url`, or where processes share
/// a database `http://` and the address; alone, none (clients use the address they asked).
pub(crate) fn public_url(options: &Options, addr: SocketAddr) -> Option<String> {
    let given = options.public_url.as_ref();
    let shared = options.shard.1 > 1;
    given
        .map(|url| url.trim_end_matches('/').to_string())
        .or_else(|| shared.then(|| format!("http://{addr}")))
}

impl Server {
    /// Whether this process serves match `id` (it holds the lease of its shard).
    pub(crate) fn serves(&self, id: &str) -> bool {
        let n = self.options.shard.1;
        n <= 1 || self.leases.read().contains(&shard_of(id, n))
    }

    /// A new match's id, of a shard this process serves; none while it serves none.
    pub(crate) fn new_id(&self) -> Option<String> {
        if self.options.shard.1 > 1 && self.leases.read().is_empty() {
            return None;
        }
        loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if self.serves(&id) {
                return Some(id);
            }
        }
    }

    /// Takes the lease of `shard` if its process is gone, and serves its matches from now on:
    /// whether it took it.
    fn take_shard(self: &Arc<Server>, shard: u32) -> Result<bool, StoreError> {
        if !self.store.try_lease(shard)? {
            return Ok(false);
        }
        let held = BTreeSet::from([shard]);
        let mut tilesets = self.tilesets.lock();
        let found = (&self.catalog, &mut *tilesets);
        let (cells, unrestored) = load(&*self.store, &held, &self.options, &self.lexicon, found)?;
        drop(tilesets);
        for why in unrestored {
            eprintln!("{why}");
        }
        if let Some(url) = &self.public_url {
            self.store.set_server(shard, url)?;
        }
        let mut matches = self.matches.write().unwrap_or_else(|e| e.into_inner());
        matches.extend(cells.iter().map(|(id, cell)| (id.clone(), cell.clone())));
        drop(matches);
        self.leases.write().insert(shard);
        for cell in cells.into_values().filter(|c| c.needs_driver()) {
            driver::ensure(self.clone(), cell);
        }
        Ok(true)
    }

    /// The address of the process serving match `id`, when it is another one (the database
    /// read off the async threads).
    pub(crate) async fn served_at(self: &Arc<Server>, id: &str) -> Option<String> {
        if self.serves(id) {
            return None;
        }
        let (server, shard) = (self.clone(), shard_of(id, self.options.shard.1));
        let servers = tokio::task::spawn_blocking(move || server.store.servers()).await;
        servers.ok()?.ok()?.get(&shard).cloned()
    }

    /// The processes' addresses by shard, where several share the database (none alone).
    pub(crate) fn servers(&self) -> BTreeMap<u32, String> {
        if self.options.shard.1 <= 1 {
            return BTreeMap::new();
        }
        self.store.servers().unwrap_or_default()
    }

    /// A listing as the lobby shows it: with the address of the process that serves it,
    /// where several share the database.
    pub(crate) fn shown(&self, listing: Listing, servers: &BTreeMap<u32, String>) -> MatchInfo {
        let mut info = listing.info;
        info.server = servers
            .get(&shard_of(&info.id, self.options.shard.1))
            .cloned();
        info
    }
}

/// The answer to a request for a match another process serves: the same path and query there.
pub(crate) fn sent_on(base: &str, uri: &axum::http::Uri) -> Response {
    let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
    Redirect::temporary(&format!("{base}{path}")).into_response()
}

/// As [`sent_on`], for a WebSocket's handshake: a WebSocket's own scheme (`ws://`, `wss://`),
/// which WebSocket clients follow.
pub(crate) fn socket_sent_on(base: &str, uri: &axum::http::Uri) -> Response {
    let base = match base.split_once("://") {
        Some(("https", rest)) => format!("wss://{rest}"),
        Some((_, rest)) => format!("ws://{rest}"),
        None => base.to_string(),
    };
    sent_on(&base, uri)
}

/// Every `lease_check`, takes over the shards whose process is gone (its lease released: the
/// process stopped, was killed or lost the database), so that their matches are served again.
pub(crate) async fn take_over(server: Arc<Server>) {
    let n = server.options.shard.1;
    loop {
        tokio::time::sleep(server.options.lease_check).await;
        for shard in 0..n {
            if server.leases.read().contains(&shard) {
                continue;
            }
            let taking = server.clone();
            let taken = tokio::task::spawn_blocking(move || taking.take_shard(shard)).await;
            match taken {
                Ok(Ok(true)) => eprintln!("took over shard {shard} of {n}: its process is gone"),
                Ok(Err(e)) => eprintln!("shard {shard} of {n} cannot be taken over: {e}"),
                _ => {}
            }
        }
    }
}

/// Matches by id, as a process serves them.
pub(crate) type Cells = BTreeMap<String, Arc<MatchCell>>;

/// The matches of the shards `held` (of `options.shard`'s count) in `store`, as a process
/// serving them starts: asleep as listed (nobody connected, whatever the listing said when
/// it was written), or replayed now where the listing is missing (a database from before
/// listings) or behind the log; and those that could not be, each with why.
pub(crate) fn load(
    store: &dyn Store,
    held: &BTreeSet<u32>,
    options: &Options,
    lexicon: &Arc<Lexicon>,
    (catalog, tilesets): (&Catalog, &mut referee::TilesetsFound),
) -> Result<(Cells, Vec<String>), StoreError> {
    let (mut cells, mut unrestored) = (BTreeMap::new(), Vec::new());
    let n = options.shard.1.max(1);
    for listed in store.listings()? {
        let id = listed.id.clone();
        if !held.contains(&shard_of(&id, n)) {
            continue;
        }
        let cell = match listed.listing {
            Some(mut listing) if listing.info.actions == listed.entries => {
                if asleep::nobody_connected(&mut listing) {
                    store.set_listing(&id, &listing)?;
                }
                MatchCell::asleep(listing)
            }
            _ => match crate::restore(store, &id, lexicon, options, (catalog, tilesets)) {
                Ok(live) => {
                    store.set_listing(&id, &live.listing())?;
                    MatchCell::live(id.clone(), live)
                }
                Err(why) => {
                    unrestored.push(format!("match {id}: {why}"));
                    continue;
                }
            },
        };
        cells.insert(id, Arc::new(cell));
    }
    Ok((cells, unrestored))
}

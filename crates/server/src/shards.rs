//! Many processes, one lobby: processes sharing a database (`--database`, `--shard K/N`) each
//! serve the matches of their shard, but every process lists every match (the listings are
//! the database's), names in each the address of the process that serves it (its
//! `--public-url`, recorded in the database when it starts), and sends a request for a match
//! of another shard on to that process: a temporary redirect (307) to the same path there,
//! which browsers, the HTTP client and the WebSocket client follow (a WebSocket's handshake
//! too, so a match's link works from any process).

use crate::store::Listing;
use crate::{Options, Server, in_shard, shard_of};
use axum::response::{IntoResponse, Redirect, Response};
use scryptic_protocol::MatchInfo;
use std::collections::BTreeMap;
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
    /// Whether this process serves match `id` (it is of its shard).
    pub(crate) fn serves(&self, id: &str) -> bool {
        in_shard(id, self.options.shard)
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

//! Accepting connections: HTTP/1 with the limits a server on the internet needs, which
//! `axum::serve` does not let one set. A request's head must come whole within
//! `Options::slow_client` and fit in [`MOST_HEAD_BYTES`] (hyper answers 431 past it); an address
//! holds at most `Options::connections_per_address` connections at once; on stop, every
//! connection is let finish its request and every WebSocket is closed with a close frame.

use crate::Server;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt as _;

/// The largest request head read (the request line and every header).
pub(crate) const MOST_HEAD_BYTES: usize = 16 * 1024;
/// How long connections have to finish once the server stops.
const FINISH_WITHIN: Duration = Duration::from_secs(5);

/// The connections each address holds open.
#[derive(Default)]
pub(crate) struct Connections {
    open: Mutex<HashMap<IpAddr, usize>>,
    /// Told each time one closes (a stopping server waits for its WebSockets by it).
    closed: tokio::sync::Notify,
}

/// A connection's count, shared by the requests made on it and the WebSocket it becomes.
#[derive(Clone)]
pub(crate) struct Held(#[allow(dead_code, reason = "held for its drop")] Arc<Admitted>);

/// One connection counted for its address, as long as it lives.
pub(crate) struct Admitted {
    connections: Arc<Connections>,
    from: IpAddr,
}

impl Connections {
    fn counts(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // A count is whole under the lock whatever panicked: still good.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until no connection is open (each HTTP connection, and the WebSocket it became,
    /// holds its count until it is gone).
    async fn all_closed(&self) {
        loop {
            let closed = self.closed.notified();
            if self.counts().is_empty() {
                return;
            }
            closed.await;
        }
    }

    /// Counts a connection from `from`, unless it holds `most` already.
    pub(crate) fn admit(self: &Arc<Self>, from: IpAddr, most: usize) -> Option<Admitted> {
        let mut counts = self.counts();
        let open = counts.entry(from).or_default();
        if *open >= most {
            return None;
        }
        *open += 1;
        Some(Admitted {
            connections: self.clone(),
            from,
        })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut counts = self.connections.counts();
        if let Some(open) = counts.get_mut(&self.from) {
            *open -= 1;
            if *open == 0 {
                counts.remove(&self.from);
            }
        }
        drop(counts);
        self.connections.closed.notify_waiters();
    }
}

/// Serves `app` on `listener` until `stop` says so, then lets the connections finish (at
/// most [`FINISH_WITHIN`]) after telling the WebSockets to close.
pub(crate) async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    server: Arc<Server>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let mut connections = tokio::task::JoinSet::new();
    let (stopping, _) = tokio::sync::watch::channel(false);
    loop {
        let (stream, from) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors, a connection reset before it was taken: the
                // listener is still good; a moment's wait keeps a full table from spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stop => break,
        };
        // A trusted proxy (nginx, Caddy) holds everyone's connections: its own are not
        // counted as one address's, and each request names its client.
        let trusted = server.options.trusted_proxies.contains(&from.ip());
        let most = if trusted {
            usize::MAX
        } else {
            server.options.connections_per_address
        };
        let Some(admitted) = server.connections.admit(from.ip(), most) else {
            server.limited(from.ip(), &format!("{most} connections open at once"));
            drop(stream);
            continue;
        };
        let app = app.clone();
        let stopping = stopping.subscribe();
        let head_within = server.options.slow_client;
        let proxies = trusted.then(|| server.options.trusted_proxies.clone());
        connections.spawn(connection(
            stream,
            (from, proxies),
            app,
            admitted,
            head_within,
            stopping,
        ));
        // Finished connections are let go of as the server runs.
        while connections.try_join_next().is_some() {}
    }
    let _ = stopping.send(true);
    server.stopping.send_replace(true);
    // The WebSockets run as tasks of their own: waited for by their counts, so that each has
    // sent its close frame before the runtime goes.
    let _ = tokio::time::timeout(FINISH_WITHIN, async {
        while connections.join_next().await.is_some() {}
        server.connections.all_closed().await;
    })
    .await;
    Ok(())
}

/// One connection's requests (and its upgrade to a WebSocket, which then runs on its own),
/// from a peer, and the trusted proxies if the peer is one.
async fn connection(
    stream: tokio::net::TcpStream,
    (from, proxies): (SocketAddr, Option<Vec<IpAddr>>),
    app: Router,
    admitted: Admitted,
    head_within: Duration,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    // A WebSocket made of this connection holds the count as long as it lives.
    let held = Held(Arc::new(admitted));
    let service = TowerToHyperService::new(app.map_request(
        move |mut request: axum::http::Request<hyper::body::Incoming>| {
            let client = proxies
                .as_deref()
                .and_then(|proxies| forwarded_client(request.headers(), proxies))
                .map_or(from, |ip| SocketAddr::new(ip, 0));
            request.extensions_mut().insert(ConnectInfo(client));
            request.extensions_mut().insert(held.clone());
            request
        },
    ));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(head_within)
        .max_buf_size(MOST_HEAD_BYTES);
    let served = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(served);
    tokio::select! {
        _ = served.as_mut() => {}
        () = stopped(&mut stopping) => {
            served.as_mut().graceful_shutdown();
            let _ = served.await;
        }
    }
}

/// Waits until `stopping` says the server stops (or its sender is gone with the server).
pub(crate) async fn stopped(stopping: &mut tokio::sync::watch::Receiver<bool>) {
    while !*stopping.borrow_and_update() {
        if stopping.changed().await.is_err() {
            return;
        }
    }
}

/// The client a trusted proxy forwards a request for: the last address of `X-Forwarded-For`
/// that is not itself one of the trusted `proxies` (the addresses before it are the client's
/// own say, which anyone may forge).
fn forwarded_client(headers: &axum::http::HeaderMap, proxies: &[IpAddr]) -> Option<IpAddr> {
    let mut hops: Vec<IpAddr> = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let text = value.to_str().ok()?;
        for hop in text.split(',') {
            hops.push(hop.trim().parse().ok()?);
        }
    }
    hops.into_iter().rev().find(|ip| !proxies.contains(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_the_last_hop_no_trusted_proxy_added() {
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        let check = |values: &[&str], expected: Option<&str>| {
            let mut headers = axum::http::HeaderMap::new();
            for v in values {
                headers.append("x-forwarded-for", v.parse().unwrap());
            }
            let got = forwarded_client(&headers, &[proxy]);
            assert_eq!(got, expected.map(|e| e.parse().unwrap()), "{values:?}");
        };
        check(&["203.0.113.7"], Some("203.0.113.7"));
        // A forged first hop is not taken: the proxy appended the real one.
        check(&["1.2.3.4, 203.0.113.7"], Some("203.0.113.7"));
        check(&["203.0.113.7, 10.0.0.1"], Some("203.0.113.7"));
        check(&["1.2.3.4", "203.0.113.7"], Some("203.0.113.7"));
        check(&[], None);
        check(&["not an address"], None);
    }
}

//! The lobby: HTTP routes with JSON bodies (`scryptic_protocol::LOBBY_ROUTES`). Every answer
//! is a message of the protocol; a refusal is a `Problem` with a status that says its kind.

use crate::referee::{Match, Refusal};
use crate::{MatchCell, Server, driver};
use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use scryptic_protocol::{
    CreateMatch, DEFAULT_PAGE, LeaveSeat, MAX_CLIENT_FRAME, MAX_PAGE, MatchList, MatchState,
    Problem, TakeSeat,
};
use std::sync::Arc;

/// The lobby's and the play socket's routes.
pub(crate) fn router(server: Arc<Server>) -> Router {
    Router::new()
        .route("/api/matches", get(list).post(create))
        .route("/api/matches/{id}", get(one))
        .route("/api/matches/{id}/seats", post(take))
        .route("/api/matches/{id}/leave", post(leave))
        .route("/api/matches/{id}/save", get(save))
        .route("/api/matches/{id}/play", get(crate::socket::play))
        .route("/api/packs", get(played_packs))
        .route("/api/packs/{hash}", get(pack_archive))
        .route("/index.json", get(published_index))
        .route("/api/published/dates", get(published_dates))
        .route("/packs/{file}", get(published_file))
        .route("/packs/{id}/readme", get(crate::web::readme))
        .route("/", get(crate::web::page))
        .route("/matches/{id}", get(crate::web::client::page))
        .route("/client/{version}/{file}", get(crate::web::client::file))
        .route("/app.js", get(crate::web::script))
        .route("/style.css", get(crate::web::style))
        .route("/favicon.svg", get(crate::web::icon))
        .route("/favicon.ico", get(crate::web::icon))
        .layer(DefaultBodyLimit::max(MAX_CLIENT_FRAME))
        .layer(axum::middleware::from_fn_with_state(server.clone(), limit))
        .with_state(server)
}

/// A WebSocket's upgrade from an address past its lobby rate: let in only if it says hello
/// with a seat's token (a player coming back is never locked out by the lobby's limit).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PastTheRate;

/// Refuses an address's requests past its rate (`Options::lobby_rate`) and bodies announced
/// over the limit, before reading them; reads every body whole, within the limit and
/// `Options::slow_client`, so that a handler never waits on a client; every refusal is a
/// `Problem`.
async fn limit(
    State(server): State<Arc<Server>>,
    ConnectInfo(from): ConnectInfo<std::net::SocketAddr>,
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !server.lobby_rate.take(from.ip()) {
        let (per_second, burst) = server.options.lobby_rate;
        if is_upgrade(&request) {
            request.extensions_mut().insert(PastTheRate);
        } else {
            server.limited(
                from.ip(),
                &format!("lobby requests past {per_second} a second (bursts of {burst})"),
            );
            return problem(
                429,
                format!(
                    "too many requests from your address: at most {per_second} a second; wait a moment"
                ),
            );
        }
    }
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|bytes| bytes > MAX_CLIENT_FRAME as u64) {
        return too_long();
    }
    let (parts, body) = request.into_parts();
    let within = server.options.slow_client;
    let body =
        match tokio::time::timeout(within, axum::body::to_bytes(body, MAX_CLIENT_FRAME)).await {
            Ok(Ok(bytes)) => bytes,
            // Over the limit (the length announced was not): the only way reading it fails.
            Ok(Err(_)) => return too_long(),
            Err(_) => {
                return problem(
                    408,
                    format!(
                        "the request's body did not come whole within {} s",
                        within.as_secs_f64()
                    ),
                );
            }
        };
    let request = axum::extract::Request::from_parts(parts, axum::body::Body::from(body));
    next.run(request).await
}

fn too_long() -> Response {
    problem(
        413,
        format!("a request body is at most {MAX_CLIENT_FRAME} bytes (64 KiB); send less"),
    )
}

fn is_upgrade(request: &axum::extract::Request) -> bool {
    request
        .headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn json<T: serde::Serialize>(status: u16, body: T) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        scryptic_protocol::write(body),
    )
        .into_response()
}

/// A refusal's answer.
pub(crate) fn problem(status: u16, error: String) -> Response {
    json(status, Problem { error })
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        if self.status == 307 {
            // `Refusal::elsewhere`: the message is where the request goes.
            return axum::response::Redirect::temporary(&self.message).into_response();
        }
        problem(self.status, self.message)
    }
}

fn read<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, Refusal> {
    scryptic_protocol::read_strict(body, MAX_CLIENT_FRAME).map_err(|e| Refusal::bad(e.to_string()))
}

/// Match `id` of this process; or, served by another process, the request sent on there (to
/// the same `uri`); or there is no such match.
async fn find(
    server: &Arc<Server>,
    id: &str,
    uri: &axum::http::Uri,
) -> Result<Arc<MatchCell>, Refusal> {
    if let Some(cell) = server.get(id) {
        return Ok(cell);
    }
    if let Some(base) = server.served_at(id).await {
        let path = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
        return Err(Refusal::elsewhere(format!("{base}{path}")));
    }
    Err(Refusal {
        status: 404,
        message: format!("there is no match {id}"),
    })
}

/// A failure of the database, as the lobby answers it.
fn unreadable(e: crate::StoreError) -> Refusal {
    Refusal::unavailable(format!(
        "the match database failed: {e}; try again in a moment"
    ))
}

/// Runs `work` off the async threads (a match's lock, the engine, the database).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Refusal> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|_| {
        Err(Refusal {
            status: 500,
            message: "the request failed on the server; nothing changed".to_string(),
        })
    })
}

/// What `GET /api/matches` asks for: a page of the newest, or the matches of `ids`.
#[derive(serde::Deserialize)]
struct Page {
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
    /// Match ids, comma-separated (a player's own matches, by the tokens they keep).
    ids: Option<String>,
}

async fn list(
    State(server): State<Arc<Server>>,
    page: Result<axum::extract::Query<Page>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let page = match page {
        Ok(axum::extract::Query(page)) => page,
        Err(e) => {
            let why = format!("{}: write ?offset=N&limit=N or ?ids=ID,ID", e.body_text());
            return Refusal::bad(why).into_response();
        }
    };
    let limit = page.limit.unwrap_or(DEFAULT_PAGE);
    if limit == 0 || limit > MAX_PAGE {
        let why = format!("a page lists 1 to {MAX_PAGE} matches (`limit`), not {limit}");
        return Refusal::bad(why).into_response();
    }
    let wanted: Option<Vec<String>> = page
        .ids
        .map(|ids| ids.split(',').map(str::to_string).collect());
    if wanted.as_ref().is_some_and(|ids| ids.len() > MAX_PAGE) {
        let why = format!("at most {MAX_PAGE} `ids` a request");
        return Refusal::bad(why).into_response();
    }
    let listed = blocking(move || {
        let servers = server.servers();
        let (listings, total) = match &wanted {
            Some(ids) => {
                let listings = server.store.listings_of(ids).map_err(unreadable)?;
                let total = listings.len() as u64;
                (listings, total)
            }
            None => server.store.page(page.offset, limit).map_err(unreadable)?,
        };
        Ok(MatchList {
            matches: listings
                .into_iter()
                .map(|l| server.shown(l, &servers))
                .collect(),
            total,
        })
    })
    .await;
    match listed {
        Ok(list) => json(200, list),
        Err(refusal) => refusal.into_response(),
    }
}

/// The archive of the pack whose files hash to `hash` (a match's `PackRef::sha256`), for a
/// client that lacks it: zipped from the server's copy, which is hashed again first, so that a
/// pack changed on the server's disk is never served under its old hash.
async fn pack_archive(State(server): State<Arc<Server>>, Path(hash): Path<String>) -> Response {
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return problem(
            400,
            format!("`{hash}` is not a pack's hash (64 hexadecimal digits, as a match lists them)"),
        );
    }
    let zipped = blocking(move || {
        let hash = hash.to_ascii_lowercase();
        server
            .archives
            .get_or_make(&hash, || archive_of(&server, &hash))
    })
    .await;
    match zipped {
        Ok(archive) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, "application/zip".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}\"", archive.name),
                ),
                // Named by the hash of its files, it never changes: a browser fetches a
                // match's pack once.
                (
                    header::CACHE_CONTROL,
                    "public, max-age=31536000, immutable".to_string(),
                ),
            ],
            archive.bytes.clone(),
        )
            .into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// The archive of the pack of the server's catalog whose files hash to `hash`, zipped as a
/// release is (its `.packignore` honoured).
fn archive_of(server: &Server, hash: &str) -> Result<crate::archives::Archive, Refusal> {
    let pack = server
        .catalog
        .packs()
        .into_iter()
        .find(|p| scryptic_pack::record::pack_hash(p).is_ok_and(|h| h.eq_ignore_ascii_case(hash)))
        .ok_or_else(|| Refusal {
            status: 404,
            message: format!(
                "this server has no pack whose files hash to {hash} (its copy may have changed since the match began)"
            ),
        })?;
    let failed = |e: &dyn std::fmt::Display| Refusal {
        status: 500,
        message: format!("cannot archive the pack {}: {e}", pack.id()),
    };
    let dir = tempfile_dir().map_err(|e| failed(&e))?;
    let out = dir.path().join("pack.zip");
    scryptic_pack::archive::zip_folder(pack, &out).map_err(|e| failed(&e))?;
    let bytes = std::fs::read(&out).map_err(|e| failed(&e))?;
    let name = format!("{}-{}.zip", pack.id(), pack.manifest.version);
    Ok(crate::archives::Archive {
        name,
        bytes: bytes.into(),
    })
}

/// The packs the server plays (installed, built in, or in its `--packs` folders), the newest
/// version of each, with the modes a match can be made of and their settings.
async fn played_packs(State(server): State<Arc<Server>>) -> Response {
    json(200, &server.played)
}

/// The index of the pack archives the server publishes (`pack source add` reads it).
async fn published_index(State(server): State<Arc<Server>>) -> Response {
    // Looking at the folders (and indexing a release added since) reads the disk.
    let published = tokio::task::spawn_blocking(move || server.published.current()).await;
    match published {
        Ok(published) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            published.index.to_json(),
        )
            .into_response(),
        Err(_) => problem(500, "the index could not be made".into()),
    }
}

/// An archive or thumbnail the published index names; nothing else.
/// Each published pack's newest release's date (milliseconds since 1970), by id.
async fn published_dates(State(server): State<Arc<Server>>) -> Response {
    (
        StatusCode::OK,
        axum::Json(server.published.last().newest_dates()),
    )
        .into_response()
}

/// A file the index names (`/packs/FILE`), or a pack's page (`/packs/ID`: a pack's id has no
/// dot, a file's name has one).
async fn published_file(
    State(server): State<Arc<Server>>,
    Path(file): Path<String>,
    headers: axum::http::HeaderMap,
) -> Response {
    let Some(path) = server
        .published
        .last()
        .file(&file)
        .map(std::path::Path::to_path_buf)
    else {
        let asked = file.clone();
        let page = blocking(move || {
            crate::web::pack_page::page(&server, &asked, &headers).ok_or_else(|| Refusal {
                status: 404,
                message: format!("this server publishes no file {asked} and knows no pack {asked}"),
            })
        })
        .await;
        return page.unwrap_or_else(Refusal::into_response);
    };
    let kind = if file.ends_with(".png") {
        "image/png"
    } else {
        "application/zip"
    };
    let read = blocking(move || {
        std::fs::read(&path).map_err(|e| Refusal {
            status: 500,
            message: format!("cannot read {file}: {e}"),
        })
    })
    .await;
    match read {
        Ok(bytes) => (StatusCode::OK, [(header::CONTENT_TYPE, kind)], bytes).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

/// A folder of its own in the system's temporary folder, removed when dropped.
fn tempfile_dir() -> std::io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix("scryptic-pack-").tempdir()
}

async fn one(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    let listed = blocking(move || {
        let servers = server.servers();
        let listing = server.store.listings_of(std::slice::from_ref(&id));
        match listing.map_err(unreadable)?.pop() {
            Some(listing) => Ok(server.shown(listing, &servers)),
            None => Err(Refusal {
                status: 404,
                message: format!("there is no match {id}"),
            }),
        }
    })
    .await;
    match listed {
        Ok(info) => json(200, info),
        Err(refusal) => refusal.into_response(),
    }
}

async fn create(State(server): State<Arc<Server>>, body: String) -> Response {
    let request: CreateMatch = match read(&body) {
        Ok(request) => request,
        Err(refusal) => return refusal.into_response(),
    };
    let made = blocking({
        let server = server.clone();
        move || {
            let live = {
                let matches = server.matches.read().unwrap_or_else(|e| e.into_inner());
                matches
                    .values()
                    .filter(|c| c.is_live() && c.info().state != MatchState::Over)
                    .count()
            };
            if live >= server.options.max_live_matches {
                return Err(Refusal {
                    status: 503,
                    message: format!(
                        "this server holds {live} matches under way, its most: try later"
                    ),
                });
            }
            let id = server.new_id().ok_or_else(|| {
                Refusal::unavailable(
                    "this process serves no shard of the matches now (another took its \
                     shard over while it was away): make the match at another process",
                )
            })?;
            let (mut made, stored) = Match::create(
                id.clone(),
                request,
                &server.catalog,
                server.lexicon.clone(),
                server.options.clock.now_ms(),
            )?;
            made.served_with(&server.options);
            server
                .store
                .create(&stored, &made.listing())
                .map_err(|e| Refusal {
                    status: 500,
                    message: e.to_string(),
                })?;
            let info = made.info();
            let cell = Arc::new(MatchCell::live(id.clone(), made));
            server
                .matches
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id, cell.clone());
            Ok((info, cell))
        }
    })
    .await;
    match made {
        Ok((info, cell)) => {
            driver::ensure(server, cell);
            json(201, info)
        }
        Err(refusal) => refusal.into_response(),
    }
}

async fn take(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    uri: axum::http::Uri,
    body: String,
) -> Response {
    let taken = async {
        let cell = find(&server, &id, &uri).await?;
        let request: TakeSeat = read(&body)?;
        let (server, woken) = (server.clone(), cell.clone());
        let taken = blocking(move || {
            let mut game = server.live(&cell).map_err(Refusal::unavailable)?;
            game.take_seat(&request, &*server.store)
        })
        .await?;
        woken.wake.notify_one();
        Ok::<_, Refusal>(taken)
    }
    .await;
    match taken {
        Ok(taken) => json(200, taken),
        Err(refusal) => refusal.into_response(),
    }
}

async fn leave(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    uri: axum::http::Uri,
    body: String,
) -> Response {
    let left = async {
        let cell = find(&server, &id, &uri).await?;
        let request: LeaveSeat = read(&body)?;
        let (server, woken) = (server.clone(), cell.clone());
        let info = blocking(move || {
            let mut game = server.live(&cell).map_err(Refusal::unavailable)?;
            game.leave(&request.token, &*server.store)?;
            Ok(game.info())
        })
        .await?;
        woken.wake.notify_one();
        Ok::<_, Refusal>(info)
    }
    .await;
    match left {
        Ok(info) => json(200, info),
        Err(refusal) => refusal.into_response(),
    }
}

async fn save(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Response {
    let cell = match find(&server, &id, &uri).await {
        Ok(cell) => cell,
        Err(refusal) => return refusal.into_response(),
    };
    let saved = blocking(move || {
        let game = server.live(&cell).map_err(Refusal::unavailable)?;
        let info = game.info();
        if info.state != MatchState::Over || !info.log_after_end {
            return Err(Refusal::forbidden(
                "the whole log is shown once the match is over, where its setting allows (`scryptic serve --export` writes any match on the server's machine)",
            ));
        }
        Ok(game.save_text())
    })
    .await;
    match saved {
        Ok(text) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text,
        )
            .into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

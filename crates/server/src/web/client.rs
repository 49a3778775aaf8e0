//! The browser client: the page a match's link opens (`GET /matches/ID`) and the client it
//! loads, the play view compiled to WebAssembly with its JavaScript glue, built from source by
//! this crate's build script (`build.rs`) and compiled into the binary gzipped.
//!
//! The client's files are named by a version (a hash of the module), so that a browser keeps
//! them for good and a new build is fetched anew.

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::io::Read;
use std::sync::OnceLock;

const PAGE: &str = include_str!("play.html");
const MODULE_GZ: &[u8] = include_bytes!(concat!(
    env!("OUT_DIR"),
    "/web-client/scryptic_web_bg.wasm.gz"
));
const GLUE_GZ: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/web-client/scryptic_web.js.gz"));

/// The client's version: the first 16 hex digits of its module's gzipped bytes' SHA-256.
pub(crate) fn version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        use sha2::Digest;
        let digest = sha2::Sha256::digest(MODULE_GZ);
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    })
}

/// The page of a match's link: the client on a canvas the size of the window.
pub(crate) async fn page(
    axum::extract::State(server): axum::extract::State<std::sync::Arc<crate::Server>>,
    Path(id): Path<String>,
    uri: axum::http::Uri,
) -> Response {
    // A match another process serves is played from that process's page, whose WebSocket is
    // its own.
    if let Some(base) = server.served_at(&id).await {
        return crate::shards::sent_on(&base, &uri);
    }
    let page = PAGE.replace("VERSION", version());
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Not kept by the browser, not even in its back-forward cache: a page left there
            // keeps its WebSocket open, frozen, and its seat would look connected while its
            // person is elsewhere. Coming back loads it again (its files are kept).
            (header::CACHE_CONTROL, "no-store"),
        ],
        page,
    )
        .into_response()
}

/// One of the client's files (`/client/VERSION/FILE`): gzipped to a browser that takes gzip
/// (every browser), unzipped to one that does not.
pub(crate) async fn file(
    Path((version, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let (kind, gz): (&str, &'static [u8]) = match file.as_str() {
        "scryptic_web_bg.wasm" => ("application/wasm", MODULE_GZ),
        "scryptic_web.js" => ("text/javascript; charset=utf-8", GLUE_GZ),
        _ => return crate::lobby::problem(404, format!("the browser client has no file {file}")),
    };
    if version != self::version() {
        // An old page's request after the server was rebuilt: it must load the page again.
        return crate::lobby::problem(
            404,
            format!(
                "the browser client is now version {}: load the page again",
                self::version()
            ),
        );
    }
    let takes_gzip = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|e| e.trim().starts_with("gzip")));
    let cache = "public, max-age=31536000, immutable";
    if takes_gzip {
        return (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, kind),
                (header::CONTENT_ENCODING, "gzip"),
                (header::CACHE_CONTROL, cache),
                (header::VARY, "Accept-Encoding"),
            ],
            gz,
        )
            .into_response();
    }
    match unzipped(gz) {
        Ok(bytes) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, cache),
                (header::VARY, "Accept-Encoding"),
            ],
            bytes,
        )
            .into_response(),
        Err(e) => crate::lobby::problem(500, format!("the browser client cannot be unzipped: {e}")),
    }
}

fn unzipped(gz: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(gz).read_to_end(&mut bytes)?;
    Ok(bytes)
}

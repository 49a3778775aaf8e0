//! The server's web page (`GET /`; `GET /?match=ID` opens it on that match): its published
//! packs, searched as typed, each README rendered here and each archive to download, and its
//! matches, where each stands, each to watch live as a spectator. Plain HTML, CSS and a small
//! script compiled into the binary. A match's link (`GET /matches/ID`) opens the browser
//! client instead ([`client`]), where the match is played.

pub(crate) mod client;
pub(crate) mod pack_page;

use crate::Server;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

const PAGE: &str = include_str!("web/index.html");
const SCRIPT: &str = include_str!("web/app.js");
const STYLE: &str = include_str!("web/style.css");
const ICON: &str = include_str!("web/favicon.svg");

/// The page.
pub(crate) async fn page() -> Response {
    asset("text/html; charset=utf-8", PAGE)
}

/// Its script.
pub(crate) async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// Its style.
pub(crate) async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

/// Its icon (also at `/favicon.ico`, where a browser looks when a page names none).
pub(crate) async fn icon() -> Response {
    asset("image/svg+xml", ICON)
}

fn asset(kind: &'static str, text: &'static str) -> Response {
    (StatusCode::OK, [(header::CONTENT_TYPE, kind)], text).into_response()
}

/// A published pack's README, rendered to HTML (its own HTML left out as text).
pub(crate) async fn readme(State(server): State<Arc<Server>>, Path(id): Path<String>) -> Response {
    match server.published.last().readme(&id) {
        Some(html) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            html.to_string(),
        )
            .into_response(),
        None => crate::lobby::problem(404, format!("no published pack {id} has a README")),
    }
}

/// `markdown` as HTML safe to put in a page: raw HTML in it is shown as text, and a link or
/// picture to anything but http(s), a relative address or an anchor goes nowhere.
pub(crate) fn render_markdown(markdown: &str) -> String {
    use pulldown_cmark::{Event, Parser, Tag};
    let safe = |url: &str| {
        let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
        match scheme.as_deref() {
            None | Some("http" | "https") => url.to_string(),
            // A colon later in a relative address is no scheme.
            Some(s) if s.contains('/') || s.contains('#') || s.contains('?') => url.to_string(),
            Some(_) => "#".to_string(),
        }
    };
    let events = Parser::new(markdown).map(|event| match event {
        Event::Html(text) | Event::InlineHtml(text) => Event::Text(text),
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Link {
            link_type,
            dest_url: safe(&dest_url).into(),
            title,
            id,
        }),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => Event::Start(Tag::Image {
            link_type,
            dest_url: safe(&dest_url).into(),
            title,
            id,
        }),
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

#[cfg(test)]
mod tests {
    use super::render_markdown;

    #[test]
    fn a_readme_is_rendered_without_its_own_html_or_script_links() {
        let html = render_markdown(
            "# Harvest\n\nA *pack*. <script>alert(1)</script>\n\n[go](javascript:alert(1)) [ok](https://x.org/a) [here](docs/INDEX.md)\n",
        );
        assert!(
            html.contains("<h1>Harvest</h1>") && html.contains("<em>pack</em>"),
            "{html}"
        );
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("javascript:"), "{html}");
        assert!(
            html.contains("href=\"https://x.org/a\"") && html.contains("href=\"docs/INDEX.md\"")
        );
    }
}

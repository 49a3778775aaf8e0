//! A pack's page (`GET /packs/ID`): what it is, who made it and under what licence, its tags,
//! every release the server publishes (version, date, size, SHA-256, the signing key's
//! fingerprint (its first digits, the whole key on hover) or "unsigned", the scripting API it
//! needs, its dependencies linked to their pages), the command to install it, the modes the
//! server plays of it, its README and its changelog. A pack the server plays from a folder, and publishes no release of, has a page
//! too. Plain HTML made here; every text from a pack is escaped.

use crate::Server;
use crate::published::{Details, Published, markdown_file};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use scryptic_pack::index::{IndexedPack, Release};
use scryptic_protocol::PlayedPack;
use std::fmt::Write;

/// The page of pack `id`, if the server publishes or plays it.
pub(crate) fn page(server: &Server, id: &str, headers: &HeaderMap) -> Option<Response> {
    let published = server.published.last();
    let indexed = published.index.pack(id);
    let played = server.played.packs.iter().find(|p| p.id == id);
    if indexed.is_none() && played.is_none() {
        return None;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("HOST:7878");
    let mut html = String::new();
    head(
        &mut html,
        indexed.map_or_else(|| played.map_or(id, |p| &p.title), |p| &p.title),
    );
    about(&mut html, indexed, played, published.details(id));
    if let Some(pack) = indexed {
        releases(&mut html, pack, &published, host);
    }
    if let Some(pack) = played {
        modes(&mut html, pack);
    }
    let (readme, changelog) = texts(server, id, &published);
    if let Some(readme) = readme {
        let _ = write!(html, "<section><h2>README</h2>{readme}</section>");
    }
    if let Some(changelog) = changelog {
        let _ = write!(html, "<section><h2>Changelog</h2>{changelog}</section>");
    }
    html.push_str("</main></body></html>");
    let kind = [(header::CONTENT_TYPE, "text/html; charset=utf-8")];
    Some((StatusCode::OK, kind, html).into_response())
}

/// The page's head and title.
fn head(html: &mut String, title: &str) {
    let title = escape(title);
    let _ = write!(
        html,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · Scryptic packs</title><link rel=\"stylesheet\" href=\"/style.css\">\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"></head><body>\
         <header><p><a href=\"/\">All packs and matches</a></p><h1>{title}</h1></header><main>"
    );
}

/// What the pack is: its description, authors, licence and tags (each a link to the list of
/// packs with that tag).
fn about(
    html: &mut String,
    indexed: Option<&IndexedPack>,
    played: Option<&PlayedPack>,
    details: Option<&Details>,
) {
    let description =
        indexed.map_or_else(|| played.map_or("", |p| &p.description), |p| &p.description);
    let _ = write!(html, "<p class=\"description\">{}</p>", escape(description));
    let authors = details.map_or_else(
        || played.map(|p| p.authors.clone()),
        |d| Some(d.authors.clone()),
    );
    let license = details.map_or_else(
        || played.map(|p| p.license.clone()),
        |d| Some(d.license.clone()),
    );
    let tags = indexed.map_or_else(|| played.map(|p| p.tags.clone()), |p| Some(p.tags.clone()));
    html.push_str("<dl class=\"about\">");
    if let Some(authors) = authors.filter(|a| !a.is_empty()) {
        let names: Vec<String> = authors.iter().map(|a| escape(a)).collect();
        let _ = write!(
            html,
            "<dt>Authors</dt><dd class=\"authors\">{}</dd>",
            names.join(", ")
        );
    }
    if let Some(license) = license.filter(|l| !l.is_empty()) {
        let _ = write!(
            html,
            "<dt>Licence</dt><dd class=\"license\">{}</dd>",
            escape(&license)
        );
    }
    if let Some(tags) = tags.filter(|t| !t.is_empty()) {
        let links: Vec<String> = tags
            .iter()
            .map(|t| {
                format!(
                    "<a class=\"tag\" href=\"/?tag={}\">{}</a>",
                    escape(t),
                    escape(t)
                )
            })
            .collect();
        let _ = write!(
            html,
            "<dt>Tags</dt><dd class=\"tags\">{}</dd>",
            links.join(" ")
        );
    }
    html.push_str("</dl>");
}

/// Every release, newest first, and the command to install the pack.
fn releases(html: &mut String, pack: &IndexedPack, published: &Published, host: &str) {
    let id = escape(&pack.id);
    let host = escape(host);
    let _ = write!(
        html,
        "<section><h2>Install</h2><p>In scryptic: <code>scryptic pack source add \
         http://{host}/index.json</code>, then <code class=\"install\">scryptic pack install \
         {id}</code>. Or download a release below.</p></section>\
         <section><h2>Releases</h2><table class=\"releases\"><thead><tr><th>Version</th>\
         <th>Date</th><th>Size</th><th>SHA-256</th><th>Signed by</th><th>Scripting API</th>\
         <th>Needs</th></tr></thead><tbody>"
    );
    for release in &pack.releases {
        release_row(html, &pack.id, release, published);
    }
    html.push_str("</tbody></table></section>");
}

fn release_row(html: &mut String, id: &str, release: &Release, published: &Published) {
    let version = release.version.to_string();
    let date = published
        .date(id, &version)
        .map_or_else(|| "unknown".to_string(), day);
    let signed = match &release.key {
        Some(key) => format!(
            "key <code class=\"fingerprint\" title=\"{}\">{}</code>",
            escape(key),
            escape(&fingerprint(key))
        ),
        None => "unsigned".to_string(),
    };
    let needs: Vec<String> = release
        .depends
        .iter()
        .map(|(dep, req)| {
            format!(
                "<a class=\"depends\" href=\"/packs/{}\">{}</a> {}",
                escape(dep),
                escape(dep),
                escape(&req.to_string())
            )
        })
        .collect();
    let _ = write!(
        html,
        "<tr class=\"release\"><td><a href=\"/{}\" download>{}</a></td><td>{date}</td>\
         <td>{}</td><td><code class=\"sha256\">{}</code></td><td>{signed}</td><td>{}</td>\
         <td>{}</td></tr>",
        escape(&release.url),
        escape(&version),
        size(release.size),
        escape(&release.sha256),
        escape(&release.scryptic.to_string()),
        if needs.is_empty() {
            "nothing".to_string()
        } else {
            needs.join(", ")
        }
    );
}

/// The modes the server plays of the pack, each with the link to host one from the site.
fn modes(html: &mut String, pack: &PlayedPack) {
    html.push_str("<section><h2>Played on this server</h2><ul class=\"modes\">");
    for mode in &pack.modes {
        let seats = if mode.min_seats == mode.max_seats {
            format!("{} players", mode.min_seats)
        } else {
            format!("{} to {} players", mode.min_seats, mode.max_seats)
        };
        let _ = write!(
            html,
            "<li class=\"mode\"><strong>{}</strong> ({seats}): {}</li>",
            escape(&mode.title),
            escape(&mode.description)
        );
    }
    html.push_str("</ul><p><a href=\"/#host\">Host a match</a></p></section>");
}

/// The README and changelog: the newest published release's, else the played copy's.
fn texts(server: &Server, id: &str, published: &Published) -> (Option<String>, Option<String>) {
    let played = server.catalog.packs().into_iter().find(|p| p.id() == id);
    let from_folder = |path: &str| {
        played
            .and_then(|pack| markdown_file(pack, path))
            .map(|text| crate::web::render_markdown(&text))
    };
    let readme = published
        .readme(id)
        .map(str::to_string)
        .or_else(|| from_folder("README.md"));
    let changelog = published
        .details(id)
        .and_then(|d| d.changelog.clone())
        .or_else(|| from_folder("CHANGELOG.md"));
    (readme, changelog)
}

/// A signing key's fingerprint: its first 16 hex digits (as `pack keygen` prints the key and
/// a pin shows it), in groups of four.
pub(crate) fn fingerprint(key_hex: &str) -> String {
    let hex: String = key_hex
        .trim()
        .to_ascii_lowercase()
        .chars()
        .take(16)
        .collect();
    let groups: Vec<String> = hex
        .as_bytes()
        .chunks(4)
        .map(|g| String::from_utf8_lossy(g).into_owned())
        .collect();
    groups.join(" ")
}

/// A day as `29 Nov 2026` (UTC), from milliseconds since 1970.
fn day(ms: u64) -> String {
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms);
    // `Sun, 29 Nov 2026 06:04:01 GMT`: its day, month and year.
    let full = httpdate::fmt_http_date(time);
    full.split(' ')
        .skip(1)
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A size in bytes as people read it.
fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes < KIB {
        format!("{bytes} B")
    } else if bytes < KIB * KIB {
        format!("{:.1} KiB", bytes as f64 / KIB as f64)
    } else {
        format!("{:.1} MiB", bytes as f64 / (KIB * KIB) as f64)
    }
}

/// `text` safe inside HTML (and inside a quoted attribute).
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Writing to a `String` cannot fail.
    let _ = pulldown_cmark_escape::escape_html(&mut out, text);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_escaped_and_figures_read_as_people_read_them() {
        assert_eq!(
            escape("<b a=\"x\">&'"),
            "&lt;b a=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(size(512), "512 B");
        assert_eq!(size(2048), "2.0 KiB");
        assert_eq!(size(3 * 1024 * 1024 + 1024 * 512), "3.5 MiB");
        assert_eq!(day(1_795_930_626_957), "29 Nov 2026");
        let print = fingerprint("ab".repeat(32).as_str());
        assert_eq!(print.len(), 19, "{print}");
        assert_eq!(
            print,
            fingerprint(&"AB".repeat(32)),
            "the same key however written"
        );
    }
}

//! Packs that find their players, through the real binary: an author makes, zips, signs and
//! indexes releases; a player adds the index (a folder, or an address served over HTTP),
//! searches, installs with a dependency, sees what is outdated and updates. A tampered archive
//! is refused by its hash, a release signed by another key after a pinned first install is
//! refused naming both keys, and a download cut off leaves the installed version in place.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_tests::scryptic_binary;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What a run printed.
#[derive(Debug)]
struct Ran {
    code: i32,
    out: String,
    err: String,
}

/// `scryptic ARGS` in `cwd`, with `data` as its data folder.
fn run(cwd: &Path, data: &Path, args: &[&str]) -> Ran {
    let output = std::process::Command::new(scryptic_binary())
        .args(args)
        .current_dir(cwd)
        .env("SCRYPTIC_DATA", data)
        .env_remove("SCRYPTIC_PACK_PATH")
        .output()
        .unwrap();
    Ran {
        code: output.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A folder for an author's packs and releases, and the author's and a player's data folders.
struct World {
    _dir: tempfile::TempDir,
    work: PathBuf,
    repo: PathBuf,
    author: PathBuf,
    player: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        World {
            author: dir.path().join("author"),
            player: dir.path().join("player"),
            work,
            repo,
            _dir: dir,
        }
    }

    fn author(&self, args: &[&str]) -> Ran {
        let ran = run(&self.work, &self.author, args);
        assert_eq!(ran.code, 0, "{args:?}: {ran:?}");
        ran
    }

    fn player(&self, args: &[&str]) -> Ran {
        run(&self.work, &self.player, args)
    }

    /// Makes pack `id` at `version` (depending on `needs`, if any), zipped into the release
    /// folder; signed when `signed`.
    fn release(&self, id: &str, version: &str, needs: Option<&str>, signed: bool) -> PathBuf {
        let folder = self.work.join(id);
        if !folder.exists() {
            self.author(&["pack", "new", id]);
        }
        let manifest = folder.join("pack.ron");
        let mut text = std::fs::read_to_string(&manifest).unwrap();
        let at = text.find("version: \"").unwrap() + "version: \"".len();
        let end = at + text[at..].find('"').unwrap();
        text.replace_range(at..end, version);
        if let Some(needs) = needs
            && !text.contains(&format!("\"{needs}\""))
        {
            text = text.replacen(
                "\"core\": \"^1\",",
                &format!("\"core\": \"^1\",\n        \"{needs}\": \"^0\","),
                1,
            );
        }
        std::fs::write(&manifest, text).unwrap();
        let zip = self.repo.join(format!("{id}-{version}.zip"));
        self.author(&["pack", "zip", id, "--out", zip.to_str().unwrap()]);
        if signed {
            self.author(&["pack", "sign", zip.to_str().unwrap()]);
        }
        zip
    }

    fn index(&self) {
        self.author(&["pack", "index", self.repo.to_str().unwrap()]);
    }

    fn installed(&self, id: &str) -> Option<String> {
        let manifest = self.player.join("packs").join(id).join("pack.ron");
        let text = std::fs::read_to_string(manifest).ok()?;
        let at = text.find("version: \"")? + "version: \"".len();
        Some(text[at..at + text[at..].find('"')?].to_string())
    }
}

#[test]
fn an_author_publishes_and_a_player_installs_with_a_dependency_then_updates() {
    let w = World::new();
    w.author(&["pack", "keygen"]);
    w.release("harvest", "0.1.0", None, true);
    w.release("orchard", "0.1.0", Some("harvest"), true);
    w.index();
    let index = std::fs::read_to_string(w.repo.join("index.json")).unwrap();
    assert!(index.contains("\"signature\": \"") && index.contains("\"harvest\": \"^0\""));
    let added = w.player(&["pack", "source", "add", w.repo.to_str().unwrap()]);
    assert!(
        added.code == 0 && added.out.contains("(2 packs)"),
        "{added:?}"
    );
    let found = w.player(&["pack", "search", "orch"]);
    assert!(
        found.out.contains("orchard 0.1.0") && !found.out.contains("harvest 0.1.0"),
        "{found:?}"
    );
    assert!(found.out.contains("fits this build"), "{found:?}");
    let installed = w.player(&["pack", "install", "orchard"]);
    assert_eq!(installed.code, 0, "{installed:?}");
    let plan_at = installed.out.find("harvest 0.1.0 - harvest").unwrap();
    assert!(
        plan_at < installed.out.find("orchard 0.1.0 - orchard").unwrap(),
        "the dependency comes first: {installed:?}"
    );
    // The total is the two archives' sizes added up (each shown as `(2.4 KiB, signed)`).
    let kib = |text: &str| {
        text.trim()
            .trim_end_matches("KiB")
            .trim()
            .parse::<f64>()
            .unwrap()
    };
    let each: f64 = installed
        .out
        .split(" (")
        .skip(1)
        .filter_map(|rest| rest.split(',').next())
        .filter(|size| size.ends_with("KiB"))
        .map(kib)
        .sum();
    let total = installed.out.split("in all ").nth(1).unwrap();
    let total = kib(total.split(" to download").next().unwrap());
    assert!(
        each > 0.0 && (total - each).abs() < 0.15,
        "the total size: {installed:?}"
    );
    assert_eq!(w.installed("harvest").as_deref(), Some("0.1.0"));
    assert_eq!(w.installed("orchard").as_deref(), Some("0.1.0"));
    let listed = w.player(&["pack", "list"]);
    assert!(
        listed.out.contains("orchard") && listed.err.is_empty(),
        "{listed:?}"
    );
    // A pack another needs is not removed by mistake; forced, `pack list` says what broke.
    let refused = w.player(&["pack", "remove", "harvest"]);
    assert!(
        refused.code == 1 && refused.err.contains("orchard (^0) needs harvest"),
        "{refused:?}"
    );
    assert_eq!(w.installed("harvest").as_deref(), Some("0.1.0"));
    let forced = w.player(&["pack", "remove", "harvest", "--force"]);
    assert_eq!(forced.code, 0, "{forced:?}");
    let listed = w.player(&["pack", "list"]);
    assert!(
        listed
            .out
            .contains("cannot load: `orchard` needs pack `harvest`"),
        "{listed:?}"
    );
    let back = w.player(&["pack", "install", "harvest@0.1"]);
    assert_eq!(back.code, 0, "{back:?}");
    // A new release of the dependency.
    w.release("harvest", "0.2.0", None, true);
    w.index();
    let outdated = w.player(&["pack", "outdated"]);
    assert!(
        outdated.out.contains("harvest 0.1.0 -> 0.2.0"),
        "{outdated:?}"
    );
    let updated = w.player(&["pack", "update"]);
    assert!(
        updated.code == 0
            && updated
                .out
                .contains("installed harvest 0.2.0 (replacing 0.1.0)"),
        "{updated:?}"
    );
    assert_eq!(w.installed("harvest").as_deref(), Some("0.2.0"));
    // A release that would break what needs it (orchard takes harvest ^0) is not installed
    // by an update.
    w.release("harvest", "1.0.0", None, true);
    w.index();
    let held = w.player(&["pack", "update", "harvest"]);
    assert!(held.out.contains("nothing to do"), "{held:?}");
    assert_eq!(w.installed("harvest").as_deref(), Some("0.2.0"));
    std::fs::remove_file(w.repo.join("harvest-1.0.0.zip")).unwrap();
    w.index();
    let again = w.player(&["pack", "update"]);
    assert!(again.out.contains("nothing to do"), "{again:?}");
    assert!(w.player(&["pack", "outdated"]).out.contains("up to date"));
}

#[test]
fn a_tampered_archive_is_refused_by_its_hash_and_nothing_changes() {
    let w = World::new();
    let zip = w.release("harvest", "0.1.0", None, false);
    w.index();
    // The archive changed after the index was written (same size: a byte flipped).
    let mut bytes = std::fs::read(&zip).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&zip, bytes).unwrap();
    w.player(&["pack", "source", "add", w.repo.to_str().unwrap()]);
    let refused = w.player(&["pack", "install", "harvest"]);
    assert_eq!(refused.code, 1, "{refused:?}");
    assert!(
        refused.err.contains("SHA-256") && refused.err.contains("nothing was installed"),
        "{refused:?}"
    );
    assert_eq!(w.installed("harvest"), None);
    let downloads = w.player.join("downloads");
    let left: Vec<_> = std::fs::read_dir(&downloads)
        .map(|d| d.filter_map(Result::ok).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "nothing left behind: {left:?}");
}

#[test]
fn a_release_signed_by_another_key_is_refused_after_a_pinned_first_install() {
    let w = World::new();
    w.author(&["pack", "keygen"]);
    w.release("harvest", "0.1.0", None, true);
    w.index();
    w.player(&["pack", "source", "add", w.repo.to_str().unwrap()]);
    let first = w.player(&["pack", "install", "harvest"]);
    assert!(first.out.contains("trusting key"), "{first:?}");
    // 0.2.0 signed by someone else's key.
    let zip = w.release("harvest", "0.2.0", None, false);
    let stranger = w.work.join("stranger-data");
    let made = run(&w.work, &stranger, &["pack", "keygen"]);
    let stranger_key = made
        .out
        .lines()
        .last()
        .unwrap()
        .trim_start_matches("public key: ");
    run(&w.work, &stranger, &["pack", "sign", zip.to_str().unwrap()]);
    // The index's author is told the key changed; the player is told before updating.
    let indexed = w.author(&["pack", "index", w.repo.to_str().unwrap()]);
    assert!(
        indexed
            .err
            .contains(&format!("harvest 0.2.0 is signed by key {stranger_key}")),
        "{indexed:?}"
    );
    let outdated = w.player(&["pack", "outdated"]);
    assert!(
        outdated.out.contains("signed by another key") && outdated.out.contains(stranger_key),
        "{outdated:?}"
    );
    let refused = w.player(&["pack", "update", "harvest"]);
    assert_eq!(refused.code, 1, "{refused:?}");
    let pinned = std::fs::read_to_string(w.player.join("trust/pins")).unwrap();
    let pinned_key = pinned.split_whitespace().nth(1).unwrap();
    assert!(
        refused.err.contains(pinned_key) && refused.err.contains(stranger_key),
        "both keys named: {refused:?}"
    );
    assert!(
        refused.err.contains("scryptic pack trust harvest"),
        "{refused:?}"
    );
    assert_eq!(w.installed("harvest").as_deref(), Some("0.1.0"));
    // Accepted deliberately, it installs.
    let trusted = w.player(&["pack", "trust", "harvest", stranger_key]);
    assert_eq!(trusted.code, 0, "{trusted:?}");
    let updated = w.player(&["pack", "update", "harvest"]);
    assert_eq!(updated.code, 0, "{updated:?}");
    assert_eq!(w.installed("harvest").as_deref(), Some("0.2.0"));
}

#[test]
fn an_unsigned_release_installs_with_a_plain_warning() {
    let w = World::new();
    w.release("harvest", "0.1.0", None, false);
    w.index();
    w.player(&["pack", "source", "add", w.repo.to_str().unwrap()]);
    let installed = w.player(&["pack", "install", "harvest@0.1"]);
    assert_eq!(installed.code, 0, "{installed:?}");
    assert!(installed.err.contains("is not signed"), "{installed:?}");
    let unknown = w.player(&["pack", "install", "nothing-here"]);
    assert!(
        unknown.code == 1 && unknown.err.contains("no pack index lists `nothing-here`"),
        "{unknown:?}"
    );
}

/// An HTTP server on loopback whose answer to each request is `respond(path)`, whole bytes.
fn http_server(respond: impl Fn(&str) -> Vec<u8> + Send + 'static) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let n = stream.read(&mut request).unwrap_or(0);
            let line = String::from_utf8_lossy(&request[..n]);
            let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
            let _ = stream.write_all(&respond(&path));
        }
    });
    format!("http://{addr}")
}

/// An HTTP server of the files in `dir`; the file named `cut` is sent only half (its full
/// length announced), as a connection lost mid-download.
fn serve_folder(dir: PathBuf, cut: Option<String>) -> String {
    http_server(move |path| {
        let name = path.trim_start_matches('/');
        let Ok(body) = std::fs::read(dir.join(name)) else {
            return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".to_vec();
        };
        let mut answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        let sent = if cut.as_deref() == Some(name) {
            &body[..body.len() / 2]
        } else {
            &body[..]
        };
        answer.extend_from_slice(sent);
        answer
    })
}

#[test]
fn a_download_cut_off_leaves_the_installed_version_in_place() {
    let w = World::new();
    w.release("harvest", "0.1.0", None, false);
    w.index();
    let address = serve_folder(w.repo.clone(), Some("harvest-0.2.0.zip".into()));
    let added = w.player(&["pack", "source", "add", &address]);
    assert!(added.out.contains("(1 pack)"), "{added:?}");
    let first = w.player(&["pack", "install", "harvest"]);
    assert_eq!(first.code, 0, "{first:?}");
    w.release("harvest", "0.2.0", None, false);
    w.index();
    let cut = w.player(&["pack", "update"]);
    assert_eq!(cut.code, 1, "{cut:?}");
    assert!(cut.err.contains("harvest 0.2.0"), "{cut:?}");
    assert_eq!(w.installed("harvest").as_deref(), Some("0.1.0"));
    let played = w.player(&["pack", "check", "harvest"]);
    assert_eq!(played.code, 0, "the old version is whole: {played:?}");
}

#[test]
fn scryptic_serve_publishes_its_releases_folder_and_each_release_added() {
    let w = World::new();
    w.author(&["pack", "keygen"]);
    w.release("harvest", "0.1.0", None, true);
    // Orchard has a picture: the index carries it, the server serves it.
    w.author(&["pack", "new", "orchard"]);
    std::fs::copy(
        scryptic_tests::root().join("tilesets/stone/forest_0.png"),
        w.work.join("orchard/thumbnail.png"),
    )
    .unwrap();
    w.release("orchard", "0.1.0", Some("harvest"), true);
    let data = w.work.join("server-data");
    let mut options = scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), data.clone());
    options.publish = vec![w.repo.clone()];
    let server = scryptic::server::start(options).unwrap();
    assert_eq!(server.published, 2, "{:?}", server.unpublished);
    let address = format!("http://{}", server.addr);
    let added = w.player(&["pack", "source", "add", &address]);
    assert!(added.out.contains("(2 packs)"), "{added:?}");
    let found = w.player(&["pack", "search"]);
    assert!(found.out.contains("harvest 0.1.0") && found.out.contains("orchard 0.1.0"));
    let installed = w.player(&["pack", "install", "orchard"]);
    assert_eq!(installed.code, 0, "{installed:?}");
    assert_eq!(w.installed("harvest").as_deref(), Some("0.1.0"));
    assert_eq!(w.installed("orchard").as_deref(), Some("0.1.0"));
    let orchard = scryptic_tests::published_pack(&address, "orchard");
    assert_eq!(orchard["thumbnail"], "packs/orchard-0.1.0.png");
    let picture = ureq::get(format!("{address}/packs/orchard-0.1.0.png"))
        .call()
        .unwrap()
        .body_mut()
        .read_to_vec()
        .unwrap();
    assert!(picture.starts_with(b"\x89PNG"), "the thumbnail is served");
    // Only what the index names is served.
    let lobby = format!("{address}/packs/index.json");
    let refused = w.player(&["pack", "source", "add", &lobby]);
    assert!(refused.out.contains("cannot be read"), "{refused:?}");
    // A release added to the published folder is published at once, without a restart.
    w.release("orchard", "0.2.0", Some("harvest"), true);
    let orchard = scryptic_tests::published_pack(&address, "orchard");
    let versions: Vec<&str> = orchard["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["0.2.0", "0.1.0"], "{orchard}");
    let updated = w.player(&["pack", "update"]);
    assert_eq!(updated.code, 0, "{updated:?}");
    assert_eq!(w.installed("orchard").as_deref(), Some("0.2.0"));
}

/// An HTTP server whose every answer is a redirect to `to`.
fn redirecting_to(to: &'static str) -> String {
    http_server(move |_| {
        format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n").into_bytes()
    })
}

#[test]
fn a_redirect_to_another_scheme_is_not_followed() {
    let w = World::new();
    let address = redirecting_to("https://127.0.0.1:9/index.json");
    let added = w.player(&["pack", "source", "add", &address]);
    assert!(added.out.contains("another scheme: refused"), "{added:?}");
    let search = w.player(&["pack", "search"]);
    assert!(search.err.contains("another scheme"), "{search:?}");
}

/// A pack's page (`/packs/ID`): every release with its date, size, SHA-256 and the signing
/// key's fingerprint (or "unsigned"), the scripting API, its dependencies linked to their pages,
/// the command to install it, its README and changelog; a pack the server plays from a folder
/// has one with its modes; a name the server knows nothing of is refused.
#[test]
fn a_pack_page_shows_its_releases_and_links_its_dependencies() {
    let w = World::new();
    w.author(&["pack", "keygen"]);
    w.release("harvest", "0.1.0", None, false);
    w.author(&["pack", "new", "orchard"]);
    std::fs::write(
        w.work.join("orchard/CHANGELOG.md"),
        "# Changes\n\n- Apples <ripen>.\n",
    )
    .unwrap();
    w.release("orchard", "0.1.0", Some("harvest"), true);
    w.release("orchard", "0.2.0", Some("harvest"), true);
    let mut options =
        scryptic::server::Options::new("127.0.0.1:0".parse().unwrap(), w.work.join("server-data"));
    options.publish = vec![w.repo.clone()];
    options.packs = vec![scryptic_tests::root().join("packs")];
    let server = scryptic::server::start(options).unwrap();
    let address = format!("http://{}", server.addr);
    let get = |path: &str| {
        let mut answer = ureq::get(format!("{address}{path}"))
            .config()
            .http_status_as_error(false)
            .build()
            .call()
            .unwrap();
        let status = answer.status().as_u16();
        let bytes = answer.body_mut().read_to_vec().unwrap();
        (status, String::from_utf8_lossy(&bytes).into_owned())
    };
    let (status, page) = get("/packs/orchard");
    assert_eq!(status, 200, "{page}");
    let indexed = scryptic_tests::published_pack(&address, "orchard");
    let newest = &indexed["releases"][0];
    for wanted in [
        "<h1>orchard</h1>".to_string(),
        ">0.2.0</a>".to_string(),
        ">0.1.0</a>".to_string(),
        newest["sha256"].as_str().unwrap().to_string(),
        "scryptic pack install orchard".to_string(),
        "href=\"/packs/harvest\"".to_string(),
        "class=\"fingerprint\"".to_string(),
        "Apples &lt;ripen&gt;.".to_string(),
    ] {
        assert!(page.contains(&wanted), "the page lacks {wanted}: {page}");
    }
    let (_, harvest) = get("/packs/harvest");
    assert!(
        harvest.contains("unsigned") && harvest.contains("href=\"/packs/core\""),
        "{harvest}"
    );
    // The site's list sorts by these: each pack's newest release's date.
    let (_, dates) = get("/api/published/dates");
    let dates: serde_json::Value = serde_json::from_str(&dates).unwrap();
    assert!(
        dates["orchard"].as_u64().unwrap() >= dates["harvest"].as_u64().unwrap(),
        "orchard 0.2.0 was written after harvest: {dates}"
    );
    // A pack played from a folder, published or not, says what the server plays of it.
    let (status, played) = get("/packs/word-wars");
    assert_eq!(status, 200);
    assert!(
        played.contains("Played on this server") && played.contains("class=\"mode\""),
        "{played}"
    );
    // Files are still served where the index names them; a name nobody knows is refused.
    assert_eq!(get("/packs/orchard-0.2.0.zip").0, 200);
    let (status, missing) = get("/packs/nothing-here");
    assert_eq!(status, 404);
    assert!(missing.contains("knows no pack nothing-here"), "{missing}");
}

//! Packs that travel with a match: a client fetches a pack the match names by its hash from
//! the server, checks it as an install would and keeps it in its cache; a pack whose files
//! hash otherwise is refused, naming it, and nothing is kept.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use scryptic_client::{Connection, Incoming, Lobby, fetch_pack, pack_cache};
use scryptic_pack::Pack;
use scryptic_pack::record::pack_hash;
use scryptic_protocol::{CreateMatch, MatchInfo, PackFile, PackRef, ServerFrame};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server on loopback whose packs folder holds a copy of the shipped Scryper pack.
fn server(dir: &Path) -> scryptic_server::Started {
    let scryper = Pack::open(&root().join("packs/scryper")).unwrap();
    scryptic_pack::archive::export(&scryper, &dir.join("packs")).unwrap();
    let mut options =
        scryptic_server::Options::new("127.0.0.1:0".parse().unwrap(), dir.join("data"));
    options.packs = vec![dir.join("packs")];
    scryptic_server::start(options).unwrap()
}

fn scryper_match(base: &str) -> MatchInfo {
    let request = CreateMatch {
        pack: "scryper".into(),
        mode: String::new(),
        map: String::new(),
        settings: Default::default(),
        seats: Default::default(),
        seed: Some(7),
        log_after_end: true,
    };
    Lobby::new(base).create(request).unwrap()
}

fn pack_ref(info: &MatchInfo, id: &str) -> PackRef {
    info.packs.iter().find(|p| p.id == id).unwrap().clone()
}

#[test]
fn a_pack_is_fetched_by_its_hash_checked_and_kept_apart() {
    let dir = tempfile::tempdir().unwrap();
    let started = server(dir.path());
    let base = format!("http://{}", started.addr);
    let info = scryper_match(&base);
    let wanted = pack_ref(&info, "scryper");
    let cache = pack_cache(&dir.path().join("client"));
    let fetched = fetch_pack(&base, &wanted, &cache).unwrap();
    assert_eq!(fetched.id(), "scryper");
    assert_eq!(pack_hash(&fetched).unwrap(), wanted.sha256);
    let kept = cache.join(&wanted.sha256).join("scryper");
    assert!(kept.join("pack.ron").is_file(), "kept in the cache by hash");
    assert!(
        !dir.path().join("client/packs").exists(),
        "nothing is installed"
    );
    // The welcome names the board's tileset as a file of the pack.
    let connection = Connection::open(&base, &info.id, None, None, None).unwrap();
    let welcome = match connection
        .incoming
        .recv_timeout(Duration::from_secs(10))
        .unwrap()
    {
        Incoming::Frame(frame) => *frame,
        Incoming::Closed { why, .. } => panic!("closed: {why}"),
    };
    let ServerFrame::Welcome { tileset, .. } = welcome else {
        panic!("a welcome first");
    };
    let PackFile { pack, path } = tileset.expect("scryper's board names a tileset");
    assert_eq!(pack, "scryper");
    assert!(kept.join(&path).is_file(), "{path} is in the fetched pack");
    // Fetched again with the server gone: the cache answers.
    drop(connection);
    drop(started);
    let again = fetch_pack(&base, &wanted, &cache).unwrap();
    assert_eq!(pack_hash(&again).unwrap(), wanted.sha256);
}

#[test]
fn a_pack_changed_on_the_server_is_not_served_under_its_old_hash() {
    let dir = tempfile::tempdir().unwrap();
    let started = server(dir.path());
    let base = format!("http://{}", started.addr);
    let wanted = pack_ref(&scryper_match(&base), "scryper");
    let readme = dir.path().join("packs/scryper/README.md");
    let mut text = std::fs::read_to_string(&readme).unwrap();
    text.push_str("\nchanged\n");
    std::fs::write(&readme, text).unwrap();
    let cache = pack_cache(&dir.path().join("client"));
    let refused = fetch_pack(&base, &wanted, &cache).unwrap_err();
    assert!(refused.contains(&wanted.sha256), "{refused}");
    assert!(!cache.join(&wanted.sha256).exists());
}

/// A server that answers every request with `body` as a zip.
fn lying_server(body: Vec<u8>) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    format!("http://{addr}")
}

#[test]
fn an_archive_whose_files_hash_otherwise_is_refused_naming_the_pack() {
    let dir = tempfile::tempdir().unwrap();
    // The archive of another pack, sent for the hash of Scryper's.
    let other = Pack::open(&root().join("packs/word-wars")).unwrap();
    let zip = dir.path().join("other.zip");
    scryptic_pack::archive::zip_folder(&other, &zip).unwrap();
    let base = lying_server(std::fs::read(&zip).unwrap());
    let scryper = Pack::open(&root().join("packs/scryper")).unwrap();
    let wanted = PackRef {
        id: "scryper".into(),
        version: scryper.manifest.version.to_string(),
        sha256: pack_hash(&scryper).unwrap(),
    };
    let cache = pack_cache(&dir.path().join("client"));
    let refused = fetch_pack(&base, &wanted, &cache).unwrap_err();
    assert!(
        refused.contains("the pack scryper") && refused.contains("not the match's"),
        "{refused}"
    );
    assert!(!cache.join(&wanted.sha256).exists(), "nothing kept");
    // Not an archive at all: refused as one, nothing kept either.
    let base = lying_server(b"not a zip".to_vec());
    let refused = fetch_pack(&base, &wanted, &cache).unwrap_err();
    assert!(refused.contains("scryper"), "{refused}");
    assert!(!cache.join(&wanted.sha256).exists());
    let leftovers: Vec<_> = std::fs::read_dir(&cache).unwrap().collect();
    assert!(
        leftovers.is_empty(),
        "no temporary file left: {leftovers:?}"
    );
}

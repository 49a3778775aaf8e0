//! Pack indexes as a player reaches them: the list of index addresses kept in the data folder
//! (`sources`, an address or folder a line), an index read from a folder, a file or an http(s)
//! address, and a release's archive downloaded as it streams, with its size capped by what the
//! index says, its SHA-256 taken on the way and checked, and progress told. Redirects are
//! followed only to the same scheme; every request has timeouts.

use scryptic_pack::archive::MAX_ARCHIVE_BYTES;
use scryptic_pack::index::{INDEX_FILE, Index, MAX_INDEX_BYTES, Planned};
use sha2::Digest;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How many redirects a request follows.
const MAX_REDIRECTS: usize = 5;

/// The file of index addresses in data folder `data`.
pub fn sources_file(data: &Path) -> PathBuf {
    data.join("sources")
}

/// The index addresses kept in data folder `data`, in the order added.
pub fn sources(data: &Path) -> Vec<String> {
    std::fs::read_to_string(sources_file(data))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Adds `source` (an http(s) address, or a folder or file, made absolute) to the list; answers
/// the form kept, or why it cannot be one.
pub fn add_source(data: &Path, source: &str) -> Result<String, String> {
    let kept = normal_source(source)?;
    let mut list = sources(data);
    if !list.contains(&kept) {
        list.push(kept.clone());
    }
    write_sources(data, &list)?;
    Ok(kept)
}

/// Removes `source` from the list; answers whether it was there.
pub fn remove_source(data: &Path, source: &str) -> Result<bool, String> {
    let kept = normal_source(source).unwrap_or_else(|_| source.to_string());
    let mut list = sources(data);
    let before = list.len();
    list.retain(|s| *s != kept && s != source);
    write_sources(data, &list)?;
    Ok(list.len() < before)
}

fn write_sources(data: &Path, list: &[String]) -> Result<(), String> {
    std::fs::create_dir_all(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let text: String = list.iter().map(|s| format!("{s}\n")).collect();
    let path = sources_file(data);
    scryptic_core::fsutil::write_atomic(&path, text.as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `source` as kept: an http(s) address as typed (without a trailing slash), a path made
/// absolute; anything else refused.
fn normal_source(source: &str) -> Result<String, String> {
    let source = source.trim();
    if let Some((scheme, _)) = source.split_once("://") {
        return match scheme {
            "http" | "https" => Ok(source.trim_end_matches('/').to_string()),
            other => Err(format!(
                "`{source}`: an index is at an http:// or https:// address, or in a folder ({other}:// is not read)"
            )),
        };
    }
    let path = Path::new(source);
    let absolute = std::path::absolute(path).map_err(|e| format!("`{source}`: {e}"))?;
    if !absolute.exists() {
        return Err(format!(
            "`{source}` is neither an http(s) address nor a folder or file here"
        ));
    }
    Ok(absolute.display().to_string())
}

/// Where the index document of `source` is: `SOURCE/index.json` for a folder or an address not
/// ending in `.json`; the file or address itself otherwise.
pub fn index_location(source: &str) -> String {
    let is_web = source.starts_with("http://") || source.starts_with("https://");
    if source.ends_with(".json") || (!is_web && Path::new(source).is_file()) {
        return source.to_string();
    }
    format!("{}/{INDEX_FILE}", source.trim_end_matches('/'))
}

/// `address` seen from the index at `location`: absolute as it is, else beside the index.
pub fn resolve(location: &str, address: &str) -> String {
    if address.contains("://") {
        return address.to_string();
    }
    match location.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{}", address.trim_start_matches("./")),
        None => address.to_string(),
    }
}

/// Reads the index of `source`.
pub fn read_index(source: &str) -> Result<Index, String> {
    let location = index_location(source);
    let mut bytes = Vec::new();
    fetch(&location, MAX_INDEX_BYTES, &mut bytes, &mut |_, _| {})?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{location}: an index is UTF-8 text"))?;
    Index::parse(&location, &text).map_err(|e| e.to_string())
}

/// The picture at `address` of the index of `source` (a thumbnail), at most 8 MiB.
pub fn thumbnail(source: &str, address: &str) -> Result<Vec<u8>, String> {
    let location = resolve(&index_location(source), address);
    let mut bytes = Vec::new();
    fetch(&location, 8 * 1024 * 1024, &mut bytes, &mut |_, _| {})?;
    Ok(bytes)
}

/// Downloads `planned`'s archive into a new file in `dir`: streamed, at most the size the index
/// says (and an archive's most), its SHA-256 checked against the index's. `progress` is told
/// the bytes so far and the size expected. A mismatch or a cut download keeps nothing.
pub fn download(
    planned: &Planned,
    dir: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<tempfile::NamedTempFile, String> {
    let location = resolve(&index_location(&planned.source), &planned.release.url);
    let named = |e: &dyn std::fmt::Display| {
        format!(
            "{} {} ({location}): {e}",
            planned.id, planned.release.version
        )
    };
    std::fs::create_dir_all(dir).map_err(|e| named(&e))?;
    let expected = planned.release.size;
    if expected > MAX_ARCHIVE_BYTES {
        return Err(named(&format!(
            "the index says {expected} bytes, more than an archive's {MAX_ARCHIVE_BYTES}"
        )));
    }
    let mut file = tempfile::Builder::new()
        .prefix(".download-")
        .suffix(".zip")
        .tempfile_in(dir)
        .map_err(|e| named(&e))?;
    let mut hashing = Hashing {
        file: file.as_file_mut(),
        hasher: sha2::Sha256::new(),
    };
    let got = fetch(&location, expected, &mut hashing, &mut |done, _| {
        progress(done, expected);
    })
    .map_err(|e| named(&e))?;
    let hash = scryptic_pack::record::hex(&hashing.hasher.finalize());
    if got != expected {
        return Err(named(&format!(
            "{got} bytes came, the index says {expected}: the download was cut or the archive changed; nothing was installed"
        )));
    }
    if !hash.eq_ignore_ascii_case(&planned.release.sha256) {
        return Err(named(&format!(
            "its SHA-256 is {hash}, the index says {}: refused, nothing was installed",
            planned.release.sha256
        )));
    }
    file.as_file_mut().flush().map_err(|e| named(&e))?;
    Ok(file)
}

/// What installing a release did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// `ID VERSION`.
    pub name: String,
    /// The version it replaced.
    pub replaced: Option<String>,
    /// The author's key, pinned now (the pack's first signed install).
    pub pinned: Option<String>,
    /// Whether the release was unsigned (it installs, with a warning to show).
    pub unsigned: bool,
}

/// Installs `planned` into `packs_dir`: its signer checked against the key pinned in data
/// folder `data` first (another key is refused, naming both), then downloaded (see
/// [`download`], `progress` told), its signature verified, the archive checked whole and its
/// manifest matched to the index, and installed in place of an installed version only once
/// complete; a first signed install pins the key. Any refusal leaves everything as it was.
pub fn install_release(
    planned: &Planned,
    packs_dir: &Path,
    data: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Installed, String> {
    use scryptic_pack::trust::{Pinned, Pins};
    let mut pins = Pins::load(data).map_err(|e| e.to_string())?;
    let key = planned.release.key.as_deref();
    let verdict = pins.judge(&planned.id, key).map_err(|e| e.to_string())?;
    let downloads = data.join("downloads");
    let file = download(planned, &downloads, progress)?;
    let name = format!("{} {}", planned.id, planned.release.version);
    let named = |e: &dyn std::fmt::Display| format!("{name}: {e}");
    if let (Some(key), Some(signature)) = (key, planned.release.signature.as_deref()) {
        let bytes = std::fs::read(file.path()).map_err(|e| named(&e))?;
        scryptic_pack::trust::verify(&bytes, key, signature, &name).map_err(|e| e.to_string())?;
    }
    let (_staging, root) =
        scryptic_pack::archive::unpack(file.path(), &downloads).map_err(|e| named(&e))?;
    let opened = scryptic_pack::Pack::open(&root).map_err(|e| named(&e))?;
    if opened.id() != planned.id || opened.manifest.version != planned.release.version {
        return Err(named(&format!(
            "the archive holds {} {}, not what the index lists: refused",
            opened.id(),
            opened.manifest.version
        )));
    }
    let installed =
        scryptic_pack::archive::install(file.path(), packs_dir).map_err(|e| named(&e))?;
    let pinned = match (verdict, key) {
        (Pinned::First, Some(key)) => {
            pins.pin(&planned.id, key);
            pins.save(data).map_err(|e| e.to_string())?;
            Some(key.to_string())
        }
        _ => None,
    };
    Ok(Installed {
        name,
        replaced: installed.replaced,
        pinned,
        unsigned: key.is_none(),
    })
}

/// A writer that hashes what passes.
struct Hashing<'a> {
    file: &'a mut std::fs::File,
    hasher: sha2::Sha256,
}

impl Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let written = self.file.write(bytes)?;
        self.hasher.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Copies what `location` holds (an http(s) address or a file) into `sink`, refusing more
/// than `limit` bytes; answers how many came.
fn fetch(
    location: &str,
    limit: u64,
    sink: &mut dyn Write,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<u64, String> {
    if !(location.starts_with("http://") || location.starts_with("https://")) {
        let path = location.strip_prefix("file://").unwrap_or(location);
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        return copy_capped(file, limit, sink, progress).map_err(|e| format!("{path}: {e}"));
    }
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .max_redirects(0)
        .max_redirects_will_error(false)
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_recv_response(Some(Duration::from_secs(30)))
        .timeout_recv_body(Some(Duration::from_secs(600)))
        .build()
        .into();
    let scheme = location.split_once("://").map(|(s, _)| s).unwrap_or("http");
    let mut url = location.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let mut response = agent.get(&url).call().map_err(|e| format!("{url}: {e}"))?;
        let status = response.status();
        if status.is_redirection() {
            let to = response
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .ok_or_else(|| format!("{url}: a redirect without a Location"))?;
            let next = redirect_target(&url, to);
            let next_scheme = next.split_once("://").map(|(s, _)| s).unwrap_or("");
            if next_scheme != scheme {
                return Err(format!(
                    "{url}: redirected to {next}, another scheme: refused ({scheme}:// only)"
                ));
            }
            url = next;
            continue;
        }
        if !status.is_success() {
            return Err(format!("{url}: the server answered {status}"));
        }
        let reader = response.body_mut().as_reader();
        return copy_capped(reader, limit, sink, progress).map_err(|e| format!("{url}: {e}"));
    }
    Err(format!("{location}: more than {MAX_REDIRECTS} redirects"))
}

/// Where a redirect from `from` to `to` (absolute, rooted or relative) leads.
fn redirect_target(from: &str, to: &str) -> String {
    if to.contains("://") {
        return to.to_string();
    }
    let (scheme, rest) = from.split_once("://").unwrap_or(("http", from));
    let host = rest.split('/').next().unwrap_or(rest);
    if to.starts_with('/') {
        return format!("{scheme}://{host}{to}");
    }
    resolve(from, to)
}

/// Copies `reader` into `sink`, at most `limit` bytes (one more is an error).
fn copy_capped(
    mut reader: impl Read,
    limit: u64,
    sink: &mut dyn Write,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<u64, String> {
    let mut buffer = vec![0u8; 64 * 1024];
    let mut done: u64 = 0;
    loop {
        let n = reader.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(done);
        }
        done += n as u64;
        if done > limit {
            return Err(format!("more than the {limit} bytes expected: refused"));
        }
        sink.write_all(&buffer[..n]).map_err(|e| e.to_string())?;
        progress(done, limit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_resolve_beside_the_index() {
        assert_eq!(
            index_location("http://h/packs"),
            "http://h/packs/index.json"
        );
        assert_eq!(index_location("http://h/all.json"), "http://h/all.json");
        assert_eq!(
            resolve("http://h/p/index.json", "a-1.0.0.zip"),
            "http://h/p/a-1.0.0.zip"
        );
        assert_eq!(
            resolve("http://h/p/index.json", "https://x/a.zip"),
            "https://x/a.zip"
        );
        assert_eq!(resolve("/srv/p/index.json", "./a.zip"), "/srv/p/a.zip");
        assert_eq!(redirect_target("http://h:1/a/b", "/c"), "http://h:1/c");
        assert_eq!(redirect_target("http://h/a/b", "c"), "http://h/a/c");
    }

    #[test]
    fn a_copy_past_its_limit_is_refused() {
        let mut out = Vec::new();
        let mut seen = 0;
        assert_eq!(
            copy_capped(&b"abc"[..], 3, &mut out, &mut |d, _| seen = d),
            Ok(3)
        );
        assert_eq!(seen, 3);
        assert!(copy_capped(&b"abcd"[..], 3, &mut Vec::new(), &mut |_, _| {}).is_err());
    }

    #[test]
    fn sources_are_kept_once_each_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path();
        assert_eq!(
            add_source(data, "http://h/packs/").unwrap(),
            "http://h/packs"
        );
        add_source(data, "http://h/packs").unwrap();
        let folder = add_source(data, &data.display().to_string()).unwrap();
        assert_eq!(
            sources(data),
            ["http://h/packs".to_string(), folder.clone()]
        );
        assert!(add_source(data, "ftp://h").is_err());
        assert!(add_source(data, "/no/such/folder").is_err());
        assert!(remove_source(data, "http://h/packs").unwrap());
        assert!(!remove_source(data, "http://h/packs").unwrap());
        assert_eq!(sources(data), [folder]);
    }
}

//! Pack indexes: one JSON document (`index.json`) that lists packs and their releases (version,
//! the scripting API it needs, dependencies, size, the archive's SHA-256, its address,
//! signature and author key), so that players find, install and update packs from any static
//! host, a local folder or `scryptic serve`. `pack index DIR` writes one for a folder of
//! archives; the player's commands read any number of them. docs/INDEX.md describes it and
//! docs/index.schema.json is its schema.
//!
//! Every index may come from a stranger: its size, its counts and every text's length are
//! bounded when it is read, ids and versions are checked as a manifest's are, and nothing in
//! it is trusted before the archive it names is checked against its hash.

use crate::diag::{FileError, LoadError};
use crate::manifest::{API_VERSION, id_problem};
use crate::trust::SignatureFile;
use semver::{Version, VersionReq};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The index format this build reads and writes.
pub const INDEX_FORMAT: u32 = 1;
/// An index's file name in a folder, and after a server's or host's address.
pub const INDEX_FILE: &str = "index.json";
/// The most bytes of an index document.
/// (10,000 packs of three signed releases are about 19 MiB of JSON.)
pub const MAX_INDEX_BYTES: u64 = 64 * 1024 * 1024;
/// The most packs an index lists.
pub const MAX_INDEX_PACKS: usize = 10_000;
/// The most releases of one pack.
pub const MAX_RELEASES: usize = 1_000;
/// The most dependencies of a release.
pub const MAX_DEPENDS: usize = 64;
/// The most tags of a pack.
pub const MAX_TAGS: usize = 32;
/// The most characters of a description; of a title, a tag or an address.
const MAX_DESCRIPTION: usize = 4_000;
const MAX_SHORT: usize = 200;
const MAX_ADDRESS: usize = 2_000;

/// An index: packs and their releases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Index {
    /// The index format (1).
    pub format: u32,
    /// The packs, each once.
    pub packs: Vec<IndexedPack>,
}

/// A pack an index lists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexedPack {
    /// The pack's id.
    pub id: String,
    /// Its title (the newest release's).
    pub title: String,
    /// What it is.
    #[serde(default)]
    pub description: String,
    /// Words to find it by.
    #[serde(default)]
    pub tags: Vec<String>,
    /// A picture of it (an address, relative to the index's).
    #[serde(default)]
    pub thumbnail: Option<String>,
    /// Its releases, newest first.
    pub releases: Vec<Release>,
}

/// A release of a pack: one archive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// Its version.
    pub version: Version,
    /// The scripting API versions it runs on (its manifest's `scryptic`).
    pub scryptic: VersionReq,
    /// The packs it needs, with the versions it accepts.
    #[serde(default)]
    pub depends: BTreeMap<String, VersionReq>,
    /// The archive's size in bytes.
    pub size: u64,
    /// The SHA-256 of the archive's bytes, 64 hex digits.
    pub sha256: String,
    /// Where the archive is: an address, relative to the index's, or absolute.
    pub url: String,
    /// The author's ed25519 signature of the archive (hex), if it is signed.
    #[serde(default)]
    pub signature: Option<String>,
    /// The author's public key (hex), if it is signed.
    #[serde(default)]
    pub key: Option<String>,
}

impl Release {
    /// Whether this build runs it.
    pub fn fits(&self) -> bool {
        self.scryptic.matches(&API_VERSION)
    }
}

/// Why an index cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The document is over the size accepted.
    #[error("{source_name}: an index of {bytes} bytes is larger than the {most} accepted")]
    TooLarge {
        /// Where it came from.
        source_name: String,
        /// Its size.
        bytes: u64,
        /// The most accepted.
        most: u64,
    },
    /// It is not JSON of an index's shape.
    #[error("{source_name}:{line}:{column}: {message}")]
    Syntax {
        /// Where it came from.
        source_name: String,
        /// Where.
        line: usize,
        /// Where.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// It is an index, with something in it that cannot be.
    #[error("{source_name}: {what}")]
    Invalid {
        /// Where it came from.
        source_name: String,
        /// What, and how to fix it.
        what: String,
    },
}

impl Default for Index {
    /// An index of no packs.
    fn default() -> Index {
        Index {
            format: INDEX_FORMAT,
            packs: Vec::new(),
        }
    }
}

impl Index {
    /// Reads the index `text` (from `source_name`, shown in messages), checking it whole.
    pub fn parse(source_name: &str, text: &str) -> Result<Index, IndexError> {
        let bytes = text.len() as u64;
        if bytes > MAX_INDEX_BYTES {
            return Err(IndexError::TooLarge {
                source_name: source_name.to_string(),
                bytes,
                most: MAX_INDEX_BYTES,
            });
        }
        let index: Index = serde_json::from_str(text).map_err(|e| IndexError::Syntax {
            source_name: source_name.to_string(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        index.problem().map_or(Ok(index), |what| {
            Err(IndexError::Invalid {
                source_name: source_name.to_string(),
                what,
            })
        })
    }

    /// The index as JSON (pretty, ending with a newline).
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The first thing wrong with the index, in words.
    fn problem(&self) -> Option<String> {
        if self.format != INDEX_FORMAT {
            return Some(format!(
                "index format {} is not this build's ({INDEX_FORMAT}): update scryptic, or ask the index's host",
                self.format
            ));
        }
        if self.packs.len() > MAX_INDEX_PACKS {
            return Some(format!(
                "it lists {} packs, more than the {MAX_INDEX_PACKS} accepted",
                self.packs.len()
            ));
        }
        let mut seen = std::collections::BTreeSet::new();
        for pack in &self.packs {
            if !seen.insert(pack.id.as_str()) {
                return Some(format!("pack {} is listed twice", pack.id));
            }
            if let Some(problem) = pack.problem() {
                return Some(format!("pack {}: {problem}", pack.id));
            }
        }
        None
    }

    /// The packs whose id, title, description or tags hold every one of `words` (ignoring
    /// case); every pack when there are none.
    pub fn search<'a>(&'a self, words: &[String]) -> Vec<&'a IndexedPack> {
        let words: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        self.packs
            .iter()
            .filter(|p| {
                let text = format!(
                    "{} {} {} {}",
                    p.id,
                    p.title,
                    p.description,
                    p.tags.join(" ")
                )
                .to_lowercase();
                words.iter().all(|w| text.contains(w.as_str()))
            })
            .collect()
    }

    /// The pack `id`.
    pub fn pack(&self, id: &str) -> Option<&IndexedPack> {
        self.packs.iter().find(|p| p.id == id)
    }
}

impl IndexedPack {
    fn problem(&self) -> Option<String> {
        if let Some(problem) = id_problem(&self.id) {
            return Some(problem);
        }
        let texts = [
            ("title", &self.title, MAX_SHORT),
            ("description", &self.description, MAX_DESCRIPTION),
        ];
        for (name, text, most) in texts {
            if text.chars().count() > most {
                return Some(format!("its {name} is longer than {most} characters"));
            }
        }
        if self.tags.len() > MAX_TAGS || self.tags.iter().any(|t| t.chars().count() > MAX_SHORT) {
            return Some(format!(
                "at most {MAX_TAGS} tags of {MAX_SHORT} characters each"
            ));
        }
        if self
            .thumbnail
            .as_ref()
            .is_some_and(|t| address_problem(t).is_some())
        {
            return Some("its thumbnail is not an address".into());
        }
        if self.releases.is_empty() || self.releases.len() > MAX_RELEASES {
            return Some(format!("it has 1 to {MAX_RELEASES} releases"));
        }
        let mut versions = std::collections::BTreeSet::new();
        for release in &self.releases {
            if !versions.insert(&release.version) {
                return Some(format!("version {} is listed twice", release.version));
            }
            if let Some(problem) = release.problem() {
                return Some(format!("version {}: {problem}", release.version));
            }
        }
        None
    }

    /// The newest release that this build runs and `req` accepts.
    pub fn best(&self, req: &VersionReq) -> Option<&Release> {
        self.releases
            .iter()
            .filter(|r| r.fits() && req.matches(&r.version))
            .max_by(|a, b| a.version.cmp(&b.version))
    }

    /// The newest release of all.
    pub fn newest(&self) -> Option<&Release> {
        self.releases
            .iter()
            .max_by(|a, b| a.version.cmp(&b.version))
    }
}

impl Release {
    fn problem(&self) -> Option<String> {
        if let Err(e) = crate::trust::check_hex(&self.sha256, 32, "sha256") {
            return Some(e);
        }
        if let Some(problem) = address_problem(&self.url) {
            return Some(format!("its url {problem}"));
        }
        if self.depends.len() > MAX_DEPENDS {
            return Some(format!("more than {MAX_DEPENDS} dependencies"));
        }
        if let Some(id) = self.depends.keys().find(|id| id_problem(id).is_some()) {
            return Some(format!("it depends on `{id}`, which is not a pack id"));
        }
        match (&self.signature, &self.key) {
            (None, None) => None,
            (Some(signature), Some(key)) => crate::trust::check_hex(key, 32, "key")
                .and_then(|()| crate::trust::check_hex(signature, 64, "signature"))
                .err(),
            _ => Some("a signature comes with its key, and a key with its signature".into()),
        }
    }
}

/// Why `address` cannot be an archive's or a picture's address: empty, too long, with
/// control characters, or a scheme other than http(s).
fn address_problem(address: &str) -> Option<String> {
    if address.is_empty() || address.len() > MAX_ADDRESS {
        return Some(format!("is empty or longer than {MAX_ADDRESS} characters"));
    }
    if address.chars().any(char::is_control) {
        return Some("holds control characters".into());
    }
    match address.split_once("://") {
        Some(("http" | "https", _)) | None => None,
        Some((scheme, _)) => Some(format!("is a {scheme}:// address (http and https only)")),
    }
}

/// Writes an index of the pack archives (`*.zip`) in `dir`: each archive checked as an
/// install checks it and its manifest read, its size and SHA-256 taken, its signature
/// (`ZIP.sig`, from `pack sign`) verified and carried, a `thumbnail.png` at its root written
/// beside it as `ID-VERSION.png`. Addresses are the files' names, relative to the index.
/// Answers the index and what was left out, each with why.
pub fn build(dir: &Path) -> Result<(Index, Vec<String>), LoadError> {
    build_seeing(dir, &mut |_| {})
}

/// As [`build`], showing `see` each archive's pack while it is unpacked (a server reads its
/// README there, rather than unpacking every archive a second time).
pub fn build_seeing(
    dir: &Path,
    see: &mut dyn FnMut(&crate::Pack),
) -> Result<(Index, Vec<String>), LoadError> {
    let io = crate::archive::io_at;
    let mut zips: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "zip") && p.is_file())
        .collect();
    zips.sort();
    let mut packs: BTreeMap<String, IndexedPack> = BTreeMap::new();
    let mut left_out = Vec::new();
    for zip in &zips {
        match indexed_release(zip, dir, see) {
            Ok((pack, release)) => add_release(&mut packs, pack, release, &mut left_out),
            Err(e) => left_out.push(format!("{}: {e}", zip.display())),
        }
    }
    let index = Index {
        format: INDEX_FORMAT,
        packs: packs.into_values().collect(),
    };
    if let Some(problem) = index.problem() {
        return Err(LoadError::one(FileError::whole(dir, problem)));
    }
    Ok((index, left_out))
}

/// Adds `release` of `pack` (the release's own title, description and tags) to `packs`, the
/// newest release's texts standing for the pack.
fn add_release(
    packs: &mut BTreeMap<String, IndexedPack>,
    pack: IndexedPack,
    release: Release,
    left_out: &mut Vec<String>,
) {
    let entry = packs.entry(pack.id.clone()).or_insert_with(|| IndexedPack {
        releases: Vec::new(),
        ..pack.clone()
    });
    if entry.releases.iter().any(|r| r.version == release.version) {
        left_out.push(format!(
            "{}: version {} of {} is in another archive too",
            release.url, release.version, pack.id
        ));
        return;
    }
    if entry.newest().is_none_or(|n| n.version < release.version) {
        let releases = std::mem::take(&mut entry.releases);
        *entry = IndexedPack { releases, ..pack };
    }
    entry.releases.push(release);
    entry.releases.sort_by(|a, b| b.version.cmp(&a.version));
}

/// One archive's entry: checked, its manifest read, its hash and signature taken.
fn indexed_release(
    zip: &Path,
    dir: &Path,
    see: &mut dyn FnMut(&crate::Pack),
) -> Result<(IndexedPack, Release), LoadError> {
    let bytes = std::fs::read(zip).map_err(crate::archive::io_at(zip))?;
    let (_staging, root) = crate::archive::unpack(zip, &std::env::temp_dir())?;
    let opened = crate::Pack::open(&root)?;
    let manifest = &opened.manifest;
    let name = zip
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (signature, key) = match SignatureFile::beside(zip) {
        Some(path) => {
            let signed = SignatureFile::load(&path).map_err(|e| refused(zip, e))?;
            crate::trust::verify(&bytes, &signed.key, &signed.signature, &name)
                .map_err(|e| refused(zip, e))?;
            (Some(signed.signature), Some(signed.key))
        }
        None => (None, None),
    };
    let thumbnail = root.join("thumbnail.png");
    let thumbnail = if thumbnail.is_file() {
        let shown = format!("{}-{}.png", manifest.id, manifest.version);
        std::fs::copy(&thumbnail, dir.join(&shown)).map_err(crate::archive::io_at(dir))?;
        Some(shown)
    } else {
        None
    };
    see(&opened);
    let pack = IndexedPack {
        id: manifest.id.clone(),
        title: manifest.title.clone(),
        description: manifest.description.clone(),
        tags: manifest.tags.clone(),
        thumbnail,
        releases: Vec::new(),
    };
    let release = Release {
        version: manifest.version.clone(),
        scryptic: manifest.scryptic.clone(),
        depends: manifest.depends.clone(),
        size: bytes.len() as u64,
        sha256: crate::record::hex_sha256(&[&bytes]),
        url: name,
        signature,
        key,
    };
    Ok((pack, release))
}

fn refused(zip: &Path, e: impl std::fmt::Display) -> LoadError {
    LoadError::one(FileError::whole(zip, e.to_string()))
}

mod plan;

pub use plan::{PlanError, Planned, parse_wanted, plan};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resolve::Catalog;

    fn release(version: &str, api: &str, depends: &[(&str, &str)]) -> Release {
        Release {
            version: Version::parse(version).unwrap(),
            scryptic: VersionReq::parse(api).unwrap(),
            depends: depends
                .iter()
                .map(|(id, req)| (id.to_string(), VersionReq::parse(req).unwrap()))
                .collect(),
            size: 10,
            sha256: "a".repeat(64),
            url: format!("{version}.zip"),
            signature: None,
            key: None,
        }
    }

    fn pack(id: &str, releases: Vec<Release>) -> IndexedPack {
        IndexedPack {
            id: id.into(),
            title: format!("The {id}"),
            description: format!("{id} for tests"),
            tags: vec!["test".into()],
            thumbnail: None,
            releases,
        }
    }

    fn index(packs: Vec<IndexedPack>) -> Vec<(String, Index)> {
        vec![(
            "here".into(),
            Index {
                format: INDEX_FORMAT,
                packs,
            },
        )]
    }

    fn api() -> String {
        format!("^{}.{}", API_VERSION.major, API_VERSION.minor)
    }

    fn check(text: &str, expected: Result<(), &str>) {
        match (Index::parse("t.json", text), expected) {
            (Ok(_), Ok(())) => {}
            (Err(e), Err(part)) => assert!(e.to_string().contains(part), "{e}"),
            (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn indexes_are_read_whole_and_bounded() {
        let good = index(vec![pack("a", vec![release("1.0.0", &api(), &[])])])
            .remove(0)
            .1
            .to_json();
        check(&good, Ok(()));
        check("{", Err("t.json:1:1"));
        check(
            &good.replace("\"format\": 1", "\"format\": 2"),
            Err("format 2"),
        );
        check(
            &good.replace("\"id\": \"a\"", "\"id\": \"A b\""),
            Err("pack A b"),
        );
        check(&good.replace(&"a".repeat(64), "abc"), Err("sha256"));
        check(
            &good.replace("1.0.0.zip", "file:///etc/passwd"),
            Err("file://"),
        );
        check(
            &good.replace("\"format\": 1", "\"format\": 1, \"x\": 2"),
            Err("unknown field"),
        );
        let twice = good.replace(
            "\"releases\": [",
            &format!(
                "\"releases\": [{},",
                serde_json::to_string(&release("1.0.0", &api(), &[])).unwrap()
            ),
        );
        check(&twice, Err("listed twice"));
        let big = " ".repeat(MAX_INDEX_BYTES as usize + 1);
        check(&big, Err("larger than"));
    }

    #[test]
    fn a_plan_installs_dependencies_first_and_keeps_what_fits() {
        let indexes = index(vec![
            pack(
                "campaign",
                vec![
                    release("1.0.0", &api(), &[("tiles", "^1")]),
                    release("2.0.0", "^99", &[]),
                ],
            ),
            pack(
                "tiles",
                vec![release("1.1.0", &api(), &[]), release("1.0.0", &api(), &[])],
            ),
        ]);
        let (catalog, _) = Catalog::discover();
        let wanted = [parse_wanted("campaign").unwrap()];
        let plan = plan(&indexes, &wanted, &catalog, false).unwrap();
        let ids: Vec<(String, String)> = plan
            .iter()
            .map(|p| (p.id.clone(), p.release.version.to_string()))
            .collect();
        assert_eq!(
            ids,
            [
                ("tiles".to_string(), "1.1.0".to_string()),
                ("campaign".to_string(), "1.0.0".to_string())
            ],
            "the dependency first; 2.0.0 needs another API"
        );
        let refused = super::plan(
            &indexes,
            &[parse_wanted("campaign@2").unwrap()],
            &catalog,
            false,
        )
        .unwrap_err();
        assert!(refused.to_string().contains("2.0.0 (API ^99)"), "{refused}");
        let unknown = super::plan(
            &indexes,
            &[parse_wanted("nothing").unwrap()],
            &catalog,
            false,
        );
        assert!(matches!(unknown, Err(PlanError::Unknown { .. })));
        // The built-in core is never planned.
        let core = super::plan(&indexes, &[parse_wanted("core").unwrap()], &catalog, true);
        assert_eq!(core, Ok(Vec::new()));
    }

    #[test]
    fn two_needs_no_release_fits_are_a_clash_naming_both() {
        let indexes = index(vec![
            pack("a", vec![release("1.0.0", &api(), &[("c", "^1")])]),
            pack("b", vec![release("1.0.0", &api(), &[("c", "^2")])]),
            pack(
                "c",
                vec![release("1.0.0", &api(), &[]), release("2.0.0", &api(), &[])],
            ),
        ]);
        let (catalog, _) = Catalog::discover();
        let wanted = [parse_wanted("a").unwrap(), parse_wanted("b").unwrap()];
        let clash = plan(&indexes, &wanted, &catalog, false).unwrap_err();
        assert!(
            matches!(&clash, PlanError::Clash { id, by, .. } if id == "c" && by == "b"),
            "{clash}"
        );
    }

    #[test]
    fn search_finds_every_word_in_any_text() {
        let indexes = index(vec![
            pack("alpha", vec![release("1.0.0", &api(), &[])]),
            pack("beta", vec![release("1.0.0", &api(), &[])]),
        ]);
        let found = |words: &[&str]| -> Vec<String> {
            let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            indexes[0]
                .1
                .search(&words)
                .iter()
                .map(|p| p.id.clone())
                .collect()
        };
        assert_eq!(found(&[]), ["alpha", "beta"]);
        assert_eq!(found(&["ALPHA"]), ["alpha"]);
        assert_eq!(found(&["test", "beta"]), ["beta"]);
        assert!(found(&["gamma"]).is_empty());
    }

    /// docs/index.schema.json.
    fn schema() -> jsonschema::Validator {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/index.schema.json");
        let schema: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        jsonschema::validator_for(&schema).unwrap()
    }

    #[test]
    fn an_index_built_from_real_archives_is_what_the_schema_documents() {
        let dir = tempfile::tempdir().unwrap();
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for id in ["word-wars", "wending"] {
            let pack = crate::Pack::open(&root.join("packs").join(id)).unwrap();
            let out = dir
                .path()
                .join(format!("{id}-{}.zip", pack.manifest.version));
            crate::archive::zip_folder(&pack, &out).unwrap();
        }
        let zip = dir.path().join(format!(
            "word-wars-{}.zip",
            crate::Pack::open(&root.join("packs/word-wars"))
                .unwrap()
                .manifest
                .version
        ));
        let signed =
            crate::trust::SecretKey::from_bytes([9; 32]).sign(&std::fs::read(&zip).unwrap());
        let mut sig = zip.file_name().unwrap().to_os_string();
        sig.push(".sig");
        std::fs::write(zip.with_file_name(sig), signed.to_text()).unwrap();
        let (index, left_out) = build(dir.path()).unwrap();
        assert!(left_out.is_empty(), "{left_out:?}");
        assert_eq!(index.packs.len(), 2);
        let word_wars = index.pack("word-wars").unwrap();
        assert_eq!(
            word_wars.releases[0].key.as_deref(),
            Some(signed.key.as_str())
        );
        let json: serde_json::Value = serde_json::from_str(&index.to_json()).unwrap();
        let validator = schema();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        // What the reader refuses, the schema refuses too.
        let mut stray = json.clone();
        stray["packs"][0]["x"] = serde_json::json!(1);
        assert!(!validator.is_valid(&stray));
        let mut ftp = json.clone();
        ftp["packs"][0]["releases"][0]["url"] = serde_json::json!("ftp://h/a.zip");
        assert!(!validator.is_valid(&ftp));
        assert!(Index::parse("ftp", &ftp.to_string()).is_err());
        // A signature that does not match its archive stops the index being written.
        std::fs::write(zip.with_file_name("x.zip.sig"), signed.to_text()).unwrap();
        std::fs::copy(
            dir.path().join(format!(
                "wending-{}.zip",
                index.pack("wending").unwrap().releases[0].version
            )),
            dir.path().join("x.zip"),
        )
        .unwrap();
        let (_, left_out) = build(dir.path()).unwrap();
        assert!(
            left_out
                .iter()
                .any(|l| l.contains("x.zip") && l.contains("does not match")),
            "{left_out:?}"
        );
    }

    #[test]
    fn wanted_packs_are_typed_as_id_or_id_at_versions() {
        assert_eq!(parse_wanted("a").unwrap().1, VersionReq::STAR);
        assert_eq!(
            parse_wanted("a@^1.2").unwrap(),
            ("a".to_string(), VersionReq::parse("^1.2").unwrap())
        );
        assert!(parse_wanted("a@nope").is_err());
        assert!(parse_wanted("A B").is_err());
    }
}

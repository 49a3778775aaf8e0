//! The pack index a server publishes: the release archives (`*.zip`) in its `--publish`
//! folders, indexed as `pack index` indexes a folder (each archive checked, its signature
//! verified), served as `GET /index.json` with the archives and thumbnails under
//! `GET /packs/FILE`. Only the files the index names are served. The folders are looked at
//! again at each request for the index (a listing of names, sizes and times, not the files):
//! a release added, replaced or removed is published at once, without a restart; a download
//! is served from the index as last made.

use scryptic_pack::index::{self, Index, IndexedPack};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// The index and where each file it names is.
#[derive(Default)]
pub(crate) struct Published {
    /// The index, its addresses under `packs/`.
    pub(crate) index: Index,
    /// Each file served: its name under `packs/` and its place on disk.
    files: Vec<(String, PathBuf)>,
    /// Archives left out, each with why (told at start).
    pub(crate) left_out: Vec<String>,
    /// Each pack's README (its newest release's), rendered to HTML.
    readmes: BTreeMap<String, String>,
    /// What each pack's newest release says of itself beyond the index, for its page.
    details: BTreeMap<String, Details>,
    /// When each release's archive was last written (milliseconds since 1970), by pack and
    /// version: its release date.
    dates: BTreeMap<(String, String), u64>,
}

/// What a release's own files say of it that its index does not: for its pack's page.
#[derive(Clone, Debug, Default)]
pub(crate) struct Details {
    /// Who made it.
    pub(crate) authors: Vec<String>,
    /// Its licence.
    pub(crate) license: String,
    /// Its `CHANGELOG.md`, rendered, if it has one.
    pub(crate) changelog: Option<String>,
}

/// The most bytes of a README read from an archive.
const MAX_README_BYTES: u64 = 512 * 1024;

impl Published {
    /// The index of the archives in `folders` (a pack listed in two keeps the first's).
    pub(crate) fn of(folders: &[PathBuf]) -> Published {
        let mut published = Published::default();
        for folder in folders {
            let has_zips = std::fs::read_dir(folder).is_ok_and(|d| {
                d.filter_map(Result::ok)
                    .any(|e| e.path().extension().is_some_and(|x| x == "zip"))
            });
            if !has_zips {
                continue;
            }
            // Each release's README is read while the index unpacks its archive; the newest
            // release's is kept.
            let mut readmes: BTreeMap<(String, String), String> = BTreeMap::new();
            let mut details: BTreeMap<(String, String), Details> = BTreeMap::new();
            let mut see = |pack: &scryptic_pack::Pack| {
                let key = (pack.id().to_string(), pack.manifest.version.to_string());
                if let Some(text) = markdown_file(pack, "README.md") {
                    readmes.insert(key.clone(), text);
                }
                let changelog = markdown_file(pack, "CHANGELOG.md");
                details.insert(
                    key,
                    Details {
                        authors: pack.manifest.authors.clone(),
                        license: pack.manifest.license.clone(),
                        changelog: changelog.map(|text| crate::web::render_markdown(&text)),
                    },
                );
            };
            match index::build_seeing(folder, &mut see) {
                Ok((built, left_out)) => {
                    published.left_out.extend(left_out);
                    for pack in built.packs {
                        let newest = pack.newest().map(|r| r.version.to_string());
                        let key = newest.map(|v| (pack.id.clone(), v));
                        let readme = key.as_ref().and_then(|k| readmes.remove(k));
                        if let Some(found) = key.and_then(|k| details.remove(&k)) {
                            published.details.insert(pack.id.clone(), found);
                        }
                        published.add(folder, pack, readme);
                    }
                }
                Err(e) => published
                    .left_out
                    .push(format!("{}: {e}", folder.display())),
            }
        }
        published
    }

    fn add(&mut self, folder: &Path, mut pack: IndexedPack, readme: Option<String>) {
        if self.index.pack(&pack.id).is_some() {
            self.left_out.push(format!(
                "{}: pack {} is published from another folder already",
                folder.display(),
                pack.id
            ));
            return;
        }
        if let Some(readme) = readme {
            self.readmes
                .insert(pack.id.clone(), crate::web::render_markdown(&readme));
        }
        let mut serve = |name: &mut String| {
            self.files.push((name.clone(), folder.join(&*name)));
            *name = format!("packs/{name}");
        };
        for release in &mut pack.releases {
            let written = std::fs::metadata(folder.join(&release.url)).and_then(|m| m.modified());
            if let Some(ms) = written
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            {
                let key = (pack.id.clone(), release.version.to_string());
                self.dates
                    .insert(key, u64::try_from(ms.as_millis()).unwrap_or(u64::MAX));
            }
            serve(&mut release.url);
        }
        if let Some(thumbnail) = &mut pack.thumbnail {
            serve(thumbnail);
        }
        self.index.packs.push(pack);
    }

    /// Pack `id`'s README, rendered.
    pub(crate) fn readme(&self, id: &str) -> Option<&str> {
        self.readmes.get(id).map(String::as_str)
    }

    /// What pack `id`'s newest release says of itself beyond the index.
    pub(crate) fn details(&self, id: &str) -> Option<&Details> {
        self.details.get(id)
    }

    /// When release `version` of pack `id` was written (milliseconds since 1970).
    pub(crate) fn date(&self, id: &str, version: &str) -> Option<u64> {
        self.dates
            .get(&(id.to_string(), version.to_string()))
            .copied()
    }

    /// Each published pack's newest release's date (milliseconds since 1970), by id: what the
    /// site's list sorts by when newest first.
    pub(crate) fn newest_dates(&self) -> BTreeMap<String, u64> {
        (self.index.packs.iter())
            .filter_map(|pack| {
                let newest = pack.newest()?.version.to_string();
                Some((pack.id.clone(), self.date(&pack.id, &newest)?))
            })
            .collect()
    }

    /// The file served as `packs/NAME`.
    pub(crate) fn file(&self, name: &str) -> Option<&Path> {
        self.files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p.as_path())
    }
}

/// The text of the pack's Markdown file `path`, if it has one (at most a README's bytes).
pub(crate) fn markdown_file(pack: &scryptic_pack::Pack, path: &str) -> Option<String> {
    let bytes = pack.files.read_bytes(path, MAX_README_BYTES).ok()?;
    String::from_utf8(bytes).ok()
}

/// The published index of some folders, made again whenever what they hold changes.
pub(crate) struct Watched {
    folders: Vec<PathBuf>,
    /// The index, and the listing of the folders it was made from.
    now: RwLock<(Arc<Published>, u64)>,
}

impl Watched {
    /// The index of `folders`, as they are now.
    pub(crate) fn of(folders: &[PathBuf]) -> Watched {
        let listing = listing(folders);
        Watched {
            folders: folders.to_vec(),
            now: RwLock::new((Arc::new(Published::of(folders)), listing)),
        }
    }

    /// The index as the folders hold it now: made again if a file was added, removed or
    /// changed since it was made.
    pub(crate) fn current(&self) -> Arc<Published> {
        let listing = listing(&self.folders);
        {
            let now = self.now.read().unwrap_or_else(|e| e.into_inner());
            if now.1 == listing {
                return now.0.clone();
            }
        }
        let made = Arc::new(Published::of(&self.folders));
        let mut now = self.now.write().unwrap_or_else(|e| e.into_inner());
        *now = (made.clone(), listing);
        made
    }

    /// The index as it was last made: what a download or a README is served from (a client
    /// reads the index first, and that looks at the folders).
    pub(crate) fn last(&self) -> Arc<Published> {
        let now = self.now.read().unwrap_or_else(|e| e.into_inner());
        now.0.clone()
    }

    /// How many packs it publishes, and the archives left out, each with why.
    pub(crate) fn counts(&self) -> (usize, Vec<String>) {
        let now = self.last();
        (now.index.packs.len(), now.left_out.clone())
    }
}

/// A fingerprint of what `folders` hold: each file's name, size and time of change (read from
/// the folders' listings, no file opened).
fn listing(folders: &[PathBuf]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for folder in folders {
        let mut entries: Vec<(String, u64, Option<std::time::SystemTime>)> =
            std::fs::read_dir(folder)
                .map(|d| {
                    d.filter_map(Result::ok)
                        .map(|e| {
                            let meta = e.metadata().ok();
                            (
                                e.file_name().to_string_lossy().into_owned(),
                                meta.as_ref().map_or(0, std::fs::Metadata::len),
                                meta.and_then(|m| m.modified().ok()),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
        entries.sort();
        folder.hash(&mut hasher);
        entries.hash(&mut hasher);
    }
    hasher.finish()
}

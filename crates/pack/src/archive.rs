//! Packs as `.zip` archives, and installing packs: an archive is checked whole before anything
//! is written (every name a plain path inside the pack, no links, bounded counts and sizes), and
//! installing unpacks beside the target and renames, so a failed install leaves nothing.

use super::files::{MAX_PACK_BYTES, MAX_PACK_FILES, path_problem};
use super::{MANIFEST_FILE, Pack};
use crate::diag::{FileError, LoadError};
use std::io::Read;
#[cfg(feature = "authoring")]
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most bytes of an archive file itself.
pub const MAX_ARCHIVE_BYTES: u64 = MAX_PACK_BYTES;

/// One file of an archive, as checked before anything is written.
struct Entry {
    index: usize,
    /// Its path in the pack (the archive's top folder taken off).
    path: String,
    size: u64,
}

fn refused(zip: &Path, message: impl Into<String>) -> LoadError {
    LoadError::one(FileError::whole(zip, message))
}

/// An I/O failure on `path`, as a load error naming it.
pub(crate) fn io_at(path: &Path) -> impl FnOnce(std::io::Error) -> LoadError {
    let path = path.to_path_buf();
    move |source| LoadError::Io { path, source }
}

/// A new folder in `parent` to build a pack in before it is renamed into place (`.PREFIX-*`;
/// removed when dropped unless kept).
pub(crate) fn staging_in(parent: &Path, prefix: &str) -> Result<tempfile::TempDir, LoadError> {
    tempfile::Builder::new()
        .prefix(&format!(".{prefix}-"))
        .tempdir_in(parent)
        .map_err(io_at(parent))
}

/// Writes `bytes` as the file `path` under `root`, making its folders.
pub(crate) fn write_file(root: &Path, path: &str, bytes: &[u8]) -> Result<(), LoadError> {
    let target = root.join(path);
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    }
    std::fs::write(&target, bytes).map_err(io_at(&target))
}

/// Every file of `pack` copied into a folder named as its id, in a staging folder in `parent`.
fn stage_copy(pack: &Pack, parent: &Path) -> Result<(tempfile::TempDir, PathBuf), LoadError> {
    let staging = staging_in(parent, "pack-copying")?;
    let root = staging.path().join(pack.id());
    for file in pack.files.all_files()? {
        write_file(&root, &file, &pack.files.read_bytes(&file, MAX_PACK_BYTES)?)?;
    }
    Ok((staging, root))
}

#[cfg(feature = "authoring")]
/// As `stage_copy`, leaving out what the pack's `.packignore` names, as a release would.
fn stage_release(pack: &Pack, parent: &Path) -> Result<(tempfile::TempDir, PathBuf), LoadError> {
    let staging = staging_in(parent, "pack-copying")?;
    let root = staging.path().join(pack.id());
    for file in shipped_files(pack)? {
        write_file(&root, &file, &pack.files.read_bytes(&file, MAX_PACK_BYTES)?)?;
    }
    Ok((staging, root))
}

/// Writes `pack` (a built-in one too) out as the ordinary pack folder `dir/ID`, copied beside
/// and renamed when complete; refused if `dir/ID` exists.
pub fn export(pack: &Pack, dir: &Path) -> Result<PathBuf, LoadError> {
    let target = dir.join(pack.id());
    if target.exists() {
        return Err(refused(
            &target,
            "already exists: remove it or export elsewhere",
        ));
    }
    std::fs::create_dir_all(dir).map_err(io_at(dir))?;
    let (staging, root) = stage_copy(pack, dir)?;
    std::fs::rename(&root, &target).map_err(io_at(&target))?;
    drop(staging);
    Ok(target)
}

/// Unpacks the pack archive `zip` into a new folder inside `parent` (named `.NAME-unpacking-*`),
/// after checking every entry; returns the temporary folder, which holds the pack folder
/// (named as the manifest's id) and is removed when dropped.
pub fn unpack(zip: &Path, parent: &Path) -> Result<(tempfile::TempDir, PathBuf), LoadError> {
    let file = std::fs::File::open(zip).map_err(io_at(zip))?;
    let size = file.metadata().map_err(io_at(zip))?.len();
    if size > MAX_ARCHIVE_BYTES {
        return Err(refused(
            zip,
            format!("the archive is larger than {} MiB", MAX_ARCHIVE_BYTES >> 20),
        ));
    }
    let mut archive = zip::ZipArchive::new(file)
        .map_err(|e| refused(zip, format!("is not a zip archive that can be read: {e}")))?;
    let entries = check_entries(zip, &mut archive)?;
    let staging = staging_in(parent, "pack-unpacking")?;
    let manifest = read_entry(zip, &mut archive, &entries, MANIFEST_FILE)?;
    let id = manifest_id(zip, &manifest)?;
    let root = staging.path().join(&id);
    let mut budget = MAX_PACK_BYTES;
    for entry in &entries {
        let bytes = extract(zip, &mut archive, entry, &mut budget)?;
        write_file(&root, &entry.path, &bytes)?;
    }
    Ok((staging, root))
}

/// The pack archive `bytes` (named `shown` in messages) read whole into memory, checked as
/// [`unpack`] checks an archive on disk: where there are no files to unpack to (the browser).
pub fn read_in_memory(shown: &Path, bytes: &[u8]) -> Result<Pack, LoadError> {
    if bytes.len() as u64 > MAX_ARCHIVE_BYTES {
        return Err(refused(
            shown,
            format!("the archive is larger than {} MiB", MAX_ARCHIVE_BYTES >> 20),
        ));
    }
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| refused(shown, format!("is not a zip archive that can be read: {e}")))?;
    let entries = check_entries(shown, &mut archive)?;
    let manifest = read_entry(shown, &mut archive, &entries, MANIFEST_FILE)?;
    let id = manifest_id(shown, &manifest)?;
    let mut budget = MAX_PACK_BYTES;
    let mut files = std::collections::BTreeMap::new();
    for entry in &entries {
        let bytes = extract(shown, &mut archive, entry, &mut budget)?;
        files.insert(entry.path.clone(), bytes);
    }
    let files = super::PackFiles::Memory {
        id: id.as_str().into(),
        files: std::sync::Arc::new(files),
    };
    let text = files.read_text(MANIFEST_FILE)?;
    let manifest = super::Manifest::parse(&files.shown(MANIFEST_FILE), &text)?;
    Ok(Pack { manifest, files })
}

/// Every entry's path checked, links refused, counts and declared sizes bounded, and the
/// archive's one top folder (if all its files are in one with the manifest) taken off.
fn check_entries<R: Read + std::io::Seek>(
    zip: &Path,
    archive: &mut zip::ZipArchive<R>,
) -> Result<Vec<Entry>, LoadError> {
    if archive.len() > MAX_PACK_FILES * 2 {
        return Err(refused(
            zip,
            format!("the archive holds more than {MAX_PACK_FILES} files"),
        ));
    }
    let mut files = Vec::new();
    let mut declared: u64 = 0;
    for index in 0..archive.len() {
        let entry = archive
            .by_index_raw(index)
            .map_err(|e| refused(zip, format!("entry {index} cannot be read: {e}")))?;
        let name = entry
            .name()
            .map_err(|e| refused(zip, format!("entry {index} has no readable name: {e}")))?
            .into_owned();
        let link = entry.is_symlink()
            || entry
                .unix_mode()
                .is_some_and(|mode| mode & 0o170_000 == 0o120_000);
        if link {
            return Err(refused(
                zip,
                format!(
                    "`{}` is a link; a pack holds only files",
                    crate::diag::shorten(&name, 80)
                ),
            ));
        }
        let trimmed = name.strip_suffix('/').unwrap_or(&name);
        if let Some(problem) = path_problem(trimmed) {
            return Err(refused(zip, format!("entry {index}: {problem}")));
        }
        if entry.is_dir() {
            continue;
        }
        declared = declared.saturating_add(entry.size());
        files.push(Entry {
            index,
            path: trimmed.to_string(),
            size: entry.size(),
        });
    }
    if files.len() > MAX_PACK_FILES || declared > MAX_PACK_BYTES {
        return Err(refused(
            zip,
            format!(
                "the archive unpacks to more than {MAX_PACK_FILES} files or {} MiB",
                MAX_PACK_BYTES >> 20
            ),
        ));
    }
    strip_top_folder(zip, files)
}

/// The entries with the archive's top folder taken off when every file is inside one folder
/// that holds the manifest (`word-wars/pack.ron`); otherwise the manifest must be at the top.
fn strip_top_folder(zip: &Path, mut files: Vec<Entry>) -> Result<Vec<Entry>, LoadError> {
    if files.iter().any(|f| f.path == MANIFEST_FILE) {
        return Ok(files);
    }
    let top = files
        .first()
        .and_then(|f| f.path.split_once('/'))
        .map(|(top, _)| format!("{top}/"));
    let Some(top) = top.filter(|top| files.iter().all(|f| f.path.starts_with(top.as_str()))) else {
        return Err(refused(
            zip,
            "holds no pack.ron at its top or in one top folder: zip the pack's folder (scryptic pack zip DIR)",
        ));
    };
    for file in &mut files {
        file.path = file.path[top.len()..].to_string();
    }
    if files.iter().any(|f| f.path == MANIFEST_FILE) {
        Ok(files)
    } else {
        Err(refused(zip, format!("its folder {top} holds no pack.ron")))
    }
}

/// The bytes of entry `path` (at most its declared size).
fn read_entry<R: Read + std::io::Seek>(
    zip: &Path,
    archive: &mut zip::ZipArchive<R>,
    entries: &[Entry],
    path: &str,
) -> Result<Vec<u8>, LoadError> {
    let Some(entry) = entries.iter().find(|e| e.path == path) else {
        return Err(refused(zip, format!("holds no {path}")));
    };
    let mut budget = super::files::MAX_PACK_TEXT_BYTES;
    extract(zip, archive, entry, &mut budget)
}

/// An entry's bytes, refused past its declared size or the `budget` left (a header may lie).
fn extract<R: Read + std::io::Seek>(
    zip: &Path,
    archive: &mut zip::ZipArchive<R>,
    entry: &Entry,
    budget: &mut u64,
) -> Result<Vec<u8>, LoadError> {
    let file = archive
        .by_index(entry.index)
        .map_err(|e| refused(zip, format!("{}: cannot be unpacked: {e}", entry.path)))?;
    let most = entry.size.min(*budget);
    let mut bytes = Vec::new();
    file.take(most + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refused(zip, format!("{}: cannot be unpacked: {e}", entry.path)))?;
    if bytes.len() as u64 > most {
        return Err(refused(
            zip,
            format!(
                "{}: unpacks to more than it says, or past the pack's {} MiB",
                entry.path,
                MAX_PACK_BYTES >> 20
            ),
        ));
    }
    *budget -= bytes.len() as u64;
    Ok(bytes)
}

/// The id the manifest bytes give, checked as a pack id.
fn manifest_id(zip: &Path, bytes: &[u8]) -> Result<String, LoadError> {
    let shown = zip.join(MANIFEST_FILE);
    let text = crate::fsutil::text_from_bytes(&shown, bytes.to_vec())?;
    Ok(super::Manifest::parse(&shown, &text)?.id)
}

#[cfg(feature = "authoring")]
/// The files of `pack` a release holds: all but those its `.packignore` leaves out.
pub fn shipped_files(pack: &Pack) -> Result<Vec<String>, LoadError> {
    let ignore = crate::ignore::PackIgnore::of(&pack.files)?;
    Ok(pack
        .files
        .all_files()?
        .into_iter()
        .filter(|f| !ignore.leaves_out(f))
        .collect())
}

#[cfg(feature = "authoring")]
/// Writes the pack folder `dir` as the archive `out` (its files under a top folder named as
/// its id), by way of a file beside `out`, renamed when complete.
pub fn zip_folder(pack: &Pack, out: &Path) -> Result<usize, LoadError> {
    let io = io_at;
    let files = shipped_files(pack)?;
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let staging = tempfile::NamedTempFile::new_in(parent).map_err(io(parent))?;
    let mut writer = zip::ZipWriter::new(staging.reopen().map_err(io(out))?);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    for file in &files {
        let bytes = pack.files.read_bytes(file, MAX_PACK_BYTES)?;
        writer
            .start_file(format!("{}/{file}", pack.id()), options)
            .map_err(|e| refused(out, format!("cannot write {file}: {e}")))?;
        writer.write_all(&bytes).map_err(io(out))?;
    }
    writer
        .finish()
        .map_err(|e| refused(out, format!("cannot finish the archive: {e}")))?;
    staging.persist(out).map_err(|e| LoadError::Io {
        path: out.to_path_buf(),
        source: e.error,
    })?;
    // A temporary file is private to its maker; an archive is for sharing.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(out, std::fs::Permissions::from_mode(0o644));
    }
    Ok(files.len())
}

/// What installing did.
#[cfg(feature = "authoring")]
#[derive(Debug)]
pub struct Installed {
    /// The pack as installed.
    pub pack: Pack,
    /// The version it replaced, if one was installed.
    pub replaced: Option<String>,
}

/// Installs the pack archive or folder `source` into `packs_dir` (as `packs_dir/ID`): unpacked
/// or copied beside, checked, then renamed into place (replacing an installed copy only once
/// the new one is complete).
#[cfg(feature = "authoring")]
pub fn install(source: &Path, packs_dir: &Path) -> Result<Installed, LoadError> {
    std::fs::create_dir_all(packs_dir).map_err(io_at(packs_dir))?;
    let (staging, root) = if source.is_dir() {
        stage_release(&Pack::open(source)?, packs_dir)?
    } else {
        unpack(source, packs_dir)?
    };
    let pack = Pack::open(&root)?;
    if super::is_built_in(pack.id()) {
        return Err(refused(
            source,
            format!(
                "the pack is named `{}`, an id built into scryptic: installed, it would run in \
                 place of the built-in one; give it an id of its own (its pack.ron's id and its \
                 folder's name)",
                pack.id()
            ),
        ));
    }
    let target = packs_dir.join(pack.id());
    let replaced = target.is_dir().then(|| {
        Pack::open(&target)
            .map(|p| p.manifest.version.to_string())
            .unwrap_or_default()
    });
    let io = io_at;
    if replaced.is_some() {
        // The old copy goes aside first, and comes back if the new one cannot take its place.
        let aside = staging.path().join(".replaced");
        std::fs::rename(&target, &aside).map_err(io(&target))?;
        if let Err(e) = std::fs::rename(&root, &target) {
            let _ = std::fs::rename(&aside, &target);
            return Err(io(&target)(e));
        }
    } else {
        std::fs::rename(&root, &target).map_err(io(&target))?;
    }
    // The same pack, now where it is installed.
    let pack = Pack {
        files: super::PackFiles::Folder(target),
        ..pack
    };
    Ok(Installed { pack, replaced })
}

/// Removes the installed pack `id` from `packs_dir` (renamed aside, then deleted).
pub fn remove(id: &str, packs_dir: &Path) -> Result<Pack, LoadError> {
    if let Some(problem) = super::manifest::id_problem(id) {
        return Err(refused(packs_dir, problem));
    }
    let target = packs_dir.join(id);
    let pack = Pack::open(&target)?;
    let aside = staging_in(packs_dir, "pack-removing")?;
    std::fs::rename(&target, aside.path().join(id)).map_err(io_at(&target))?;
    Ok(pack)
}

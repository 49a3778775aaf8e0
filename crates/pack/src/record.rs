//! What a save records of the packs its game was made from (id, version, a SHA-256 of all
//! their files and of each file the level read), and what differs from the packs found now.

use super::level::Read;
use super::{Catalog, Pack, PackFiles};
use crate::diag::LoadError;

/// What a save records of each pack a level loads: a hash of all its files, and of each it
/// read.
pub(crate) fn records(
    packs: &[&Pack],
    used: &[Read],
) -> Result<Vec<crate::save::PackRecord>, LoadError> {
    packs
        .iter()
        .map(|pack| {
            let mut files: Vec<(String, String)> = Vec::new();
            for (_, path) in used.iter().filter(|(id, _)| id == pack.id()) {
                if !files.iter().any(|(p, _)| p == path) {
                    let bytes = pack.files.read_bytes(path, super::files::MAX_PACK_BYTES)?;
                    files.push((path.clone(), hex_sha256(&[&bytes])));
                }
            }
            files.sort();
            Ok(crate::save::PackRecord {
                id: pack.id().to_string(),
                version: pack.manifest.version.to_string(),
                hash: pack_hash(pack)?,
                files,
            })
        })
        .collect()
}

/// SHA-256 of every file of the pack (its path, its length and its bytes, in path order).
pub fn pack_hash(pack: &Pack) -> Result<String, LoadError> {
    let PackFiles::Embedded { files, .. } = &pack.files else {
        // A pack on disk may change between games (its author is editing it): hashed each time.
        return hash_files(pack);
    };
    // Built-in files never change: hashed once per process (core's are most of a level's start).
    static HASHES: std::sync::Mutex<Vec<(usize, String)>> = std::sync::Mutex::new(Vec::new());
    let key = files.as_ptr() as usize;
    let mut known = HASHES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, hash)) = known.iter().find(|(k, _)| *k == key) {
        return Ok(hash.clone());
    }
    let hash = hash_files(pack)?;
    known.push((key, hash.clone()));
    Ok(hash)
}

fn hash_files(pack: &Pack) -> Result<String, LoadError> {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    for path in pack.files.all_files()? {
        let bytes = pack.files.read_bytes(&path, super::files::MAX_PACK_BYTES)?;
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hex(&hasher.finalize()))
}

/// SHA-256 of `parts`, one after another, in hex.
pub fn hex_sha256(parts: &[&[u8]]) -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hex(&hasher.finalize())
}

/// `bytes` as lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

/// What differs between the packs a save records and the packs found now, one note each: a
/// save carries the files it used, so these are notes (it replays as played), naming the pack
/// and the first recorded file that changed.
pub fn record_notes(records: &[crate::save::PackRecord], catalog: &Catalog) -> Vec<String> {
    let mut notes = Vec::new();
    for record in records {
        let Some(pack) = catalog
            .packs()
            .into_iter()
            .find(|p| p.id() == record.id && p.manifest.version.to_string() == record.version)
            .or_else(|| catalog.get(&record.id))
        else {
            notes.push(format!(
                "this game was played with pack `{}` {}, which is not among the packs found; the \
                 save carries what it used, so it replays as it was played",
                record.id, record.version
            ));
            continue;
        };
        if pack_hash(pack).is_ok_and(|hash| hash == record.hash) {
            continue;
        }
        let changed = record.files.iter().find(|(path, hash)| {
            pack.files
                .read_bytes(path, super::files::MAX_PACK_BYTES)
                .map_or(true, |bytes| hex_sha256(&[&bytes]) != *hash)
        });
        let what = match changed {
            Some((path, _)) => format!("its file {path} differs"),
            None => "files the game did not read differ".to_string(),
        };
        notes.push(format!(
            "pack `{}` here ({}) is not the one this game was played with ({}: {what}); the \
             save carries the files it used, so it replays as it was played",
            record.id, pack.manifest.version, record.version
        ));
    }
    notes
}

/// The scripts a save carries that differ from the files its game was played with: for each
/// script whose file the save's pack records hold a hash of, a text whose hash is another.
/// A save edited by hand (or by a stranger) would otherwise replay other scripts than the
/// game's, with nothing to say so.
pub fn changed_scripts(save: &crate::save::SaveFile) -> Vec<String> {
    let own = if save.pack.is_empty() {
        save.packs.last().map_or("", |p| p.id.as_str())
    } else {
        save.pack.as_str()
    };
    save.scripts
        .iter()
        .filter_map(|script| {
            let (pack, path) = match crate::limits::split_pack_reference(&script.name) {
                (Some(id), path) => (id, path),
                (None, path) => (own, path),
            };
            let record = save.packs.iter().find(|r| r.id == pack)?;
            let (_, hash) = record.files.iter().find(|(p, _)| p == path)?;
            // A file's text is read without its byte-order mark, if it had one.
            let text = script.source.as_bytes();
            let same =
                hex_sha256(&[text]) == *hash || hex_sha256(&["\u{feff}".as_bytes(), text]) == *hash;
            (!same).then(|| {
                format!(
                    "the save's script {} is not the file {path} of pack `{pack}` its game was \
                     played with (the save records another hash for it)",
                    crate::diag::shorten(&script.name, 80)
                )
            })
        })
        .collect()
}

/// The settings a save holds that its packs (those of them found) do not allow, one line each
/// naming the setting: a save's settings are checked against the declared kinds and ranges,
/// as `--set` is. A setting of a pack not found is not checked (its record's note says so).
pub fn setting_problems(save: &crate::save::SaveFile, catalog: &Catalog) -> Vec<String> {
    let found: Vec<&Pack> = save
        .packs
        .iter()
        .filter_map(|record| {
            catalog
                .packs()
                .into_iter()
                .find(|p| p.id() == record.id && p.manifest.version.to_string() == record.version)
                .or_else(|| catalog.get(&record.id))
        })
        .collect();
    let all_found = found.len() == save.packs.len();
    save.settings
        .iter()
        .filter_map(|(id, value)| {
            let spec = found.iter().find_map(|p| p.manifest.setting(id));
            match spec {
                Some(spec) => spec.check(value).err(),
                None if all_found => Some(format!(
                    "the save sets `{}`, which none of its packs has",
                    crate::diag::shorten(id, 64)
                )),
                None => None,
            }
        })
        .map(|problem| format!("the save's settings are refused: {problem}"))
        .collect()
}

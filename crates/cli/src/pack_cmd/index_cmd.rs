//! The pack commands that reach pack indexes, and trust: `index` (an author's or a community
//! server's index of a folder of archives), `source` (the player's list of indexes), `search`,
//! `install ID[@REQ]` (with dependencies), `outdated`, `update`; `keygen`, `sign` and `trust`.

use super::super::{EXIT_PROBLEMS, EXIT_USAGE, Streams};
use crate::pack::Catalog;
use crate::pack::index::{self, Index, Planned};
use crate::pack::trust::{Pins, SecretKey, SignatureFile};
use crate::screen::counted;
use scryptic_client::indexes;
use semver::VersionReq;
use std::path::{Path, PathBuf};

/// The data folder, or a message saying how to have one.
fn data_folder(io: &mut Streams) -> anyhow::Result<Option<PathBuf>> {
    let data = crate::pack::places::data_dir();
    if data.is_none() {
        writeln!(io.err, "no data folder: set SCRYPTIC_DATA")?;
    }
    Ok(data)
}

/// `pack index DIR`.
pub(super) fn write_index(dir: &Path, io: &mut Streams) -> anyhow::Result<i32> {
    let (index, left_out) = match index::build(dir) {
        Ok(built) => built,
        Err(e) => return super::problems_of(&e, io),
    };
    for why in &left_out {
        writeln!(io.err, "left out: {why}")?;
    }
    for change in key_changes(&index) {
        writeln!(io.err, "note: {change}")?;
    }
    let path = dir.join(index::INDEX_FILE);
    crate::fsutil::write_atomic(&path, index.to_json().as_bytes())?;
    let releases: usize = index.packs.iter().map(|p| p.releases.len()).sum();
    let signed = index
        .packs
        .iter()
        .flat_map(|p| &p.releases)
        .filter(|r| r.signature.is_some())
        .count();
    writeln!(
        io.out,
        "wrote {} ({}, {}, {signed} signed): serve the folder, and players add it with `scryptic pack source add ADDRESS`",
        path.display(),
        counted(index.packs.len(), "pack"),
        counted(releases, "release")
    )?;
    Ok(if left_out.is_empty() {
        0
    } else {
        EXIT_PROBLEMS
    })
}

/// Each release of `index` signed by another key than the pack's signed release before it:
/// players who trust the old key are refused it until they accept the new one, so its author
/// is told when the index is made.
fn key_changes(index: &Index) -> Vec<String> {
    let mut changes = Vec::new();
    for pack in &index.packs {
        let mut releases: Vec<_> = pack.releases.iter().collect();
        releases.sort_by(|a, b| a.version.cmp(&b.version));
        let mut before: Option<(&str, String)> = None;
        for release in releases {
            let Some(key) = release.key.as_deref() else {
                continue;
            };
            if let Some((old, version)) = &before
                && !old.eq_ignore_ascii_case(key)
            {
                changes.push(format!(
                    "{} {} is signed by key {key}, and {} {version} by key {old}: players who \
                     installed a release signed by the old key are refused this one until they \
                     accept the new key (`scryptic pack trust {} {key}`); tell them you changed keys",
                    pack.id, release.version, pack.id, pack.id
                ));
            }
            before = Some((key, release.version.to_string()));
        }
    }
    changes
}

/// `pack source add|remove|list`.
pub(super) fn source(action: &str, address: Option<&str>, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(data) = data_folder(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    match (action, address) {
        ("list", None) => {
            let list = indexes::sources(&data);
            if list.is_empty() {
                writeln!(
                    io.out,
                    "no pack index yet: `scryptic pack source add ADDRESS` adds one (an http(s) address or a folder)"
                )?;
            }
            for source in list {
                writeln!(io.out, "{source}")?;
            }
            Ok(0)
        }
        ("add", Some(address)) => match indexes::add_source(&data, address) {
            Ok(kept) => {
                // Read at once, so a mistyped address is found now rather than at a search.
                match indexes::read_index(&kept) {
                    Ok(index) => writeln!(
                        io.out,
                        "added {kept} ({})",
                        counted(index.packs.len(), "pack")
                    )?,
                    Err(e) => {
                        writeln!(io.out, "added {kept}; warning: it cannot be read now: {e}")?
                    }
                }
                Ok(0)
            }
            Err(e) => {
                writeln!(io.err, "{e}")?;
                Ok(EXIT_USAGE)
            }
        },
        ("remove", Some(address)) => match indexes::remove_source(&data, address) {
            Ok(true) => {
                writeln!(io.out, "removed {address}")?;
                Ok(0)
            }
            Ok(false) => {
                writeln!(
                    io.err,
                    "{address} is not a source (`scryptic pack source list` shows them)"
                )?;
                Ok(EXIT_PROBLEMS)
            }
            Err(e) => {
                writeln!(io.err, "{e}")?;
                Ok(EXIT_PROBLEMS)
            }
        },
        _ => {
            writeln!(
                io.err,
                "write `pack source add ADDRESS`, `pack source remove ADDRESS` or `pack source list`"
            )?;
            Ok(EXIT_USAGE)
        }
    }
}

/// Every index of the player's sources that can be read, each with its address; the others
/// said on stderr. None at all: why, on stderr.
fn read_indexes(io: &mut Streams) -> anyhow::Result<Option<Vec<(String, Index)>>> {
    let Some(data) = data_folder(io)? else {
        return Ok(None);
    };
    let list = indexes::sources(&data);
    if list.is_empty() {
        writeln!(
            io.err,
            "no pack index to look in: add one with `scryptic pack source add ADDRESS` (an http(s) address or a folder with index.json)"
        )?;
        return Ok(None);
    }
    let mut read = Vec::new();
    for source in list {
        match indexes::read_index(&source) {
            Ok(index) => read.push((source, index)),
            Err(e) => writeln!(io.err, "warning: {e}")?,
        }
    }
    Ok(Some(read))
}

/// `pack search WORDS`.
pub(super) fn search(words: &[String], catalog: &Catalog, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(indexes) = read_indexes(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let mut found = 0;
    for (source, index) in &indexes {
        for pack in index.search(words) {
            found += 1;
            let Some(newest) = pack.newest() else {
                continue;
            };
            let fits = match pack.best(&VersionReq::STAR) {
                Some(best) if best.version == newest.version => "fits this build".to_string(),
                Some(best) => format!("{best} fits this build", best = best.version),
                None => format!("needs scripting API {}", newest.scryptic),
            };
            let installed = catalog
                .get(&pack.id)
                .map(|p| format!(", {} installed", p.manifest.version))
                .unwrap_or_default();
            writeln!(
                io.out,
                "{} {} - {} ({fits}{installed})",
                pack.id, newest.version, pack.title
            )?;
            if !pack.description.is_empty() {
                writeln!(io.out, "    {}", first_line(&pack.description))?;
            }
            writeln!(io.out, "    from {source}")?;
        }
    }
    if found == 0 {
        writeln!(io.out, "no pack matches")?;
    }
    Ok(0)
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > 100 {
        format!("{}...", line.chars().take(97).collect::<String>())
    } else {
        line.to_string()
    }
}

/// `pack install ID[@REQ]...` and `pack update [ID]`: a plan made from the indexes, shown
/// with its total size, then each release downloaded, checked and installed, dependencies
/// first.
pub(super) fn install_from_indexes(
    wanted: &[String],
    update: bool,
    packs_dir: &Path,
    catalog: &Catalog,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let mut asked = Vec::new();
    for text in wanted {
        match index::parse_wanted(text) {
            Ok(w) => asked.push(w),
            Err(e) => {
                writeln!(io.err, "{e}")?;
                return Ok(EXIT_USAGE);
            }
        }
    }
    if update && asked.is_empty() {
        asked = installed_ids(catalog, packs_dir)
            .into_iter()
            .map(|id| (id, VersionReq::STAR))
            .collect();
    }
    let Some(indexes) = read_indexes(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let plan = match index::plan(&indexes, &asked, catalog, update) {
        Ok(plan) => plan,
        Err(e) => {
            writeln!(io.err, "{e}")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    if plan.is_empty() {
        writeln!(
            io.out,
            "nothing to do: what you asked for is installed and up to date"
        )?;
        return Ok(0);
    }
    show_plan(&plan, io)?;
    let Some(data) = data_folder(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    for planned in &plan {
        if let Err(e) = install_one(planned, packs_dir, &data, io) {
            writeln!(io.err, "{e}")?;
            writeln!(
                io.err,
                "stopped: {} was not installed (what was installed before it stays as it was)",
                planned.id
            )?;
            return Ok(EXIT_PROBLEMS);
        }
    }
    Ok(0)
}

fn show_plan(plan: &[Planned], io: &mut Streams) -> anyhow::Result<()> {
    writeln!(io.out, "to install:")?;
    for p in plan {
        let replaces = p
            .replaces
            .as_ref()
            .map(|v| format!(", replacing {v}"))
            .unwrap_or_default();
        let signed = if p.release.key.is_some() {
            "signed"
        } else {
            "unsigned"
        };
        writeln!(
            io.out,
            "  {} {} - {} ({}, {signed}{replaces}) from {}",
            p.id,
            p.release.version,
            p.title,
            size_words(p.release.size),
            p.source
        )?;
    }
    let total: u64 = plan.iter().map(|p| p.release.size).sum();
    writeln!(io.out, "in all {} to download", size_words(total))?;
    Ok(())
}

fn size_words(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / f64::from(1 << 20)),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

/// One release installed (see `indexes::install_release`), with a progress bar at a terminal.
fn install_one(
    planned: &Planned,
    packs_dir: &Path,
    data: &Path,
    io: &mut Streams,
) -> anyhow::Result<()> {
    let bar = progress_bar(planned);
    let installed = indexes::install_release(planned, packs_dir, data, &mut |done, _| {
        bar.set_position(done);
    });
    bar.finish_and_clear();
    let installed = installed.map_err(|e| anyhow::anyhow!(e))?;
    let name = &installed.name;
    if let Some(key) = &installed.pinned {
        writeln!(
            io.out,
            "  trusting key {key} for {} from now on",
            planned.id
        )?;
    }
    if installed.unsigned {
        writeln!(
            io.err,
            "warning: {name} is not signed: nothing says who made it (it runs in the sandbox, as every pack does)"
        )?;
    }
    match &installed.replaced {
        Some(old) => writeln!(io.out, "installed {name} (replacing {old})")?,
        None => writeln!(io.out, "installed {name}")?,
    }
    Ok(())
}

fn progress_bar(planned: &Planned) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    let bar = indicatif::ProgressBar::new(planned.release.size);
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("{} {}", planned.id, planned.release.version));
    bar
}

/// The ids of the packs installed in `packs_dir` that the catalog holds.
fn installed_ids(catalog: &Catalog, packs_dir: &Path) -> Vec<String> {
    let dir = std::fs::canonicalize(packs_dir).unwrap_or_else(|_| packs_dir.to_path_buf());
    catalog
        .packs()
        .iter()
        .filter(|p| match &p.files {
            crate::pack::PackFiles::Folder(root) => std::fs::canonicalize(root)
                .unwrap_or_else(|_| root.clone())
                .starts_with(&dir),
            crate::pack::PackFiles::Embedded { .. } | crate::pack::PackFiles::Memory { .. } => {
                false
            }
        })
        .map(|p| p.id().to_string())
        .collect()
}

/// `pack outdated`: each installed pack with a newer release in the indexes.
pub(super) fn outdated(
    packs_dir: &Path,
    catalog: &Catalog,
    io: &mut Streams,
) -> anyhow::Result<i32> {
    let Some(indexes) = read_indexes(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let pins = match crate::pack::places::data_dir() {
        Some(data) => Pins::load(&data)?,
        None => Pins::default(),
    };
    let mut any = false;
    for id in installed_ids(catalog, packs_dir) {
        let Some(installed) = catalog.get(&id).map(|p| p.manifest.version.clone()) else {
            continue;
        };
        let listed: Vec<_> = indexes.iter().filter_map(|(_, i)| i.pack(&id)).collect();
        let newest_fit = listed
            .iter()
            .filter_map(|p| p.best(&VersionReq::STAR))
            .max_by(|a, b| a.version.cmp(&b.version));
        let newest = listed
            .iter()
            .filter_map(|p| p.newest())
            .map(|r| (r.version.clone(), r.scryptic.clone()))
            .max_by(|a, b| a.0.cmp(&b.0));
        if let Some(fit) = newest_fit.filter(|r| r.version > installed) {
            any = true;
            let v = &fit.version;
            match pins.judge(&id, fit.key.as_deref()) {
                Err(crate::pack::trust::TrustError::KeyChanged {
                    pinned, offered, ..
                }) => {
                    writeln!(
                        io.out,
                        "{id} {installed} -> {v}, signed by another key ({offered}) than the one you \
                         trust for it ({pinned}): it may come from someone else; `pack update` \
                         refuses it unless you accept the new key (`scryptic pack trust {id} {offered}`)"
                    )?;
                }
                _ => writeln!(
                    io.out,
                    "{id} {installed} -> {v} (`scryptic pack update {id}`)"
                )?,
            }
        } else if let Some((v, api)) = newest.filter(|(v, _)| *v > installed) {
            any = true;
            writeln!(
                io.out,
                "{id} {installed}: {v} is out, for scripting API {api} (this build cannot run it)"
            )?;
        }
    }
    if !any {
        writeln!(io.out, "every installed pack is up to date")?;
    }
    Ok(0)
}

/// `pack keygen`: an author's signing key in the data folder.
pub(super) fn keygen(io: &mut Streams) -> anyhow::Result<i32> {
    let Some(data) = data_folder(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let path = key_path(&data);
    let key = SecretKey::from_bytes(rand::random::<[u8; 32]>());
    if let Err(e) = key.save_new(&path) {
        writeln!(io.err, "{e}")?;
        return Ok(EXIT_PROBLEMS);
    }
    writeln!(
        io.out,
        "made a signing key in {} (keep it there and back it up; never put it in a pack)\npublic key: {}",
        path.display(),
        key.public_hex()
    )?;
    Ok(0)
}

fn key_path(data: &Path) -> PathBuf {
    data.join("keys").join("author.key")
}

/// `pack sign ZIP`: `ZIP.sig` beside it, with the author's key.
pub(super) fn sign(zip: &Path, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(data) = data_folder(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let key = match SecretKey::load(&key_path(&data)) {
        Ok(key) => key,
        Err(e) => {
            writeln!(io.err, "{e}: `scryptic pack keygen` makes your key first")?;
            return Ok(EXIT_PROBLEMS);
        }
    };
    // Only a pack archive is signed: checked as an install would check it.
    let scratch = tempfile::tempdir()?;
    if let Err(e) = crate::pack::archive::unpack(zip, scratch.path()) {
        return super::problems_of(&e, io);
    }
    let bytes = std::fs::read(zip)?;
    let signed = key.sign(&bytes);
    let mut name = zip.file_name().unwrap_or_default().to_os_string();
    name.push(crate::pack::trust::SIGNATURE_SUFFIX);
    let out = zip.with_file_name(name);
    crate::fsutil::write_atomic(&out, signed.to_text().as_bytes())?;
    writeln!(
        io.out,
        "signed {} with key {}: wrote {} (`scryptic pack index` carries it into the index)",
        zip.display(),
        signed.key,
        out.display()
    )?;
    let check = SignatureFile::load(&out)?;
    crate::pack::trust::verify(
        &bytes,
        &check.key,
        &check.signature,
        &zip.display().to_string(),
    )?;
    Ok(0)
}

/// `pack trust ID KEY`: accept `KEY` for pack `ID` (a change of keys its author announced).
pub(super) fn trust(id: &str, key: &str, io: &mut Streams) -> anyhow::Result<i32> {
    if let Err(e) = crate::pack::trust::check_hex(key, 32, "key") {
        writeln!(io.err, "{e}")?;
        return Ok(EXIT_USAGE);
    }
    let Some(data) = data_folder(io)? else {
        return Ok(EXIT_PROBLEMS);
    };
    let mut pins = Pins::load(&data)?;
    let before = pins.of(id).map(str::to_string);
    pins.pin(id, key);
    pins.save(&data)?;
    match before {
        Some(old) => writeln!(io.out, "{id}: key {key} trusted in place of {old}")?,
        None => writeln!(io.out, "{id}: key {key} trusted")?,
    }
    Ok(0)
}

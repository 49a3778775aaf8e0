//! `scryptic pack ...`: make, check, list, show and export packs; and how the game commands'
//! `--pack ID[:MODE]` and `--set id=value` are read.

use super::{EXIT_PROBLEMS, Streams};
use crate::pack::{Catalog, Choice, Pack, PackFiles};
use clap::Subcommand;
use std::path::{Path, PathBuf};

mod check;
mod index_cmd;
mod pack_test;
mod strings_check;

use check::{check, every_board};

use crate::screen::counted;

/// Whether `what` names a pack archive or folder here rather than a pack of the indexes: an
/// archive, or a path (`./harvest`, `packs/harvest`); a bare id is looked up in the indexes
/// even where a folder of that name is.
fn is_local(what: &str) -> bool {
    what.ends_with(".zip")
        || what.contains('/')
        || what.contains(std::path::MAIN_SEPARATOR)
        || crate::pack::manifest::id_problem(what).is_some() && Path::new(what).exists()
}

#[derive(Subcommand, Debug)]
pub(super) enum PackCommand {
    /// Make a new pack folder ID (in the current folder, or --dir) with a manifest, a map, a
    /// script and a scenario: a mode that plays as it is, to change into your own (the format
    /// is docs/PACKS.md in the Scryptic repository). For your Lua editor it writes
    /// `.luarc.json` and the API's definitions in `types/` (`scryptic script types` renews
    /// them), and a `.packignore` that keeps both out of the pack's archive.
    New {
        /// The pack's id: a-z, 0-9 and `-` (it is also the folder's name).
        id: String,
        /// Where to make it.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Check a pack (a folder, or the id of one found): its manifest, paths, dependencies,
    /// every map, rule set and script, every mode started, and that ties in the load order
    /// change nothing.
    Check {
        /// A pack folder or a pack id.
        pack: String,
    },
    /// Play a few AI games of every mode (each chapter of a campaign) with the pack's scripts
    /// taking part: every action must be legal, no script may fail, and each game must
    /// replay from its save to the same end. Then play the pack's scenarios (`tests/*.ron`,
    /// whose format is docs/SCENARIOS.md): each step must go as written.
    Test {
        /// A pack folder, .zip or id.
        pack: String,
        /// Games per board (0: the scenarios only).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=1000))]
        games: u32,
        /// Actions after which a game is stopped (it still counts).
        #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        max_actions: u32,
    },
    /// List the packs found: built in, installed, and in the search folders.
    List,
    /// Show a pack: title, version, authors, description, dependencies, modes, settings and
    /// what it holds.
    Info {
        /// A pack folder or a pack id.
        pack: String,
    },
    /// Write a pack (the built-in `core` too) out as an ordinary pack folder DIR/ID.
    Export {
        /// The pack's id.
        id: String,
        /// The folder to write it in.
        dir: PathBuf,
    },
    /// Install packs from the pack indexes (ID or ID@VERSIONS, with their dependencies; the
    /// plan and its size are shown first), or one pack from a .zip or a folder. Every archive
    /// is checked whole before anything is written; an installed copy is replaced only once
    /// the new one is in place.
    Install {
        /// Pack ids (`word-wars`, `word-wars@^1.2`), or one pack archive (.zip) or folder.
        #[arg(required = true, value_name = "ID[@REQ]|FILE")]
        what: Vec<String>,
        /// Where installed packs live (default: packs/ in the data folder).
        #[arg(long, value_name = "DIR")]
        packs_dir: Option<PathBuf>,
    },
    /// Remove an installed pack (refused while a pack found needs it, unless --force).
    Remove {
        /// The pack's id.
        id: String,
        /// Where installed packs live (default: packs/ in the data folder).
        #[arg(long, value_name = "DIR")]
        packs_dir: Option<PathBuf>,
        /// Remove it even though other packs need it (they will not load until it is back).
        #[arg(long)]
        force: bool,
    },
    /// Write a pack folder as a .zip to share (ID-VERSION.zip, or --out).
    Zip {
        /// The pack folder.
        dir: PathBuf,
        /// The archive to write.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Write DIR/index.json, the pack index of the archives in DIR (after adding a release),
    /// carrying each archive's signature (ZIP.sig) and thumbnail.
    Index {
        /// The folder of pack archives.
        dir: PathBuf,
    },
    /// The pack indexes searched and installed from: `add ADDRESS` (an http(s) address or a
    /// folder), `remove ADDRESS`, `list`.
    Source {
        /// add, remove or list.
        #[arg(value_parser = ["add", "remove", "list"])]
        action: String,
        /// The index's address or folder.
        address: Option<String>,
    },
    /// Find packs in the indexes by words of their id, title, description or tags.
    Search {
        /// Words that must all appear (none: every pack).
        words: Vec<String>,
    },
    /// The installed packs that have newer releases in the indexes.
    Outdated {
        /// Where installed packs live (default: packs/ in the data folder).
        #[arg(long, value_name = "DIR")]
        packs_dir: Option<PathBuf>,
    },
    /// Install the newest release that fits of an installed pack (or of every one).
    Update {
        /// The pack (none: every installed pack).
        id: Option<String>,
        /// Where installed packs live (default: packs/ in the data folder).
        #[arg(long, value_name = "DIR")]
        packs_dir: Option<PathBuf>,
    },
    /// Make your signing key (ed25519), kept in the data folder, and show its public key.
    Keygen,
    /// Sign a pack archive with your key: writes ZIP.sig beside it.
    Sign {
        /// The pack archive.
        zip: PathBuf,
    },
    /// Trust KEY for pack ID from now on (after its author announced a new key).
    Trust {
        /// The pack.
        id: String,
        /// The public key, 64 hex digits.
        key: String,
    },
}

pub(super) fn run(cmd: PackCommand, io: &mut Streams) -> anyhow::Result<i32> {
    let (mut catalog, problems) = Catalog::discover();
    // A pack that does not open is reported by the commands that read every pack; the others
    // name the one they were given, which says its own problems.
    match cmd {
        PackCommand::New { id, dir } => new(&id, &dir, io),
        PackCommand::Check { pack } => {
            let Some(opened) = open(&pack, &mut catalog, io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            check(&catalog, &opened.id, io)
        }
        PackCommand::Test {
            pack,
            games,
            max_actions,
        } => {
            let Some(opened) = open(&pack, &mut catalog, io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            pack_test::test(&catalog, &opened.id, (games, max_actions), io)
        }
        PackCommand::List => {
            for p in &problems {
                writeln!(io.err, "{p}")?;
            }
            list(&catalog, io)
        }
        PackCommand::Info { pack } => {
            let Some(opened) = open(&pack, &mut catalog, io)? else {
                return Ok(EXIT_PROBLEMS);
            };
            info(&catalog, &opened.id, io)
        }
        PackCommand::Export { id, dir } => export(&catalog, &id, &dir, io),
        PackCommand::Install { what, packs_dir } => {
            let Some(dir) = packs_dir.or_else(crate::pack::places::installed_dir) else {
                return no_data_folder(io);
            };
            match what.as_slice() {
                [one] if is_local(one) => install(Path::new(one), &dir, &catalog, io),
                _ => index_cmd::install_from_indexes(&what, false, &dir, &catalog, io),
            }
        }
        PackCommand::Index { dir } => index_cmd::write_index(&dir, io),
        PackCommand::Source { action, address } => {
            index_cmd::source(&action, address.as_deref(), io)
        }
        PackCommand::Search { words } => index_cmd::search(&words, &catalog, io),
        PackCommand::Outdated { packs_dir } => {
            let Some(dir) = packs_dir.or_else(crate::pack::places::installed_dir) else {
                return no_data_folder(io);
            };
            index_cmd::outdated(&dir, &catalog, io)
        }
        PackCommand::Update { id, packs_dir } => {
            let Some(dir) = packs_dir.or_else(crate::pack::places::installed_dir) else {
                return no_data_folder(io);
            };
            let wanted: Vec<String> = id.into_iter().collect();
            index_cmd::install_from_indexes(&wanted, true, &dir, &catalog, io)
        }
        PackCommand::Keygen => index_cmd::keygen(io),
        PackCommand::Sign { zip } => index_cmd::sign(&zip, io),
        PackCommand::Trust { id, key } => index_cmd::trust(&id, &key, io),
        PackCommand::Remove {
            id,
            packs_dir,
            force,
        } => {
            let Some(dir) = packs_dir.or_else(crate::pack::places::installed_dir) else {
                return no_data_folder(io);
            };
            let needing = dependents(&catalog, &id);
            if !needing.is_empty() && !force {
                writeln!(
                    io.err,
                    "{} {} {id}: remove {} first, or remove {id} anyway with --force",
                    needing.join(", "),
                    if needing.len() == 1 { "needs" } else { "need" },
                    if needing.len() == 1 { "it" } else { "them" },
                )?;
                return Ok(EXIT_PROBLEMS);
            }
            match crate::pack::archive::remove(&id, &dir) {
                Ok(pack) => {
                    writeln!(io.out, "removed {}", pack.label())?;
                    Ok(0)
                }
                Err(e) => problems_of(&e, io),
            }
        }
        PackCommand::Zip { dir, out } => zip(&dir, out, io),
    }
}

fn no_data_folder(io: &mut Streams) -> anyhow::Result<i32> {
    writeln!(
        io.err,
        "no data folder to install packs in: set SCRYPTIC_DATA or give --packs-dir DIR"
    )?;
    Ok(EXIT_PROBLEMS)
}

fn problems_of(e: &crate::diag::LoadError, io: &mut Streams) -> anyhow::Result<i32> {
    for p in e.problems() {
        writeln!(io.err, "{p}")?;
    }
    Ok(EXIT_PROBLEMS)
}

fn install(source: &Path, dir: &Path, catalog: &Catalog, io: &mut Streams) -> anyhow::Result<i32> {
    let installed = match crate::pack::archive::install(source, dir) {
        Ok(installed) => installed,
        Err(e) => return problems_of(&e, io),
    };
    let label = installed.pack.label();
    match &installed.replaced {
        Some(old) => writeln!(
            io.out,
            "installed {label} in {} (replacing {old})",
            dir.display()
        )?,
        None => writeln!(io.out, "installed {label} in {}", dir.display())?,
    }
    // Its dependencies may come later; say now what is missing.
    let mut with_it = catalog.clone();
    let id = installed.pack.id().to_string();
    // (Installed, so not a built-in id: `install` refuses those.)
    let _ = with_it.add(installed.pack);
    if let Err(e) = with_it.resolve(&[id.as_str()]) {
        writeln!(io.err, "warning: {e}")?;
    }
    Ok(0)
}

fn zip(dir: &Path, out: Option<PathBuf>, io: &mut Streams) -> anyhow::Result<i32> {
    let pack = match Pack::open(dir) {
        Ok(pack) => pack,
        Err(e) => return problems_of(&e, io),
    };
    let out = out
        .unwrap_or_else(|| PathBuf::from(format!("{}-{}.zip", pack.id(), pack.manifest.version)));
    match crate::pack::archive::zip_folder(&pack, &out) {
        Ok(files) => {
            writeln!(
                io.out,
                "wrote {} ({files} files) to {}",
                pack.label(),
                out.display()
            )?;
            Ok(0)
        }
        Err(e) => problems_of(&e, io),
    }
}

/// A pack named on the command line, added to the catalog: its id, and the folder an archive
/// was unpacked into (removed when this is dropped).
pub(super) struct Opened {
    /// The pack's id.
    pub id: String,
    _unpacked: Option<tempfile::TempDir>,
    /// The extensions opened with it (kept while the game is played).
    _extensions: Vec<Opened>,
}

/// What `play`, `simulate` and `campaign` take besides `--pack`: settings and extensions.
#[derive(clap::Args, Debug, Clone, Default)]
pub(super) struct PackPicks {
    /// A setting of the pack's mode, fixed for the game (`--set rounds=4`); repeat for more.
    #[arg(long = "set", value_name = "ID=VALUE", requires = "pack")]
    pub set: Vec<String>,
    /// An extension pack to add to the game (its id, folder or .zip), which must fit the
    /// mode; repeat for more.
    #[arg(long = "with", value_name = "ID", requires = "pack")]
    pub with: Vec<String>,
}

/// A pack named on the command line: a folder or a .zip (opened and added to `catalog`) or the
/// id of a pack found; `None` after saying why not.
pub(super) fn open(
    pack: &str,
    catalog: &mut Catalog,
    io: &mut Streams,
) -> anyhow::Result<Option<Opened>> {
    let path = Path::new(pack);
    let is_zip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
        && path.is_file();
    let (folder, unpacked) = if is_zip {
        match crate::pack::archive::unpack(path, &std::env::temp_dir()) {
            Ok((staging, root)) => (root, Some(staging)),
            Err(e) => {
                problems_of(&e, io)?;
                return Ok(None);
            }
        }
    } else {
        (path.to_path_buf(), None)
    };
    if unpacked.is_some()
        || path.join(crate::pack::MANIFEST_FILE).is_file()
        || pack.contains('/')
        || path.is_dir()
    {
        return match Pack::open(&folder) {
            Ok(opened) => {
                let id = opened.id().to_string();
                if let Err(e) = catalog.add(opened) {
                    writeln!(io.err, "error: {e}")?;
                    return Ok(None);
                }
                Ok(Some(Opened {
                    id,
                    _unpacked: unpacked,
                    _extensions: Vec::new(),
                }))
            }
            Err(e) => {
                problems_of(&e, io)?;
                Ok(None)
            }
        };
    }
    if catalog.get(pack).is_some() {
        return Ok(Some(Opened {
            id: pack.to_string(),
            _unpacked: None,
            _extensions: Vec::new(),
        }));
    }
    let error = catalog.resolve(&[pack]).err();
    match error {
        Some(e) => writeln!(io.err, "{e}")?,
        None => writeln!(io.err, "there is no pack `{pack}`")?,
    }
    Ok(None)
}

/// `--pack ID[:MODE]` (or `DIR[:MODE]`, `ZIP[:MODE]`) and `--set` as a choice of game, with
/// the pack opened (keep it while the game is played); `None` after saying why not.
pub(super) fn choose(
    spec: &str,
    map: Option<&str>,
    picks: &PackPicks,
    catalog: &mut Catalog,
    io: &mut Streams,
) -> anyhow::Result<Option<(Choice, Opened)>> {
    let (pack, mode) = match spec.rsplit_once(':') {
        Some((pack, mode)) if !mode.contains('/') && !mode.is_empty() => (pack, mode),
        _ => (spec, ""),
    };
    let Some(mut opened) = open(pack, catalog, io)? else {
        return Ok(None);
    };
    let id = opened.id.clone();
    let mut extensions = Vec::new();
    for spec in &picks.with {
        let Some(extension) = open(spec, catalog, io)? else {
            return Ok(None);
        };
        extensions.push(extension.id.clone());
        opened._extensions.push(extension);
    }
    let mut pairs = Vec::new();
    for s in &picks.set {
        let Some((key, value)) = s.split_once('=') else {
            writeln!(io.err, "--set {s}: write it as id=value (--set rounds=4)")?;
            return Ok(None);
        };
        if !crate::pack::settings::kept_here(key.trim()) {
            writeln!(
                io.err,
                "--set {s}: a move's time is kept by a server's clock; host the match there \
                 (scryptic host {spec} --set {s}) and join it"
            )?;
            return Ok(None);
        }
        pairs.push((key.trim().to_string(), value.trim().to_string()));
    }
    let choice = Choice {
        pack: id,
        mode: mode.to_string(),
        chapter: 0,
        map: map.unwrap_or_default().to_string(),
        set: pairs,
        // The packs' texts in the player's language, when they have it (`SCRYPTIC_LANG=fr`).
        language: crate::pack::strings::system_language(),
        extensions,
    };
    Ok(Some((choice, opened)))
}

fn list(catalog: &Catalog, io: &mut Streams) -> anyhow::Result<i32> {
    for pack in catalog.packs() {
        let place = match &pack.files {
            PackFiles::Folder(dir) => dir.display().to_string(),
            PackFiles::Embedded { .. } => "built in".to_string(),
            PackFiles::Memory { .. } => "in memory".to_string(),
        };
        let modes: Vec<&str> = pack.manifest.modes.iter().map(|m| m.id.as_str()).collect();
        // A pack that cannot load says why at once (a dependency missing, too old, ...).
        let unloadable = match catalog.resolve(&[pack.id()]) {
            Ok(_) => String::new(),
            Err(e) => format!("\n    cannot load: {e}"),
        };
        writeln!(
            io.out,
            "{:<20} {:<10} {}  [{}]  ({place}){unloadable}",
            pack.manifest.id,
            pack.manifest.version.to_string(),
            pack.manifest.title,
            if modes.is_empty() {
                "no modes".to_string()
            } else {
                modes.join(", ")
            }
        )?;
    }
    Ok(0)
}

/// The packs found that depend on `id`, each with the versions it needs.
fn dependents(catalog: &Catalog, id: &str) -> Vec<String> {
    catalog
        .packs()
        .iter()
        .filter_map(|p| {
            let req = p.manifest.depends.get(id)?;
            Some(format!("{} ({req})", p.id()))
        })
        .collect()
}

fn info(catalog: &Catalog, id: &str, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(pack) = catalog.get(id) else {
        return Ok(EXIT_PROBLEMS);
    };
    let m = &pack.manifest;
    let files = pack.files.all_files()?;
    let out = &mut *io.out;
    writeln!(out, "{} ({} {})", m.title, m.id, m.version)?;
    if !m.authors.is_empty() {
        writeln!(out, "by {}", m.authors.join(", "))?;
    }
    if !m.license.is_empty() {
        writeln!(out, "license: {}", m.license)?;
    }
    writeln!(out, "scripting API: {}", m.scryptic)?;
    if !m.description.is_empty() {
        writeln!(out, "\n{}\n", m.description)?;
    }
    for (what, list) in [
        ("depends on", &m.depends),
        ("uses if present", &m.optional),
        ("conflicts with", &m.conflicts),
    ] {
        if !list.is_empty() {
            let items: Vec<String> = list.iter().map(|(id, req)| format!("{id} {req}")).collect();
            writeln!(out, "{what}: {}", items.join(", "))?;
        }
    }
    for mode in &m.modes {
        let board = if mode.map.is_empty() {
            format!("campaign {}", mode.campaign)
        } else {
            mode.map.clone()
        };
        writeln!(out, "mode {}: {} ({board})", mode.id, mode.title)?;
    }
    if let Some(extension) = &m.extension {
        writeln!(out, "{}", extension.describe())?;
    }
    for s in &m.settings {
        let bound = if s.binds.is_empty() {
            String::new()
        } else {
            format!(", sets {}", s.binds)
        };
        writeln!(
            out,
            "setting {}: {} ({}, default {}{bound})",
            s.id,
            s.title,
            s.range_words(),
            s.default_value()
        )?;
    }
    let languages: Vec<&str> = files
        .iter()
        .filter_map(|f| f.strip_prefix("locale/")?.strip_suffix(".ron"))
        .collect();
    if !languages.is_empty() {
        writeln!(out, "texts in: {}", languages.join(", "))?;
    }
    // What a player receives: the archive leaves out what `.packignore` names.
    let shipped = crate::pack::archive::shipped_files(pack)?;
    let left_out = files.len() - shipped.len();
    write!(out, "{}", holdings(&shipped))?;
    if left_out > 0 {
        write!(
            out,
            " ({} more, the author's own, left out of its archive by .packignore)",
            left_out
        )?;
    }
    writeln!(out)?;
    Ok(0)
}

/// What a pack's files are, kind by kind, in words.
fn holdings(files: &[String]) -> String {
    let count = |folders: &[&str], ext: &str| {
        files
            .iter()
            .filter(|f| f.ends_with(ext) && folders.iter().any(|d| f.starts_with(d)))
            .count()
    };
    // The manifest is the pack itself, not one of its data files.
    let ron = files
        .iter()
        .filter(|f| f.ends_with(".ron") && f.as_str() != crate::pack::MANIFEST_FILE)
        .count();
    let kinds = [
        (count(&["maps/", "campaigns/"], ".ron"), "map"),
        (count(&["rules/"], ".ron"), "rule set"),
        (count(&["tests/"], ".ron"), "scenario"),
        (count(&["locale/"], ".ron"), "string table"),
        (count(&["tilesets/"], ".ron"), "tileset"),
        (count(&[""], ".png"), "picture"),
        (count(&[""], ".lua"), "script"),
    ];
    let mut parts: Vec<String> = kinds
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, kind)| counted(*n, kind))
        .collect();
    let named: usize = kinds[..5].iter().map(|(n, _)| n).sum();
    if ron > named {
        parts.push(counted(ron - named, "other data file"));
    }
    let runs_lua = if kinds[6].0 > 0 {
        " — it runs Lua, in the sandbox"
    } else {
        ""
    };
    format!(
        "holds {}: {}{runs_lua}",
        counted(files.len(), "file"),
        parts.join(", ")
    )
}

/// Writes pack `id` into `dir/ID`, by way of a folder beside it, renamed when complete.
fn export(catalog: &Catalog, id: &str, dir: &Path, io: &mut Streams) -> anyhow::Result<i32> {
    let Some(pack) = catalog.get(id) else {
        writeln!(
            io.err,
            "there is no pack `{id}`; `scryptic pack list` shows them"
        )?;
        return Ok(EXIT_PROBLEMS);
    };
    match crate::pack::archive::export(pack, dir) {
        Ok(target) => {
            writeln!(io.out, "wrote {} to {}", pack.label(), target.display())?;
            Ok(0)
        }
        Err(e) => problems_of(&e, io),
    }
}

/// Makes pack `id` in `dir`: a manifest, a map, a script and a README.
fn new(id: &str, dir: &Path, io: &mut Streams) -> anyhow::Result<i32> {
    let made = crate::pack::new::tutorial_seed(id).and_then(|seed| {
        let definitions = crate::script::api::luals_definitions();
        crate::pack::new::make(id, dir, seed, &definitions)
    });
    match made {
        Ok(made) => {
            let shown = made.folder.display();
            writeln!(
                io.out,
                "made {shown}: play it with `scryptic play --pack {shown}`, check it with `scryptic pack check {shown}`"
            )?;
            Ok(0)
        }
        Err(e) => problems_of(&e, io),
    }
}

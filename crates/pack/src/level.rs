//! A playable level assembled from its files: the one place that knows where a level keeps its
//! map, rule set, scripts, connotation lists and tileset.
//!
//! Two sources: a pack's mode (the packs it loads resolved by the [`Catalog`], every path
//! inside its pack), and a map file outside any pack (paths relative to the map's folder,
//! `rules.ron` and `connotations/` beside it), which is how maps being made are played.

use super::manifest::split_reference;
use super::{Catalog, Manifest, ModeSpec, Pack, PackFiles, ResolveError, SettingValue};
use crate::diag::LoadError;
use crate::map::Map;
use crate::rules::RuleSet;
use crate::save::ScriptSource;
use std::path::{Path, PathBuf};

mod files;
mod tileset;

use files::{pack_connotations, read_loose_scripts, read_script};
pub use tileset::{TilesetRef, enclosing_pack, map_tileset, tileset_reference_from};

/// A level ready to start: everything a game needs, read and checked.
#[derive(Clone, Debug)]
pub struct Level {
    /// What players see it called.
    pub title: String,
    /// The board.
    pub map: Map,
    /// The rule set, with the settings bound to it applied.
    pub rules: RuleSet,
    /// The pack the level is of ("" for a map outside any pack): its scripts are named by
    /// their paths alone, other packs' as `ID:path`.
    pub pack: String,
    /// The scripts, in load order: the mode's, the map's, then each extension's.
    pub scripts: Vec<ScriptSource>,
    /// Scripts that could not be read, as messages (the game starts without them, and says so).
    pub unreadable: Vec<String>,
    /// Connotation lists that replace or add to the built-in ones, in load order.
    pub connotations: Vec<ConnotationList>,
    /// The tileset the board is drawn with (`Tileset::from_pack` loads it).
    pub tileset: Option<TilesetRef>,
    /// What on disk to watch for live modding.
    pub watch: Watched,
    /// The packs loaded, in load order (none for a map outside any pack), as a save records
    /// them: id, version, hashes of all their files and of each file the level read.
    pub records: Vec<crate::save::PackRecord>,
    /// The value of every setting of the mode's pack.
    pub settings: Vec<(String, SettingValue)>,
    /// How the mode's pack declares each of its settings (a save carries them).
    pub declared: std::collections::BTreeMap<String, crate::save::SettingKind>,
    /// Each loaded pack's string table in the game's language (`locale/LANG.ron` over
    /// `locale/en.ron`), for `scryptic.t`.
    pub strings: crate::save::StringTables,
}

/// A connotation list a level brings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnotationList {
    /// The list's name (its file name without `.txt`).
    pub name: String,
    /// Its words, sorted.
    pub words: Vec<String>,
    /// Where it came from, for messages.
    pub file: PathBuf,
}

/// The files a level's game watches while it is played, so that saving one applies it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Watched {
    /// The folder its scripts' names start from, when it is on disk.
    pub dir: Option<PathBuf>,
    /// The map file, when the rules come from it.
    pub map_file: Option<PathBuf>,
    /// The rule-set file, when there is one.
    pub rules_file: Option<PathBuf>,
    /// The connotation list files.
    pub connotation_files: Vec<PathBuf>,
}

/// Why a level cannot be assembled.
#[derive(Debug, thiserror::Error)]
pub enum LevelError {
    /// A file of the level is missing or wrong.
    #[error("{0}")]
    File(#[from] LoadError),
    /// The packs cannot be loaded together.
    #[error("{0}")]
    Resolve(#[from] ResolveError),
    /// The pack has no such mode.
    #[error("pack `{pack}` has no mode `{mode}`; its modes: {modes}")]
    UnknownMode {
        /// The pack.
        pack: String,
        /// The mode asked for.
        mode: String,
        /// The modes it has.
        modes: String,
    },
    /// A setting given is unknown or has a value it does not allow.
    #[error("{0}")]
    Setting(String),
    /// A reference names a pack the level does not load.
    #[error(
        "{file}: `{reference}` names pack `{pack}`, which this pack does not depend on: add it to depends"
    )]
    NotLoaded {
        /// The file (or manifest) that holds the reference.
        file: PathBuf,
        /// The reference.
        reference: String,
        /// The pack it names.
        pack: String,
    },
    /// A folder holds no map.
    #[error(
        "{0} holds no map (a level folder holds a map's .ron file, its scripts, a connotations/ \
         folder and optionally rules.ron)"
    )]
    NoMap(PathBuf),
}

/// What a game of a pack is: the pack, which of its modes, and which of the mode's boards.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// The pack's id.
    pub pack: String,
    /// The mode's id; empty: the pack's first mode.
    pub mode: String,
    /// Which chapter of a campaign mode, from 0 (a one-map mode has one).
    pub chapter: usize,
    /// Another board than the mode's: a map of the pack or of one it loads
    /// (`maps/duel-40.ron`, `core:maps/tutorial.ron`); empty: the mode's.
    pub map: String,
    /// Settings as typed (`rounds=4`), checked against the pack's settings.
    pub set: Vec<(String, String)>,
    /// The language of the packs' string tables (`fr`); empty: English.
    pub language: String,
    /// Extension packs ticked (their ids): loaded with the mode's pack, their scripts after
    /// its own.
    pub extensions: Vec<String>,
}

impl Level {
    /// The level of a pack's mode: the packs it needs resolved from `catalog`, its files read.
    pub fn from_pack(catalog: &Catalog, choice: &Choice) -> Result<Level, LevelError> {
        Level::from_pack_with(catalog, choice, &mut |_| 0)
    }

    /// As `from_pack`, with `pick` breaking ties in the load order (`Catalog::resolve_with`):
    /// `pack check` assembles each mode in shuffled orders to show that nothing hangs on them.
    pub fn from_pack_with(
        catalog: &Catalog,
        choice: &Choice,
        pick: &mut dyn FnMut(&[&str]) -> usize,
    ) -> Result<Level, LevelError> {
        let wanted: Vec<&str> = std::iter::once(choice.pack.as_str())
            .chain(choice.extensions.iter().map(String::as_str))
            .collect();
        let packs = catalog.resolve_with(&wanted, pick)?;
        let pack = the_pack(&packs, &choice.pack)?;
        let mode = find_mode(&pack.manifest, &choice.mode)?;
        let extensions = ticked_extensions(&packs, pack, mode, &choice.extensions)?;
        let settings = super::settings::values(&pack.manifest, &choice.set)?;
        let boards = if choice.map.is_empty() {
            boards(&packs, pack, mode)?
        } else {
            vec![choice.map.clone()]
        };
        let Some(board) = boards.get(choice.chapter) else {
            return Err(if boards.is_empty() {
                LevelError::NoMap(pack.files.shown(&mode.campaign))
            } else {
                LevelError::Setting(format!(
                    "mode `{}` has {} chapters; there is no chapter {}",
                    mode.id,
                    boards.len(),
                    choice.chapter + 1
                ))
            });
        };
        let (map_pack, map_path) = locate(&packs, pack, super::MANIFEST_FILE, board)?;
        let map = Map::from_text(
            &map_pack.files.shown(&map_path),
            &map_pack.files.read_text(&map_path)?,
        )?;
        let (mut rules, rules_read) = mode_rules(&packs, pack, mode, &map)?;
        // The settings are set before they are checked: a number of players the mode does not
        // seat is told as such, before what else it would upset.
        let bound = super::settings::bind(&pack.manifest, &settings, &mut rules);
        require_seats_of(mode, &rules)?;
        bound?;
        let title = if boards.len() > 1 {
            format!("{}: {}", mode.title, map.name)
        } else {
            mode.title.clone()
        };
        let mut level = assemble(
            &packs,
            pack,
            (map_pack, &map_path),
            map,
            (rules, rules_read),
            (&mode.scripts, &extensions),
        )?;
        level.title = title;
        level.settings = settings;
        level.declared = declarations(&pack.manifest, &level.settings);
        level.strings = super::strings::string_tables(&packs, &choice.language)?;
        Ok(level)
    }

    /// The level of a map file inside a pack folder (one of its parents holds `pack.ron`),
    /// played on its own: the pack's dependencies from `catalog`, the map's own rules or
    /// `rules_file`, no mode scripts.
    fn from_map_in_pack(
        catalog: &Catalog,
        root: &Path,
        (map, path): (Map, &Path),
        rules_file: Option<&Path>,
    ) -> Result<Level, LevelError> {
        let mut catalog = catalog.clone();
        let opened = Pack::open(root)?;
        let id = opened.id().to_string();
        catalog.add(opened)?;
        let packs = catalog.resolve(&[id.as_str()])?;
        let pack = the_pack(&packs, &id)?;
        let map_path = pack_path(root, path);
        // Played as part of its pack, the map has the pack's settings at their defaults, as
        // its scripts expect (`game:setting`), and a mode that plays it gives its rules and
        // scripts, as `--pack ID:MODE` would (the settings bound to its rules as there). A
        // rule-set file given replaces the rules, and nothing is bound to it.
        let settings = super::settings::values(&pack.manifest, &[])?;
        let mode = pack
            .manifest
            .modes
            .iter()
            .find(|m| plays_board(m, &map_path));
        let (rules, rules_read) = match (rules_file, mode) {
            (Some(file), _) => (RuleSet::load(file)?, None),
            (None, Some(mode)) => {
                let (mut rules, read) = mode_rules(&packs, pack, mode, &map)?;
                super::settings::bind(&pack.manifest, &settings, &mut rules)?;
                (rules, read)
            }
            (None, None) => (map_rules(&map)?, None),
        };
        let mode_scripts: &[String] = mode.map_or(&[], |m| &m.scripts);
        let mut level = assemble(
            &packs,
            pack,
            (pack, &map_path),
            map,
            (rules, rules_read),
            (mode_scripts, &[]),
        )?;
        level.settings = settings;
        level.declared = declarations(&pack.manifest, &level.settings);
        level.strings = super::strings::string_tables(&packs, "")?;
        level.watch.map_file = rules_file.is_none().then(|| path.to_path_buf());
        level.watch.rules_file = rules_file.map(Path::to_path_buf);
        Ok(level)
    }

    /// The level of a map file outside any pack: its scripts and tileset named from its folder,
    /// `rules_file` (or else `rules.ron` beside it, or else the map's own rules) its rule set,
    /// the lists in `connotations/` beside it added.
    /// A map inside a pack folder is played as part of its pack: its paths are the pack's, and
    /// the pack's dependencies (from `catalog`) are loaded.
    pub fn from_map_file(
        path: &Path,
        rules_file: Option<&Path>,
        catalog: &Catalog,
    ) -> Result<Level, LevelError> {
        let map = Map::load(path)?;
        Level::from_map(map, Some(path), rules_file, catalog)
    }

    /// As `from_map_file`, for a map already loaded (or being edited, `path` where it is saved).
    pub fn from_map(
        map: Map,
        path: Option<&Path>,
        rules_file: Option<&Path>,
        catalog: &Catalog,
    ) -> Result<Level, LevelError> {
        if let Some(path) = path
            && let Some(root) = enclosing_pack(path)
        {
            return Level::from_map_in_pack(catalog, &root, (map, path), rules_file);
        }
        let dir = path
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let beside = dir.join("rules.ron");
        let rules_file = rules_file
            .map(Path::to_path_buf)
            .or_else(|| (path.is_some() && beside.is_file()).then_some(beside));
        let rules = match &rules_file {
            Some(file) => RuleSet::load(file)?,
            None => map_rules(&map)?,
        };
        let (scripts, errors) = read_loose_scripts(&dir, &map.scripts);
        let folder = PackFiles::Folder(dir.clone());
        let connotations = if path.is_some() {
            pack_connotations(&folder)?
                .into_iter()
                .map(|(_, list)| list)
                .collect()
        } else {
            Vec::new()
        };
        // A loose map may name a built-in pack's tileset (`core:tilesets/stone/tileset.ron`).
        let tileset = map_tileset(path, &map.tileset, catalog);
        let watch = Watched {
            dir: Some(dir),
            map_file: if rules_file.is_none() {
                path.map(Path::to_path_buf)
            } else {
                None
            },
            rules_file,
            connotation_files: connotations.iter().map(|c| c.file.clone()).collect(),
        };
        Ok(Level {
            title: map.name.clone(),
            map,
            rules,
            scripts,
            unreadable: errors,
            connotations,
            tileset,
            watch,
            records: Vec::new(),
            settings: Vec::new(),
            declared: std::collections::BTreeMap::new(),
            strings: crate::save::StringTables::new(),
            pack: String::new(),
        })
    }

    /// The level in `folder`: its map is the `.ron` file that loads as a map (the first by
    /// name, if several), other than `rules.ron`.
    pub fn from_folder(folder: &Path, catalog: &Catalog) -> Result<Level, LevelError> {
        let files = PackFiles::Folder(folder.to_path_buf());
        let mut problems = Vec::new();
        for name in files.list("", "ron")? {
            if name == "rules.ron" || name == super::MANIFEST_FILE {
                continue;
            }
            match Level::from_map_file(&folder.join(&name), None, catalog) {
                Ok(level) => return Ok(level),
                Err(e) => problems.push(e),
            }
        }
        match problems.into_iter().next() {
            Some(first) => Err(first),
            None => Err(LevelError::NoMap(folder.to_path_buf())),
        }
    }
}

/// The maps of a mode, as references: its one map, or its campaign folder's maps by name.
pub fn boards(packs: &[&Pack], pack: &Pack, mode: &ModeSpec) -> Result<Vec<String>, LevelError> {
    if !mode.map.is_empty() {
        return Ok(vec![mode.map.clone()]);
    }
    let (owner, folder) = locate(packs, pack, super::MANIFEST_FILE, &mode.campaign)?;
    let prefix = if owner.id() == pack.id() {
        String::new()
    } else {
        format!("{}:", owner.id())
    };
    let maps: Vec<String> = owner
        .files
        .list(&folder, "ron")?
        .into_iter()
        .map(|path| format!("{prefix}{path}"))
        .collect();
    // A campaign of no chapters (a folder misspelt, or not made yet) cannot be played.
    if maps.is_empty() {
        return Err(LevelError::NoMap(owner.files.shown(&folder)));
    }
    Ok(maps)
}

/// Whether `mode` plays the board at `map_path` (a path in its pack): its map, or a chapter
/// of its campaign.
fn plays_board(mode: &ModeSpec, map_path: &str) -> bool {
    if !mode.map.is_empty() {
        return mode.map == map_path;
    }
    let folder = mode.campaign.trim_end_matches('/');
    !folder.is_empty()
        && map_path
            .strip_prefix(folder)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|file| !file.contains('/'))
}

impl Level {
    /// What takes part in every game of the level besides the engine, by name: its scripts
    /// and its connotation lists (the reports of `simulate` and `balance` name them).
    pub fn taking_part(&self) -> Vec<String> {
        self.scripts
            .iter()
            .map(|s| s.name.clone())
            .chain(self.connotations.iter().map(|c| c.name.clone()))
            .collect()
    }
}

/// The mode `id` of the pack (its first when `id` is empty).
pub fn find_mode<'a>(manifest: &'a Manifest, id: &str) -> Result<&'a ModeSpec, LevelError> {
    let found = if id.is_empty() {
        manifest.modes.first()
    } else {
        manifest.mode(id)
    };
    found.ok_or_else(|| LevelError::UnknownMode {
        pack: manifest.id.clone(),
        mode: if id.is_empty() {
            "(any)".into()
        } else {
            id.into()
        },
        modes: if manifest.modes.is_empty() {
            "none (a content or library pack is played through a mode of another)".into()
        } else {
            manifest
                .modes
                .iter()
                .map(|m| m.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        },
    })
}

/// The pack and path a reference names, seen from the file `from_file` of pack `from`: a path
/// relative to that file's folder inside `from`, or `ID:path` from the root of a pack the
/// level loads.
fn locate<'a>(
    packs: &[&'a Pack],
    from: &'a Pack,
    from_file: &str,
    reference: &str,
) -> Result<(&'a Pack, String), LevelError> {
    let shown = from.files.shown(from_file);
    let bad_path = |problem: String| {
        LevelError::File(LoadError::one(crate::diag::FileError::whole(
            &shown, problem,
        )))
    };
    match split_reference(reference) {
        (None, path) => Ok((
            from,
            super::files::relative_to(from_file, path).map_err(bad_path)?,
        )),
        (Some(id), path) => {
            if let Some(problem) = super::files::path_problem(path) {
                return Err(bad_path(problem));
            }
            packs
                .iter()
                .find(|p| p.id() == id)
                .map(|p| (*p, path.to_string()))
                .ok_or_else(|| LevelError::NotLoaded {
                    file: shown.clone(),
                    reference: reference.to_string(),
                    pack: id.to_string(),
                })
        }
    }
}

/// The pack `id` among those resolved.
fn the_pack<'a>(packs: &[&'a Pack], id: &str) -> Result<&'a Pack, LevelError> {
    packs.iter().find(|p| p.id() == id).copied().ok_or_else(|| {
        LevelError::Resolve(ResolveError::Unknown {
            id: id.to_string(),
            hint: String::new(),
        })
    })
}

/// The path of the file `path` inside the pack folder `root` (`maps/x.ron`).
fn pack_path(root: &Path, path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    absolute
        .strip_prefix(root)
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default()
}

/// The map's own rule set.
fn map_rules(map: &Map) -> Result<RuleSet, LevelError> {
    map.rule_set().map_err(|problems| {
        let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
        LevelError::Setting(format!(
            "the map's rules do not make sense:\n{}",
            text.join("\n")
        ))
    })
}

/// The extension packs `ticked` for `mode` of `pack`, in load order; an error names one that
/// is not an extension or does not fit the mode.
fn ticked_extensions<'a>(
    packs: &[&'a Pack],
    pack: &Pack,
    mode: &ModeSpec,
    ticked: &[String],
) -> Result<Vec<&'a Pack>, LevelError> {
    let mut extensions = Vec::new();
    for loaded in packs.iter().filter(|p| ticked.iter().any(|t| t == p.id())) {
        let Some(spec) = &loaded.manifest.extension else {
            return Err(LevelError::Setting(format!(
                "pack `{}` is not an extension (its pack.ron has no `extension`): it cannot be \
                 added to a game",
                loaded.id()
            )));
        };
        if !spec.fits(pack.id(), &mode.id) {
            return Err(LevelError::Setting(format!(
                "extension `{}` fits {}, not mode `{}:{}`",
                loaded.id(),
                spec.modes.join(", "),
                pack.id(),
                mode.id
            )));
        }
        extensions.push(*loaded);
    }
    Ok(extensions)
}

/// The rest of a pack level once its map and rules are known: the mode's scripts, the map's
/// and the extensions', every loaded pack's connotation lists, the tileset, what to watch.
fn assemble(
    packs: &[&Pack],
    pack: &Pack,
    (map_pack, map_path): (&Pack, &str),
    map: Map,
    (rules, rules_read): (RuleSet, Option<Read>),
    (mode_scripts, extensions): (&[String], &[&Pack]),
) -> Result<Level, LevelError> {
    let mut scripts = Vec::new();
    let mut unreadable = Vec::new();
    let mut used: Vec<Read> = vec![(map_pack.id().to_string(), map_path.to_string())];
    used.extend(rules_read);
    let extension_scripts = extensions.iter().flat_map(|ext| {
        let names = ext.manifest.extension.iter().flat_map(|e| &e.scripts);
        names.map(move |script| ((*ext, super::MANIFEST_FILE), script))
    });
    let named = mode_scripts
        .iter()
        .map(|script| ((pack, super::MANIFEST_FILE), script))
        .chain(
            map.scripts
                .iter()
                .map(|script| ((map_pack, map_path), script)),
        )
        .chain(extension_scripts);
    for (from, script) in named {
        read_script(
            packs,
            (from, pack),
            script,
            (&mut scripts, &mut unreadable, &mut used),
        )?;
    }
    let mut connotations = Vec::new();
    for loaded in packs {
        for (path, list) in pack_connotations(&loaded.files)? {
            used.push((loaded.id().to_string(), path));
            connotations.push(list);
        }
    }
    let tileset = match map.tileset.as_str() {
        "" => None,
        reference => {
            let (owner, path) = locate(packs, map_pack, map_path, reference)?;
            used.push((owner.id().to_string(), path.clone()));
            Some(TilesetRef {
                files: owner.files.clone(),
                path,
            })
        }
    };
    let root = pack.files.folder();
    let watch = Watched {
        dir: root.map(Path::to_path_buf),
        map_file: None,
        rules_file: None,
        connotation_files: connotations
            .iter()
            .filter(|c| root.is_some_and(|root| c.file.starts_with(root)))
            .map(|c| c.file.clone())
            .collect(),
    };
    Ok(Level {
        title: map.name.clone(),
        map,
        rules,
        pack: pack.id().to_string(),
        scripts,
        unreadable,
        connotations,
        tileset,
        watch,
        records: super::record::records(packs, &used)?,
        settings: Vec::new(),
        declared: std::collections::BTreeMap::new(),
        strings: crate::save::StringTables::new(),
    })
}

/// The mode's rule set: a file (`rules/x.ron`, `core:rules/x.ron`), a pack's named rule set
/// (`core:classic` is core's `rules/classic.ron`) with the map's overrides over it, or the
/// map's own.
fn mode_rules(
    packs: &[&Pack],
    pack: &Pack,
    mode: &ModeSpec,
    map: &Map,
) -> Result<(RuleSet, Option<Read>), LevelError> {
    if mode.rules.is_empty() {
        return Ok((map_rules(map)?, None));
    }
    let (owner, path) = match split_reference(&mode.rules) {
        // `core:classic` names a rule set by name; `core:rules/x.ron` a file.
        (Some(id), name) if !name.contains('/') && !name.ends_with(".ron") => {
            let (owner, _) = locate(packs, pack, super::MANIFEST_FILE, &format!("{id}:rules"))?;
            (owner, format!("rules/{name}.ron"))
        }
        _ => locate(packs, pack, super::MANIFEST_FILE, &mode.rules)?,
    };
    let shown = owner.files.shown(&path);
    let mut rules = RuleSet::from_file_text(&shown, &owner.files.read_text(&path)?)?;
    // The map tunes the mode's rules: its overrides go over the mode's rule set.
    rules.overlay(&map.rules.overrides);
    Ok((rules, Some((owner.id().to_string(), path))))
}

/// A file a level read: its pack's id and its path there.
pub(crate) type Read = (String, String);

/// Refuses rules that seat more or fewer players than the mode offers a game to.
fn require_seats_of(mode: &ModeSpec, rules: &RuleSet) -> Result<(), LevelError> {
    let (least, most) = mode.seats;
    let seated = rules.seats.count;
    if (i64::from(least)..=i64::from(most)).contains(&seated) {
        return Ok(());
    }
    Err(LevelError::Setting(format!(
        "mode `{}` is for {least} to {most} players, but its rules seat {seated} (seats.count); choose another number of players, or another mode",
        mode.id
    )))
}

/// How `manifest` declares each of its settings, by id.
fn declarations(
    manifest: &Manifest,
    settings: &[(String, SettingValue)],
) -> std::collections::BTreeMap<String, crate::save::SettingKind> {
    // The platform's settings every mode has are declared where the game sets them, so that
    // a game that sets none saves as it always did.
    let set = |id: &str| settings.iter().any(|(s, _)| s == id);
    manifest
        .offered_settings()
        .into_iter()
        .filter(|s| manifest.settings.iter().any(|own| own.id == s.id) || set(&s.id))
        .map(|s| (s.id, s.kind))
        .collect()
}

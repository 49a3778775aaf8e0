//! Making a new pack: a folder that plays as it is (a manifest depending on core, one mode on
//! one map, its scripts, a README), from core's tutorial map or from a map being edited.

use crate::diag::{FileError, LoadError};
use crate::map::Map;
use crate::{MANIFEST_FILE, Manifest, ModeSpec};
use std::path::{Path, PathBuf};

/// The map a new pack is made around, with the text of each script it names (by the name the
/// map gives it) and where its tileset is.
#[derive(Clone, Debug)]
pub struct Seed {
    /// The map.
    pub map: Map,
    /// Its scripts: (the name the map gives, the text).
    pub scripts: Vec<(String, String)>,
    /// Its tileset: another pack's (`core:tilesets/stone/tileset.ron`), or none.
    pub tileset: String,
    /// The pack's first scenario (`tests/first.ron`): `GREETED_SCENARIO` for a pack made from
    /// nothing, `FIRST_TURN_SCENARIO` for one made around a map whose scripts are the author's.
    pub scenario: String,
}

/// What `make` made.
#[derive(Clone, Debug)]
pub struct Made {
    /// The pack's folder.
    pub folder: PathBuf,
    /// Its map file.
    pub map: PathBuf,
}

/// The greeting script of a pack made from nothing.
const FIRST_SCRIPT: &str =
    "-- Runs in every game of this pack's map. Every function and event is in types/scryptic.lua
-- (your editor reads it through .luarc.json; `scryptic script types` writes it anew).
scryptic.on(\"game_start\", function(game)
    game:message(\"Welcome: grow your crossword to the neutral town.\")
end)
";

/// What a new pack's first scenario checks: the greeting is told, and a turn passes.
pub const GREETED_SCENARIO: &str =
    "// A scenario: `scryptic pack test` plays it with the pack's scripts taking part.
// `Do` a command as `scryptic play` takes it, `Refuse` one (with the refusal expected),
// `Expect` what must hold.
(
    title: \"The players are welcomed\",
    steps: [
        Expect((messages: [\"Welcome\"], active: Gold)),
        Do(\"end\"),
        Expect((active: Silver)),
    ],
)
";

/// A first scenario for any map: the game starts, and the first player's turn passes.
pub const FIRST_TURN_SCENARIO: &str =
    "// A scenario: `scryptic pack test` plays it with the pack's scripts taking part.
// `Do` a command as `scryptic play` takes it, `Refuse` one (with the refusal expected),
// `Expect` what must hold: here, that the game starts and a turn can be passed.
(
    title: \"The first turn passes\",
    steps: [
        Expect((over: false)),
        Do(\"end\"),
        Expect((over: false)),
    ],
)
";

/// Editor settings for Lua (LuaLS, EmmyLua): the sandbox's library, the API's globals, and
/// the definitions in `types/`.
pub const LUARC: &str = r#"{
    "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
    "runtime.version": "Lua 5.4",
    "runtime.builtin": {
        "io": "disable",
        "os": "disable",
        "package": "disable",
        "debug": "disable"
    },
    "diagnostics.globals": ["scryptic", "storage"],
    "diagnostics.disable": ["lowercase-global"],
    "workspace.library": ["types"],
    "workspace.checkThirdParty": false
}
"#;

/// What a new pack's archive leaves out: the author's tooling.
const PACKIGNORE: &str =
    "# Files `scryptic pack zip` leaves out of the archive, one pattern a line:
# a name (anywhere), a folder/ (and all in it), or a path from here; * and ? as in a shell.
.luarc.json
types/
";

/// Core's tutorial map with a greeting script and core's tileset: what `pack new` starts from.
pub fn tutorial_seed(id: &str) -> Result<Seed, LoadError> {
    let core = crate::core()?;
    let mut map = Map::from_text(
        &core.files.shown("maps/tutorial.ron"),
        &core.files.read_text("maps/tutorial.ron")?,
    )?;
    map.name = format!("{id}: first map");
    Ok(Seed {
        map,
        scripts: vec![("main.lua".into(), FIRST_SCRIPT.into())],
        tileset: "core:tilesets/stone/tileset.ron".into(),
        scenario: GREETED_SCENARIO.into(),
    })
}

/// Makes pack `id` in `dir` (as `dir/ID`) around `seed`: written beside and renamed, so that a
/// failure leaves nothing; refused if `dir/ID` exists.
/// `definitions` are the scripting API's LuaLS definitions, written to `types/scryptic.lua`
/// for the author's editor (and left out of the pack's archive by its `.packignore`).
pub fn make(id: &str, dir: &Path, seed: Seed, definitions: &str) -> Result<Made, LoadError> {
    if let Some(problem) = crate::manifest::id_problem(id) {
        return Err(LoadError::one(FileError::whole(dir, problem)));
    }
    let folder = dir.join(id);
    if folder.exists() {
        return Err(LoadError::one(FileError::whole(
            &folder,
            "already exists: choose another id or folder",
        )));
    }
    std::fs::create_dir_all(dir).map_err(crate::archive::io_at(dir))?;
    let staging = crate::archive::staging_in(dir, &format!("{id}-new"))?;
    for (path, text) in files(id, seed, definitions)? {
        crate::archive::write_file(staging.path(), &path, text.as_bytes())?;
    }
    std::fs::rename(staging.keep(), &folder).map_err(crate::archive::io_at(&folder))?;
    Ok(Made {
        map: folder.join("maps/first.ron"),
        folder,
    })
}

/// The new pack's files: its manifest (depending on core), the map as `maps/first.ron` naming
/// its scripts in `scripts/` and its tileset, the scripts, a scenario, a README, and the
/// author's tooling (`.luarc.json`, `types/`, `.packignore`).
fn files(id: &str, seed: Seed, definitions: &str) -> Result<Vec<(String, String)>, LoadError> {
    let core = crate::core()?;
    let mut map = seed.map;
    let mut files = Vec::new();
    map.scripts.clear();
    for (name, text) in seed.scripts {
        let file = name.rsplit('/').next().unwrap_or_default().to_string();
        let path = format!("scripts/{file}");
        if let Some(problem) = crate::files::path_problem(&path) {
            return Err(LoadError::one(FileError::whole(Path::new(&name), problem)));
        }
        if files.iter().any(|(p, _)| *p == path) {
            return Err(LoadError::one(FileError::whole(
                Path::new(&name),
                format!("two of the map's scripts are called {file}: rename one first"),
            )));
        }
        map.scripts.push(format!("../{path}"));
        files.push((path, text));
    }
    map.tileset = seed.tileset;
    let mut manifest = Manifest::new_pack(id, id);
    let req = semver::VersionReq::parse(&format!("^{}", core.manifest.version.major))
        .unwrap_or(semver::VersionReq::STAR);
    manifest.depends.insert("core".into(), req);
    manifest.modes.push(ModeSpec {
        id: "standard".into(),
        title: map.name.clone(),
        description: String::new(),
        seats: (2, 2),
        rules: String::new(),
        map: "maps/first.ron".into(),
        campaign: String::new(),
        scripts: Vec::new(),
    });
    let readme = format!(
        "# {id}\n\nA Scryptic pack. `pack.ron` says what it is; `maps/first.ron` is its board, \
         `scripts/` its Lua and `tests/` its scenarios.\nPlay it with `scryptic play --pack {id}` \
         (from the folder that holds it), check it with `scryptic pack check {id}`, test it with \
         `scryptic pack test {id}` and share it with `scryptic pack zip {id}`.\n\n\
         `.luarc.json` gives a Lua editor (LuaLS, EmmyLua) the scripting API from \
         `types/scryptic.lua`; after updating Scryptic, `scryptic script types` (run here) writes \
         it anew. `.packignore` keeps both out of the archive.\n"
    );
    files.push((MANIFEST_FILE.into(), manifest.to_ron()));
    files.push(("maps/first.ron".into(), map.to_ron()));
    files.push(("tests/first.ron".into(), seed.scenario));
    files.push(("README.md".into(), readme));
    files.push((".luarc.json".into(), LUARC.into()));
    files.push(("types/scryptic.lua".into(), definitions.into()));
    files.push((crate::ignore::IGNORE_FILE.into(), PACKIGNORE.into()));
    Ok(files)
}

//! The loaders' fuzz targets, shared by the coverage-guided fuzzers in `fuzz/` (libFuzzer,
//! run by hand) and the seeded mutation test that CI runs (`tests/tests/fuzz.rs`).
//!
//! Each target takes any bytes as a file a stranger could hand us, loads it the way the
//! runtime does, and when it loads, uses it: a map is validated and played, a save replayed, a
//! rule set played with. A target must never panic, abort or allocate without bound, whatever
//! the bytes; a load error is the right answer to a bad file.

use crate::random_play::RandomPlayer;
use crate::root;
use rand::{Rng, RngExt};
use scryptic::ai::movegen::MoveGen;
use scryptic::game::Game;
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::rules::RuleSet;
use scryptic::save::SaveFile;
use scryptic::script::ScriptedGame;
use scryptic::tileset::Tileset;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A loader to fuzz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A map file.
    Map,
    /// A rule-set file.
    Rules,
    /// A saved game.
    Save,
    /// A word list (the dictionary, or a mod's extra words).
    WordList,
    /// A connotation list.
    Connotations,
    /// A tileset manifest (its images are the stone tileset's).
    Tileset,
    /// Scripts' storage, as a save or a campaign carries it.
    Storage,
    /// A pack's manifest (`pack.ron`).
    Manifest,
    /// A pack archive (`.zip`), as `pack install` and `pack check` unpack it.
    Archive,
    /// A pack's string table (`locale/en.ron`).
    Strings,
    /// A pack's scenario (`tests/*.ron`), as `pack test` plays it.
    Scenario,
    /// Online frames a stranger sends a server, one a line, played on a match of their own.
    Frames,
    /// A seat's view a stranger's server sends a client, rebuilt and shown as `join` does.
    View,
    /// A pack index (`index.json`) from a stranger's host, searched and planned from.
    Index,
    /// A release's signature file (`ZIP.sig`), read and verified.
    Signature,
    /// A pack's `.packignore`, read and asked about paths.
    PackIgnore,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 16] = [
        Target::Map,
        Target::Rules,
        Target::Save,
        Target::WordList,
        Target::Connotations,
        Target::Tileset,
        Target::Storage,
        Target::Manifest,
        Target::Archive,
        Target::Strings,
        Target::Scenario,
        Target::Frames,
        Target::View,
        Target::Index,
        Target::Signature,
        Target::PackIgnore,
    ];

    /// The target's name, as `fuzz/fuzz_targets/NAME.rs` and `tests/fuzz/NAME/` name it.
    pub fn name(self) -> &'static str {
        match self {
            Target::Map => "map",
            Target::Rules => "rules",
            Target::Save => "save",
            Target::WordList => "word_list",
            Target::Connotations => "connotations",
            Target::Tileset => "tileset",
            Target::Storage => "storage",
            Target::Manifest => "manifest",
            Target::Archive => "archive",
            Target::Strings => "strings",
            Target::Scenario => "scenario",
            Target::Frames => "frames",
            Target::View => "view",
            Target::Index => "index",
            Target::Signature => "signature",
            Target::PackIgnore => "packignore",
        }
    }

    /// Loads `bytes` as this kind of file and, if it loads, uses it; returns whether it
    /// loaded.
    pub fn run(self, bytes: &[u8]) -> bool {
        if self == Target::Archive {
            return archive(bytes);
        }
        let Ok(text) = scryptic::fsutil::text_from_bytes(Path::new("fuzz"), bytes.to_vec()) else {
            return false;
        };
        match self {
            Target::Map => map(&text),
            Target::Rules => rules(&text),
            Target::Save => save(&text),
            Target::WordList => word_list(&text),
            Target::Connotations => connotations(&text),
            Target::Tileset => tileset(&text),
            Target::Storage => storage(&text),
            Target::Manifest => manifest(&text),
            Target::Archive => archive(bytes),
            Target::Strings => strings(&text),
            Target::Scenario => scenario(&text),
            Target::Frames => scryptic::server::fuzzing::frames(&text) > 0,
            Target::View => view(&text),
            Target::Index => index(&text),
            Target::Signature => signature(&text),
            Target::PackIgnore => packignore(&text),
        }
    }

    /// The real files the mutations start from.
    pub fn seeds(self) -> Vec<PathBuf> {
        let root = root();
        match self {
            Target::Map => vec![
                root.join("maps/tutorial.ron"),
                root.join("packs/wending/campaigns/wending/1-the-ford.ron"),
                root.join("tests/scenarios/conquest-by-attack.ron"),
                root.join("tests/fuzz/map/seed-city-bonus.ron"),
            ],
            Target::Rules => vec![
                root.join("tests/fuzz/rules/seed-classic.ron"),
                root.join("tests/fuzz/rules/seed-gdd.ron"),
                root.join("tests/fuzz/rules/seed-long-racks.ron"),
                root.join("tests/fuzz/rules/seed-split-race.ron"),
                root.join("tests/rules/named-seats.ron"),
                root.join("tests/fuzz/rules/seed-simultaneous.ron"),
                root.join("packs/scryper/rules/scryper.ron"),
            ],
            Target::Save => vec![
                root.join("tests/golden/plains-15-midgame.ron"),
                root.join("tests/fuzz/save/seed-scripted.ron"),
                root.join("tests/fuzz/save/seed-match-round-2.ron"),
                root.join("tests/fuzz/save/seed-sudden-death.ron"),
                root.join("tests/fuzz/save/seed-simultaneous.ron"),
                root.join("tests/fuzz/save/seed-red-light.ron"),
                root.join("tests/fuzz/save/seed-table.ron"),
            ],
            Target::WordList => vec![root.join("lexicon/extra-words.txt")],
            Target::Connotations => vec![root.join("lexicon/connotations/burning.txt")],
            Target::Tileset => vec![
                stone_manifest(),
                root.join("tests/fuzz/tileset/seed-pieces.ron"),
            ],
            Target::Storage => vec![
                root.join("tests/fuzz/storage/seed-tagged.json"),
                root.join("tests/fuzz/storage/seed-plain.json"),
                root.join("tests/fuzz/storage/seed-packs.json"),
            ],
            Target::Archive => vec![root.join("tests/fuzz/archive/seed-wending.zip")],
            Target::Strings => vec![root.join("tests/fuzz/strings/seed-en.ron")],
            Target::Scenario => vec![
                root.join("packs/wending/tests/1-the-ford.ron"),
                root.join("packs/word-wars/tests/first-turns.ron"),
                root.join("packs/word-wars/tests/out-of-tiles.ron"),
                root.join("packs/word-wars/tests/match.ron"),
                root.join("packs/word-wars/tests/sudden-death-won.ron"),
                root.join("packs/lexicon-crossing/tests/word-list.ron"),
                root.join("packs/lexicon-crossing/tests/signals.ron"),
                root.join("packs/scryper/tests/battles.ron"),
            ],
            Target::Frames => vec![root.join("tests/fuzz/frames/seed-turns.jsonl")],
            Target::View => vec![
                root.join("tests/fuzz/view/seed-silver.json"),
                root.join("tests/fuzz/view/seed-spectator.json"),
            ],
            Target::Index => vec![root.join("tests/fuzz/index/seed-two-packs.json")],
            Target::Signature => vec![root.join("tests/fuzz/signature/seed.zip.sig")],
            Target::PackIgnore => vec![root.join("tests/fuzz/packignore/seed.packignore")],
            Target::Manifest => vec![
                root.join("packs/wending/pack.ron"),
                root.join("packs/lexicon-crossing/pack.ron"),
                root.join("packs/scryper/pack.ron"),
                root.join("crates/pack/core-pack/pack.ron"),
                root.join("tests/fuzz/manifest/seed-settings.ron"),
                root.join("tests/fuzz/manifest/seed-extension.ron"),
            ],
        }
    }

    /// Regression inputs kept under `tests/fuzz/NAME/` (every crash ever found, and seeds).
    pub fn regressions(self) -> Vec<PathBuf> {
        let dir = root().join("tests/fuzz").join(self.name());
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
    }
}

/// An index read as a player's commands read one, then searched and planned from (against the
/// built-in packs).
fn index(text: &str) -> bool {
    use scryptic::pack::index::{Index, parse_wanted, plan};
    let Ok(index) = Index::parse("fuzz", text) else {
        return false;
    };
    let _ = index.to_json();
    let _ = index.search(&["a".to_string()]);
    let (catalog, _) = scryptic::pack::Catalog::discover();
    let ids: Vec<String> = index.packs.iter().take(8).map(|p| p.id.clone()).collect();
    let indexes = [("fuzz".to_string(), index)];
    for id in ids {
        if let Ok(wanted) = parse_wanted(&id) {
            let _ = plan(&indexes, &[wanted], &catalog, true);
        }
    }
    true
}

/// A signature file read, then verified against a few bytes.
fn signature(text: &str) -> bool {
    use scryptic::pack::trust::{SignatureFile, verify};
    let Ok(signed) = SignatureFile::parse(Path::new("fuzz.zip.sig"), text) else {
        return false;
    };
    let _ = verify(b"archive", &signed.key, &signed.signature, "fuzz");
    true
}

/// A `.packignore` read, then asked about a few paths.
fn packignore(text: &str) -> bool {
    let Ok(ignore) = scryptic::pack::ignore::PackIgnore::parse(Path::new(".packignore"), text)
    else {
        return false;
    };
    for path in [
        "pack.ron",
        "types/scryptic.lua",
        "maps/a/b.ron",
        ".luarc.json",
    ] {
        let _ = ignore.leaves_out(path);
    }
    true
}

/// The built-in pack's first mode, whose views the `view` seeds are.
fn classic_level() -> &'static scryptic::pack::Level {
    static LEVEL: OnceLock<scryptic::pack::Level> = OnceLock::new();
    LEVEL.get_or_init(|| {
        let (catalog, _) = scryptic::pack::Catalog::discover();
        let choice = scryptic::pack::Choice {
            pack: "core".into(),
            mode: String::new(),
            chapter: 0,
            map: String::new(),
            set: Vec::new(),
            language: String::new(),
            extensions: Vec::new(),
        };
        scryptic::pack::Level::from_pack(&catalog, &choice).expect("the built-in pack plays")
    })
}

/// A view frame: read as a client reads it, the game rebuilt on its match's map and rules and
/// its status drawn as `join` draws it.
fn view(text: &str) -> bool {
    use scryptic::protocol::{MAX_SERVER_FRAME, ServerFrame};
    let Ok(ServerFrame::View(view)) =
        scryptic::protocol::read::<ServerFrame>(text, MAX_SERVER_FRAME)
    else {
        return false;
    };
    let level = classic_level();
    let Ok(game) = Game::from_snapshot(&level.map, level.rules.clone(), lexicon(), view.snapshot)
    else {
        return false;
    };
    // Used as a screen uses it: every seat's line, the board, the seat's own view of it.
    let _ = game.seen_by(Some(scryptic::Player::Gold));
    let _ = (game.scores(), game.words(), game.to_act(), game.prompt());
    let _ = scryptic::game::describe::describe_match(&game);
    for event in &view.events {
        let _ = event.shown_to(None);
    }
    true
}

/// An archive: written to a file and unpacked (into a folder of its own, which is removed);
/// if it unpacks, everything written is inside that folder and the pack opens or says why not.
/// Read in memory (as the browser reads a pack), it is taken or refused as unpacking it is,
/// with the same files.
fn archive(bytes: &[u8]) -> bool {
    let Ok(dir) = tempfile::tempdir() else {
        return false;
    };
    let zip = dir.path().join("fuzz.zip");
    if std::fs::write(&zip, bytes).is_err() {
        return false;
    }
    let in_memory = scryptic::pack::archive::read_in_memory(&zip, bytes);
    let Ok((staging, root)) = scryptic::pack::archive::unpack(&zip, dir.path()) else {
        assert!(in_memory.is_err(), "read in memory what does not unpack");
        return false;
    };
    assert!(
        root.starts_with(staging.path()),
        "unpacked inside its own folder"
    );
    let in_memory = in_memory.expect("what unpacks is read in memory too");
    if let Ok(pack) = scryptic::pack::Pack::open(&root) {
        assert_eq!(
            pack.files.all_files().ok(),
            in_memory.files.all_files().ok(),
            "the same files unpacked and in memory"
        );
    }
    true
}

/// A string table: if it loads, it is within a save's bounds and `scryptic.t` fills its texts.
fn strings(text: &str) -> bool {
    let Ok(table) = scryptic::pack::strings::string_table(Path::new("en.ron"), text) else {
        return false;
    };
    let tables = scryptic::save::StringTables::from([("fuzz".to_string(), table)]);
    assert!(scryptic::save::strings_problem(&tables).is_none());
    true
}

/// A pack's scenario: if it loads, its steps play on the tutorial map (each step a command
/// parsed and applied, or an expectation checked) to the end or to the first that fails.
fn scenario(text: &str) -> bool {
    static TUTORIAL: OnceLock<Map> = OnceLock::new();
    let Ok(scenario) = scryptic::scenario::PackScenario::parse(Path::new("test.ron"), text) else {
        return false;
    };
    let map = TUTORIAL.get_or_init(|| {
        Map::load(&root().join("maps/tutorial.ron")).expect("the tutorial map loads")
    });
    let Ok(rules) = map.rule_set() else {
        return true;
    };
    let mut game = Game::new(map, rules, lexicon(), scenario.seed);
    let _ = scryptic::scenario::run("fuzz", &scenario.steps, &mut game);
    true
}

/// A manifest: if it loads, it writes out as text that loads as the same manifest, its
/// settings' defaults are values they allow, and resolving it beside core ends in an order or
/// an error.
fn manifest(text: &str) -> bool {
    use scryptic::pack::{Catalog, Manifest, Pack, PackFiles};
    let Ok(manifest) = Manifest::parse(Path::new("pack.ron"), text) else {
        return false;
    };
    let again = Manifest::parse(Path::new("pack.ron"), &manifest.to_ron());
    assert_eq!(
        again.ok().as_ref(),
        Some(&manifest),
        "a written manifest loads the same"
    );
    for setting in &manifest.settings {
        assert!(setting.check(&setting.default_value()).is_ok());
    }
    let mut catalog = Catalog::default();
    if let Ok(core) = scryptic::pack::core() {
        let _ = catalog.add(core);
    }
    let id = manifest.id.clone();
    // (A fuzzed manifest named `core` is refused here, as on disk.)
    let _ = catalog.add(Pack {
        manifest,
        files: PackFiles::Folder(PathBuf::from("/nonexistent")),
    });
    let _ = catalog.resolve(&[id.as_str()]);
    true
}

/// Storage text: if the host takes it, it writes it out as text that it takes again and
/// writes out the same (the format round-trips exactly), and a script can read it all.
fn storage(text: &str) -> bool {
    let limits = scryptic::script::ScriptLimits::default();
    let Ok(mut host) = scryptic::script::ScriptHost::new(limits, 1) else {
        return false;
    };
    if host.set_storage_json(text).is_err() {
        return false;
    }
    let Ok(written) = host.storage_json() else {
        return true;
    };
    assert!(
        host.set_storage_json(&written).is_ok(),
        "written storage loads"
    );
    assert_eq!(
        host.storage_json().ok(),
        Some(written),
        "storage round-trips"
    );
    let walk = "local n = 0\n\
                local function walk(t, depth) for _, v in pairs(t) do n = n + 1\n\
                  if type(v) == 'table' then walk(v, depth + 1) end end end\n\
                walk(storage, 0)";
    let _ = host.load("walk.lua", walk);
    true
}

fn stone_manifest() -> PathBuf {
    root().join("tilesets/stone/tileset.ron")
}

fn lexicon() -> Arc<Lexicon> {
    static LEXICON: OnceLock<Arc<Lexicon>> = OnceLock::new();
    LEXICON.get_or_init(|| Arc::new(Lexicon::english())).clone()
}

/// The most cells of a board the targets play on: larger boards load and validate, but a
/// game on them would make each input slow without reaching new code.
const MOST_PLAYED_CELLS: u64 = 64 * 64;

/// Plays a few random legal actions and asks for every placement: the engine and the move
/// generator on whatever the file set up.
fn play(game: &mut Game, seed: u64) {
    let cells = u64::from(game.board().terrain.width()) * u64::from(game.board().terrain.height());
    if cells > MOST_PLAYED_CELLS {
        return;
    }
    let player = game.active();
    let rack = game.rack_letters(player);
    let _ = MoveGen::new().count(game, player, &rack);
    let mut chooser = RandomPlayer::new(seed);
    for _ in 0..12 {
        if game.result().is_some() {
            break;
        }
        let action = chooser.choose(game);
        let _ = game.apply(action);
    }
}

fn map(text: &str) -> bool {
    let Ok(map) = Map::from_text(Path::new("fuzz.ron"), text) else {
        return false;
    };
    let Ok(rules) = map.rule_set() else {
        return false;
    };
    let _ = scryptic::map::validate(&map, &rules, &Default::default());
    // Saving is canonical: what a loaded map saves loads, and saves as the same bytes.
    let saved = map.to_ron();
    let again = Map::from_text(Path::new("again.ron"), &saved).map(|m| m.to_ron());
    assert_eq!(
        again.ok(),
        Some(saved),
        "a map that loads saves canonically"
    );
    let mut game = Game::new(&map, rules, lexicon(), 7);
    play(&mut game, 7);
    true
}

/// A small map to play rule sets on.
fn small_map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| {
        Map::load(&root().join("maps/tutorial.ron")).expect("the tutorial map loads")
    })
}

fn rules(text: &str) -> bool {
    let Ok(rules) = RuleSet::from_file_text(Path::new("fuzz.ron"), text) else {
        return false;
    };
    let file: scryptic::rules::RuleFile =
        scryptic::ronfile::parse(Path::new("f"), text).expect("a rule-set file that loads parses");
    let shown = rules.to_rule_file_ron(&file.preset);
    assert_eq!(
        RuleSet::from_file_text(Path::new("shown.ron"), &shown).ok(),
        Some(rules.clone()),
        "a rule set that loads shows as a rule-set file that loads as itself"
    );
    let map = small_map();
    let fits = |side: u32| (rules.board.min_side..=rules.board.max_side).contains(&i64::from(side));
    if fits(map.width()) && fits(map.height()) {
        let mut game = Game::new(map, rules, lexicon(), 3);
        play(&mut game, 3);
    }
    true
}

fn save(text: &str) -> bool {
    let Ok(save) = scryptic::ronfile::parse::<SaveFile>(Path::new("fuzz.ron"), text) else {
        return false;
    };
    if !save.problems().is_empty() {
        return false;
    }
    let replayed = if save.scripts.is_empty() && save.storage.is_empty() {
        save.replay(lexicon(), Some(scryptic::ai::spy()))
            .ok()
            .map(|(game, _)| game)
    } else {
        ScriptedGame::from_save(&save, lexicon())
            .ok()
            .map(|(scripted, _)| scripted.game().clone())
    };
    let Some(mut game) = replayed else {
        return false;
    };
    let _ = SaveFile::of(&game).to_ron();
    play(&mut game, 5);
    true
}

fn word_list(text: &str) -> bool {
    let Ok((lexicon, _)) = Lexicon::from_word_list(Path::new("fuzz.txt"), text) else {
        return false;
    };
    let _ = lexicon.prefix("a", 5);
    let _ = lexicon.fuzzy("cat", 1, 5);
    let _ = lexicon.anagrams("retains", true, 5);
    true
}

fn connotations(text: &str) -> bool {
    let mut lexicon = (*lexicon()).clone();
    let loaded = lexicon
        .set_connotation_list("fuzzed", Path::new("fuzzed.txt"), text)
        .is_ok();
    if loaded {
        let _ = lexicon.connotations("swords");
    }
    loaded
}

fn tileset(text: &str) -> bool {
    let Ok(tileset) = Tileset::from_manifest_text(&stone_manifest(), text) else {
        return false;
    };
    let map = small_map();
    let rules = map.rule_set().expect("the tutorial's rules are sound");
    let _ = scryptic::render::render(
        map,
        &rules,
        Some(&tileset),
        &scryptic::render::RenderOptions {
            cell_px: Some(16),
            ..Default::default()
        },
    );
    true
}

/// Changes `bytes` in one, two or four random ways that real damage takes: bytes flipped, lost or
/// repeated, the file cut short, and numbers replaced by extremes (the kind that overflow
/// counts and sizes).
pub fn mutate(rng: &mut impl Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    // Mostly one change, so that much of what is made still loads and reaches the engine.
    let changes = [1, 1, 1, 2, 4][rng.random_range(0..5)];
    for _ in 0..changes {
        match rng.random_range(0..7) {
            0 => flip(rng, &mut out),
            1 => insert(rng, &mut out),
            2 => remove(rng, &mut out),
            3 => repeat(rng, &mut out),
            4 => {
                let keep = rng.random_range(0..=out.len());
                out.truncate(keep);
            }
            _ => extreme_number(rng, &mut out),
        }
    }
    out
}

fn flip(rng: &mut impl Rng, out: &mut [u8]) {
    if !out.is_empty() {
        let i = rng.random_range(0..out.len());
        out[i] ^= 1 << rng.random_range(0..8);
    }
}

fn insert(rng: &mut impl Rng, out: &mut Vec<u8>) {
    const PIECES: [&[u8]; 10] = [
        b"(",
        b")",
        b"[",
        b"]",
        b",",
        b"\"",
        b"'",
        b"\xEF\xBB\xBF",
        b"//",
        b"\n",
    ];
    let at = rng.random_range(0..=out.len());
    let piece = PIECES[rng.random_range(0..PIECES.len())];
    out.splice(at..at, piece.iter().copied());
}

fn remove(rng: &mut impl Rng, out: &mut Vec<u8>) {
    if !out.is_empty() {
        let start = rng.random_range(0..out.len());
        let end = (start + rng.random_range(1..=16)).min(out.len());
        out.drain(start..end);
    }
}

fn repeat(rng: &mut impl Rng, out: &mut Vec<u8>) {
    if !out.is_empty() {
        let start = rng.random_range(0..out.len());
        let end = (start + rng.random_range(1..=64)).min(out.len());
        let copy: Vec<u8> = out[start..end].to_vec();
        out.splice(end..end, copy);
    }
}

/// Replaces a number in the text by an extreme one.
fn extreme_number(rng: &mut impl Rng, out: &mut Vec<u8>) {
    const EXTREMES: [&str; 9] = [
        "0",
        "-1",
        "255",
        "256",
        "65536",
        "1000000000",
        "2147483648",
        "4600000000000000000",
        "1e308",
    ];
    let digits: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].is_ascii_digit())
        .collect();
    if digits.is_empty() {
        return;
    }
    let mut start = digits[rng.random_range(0..digits.len())];
    while start > 0 && out[start - 1].is_ascii_digit() {
        start -= 1;
    }
    let mut end = start;
    while end < out.len() && (out[end].is_ascii_digit() || out[end] == b'.') {
        end += 1;
    }
    let value = EXTREMES[rng.random_range(0..EXTREMES.len())];
    out.splice(start..end, value.bytes());
}

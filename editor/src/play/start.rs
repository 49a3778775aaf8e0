//! Starting a game from the Setup screen's choices: the map and its rules, scripts, connotation
//! lists and tileset found where a level keeps them, the live-modding watch set up, the seats
//! filled.

use super::session::{Seat, Session, load_save};
use super::setup::{Opponents, SetupForm, Source};
use crate::document::Document;
use scryptic::map::Map;
use scryptic::rules::RuleSet;
use scryptic::script::live::{LiveFiles, RulesFile, load_connotations};
use scryptic::script::{ScriptedGame, read_map_scripts};
use scryptic::{Player, lexicon::Lexicon};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A game ready to play, with the tileset its board is drawn with.
pub struct Started {
    /// The game.
    pub session: Session,
    /// The tileset manifest, if the map names one.
    pub tileset: Option<PathBuf>,
}

/// A level's files: the map (as loaded, or as open in the editor) and where things are.
struct Level {
    map: Map,
    map_path: Option<PathBuf>,
    dir: PathBuf,
    rules_file: Option<PathBuf>,
}

/// Starts the game `form` describes (`doc` is the map open in the editor).
pub fn start(form: &SetupForm, doc: &Document, lexicon: Arc<Lexicon>) -> Result<Started, String> {
    let seats = seats(form);
    if form.source == Source::Save {
        let path = PathBuf::from(form.path.trim());
        let game = load_save(&path, lexicon.clone())?;
        let tileset = tileset_path(&game.game().map().tileset, path.parent());
        let title = format!("{} (saved game)", game.game().map().name);
        let session = Session::new(game, lexicon, seats, LiveFiles::none(), title);
        return Ok(Started { session, tileset });
    }
    let level = find_level(form, doc)?;
    let rules_file = match form.rules_file.trim() {
        "" => level.rules_file.clone(),
        path => Some(PathBuf::from(path)),
    };
    let rules = match &rules_file {
        Some(path) => RuleSet::load(path).map_err(|e| e.problems().join("\n"))?,
        None => level.map.rule_set().map_err(|problems| {
            let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!("the map's rules do not make sense:\n{}", text.join("\n"))
        })?,
    };
    let (sources, unreadable) = read_map_scripts(&level.dir, &level.map.scripts);
    let (mut game, errors) =
        ScriptedGame::start(&level.map, rules, lexicon.clone(), form.seed, sources, None)
            .map_err(|e| e.to_string())?;
    let connotations_dir = level.dir.join("connotations");
    let connotations = if connotations_dir.is_dir() {
        load_connotations(&mut game, &connotations_dir).map_err(|e| e.to_string())?
    } else {
        Vec::new()
    };
    let rules_source = match rules_file {
        Some(path) => Some(RulesFile::RuleSet(path)),
        None => level.map_path.clone().map(RulesFile::Map),
    };
    let live = LiveFiles::new(&game, &level.dir, rules_source, connotations);
    let tileset = tileset_path(&level.map.tileset, Some(&level.dir));
    let mut session = Session::new(game, lexicon, seats, live, level.map.name.clone());
    session.hide_racks = form.hide_racks && form.opponents == Opponents::HotSeat;
    session.rack_hidden = session.hide_racks;
    session.console.extend(
        unreadable
            .iter()
            .chain(&errors)
            .map(|e| format!("error: {e}")),
    );
    Ok(Started { session, tileset })
}

fn seats(form: &SetupForm) -> [Seat; 2] {
    match form.opponents {
        Opponents::HotSeat => [Seat::Human, Seat::Human],
        Opponents::AiVersusAi => form.levels.map(Seat::Ai),
        Opponents::VersusAi => match form.human {
            Player::Gold => [Seat::Human, Seat::Ai(form.levels[1])],
            Player::Silver => [Seat::Ai(form.levels[0]), Seat::Human],
        },
    }
}

fn tileset_path(tileset: &str, dir: Option<&Path>) -> Option<PathBuf> {
    (!tileset.is_empty()).then(|| dir.unwrap_or(Path::new(".")).join(tileset))
}

fn find_level(form: &SetupForm, doc: &Document) -> Result<Level, String> {
    let path = PathBuf::from(form.path.trim());
    match form.source {
        Source::OpenMap => Ok(Level {
            map: doc.map.clone(),
            map_path: doc.path.clone(),
            dir: doc
                .path
                .as_ref()
                .and_then(|p| p.parent())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            rules_file: None,
        }),
        Source::MapFile => load_level_map(&path, None),
        Source::Folder => level_in_folder(&path),
        Source::Save => Err("a saved game is not a level".into()),
    }
}

fn load_level_map(path: &Path, rules_file: Option<PathBuf>) -> Result<Level, String> {
    let map = Map::load(path).map_err(|e| e.problems().join("\n"))?;
    Ok(Level {
        map,
        map_path: Some(path.to_path_buf()),
        dir: path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        rules_file,
    })
}

/// The level in `folder`: its map is the `.ron` file that loads as a map (the first by name,
/// if several); `rules.ron` beside it, if present, is its rule set.
fn level_in_folder(folder: &Path) -> Result<Level, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| format!("{}: cannot read the folder: {e}", folder.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let rules = folder.join("rules.ron");
    let rules_file = rules.is_file().then_some(rules.clone());
    let mut problems = Vec::new();
    for file in files.iter().filter(|f| **f != rules) {
        match load_level_map(file, rules_file.clone()) {
            Ok(level) => return Ok(level),
            Err(e) => problems.push(e),
        }
    }
    Err(if problems.is_empty() {
        format!(
            "{} holds no map (a level folder holds a map's .ron file, its scripts, a \
             connotations/ folder and optionally rules.ron)",
            folder.display()
        )
    } else {
        problems.join("\n")
    })
}

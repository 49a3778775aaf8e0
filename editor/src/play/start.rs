//! Starting a game from the Setup screen's choices: the map and its rules, scripts, connotation
//! lists and tileset found where a level keeps them, the live-modding watch set up, the seats
//! filled.

use super::here::{Here, LocalSeat};
use super::referee::load_save;
use super::session::Session;
use super::setup::{Opponents, SetupForm, Source};
use crate::document::Document;
use scryptic::Player;
use scryptic::lexicon::Lexicon;
use scryptic::pack::{Level, TilesetRef};
use scryptic::script::ScriptedGame;
use scryptic::script::live::LiveFiles;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A game ready to play, with the tileset its board is drawn with.
pub struct Started {
    /// The game.
    pub session: Session,
    /// The tileset, if the map names one.
    pub tileset: Option<TilesetRef>,
}

/// Starts the game `form` describes (`doc` is the map open in the editor).
pub fn start(form: &SetupForm, doc: &Document, lexicon: Arc<Lexicon>) -> Result<Started, String> {
    if form.source == Source::Save {
        let path = PathBuf::from(form.path.trim());
        let (game, events) = load_save(&path, lexicon.clone())?;
        scryptic::ai::warm_spy(game.game());
        let departure = game.departure().map(|d| format!("warning: {d}"));
        let seats = seats(form, game.game().rules())?;
        let tileset = scryptic::pack::level::map_tileset(
            Some(&path),
            &game.game().map().tileset,
            &crate::catalog(),
        );
        let title = format!("{} (saved game)", game.game().map().name);
        let mut session = Here::new(game, seats, LiveFiles::none()).session(title);
        cover_racks_as_asked(&mut session, form);
        // The event log comes back with the game: what happened before the save is there.
        session.restore_log(&events);
        // A replay that departs from the saved game says where, in the console.
        session.console.extend(departure);
        return Ok(Started { session, tileset });
    }
    let level = find_level(form, doc).map_err(|e| e.to_string())?;
    let seats = seats(form, &level.rules)?;
    let lexicon = own_word_list(form)?.unwrap_or(lexicon);
    let (game, problems) = ScriptedGame::start_level(&level, lexicon.clone(), form.seed, None)
        .map_err(|e| e.to_string())?;
    scryptic::ai::warm_spy(game.game());
    let live = LiveFiles::for_level(&game, &level);
    let mut session = Here::new(game, seats, live).session(level.title.clone());
    cover_racks_as_asked(&mut session, form);
    session
        .console
        .extend(problems.iter().map(|e| format!("error: {e}")));
    Ok(Started {
        session,
        tileset: level.tileset,
    })
}

/// Covers the racks between turns when the Setup screen asks (hot-seat only), for a new game
/// and a loaded one alike.
fn cover_racks_as_asked(session: &mut Session, form: &SetupForm) {
    session.hide_racks = form.hide_racks && form.opponents == Opponents::HotSeat;
    session.rack_hidden = session.hide_racks;
}

/// The player's own word list the form names, read (none: the dictionary).
fn own_word_list(form: &SetupForm) -> Result<Option<Arc<Lexicon>>, String> {
    let path = form.words.trim();
    if path.is_empty() {
        return Ok(None);
    }
    let (lexicon, _) =
        Lexicon::open_word_list(std::path::Path::new(path)).map_err(|e| e.problems().join("\n"))?;
    Ok(Some(Arc::new(lexicon)))
}

/// Who sits in each of the rules' seats, as the form says: everyone a person (hot-seat),
/// every seat an AI, or the form's person against AIs (gold's level for gold, the other
/// level for every other seat). Games of turns for more than two play at the terminal.
fn seats(form: &SetupForm, rules: &scryptic::rules::RuleSet) -> Result<Vec<LocalSeat>, String> {
    let count = usize::try_from(rules.seats.count).unwrap_or(2);
    if count > 2 && !rules.flow.simultaneous {
        return Err(format!(
            "these rules seat {count} players in turns; the editor plays turns for two: play it at the terminal (scryptic play)"
        ));
    }
    let ai_of = |i: usize| {
        let side = usize::from(i > 0);
        LocalSeat::Ai(form.levels[side], form.thinks[side])
    };
    Ok((0..count)
        .map(|i| match form.opponents {
            Opponents::HotSeat => LocalSeat::Human,
            Opponents::AiVersusAi => ai_of(i),
            Opponents::VersusAi if Player::seat(i) == Some(form.human) => LocalSeat::Human,
            Opponents::VersusAi => ai_of(i),
        })
        .collect())
}

/// The level the form names: the map open in the editor, a map file or a level folder (the
/// rule-set file the form names, if any, replacing the level's rules).
fn find_level(form: &SetupForm, doc: &Document) -> Result<Level, scryptic::pack::LevelError> {
    let path = PathBuf::from(form.path.trim());
    let rules_file = match form.rules_file.trim() {
        "" => None,
        file => Some(PathBuf::from(file)),
    };
    let catalog = &*crate::catalog();
    let level = match form.source {
        Source::OpenMap => Level::from_map(
            doc.map.clone(),
            doc.path.as_deref(),
            rules_file.as_deref(),
            catalog,
        ),
        Source::MapFile => Level::from_map_file(&path, rules_file.as_deref(), catalog),
        Source::Folder => Level::from_folder(&path, catalog),
        Source::Pack => Level::from_pack(
            catalog,
            &scryptic::pack::Choice {
                pack: form.pack.clone(),
                mode: form.mode.clone(),
                chapter: form.chapter,
                set: form.settings_typed(),
                language: scryptic::pack::strings::system_language(),
                extensions: form.extensions.clone(),
                ..Default::default()
            },
        ),
        Source::Save => unreachable_save(),
    }?;
    match (&rules_file, form.source) {
        (Some(file), Source::Folder) => with_rules(level, file),
        _ => Ok(level),
    }
}

/// A saved game is started by `load_save`, never as a level.
fn unreachable_save() -> Result<Level, scryptic::pack::LevelError> {
    Err(scryptic::pack::LevelError::Setting(
        "a saved game is not a level".into(),
    ))
}

/// `level` with the rule set of `file` instead of its own.
fn with_rules(mut level: Level, file: &Path) -> Result<Level, scryptic::pack::LevelError> {
    level.rules = scryptic::RuleSet::load(file)?;
    level.watch.rules_file = Some(file.to_path_buf());
    level.watch.map_file = None;
    Ok(level)
}

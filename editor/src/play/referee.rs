//! Saving and loading games in the editor, whichever referee plays them: a game here is saved
//! with its scripts' state; a match on a server is saved from the server's whole log.

use super::here::EditorSession;
use scryptic::game::Event;
use scryptic::lexicon::Lexicon;
use scryptic::save::SaveFile;
use scryptic::script::ScriptedGame;
use scryptic_play::Session;
use std::path::Path;
use std::sync::Arc;

/// Saves the game `session` shows (atomically). Online, the server's whole log is saved, once
/// the match is over and where it allows that.
pub fn save_session(session: &Session, path: &Path) -> Result<(), String> {
    let cannot = |e: &dyn std::fmt::Display| format!("cannot save {}: {e}", path.display());
    if let Some(here) = session.here() {
        let mut save = here.scripted().save();
        // The map's tileset was named from the map's folder; the save may be elsewhere.
        let named = here.tileset.as_ref().and_then(|tileset| {
            let catalog = crate::catalog();
            scryptic::pack::level::tileset_reference_from(path, tileset, &catalog)
        });
        if let Some(reference) = named {
            save.map.tileset = reference;
        }
        return save.save(path).map_err(|e| cannot(&e));
    }
    let Some(seat) = session.remote() else {
        return Err(cannot(&"the game is played nowhere the editor knows"));
    };
    let text = seat.save_text().map_err(|e| cannot(&e))?;
    scryptic::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| cannot(&e))
}

/// Loads a saved game, with every event its replay made (the log the game had): with
/// `lexicon`, unless the save was played with a player's own word list, which is read again.
pub fn load_save(path: &Path, lexicon: Arc<Lexicon>) -> Result<(ScriptedGame, Vec<Event>), String> {
    let save = SaveFile::load(path).map_err(|e| e.problems().join("\n"))?;
    let lexicon = match &save.words {
        None => lexicon,
        Some(words) => Arc::new(
            Lexicon::for_save(Some(words)).map_err(|e| format!("{}: {e}", path.display()))?,
        ),
    };
    ScriptedGame::from_save(&save, lexicon).map_err(|e| format!("{}: {e}", path.display()))
}

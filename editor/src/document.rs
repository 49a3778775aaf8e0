//! The map being edited: its file, its history, whether it has unsaved changes, and its
//! autosave. Every change to the map goes through here, so that it can be undone.

use crate::history::{History, Objects, Step};
use scryptic::{Map, Pos, Terrain};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A terrain stroke in progress: the cells changed so far, each with its first "before".
#[derive(Debug, Default)]
struct Stroke {
    label: String,
    cells: Vec<(u32, Terrain, Terrain)>,
    /// Index into `cells` of each map cell touched, or `u32::MAX`.
    touched: Vec<u32>,
}

/// An open map.
#[derive(Debug)]
pub struct Document {
    /// The map as it is now.
    pub map: Map,
    /// Where it was opened from or last saved to; `None` until the first save.
    pub path: Option<PathBuf>,
    /// The file's text as it was opened or last saved, whose `//` comments a save keeps.
    source: Option<String>,
    history: History,
    stroke: Option<Stroke>,
    /// Counts changes (edits, undos, redos): views redraw and validation reruns when it moves.
    generation: u64,
    saved_generation: u64,
    autosaved_generation: u64,
    /// The map as it was opened or last saved: undoing back to it leaves nothing unsaved.
    saved_map: Map,
    /// Whether the map differs from `saved_map`, as last worked out, and at which generation
    /// (the title asks every frame; the maps are compared once per change).
    dirty_at: std::cell::Cell<Option<(u64, bool)>>,
}

impl Default for Document {
    fn default() -> Document {
        Document::new(Map::new("untitled", 24, 24))
    }
}

impl Document {
    /// A new, never saved document holding `map`.
    pub fn new(map: Map) -> Document {
        Document {
            saved_map: map.clone(),
            dirty_at: std::cell::Cell::new(None),
            map,
            path: None,
            source: None,
            history: History::default(),
            stroke: None,
            generation: 0,
            saved_generation: 0,
            autosaved_generation: 0,
        }
    }

    /// Opens a map file; the error is the loader's message, with file:line:column.
    pub fn open(path: &Path) -> Result<Document, String> {
        let text = scryptic::fsutil::read_text(path).map_err(|e| e.to_string())?;
        let map = Map::from_text(path, &text).map_err(|e| e.to_string())?;
        let mut doc = Document::new(map);
        doc.path = Some(path.to_path_buf());
        doc.source = Some(text);
        Ok(doc)
    }

    /// The change counter.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Whether there are changes not saved to the file: the map differs from the file's (a
    /// change undone, or painted over back to what it was, is no change).
    pub fn is_dirty(&self) -> bool {
        if self.generation == self.saved_generation {
            return false;
        }
        if let Some((generation, dirty)) = self.dirty_at.get()
            && generation == self.generation
        {
            return dirty;
        }
        let dirty = self.map != self.saved_map;
        self.dirty_at.set(Some((self.generation, dirty)));
        dirty
    }

    /// The title for the window and the tabs: the file's name, or the map's, with a star when
    /// unsaved.
    pub fn title(&self) -> String {
        let name = self.path.as_ref().and_then(|p| p.file_name()).map_or_else(
            || self.map.name.clone(),
            |n| n.to_string_lossy().into_owned(),
        );
        if self.is_dirty() {
            format!("{name} *")
        } else {
            name
        }
    }

    /// Saves to the document's file (atomically); an error when it has none yet.
    pub fn save(&mut self) -> Result<PathBuf, String> {
        let path = self
            .path
            .clone()
            .ok_or_else(|| "the map has no file yet: use Save As".to_string())?;
        self.save_as(&path)?;
        Ok(path)
    }

    /// Saves to `path` (atomically) and makes it the document's file.
    pub fn save_as(&mut self, path: &Path) -> Result<(), String> {
        self.end_stroke();
        // Comments the designer wrote in the file stay when it is saved again (not when it is
        // saved as another file, whose own comments are not ours to place).
        let text = match (&self.source, &self.path) {
            (Some(source), Some(opened)) if opened == path => {
                self.map.to_ron_keeping_comments(source)
            }
            _ => self.map.to_ron(),
        };
        scryptic::fsutil::write_atomic(path, text.as_bytes())
            .map_err(|e| format!("{}: cannot save: {e}", path.display()))?;
        self.source = Some(text);
        // The saved file holds everything now: the autosave under the old name (an untitled
        // map's, or the file saved away from) and any stale one under the new name go.
        self.discard_recovery();
        self.path = Some(path.to_path_buf());
        self.discard_recovery();
        self.saved_generation = self.generation;
        self.autosaved_generation = self.generation;
        self.saved_map = self.map.clone();
        Ok(())
    }

    fn changed(&mut self) {
        self.generation += 1;
    }

    /// Starts a stroke: terrain painted until [`Document::end_stroke`] is one undo step.
    pub fn begin_stroke(&mut self, label: &str) {
        self.end_stroke();
        let cells = self.map.terrain.cells().len();
        self.stroke = Some(Stroke {
            label: label.to_string(),
            cells: Vec::new(),
            touched: vec![u32::MAX; cells],
        });
    }

    /// Paints `cells` with `terrain` as part of the current stroke (one is started if none is).
    /// Cells outside the map are skipped.
    pub fn paint(&mut self, cells: &[Pos], terrain: Terrain) {
        if self.stroke.is_none() {
            self.begin_stroke("paint");
        }
        let width = self.map.terrain.width();
        let Some(stroke) = self.stroke.as_mut() else {
            return;
        };
        let mut any = false;
        for &p in cells {
            let Some(&before) = self.map.terrain.get(p) else {
                continue;
            };
            if before == terrain {
                continue;
            }
            self.map.terrain.set(p, terrain);
            let i = p.y * width + p.x;
            match stroke.touched[i as usize] {
                u32::MAX => {
                    stroke.touched[i as usize] = stroke.cells.len() as u32;
                    stroke.cells.push((i, before, terrain));
                }
                k => stroke.cells[k as usize].2 = terrain,
            }
            any = true;
        }
        if any {
            self.changed();
        }
    }

    /// Ends the current stroke, making it one undo step.
    pub fn end_stroke(&mut self) {
        if let Some(stroke) = self.stroke.take() {
            let cells: Vec<_> = stroke.cells.into_iter().filter(|c| c.1 != c.2).collect();
            self.history.push(Step::terrain(stroke.label, cells));
        }
    }

    /// Paints `cells` as one undo step of its own (a fill, a rectangle, a line).
    pub fn paint_step(&mut self, label: &str, cells: &[Pos], terrain: Terrain) {
        self.begin_stroke(label);
        self.paint(cells, terrain);
        self.end_stroke();
    }

    /// Changes the map's objects (cities, tokens, cell values, rules, scripts, title) with
    /// `edit` as one undo step. `edit` answers whether it changed anything worth keeping.
    pub fn edit_objects<R>(&mut self, label: &str, edit: impl FnOnce(&mut Map) -> R) -> R {
        self.end_stroke();
        let before = Objects::of(&self.map);
        let result = edit(&mut self.map);
        let after = Objects::of(&self.map);
        if before != after {
            self.history.push(Step::objects(label, before, after));
            self.changed();
        }
        result
    }

    /// Replaces terrain and objects together as one step (a paste or a move of a region, a
    /// PNG import, a resize).
    pub fn edit_all(&mut self, label: &str, edit: impl FnOnce(&mut Map)) {
        self.end_stroke();
        let before_objects = Objects::of(&self.map);
        let before = self.map.terrain.clone();
        edit(&mut self.map);
        let same_size = before.width() == self.map.terrain.width()
            && before.height() == self.map.terrain.height();
        let step = if same_size {
            let cells: Vec<_> = before
                .cells()
                .iter()
                .zip(self.map.terrain.cells())
                .enumerate()
                .filter(|(_, (b, a))| b != a)
                .map(|(i, (&b, &a))| (i as u32, b, a))
                .collect();
            Step::terrain(label, cells)
        } else {
            Step::resized(label, before, self.map.terrain.clone())
        };
        let step = step.with_objects(before_objects, Objects::of(&self.map));
        if !step.is_empty() {
            self.history.push(step);
            self.changed();
        }
    }

    /// Undoes the last step; its label.
    pub fn undo(&mut self) -> Option<String> {
        self.end_stroke();
        let label = self.history.undo(&mut self.map)?;
        self.changed();
        Some(label)
    }

    /// Redoes the last undone step; its label.
    pub fn redo(&mut self) -> Option<String> {
        self.end_stroke();
        let label = self.history.redo(&mut self.map)?;
        self.changed();
        Some(label)
    }

    /// The undo and redo stacks.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The tileset the map names: beside the map file, in the map's pack, or another pack's
    /// (`core:tilesets/stone/tileset.ron`).
    pub fn tileset(&self) -> Option<scryptic::pack::TilesetRef> {
        scryptic::pack::level::map_tileset(
            self.path.as_deref(),
            &self.map.tileset,
            &crate::catalog(),
        )
    }

    /// Where unsaved changes are autosaved: beside the file (`name.ron.autosave`), or for a
    /// map never saved, in the editor's data folder.
    pub fn autosave_path(&self) -> Option<PathBuf> {
        match &self.path {
            Some(p) => {
                let mut name = p.file_name()?.to_os_string();
                name.push(".autosave");
                Some(p.with_file_name(name))
            }
            None => Some(data_dir()?.join("untitled.ron.autosave")),
        }
    }

    /// Whether there are unsaved changes not yet written to the autosave file.
    pub fn needs_autosave(&self) -> bool {
        self.is_dirty() && self.autosaved_generation != self.generation
    }

    /// Writes unsaved changes to the autosave file, if there are any not yet written there.
    pub fn autosave(&mut self) -> Result<(), String> {
        if !self.needs_autosave() {
            return Ok(());
        }
        let Some(path) = self.autosave_path() else {
            return Ok(());
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        self.map
            .save(&path)
            .map_err(|e| format!("{}: cannot autosave: {e}", path.display()))?;
        self.autosaved_generation = self.generation;
        Ok(())
    }

    /// The autosave left by a session that did not save, if it is newer than the file.
    pub fn recovery(&self) -> Option<PathBuf> {
        let autosave = self.autosave_path()?;
        let autosaved = modified(&autosave)?;
        match self.path.as_deref().and_then(modified) {
            Some(saved) if saved > autosaved => None,
            _ => Some(autosave),
        }
    }

    /// Loads the autosave's map in place of the current one, as an unsaved change that can
    /// be undone.
    pub fn recover(&mut self) -> Result<(), String> {
        let path = self.recovery().ok_or("there is no autosave to recover")?;
        let recovered = Map::load(&path).map_err(|e| e.to_string())?;
        self.edit_all("recover autosave", |map| *map = recovered);
        Ok(())
    }

    /// What the autosave at `autosave` changes in the map as it is open: its terrain cells,
    /// cities, tokens, name and rules, said in a few lines (the recovery dialog's compare).
    pub fn compare_recovery(&self, autosave: &Path) -> Result<Vec<String>, String> {
        let theirs = Map::load(autosave).map_err(|e| e.to_string())?;
        let ours = &self.map;
        let mut lines = Vec::new();
        if (theirs.width(), theirs.height()) != (ours.width(), ours.height()) {
            lines.push(format!(
                "size {}x{} (the map is {}x{})",
                theirs.width(),
                theirs.height(),
                ours.width(),
                ours.height()
            ));
        } else {
            let cells = theirs
                .terrain
                .cells()
                .iter()
                .zip(ours.terrain.cells())
                .filter(|(a, b)| a != b)
                .count();
            let verb = if cells == 1 { "differs" } else { "differ" };
            lines.push(format!(
                "{} {verb}",
                scryptic::diag::counted(cells, "terrain cell")
            ));
        }
        let ids = |cities: &[scryptic::City]| -> Vec<String> {
            cities
                .iter()
                .map(|c| format!("{} {:?} {}", c.id, c.owner, c.at))
                .collect()
        };
        if ids(&theirs.cities) != ids(&ours.cities) {
            lines.push(format!(
                "cities differ: {} in the autosave, {} in the map",
                theirs.cities.len(),
                ours.cities.len()
            ));
        }
        if theirs.tokens != ours.tokens {
            lines.push(format!(
                "token spots differ: {} in the autosave, {} in the map",
                theirs.tokens.len(),
                ours.tokens.len()
            ));
        }
        if theirs.name != ours.name {
            lines.push(format!(
                "named `{}` (the map: `{}`)",
                theirs.name, ours.name
            ));
        }
        if theirs.rules != ours.rules {
            lines.push("its rules differ".to_string());
        }
        Ok(lines)
    }

    /// Keeps the autosave as a map file of its own beside the map (`NAME.recovered.ron`, or
    /// `NAME.recovered-2.ron`...), the map left as it is; returns the file written. The
    /// autosave goes only once its copy is safely written.
    pub fn keep_recovery_beside(&self) -> Result<PathBuf, String> {
        let autosave = self.recovery().ok_or("there is no autosave to keep")?;
        let map = Map::load(&autosave).map_err(|e| e.to_string())?;
        let base = match &self.path {
            Some(p) => p.with_extension(""),
            None => data_dir()
                .ok_or("no folder for the editor's data")?
                .join("untitled"),
        };
        let target = (1..1000)
            .map(|n| match n {
                1 => base.with_extension("recovered.ron"),
                n => base.with_extension(format!("recovered-{n}.ron")),
            })
            .find(|p| !p.exists())
            .ok_or("too many recovered copies beside the map")?;
        map.save(&target)
            .map_err(|e| format!("{}: cannot keep the autosave: {e}", target.display()))?;
        self.discard_recovery();
        Ok(target)
    }

    /// Deletes the autosave (the user chose not to recover it).
    pub fn discard_recovery(&self) {
        if let Some(path) = self.autosave_path() {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).ok()?.modified().ok()
}

/// The editor's own folder for autosaves of unsaved maps and the recent-files list:
/// `$SCRYPTIC_EDITOR_DATA`, else `$XDG_DATA_HOME/scryptic-editor`, else
/// `~/.local/share/scryptic-editor`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("SCRYPTIC_EDITOR_DATA") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME") {
        return Some(PathBuf::from(dir).join("scryptic-editor"));
    }
    let home = std::env::var_os("HOME")?;
    Some(PathBuf::from(home).join(".local/share/scryptic-editor"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(doc: &Document, terrain: Terrain) -> usize {
        doc.map
            .terrain
            .cells()
            .iter()
            .filter(|&&t| t == terrain)
            .count()
    }

    #[test]
    fn a_stroke_is_one_step_and_undoes_whole() {
        let mut doc = Document::new(Map::new("t", 8, 8));
        doc.begin_stroke("brush");
        doc.paint(&[Pos::new(1, 1), Pos::new(2, 1)], Terrain::Forest);
        doc.paint(&[Pos::new(2, 1), Pos::new(3, 1)], Terrain::Water);
        doc.end_stroke();
        assert_eq!(
            (cells(&doc, Terrain::Forest), cells(&doc, Terrain::Water)),
            (1, 2)
        );
        assert!(doc.is_dirty());
        assert_eq!(doc.undo().as_deref(), Some("brush"));
        assert_eq!(cells(&doc, Terrain::Plains), 64);
        assert_eq!(doc.redo().as_deref(), Some("brush"));
        assert_eq!(cells(&doc, Terrain::Water), 2);
        assert_eq!(doc.undo(), Some("brush".into()));
        assert_eq!(doc.undo(), None, "nothing more to undo");
    }

    #[test]
    fn object_edits_undo_and_saving_clears_dirty() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.ron");
        let mut doc = Document::new(Map::new("t", 8, 8));
        doc.edit_objects("rename", |m| m.name = "Renamed".into());
        doc.save_as(&path).unwrap();
        assert!(!doc.is_dirty());
        let reopened = Document::open(&path).unwrap();
        assert_eq!(reopened.map, doc.map);
        doc.undo();
        assert_eq!(doc.map.name, "t");
        assert!(doc.is_dirty());
    }

    #[test]
    fn saving_keeps_the_comments_written_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.ron");
        Map::new("t", 8, 8).save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap().replacen(
            "    name: \"t\",",
            "    // The title players see.\n    name: \"t\", // short for now",
            1,
        );
        std::fs::write(&path, &text).unwrap();
        let mut doc = Document::open(&path).unwrap();
        doc.edit_objects("rename", |m| m.name = "Renamed".into());
        doc.save().unwrap();
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(
            saved
                .contains("    // The title players see.\n    name: \"Renamed\", // short for now"),
            "{saved}"
        );
        assert_eq!(Document::open(&path).unwrap().map.name, "Renamed");
    }

    /// Undoing back to the saved map leaves nothing unsaved; redoing makes it modified again.
    #[test]
    fn undoing_back_to_the_saved_map_is_not_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.ron");
        let mut doc = Document::new(Map::new("t", 8, 8));
        doc.save_as(&path).unwrap();
        doc.paint_step("fill", &[Pos::new(0, 0)], Terrain::Lava);
        assert!(doc.is_dirty());
        assert!(doc.title().ends_with(" *"));
        doc.undo();
        assert!(!doc.is_dirty(), "back to the file's map");
        assert_eq!(doc.title(), "m.ron");
        doc.redo();
        assert!(doc.is_dirty());
    }

    #[test]
    fn autosave_is_recovered_after_a_crash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.ron");
        let mut doc = Document::new(Map::new("t", 8, 8));
        doc.save_as(&path).unwrap();
        assert_eq!(doc.recovery(), None);
        doc.paint_step("fill", &[Pos::new(0, 0)], Terrain::Lava);
        doc.autosave().unwrap();
        // The editor "crashes": the next session opens the file and finds the autosave.
        let mut next = Document::open(&path).unwrap();
        assert_eq!(next.recovery(), Some(dir.path().join("m.ron.autosave")));
        next.recover().unwrap();
        assert_eq!(next.map.terrain.get(Pos::new(0, 0)), Some(&Terrain::Lava));
        assert!(next.is_dirty());
        next.save().unwrap();
        assert_eq!(next.recovery(), None, "saving removes the autosave");
    }
}

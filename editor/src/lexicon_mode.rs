//! Lexicon mode: a folder of connotation lists (one `name.txt` per list, a word a line, the
//! form the runtime loads): search the dictionary through the runtime, add and remove words
//! (warning about words the dictionary lacks), see which lists hold a word, make new lists.

use scryptic::lexicon::Lexicon;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// How the search box reads its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SearchKind {
    /// Words starting with the text.
    #[default]
    Prefix,
    /// Words within one or two edits of the text.
    Fuzzy,
    /// `?` one letter, `*` any letters.
    Pattern,
}

/// The lists being edited and the search.
#[derive(Debug, Default)]
pub struct LexiconMode {
    /// The folder of the lists.
    pub dir: String,
    /// Each list's words, by list name.
    pub lists: BTreeMap<String, BTreeSet<String>>,
    /// Lists with unsaved changes.
    pub unsaved: BTreeSet<String>,
    /// Each list's header as its file had it (its first comment and blank lines), written
    /// back when the list is saved.
    pub headers: BTreeMap<String, String>,
    /// The list shown.
    pub selected: Option<String>,
    /// The search text.
    pub query: String,
    /// How it is read.
    pub kind: SearchKind,
    /// The word to add to the selected list.
    pub new_word: String,
    /// The name of a list to make.
    pub new_list: String,
    /// The last message (a warning, an error, what was saved).
    pub message: Option<String>,
    loaded: Option<PathBuf>,
    /// The last search's text, kind and answer: the dictionary is asked again only when the
    /// search changes, not on every frame.
    found: Option<(String, SearchKind, Result<Vec<String>, String>)>,
}

/// The shipped dictionary, made once.
pub fn dictionary() -> Arc<Lexicon> {
    static LEXICON: OnceLock<Arc<Lexicon>> = OnceLock::new();
    LEXICON.get_or_init(|| Arc::new(Lexicon::english())).clone()
}

/// The words of a list file: one a line, `#` comments and blank lines skipped, lowercase.
pub fn parse_list(text: &str) -> BTreeSet<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The comment and blank lines at the top of a list file, up to its first word.
pub fn list_header(text: &str) -> String {
    text.lines()
        .take_while(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A list file's text: its header (the file's own, or a standard one for a new list), then
/// the words in order.
pub fn list_text(name: &str, header: Option<&str>, words: &BTreeSet<String>) -> String {
    let mut text = match header.filter(|h| !h.trim().is_empty()) {
        Some(header) => header.to_string(),
        None => format!("# Connotation `{name}`: base words; inflected forms resolve to them.\n"),
    };
    for w in words {
        text.push_str(w);
        text.push('\n');
    }
    text
}

impl LexiconMode {
    /// Loads every `*.txt` list of `dir` (a missing folder is an empty set of lists).
    pub fn load(&mut self, dir: &Path) -> Result<(), String> {
        let mut lists = BTreeMap::new();
        let mut headers = BTreeMap::new();
        if dir.is_dir() {
            let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "txt") {
                    let name = path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let text = scryptic::fsutil::read_text(&path).map_err(|e| e.to_string())?;
                    headers.insert(name.clone(), list_header(&text));
                    lists.insert(name, parse_list(&text));
                }
            }
        }
        self.dir = dir.display().to_string();
        self.selected = lists.keys().next().cloned();
        self.lists = lists;
        self.headers = headers;
        self.unsaved.clear();
        self.loaded = Some(dir.to_path_buf());
        Ok(())
    }

    /// Loads `dir` unless it is the folder already loaded.
    pub fn ensure_loaded(&mut self, dir: &Path) {
        if self.loaded.as_deref() != Some(dir)
            && self.unsaved.is_empty()
            && let Err(e) = self.load(dir)
        {
            self.message = Some(e);
        }
    }

    /// Adds `word` to `list`; a warning when the dictionary lacks it (it is added anyway, as
    /// a modder may add the word to the dictionary too).
    pub fn add(&mut self, list: &str, word: &str) -> Option<String> {
        let word = word.trim().to_ascii_lowercase();
        if word.is_empty() || !word.chars().all(|c| c.is_ascii_alphabetic()) {
            return Some(format!("'{word}' is not a word: letters a-z only"));
        }
        let words = self.lists.get_mut(list)?;
        if !words.insert(word.clone()) {
            return Some(format!("'{word}' is already in {list}"));
        }
        self.unsaved.insert(list.to_string());
        (!dictionary().contains(&word))
            .then(|| format!("warning: the dictionary lacks '{word}'; players cannot place it"))
    }

    /// Removes `word` from `list`.
    pub fn remove(&mut self, list: &str, word: &str) {
        if self.lists.get_mut(list).is_some_and(|w| w.remove(word)) {
            self.unsaved.insert(list.to_string());
        }
    }

    /// Makes an empty list called `name`.
    pub fn new_list(&mut self, name: &str) -> Result<(), String> {
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "'{name}' cannot name a list: letters, digits, - and _ only"
            ));
        }
        if self.lists.contains_key(name) {
            return Err(format!("there is already a list called {name}"));
        }
        self.lists.insert(name.to_string(), BTreeSet::new());
        self.unsaved.insert(name.to_string());
        self.selected = Some(name.to_string());
        Ok(())
    }

    /// The lists that hold `word`.
    pub fn lists_with(&self, word: &str) -> Vec<&str> {
        self.lists
            .iter()
            .filter(|(_, words)| words.contains(word))
            .map(|(name, _)| name.as_str())
            .collect()
    }

    /// Saves every changed list (atomically) into the folder.
    pub fn save(&mut self) -> Result<usize, String> {
        let dir = PathBuf::from(&self.dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut saved = 0;
        for name in std::mem::take(&mut self.unsaved) {
            let path = dir.join(format!("{name}.txt"));
            let header = self.headers.get(&name).map(String::as_str);
            let text = list_text(&name, header, &self.lists[&name]);
            if let Err(e) = scryptic::fsutil::write_atomic(&path, text.as_bytes()) {
                self.unsaved.insert(name);
                return Err(format!("{}: cannot save: {e}", path.display()));
            }
            saved += 1;
        }
        self.loaded = Some(dir);
        Ok(saved)
    }

    /// The dictionary's words matching the search, at most `limit`.
    pub fn search(&self, limit: usize) -> Result<Vec<String>, String> {
        let q = self.query.trim();
        if q.is_empty() {
            return Ok(Vec::new());
        }
        let lexicon = dictionary();
        match self.kind {
            SearchKind::Prefix => Ok(lexicon.prefix(q, limit)),
            SearchKind::Fuzzy => lexicon
                .fuzzy(q, if q.len() > 5 { 2 } else { 1 }, limit)
                .map_err(|e| e.to_string()),
            SearchKind::Pattern => lexicon.pattern(q, limit).map_err(|e| e.to_string()),
        }
    }

    /// The mode's panels.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::Panel::left("lists")
            .default_size(300.0)
            .show(ui, |ui| self.lists_ui(ui));
        egui::Panel::right("search")
            .default_size(280.0)
            .show(ui, |ui| self.search_ui(ui));
        egui::CentralPanel::default_margins().show(ui, |ui| self.words_ui(ui));
    }

    fn lists_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Connotation lists");
        ui.horizontal(|ui| {
            let label = ui.label("folder");
            // Fields as wide as the panel leaves them: wider, they pushed the buttons past
            // its edge on the first frame.
            ui.add(egui::TextEdit::singleline(&mut self.dir).desired_width(ui.available_width()))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            if ui.button("Load").clicked() {
                let dir = PathBuf::from(&self.dir);
                self.message = self.load(&dir).err();
            }
            let label = format!("Save lists ({})", self.unsaved.len());
            if ui
                .add_enabled(!self.unsaved.is_empty(), egui::Button::new(label))
                .clicked()
            {
                self.message = Some(match self.save() {
                    Ok(n) => format!(
                        "saved {} to {}",
                        scryptic::diag::counted(n, "list"),
                        self.dir
                    ),
                    Err(e) => e,
                });
            }
        });
        for (name, words) in &self.lists {
            let star = if self.unsaved.contains(name) {
                " *"
            } else {
                ""
            };
            let text = format!("{name} ({} words){star}", words.len());
            if ui
                .selectable_label(self.selected.as_deref() == Some(name), text)
                .clicked()
            {
                self.selected = Some(name.clone());
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("list name");
            let room = (ui.available_width() - 80.0).max(60.0);
            ui.add(
                egui::TextEdit::singleline(&mut self.new_list)
                    .hint_text("new list name")
                    .desired_width(room),
            )
            .labelled_by(label.id);
            if ui.button("New list").clicked() {
                let name = std::mem::take(&mut self.new_list);
                self.message = self.new_list(&name).err();
            }
        });
        if let Some(message) = &self.message {
            ui.separator();
            ui.label(message);
        }
    }

    fn words_ui(&mut self, ui: &mut egui::Ui) {
        let Some(list) = self.selected.clone() else {
            ui.label("No list: make one, or load a folder of lists.");
            return;
        };
        ui.heading(&list);
        ui.horizontal(|ui| {
            let label = ui.label("word");
            let edit = ui
                .add(egui::TextEdit::singleline(&mut self.new_word).hint_text("word to add"))
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Add word").clicked() || enter {
                let word = std::mem::take(&mut self.new_word);
                self.message = self.add(&list, &word);
            }
        });
        let words: Vec<String> = self
            .lists
            .get(&list)
            .map(|w| w.iter().cloned().collect())
            .unwrap_or_default();
        let mut removed = None;
        egui::ScrollArea::vertical().show_rows(ui, 20.0, words.len(), |ui, rows| {
            for word in &words[rows] {
                ui.horizontal(|ui| {
                    if ui.small_button("x").on_hover_text("remove").clicked() {
                        removed = Some(word.clone());
                    }
                    ui.label(word);
                });
            }
        });
        if let Some(word) = removed {
            self.remove(&list, &word);
        }
    }

    fn search_ui(&mut self, ui: &mut egui::Ui) {
        ui.heading("Dictionary");
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.kind, SearchKind::Prefix, "prefix");
            ui.radio_value(&mut self.kind, SearchKind::Fuzzy, "fuzzy");
            ui.radio_value(&mut self.kind, SearchKind::Pattern, "pattern");
        });
        let label = ui.label("search");
        ui.add(egui::TextEdit::singleline(&mut self.query).hint_text("search words"))
            .labelled_by(label.id);
        let fresh = self
            .found
            .as_ref()
            .is_some_and(|(q, k, _)| *q == self.query && *k == self.kind);
        if !fresh {
            self.found = Some((self.query.clone(), self.kind, self.search(200)));
        }
        let found = self
            .found
            .as_ref()
            .map(|f| f.2.clone())
            .unwrap_or(Ok(Vec::new()));
        match found {
            Ok(words) => {
                ui.label(format!("{} words", words.len()));
                egui::ScrollArea::vertical().show(ui, |ui| {
                    for word in words {
                        let holders = self.lists_with(&word).join(", ");
                        ui.horizontal(|ui| {
                            ui.label(&word);
                            if !holders.is_empty() {
                                ui.weak(format!("in {holders}"));
                            }
                            if let Some(list) = self.selected.clone()
                                && ui
                                    .small_button("+")
                                    .on_hover_text(format!("add to {list}"))
                                    .clicked()
                            {
                                self.message = self.add(&list, &word);
                            }
                        });
                    }
                });
            }
            Err(e) => {
                ui.colored_label(egui::Color32::from_rgb(240, 80, 80), e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list's header comment (its licence, what it is for) stays when the list is saved.
    #[test]
    fn saving_a_list_keeps_its_header_comment() {
        let dir = tempfile::tempdir().unwrap();
        let header = "# Words of fire, after the 2010 design document.\n# Licence: CC-BY-4.0\n\n";
        std::fs::write(
            dir.path().join("fiery.txt"),
            format!("{header}blaze\nember\n"),
        )
        .unwrap();
        let mut mode = LexiconMode::default();
        mode.load(dir.path()).unwrap();
        assert_eq!(mode.add("fiery", "flame"), None);
        assert_eq!(mode.save().unwrap(), 1);
        let text = std::fs::read_to_string(dir.path().join("fiery.txt")).unwrap();
        assert_eq!(text, format!("{header}blaze\nember\nflame\n"));
    }

    #[test]
    fn lists_round_trip_in_the_runtime_form() {
        let dir = tempfile::tempdir().unwrap();
        let mut mode = LexiconMode::default();
        mode.load(dir.path()).unwrap();
        mode.new_list("icy").unwrap();
        assert_eq!(mode.add("icy", "Frost"), None);
        assert!(mode.add("icy", "qzxv").unwrap().contains("lacks"));
        assert!(mode.new_list("icy").is_err());
        assert_eq!(mode.save().unwrap(), 1);
        let text = std::fs::read_to_string(dir.path().join("icy.txt")).unwrap();
        let mut lexicon = Lexicon::english();
        lexicon
            .set_connotation_list("icy", &dir.path().join("icy.txt"), &text)
            .unwrap();
        assert!(
            lexicon.has_connotation("frost", "icy"),
            "the runtime reads what the editor wrote"
        );
        let mut again = LexiconMode::default();
        again.load(dir.path()).unwrap();
        assert_eq!(again.lists_with("frost"), vec!["icy"]);
    }
}

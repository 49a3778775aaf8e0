//! The editor's window: the menu bar (File, Edit, View, Mode), the mode in use, the status
//! bar, autosave, recent files and the global shortcuts (Ctrl+N/O/S, Ctrl+Shift+S, Ctrl+Z, Ctrl+Shift+Z).
//! The dialogs are in [`crate::dialogs`].

use crate::balance::BalancePanel;
pub use crate::dialogs::{Dialog, Pending};
use crate::document::{Document, data_dir};
use crate::lexicon_mode::LexiconMode;
use crate::map_mode::MapMode;
use crate::packs_mode::{PacksAction, PacksMode};
use crate::play::PlayMode;
use crate::rules_mode::RulesMode;
use crate::scripts_panel::ScriptsPanel;
use egui::Key;
use scryptic::Map;
use std::path::{Path, PathBuf};

/// Seconds between autosaves of unsaved changes.
pub const AUTOSAVE_SECONDS: f64 = 30.0;
const RECENT_LIMIT: usize = 10;

/// The editor's modes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Paint the map.
    #[default]
    Map,
    /// Edit connotation lists.
    Lexicon,
    /// Edit the rule set.
    Rules,
    /// The map's scripts.
    Scripts,
    /// Play the map.
    Play,
    /// Simulate AI games on the map.
    Balance,
    /// The packs: browse, open, choose a mode to play, make one from the map.
    Packs,
}

/// The editor.
#[derive(Default)]
pub struct EditorApp {
    /// The open map.
    pub doc: Document,
    /// The mode in use.
    pub mode: Mode,
    /// Map mode's state.
    pub map_mode: MapMode,
    /// Lexicon mode's state.
    pub lexicon: LexiconMode,
    /// Rules mode's state.
    pub rules: RulesMode,
    /// The scripts panel's state.
    pub scripts: ScriptsPanel,
    /// Play mode's state.
    pub play: PlayMode,
    /// Balance mode's state.
    pub balance: BalancePanel,
    /// The Packs screen's state.
    pub packs: PacksMode,
    /// The dialog shown, if any.
    pub dialog: Option<Dialog>,
    /// Recently opened or saved files, newest first.
    pub recent: Vec<PathBuf>,
    /// The status bar's message.
    pub status: String,
    /// Whether the window may close now (set once the user agreed).
    pub quit_confirmed: bool,
    last_autosave: f64,
    /// The window title last set: it is set again only when it changes, since every viewport
    /// command asks for another frame and a title set every frame kept the editor busy at rest.
    shown_title: String,
    /// The stone behind the panels, once the stone look is on the window's context (it is
    /// put on at the first frame).
    backdrop: Option<crate::theme::Backdrop>,
}

impl EditorApp {
    /// The editor on `path`, or on a new map; an unreadable file shows an error dialog over a
    /// new map (never a crash).
    pub fn new(path: Option<&Path>) -> EditorApp {
        let mut app = EditorApp {
            recent: load_recent(),
            ..EditorApp::default()
        };
        match path {
            Some(path) => app.open(path),
            None => {
                // The blank map the editor starts on is a new map like any other.
                let mut map = app.doc.map.clone();
                map.tileset = NEW_MAP_TILESET.to_string();
                app.doc = Document::new(map);
                // An untitled map's changes autosaved before a crash are offered back.
                if let Some(autosave) = app.doc.recovery() {
                    app.dialog = Some(Dialog::Recover(autosave));
                }
            }
        }
        app
    }

    /// Opens `path`, replacing the current map (ask first: see [`EditorApp::request`]).
    pub fn open(&mut self, path: &Path) {
        match Document::open(path) {
            Ok(doc) => {
                self.doc = doc;
                self.after_open(path);
            }
            Err(e) => self.dialog = Some(Dialog::Error(e)),
        }
    }

    fn after_open(&mut self, path: &Path) {
        self.map_mode.reset();
        self.remember(path);
        self.status = format!("opened {}", path.display());
        let dir = path.parent().unwrap_or(Path::new(".")).join("connotations");
        self.lexicon = LexiconMode::default();
        self.lexicon.ensure_loaded(&dir);
        self.scripts = ScriptsPanel::default();
        self.scripts.reload(&self.doc);
        self.map_mode.tools.script_token_kinds = self.scripts.token_kinds.clone();
        if let Some(autosave) = self.doc.recovery() {
            self.dialog = Some(Dialog::Recover(autosave));
        }
    }

    /// Starts a new blank map.
    pub fn new_map(&mut self, name: &str, width: u32, height: u32) {
        let mut map = Map::new(name, width, height);
        // A new map draws with the stone tileset's art from the start, as the shipped maps do.
        map.tileset = NEW_MAP_TILESET.to_string();
        self.doc = Document::new(map);
        self.map_mode.reset();
        self.status = format!("new map {width}x{height}");
    }

    /// Does `pending` now if nothing unsaved stands in the way, else asks.
    pub fn request(&mut self, pending: Pending) {
        if self.doc.is_dirty() {
            self.dialog = Some(Dialog::Unsaved(pending));
        } else {
            self.carry_out(pending);
        }
    }

    pub(crate) fn carry_out(&mut self, pending: Pending) {
        match pending {
            Pending::New => {
                self.dialog = Some(Dialog::New {
                    name: "untitled".into(),
                    width: 24,
                    height: 24,
                })
            }
            Pending::Open(path) => self.open(&path),
            Pending::Quit => self.quit_confirmed = true,
        }
    }

    /// Saves to the map's file, or asks for one.
    pub fn save(&mut self) {
        match self.doc.path.clone() {
            Some(path) => self.save_as(&path),
            None => self.dialog = Some(Dialog::save_map_as("maps/untitled.ron")),
        }
    }

    /// Saves to `path` (atomically).
    pub fn save_as(&mut self, path: &Path) {
        match self.doc.save_as(path) {
            Ok(()) => {
                self.remember(path);
                self.status = format!("saved {}", path.display());
            }
            Err(e) => self.dialog = Some(Dialog::Error(e)),
        }
    }

    /// Undoes the last step.
    pub fn undo(&mut self) {
        self.status = match self.doc.undo() {
            Some(label) => format!("undid {label}"),
            None => "nothing to undo".into(),
        };
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) {
        self.status = match self.doc.redo() {
            Some(label) => format!("redid {label}"),
            None => "nothing to redo".into(),
        };
    }

    fn remember(&mut self, path: &Path) {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_LIMIT);
        save_recent(&self.recent);
    }

    /// Autosaves when unsaved changes have waited long enough; until then, asks to be woken
    /// when they will have (a window at rest paints no frame to look at the clock).
    fn autosave(&mut self, ctx: &egui::Context, now: f64) {
        if !self.doc.needs_autosave() {
            return;
        }
        let wait = AUTOSAVE_SECONDS - (now - self.last_autosave);
        if wait > 0.0 {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(wait));
            return;
        }
        self.last_autosave = now;
        if let Err(e) = self.doc.autosave() {
            self.status = e;
        }
    }

    /// The whole window.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.backdrop
            .get_or_insert_with(|| {
                crate::theme::install(ui.ctx());
                self.scripts.repaint_with(ui.ctx());
                crate::theme::Backdrop::new(ui.ctx())
            })
            .paint(ui.ctx());
        self.show_title(ui.ctx());
        let now = ui.input(|i| i.time);
        self.autosave(ui.ctx(), now);
        if ui.input(|i| i.viewport().close_requested())
            && self.doc.is_dirty()
            && !self.quit_confirmed
        {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.dialog = Some(Dialog::Unsaved(Pending::Quit));
        }
        if self.quit_confirmed {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.watch_scripts();
        if self.dialog.is_none() && !ui.ctx().egui_wants_keyboard_input() {
            self.global_shortcuts(ui);
        }
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        match self.mode {
            Mode::Map => self.map_mode.ui(ui, &mut self.doc),
            Mode::Lexicon => self.lexicon.ui(ui),
            Mode::Rules => self.rules.ui(ui, &mut self.doc),
            Mode::Scripts => self.scripts.ui(ui, &mut self.doc),
            Mode::Play => self.play.ui(ui, &self.doc),
            Mode::Balance => self.balance.ui(ui, &self.doc),
            Mode::Packs => {
                if let Some(action) = self.packs.ui(ui, &self.doc) {
                    self.packs_action(action);
                }
            }
        }
        self.dialog_ui(ui.ctx());
    }

    /// Does what the Packs screen asked: sets up a game of a pack's mode (Play's setup screen,
    /// with its settings), or opens a pack's map in the Map mode.
    pub fn packs_action(&mut self, action: PacksAction) {
        match action {
            PacksAction::Play { pack, mode } => {
                self.play.setup.choose_pack(&pack, &mode);
                self.play.screen = crate::play::Screen::Setup;
                self.mode = Mode::Play;
                self.status = format!("set up a game of {pack}:{mode}");
            }
            PacksAction::OpenMap(path) => {
                self.request(Pending::Open(path));
                self.mode = Mode::Map;
            }
        }
    }

    /// Reloads the scripts when one was saved since the last frame (the watcher's word; its
    /// thread wakes the window, so nothing polls at rest).
    fn watch_scripts(&mut self) {
        if self.scripts.generation == 0 {
            return;
        }
        if self.scripts.reload_if_changed(&self.doc) {
            self.status = format!("scripts reloaded (load {})", self.scripts.generation);
            self.map_mode.tools.script_token_kinds = self.scripts.token_kinds.clone();
            self.map_mode.validation.invalidate();
        }
    }

    fn global_shortcuts(&mut self, ui: &egui::Ui) {
        if ui.input(|i| i.key_pressed(Key::F1)) {
            self.dialog = Some(Dialog::Keys);
            return;
        }
        let (m, pressed) = ui.input(|i| {
            (
                i.modifiers,
                [Key::Z, Key::Y, Key::S, Key::O, Key::N].map(|k| i.key_pressed(k)),
            )
        });
        if !m.command {
            return;
        }
        let [z, y, s, o, n] = pressed;
        if self.mode == Mode::Play {
            // In play, Ctrl+Z takes back the last action of the game, not of the map.
            if z && let Some(session) = &mut self.play.session {
                self.status = match session.undo() {
                    Ok(()) => "undid the last action".into(),
                    Err(e) => e,
                };
            }
            return;
        }
        if (z && m.shift) || y {
            self.redo();
        } else if z {
            self.undo();
        }
        if s && m.shift {
            self.dialog = Some(Dialog::save_map_as(self.suggested_path()));
        } else if s {
            self.save();
        }
        if o {
            self.dialog = Some(Dialog::open_map(self.suggested_path(), &self.recent));
        }
        if n {
            self.request(Pending::New);
        }
    }

    fn suggested_path(&self) -> String {
        self.doc
            .path
            .as_ref()
            .map_or_else(|| "maps/".to_string(), |p| p.display().to_string())
    }

    /// Undo and redo, then the map's selection: cut, copy, paste (into the layers chosen),
    /// delete, select all; each with its shortcut, as Tiled's and LDtk's menus show them.
    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        let item = |ui: &mut egui::Ui, enabled: bool, text: String, keys: &str| {
            ui.add_enabled(enabled, egui::Button::new(text).shortcut_text(keys))
                .clicked()
        };
        let undo = self.doc.history().next_undo().map(|l| format!("Undo {l}"));
        if item(ui, undo.is_some(), undo.unwrap_or("Undo".into()), "Ctrl+Z") {
            self.undo();
        }
        let redo = self.doc.history().next_redo().map(|l| format!("Redo {l}"));
        if item(ui, redo.is_some(), redo.unwrap_or("Redo".into()), "Ctrl+Y") {
            self.redo();
        }
        ui.separator();
        let in_map = self.mode == Mode::Map;
        let selected = in_map && self.map_mode.selection.is_some();
        let has_clip = in_map && self.map_mode.clip.is_some();
        if item(ui, selected, "Cut".into(), "Ctrl+X") {
            self.map_mode.cut(&mut self.doc);
            self.copy_clip_text(ui.ctx());
        }
        if item(ui, selected, "Copy".into(), "Ctrl+C") {
            self.map_mode.copy(&self.doc);
            self.copy_clip_text(ui.ctx());
        }
        if item(ui, has_clip, "Paste".into(), "Ctrl+V") {
            self.map_mode.paste(&mut self.doc);
        }
        if item(ui, selected, "Delete".into(), "Delete") {
            self.map_mode.delete(&mut self.doc);
        }
        if item(ui, in_map, "Select all".into(), "Ctrl+A") {
            self.map_mode.select_all(&self.doc);
        }
        ui.separator();
        let layers = &mut self.map_mode.paste_layers;
        ui.checkbox(&mut layers.terrain, "Paste terrain");
        ui.checkbox(&mut layers.pieces, "Paste cities and tokens");
    }

    /// The clipboard's clip as text on the system's clipboard too (another window pastes it).
    fn copy_clip_text(&self, ctx: &egui::Context) {
        if let Some(clip) = &self.map_mode.clip {
            ctx.copy_text(clip.to_text());
        }
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.map_mode.view.grid, "Grid (G)");
                if ui.button("Keyboard map (F1)").clicked() {
                    self.dialog = Some(Dialog::Keys);
                }
                if ui.button("Fit map").clicked() {
                    self.map_mode.view.fit_pending = true;
                }
            });
            ui.separator();
            for (mode, label) in [
                (Mode::Map, "Map"),
                (Mode::Lexicon, "Lexicon"),
                (Mode::Rules, "Rules"),
                (Mode::Scripts, "Scripts"),
                (Mode::Play, "Play"),
                (Mode::Balance, "Balance"),
                (Mode::Packs, "Packs"),
            ] {
                // What the status bar said belongs to the mode it was said in.
                if ui.selectable_value(&mut self.mode, mode, label).clicked() {
                    self.status.clear();
                }
            }
            ui.separator();
            ui.label(self.doc.title());
        });
    }

    fn file_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("New... (Ctrl+N)").clicked() {
            self.request(Pending::New);
        }
        if ui.button("Open... (Ctrl+O)").clicked() {
            self.dialog = Some(Dialog::open_map(self.suggested_path(), &self.recent));
        }
        ui.menu_button("Open recent", |ui| {
            // A recent file moved or deleted since is not offered.
            for path in self.recent.clone().into_iter().filter(|p| p.is_file()) {
                if ui.button(path.display().to_string()).clicked() {
                    self.request(Pending::Open(path));
                }
            }
        });
        if ui.button("Save (Ctrl+S)").clicked() {
            self.save();
        }
        if ui.button("Save as... (Ctrl+Shift+S)").clicked() {
            self.dialog = Some(Dialog::save_map_as(self.suggested_path()));
        }
        ui.separator();
        if ui.button("Import terrain from PNG...").clicked() {
            // The browser starts in the map's folder, where its pictures usually are.
            let folder = self
                .doc
                .path
                .as_ref()
                .and_then(|p| p.parent())
                .map_or_else(String::new, |d| format!("{}/", d.display()));
            self.dialog = Some(Dialog::import_png(folder));
        }
        if ui
            .button("Export terrain PNG (a pixel a cell)...")
            .clicked()
        {
            let suggestion = self.doc.path.as_ref().map_or("terrain.png".into(), |p| {
                p.with_extension("terrain.png").display().to_string()
            });
            self.dialog = Some(Dialog::export_terrain_png(suggestion));
        }
        if ui.button("Export PNG...").clicked() {
            let suggestion = self.doc.path.as_ref().map_or("map.png".into(), |p| {
                p.with_extension("png").display().to_string()
            });
            self.dialog = Some(Dialog::export_png(suggestion));
        }
        ui.separator();
        if ui.button("Quit").clicked() {
            self.request(Pending::Quit);
        }
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        // The map's facts (cell, size, zoom, tool, findings) belong to the Map mode; the
        // other modes show only what was last done.
        if self.mode != Mode::Map {
            ui.label(&self.status);
            return;
        }
        ui.horizontal(|ui| {
            let map = &self.doc.map;
            match self.map_mode.hovered {
                Some(cell) => {
                    let terrain = map.terrain.get(cell).map_or("-", |t| t.name());
                    // The notation's name first, as play says it; the map file's x, y after.
                    ui.label(format!(
                        "cell {} (x {}, y {}): {terrain}",
                        scryptic::game::notation::cell_name(cell),
                        cell.x,
                        cell.y
                    ));
                }
                None => {
                    ui.label("cell -");
                }
            }
            ui.separator();
            ui.label(format!("{}x{}", map.width(), map.height()));
            ui.separator();
            ui.label(format!("zoom {:.1}", self.map_mode.view.zoom));
            ui.separator();
            ui.label(format!("tool: {}", self.map_mode.tools.tool.label()));
            ui.separator();
            let (errors, warnings) = self.map_mode.validation.counts();
            ui.label(format!(
                "{}, {}",
                scryptic::diag::counted(errors, "error"),
                scryptic::diag::counted(warnings, "warning")
            ));
            ui.separator();
            ui.label(&self.status);
        });
    }
}

/// The map's tileset, loaded (none when it names none or it does not load).
pub fn tileset_of(doc: &Document) -> Option<scryptic::tileset::Tileset> {
    let tileset = doc.tileset()?;
    scryptic::tileset::Tileset::from_pack(&tileset.files, &tileset.path).ok()
}

fn recent_path() -> Option<PathBuf> {
    Some(data_dir()?.join("recent.txt"))
}

fn load_recent() -> Vec<PathBuf> {
    recent_path()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|text| {
            text.lines()
                .filter(|l| !l.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

fn save_recent(recent: &[PathBuf]) {
    let Some(path) = recent_path() else {
        return;
    };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let text: String = recent
        .iter()
        .map(|p| format!("{}\n", p.display()))
        .collect();
    let _ = scryptic::fsutil::write_atomic(&path, text.as_bytes());
}

/// The tileset a new map names: the built-in pack's stone tileset.
pub const NEW_MAP_TILESET: &str = "core:tilesets/stone/tileset.ron";

impl EditorApp {
    /// Sets the window's title to the document's, when it has changed.
    fn show_title(&mut self, ctx: &egui::Context) {
        let title = format!("{} - Scryptic editor", self.doc.title());
        if title != self.shown_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shown_title = title;
        }
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        EditorApp::ui(self, ui);
    }
}

//! Play mode: the game in the editor. Its screens are the design document's menus (Play,
//! Setup, Statistics, Help, Credits); Play shows the board, the rack, the side panel and the
//! combat dialog over a [`session::Session`], with saving and loading games.

pub mod ai_worker;
pub mod here;
pub mod online;
pub mod referee;
pub mod remote;
pub mod setup;
pub mod start;
pub mod statistics;

// The play view is its own crate, shared with the browser; its parts keep their names here.
pub use scryptic_play::{
    at_once_panel, board, combat, help, rack, session, side_panel, table_board, table_panel,
};

use crate::document::Document;
use crate::file_prompt::{Access, Answer, FilePrompt};
use help::HelpScreen;
pub use here::{EditorSession, Here, LocalSeat};
use scryptic_play::PlayView;
use session::Session;
use setup::{SetupForm, Source};
use statistics::Statistics;
use std::path::Path;

/// Play mode's screens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Screen {
    /// The game.
    Play,
    /// Choosing what to play and who plays.
    #[default]
    Setup,
    /// Matches on a server: host, join, watch.
    Online,
    /// Best game and best word.
    Statistics,
    /// The rules explained.
    Help,
    /// Who made it.
    Credits,
}

/// A game file being asked for, through the editor's one file prompt.
#[derive(Debug, PartialEq)]
pub enum GameFile {
    /// Save the game to the file chosen.
    Save(FilePrompt),
    /// Load a game from the file chosen.
    Load(FilePrompt),
}

impl GameFile {
    /// Asks where to save the game.
    pub fn save() -> GameFile {
        GameFile::Save(
            FilePrompt::new("Save the game", "Save", Access::Write, "saves/game.ron")
                .field_label("Game file")
                .extension("ron"),
        )
    }

    /// Asks for a saved game to load.
    pub fn load() -> GameFile {
        GameFile::Load(
            FilePrompt::new("Load a game", "Load", Access::Read, "saves/game.ron")
                .field_label("Game file")
                .extension("ron"),
        )
    }
}

/// Play mode's state.
#[derive(Default)]
pub struct PlayMode {
    /// The screen shown.
    pub screen: Screen,
    /// The Setup screen's fields.
    pub setup: SetupForm,
    /// The game, once one is started.
    pub session: Option<Session>,
    /// The board, the rack and the panels.
    pub view: PlayView,
    /// Best game and best word.
    pub statistics: Statistics,
    /// The Help screen.
    pub help: HelpScreen,
    /// The Online screen.
    pub online: online::OnlineScreen,
    /// A save or load being asked for.
    pub game_file: Option<GameFile>,
    /// The last problem starting, saving or loading, or what was done.
    pub message: Option<String>,
}

impl PlayMode {
    /// Starts the game the Setup screen describes (`doc`: the map open in the editor).
    pub fn start(&mut self, ctx: &egui::Context, doc: &Document) {
        match start::start(&self.setup, doc, crate::lexicon_mode::dictionary()) {
            Ok(started) => {
                self.view.board.reset();
                self.view.board.use_tileset(ctx, started.tileset.clone());
                let mut session = started.session;
                if let Some(here) = session.here_mut() {
                    here.tileset = started.tileset;
                }
                session.repaint_with(ctx);
                self.session = Some(session);
                self.screen = Screen::Play;
                self.message = None;
            }
            Err(e) => self.message = Some(e),
        }
    }

    /// Plays `seat` of a match on a server in the play view.
    pub fn start_online(&mut self, ctx: &egui::Context, seat: remote::RemoteSeat) {
        self.view.board.reset();
        self.view.board.use_tileset(ctx, seat.tileset.clone());
        let notes = seat.pack_notes.clone();
        let mut session = remote::online_session(seat);
        session.console.extend(notes);
        session.repaint_with(ctx);
        self.session = Some(session);
        self.screen = Screen::Play;
        self.message = None;
    }

    /// The mode's whole area.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &Document) {
        egui::Panel::top("play screens").show(ui, |ui| self.screens_bar(ui));
        if let Some(session) = &mut self.session {
            session.update();
            let feats = session.drain_feats();
            if !feats.is_empty()
                && let Err(e) =
                    self.statistics
                        .record(&feats, &session.title, &session.game().seat_names())
            {
                self.message = Some(e);
            }
            // Two AIs playing on are paced by the clock; an AI's answer wakes the window
            // itself, and a paused or finished game asks for nothing.
            let paced = session.game().result().is_none() && !session.has_human();
            let thinking = session.thinking().is_some();
            if let Some(pace) = session.pace().filter(|p| paced && !p.paused && !thinking) {
                let delay = std::time::Duration::from_secs_f64(pace.delay);
                ui.ctx().request_repaint_after(delay);
            }
        }
        match self.screen {
            Screen::Play => self.play_screen(ui, doc),
            Screen::Setup => {
                egui::CentralPanel::default_margins().show(ui, |ui| {
                    if self.setup.ui(ui, doc.path.as_deref()) {
                        self.start(ui.ctx(), doc);
                    }
                    self.message_line(ui);
                });
            }
            Screen::Online => {
                let joined = egui::CentralPanel::default_margins()
                    .show(ui, |ui| self.online.ui(ui))
                    .inner;
                if let Some(seat) = joined {
                    self.start_online(ui.ctx(), seat);
                }
            }
            Screen::Statistics => {
                egui::CentralPanel::default_margins().show(ui, |ui| self.statistics.ui(ui));
            }
            Screen::Help => {
                let rules = self.rules_shown(doc);
                egui::CentralPanel::default_margins().show(ui, |ui| match &rules {
                    Some(rules) => self.help.ui(ui, rules),
                    None => {
                        ui.label("The open map's rules do not make sense: fix them in Rules mode.");
                    }
                });
            }
            Screen::Credits => {
                egui::CentralPanel::default_margins().show(ui, help::credits_ui);
            }
        }
        self.game_file_dialog(ui.ctx());
    }

    /// The rules the help explains: the game's, else the open map's.
    fn rules_shown(&self, doc: &Document) -> Option<scryptic::RuleSet> {
        match &self.session {
            Some(s) => Some(s.game().rules().clone()),
            None => doc.map.rule_set().ok(),
        }
    }

    fn screens_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            for (screen, label) in [
                (Screen::Play, "Play"),
                (Screen::Setup, "Setup"),
                (Screen::Online, "Online"),
                (Screen::Statistics, "Statistics"),
                (Screen::Help, "Help"),
                (Screen::Credits, "Credits"),
            ] {
                // A message belongs to the screen it was said on ("saved the game" is not
                // news on Setup).
                if ui
                    .selectable_value(&mut self.screen, screen, label)
                    .clicked()
                {
                    self.message = None;
                }
            }
            ui.separator();
            let playing = self.session.is_some();
            if ui
                .add_enabled(playing, egui::Button::new("Save game..."))
                .clicked()
            {
                self.game_file = Some(GameFile::save());
            }
            if ui.button("Load game...").clicked() {
                self.game_file = Some(GameFile::load());
            }
            self.leave_button(ui);
        });
    }

    /// Online: gives the seat up (or stops watching), back to the Online screen.
    fn leave_button(&mut self, ui: &mut egui::Ui) {
        let Some(remote) = self.session.as_ref().and_then(Session::remote) else {
            return;
        };
        let (label, hint) = if remote.watching() {
            ("Stop watching", "Close this match's view")
        } else {
            (
                "Leave the match",
                "Give your seat up: it is open again for anyone (switching to another game keeps it, to Rejoin)",
            )
        };
        if !ui.button(label).on_hover_text(hint).clicked() {
            return;
        }
        let said = match remote.leave() {
            Ok(()) => format!("you left match {}", remote.match_id),
            Err(e) => format!("cannot leave match {}: {e}", remote.match_id),
        };
        self.session = None;
        self.screen = Screen::Online;
        self.online.message = Some(said);
        self.online.refresh(ui.ctx());
    }

    fn message_line(&self, ui: &mut egui::Ui) {
        if let Some(m) = &self.message {
            ui.colored_label(egui::Color32::from_rgb(235, 150, 90), m);
        }
    }

    fn play_screen(&mut self, ui: &mut egui::Ui, doc: &Document) {
        let Some(session) = &mut self.session else {
            egui::CentralPanel::default_margins().show(ui, |ui| {
                ui.label("No game yet: choose one in Setup.");
                if ui.button("Play the open map (hot-seat)").clicked() {
                    self.setup.source = Source::OpenMap;
                    self.start(ui.ctx(), doc);
                }
                self.message_line(ui);
            });
            return;
        };
        self.view.ui(ui, session, self.message.as_deref());
    }

    fn game_file_dialog(&mut self, ctx: &egui::Context) {
        let Some(mut file) = self.game_file.take() else {
            return;
        };
        let prompt = match &mut file {
            GameFile::Save(p) | GameFile::Load(p) => p,
        };
        match prompt.show(ctx) {
            Answer::Waiting => self.game_file = Some(file),
            Answer::Cancelled => {}
            Answer::Chosen(path) => match file {
                GameFile::Save(_) => self.save_game(&path),
                GameFile::Load(_) => self.load_game(ctx, &path.display().to_string()),
            },
        }
    }

    /// Saves the game in play to `path`.
    pub fn save_game(&mut self, path: &Path) {
        let Some(session) = &self.session else { return };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = std::fs::create_dir_all(dir);
        }
        self.message = Some(match referee::save_session(session, path) {
            Ok(()) => format!("saved the game to {}", path.display()),
            Err(e) => e,
        });
    }

    /// Loads the saved game at `path` (seats as the Setup screen says).
    pub fn load_game(&mut self, ctx: &egui::Context, path: &str) {
        let setup = SetupForm {
            source: Source::Save,
            path: path.to_string(),
            ..self.setup.clone()
        };
        let before = std::mem::replace(&mut self.setup, setup);
        self.start(ctx, &Document::default());
        self.setup = before;
    }
}

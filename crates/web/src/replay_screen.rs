//! A finished match stepped through in the play view: its log replayed to the move shown,
//! with buttons to the start, a move back, a move on and the end, and the log to download;
//! the seats named by who sat in them and the board drawn with the match's tileset.

use crate::tileset::{self, Finding};
use scryptic_play::replay::Replay;
use scryptic_play::{PlayView, Session};
use scryptic_protocol::MatchInfo;

/// The replay's screen.
pub struct ReplayScreen {
    session: Session,
    view: PlayView,
    title: String,
    /// The match's mode and id, said beside its title.
    about: String,
    /// The board's tileset being found.
    art: Option<Finding>,
    /// The log's address, to download.
    log_url: String,
    /// Why the last step could not be shown, if it could not.
    problem: Option<String>,
}

impl ReplayScreen {
    /// The replay of match `info`'s log (at `log_url`), shown at its start, its board drawn
    /// with the tileset `art` finds.
    pub fn new(
        replay: Replay,
        info: &MatchInfo,
        log_url: String,
        art: Option<Finding>,
    ) -> ReplayScreen {
        let title = info.title.clone();
        ReplayScreen {
            session: Session::one_seat(Box::new(replay), None, title.clone()),
            view: PlayView::default(),
            title,
            about: format!("{} · match {}", info.mode, info.id),
            art,
            log_url,
            problem: None,
        }
    }

    /// The replay as shown.
    pub fn replay(&self) -> Option<&Replay> {
        self.session.referee().as_any().downcast_ref::<Replay>()
    }

    /// The play view the replay is drawn in (its board, its tileset).
    pub fn view(&self) -> &PlayView {
        &self.view
    }

    /// Shows move `at` (the board's view kept).
    pub fn go_to(&mut self, at: usize) {
        let Some(stepped) = self.replay().map(|r| r.at(at)) else {
            return;
        };
        match stepped {
            Ok(replay) => {
                self.session = Session::one_seat(Box::new(replay), None, self.title.clone());
                self.problem = None;
            }
            Err(e) => self.problem = Some(e),
        }
    }

    /// Draws the replay in `ui`: its bar, then the play view.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        self.session.update();
        if let Some(problem) = tileset::show(ui.ctx(), &mut self.view, &mut self.art) {
            self.problem = Some(problem);
        }
        let (shown, moves) = self.replay().map_or((0, 0), |r| (r.shown(), r.moves()));
        let mut to = None;
        egui::Panel::top("replay bar").show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.hyperlink_to("All matches", "/");
                ui.separator();
                ui.strong(&self.title);
                ui.label(&self.about);
                ui.separator();
                ui.label(format!("replay: move {shown} of {moves}"));
                let size = egui::vec2(44.0, 32.0);
                let step = |ui: &mut egui::Ui, label: &str, hover: &str, enabled: bool| {
                    let button = egui::Button::new(label).min_size(size);
                    ui.add_enabled(enabled, button)
                        .on_hover_text(hover)
                        .clicked()
                };
                if step(ui, "⏮", "The start", shown > 0) {
                    to = Some(0);
                }
                if step(ui, "◀", "A move back", shown > 0) {
                    to = Some(shown - 1);
                }
                if step(ui, "▶", "A move on", shown < moves) {
                    to = Some(shown + 1);
                }
                if step(ui, "⏭", "The end", shown < moves) {
                    to = Some(moves);
                }
                ui.hyperlink_to("Download the log", &self.log_url);
            });
        });
        let problem = self.problem.clone();
        egui::CentralPanel::no_frame().show(ui, |ui| {
            self.view.ui(ui, &mut self.session, problem.as_deref());
        });
        if let Some(at) = to {
            self.go_to(at);
        }
    }
}

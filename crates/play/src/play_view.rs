//! The play view whole: the board, the rack below it and the panel beside it (the combat
//! dialog in the panel's place while a fight is settled), or a scripted game's table and its
//! panel. The editor shows it for games here and on a server; the browser shows it alone.

use crate::board::PlayBoard;
use crate::combat::CombatDialog;
use crate::rack::RackPanel;
use crate::session::Session;
use crate::side_panel::SidePanel;
use crate::table_panel::TablePanel;

/// The width of the panel beside the board: the game's state, or a fight being settled.
const SIDE_WIDTH: f32 = 360.0;
/// Narrower than this (a phone held upright), the panels go under the board, not beside it.
const NARROW: f32 = 720.0;
/// On a narrow screen, the most of its height the game's panel takes (it scrolls past that).
const NARROW_PANEL_SHARE: f32 = 0.4;
/// On a narrow screen (a finger, not a mouse), the least height of a button and its padding.
const TAP_HEIGHT: f32 = 40.0;

/// The play view's own state (the game's is the session's).
#[derive(Default)]
pub struct PlayView {
    /// The board's view and textures.
    pub board: PlayBoard,
    rack: RackPanel,
    side: SidePanel,
    table: TablePanel,
    combat: CombatDialog,
}

impl PlayView {
    /// Draws `session` in the space left in `ui`, with `message` (the last thing its owner
    /// did or failed to do) under the rack.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session, message: Option<&str>) {
        if ui.available_width() < NARROW {
            self.narrow_screen(ui, session, message);
        } else {
            self.wide_screen(ui, session, message);
        }
        crate::keys::take(ui, session, &mut self.board);
    }

    /// A wide screen's layout: the panel beside the board, the rack under it.
    fn wide_screen(&mut self, ui: &mut egui::Ui, session: &mut Session, message: Option<&str>) {
        if session.game().rules().flow.scripted {
            return self.table_screen(ui, session, message);
        }
        // While a fight is being settled its dialog takes the side panel's place beside the
        // board, and the rest of the game waits: nothing else can be played until the fight
        // is over. The board keeps its place and size (a panel appearing beside it moved it).
        let fighting = session.combat.is_some();
        egui::Panel::right("play side")
            .exact_size(SIDE_WIDTH)
            .show(ui, |ui| {
                // The panel keeps its width whatever it shows (it took the width of a fight).
                let scroll = egui::ScrollArea::vertical().auto_shrink([false, false]);
                if fighting {
                    scroll
                        .id_salt("combat")
                        .show(ui, |ui| self.combat.ui(ui, session));
                } else {
                    scroll.show(ui, |ui| self.side.ui(ui, session, false));
                }
            });
        // The rack's panel keeps the tallest height it had this game, so that a row of tiles
        // played away or a message gone does not stretch the board.
        let rack = egui::Panel::bottom("play rack")
            .min_size(self.board.rack_height)
            .show(ui, |ui| {
                ui.add_enabled_ui(!fighting, |ui| {
                    self.rack.ui(ui, session, &mut self.board);
                });
                if let Some(m) = message {
                    ui.label(m);
                }
            });
        self.board.rack_height = self.board.rack_height.max(rack.response.rect.height());
        egui::CentralPanel::no_frame().show(ui, |ui| {
            // The board stays bright during a fight (it is what the fight is about); it only
            // stops taking input.
            self.board.ui(ui, session);
        });
    }

    /// A scripted game's screen: the table's panel beside the board, no rack.
    fn table_screen(&mut self, ui: &mut egui::Ui, session: &mut Session, message: Option<&str>) {
        egui::Panel::right("play side")
            .default_size(320.0)
            .show(ui, |ui| {
                let textures = self.board.textures();
                egui::ScrollArea::vertical().show(ui, |ui| self.table.ui(ui, session, textures));
                if let Some(m) = message {
                    ui.label(m);
                }
            });
        egui::CentralPanel::no_frame().show(ui, |ui| self.board.ui(ui, session));
    }

    /// A narrow screen's layout (a phone): the board above, and under it the rack and the
    /// game's panel (or the fight's, or a scripted game's table panel), which scrolls; buttons
    /// tall enough for a finger.
    fn narrow_screen(&mut self, ui: &mut egui::Ui, session: &mut Session, message: Option<&str>) {
        let spacing = &mut ui.style_mut().spacing;
        spacing.interact_size.y = spacing.interact_size.y.max(TAP_HEIGHT);
        spacing.button_padding = egui::vec2(12.0, 10.0);
        let fighting = session.combat.is_some();
        let scripted = session.game().rules().flow.scripted;
        let most = ui.max_rect().height() * NARROW_PANEL_SHARE;
        // Sized by what it holds each frame (a fight's dialog is taller than the turn's panel),
        // never by a size remembered from another.
        egui::Panel::bottom("play narrow")
            .resizable(false)
            .show(ui, |ui| {
                if !scripted {
                    // The rack keeps the tallest height it had this game, so that a row of
                    // tiles laid does not grow the board under the finger laying the next.
                    let top = ui.cursor().top();
                    ui.add_enabled_ui(!fighting, |ui| {
                        self.rack.ui(ui, session, &mut self.board);
                    });
                    let used = ui.cursor().top() - top;
                    self.board.rack_height = self.board.rack_height.max(used);
                    ui.add_space(self.board.rack_height - used);
                }
                if let Some(m) = message {
                    ui.label(m);
                }
                // Its share of the screen whenever what it holds is taller (a scroll area takes
                // only the room its panel had the frame before unless told its least height).
                let scroll = egui::ScrollArea::vertical()
                    .max_height(most)
                    .min_scrolled_height(most)
                    .auto_shrink([false, true]);
                if scripted {
                    let textures = self.board.textures();
                    scroll.show(ui, |ui| self.table.ui(ui, session, textures));
                } else if fighting {
                    scroll
                        .id_salt("combat")
                        .show(ui, |ui| self.combat.ui(ui, session));
                } else {
                    scroll.show(ui, |ui| self.side.ui(ui, session, true));
                }
            });
        egui::CentralPanel::no_frame().show(ui, |ui| self.board.ui(ui, session));
    }
}

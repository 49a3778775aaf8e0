//! The rack under the board: the player's letters as coins to drag onto the board (or click to
//! lay at the typing cursor), a drop zone to drag laid letters back to, the captured tokens to
//! invoke, and in hot-seat play a cover until the player to move shows their letters.

use super::board::{CoinLook, Dragged, PlayBoard};
use super::session::Session;
use egui::{Color32, Sense, Stroke, vec2};

/// Narrower than this, the rack's label goes above its coins.
const NARROW_RACK: f32 = 600.0;

/// The side of a coin on the rack, in points.
const COIN: f32 = 44.0;

/// The rack panel (it keeps no state of its own: the rack is the game's).
#[derive(Default)]
pub struct RackPanel;

/// The accessible label of a rack coin.
pub fn rack_label(letter: char) -> String {
    format!("Rack letter {letter}")
}

impl RackPanel {
    /// The rack of the player the board shows.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session, board: &mut PlayBoard) {
        let player = session.viewer();
        if session.rack_hidden {
            let name = session.game().seat_names().name(player).to_string();
            ui.horizontal(|ui| {
                ui.label(format!(
                    "{name}'s letters are hidden until {name} is at the keyboard."
                ));
                if ui.button(format!("Show {name}'s letters")).clicked() {
                    session.rack_hidden = false;
                }
            });
            return;
        }
        let frame = egui::Frame::default().inner_margin(6.0);
        let label = format!("{}'s rack", session.game().seat_names().name(player));
        // On a narrow screen the label goes above the coins, which then take the whole width.
        let narrow = ui.available_width() < NARROW_RACK;
        let (_, dropped) = ui.dnd_drop_zone::<Dragged, ()>(frame, |ui| {
            if narrow {
                ui.label(&label);
            }
            ui.horizontal(|ui| {
                if !narrow {
                    ui.label(&label);
                }
                ui.vertical(|ui| self.coins(ui, session, board));
                ui.separator();
                self.tokens(ui, session, player);
            });
        });
        if let Some(dropped) = dropped
            && let Dragged::Laid(at) = *dropped
        {
            session.unplace(at);
        }
    }

    fn coins(&mut self, ui: &mut egui::Ui, session: &mut Session, board: &mut PlayBoard) {
        let player = session.viewer();
        let letters = session.rack_left(player);
        let discarding = session.picking();
        let mut picked = session.discard_pick.clone();
        // As many coins a row as the width leaves room for (the tokens' buttons beside them
        // keep a coin's width or two), every tile shown however many there are.
        let spacing = ui.spacing().item_spacing.x;
        let per_row =
            (((ui.available_width() - 2.0 * COIN) / (COIN + spacing)).floor() as usize).max(1);
        for (r, row) in letters.chunks(per_row).enumerate() {
            ui.horizontal(|ui| {
                for (j, &letter) in row.iter().enumerate() {
                    let i = r * per_row + j;
                    self.coin(ui, session, board, (i, letter), (discarding, &mut picked));
                }
            });
        }
    }

    /// One coin of the rack, the `i`th, showing `letter`.
    fn coin(
        &mut self,
        ui: &mut egui::Ui,
        session: &mut Session,
        board: &mut PlayBoard,
        (i, letter): (usize, char),
        (discarding, picked): (bool, &mut Vec<char>),
    ) {
        let player = session.viewer();
        let pips = session.game().rules().letter_value(letter).unwrap_or(1);
        let is_picked = picked
            .iter()
            .position(|&c| c == letter)
            .map(|at| picked.remove(at))
            .is_some();
        let paint = |ui: &mut egui::Ui| {
            let (rect, response) = ui.allocate_exact_size(vec2(COIN, COIN), Sense::click());
            let label = rack_label(letter);
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
            let look = CoinLook {
                player,
                letter,
                pips,
                grey: false,
                colour: super::board::mode_colour(session.game(), player),
            };
            look.paint(ui.painter(), rect, board.textures());
            if is_picked {
                ui.painter().circle_stroke(
                    rect.center(),
                    COIN * 0.5,
                    Stroke::new(3.0, Color32::from_rgb(220, 60, 60)),
                );
            }
            response
        };
        let clicked = if session.can_place() && !discarding {
            let id = egui::Id::unique(("rack coin", i));
            coin_source(ui, id, Dragged::Rack(letter), paint)
        } else {
            ui.scope(paint).inner.clicked()
        };
        if clicked {
            self.clicked(session, board, letter, discarding, is_picked);
        }
    }

    /// A click on a rack letter: picks it for discarding or trading, or lays it at the typing
    /// cursor.
    fn clicked(
        &mut self,
        session: &mut Session,
        board: &mut PlayBoard,
        letter: char,
        discarding: bool,
        picked: bool,
    ) {
        if discarding {
            session.toggle_discard(letter, picked);
            return;
        }
        let Some((at, dir)) = board.cursor else {
            session.refusal = Some(
                "drag the letter onto a cell, or click a cell (or press an arrow key) first".into(),
            );
            return;
        };
        match session.place(letter, at) {
            Ok(()) => board.cursor = dir.step(at, 1).map(|next| (next, dir)),
            Err(e) => session.refusal = Some(e),
        }
    }

    fn tokens(&mut self, ui: &mut egui::Ui, session: &mut Session, player: scryptic_core::Player) {
        let tokens: Vec<(String, String)> = session
            .game()
            .player(player)
            .tokens()
            .map(|(id, kind)| (id.to_string(), kind.to_string()))
            .collect();
        let can = session.can_place();
        for (id, kind) in tokens {
            if ui
                .add_enabled(can, egui::Button::new(format!("Invoke {kind}")))
                .on_hover_text(format!("Use the {kind} token captured at {id}"))
                .clicked()
            {
                session.invoke(&id);
            }
        }
    }
}

/// A rack coin that can be dragged onto the board and also tapped or clicked (to lay it at the
/// typing cursor); whether it was. egui's own drag source senses drags only, so a press on it
/// (a finger's tap, a mouse's click) starts a drag and is never a click.
fn coin_source(
    ui: &mut egui::Ui,
    id: egui::Id,
    payload: Dragged,
    paint: impl FnOnce(&mut egui::Ui) -> egui::Response,
) -> bool {
    if ui.ctx().is_being_dragged(id) {
        egui::DragAndDrop::set_payload(ui.ctx(), payload);
        // Drawn on a layer of its own that follows the pointer (as egui's drag source does).
        let layer = egui::LayerId::new(egui::Order::Tooltip, id);
        let drawn = ui.scope_builder(egui::UiBuilder::new().layer_id(layer), paint);
        if let Some(pointer) = ui.ctx().pointer_interact_pos() {
            let delta = pointer - drawn.response.rect.center();
            ui.ctx()
                .transform_layer_shapes(layer, egui::emath::TSTransform::from_translation(delta));
        }
        return false;
    }
    let drawn = ui.scope(paint);
    let held = ui
        .interact(drawn.response.rect, id, Sense::click_and_drag())
        .on_hover_cursor(egui::CursorIcon::Grab);
    drawn.inner.clicked() || held.clicked()
}

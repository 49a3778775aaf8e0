//! A scripted game's side panel (Scryper): who moves, the rules' variables, every player's
//! pits as trays of pieces as the person at the screen sees them (their own dragged from there
//! onto the board), and their legal moves, each a button, and a field to type one as the
//! terminal writes it (`/` goes to it). The board shows the pieces (`table_board`); values
//! hidden from the viewer show as `?`.

use super::session::Session;
use super::table_board::pit_tray;
use crate::textures::TileTextures;
use scryptic_core::Player;
use scryptic_core::game::Action;

/// The panel: the move being typed.
#[derive(Default)]
pub struct TablePanel {
    typed: String,
}

/// The field a move is typed in (`crate::keys` gives it the keyboard on `/`).
pub const MOVE_FIELD: &str = "scripted move";

impl TablePanel {
    /// Draws the panel for `session`'s game and plays the move a person clicks.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        session: &mut Session,
        textures: Option<&TileTextures>,
    ) {
        let game = session.game();
        let names = game.seat_names();
        let viewer = session.viewer();
        let over = game.result().is_some();
        if session.rack_hidden && !over {
            // Two people share the screen: what one sees stays covered until they are at it.
            let name = names.name(viewer).to_string();
            ui.label(format!(
                "{name}'s side is hidden until {name} is at the screen."
            ));
            if ui.button(format!("Show {name}'s side")).clicked() {
                session.rack_hidden = false;
            }
            return;
        }
        let table = if over {
            game.table().clone()
        } else {
            game.table_for(Some(viewer))
        };
        match game.result() {
            Some(result) => {
                let said = scryptic_core::game::describe::describe_result(result);
                ui.heading(names.render(&said));
            }
            None => {
                // A short heading, and what a secret choice means below it (as one heading it
                // wrapped over three lines).
                let (heading, detail) = to_move(game.choosing(), table.secret(), viewer);
                ui.heading(names.render(&heading));
                if let Some(detail) = detail {
                    ui.label(names.render(&detail));
                }
                super::side_panel::move_clock(ui, session);
            }
        }
        if let Some(vars) = table.vars_text() {
            ui.label(names.render(&vars));
        }
        ui.separator();
        for p in game.seats() {
            pits_ui(ui, session, &table, p, textures);
        }
        if over {
            // In a match, the totals and the button that starts the next game.
            super::side_panel::match_standing(ui, session);
        }
        if let Some(refusal) = &session.refusal {
            ui.colored_label(egui::Color32::from_rgb(230, 120, 100), refusal);
        }
        super::side_panel::online_status(ui, session);
        if let Some(person) = session.human_to_act() {
            moves_ui(ui, session, person);
            self.move_field(ui, session, person);
        }
        ui.separator();
        super::side_panel::log(ui, session);
    }

    /// A move typed as the terminal writes it (`C8-C6`, `field 3 C8`, `ready`), played on
    /// Enter if it is one of `person`'s; the field keeps the keyboard for the next.
    fn move_field(&mut self, ui: &mut egui::Ui, session: &mut Session, person: Player) {
        let field = egui::TextEdit::singleline(&mut self.typed)
            .id(egui::Id::unique(MOVE_FIELD))
            .hint_text("type a move (/)")
            .desired_width(160.0);
        let response = ui.add(field).on_hover_text(
            "A move as the terminal writes it (C8-C6, C6xC5, field 3 C8, ready), Enter to play it",
        );
        if !(response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))) {
            return;
        }
        // `/` goes to the field: typed again while it is there, it is not part of the move.
        let typed = self.typed.trim_start_matches('/').trim();
        let moves = session.moves_of(person);
        match scryptic_core::game::move_spelled(&moves, typed) {
            Some(mv) => {
                session.picked = None;
                session.act(Action::Move {
                    player: person,
                    mv: mv.clone(),
                });
                self.typed.clear();
            }
            None if typed.is_empty() => {}
            None => {
                session.refusal = Some(format!(
                    "`{typed}` is not one of your moves now: {}",
                    moves.join(", ")
                ));
            }
        }
        response.request_focus();
    }
}

/// The moves of `person`, the one to act: those of the picked cell, or all, as buttons.
fn moves_ui(ui: &mut egui::Ui, session: &mut Session, person: Player) {
    let names = session.game().seat_names().clone();
    ui.separator();
    match session.picked {
        Some(cell) => ui.label(format!(
            "{}'s moves with {} (click another cell to play one, or the same to see all)",
            names.name(person),
            scryptic_core::game::notation::cell_name(cell)
        )),
        None => ui.label(format!("{}'s moves", names.name(person))),
    };
    let moves = session.offered_moves();
    let mut chosen = None;
    ui.horizontal_wrapped(|ui| {
        for mv in &moves {
            if ui.button(mv).clicked() {
                chosen = Some(mv.clone());
            }
        }
    });
    if let Some(mv) = chosen {
        session.picked = None;
        session.act(Action::Move { player: person, mv });
    }
}

/// `player`'s pieces: how many are on the board, then each pit as a tray of pieces (their
/// values as the person at the screen sees them), which the person to act drags from.
fn pits_ui(
    ui: &mut egui::Ui,
    session: &Session,
    table: &scryptic_core::game::Table,
    player: Player,
    textures: Option<&TileTextures>,
) {
    let names = session.game().seat_names();
    let on_board = table
        .pieces()
        .iter()
        .filter(|p| p.owner == player && matches!(p.place, scryptic_core::game::Place::Cell(_)))
        .count();
    ui.strong(format!("{}: {on_board} on the board", names.name(player)));
    for pit in table.pit_names(player) {
        let count = table.pit(player, pit).count();
        ui.label(format!("{pit} ({count})"));
        pit_tray(ui, session, table, (player, pit), textures);
    }
}

/// Who moves now, in the engine's words (the caller renders the seats' names), and what a
/// secret choice means.
fn to_move(choosing: Vec<Player>, secret: bool, viewer: Player) -> (String, Option<String>) {
    let names: Vec<String> = choosing.iter().map(|p| p.to_string()).collect();
    if secret {
        return (
            format!("{} choose in secret", names.join(" and ")),
            Some(format!(
                "{viewer}'s choices stay {viewer}'s until all are made"
            )),
        );
    }
    (format!("{} to move", names.join(" and ")), None)
}

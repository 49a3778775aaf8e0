//! The side panel's part in simultaneous play: the round and the pool, the signal to call
//! (enabled only when the crossword at the screen is complete), the grace period's clock,
//! jaywalking, the crossword's state as it is laid, and who has the screen.

use super::session::Session;
use egui::RichText;
use std::time::Duration;

/// The simultaneous-play controls (their state is the session's, and the letter picked to
/// jaywalk).
#[derive(Default)]
pub struct AtOncePanel {
    /// The letter picked to jaywalk.
    jaywalk_pick: Option<char>,
}

impl AtOncePanel {
    /// The controls.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let game = session.game();
        if game.result().is_some() {
            return;
        }
        let pool = game.pool_letters(session.at_screen).len();
        ui.label(
            RichText::new(format!(
                "Round {}: everyone plays at once; {pool} tiles in the pool",
                game.light_round()
            ))
            .strong(),
        );
        if let Some(left) = session.grace_left() {
            let caller = game
                .red_light_caller()
                .map_or(String::new(), |p| game.seat_names().name(p).to_string());
            ui.label(format!(
                "{caller} called red light: {} s left to finish",
                left.as_secs()
            ));
            ui.ctx().request_repaint_after(Duration::from_millis(250));
        }
        screen_switch(ui, session);
        if session.human_to_act().is_none() {
            return;
        }
        crossword_state(ui, session);
        signal(ui, session);
        self.jaywalk(ui, session);
    }

    fn jaywalk(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let player = session.at_screen;
        if !session.game().rules().flow.jaywalk {
            return;
        }
        let mut rack: Vec<char> = session.game().rack_letters(player).chars().collect();
        rack.sort_unstable();
        rack.dedup();
        if self.jaywalk_pick.is_some_and(|c| !rack.contains(&c)) {
            self.jaywalk_pick = None;
        }
        let allowed = session.game().may_jaywalk(player) && !session.rack_hidden;
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("to jaywalk")
                .selected_text(self.jaywalk_pick.map_or("letter".to_string(), String::from))
                .show_ui(ui, |ui| {
                    for &c in &rack {
                        ui.selectable_value(&mut self.jaywalk_pick, Some(c), c.to_string());
                    }
                });
            let button = egui::Button::new("Jaywalk");
            if ui
                .add_enabled(allowed && self.jaywalk_pick.is_some(), button)
                .on_hover_text("Once a round: return the letter to the pool and draw another")
                .clicked()
                && let Some(letter) = self.jaywalk_pick.take()
            {
                session.jaywalk(letter);
            }
        });
    }
}

/// Whether the crossword at the screen is complete, or what it lacks, as it is laid.
fn crossword_state(ui: &mut egui::Ui, session: &Session) {
    let game = session.game();
    let player = session.at_screen;
    let text = match game.crossword_lacks(player) {
        None => format!(
            "Your crossword is complete: {}",
            game.crossing_score(player)
        ),
        Some(lacking) => format!("Your crossword: {lacking}"),
    };
    ui.label(text);
}

/// Green light (or red light once the pool runs low), enabled only when it may be called.
fn signal(ui: &mut egui::Ui, session: &mut Session) {
    let game = session.game();
    let label = if game.green_light_possible() {
        "Green light"
    } else {
        "Red light"
    };
    let signal = session.signal_now();
    let hint = "Your crossword must use every tile, in one group, every run a word";
    if ui
        .add_enabled(signal.is_some(), egui::Button::new(label))
        .on_hover_text(format!("{label} (Enter)"))
        .on_disabled_hover_text(hint)
        .clicked()
        && let Some(action) = signal
    {
        session.act(action);
    }
}

/// A button for each person at the table who may take the screen.
fn screen_switch(ui: &mut egui::Ui, session: &mut Session) {
    let people = session.human_seats();
    if people.len() < 2 {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("At the screen:");
        let names = session.game().seat_names();
        for player in people {
            let here = session.at_screen == player;
            let label = crossword_of(names.name(player));
            if ui.selectable_label(here, label).clicked() {
                session.take_screen(player);
            }
        }
    });
}

fn crossword_of(name: &str) -> String {
    format!("{name}'s crossword")
}

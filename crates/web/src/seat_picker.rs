//! The page a match's link opens first (when this browser keeps no seat for it): the match,
//! who sits where, a name to type, a seat to take, or the match to watch.

use crate::keep::KeptSeat;
use scryptic_play::server_seat::occupant_words;
use scryptic_protocol::{MatchInfo, MatchState, Occupant};

/// What a person chose on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Take this open seat.
    Take(String),
    /// Come back to the seat this browser keeps, with its token.
    Rejoin(String),
    /// Step through the finished match's log.
    Replay,
    /// Watch the match.
    Watch,
    /// Ask the server again.
    Refresh,
}

/// The seat picker's own state: the name being typed.
#[derive(Default)]
pub struct SeatPicker {
    /// The name the others see.
    pub name: String,
}

/// The most characters of a name the server takes.
const NAME_LIMIT: usize = 40;

impl SeatPicker {
    /// Draws the match `info` (with the seat this browser `kept` for it, and `message`, the
    /// last thing that happened), and what was chosen.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        info: &MatchInfo,
        kept: Option<&KeptSeat>,
        message: Option<&str>,
    ) -> Option<Choice> {
        let mut choice = None;
        ui.heading(&info.title);
        ui.label(format!(
            "{} · match {} · {}",
            info.mode,
            info.id,
            state_words(info)
        ));
        if let Some(message) = message {
            ui.colored_label(ui.visuals().warn_fg_color, message);
        }
        ui.add_space(8.0);
        if let Some(kept) = kept {
            let back = egui::Button::new(format!("Back to your seat ({})", kept.seat))
                .min_size(egui::vec2(160.0, 36.0));
            if ui.add(back).clicked() {
                choice = Some(Choice::Rejoin(kept.token.clone()));
            }
            ui.add_space(8.0);
        }
        let open = info.state != MatchState::Over;
        if open && info.seats.iter().any(|s| s.occupant == Occupant::Open) {
            ui.horizontal(|ui| {
                ui.label("Your name");
                ui.add(
                    egui::TextEdit::singleline(&mut self.name)
                        .char_limit(NAME_LIMIT)
                        .hint_text("the others see it"),
                );
            });
        }
        egui::Grid::new("seats")
            .striped(true)
            .num_columns(2)
            .show(ui, |ui| {
                for seat in &info.seats {
                    ui.label(format!("{}: {}", seat.seat, occupant_words(&seat.occupant)));
                    if open && seat.occupant == Occupant::Open {
                        let take = egui::Button::new(format!("Take {}", seat.seat))
                            .min_size(egui::vec2(120.0, 36.0));
                        if ui.add(take).clicked() {
                            choice = Some(Choice::Take(seat.seat.clone()));
                        }
                    }
                    ui.end_row();
                }
            });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui
                .add(egui::Button::new("Watch").min_size(egui::vec2(96.0, 36.0)))
                .clicked()
            {
                choice = Some(Choice::Watch);
            }
            if ui
                .add(egui::Button::new("Refresh").min_size(egui::vec2(96.0, 36.0)))
                .clicked()
            {
                choice = Some(Choice::Refresh);
            }
            if info.state == MatchState::Over && info.log_after_end {
                let replay = egui::Button::new("Step through it").min_size(egui::vec2(120.0, 36.0));
                if ui.add(replay).clicked() {
                    choice = Some(Choice::Replay);
                }
                ui.hyperlink_to("Download its log", format!("/api/matches/{}/save", info.id));
            }
        });
        choice
    }
}

fn state_words(info: &MatchInfo) -> String {
    match info.state {
        MatchState::Waiting => {
            let open = info
                .seats
                .iter()
                .filter(|s| s.occupant == Occupant::Open)
                .count();
            format!(
                "waiting for {open} player{}",
                if open == 1 { "" } else { "s" }
            )
        }
        MatchState::Playing => "under way".into(),
        MatchState::Over => "over".into(),
    }
}

//! The panel beside the board: whose turn it is (and the AI thinking), each player's score in
//! its word and base parts, letters left in each pool, cities and spies; the actions (commit,
//! return letters, end turn, spy, discard, lift a word); undo and the AI's pace; the event log
//! and the scripts' console.

use super::session::Session;
use egui::{Color32, RichText};
use scryptic_core::Player;
use scryptic_core::game::describe::describe_result;
use std::time::Duration;

/// The side panel (its state is the session's, and simultaneous play's controls').
#[derive(Default)]
pub struct SidePanel {
    at_once: super::at_once_panel::AtOncePanel,
}

impl SidePanel {
    /// The panel's contents. `compact` (a phone's narrow screen, the panel under the board):
    /// what to do now comes before the players' cards, and the title is left to the page.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session, compact: bool) {
        if !compact {
            ui.heading(&session.title);
        }
        if let Some(notice) = &session.notice {
            ui.colored_label(Color32::from_rgb(240, 220, 120), notice);
        }
        if session.at_once() {
            match_standing(ui, session);
            if let Some(result) = session.game().result() {
                let text = session.game().seat_names().render(&describe_result(result));
                ui.label(RichText::new(sentence_case(&text)).strong());
            }
            self.at_once.ui(ui, session);
            if let Some((player, elapsed)) = session.thinking() {
                thinking_bar(ui, session.game().seat_names().name(player), elapsed);
            }
        } else {
            self.status(ui, session);
        }
        if compact {
            self.controls(ui, session);
            ui.separator();
            self.cards(ui, session);
        } else {
            ui.separator();
            self.cards(ui, session);
            ui.separator();
            self.controls(ui, session);
        }
        ui.separator();
        log(ui, session);
    }

    fn cards(&mut self, ui: &mut egui::Ui, session: &Session) {
        let seats: Vec<Player> = session.game().seats().collect();
        for player in seats {
            self.player_card(ui, session, player);
        }
    }

    /// What a person may do now: the actions (or undo, in simultaneous play), the AIs' pace,
    /// and the last refusal.
    fn controls(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        if session.at_once() {
            undo(ui, session);
        } else {
            self.actions(ui, session);
        }
        self.ai_controls(ui, session);
        if let Some(refusal) = &session.refusal {
            ui.colored_label(Color32::from_rgb(235, 110, 90), refusal);
        }
    }

    fn status(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let game = session.game();
        if let Some(result) = game.result() {
            let text = game.seat_names().render(&describe_result(result));
            ui.label(RichText::new(sentence_case(&text)).strong());
            if let Some(award) = scryptic_core::game::describe::describe_award(game) {
                ui.label(award);
            }
            match_standing(ui, session);
            return;
        }
        match_standing(ui, session);
        let game = session.game();
        let to_act = game.to_act();
        // A question waiting (a combat's order, an offer of sudden death) is asked as such.
        let waiting = match game.prompt() {
            Some(prompt) => format!("Turn {}: {}", game.turn(), prompt.question()),
            None => format!(
                "Turn {}: {} to play",
                game.turn(),
                game.seat_names().name(to_act)
            ),
        };
        ui.label(RichText::new(waiting).strong());
        move_clock(ui, session);
        answer_offer(ui, session);
        if let Some((player, elapsed)) = session.thinking() {
            thinking_bar(ui, session.game().seat_names().name(player), elapsed);
        }
    }

    fn player_card(&mut self, ui: &mut egui::Ui, session: &Session, player: Player) {
        let game = session.game();
        let state = game.player(player);
        let seat = session.seat_label(player);
        let marker = if game.active() == player && game.result().is_none() {
            "> "
        } else {
            ""
        };
        let name = game.seat_names().name(player).to_string();
        ui.label(RichText::new(format!("{marker}{name} ({seat})")).strong());
        ui.label(scryptic_core::game::describe::score_words(game, player));
        ui.label(holdings_line(game, player, state.rack.len()));
    }

    fn actions(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let can = session.can_place();
        let excess = session.excess();
        ui.horizontal_wrapped(|ui| {
            let laid = !session.placed.is_empty();
            if ui
                .add_enabled(can && laid, egui::Button::new("Commit"))
                .on_hover_text("Commit the laid letters (Enter)")
                .clicked()
            {
                session.request_commit();
            }
            if ui
                .add_enabled(laid, egui::Button::new("Return letters"))
                .clicked()
            {
                session.recall();
            }
            let end = ui.add_enabled(can && session.can_end_turn(), egui::Button::new("End turn"));
            let end = end.on_hover_text(crate::keys::with_shortcut(
                ui.ctx(),
                "End the turn",
                &crate::keys::END_TURN,
            ));
            if end.clicked() {
                session.end_turn();
            }
            if can && session.game().rules().flow.forfeit && ui.button("Forfeit").clicked() {
                session.forfeit();
            }
            if can && session.may_call_sudden_death() && ui.button("Sudden death").clicked() {
                session.act(scryptic_core::game::Action::CallSuddenDeath);
            }
            // Rules without spies show no Spy button.
            let spies = session.game().spies_left(session.game().active());
            let has_spies = session.game().rules().turn.spies_per_game > 0;
            if has_spies
                && ui
                    .add_enabled(
                        can && spies > 0,
                        egui::Button::new(format!("Spy ({spies} left)")),
                    )
                    .clicked()
            {
                session.spy();
            }
        });
        if excess > 0 && can {
            ui.label(format!(
                "Your rack is over its limit: click {excess} letters on the rack, then Discard."
            ));
            let ready = session.discard_pick.len() == excess;
            if ui
                .add_enabled(ready, egui::Button::new("Discard"))
                .clicked()
            {
                session.discard_picked();
            }
        }
        if session.can_trade() && excess == 0 {
            trade_controls(ui, session);
        }
        if can {
            self.redeploy(ui, session);
        }
        undo(ui, session);
    }

    /// The player's words, each with a button to lift it back to the rack.
    fn redeploy(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        if session.game().rules().turn.redeploys_per_turn == 0 {
            return;
        }
        let player = session.game().active();
        let words: Vec<_> = session
            .game()
            .words()
            .into_iter()
            .filter(|w| w.word.player == player)
            .map(|w| (w.word.key, w.word.text))
            .collect();
        if words.is_empty() {
            return;
        }
        egui::CollapsingHeader::new("Redeploy a word")
            .id_salt("redeploy")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for (key, text) in words {
                        if ui.button(format!("Lift {text}")).clicked() {
                            session.redeploy(key);
                        }
                    }
                });
            });
    }

    fn ai_controls(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        // Only AIs playing each other are paced by a person (online, the server paces its AIs).
        if session.has_human() || session.game().result().is_some() {
            return;
        }
        let Some(pace) = session.pace() else {
            return;
        };
        ui.horizontal(|ui| {
            let label = if pace.paused { "Resume" } else { "Pause" };
            if ui.button(label).clicked() {
                pace.paused = !pace.paused;
            }
            let slider = egui::Slider::new(&mut pace.delay, 0.0..=3.0).suffix(" s");
            ui.label("between moves");
            ui.add(slider);
        });
    }
}

/// The game's events, told as they happen (the AI's moves and battles among them), and the
/// scripts' console.
pub(super) fn log(ui: &mut egui::Ui, session: &Session) {
    egui::CollapsingHeader::new("Events")
        .default_open(true)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("events")
                .max_height(220.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &session.log {
                        ui.label(line);
                    }
                });
        });
    egui::CollapsingHeader::new("Console")
        .default_open(!session.console.is_empty())
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("console")
                .max_height(160.0)
                .stick_to_bottom(true)
                .show(ui, |ui| {
                    for line in &session.console {
                        ui.monospace(line);
                    }
                });
        });
}

/// The AI at work: who, for how long, and a bar that sweeps while it thinks. It asks for a
/// repaint a little later rather than at once, so an idle window stays idle.
/// The undo button.
/// Undo for a game here; online, where the match stands instead (the server's log is the
/// match's: nothing is undone).
fn undo(ui: &mut egui::Ui, session: &mut Session) {
    if session.online().is_some() {
        return online_status(ui, session);
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(session.can_undo(), egui::Button::new("Undo last action"))
            .clicked()
            && let Err(e) = session.undo()
        {
            session.refusal = Some(e);
        }
    });
}

/// Online: whether the match waits for players (and how they join), who watches, and the
/// connection's state.
pub fn online_status(ui: &mut egui::Ui, session: &Session) {
    use scryptic_protocol::MatchState;
    let Some(remote) = session.online() else {
        return;
    };
    let address = &remote.address;
    match remote.state {
        MatchState::Waiting => {
            ui.label(RichText::new("Waiting for players").strong());
            ui.label(format!(
                "Others take the open seats from their editor's Online screen, or with scryptic join {address}"
            ));
        }
        MatchState::Playing => {
            ui.weak(format!("Played on {address}"));
        }
        MatchState::Over if remote.log_after_end => {
            ui.weak("The match is over: Save game... keeps its whole log");
        }
        MatchState::Over => {
            ui.weak("The match is over");
        }
    }
    if remote.watching {
        ui.label("You are watching: every rack and secret stays hidden.");
    }
    if remote.reconnecting {
        ui.colored_label(Color32::from_rgb(235, 150, 90), "Connecting again...");
        ui.ctx().request_repaint_after(Duration::from_secs(1));
    }
}

fn thinking_bar(ui: &mut egui::Ui, name: &str, elapsed: Duration) {
    let seconds = elapsed.as_secs_f32();
    ui.label(format!("{name} (AI) is thinking... {seconds:.1} s"));
    let sweep = (seconds * 0.8).fract();
    ui.add(egui::ProgressBar::new(sweep).desired_height(6.0));
    ui.ctx().request_repaint_after(Duration::from_millis(60));
}

/// Trading letters back into the pool, where the rules allow it: pick letters on the rack,
/// then trade them (the opponent's gain is said before).
fn trade_controls(ui: &mut egui::Ui, session: &mut Session) {
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut session.trading, "Pick letters to trade");
        if !session.trading {
            session.discard_pick.clear();
            return;
        }
        let count = session.discard_pick.len();
        let per_letter = session.game().rules().exchange.opponent_points_per_letter;
        let label = format!(
            "Trade {} (your opponent scores {})",
            scryptic_core::diag::counted(count, "letter"),
            per_letter.saturating_mul(i64::try_from(count).unwrap_or(0))
        );
        if ui
            .add_enabled(count > 0, egui::Button::new(label))
            .clicked()
        {
            session.trade_picked();
        }
    });
}

/// A player's letters, cities and spies in one line; cities and spies only where the game
/// has them (a board without cities, rules without spies say nothing of them).
fn holdings_line(
    game: &scryptic_core::game::Game,
    player: scryptic_core::Player,
    rack: usize,
) -> String {
    let mut parts = vec![
        format!("pool {} letters", game.pool_letters(player).len()),
        format!("rack {rack}"),
    ];
    if !game.board().cities.is_empty() {
        parts.push(format!("cities {}", game.board().cities_of(player)));
    }
    if game.rules().turn.spies_per_game > 0 {
        parts.push(format!("spies {}", game.spies_left(player)));
    }
    parts.join(" · ")
}

/// Accept and Refuse, when an offer of sudden death waits on the person at the computer.
fn answer_offer(ui: &mut egui::Ui, session: &mut Session) {
    let Some(scryptic_core::game::Prompt::SuddenDeath { .. }) = session.game().prompt() else {
        return;
    };
    if session.human_to_act().is_none() {
        return;
    }
    ui.horizontal(|ui| {
        for (label, accept) in [("Accept", true), ("Refuse", false)] {
            if ui.button(label).clicked() {
                session.act(scryptic_core::game::Action::Answer { accept });
            }
        }
    });
}

/// `text` with its first letter a capital, to start a line (`Game over: ...`).
fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Where the match stands (in a match): the round, its points and the totals, and, once
/// the round has ended, the button that starts the next.
pub fn match_standing(ui: &mut egui::Ui, session: &mut Session) {
    let Some(standing) = scryptic_core::game::describe::describe_match(session.game()) else {
        return;
    };
    for line in standing.lines() {
        ui.label(line);
    }
    if session.has_next_round()
        && ui.button("Next round").clicked()
        && let Err(e) = session.next_round()
    {
        session.refusal = Some(e);
    }
}

/// The time left for the move the server's clock waits on, in a match with a move's time: a
/// move left too long loses the game.
pub(crate) fn move_clock(ui: &mut egui::Ui, session: &Session) {
    let Some(left) = session.move_left() else {
        return;
    };
    let words = scryptic_protocol::time_words(left.as_millis() as u64);
    let text = format!("{words} left for this move");
    let urgent = left < std::time::Duration::from_secs(60);
    let colour = if urgent {
        Color32::from_rgb(235, 110, 90)
    } else {
        ui.visuals().text_color()
    };
    ui.colored_label(colour, text)
        .on_hover_text("The server's clock: a move not made in time loses the game");
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_secs(1));
}

//! The play view's keyboard, so that a game can be played from the keyboard alone: letters are
//! laid at the board's typing cursor, the arrows move it, Backspace takes a letter back; Enter
//! commits the laid letters (in simultaneous play, where letters are laid as they are typed, it
//! calls green or red light once the crossword is complete) or, while the combat dialog is
//! open, takes its first choice (Attack, Defend in this order, the next step); Escape cancels a previewed attack, closes the
//! fight's steps, or takes the cursor away; Ctrl+Enter (⌘+Enter on a Mac) ends the turn. In a
//! scripted game `/` goes to the field a move is typed in.
//!
//! The keys are taken in the order they came, whatever frame they came in (a quick typist's,
//! or a browser's batch): Escape closing the fight's steps, then a word typed, then Enter, all
//! in one frame, closes, lays and commits.

use crate::board::PlayBoard;
use crate::session::{CombatStage, Session};
use egui::{Event, Key, KeyboardShortcut, Modifiers};

/// Ends the turn.
pub const END_TURN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Enter);

/// Takes this frame's keys, in order. Nothing while a text field is typed in or a widget
/// reached with Tab has the focus (Enter presses that widget).
pub(crate) fn take(ui: &egui::Ui, session: &mut Session, board: &mut PlayBoard) {
    let ctx = ui.ctx();
    if ctx.egui_wants_keyboard_input() || ctx.memory(|m| m.focused().is_some()) {
        return;
    }
    let keys: Vec<Event> = ctx.input(|i| {
        (i.events.iter())
            .filter(|e| matches!(e, Event::Text(_) | Event::Key { pressed: true, .. }))
            .cloned()
            .collect()
    });
    if keys.is_empty() {
        return;
    }
    for event in keys {
        match event {
            Event::Key { key, modifiers, .. } => self::key(key, modifiers, session, board),
            // In a scripted game `/` goes to the field a move is typed in (as lichess's).
            Event::Text(text) if text == "/" && session.game().rules().flow.scripted => {
                let field = egui::Id::unique(crate::table_panel::MOVE_FIELD);
                ctx.memory_mut(|m| m.request_focus(field));
            }
            Event::Text(text) if PlayBoard::takes_keys(session) => board.lay_typed(&text, session),
            _ => {}
        }
    }
    // What the keys changed is drawn at once, not at the next event.
    ctx.request_repaint();
}

fn key(key: Key, modifiers: Modifiers, session: &mut Session, board: &mut PlayBoard) {
    if END_TURN.logical_key == key && modifiers.matches_logically(END_TURN.modifiers) {
        if session.combat.is_none() && session.can_place() && session.can_end_turn() {
            session.end_turn();
        }
        return;
    }
    if !modifiers.is_none() {
        return;
    }
    match key {
        Key::Enter => enter(session),
        Key::Escape if session.combat.is_some() => session.close_combat(),
        _ if PlayBoard::takes_keys(session) => board.key(key, session),
        _ => {}
    }
}

/// Enter: the combat dialog's first choice while it is open, else the laid letters committed.
fn enter(session: &mut Session) {
    match &session.combat {
        Some(CombatStage::Preview { .. }) => session.proceed(),
        Some(CombatStage::Order { .. }) => session.defend(true),
        Some(CombatStage::Resolution { .. }) => session.next_step(),
        None if session.can_place() && !session.placed.is_empty() => session.request_commit(),
        None if session.at_once() => {
            if let Some(signal) = session.signal_now() {
                session.act(signal);
            }
        }
        None => {}
    }
}

/// `label` with the shortcut that does the same, for a button's hover text.
pub fn with_shortcut(ctx: &egui::Context, label: &str, shortcut: &KeyboardShortcut) -> String {
    format!("{label} ({})", ctx.format_shortcut(shortcut))
}

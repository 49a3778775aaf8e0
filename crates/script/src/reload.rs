//! Hot reload: a changed script replaces its old definitions only if it loads cleanly; if it
//! fails, everything it did is undone (registrations and storage writes: loading is one
//! transaction, see `State::load_as`), the old handlers stay and the error is reported.
//! `storage` is kept, and the script's `on_reload` handlers run after a good reload.

use super::{Registry, ScriptError, State};
use std::sync::MutexGuard;

/// Everything one script registered, taken out of the registry while its new text loads.
#[derive(Default)]
pub(super) struct Taken {
    handlers: Vec<super::Handler>,
    tokens: Vec<super::Definition>,
    win_conditions: Vec<super::Definition>,
    modifiers: Vec<super::Definition>,
    game_modes: Vec<super::Definition>,
    interfaces: Vec<super::Definition>,
}

pub(super) fn take_script(r: &mut Registry, script: &str) -> Taken {
    let split_handlers = |list: &mut Vec<super::Handler>| {
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(list)
            .into_iter()
            .partition(|h| h.script == script);
        *list = rest;
        mine
    };
    let split = |list: &mut Vec<super::Definition>| {
        let (mine, rest): (Vec<_>, Vec<_>) = std::mem::take(list)
            .into_iter()
            .partition(|d| d.script == script);
        *list = rest;
        mine
    };
    let taken = Taken {
        handlers: split_handlers(&mut r.handlers),
        tokens: split(&mut r.tokens),
        win_conditions: split(&mut r.win_conditions),
        modifiers: split(&mut r.modifiers),
        game_modes: split(&mut r.game_modes),
        interfaces: split(&mut r.interfaces),
    };
    r.changed();
    taken
}

/// Drops what `script` registered and puts `taken` (its registrations before) back.
pub(super) fn put_back_only(r: &mut Registry, script: &str, taken: Taken) {
    drop(take_script(r, script));
    put_back(r, taken);
}

fn put_back(r: &mut Registry, taken: Taken) {
    r.handlers.extend(taken.handlers);
    r.tokens.extend(taken.tokens);
    r.win_conditions.extend(taken.win_conditions);
    r.modifiers.extend(taken.modifiers);
    r.game_modes.extend(taken.game_modes);
    r.interfaces.extend(taken.interfaces);
    r.changed();
}

impl State {
    pub(super) fn registry_lock(&self) -> MutexGuard<'_, Registry> {
        match self.registry.lock() {
            Ok(r) => r,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Runs the handlers of `event` that `script` registered, with no arguments.
    pub(super) fn dispatch_for(&mut self, script: &str, event: &str) -> Vec<ScriptError> {
        let calls: Vec<mlua::Function> = self
            .registry_lock()
            .handlers
            .iter()
            .filter(|h| h.script == script && h.event == event && !h.disabled)
            .map(|h| h.func.clone())
            .collect();
        // Outside a game call there is no game to hand over: `game` is nil, the event empty.
        let prepared = super::lua_values::prepare_event(&self.lua, event, &[]);
        let mut errors = Vec::new();
        for func in calls {
            let called = match &prepared {
                Ok(p) => self.guarded(|| p.call(&func, None)),
                Err(e) => Err(e.clone()),
            };
            if let Err(e) = called {
                errors.push(self.error(script, event, None, &e));
            }
        }
        errors
    }
}

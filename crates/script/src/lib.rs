//! The Lua host: one sandboxed state per level or mod (see `sandbox`), the scripts loaded into
//! it, what they registered (event handlers, token kinds, win conditions, strength modifiers),
//! and the console they print to.
//!
//! Invariant: only this module touches mlua; the engine knows scripts only through the
//! `TokenEffects` trait and the commands it validates.

#![deny(missing_docs)]

// The other crates' modules, named as the rest of the runtime names them.
use scryptic_ai as ai;
use scryptic_core::{board, diag, fsutil, game, lexicon, limits, map, rules, save, scenario};
use scryptic_pack as pack;

pub mod api;
pub mod api_docs;
mod bounded;
mod errors;
mod filter;
mod game_mode;
mod game_view;
mod host;
mod interfaces;
mod isolation;
mod level;
pub mod live;
mod locale;
mod lua_values;
mod patterns;
mod reload;
mod rounds;
mod sandbox;
mod scryptic_table;
mod session;
mod storage;
mod text;
mod tokens;
pub mod watch;

pub use errors::{ScriptError, ScriptFileError, read_script, read_script_file};
use errors::{describe_error, first_lua_frame, setup_error, split_location};

pub use game_mode::ScriptMode;
pub use host::{MAX_STATES, ScriptHost};
pub use lua_values::EventField;
pub use rounds::Carried;
pub use session::{
    ACTION_WORK, Departure, MAX_REPLAY_WORK, ReplayOptions, ReplayStop, Replayed, ScriptedGame,
};
pub use storage::StorageError;
pub use tokens::{ScriptModifiers, ScriptTokens};

pub use sandbox::{BUDGET_MESSAGE, DEADLINE_MESSAGE, MEMORY_MESSAGE};

use mlua::{Function, Lua, Table};
use sandbox::{Budget, current_script};
use scryptic_table::{install_api, lock};
use std::sync::{Arc, Mutex};

/// The events scripts can handle with `scryptic.on` (from the API registry).
pub fn events() -> impl Iterator<Item = &'static str> {
    api::EVENT_FIELDS.iter().map(|(name, _, _)| *name)
}

/// The four standard elementals, written in Lua against the public API (`scripts/tokens/`),
/// built into the runtime so that every game has them.
pub const STANDARD_TOKENS: [(&str, &str); 4] = [
    (
        "scripts/tokens/volcano.lua",
        include_str!("../../../scripts/tokens/volcano.lua"),
    ),
    (
        "scripts/tokens/drought.lua",
        include_str!("../../../scripts/tokens/drought.lua"),
    ),
    (
        "scripts/tokens/flood.lua",
        include_str!("../../../scripts/tokens/flood.lua"),
    ),
    (
        "scripts/tokens/firestorm.lua",
        include_str!("../../../scripts/tokens/firestorm.lua"),
    ),
];

/// What scripts may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Memory for the whole state, in bytes.
    pub memory_bytes: usize,
    /// VM instructions for one event (one handler call, or loading one script).
    pub instructions: u64,
    /// Failures after which a handler is switched off.
    pub failures_before_disable: u32,
    /// Wall-clock time for one event: the last guard, for work the instruction count does
    /// not see (copying long strings). A script stopped by it may stop elsewhere on a faster
    /// machine, so the budget is meant to stop scripts long before.
    pub deadline: std::time::Duration,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            memory_bytes: 16 * 1024 * 1024,
            instructions: 2_000_000,
            failures_before_disable: 3,
            deadline: std::time::Duration::from_secs(1),
        }
    }
}

/// A line of the script console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsoleLine {
    /// What a script printed.
    Output {
        /// The script.
        script: String,
        /// The text.
        text: String,
    },
    /// A script's error.
    Error(ScriptError),
    /// What a script told the players (`game:message`, a token's message): one line, shown
    /// with a mark of its own so that it never passes for the host's notices.
    Message(String),
    /// A notice from the host (a handler switched off, a script reloaded).
    Notice(String),
}

impl std::fmt::Display for ConsoleLine {
    /// The line as a console shows it: `[script] text`, `error: ...` or `* notice`. What a
    /// script printed is marked as its own on every line, so that none of its lines passes for
    /// the host's (its errors and messages are on one line each, see `text`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConsoleLine::Output { script, text } => {
                for (i, line) in text.split('\n').enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "[{script}] {line}")?;
                }
                Ok(())
            }
            ConsoleLine::Error(e) => write!(f, "error: {e}"),
            ConsoleLine::Message(m) => write!(f, "\u{bb} {m}"),
            ConsoleLine::Notice(n) => write!(f, "* {n}"),
        }
    }
}

struct Handler {
    script: String,
    event: String,
    filter: filter::EventFilter,
    func: Function,
    failures: u32,
    disabled: bool,
}

/// A named definition a script registered (a token kind, a win condition, a strength modifier).
struct Definition {
    script: String,
    id: String,
    table: Table,
    /// Failed calls (win conditions: one past the limit switches it off).
    failures: u32,
}

struct Registry {
    handlers: Vec<Handler>,
    tokens: Vec<Definition>,
    win_conditions: Vec<Definition>,
    modifiers: Vec<Definition>,
    /// The game mode a script defines (`scryptic.game_mode`): the last defined plays.
    game_modes: Vec<Definition>,
    /// Interfaces scripts provide (`scryptic.provide`), by name.
    interfaces: Vec<Definition>,
    /// The packs' string tables in the game's language (`scryptic.t`).
    strings: crate::save::StringTables,
    /// The pack whose scripts run in this state (its strings are named without a prefix).
    own_pack: String,
    /// The game's turn at the last event (0 before any): what `scryptic.after` counts from.
    turn: u32,
    /// What this state shares with the game's other states (emitted events, interfaces, the
    /// summary of what is registered).
    links: Arc<host::Links>,
    /// This state's place among them.
    slot: usize,
}

/// Which events have handlers, and whether win conditions and strength modifiers exist, in
/// any of a game's states: most of an action's events have no handler, and then nothing is
/// locked at all.
#[derive(Default)]
pub(crate) struct RegistrySummary {
    /// One bit per event of `events()`, in its order.
    handled: std::sync::atomic::AtomicU64,
    win_conditions: std::sync::atomic::AtomicBool,
    modifiers: std::sync::atomic::AtomicBool,
    /// Each state's part, by slot (handled events, win conditions, modifiers): what the
    /// atomics above sum up. Written only when something is registered.
    parts: Mutex<Vec<(u64, bool, bool)>>,
}

impl RegistrySummary {
    /// Whether some handler (perhaps switched off) is registered for `event`.
    pub(crate) fn handles(&self, event: &str) -> bool {
        let handled = self.handled.load(std::sync::atomic::Ordering::Relaxed);
        events()
            .position(|e| e == event)
            .is_some_and(|i| handled & (1 << i) != 0)
    }

    /// Whether some win condition is defined.
    pub(crate) fn win_conditions(&self) -> bool {
        self.win_conditions
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether some strength modifier is defined.
    pub(crate) fn modifiers(&self) -> bool {
        self.modifiers.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Records what the state in `slot` has registered, and sums up all states again.
    fn update(&self, slot: usize, part: (u64, bool, bool)) {
        use std::sync::atomic::Ordering::Relaxed;
        let mut parts = match self.parts.lock() {
            Ok(parts) => parts,
            Err(poisoned) => poisoned.into_inner(),
        };
        if parts.len() <= slot {
            parts.resize(slot + 1, (0, false, false));
        }
        parts[slot] = part;
        let sum = parts.iter().fold((0, false, false), |a, p| {
            (a.0 | p.0, a.1 || p.1, a.2 || p.2)
        });
        self.handled.store(sum.0, Relaxed);
        self.win_conditions.store(sum.1, Relaxed);
        self.modifiers.store(sum.2, Relaxed);
    }
}

impl Registry {
    /// An empty registry for a state in `links` (its slot is given when it joins them).
    fn new(links: &Arc<host::Links>) -> Registry {
        Registry {
            handlers: Vec::new(),
            tokens: Vec::new(),
            win_conditions: Vec::new(),
            modifiers: Vec::new(),
            game_modes: Vec::new(),
            interfaces: Vec::new(),
            strings: crate::save::StringTables::new(),
            own_pack: String::new(),
            turn: 0,
            links: links.clone(),
            slot: 0,
        }
    }

    /// Brings the summary up to date with what is registered: call it after every change.
    fn changed(&self) {
        let handled = events()
            .enumerate()
            .filter(|(_, e)| self.handlers.iter().any(|h| h.event == *e))
            .fold(0u64, |bits, (i, _)| bits | (1 << i));
        let part = (
            handled,
            !self.win_conditions.is_empty(),
            !self.modifiers.is_empty(),
        );
        self.links.summary.update(self.slot, part);
    }

    /// The live handlers of `event` whose filters `fields` match, with their indices.
    fn handlers_wanting<'a>(
        &'a self,
        event: &'a str,
        fields: &'a [(&'static str, EventField<'_>)],
    ) -> impl Iterator<Item = (usize, &'a Handler)> + 'a {
        self.handlers
            .iter()
            .enumerate()
            .filter(move |(_, h)| h.event == event && !h.disabled && h.filter.matches(fields))
    }
}

/// Where a script's text comes from: a level (loaded as text, never as bytecode), or the
/// toolkit itself (the standard elementals, compiled once per process).
#[derive(Clone, Copy)]
enum Origin {
    Script,
    Shipped,
}

/// One pack's sandboxed Lua state with its scripts: its own memory cap, instruction budget,
/// storage and random stream (see `host` for the set of them a game runs).
pub(crate) struct State {
    /// The pack whose scripts run here ("" for a level outside any pack).
    pack: String,
    lua: Lua,
    budget: Arc<Budget>,
    notices: host::Notices,
    registry: Arc<Mutex<Registry>>,
    envs: isolation::Environments,
    storage: storage::Storage,
    limits: ScriptLimits,
    /// What handlers and win conditions get as `game`, once a game lends itself.
    view: Option<mlua::AnyUserData>,
    /// The handler that spent the most of an event, as (event, handler, instructions).
    top_handler: std::cell::Cell<(u64, usize, u64)>,
}

impl State {
    /// A new state for `pack` with no scripts; `math.random` is seeded with `seed`.
    fn new(
        pack: &str,
        limits: ScriptLimits,
        seed: u64,
        links: &Arc<host::Links>,
    ) -> Result<State, ScriptError> {
        let setup_error = |e: mlua::Error| setup_error(e.to_string());
        let registry = Arc::new(Mutex::new(Registry::new(links)));
        let slot = links.join(pack, &registry);
        lock(&registry).map_err(setup_error)?.slot = slot;
        let budget = Arc::new(Budget::new(links.id(), slot, links.counters.clone()));
        // Setting up runs Lua too, under the hook: as an event of its own.
        budget.open(limits.instructions, limits.deadline);
        let made = State::set_up(&budget, limits, seed, links, &registry);
        budget.close();
        let (lua, envs, storage) = made.map_err(setup_error)?;
        Ok(State {
            pack: pack.to_string(),
            lua,
            budget,
            notices: links.notices.clone(),
            registry,
            envs,
            storage,
            limits,
            view: None,
            top_handler: std::cell::Cell::new((0, 0, 0)),
        })
    }

    /// A sandboxed state for a host's `links`, with the API, the host's Lua, each script's
    /// environment and storage installed.
    fn set_up(
        budget: &Arc<Budget>,
        limits: ScriptLimits,
        seed: u64,
        links: &Arc<host::Links>,
        registry: &Arc<Mutex<Registry>>,
    ) -> mlua::Result<(Lua, isolation::Environments, storage::Storage)> {
        let lua = sandbox::new_state(
            limits.memory_bytes,
            budget.clone(),
            links.console.clone(),
            seed,
        )?;
        lua.set_app_data(limits);
        install_api(&lua, registry.clone())?;
        lua_values::install(&lua)?;
        tokens::register_board_view(&lua)?;
        let envs = isolation::Environments::install(&lua)?;
        let storage = storage::Storage::install(&lua, &envs)?;
        Ok((lua, envs, storage))
    }

    /// This state's slot among the game's states.
    fn slot(&self) -> usize {
        self.registry_lock().slot
    }

    /// The pack as messages name it.
    fn shown_pack(&self) -> String {
        if self.pack.is_empty() {
            "the level".into()
        } else {
            format!("pack `{}`", self.pack)
        }
    }

    /// Whether script `name` has run here.
    fn has_script(&self, name: &str) -> bool {
        self.envs.of_script(name).is_some()
    }

    /// Whether a script here defines token kind `kind`.
    fn defines_token(&self, kind: &str) -> bool {
        self.registry_lock().tokens.iter().any(|d| d.id == kind)
    }

    /// Loads and runs a script's text (`name` is its file, for messages) in globals of its own
    /// (see `isolation`). Bytecode is refused. Loading is one transaction: if the script fails,
    /// what it registered and wrote to storage is undone, and a script of that name loaded
    /// before stays as it was (see `reload`).
    fn load_as(&mut self, name: &str, source: &str, origin: Origin) -> Result<(), ScriptError> {
        let before = reload::take_script(&mut self.registry_lock(), name);
        let env_before = self.envs.of_script(name).cloned();
        match self.run_script(name, source, origin) {
            Ok(env) => {
                let _ = self.guarded(|| self.storage.commit());
                self.envs.remember(name, env);
                Ok(())
            }
            Err(e) => {
                let error = self.error(name, "load", None, &e);
                // Undone under a budget of its own: the load may have spent its budget.
                let _ = self.guarded(|| self.storage.rollback());
                reload::put_back_only(&mut self.registry_lock(), name, before);
                if let Some(env) = env_before {
                    self.envs.remember(name, env);
                }
                Err(error)
            }
        }
    }

    /// Runs a script's text in a new environment, returning the environment.
    fn run_script(&self, name: &str, source: &str, origin: Origin) -> mlua::Result<Table> {
        let chunk = match origin {
            Origin::Script => self
                .lua
                .load(source)
                .set_name(format!("@{name}"))
                .set_mode(mlua::chunk::ChunkMode::Text),
            Origin::Shipped => sandbox::host_chunk(&self.lua, &format!("@{name}"), source)?,
        };
        // The environment is made under the fresh budget too: it is Lua code.
        self.guarded(|| {
            self.storage.begin()?;
            let env = self.envs.for_script()?;
            chunk.set_environment(env.clone()).exec()?;
            Ok(env)
        })
    }

    /// Calls every handler of `event` (one of the registry's events) whose filter `fields`
    /// match, with the game's view (nil if none) and a table of the event's `fields`, named as
    /// the registry names them (the host has checked them); returns their errors (which also
    /// go to the console). A handler that fails too often is switched off.
    fn dispatch_event(
        &mut self,
        event: &str,
        turn: Option<u32>,
        fields: &[(&'static str, EventField<'_>)],
    ) -> Vec<ScriptError> {
        // The handlers are called with the registry unlocked (a handler may register more),
        // so they are copied out first; most events have one or two, kept on the stack.
        let calls: smallvec::SmallVec<[(usize, Function); 4]> = match self.registry.lock() {
            Ok(mut r) => {
                if let Some(turn) = turn {
                    r.turn = turn;
                }
                r.handlers_wanting(event, fields)
                    .map(|(i, h)| (i, h.func.clone()))
                    .collect()
            }
            Err(_) => return Vec::new(),
        };
        // A state whose scripts do not handle the event makes nothing for it.
        if calls.is_empty() {
            return Vec::new();
        }
        let prepared = match lua_values::prepare_event(&self.lua, event, fields) {
            Ok(prepared) => prepared,
            Err(e) => return vec![self.error("(host)", event, turn, &e)],
        };
        // Lent for the calls rather than cloned: a clone of a Lua value takes a registry slot.
        let view = self.view.take();
        let errors = self.call_handlers(&calls, (event, turn), |func| {
            prepared.call(func, view.as_ref())
        });
        self.view = view;
        errors
    }

    /// Calls the handlers `calls` of `event` within the host's event under way, each with
    /// `call`; returns their errors. Once the event's budget is spent the rest are cut (not
    /// called); the handler of this state that spent the most of the event is kept (with what
    /// it made other packs' interfaces do); handlers that fail too often are switched off,
    /// said after their errors.
    fn call_handlers(
        &mut self,
        calls: &[(usize, Function)],
        (event, turn): (&str, Option<u32>),
        call: impl Fn(&Function) -> mlua::Result<()>,
    ) -> Vec<ScriptError> {
        let standing = self.budget.join();
        if standing.stopped {
            return Vec::new();
        }
        let mut errors = Vec::new();
        let mut switched_off = Vec::new();
        for (index, func) in calls {
            let before = self.budget.units();
            let was_busy = self.budget.enter();
            let called = call(func);
            self.budget.leave(was_busy);
            let used = self.budget.units().saturating_sub(before);
            let (top_event, _, top_used) = self.top_handler.get();
            if top_event != standing.id || used > top_used {
                self.top_handler.set((standing.id, *index, used));
            }
            let Err(e) = called else {
                continue;
            };
            let _ = self.lua.gc_collect();
            let script = self.handler_script(*index);
            let error = self.error(&script, event, turn, &e);
            errors.push(error);
            if self.budget.stopped().is_some() {
                // The event's budget is spent: the rest of its work is cut, and the host
                // blames whoever spent the most (see `ScriptHost::blame`).
                break;
            }
            switched_off.extend(self.count_failure(*index, &errors[errors.len() - 1]));
        }
        self.tell_switched_off(switched_off);
        errors
    }

    /// Says which handlers were switched off in one dispatch, after its errors (so that alike
    /// lines stand together and are counted, see `host::NoticeLines`).
    fn tell_switched_off(&mut self, notices: Vec<ConsoleLine>) {
        for notice in notices {
            self.push_notice(notice);
        }
    }

    /// The handler of this state that spent the most of event `event`, with what it spent.
    fn top_handler_of(&self, event: u64) -> Option<(usize, u64)> {
        let (top_event, index, used) = self.top_handler.get();
        (top_event == event).then_some((index, used))
    }

    /// Gives `scryptic.t` the packs' string tables (this state's pack's named without a prefix).
    fn set_strings(&mut self, strings: crate::save::StringTables) {
        let mut r = self.registry_lock();
        r.strings = strings;
        r.own_pack.clone_from(&self.pack);
    }

    /// Calls every handler of the custom event `event` with the game and its `fields`; returns
    /// their errors (which also go to the console).
    fn dispatch_custom(
        &mut self,
        event: &str,
        turn: Option<u32>,
        fields: &Table,
    ) -> Vec<ScriptError> {
        let calls: Vec<(usize, Function)> = match self.registry.lock() {
            Ok(r) => r
                .handlers_wanting(event, &[])
                .map(|(i, h)| (i, h.func.clone()))
                .collect(),
            Err(_) => return Vec::new(),
        };
        let view = self.view.take();
        let errors = self.call_handlers(&calls, (event, turn), |func| {
            func.call::<()>((view.as_ref(), fields))
        });
        self.view = view;
        errors
    }

    /// Handler `index`'s event and where it is written (`script:line`, the line its function
    /// begins on).
    fn handler_place(&self, index: usize) -> (String, String) {
        let Ok(r) = self.registry.lock() else {
            return (String::new(), String::new());
        };
        let Some(handler) = r.handlers.get(index) else {
            return (String::new(), String::new());
        };
        let place = match handler.func.info().line_defined {
            Some(line) => format!("{}:{line}", handler.script),
            None => handler.script.clone(),
        };
        (handler.event.clone(), place)
    }

    /// The script that registered handler `index`.
    fn handler_script(&self, index: usize) -> String {
        self.registry
            .lock()
            .ok()
            .and_then(|r| r.handlers.get(index).map(|h| h.script.clone()))
            .unwrap_or_default()
    }

    /// Runs `call` within the host's event under way (or as an event of its own, with a fresh
    /// budget and deadline, if none is); afterwards collects garbage if it failed, so one bad
    /// call does not starve the next of memory. Once the event's budget is spent, the call is
    /// not made at all: the rest of the event's work is cut.
    fn guarded<R>(&self, call: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        let opened = self
            .budget
            .open(self.limits.instructions, self.limits.deadline);
        if opened.stopped {
            self.budget.close();
            return Err(self.budget.spent_error());
        }
        let result = self.run_guarded(call);
        self.budget.close();
        if result.is_err() {
            let _ = self.lua.gc_collect();
        }
        result
    }

    /// Runs `call` as `guarded` does, within an event its caller opened.
    fn run_guarded<R>(&self, call: impl FnOnce() -> mlua::Result<R>) -> mlua::Result<R> {
        // While it runs, no other state's interface call may come back into it.
        let was_busy = self.budget.enter();
        let result = call();
        self.budget.leave(was_busy);
        result
    }

    /// Switches off every handler and win condition of this state (the caller says why).
    fn switch_off(&mut self) {
        let Ok(mut registry) = self.registry.lock() else {
            return;
        };
        for handler in &mut registry.handlers {
            handler.disabled = true;
        }
        let limit = self.limits.failures_before_disable;
        for condition in &mut registry.win_conditions {
            condition.failures = condition.failures.max(limit);
        }
    }

    /// Counts a failure of handler `index`; at the limit it is switched off, and the notice
    /// that says so is returned.
    fn count_failure(&mut self, index: usize, error: &ScriptError) -> Option<ConsoleLine> {
        let mut registry = self.registry.lock().ok()?;
        let handler = registry.handlers.get_mut(index)?;
        handler.failures += 1;
        if handler.failures >= self.limits.failures_before_disable && !handler.disabled {
            handler.disabled = true;
            return Some(ConsoleLine::Notice(format!(
                "the {} handler of {} failed {} times and is switched off (last: {})",
                handler.event, handler.script, handler.failures, error.message
            )));
        }
        None
    }

    /// A script error from an mlua error, with the line the message names.
    fn error(
        &mut self,
        script: &str,
        event: &str,
        turn: Option<u32>,
        err: &mlua::Error,
    ) -> ScriptError {
        let (message, traceback) = describe_error(err, self.budget.stopped(), &self.limits);
        let (mut script, mut line, message) = split_location(script, &message);
        let near = sandbox::NearTheCap::take(&self.lua);
        if line.is_none()
            && let Some((file, at)) = first_lua_frame(&traceback)
        {
            (script, line) = (file, Some(at));
        }
        // A memory error names no place: where the script ran as memory neared the cap.
        if line.is_none()
            && message.contains(MEMORY_MESSAGE)
            && let Some((file, at)) = near
        {
            (script, line) = (file, u32::try_from(at).ok());
        }
        let error = ScriptError {
            script: text::shown_line(&script, text::MAX_PRINT_BYTES),
            line,
            event: text::shown_line(event, text::MAX_PRINT_BYTES),
            turn,
            message: text::shown_line(&message, text::MAX_ERROR_BYTES),
            traceback: text::shown(&traceback, text::MAX_ERROR_BYTES),
        };
        self.push_notice(ConsoleLine::Error(error.clone()));
        error
    }

    /// Keeps a notice or an error for the console (see `host::push_notice`).
    fn push_notice(&mut self, line: ConsoleLine) {
        host::push_notice(&self.notices, line);
    }

    /// Whether a live handler of `event` wants an occurrence with `fields` (its filter
    /// matches them): if none does, the event need not be dispatched at all.
    fn wants_event(&self, event: &str, fields: &[(&'static str, EventField<'_>)]) -> bool {
        self.registry
            .lock()
            .is_ok_and(|r| r.handlers_wanting(event, fields).next().is_some())
    }

    /// How many live handlers `event` has (whatever their filters).
    fn handler_count(&self, event: &str) -> usize {
        self.registry.lock().map_or(0, |r| {
            r.handlers
                .iter()
                .filter(|h| h.event == event && !h.disabled)
                .count()
        })
    }

    /// The token kinds scripts defined.
    fn token_kinds(&self) -> Vec<String> {
        self.registry.lock().map_or(Vec::new(), |r| {
            r.tokens.iter().map(|d| d.id.clone()).collect()
        })
    }

    /// The win conditions scripts defined.
    fn win_conditions(&self) -> Vec<String> {
        self.registry.lock().map_or(Vec::new(), |r| {
            r.win_conditions.iter().map(|d| d.id.clone()).collect()
        })
    }

    /// The strength modifiers scripts defined.
    fn strength_modifiers(&self) -> Vec<String> {
        self.registry.lock().map_or(Vec::new(), |r| {
            r.modifiers.iter().map(|d| d.id.clone()).collect()
        })
    }

    /// Memory the state uses now, in bytes.
    fn used_memory(&self) -> usize {
        self.lua.used_memory()
    }

    /// The scripts that registered anything, in the order they first did.
    fn scripts(&self) -> Vec<String> {
        let Ok(r) = self.registry.lock() else {
            return Vec::new();
        };
        let mut names: Vec<String> = Vec::new();
        let all = r.handlers.iter().map(|h| &h.script).chain(
            r.tokens
                .iter()
                .chain(&r.win_conditions)
                .chain(&r.modifiers)
                .map(|d| &d.script),
        );
        for s in all {
            if !names.contains(s) {
                names.push(s.clone());
            }
        }
        names
    }
}

#[cfg(test)]
mod game_mode_tests;
#[cfg(test)]
mod host_tests;
#[cfg(test)]
mod tests;

//! A game with its scripts: engine events become script events, handlers read the game and
//! change it only through commands the engine checks (through the `game` of
//! [`super::game_view`]), and win conditions are asked after every action whether someone
//! has won.

use super::EventField;
use super::game_view::{GameView, parse_player};
use super::{ConsoleLine, ScriptError, ScriptHost, ScriptLimits, ScriptTokens, State, setup_error};
use crate::game::{Action, ActionError, Event, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use crate::save::{SaveFile, ScriptSource};
use std::sync::{Arc, Mutex, MutexGuard};

mod events;
mod replay;

use events::{CombatRecord, event_fields, script_event_name};
pub use replay::{ACTION_WORK, Departure, MAX_REPLAY_WORK, ReplayOptions, ReplayStop, Replayed};

/// Budget units charged per command or message: the engine's checks, and the error a refusal
/// makes, cost far more than one instruction, and a loop of refused commands caught by `pcall`
/// must end on the budget (the same on every machine), not on the clock.
pub(super) const UNITS_PER_COMMAND: usize = 64;

/// A game whose scripts take part.
pub struct ScriptedGame {
    /// The game; absent only while it is lent to `view` for a script call. Boxed, since it
    /// moves in and out of the view at every call.
    game: Option<Box<Game>>,
    view: GameView,
    host: Arc<Mutex<ScriptHost>>,
    /// The scripts as the game started with them (their reloads are in the log).
    pub(super) scripts: Vec<ScriptSource>,
    /// The storage (JSON) the game began with.
    pub(super) storage_at_start: String,
    /// Where the game came from, as its save records it: packs and settings.
    pub(super) origin: Origin,
    /// The combat under way, as `combat_resolved` tells it when it ends.
    combat: CombatRecord,
    /// What is registered, read before every event without locking the host.
    registered: Arc<super::RegistrySummary>,
    /// The game's quick checksum after each action of its log, with its scripts' answers.
    checksums: Vec<u64>,
    /// Its full checksum after every `FULL_EVERY` actions.
    full_checksums: Vec<u64>,
    /// The host's events, opened and closed without taking the host (see `apply`).
    events: (super::sandbox::Budget, ScriptLimits),
    /// What the scripts spent in the last action, and which states' scripts ran in it.
    last_spent: (u64, u64),
    /// Whether the action under way holds an event open (see `apply`): its handlers then run
    /// within it.
    event_open: bool,
    /// Whether an action is under way (see `apply`).
    in_apply: bool,
    /// Where this game, replayed from a save, first departed from the game the save
    /// recorded.
    departure: Option<Departure>,
}

/// The most custom events handled one after another for one engine event: past it, a chain of
/// handlers emitting events is stopped.
const MAX_CUSTOM_EVENTS_IN_A_ROW: usize = 1024;

/// The packs a game was made from and the settings it was created with, as its save keeps them.
#[derive(Clone, Debug, Default)]
pub(super) struct Origin {
    pub(super) packs: Vec<crate::save::PackRecord>,
    /// The pack the level is of (empty: the last of `packs`).
    pub(super) pack: String,
    pub(super) settings: std::collections::BTreeMap<String, crate::save::SettingValue>,
    /// How their packs declare them.
    pub(super) declared: std::collections::BTreeMap<String, crate::save::SettingKind>,
    /// The packs' string tables in the game's language.
    pub(super) strings: crate::save::StringTables,
}

/// The host, even if a thread that held it panicked.
fn lock_host(host: &Mutex<ScriptHost>) -> MutexGuard<'_, ScriptHost> {
    match host.lock() {
        Ok(host) => host,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// Lets the scripts' game mode play a game of `flow.scripted` and set its table up; returns
/// what the setup did. A game whose scripts define no mode, or whose setup fails, cannot be
/// played: the error says why (every move is then refused with it).
fn set_up_game_mode(
    game: &mut Game,
    host: &Arc<Mutex<ScriptHost>>,
    origin: &Origin,
    errors: &mut Vec<ScriptError>,
) -> Vec<Event> {
    let Some(mode) = super::ScriptMode::of(host.clone(), origin.settings.clone()) else {
        if game.rules().flow.scripted {
            errors.push(setup_error(
                "the rules say the game is its scripts' (flow.scripted), but no script defines \
                 it: the mode's script must call scryptic.game_mode{setup=..., moves=..., play=...}"
                    .to_string(),
            ));
        }
        return Vec::new();
    };
    match game.set_game_mode(Arc::new(mode)) {
        Ok(events) => events,
        Err(message) => {
            errors.push(setup_error(format!("the game's setup failed: {message}")));
            Vec::new()
        }
    }
}

impl ScriptedGame {
    /// `game` with the scripts of `host` taking part: tokens they define take effect through
    /// them, and `game_start` runs now.
    pub fn new(game: Game, host: ScriptHost) -> (ScriptedGame, Vec<ScriptError>) {
        ScriptedGame::with_origin(game, host, Origin::default())
    }

    /// As `new`, for a game made from packs with settings: scripts read the settings from
    /// `game_start` on.
    fn with_origin(
        mut game: Game,
        host: ScriptHost,
        origin: Origin,
    ) -> (ScriptedGame, Vec<ScriptError>) {
        let view = GameView::default();
        view.set_settings(origin.settings.clone());
        let mut host = host;
        let seen = view.clone();
        let mut errors = host.attach_view(Box::new(move |lua| lua.create_userdata(seen.clone())));
        if let Err(e) = host.prepare_board_view(game.board()) {
            errors.push(setup_error(format!("tokens cannot run: {e}")));
        }
        let registered = host.registry_summary();
        let events = host.event_handle();
        let host = Arc::new(Mutex::new(host));
        game.set_token_effects(Arc::new(ScriptTokens::new(host.clone())));
        game.set_strength_modifiers(Arc::new(super::tokens::ScriptModifiers::new(host.clone())));
        // The start (the mode's setup, `game_start`, the first turn's start) is one event.
        lock_host(&host).open_event();
        let setup = set_up_game_mode(&mut game, &host, &origin, &mut errors);
        let mut scripted = ScriptedGame {
            game: Some(Box::new(game)),
            view,
            host,
            scripts: Vec::new(),
            storage_at_start: String::new(),
            origin: Origin::default(),
            combat: CombatRecord::default(),
            registered,
            checksums: Vec::new(),
            full_checksums: Vec::new(),
            events,
            last_spent: (0, 0),
            event_open: false,
            in_apply: false,
            departure: None,
        };
        let mut events = setup;
        scripted.run_handlers("game_start", &[], &mut events, &mut errors);
        // The first turn began with the game, before scripts could hear it: they hear it now,
        // after `game_start`, as every later turn's start.
        let (player, turn) = (scripted.game().active(), scripted.game().turn());
        events.push(Event::TurnStarted {
            player,
            turn,
            drew: String::new(),
        });
        scripted.dispatch_all(events, &mut errors);
        scripted.check_win_conditions(&mut Vec::new(), &mut errors);
        scripted.host().close_event();
        (scripted, errors)
    }

    /// A new game on `map` whose scripts (name and text) take part with the standard
    /// elementals, `storage` (JSON) carried in from an earlier game if given. Scripts that fail
    /// to load are left out and reported with the errors of `game_start`.
    pub fn start(
        map: &Map,
        rules: RuleSet,
        lexicon: Arc<Lexicon>,
        seed: u64,
        scripts: Vec<ScriptSource>,
        storage: Option<&str>,
    ) -> Result<(ScriptedGame, Vec<ScriptError>), ScriptError> {
        let level = (map, rules, scripts);
        let carried = super::Carried::storage(storage);
        ScriptedGame::start_with(level, lexicon, seed, carried, Origin::default())
    }

    /// As `start`, for a game made from packs (`origin`: their records and the settings), with
    /// what an earlier game carried into it (storage, and a match's rounds).
    pub(super) fn start_with(
        (map, rules, scripts): (&Map, RuleSet, Vec<ScriptSource>),
        lexicon: Arc<Lexicon>,
        seed: u64,
        carried: super::Carried,
        origin: Origin,
    ) -> Result<(ScriptedGame, Vec<ScriptError>), ScriptError> {
        let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), seed)?;
        // The pack a level was made from is the last to load (it depends on the others).
        let order = origin.packs.iter().map(|p| p.id.clone()).collect();
        let own = match origin.pack.as_str() {
            "" => origin
                .packs
                .last()
                .map(|p| p.id.clone())
                .unwrap_or_default(),
            own => own.to_string(),
        };
        host.set_packs(order, own, origin.strings.clone());
        if !carried.storage.is_empty() {
            host.set_storage_json(&carried.storage)
                .map_err(|e| ScriptError {
                    script: "(save)".into(),
                    line: None,
                    event: "load".into(),
                    turn: None,
                    message: e.to_string(),
                    traceback: String::new(),
                })?;
        }
        let mut errors = Vec::new();
        let mut loaded = Vec::new();
        for script in scripts {
            match host.load(&script.name, &script.source) {
                Ok(()) => loaded.push(script),
                Err(e) => errors.push(e),
            }
        }
        let mut game = Game::new(map, rules, lexicon, seed);
        game.set_advisor(crate::ai::spy());
        // The rounds before are known from `game_start` on, so that scripts can read them.
        game.set_earlier_rounds(carried.rounds);
        let (mut scripted, more) = ScriptedGame::with_origin(game, host, origin.clone());
        scripted.origin = origin;
        scripted.scripts = loaded;
        // The storage as it was before any script ran: replaying runs the scripts again.
        scripted.storage_at_start = carried.storage;
        errors.extend(more);
        Ok((scripted, errors))
    }

    /// The instructions the scripts spent in the last action (all it made them run): at most
    /// about `ScriptLimits::instructions`.
    pub fn last_event_instructions(&self) -> u64 {
        self.last_spent.0
    }

    /// The save of this game as it stands, scripts and starting storage included.
    pub fn save(&self) -> SaveFile {
        SaveFile {
            scripts: self.scripts.clone(),
            storage: self.storage_at_start.clone(),
            packs: self.origin.packs.clone(),
            pack: self.origin.pack.clone(),
            settings: self.origin.settings.clone(),
            declared: self.origin.declared.clone(),
            strings: self.origin.strings.clone(),
            checks: Some(self.checks()),
            ..SaveFile::of(self.game())
        }
    }

    /// Reloads script `name` with new text (see `ScriptHost::reload`) and logs it as
    /// `Action::ReloadScript`, so that a replay of the save reloads it at the same moment.
    /// If the game or the host refuses, nothing changes. The console is not told: the caller
    /// tells the player (once), with the host's `generation`.
    pub fn reload_script(&mut self, name: &str, source: &str) -> Result<(), ScriptError> {
        let reloaded = self.reload_and_log(name, source, false).map(drop);
        self.note_checksums(true);
        reloaded
    }

    fn reload_and_log(
        &mut self,
        name: &str,
        source: &str,
        tell: bool,
    ) -> Result<Vec<Event>, ScriptError> {
        if let Err(e) = self.game().check_script_reload(name, source) {
            return Err(ScriptError {
                script: name.chars().take(crate::limits::MAX_PATH_CHARS).collect(),
                line: None,
                event: "reload".into(),
                turn: Some(self.game().turn()),
                message: e.to_string(),
                traceback: String::new(),
            });
        }
        if tell {
            self.host().reload(name, source)?;
        } else {
            self.host().reload_untold(name, source)?;
        }
        let action = Action::ReloadScript {
            name: name.to_string(),
            source: source.to_string(),
        };
        // Checked above, so the engine takes it.
        let events = self.game_mut().apply(action).unwrap_or_default();
        let mut errors = Vec::new();
        Ok(self.dispatch_all(events, &mut errors))
    }

    /// The scripts taking part, by name.
    pub fn script_names(&self) -> Vec<String> {
        self.scripts.iter().map(|s| s.name.clone()).collect()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.game
            .as_ref()
            .expect("the game is back after every script call")
    }

    /// The host, for its console and definitions.
    pub fn host(&self) -> MutexGuard<'_, ScriptHost> {
        lock_host(&self.host)
    }

    /// Applies `action`, then lets the scripts react; returns the engine's events and those
    /// the scripts' commands caused. Script errors go to the console and the game goes on.
    /// The action is one event for the scripts: everything it makes them run (handlers,
    /// timers, custom events, interface calls, tokens, win conditions) spends one budget and
    /// one deadline (see `ScriptHost::open_event`).
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let calls = self.events.0.calls();
        // The action's event is opened before the engine plays it if scripts may run while it
        // does (a token's effect, strength modifiers, the rules of a scripted game), else at
        // the first handler or win condition that runs after (most actions run none).
        self.in_apply = true;
        let early = matches!(action, Action::Invoke { .. })
            || self.registered.modifiers()
            || self.game().rules().flow.scripted;
        if early {
            self.open_action_event();
        }
        let applied = self.apply_in_event(action);
        self.in_apply = false;
        let opened = std::mem::take(&mut self.event_open);
        let ran = self.events.0.calls() != calls;
        self.last_spent = (0, 0);
        if opened && let Some(spent) = self.events.0.close() {
            self.last_spent = (spent.total, spent.charged);
            // The host is taken only for an action that ran a script.
            if ran {
                self.host().event_ended(&spent);
            }
        } else if ran {
            let spent = {
                let host = self.host();
                (host.last_event_instructions(), host.last_event_ran())
            };
            self.last_spent = spent;
        }
        self.note_checksums(ran);
        applied
    }

    /// Opens the action's event (see `apply`), once.
    fn open_action_event(&mut self) {
        if self.in_apply && !self.event_open {
            let (events, limits) = &self.events;
            events.open(limits.instructions, limits.deadline);
            self.event_open = true;
        }
    }

    fn apply_in_event(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        if let Action::ReloadScript { name, source } = &action {
            return self
                .reload_and_log(name, source, true)
                .map_err(|e| ActionError::BadReload {
                    what: format!("script {}", e.script),
                    reason: e.message,
                });
        }
        let events = self.game_mut().apply(action)?;
        let mut errors = Vec::new();
        let mut all = self.dispatch_all(events, &mut errors);
        self.check_win_conditions(&mut all, &mut errors);
        Ok(all)
    }

    /// Runs the handlers of every event, including events their commands cause.
    /// The events are handled in order, those caused after those that caused them; the list
    /// itself is the queue, so an action whose events no one handles moves nothing.
    fn dispatch_all(
        &mut self,
        mut events: Vec<Event>,
        errors: &mut Vec<ScriptError>,
    ) -> Vec<Event> {
        let mut next = 0;
        while next < events.len() {
            let mut caused = Vec::new();
            self.run_handlers_for(&events[next], &mut caused, errors);
            events.extend(caused);
            next += 1;
        }
        events
    }

    fn run_handlers_for(
        &mut self,
        event: &Event,
        caused: &mut Vec<Event>,
        errors: &mut Vec<ScriptError>,
    ) {
        self.combat.note(event);
        if let Event::TokenInvoked { messages, .. } = event {
            let mut host = self.host();
            for message in messages {
                host.push_notice(ConsoleLine::Message(message.clone()));
            }
        }
        let Some(name) = script_event_name(event) else {
            return;
        };
        if !self.registered.handles(name) {
            return;
        }
        let combat = (name == "combat_resolved").then(|| self.combat.clone());
        // Most events have no handler, or none whose filter wants them: then nothing is built
        // beyond the fields (borrowed from the event), and the game is not lent to scripts.
        let fields = {
            let host = self.host();
            if host.handler_count(name) == 0 {
                return;
            }
            let mut fields = event_fields(event);
            if let Some(combat) = &combat {
                fields.extend(combat.fields());
            }
            if !host.wants_event(name, &fields) {
                return;
            }
            fields
        };
        self.run_handlers(name, &fields, caused, errors);
    }

    fn game_mut(&mut self) -> &mut Game {
        self.game
            .as_mut()
            .expect("the game is back after every script call")
    }

    /// Calls `call` with the game lent to the view; returns what it returned and caused.
    fn with_game_lent<R>(
        &mut self,
        read_only: bool,
        call: impl FnOnce(&mut ScriptHost) -> R,
    ) -> (R, Vec<Event>, Vec<String>) {
        let game = self
            .game
            .take()
            .expect("the game is back after every script call");
        self.view.lend(game, read_only);
        let mut host = match self.host.lock() {
            Ok(host) => host,
            Err(poisoned) => poisoned.into_inner(),
        };
        let result = call(&mut host);
        drop(host);
        let (game, events, messages) = self.view.take_back();
        self.game = game;
        (result, events, messages)
    }

    fn run_handlers(
        &mut self,
        name: &str,
        fields: &[(&'static str, EventField<'_>)],
        caused: &mut Vec<Event>,
        errors: &mut Vec<ScriptError>,
    ) {
        let turn = Some(self.game().turn());
        self.open_action_event();
        let open = self.event_open;
        let (found, events, messages) = self.with_game_lent(false, |host| {
            // Within the action's event when it holds one (the event was checked when
            // its fields were made).
            if open {
                host.dispatch_event_within(name, turn, fields)
            } else {
                host.dispatch_event(name, turn, fields)
            }
        });
        errors.extend(found);
        self.tell(messages);
        caused.extend(events);
        self.run_custom_events(caused, errors);
    }

    /// Puts what scripts told the players on the console.
    fn tell(&mut self, messages: Vec<String>) {
        if !messages.is_empty() {
            let mut host = self.host();
            for message in messages {
                host.push_notice(ConsoleLine::Message(message));
            }
        }
    }

    /// Handles the custom events scripts emitted, in order, and those their handlers emit in
    /// turn (the host bounds how many wait at once).
    fn run_custom_events(&mut self, caused: &mut Vec<Event>, errors: &mut Vec<ScriptError>) {
        let mut handled = 0;
        loop {
            let emitted = self.host().take_emitted();
            if emitted.is_empty() {
                return;
            }
            let turn = Some(self.game().turn());
            for (name, from, fields) in emitted {
                handled += 1;
                if handled > MAX_CUSTOM_EVENTS_IN_A_ROW {
                    let error = ScriptError {
                        script: "(host)".into(),
                        line: None,
                        event: name,
                        turn,
                        message: format!(
                            "more than {MAX_CUSTOM_EVENTS_IN_A_ROW} custom events in a row: the rest are dropped (does a handler emit the event it handles?)"
                        ),
                        traceback: String::new(),
                    };
                    self.host().push_notice(ConsoleLine::Error(error.clone()));
                    errors.push(error);
                    drop(self.host().take_emitted());
                    return;
                }
                let (found, events, messages) = self.with_game_lent(false, |host| {
                    host.dispatch_custom(&name, turn, (from, &fields))
                });
                errors.extend(found);
                self.tell(messages);
                caused.extend(events);
            }
        }
    }

    /// Asks each win condition, in the order defined, whether someone has won. They are not
    /// asked while a combat waits for the defender's order: the position is only half made.
    fn check_win_conditions(&mut self, events: &mut Vec<Event>, errors: &mut Vec<ScriptError>) {
        if self.game().result().is_some() || self.game().combat_pending() {
            return;
        }
        if !self.registered.win_conditions() {
            return;
        }
        self.open_action_event();
        let checks = self.host().win_condition_functions();
        let turn = Some(self.game().turn());
        for (index, script, id, check) in checks {
            let (verdict, _, _) =
                self.with_game_lent(true, |host| host.ask_win_condition(index, &check));
            let winner = match verdict {
                Ok(None) => continue,
                Ok(Some(w)) if w == "draw" => None,
                Ok(Some(w)) => match parse_player(&w) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        let place = (index, script.as_str(), None);
                        errors.push(self.host().win_condition_error(place, turn, &e));
                        continue;
                    }
                },
                Err(e) => {
                    let place = (index, script.as_str(), Some(id.as_str()));
                    errors.push(self.host().win_condition_error(place, turn, &e));
                    continue;
                }
            };
            events.extend(
                self.game_mut()
                    .end_game(winner, format!("win condition `{id}`")),
            );
            return;
        }
    }
}

impl State {
    /// Counts a failed check of win condition `id`; at the limit it is switched off (no longer
    /// asked) and a notice says so, as for handlers.
    pub(super) fn count_win_condition_failure(&mut self, id: &str, error: &ScriptError) {
        let Ok(mut registry) = self.registry.lock() else {
            return;
        };
        let Some(definition) = registry.win_conditions.iter_mut().find(|d| d.id == id) else {
            return;
        };
        definition.failures += 1;
        if definition.failures == self.limits.failures_before_disable {
            let notice = ConsoleLine::Notice(format!(
                "the win condition `{id}` of {} failed {} times and is switched off (last: {})",
                definition.script, definition.failures, error.message
            ));
            drop(registry);
            self.push_notice(notice);
        }
    }

    pub(super) fn win_condition_functions(&self) -> Vec<(String, String, mlua::Function)> {
        let Ok(r) = self.registry.lock() else {
            return Vec::new();
        };
        r.win_conditions
            .iter()
            .filter(|d| d.failures < self.limits.failures_before_disable)
            .filter_map(|d| Some((d.script.clone(), d.id.clone(), d.table.get("check").ok()?)))
            .collect()
    }
}

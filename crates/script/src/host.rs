//! The scripts of a game: one sandboxed state per pack (see `State`), each with its own memory
//! cap, instruction budget, storage and random stream (from the game's seed and the pack's id),
//! as Factorio gives each mod its own Lua state. A script runs in its pack's state: a script
//! of another pack than the level's own is named `ID:path`, the level's own by its path alone.
//! The states share only what `Links` holds: the console, the custom events emitted, the
//! interfaces provided (values copied between states) and the summary of what is registered.

use super::interfaces::{MAX_EMITTED, transfer};
use super::storage::{StoredTables, parse_storage, storage_text};
use super::{
    ConsoleLine, EventField, Origin, Registry, RegistrySummary, STANDARD_TOKENS, ScriptError,
    ScriptLimits, State, StorageError, lock, read_script, sandbox, text,
};
use mlua::Table;
use std::sync::{Arc, Mutex, Weak};

mod blame;
mod notices;

pub(crate) use notices::{Notices, push_notice};

/// The pack the standard elementals belong to.
const STANDARD_PACK: &str = "core";

/// The most states (packs with scripts) one game runs.
pub const MAX_STATES: usize = 64;

/// What a game's states share.
#[derive(Default)]
pub(crate) struct Links {
    /// What scripts printed, with the script that printed it.
    pub(crate) console: sandbox::Console,
    pub(crate) notices: Notices,
    /// What the states count as they run (see `sandbox::Counters`).
    pub(crate) counters: Arc<sandbox::Counters>,
    /// Each state's pack and registry, by slot (weak: the states own their registries).
    registries: Mutex<Vec<(String, Weak<Mutex<Registry>>)>>,
    /// Custom events emitted and not yet handled, oldest first, with the emitting state's slot.
    emitted: Mutex<Vec<(String, usize, Table)>>,
    pub(crate) summary: Arc<RegistrySummary>,
}

impl Links {
    /// The host's identity among the hosts whose events run on a thread (see
    /// `sandbox::Budget`): the address of its links, which it keeps while it lives.
    pub(crate) fn id(self: &Arc<Self>) -> usize {
        Arc::as_ptr(self) as usize
    }

    /// Adds a state's registry; returns its slot.
    pub(crate) fn join(&self, pack: &str, registry: &Arc<Mutex<Registry>>) -> usize {
        let mut all = match self.registries.lock() {
            Ok(all) => all,
            Err(poisoned) => poisoned.into_inner(),
        };
        all.push((pack.to_string(), Arc::downgrade(registry)));
        all.len() - 1
    }

    /// The other states' registries (not `except`'s), with their packs, in load order.
    fn others(&self, except: usize) -> Vec<(String, Arc<Mutex<Registry>>)> {
        let Ok(all) = self.registries.lock() else {
            return Vec::new();
        };
        all.iter()
            .enumerate()
            .filter(|(slot, _)| *slot != except)
            .filter_map(|(_, (pack, r))| Some((pack.clone(), r.upgrade()?)))
            .collect()
    }

    /// Interface `name` as another state (not `except`) provides it: its pack, its script and
    /// its table.
    fn interface(&self, name: &str, except: usize) -> Option<(String, String, Table)> {
        self.others(except)
            .into_iter()
            .find_map(|(pack, registry)| {
                let r = lock(&registry).ok()?;
                let found = r.interfaces.iter().find(|d| d.id == name)?;
                Some((pack, found.script.clone(), found.table.clone()))
            })
    }

    /// Interface `name` as another state (not `except`) provides it: its pack and table.
    pub(crate) fn provided(&self, name: &str, except: usize) -> Option<(String, Table)> {
        self.interface(name, except)
            .map(|(pack, _, table)| (pack, table))
    }

    /// Who provides interface `name` in a state other than `except`: its pack and script.
    pub(crate) fn provider(&self, name: &str, except: usize) -> Option<(String, String)> {
        self.interface(name, except)
            .map(|(pack, script, _)| (pack, script))
    }

    /// Every interface provided, in any state.
    pub(crate) fn interface_names(&self) -> Vec<String> {
        let mut names = Vec::new();
        for (_, registry) in self.others(usize::MAX) {
            if let Ok(r) = lock(&registry) {
                names.extend(r.interfaces.iter().map(|d| d.id.clone()));
            }
        }
        names
    }

    /// Queues custom event `name` with its `fields`, emitted by the state in `slot`.
    pub(crate) fn emit(&self, name: String, slot: usize, fields: Table) -> mlua::Result<()> {
        let mut emitted = self
            .emitted
            .lock()
            .map_err(|_| mlua::Error::runtime("the script host is unavailable"))?;
        if emitted.len() >= MAX_EMITTED {
            return Err(mlua::Error::runtime(format!(
                "more than {MAX_EMITTED} custom events wait to be handled: does a handler emit the event it handles?"
            )));
        }
        emitted.push((name, slot, fields));
        Ok(())
    }
}

/// Makes, in a state, the value handlers and win conditions get as `game`.
pub(crate) type ViewMaker = Box<dyn Fn(&mlua::Lua) -> mlua::Result<mlua::AnyUserData> + Send>;

/// The scripts of a game, one sandboxed Lua state per pack, and the console they print to.
pub struct ScriptHost {
    /// In load order (the packs' order, see `set_packs`).
    pub(super) states: Vec<State>,
    links: Arc<Links>,
    limits: ScriptLimits,
    seed: u64,
    /// The packs in load order: states are kept in it.
    order: Vec<String>,
    /// The level's own pack, whose scripts are named by their paths alone.
    own: String,
    strings: crate::save::StringTables,
    view: Option<ViewMaker>,
    generation: u64,
    /// The host's handle on its events (see `open_event`).
    event: sandbox::Budget,
    /// The instructions the scripts spent in the last event that ended.
    last_event: u64,
    /// Which states' scripts ran in it (one bit a slot).
    last_event_ran: u64,
    /// How many events each pack spent the most of when their budget ran out.
    spenders: std::collections::BTreeMap<String, u32>,
}

/// The random seed of `pack`'s state in a game of `seed`: the game's own for the level's
/// scripts outside any pack, else mixed with the pack's id (FNV-1a), so that each pack draws
/// a stream of its own that the other packs' draws do not move.
fn pack_seed(seed: u64, pack: &str) -> u64 {
    if pack.is_empty() {
        return seed;
    }
    let hash = pack.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    seed ^ hash
}

/// Where `pack` stands in load order `order` (a pack not in it, after all that are).
fn load_rank(order: &[String], pack: &str) -> usize {
    order.iter().position(|p| p == pack).unwrap_or(order.len())
}

/// The pack a script's name says it comes from: `ID` of `ID:path`, else none (the level's own).
fn named_pack(name: &str) -> Option<&str> {
    let (id, _) = name.split_once(':')?;
    let valid = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    valid.then_some(id)
}

impl ScriptHost {
    /// A new host with no scripts; each pack's `math.random` is seeded from `seed`.
    pub fn new(limits: ScriptLimits, seed: u64) -> Result<ScriptHost, ScriptError> {
        let links: Arc<Links> = Arc::default();
        Ok(ScriptHost {
            states: Vec::new(),
            event: sandbox::Budget::of_host(links.id(), links.counters.clone()),
            last_event: 0,
            last_event_ran: 0,
            spenders: std::collections::BTreeMap::new(),
            links,
            limits,
            seed,
            order: Vec::new(),
            own: String::new(),
            strings: crate::save::StringTables::new(),
            view: None,
            generation: 0,
        })
    }

    /// A host with the standard elementals loaded (in the `core` pack's state).
    pub fn with_standard_tokens(
        limits: ScriptLimits,
        seed: u64,
    ) -> Result<ScriptHost, ScriptError> {
        let mut host = ScriptHost::new(limits, seed)?;
        let index = host.state_of_pack(STANDARD_PACK)?;
        for (name, source) in STANDARD_TOKENS {
            host.states[index].load_as(name, source, Origin::Shipped)?;
        }
        Ok(host)
    }

    /// Says which packs the game loads, in load order, and which is the level's `own` (whose
    /// scripts are named by their paths alone), and gives `scryptic.t` their string tables.
    pub fn set_packs(
        &mut self,
        order: Vec<String>,
        own: String,
        strings: crate::save::StringTables,
    ) {
        self.own = own;
        self.order = order;
        self.strings = strings;
        for state in &mut self.states {
            state.set_strings(self.strings.clone());
        }
        let order = &self.order;
        self.states.sort_by_key(|s| load_rank(order, &s.pack));
    }

    /// The index of `pack`'s state, made now if it has none (in its place in load order).
    fn state_of_pack(&mut self, pack: &str) -> Result<usize, ScriptError> {
        if let Some(i) = self.states.iter().position(|s| s.pack == pack) {
            return Ok(i);
        }
        if self.states.len() >= MAX_STATES {
            return Err(super::setup_error(format!(
                "scripts of more than {MAX_STATES} packs: pack `{pack}` cannot run any"
            )));
        }
        let seed = pack_seed(self.seed, pack);
        let mut state = State::new(pack, self.limits, seed, &self.links)?;
        state.set_strings(self.strings.clone());
        if let Some(make) = &self.view {
            state.view = make(&state.lua).ok();
        }
        let rank = load_rank(&self.order, pack);
        let at = self
            .states
            .iter()
            .position(|s| load_rank(&self.order, &s.pack) > rank)
            .unwrap_or(self.states.len());
        self.states.insert(at, state);
        Ok(at)
    }

    /// The index of the state script `name` runs in: the one it already runs in, else its
    /// pack's (`ID:path`), else the level's own.
    fn state_of_script(&mut self, name: &str) -> Result<usize, ScriptError> {
        if let Some(i) = self.states.iter().position(|s| s.has_script(name)) {
            return Ok(i);
        }
        let pack = self.pack_of_script(name)?;
        self.state_of_pack(&pack)
    }

    /// The pack whose state script `name` runs in: `ID` of `ID:path` (a pack this game loads,
    /// when it knows which), else the level's own. A name that could be read two ways (a
    /// colon in the path, as `evil:victim:spy.lua` would make of a file `victim:spy.lua`) is
    /// refused: a pack's scripts run in its own state only.
    fn pack_of_script(&self, name: &str) -> Result<String, ScriptError> {
        let refuse = |message: String| ScriptError {
            script: text::shown_line(name, crate::limits::MAX_PATH_CHARS),
            line: None,
            event: "load".into(),
            turn: None,
            message,
            traceback: String::new(),
        };
        let Some(pack) = named_pack(name) else {
            return Ok(self.own.clone());
        };
        let path = &name[pack.len() + 1..];
        if path.contains(':') {
            return Err(refuse(format!(
                "a script of pack `{pack}` is named `{pack}:PATH`, and its path holds no colon: \
                 rename the file `{}`",
                crate::diag::shorten(path, 80)
            )));
        }
        if !self.order.is_empty() && !self.order.iter().any(|p| p == pack) {
            return Err(refuse(format!(
                "the script names pack `{pack}`, which this game does not load (it loads {})",
                self.order.join(", ")
            )));
        }
        Ok(pack.to_string())
    }

    /// Loads the scripts a map names (paths relative to `map_dir`), returning each one's text
    /// by name (for saves) and the errors of those that failed; the others stay loaded.
    pub fn load_map_scripts(
        &mut self,
        map_dir: &std::path::Path,
        scripts: &[String],
    ) -> (Vec<(String, String)>, Vec<ScriptError>) {
        let mut loaded = Vec::new();
        let mut errors = Vec::new();
        for script in scripts {
            match read_script(map_dir, script) {
                Ok(source) => match self.load(script, &source) {
                    Ok(()) => loaded.push((script.clone(), source)),
                    Err(e) => errors.push(e),
                },
                Err(e) => errors.push(ScriptError {
                    script: script.clone(),
                    line: None,
                    event: "load".into(),
                    turn: None,
                    message: e.to_string(),
                    traceback: String::new(),
                }),
            }
        }
        (loaded, errors)
    }

    /// Loads and runs a script's text (`name` is its file, for messages; `ID:path` for a
    /// script of pack `ID`) in its pack's state, in globals of its own. Bytecode is refused.
    /// Loading is one transaction: if the script fails, what it registered and wrote to
    /// storage is undone, and a script of that name loaded before stays as it was.
    pub fn load(&mut self, name: &str, source: &str) -> Result<(), ScriptError> {
        let index = self.state_of_script(name)?;
        self.in_event(|h| h.states[index].load_as(name, source, Origin::Script))
    }

    /// Opens an event: until `close_event`, everything the scripts run (handlers, timers,
    /// custom events, interface calls into other packs, tokens, win conditions) spends one
    /// budget of `ScriptLimits::instructions` and one deadline. An engine action is one event
    /// (`ScriptedGame::apply` opens it); a call outside one is an event of its own. Events
    /// nest: only the outermost opens and closes.
    pub fn open_event(&self) {
        self.event
            .open(self.limits.instructions, self.limits.deadline);
    }

    /// Closes what `open_event` opened. If that ends an event whose budget or deadline the
    /// scripts spent, the pack that spent the most of it is named on the console, and its
    /// handler that spent the most counts a failure (so a pack that keeps spending whole
    /// events is switched off, as a failing handler is).
    pub fn close_event(&mut self) {
        if let Some(spent) = self.event.close() {
            self.event_ended(&spent);
        }
    }

    /// Keeps what an event spent, and blames whoever spent it all if its scripts did.
    #[inline]
    pub(crate) fn event_ended(&mut self, spent: &sandbox::Spent) {
        self.last_event = spent.total;
        self.last_event_ran = spent.charged;
        if spent.stopped.is_some() {
            self.blame(spent);
        }
    }

    /// A handle on this host's events that opens and closes them without the host (see
    /// `open_event`; what an event spent goes to `event_ended`).
    pub(crate) fn event_handle(&self) -> (sandbox::Budget, ScriptLimits) {
        (
            sandbox::Budget::of_host(self.links.id(), self.links.counters.clone()),
            self.limits,
        )
    }

    /// The packs whose scripts ran in the last event that ended (the level's own as ""), in
    /// load order.
    pub fn last_event_packs(&self) -> Vec<String> {
        self.packs_of(self.last_event_ran)
    }

    /// The packs of the states `mask` names (one bit a slot), in load order.
    pub(crate) fn packs_of(&self, mask: u64) -> Vec<String> {
        self.states
            .iter()
            .filter(|s| s.slot() < 64 && mask & (1 << s.slot()) != 0)
            .map(|s| s.pack.clone())
            .collect()
    }

    /// Which states' scripts ran in the last event that ended (one bit a slot).
    pub(crate) fn last_event_ran(&self) -> u64 {
        self.last_event_ran
    }

    /// The instructions (and units of the host's work for them) the scripts spent in the last
    /// event that ended, in all states: at most about `ScriptLimits::instructions`.
    pub fn last_event_instructions(&self) -> u64 {
        self.last_event
    }

    /// Runs `call` as one event (see `open_event`).
    fn in_event<R>(&mut self, call: impl FnOnce(&mut Self) -> R) -> R {
        self.open_event();
        let result = call(self);
        self.close_event();
        result
    }

    /// Reloads script `name` with new text, and says so on the console. On failure the old
    /// definitions stay.
    pub fn reload(&mut self, name: &str, source: &str) -> Result<(), ScriptError> {
        self.in_event(|h| h.reload_now(name, source, true))
    }

    /// As `reload`, saying nothing of it on the console: for a caller that tells the player
    /// itself (a file saved while playing is announced once, by what watches the files).
    pub fn reload_untold(&mut self, name: &str, source: &str) -> Result<(), ScriptError> {
        self.in_event(|h| h.reload_now(name, source, false))
    }

    fn reload_now(&mut self, name: &str, source: &str, tell: bool) -> Result<(), ScriptError> {
        match self.load(name, source) {
            Ok(()) => {
                self.generation += 1;
                if tell {
                    self.push_notice(ConsoleLine::Notice(format!(
                        "reloaded {name} (generation {})",
                        self.generation
                    )));
                }
                let index = self.state_of_script(name)?;
                let reload_errors = self.states[index].dispatch_for(name, "on_reload");
                if let Some(e) = reload_errors.into_iter().next() {
                    self.push_notice(ConsoleLine::Notice(format!(
                        "{name} reloaded, but its on_reload failed: {e}"
                    )));
                }
                Ok(())
            }
            Err(e) => {
                // `load` undid everything the new text did; the old version stays.
                if tell {
                    self.push_notice(ConsoleLine::Notice(format!(
                        "{name} did not reload; its previous version stays"
                    )));
                }
                Err(e)
            }
        }
    }

    /// How many good reloads there have been.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Gives every state (and every state made later) the game's view, as `make` makes it.
    pub(crate) fn attach_view(&mut self, make: ViewMaker) -> Vec<ScriptError> {
        let mut errors = Vec::new();
        for state in &mut self.states {
            match make(&state.lua) {
                Ok(view) => state.view = Some(view),
                Err(e) => errors.push(super::setup_error(format!(
                    "the scripts of {} cannot run: {e}",
                    state.shown_pack()
                ))),
            }
        }
        self.view = Some(make);
        errors
    }

    /// Calls, in every state, each handler of `event` (one of the registry's events) whose
    /// filter `fields` match, with the game (nil outside one) and a table of the event's
    /// `fields`, named as the registry names them; returns their errors (which also go to the
    /// console). A handler that fails too often is switched off. This is how games hand their
    /// events to scripts.
    pub fn dispatch_event(
        &mut self,
        event: &str,
        turn: Option<u32>,
        fields: &[(&'static str, EventField<'_>)],
    ) -> Vec<ScriptError> {
        // Checked once here, so that a wrong event is reported once, not by every state.
        if let Err(e) = super::lua_values::check_event(event, fields) {
            let error = ScriptError {
                script: "(host)".into(),
                line: None,
                event: event.chars().take(crate::limits::MAX_ID_CHARS).collect(),
                turn,
                message: e.to_string(),
                traceback: String::new(),
            };
            self.push_notice(ConsoleLine::Error(error.clone()));
            return vec![error];
        }
        self.in_event(|h| h.dispatch_event_within(event, turn, fields))
    }

    /// As `dispatch_event`, for an event the caller has opened (see `open_event`) and checked.
    pub(crate) fn dispatch_event_within(
        &mut self,
        event: &str,
        turn: Option<u32>,
        fields: &[(&'static str, EventField<'_>)],
    ) -> Vec<ScriptError> {
        let mut errors = Vec::new();
        for state in &mut self.states {
            errors.extend(state.dispatch_event(event, turn, fields));
        }
        errors
    }

    /// The custom events emitted since the last call, oldest first, with the emitting state's
    /// slot.
    pub(crate) fn take_emitted(&self) -> Vec<(String, usize, Table)> {
        match self.links.emitted.lock() {
            Ok(mut emitted) => std::mem::take(&mut *emitted),
            Err(_) => Vec::new(),
        }
    }

    /// Calls every handler of the custom event `event`, in every state, with the game and its
    /// `fields` (copied into each state but the one that emitted them); returns their errors.
    pub(crate) fn dispatch_custom(
        &mut self,
        event: &str,
        turn: Option<u32>,
        (from, fields): (usize, &Table),
    ) -> Vec<ScriptError> {
        self.in_event(|h| h.dispatch_custom_now(event, turn, (from, fields)))
    }

    fn dispatch_custom_now(
        &mut self,
        event: &str,
        turn: Option<u32>,
        (from, fields): (usize, &Table),
    ) -> Vec<ScriptError> {
        let mut errors = Vec::new();
        for state in &mut self.states {
            if state.handler_count(event) == 0 {
                continue;
            }
            // Once the event's budget is spent, the rest of its work is cut.
            if state.budget.exhausted() {
                break;
            }
            let copied = if state.slot() == from {
                Ok(fields.clone())
            } else {
                state.guarded(|| {
                    match transfer(&mlua::Value::Table(fields.clone()), &state.lua, 0)? {
                        mlua::Value::Table(t) => Ok(t),
                        _ => Err(mlua::Error::runtime("custom event fields are a table")),
                    }
                })
            };
            match copied {
                Ok(fields) => errors.extend(state.dispatch_custom(event, turn, &fields)),
                Err(e) => errors.push(state.error("(host)", event, turn, &e)),
            }
        }
        errors
    }

    /// What is registered in any state, readable without a lock (see `RegistrySummary`).
    pub(crate) fn registry_summary(&self) -> Arc<RegistrySummary> {
        self.links.summary.clone()
    }

    /// Keeps a notice or an error for the console.
    pub(crate) fn push_notice(&mut self, line: ConsoleLine) {
        push_notice(&self.links.notices, line);
    }

    /// Takes what scripts printed and the host's notices, oldest first.
    pub fn drain_console(&mut self) -> Vec<ConsoleLine> {
        let printed: Vec<ConsoleLine> = match self.links.console.lock() {
            // (Each line was made safe and cut when it was printed.)
            Ok(mut lines) => lines
                .drain(..)
                .map(|(script, text)| ConsoleLine::Output { script, text })
                .collect(),
            Err(_) => Vec::new(),
        };
        let notices: Vec<ConsoleLine> = match self.links.notices.lock() {
            Ok(mut notices) => notices.drain(),
            Err(_) => Vec::new(),
        };
        printed.into_iter().chain(notices).collect()
    }

    /// Whether a live handler of `event` wants an occurrence with `fields` (its filter
    /// matches them): if none does, the event need not be dispatched at all.
    pub fn wants_event(&self, event: &str, fields: &[(&'static str, EventField<'_>)]) -> bool {
        self.states.iter().any(|s| s.wants_event(event, fields))
    }

    /// How many live handlers `event` has (whatever their filters).
    pub fn handler_count(&self, event: &str) -> usize {
        self.states.iter().map(|s| s.handler_count(event)).sum()
    }

    /// The token kinds scripts defined.
    pub fn token_kinds(&self) -> Vec<String> {
        self.states.iter().flat_map(State::token_kinds).collect()
    }

    /// The win conditions scripts defined.
    pub fn win_conditions(&self) -> Vec<String> {
        self.states.iter().flat_map(State::win_conditions).collect()
    }

    /// The strength modifiers scripts defined.
    pub fn strength_modifiers(&self) -> Vec<String> {
        self.states
            .iter()
            .flat_map(State::strength_modifiers)
            .collect()
    }

    /// Memory the states use now, in bytes.
    pub fn used_memory(&self) -> usize {
        self.states.iter().map(State::used_memory).sum()
    }

    /// Each state's pack ("" for a level outside any pack) and the memory it uses, in bytes.
    pub fn pack_states(&self) -> Vec<(String, usize)> {
        self.states
            .iter()
            .map(|s| (s.pack.clone(), s.used_memory()))
            .collect()
    }

    /// The scripts that registered anything, in the order they first did (pack by pack).
    pub fn scripts(&self) -> Vec<String> {
        self.states.iter().flat_map(State::scripts).collect()
    }

    /// The states' `storage` tables as text (each pack's under its id, tagged JSON), at most
    /// `limits::MAX_STORAGE_BYTES`.
    pub fn storage_json(&self) -> Result<String, StorageError> {
        let mut tables = Vec::new();
        for state in &self.states {
            tables.push((state.pack.clone(), state.storage_tagged()?));
        }
        storage_text(tables)
    }

    /// Replaces the states' `storage` tables with what storage text holds: each pack's own
    /// (this version's), or one table for the level's own pack (earlier versions). A pack
    /// without scripts yet gets its state now. Nothing is stored if the text is refused.
    pub fn set_storage_json(&mut self, text: &str) -> Result<(), StorageError> {
        let tables = match parse_storage(text)? {
            StoredTables::ByPack(tables) => tables,
            StoredTables::Own(table) => vec![(self.own.clone(), table)],
        };
        let mut roots = Vec::new();
        for (pack, table) in &tables {
            let index = self
                .state_of_pack(pack)
                .map_err(|e| StorageError::Lua { message: e.message })?;
            roots.push((index, self.states[index].storage_root(table)?));
        }
        for (index, root) in roots {
            self.states[index].set_storage_root(root)?;
        }
        Ok(())
    }

    /// Makes the methods of the tokens' view of `board` in every state now.
    pub(crate) fn prepare_board_view(&self, board: &crate::game::Board) -> mlua::Result<()> {
        self.states
            .iter()
            .try_for_each(|s| s.prepare_board_view(board))
    }

    /// The effect of the script-defined token `call` invokes, from the last pack (in load
    /// order) that defines its kind: a pack may redefine a token of one it depends on. Its
    /// random draws come from `rng`, the game's generator (so a copy of the game invoking a
    /// token does not move the original's, and a Lua elemental draws as the built-in one).
    pub fn invoke_token(
        &mut self,
        call: &crate::game::Invocation<'_>,
        board: &crate::game::Board,
        rules: &crate::rules::RuleSet,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Result<crate::game::Effect, crate::game::EffectError> {
        self.in_event(|h| {
            match h
                .states
                .iter_mut()
                .rev()
                .find(|s| s.defines_token(call.kind))
            {
                Some(state) => state.invoke_token(call, board, rules, rng),
                None => Err(crate::game::EffectError::UnknownKind),
            }
        })
    }

    /// The multipliers every state's strength modifiers give `word` in `role`.
    pub fn strength_modifiers_for(
        &mut self,
        word: &crate::game::Word,
        role: crate::game::strength::Role,
        board: &crate::game::Board,
        rules: &crate::rules::RuleSet,
    ) -> Vec<(String, f64)> {
        self.in_event(|h| {
            h.states
                .iter_mut()
                .flat_map(|s| s.strength_modifiers_for(word, role, board, rules))
                .collect()
        })
    }

    /// Every live win condition: its state's index, script, id and `check`, in load order.
    pub(crate) fn win_condition_functions(&self) -> Vec<(usize, String, String, mlua::Function)> {
        self.states
            .iter()
            .enumerate()
            .flat_map(|(i, s)| {
                s.win_condition_functions()
                    .into_iter()
                    .map(move |(script, id, check)| (i, script, id, check))
            })
            .collect()
    }

    /// Asks win condition `check` of state `index` for a verdict, with the game's view.
    pub(crate) fn ask_win_condition(
        &self,
        index: usize,
        check: &mlua::Function,
    ) -> mlua::Result<Option<String>> {
        let state = &self.states[index];
        // Once the action's budget is spent, its work is cut: the condition is not asked.
        if state.budget.exhausted() && state.budget.in_event() {
            return Ok(None);
        }
        state.guarded(|| check.call::<Option<String>>(state.view.clone()))
    }

    /// A script error of state `index` (see `State::error`), also on the console; a failed
    /// win condition `id` counts towards its switching off.
    pub(crate) fn win_condition_error(
        &mut self,
        (index, script, id): (usize, &str, Option<&str>),
        turn: Option<u32>,
        err: &mlua::Error,
    ) -> ScriptError {
        let state = &mut self.states[index];
        let error = state.error(script, "win_condition", turn, err);
        if let Some(id) = id {
            state.count_win_condition_failure(id, &error);
        }
        error
    }

    /// The state script `name` runs in.
    #[cfg(test)]
    pub(crate) fn state_running(&self, name: &str) -> Option<&State> {
        self.states.iter().find(|s| s.has_script(name))
    }

    /// The first state (in load order).
    #[cfg(test)]
    pub(crate) fn first_state(&self) -> &State {
        &self.states[0]
    }
}

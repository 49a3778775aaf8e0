//! A game with its scripts: engine events become script events, handlers read the game and
//! change it only through commands the engine checks, and win conditions are asked after every
//! action whether someone has won.

use super::{ConsoleLine, ScriptError, ScriptHost, ScriptLimits, ScriptTokens};
use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::{Action, ActionError, Event, Game, ScriptCommand};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use crate::save::{ReplayError, SaveFile, ScriptSource};
use mlua::{Lua, MultiValue, Table, UserData, UserDataMethods, Value};
use std::cell::RefCell;
use std::sync::{Arc, Mutex, MutexGuard};

/// A game whose scripts take part.
pub struct ScriptedGame {
    game: Game,
    host: Arc<Mutex<ScriptHost>>,
    scripts: Vec<ScriptSource>,
    storage_at_start: String,
}

/// What a handler sees: the game, read and (unless `read_only`) changed through commands.
struct EventView<'a, 'g> {
    game: &'a RefCell<&'g mut Game>,
    events: &'a RefCell<Vec<Event>>,
    messages: &'a RefCell<Vec<String>>,
    read_only: bool,
}

/// The state a view borrows, kept outside the Lua scope so it can be read afterwards.
struct ViewState<'g> {
    game: RefCell<&'g mut Game>,
    events: RefCell<Vec<Event>>,
    messages: RefCell<Vec<String>>,
}

impl<'g> ViewState<'g> {
    fn new(game: &'g mut Game) -> Self {
        ViewState {
            game: RefCell::new(game),
            events: RefCell::default(),
            messages: RefCell::default(),
        }
    }

    fn view(&self, read_only: bool) -> EventView<'_, 'g> {
        EventView {
            game: &self.game,
            events: &self.events,
            messages: &self.messages,
            read_only,
        }
    }
}

fn parse_player(name: &str) -> mlua::Result<Player> {
    match name {
        "gold" => Ok(Player::Gold),
        "silver" => Ok(Player::Silver),
        other => Err(mlua::Error::runtime(format!(
            "`{other}` is not a player: write \"gold\" or \"silver\""
        ))),
    }
}

fn parse_owner(name: &str) -> mlua::Result<Owner> {
    match name {
        "neutral" => Ok(Owner::Neutral),
        other => parse_player(other).map(Owner::from),
    }
}

fn cell(x: i64, y: i64) -> mlua::Result<Pos> {
    match (u32::try_from(x), u32::try_from(y)) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(mlua::Error::runtime(format!("({x}, {y}) is off the board"))),
    }
}

impl EventView<'_, '_> {
    fn command(&self, command: ScriptCommand) -> mlua::Result<()> {
        if self.read_only {
            return Err(mlua::Error::runtime(
                "a win condition only reads the game; change it from an event handler",
            ));
        }
        let events = self
            .game
            .borrow_mut()
            .script_command(&command)
            .map_err(|e| mlua::Error::runtime(e.to_string()))?;
        self.events.borrow_mut().extend(events);
        Ok(())
    }
}

impl UserData for EventView<'_, '_> {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("width", |_, v, ()| {
            Ok(v.game.borrow().board().terrain.width())
        });
        methods.add_method("height", |_, v, ()| {
            Ok(v.game.borrow().board().terrain.height())
        });
        methods.add_method("turn", |_, v, ()| Ok(v.game.borrow().turn()));
        methods.add_method("active", |_, v, ()| Ok(v.game.borrow().active().name()));
        methods.add_method("terrain", |_, v, (x, y): (i64, i64)| {
            let g = v.game.borrow();
            Ok(cell(x, y)
                .ok()
                .and_then(|p| g.board().terrain.get(p))
                .map(|t| t.name()))
        });
        methods.add_method("letter", |_, v, (x, y): (i64, i64)| {
            let g = v.game.borrow();
            let tile = cell(x, y)
                .ok()
                .and_then(|p| g.board().letters.get(p).copied().flatten());
            Ok(tile
                .map(|t| (t.letter.to_string(), t.player.name()))
                .unzip())
        });
        methods.add_method("score", |_, v, player: String| {
            let s = v.game.borrow().score(parse_player(&player)?);
            Ok((s.total, s.word, s.base))
        });
        methods.add_method("rack", |_, v, player: String| {
            Ok(v.game.borrow().rack_letters(parse_player(&player)?))
        });
        methods.add_method("pool_size", |_, v, player: String| {
            Ok(v.game.borrow().player(parse_player(&player)?).pool.len())
        });
        methods.add_method("cities", |lua, v, ()| {
            let g = v.game.borrow();
            let list = lua.create_table()?;
            for (i, c) in g.board().cities.iter().filter(|c| !c.destroyed).enumerate() {
                let t = lua.create_table()?;
                t.raw_set("id", c.id.as_str())?;
                t.raw_set("name", c.name.as_str())?;
                t.raw_set("x", c.at.x)?;
                t.raw_set("y", c.at.y)?;
                t.raw_set("owner", c.owner.name())?;
                list.raw_set(i + 1, t)?;
            }
            Ok(list)
        });
        methods.add_method("city_owner", |_, v, id: String| {
            let g = v.game.borrow();
            Ok(g.board()
                .cities
                .iter()
                .find(|c| c.id == id && !c.destroyed)
                .map(|c| c.owner.name()))
        });
        methods.add_method("rule", |lua, v, key: String| {
            super::tokens::rule_value(lua, v.game.borrow().rules(), &key)
        });
        methods.add_method("set_terrain", |_, v, (x, y, name): (i64, i64, String)| {
            let terrain = Terrain::from_name(&name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown terrain `{name}`")))?;
            v.command(ScriptCommand::SetTerrain {
                at: cell(x, y)?,
                terrain,
            })
        });
        methods.add_method(
            "give_letters",
            |_, v, (player, letters): (String, String)| {
                v.command(ScriptCommand::GiveLetters {
                    player: parse_player(&player)?,
                    letters,
                })
            },
        );
        methods.add_method(
            "take_letters",
            |_, v, (player, letters): (String, String)| {
                v.command(ScriptCommand::TakeLetters {
                    player: parse_player(&player)?,
                    letters,
                })
            },
        );
        methods.add_method(
            "place_token",
            |_, v, (id, kind, x, y): (String, String, i64, i64)| {
                v.command(ScriptCommand::PlaceToken {
                    id,
                    kind,
                    at: cell(x, y)?,
                })
            },
        );
        methods.add_method("set_city_owner", |_, v, (city, owner): (String, String)| {
            v.command(ScriptCommand::SetCityOwner {
                city,
                owner: parse_owner(&owner)?,
            })
        });
        methods.add_method("award", |_, v, (player, points): (String, i64)| {
            v.command(ScriptCommand::Award {
                player: parse_player(&player)?,
                points,
            })
        });
        methods.add_method("message", |_, v, text: String| {
            v.messages.borrow_mut().push(text);
            Ok(())
        });
        methods.add_method(
            "end_game",
            |_, v, (winner, reason): (Option<String>, String)| {
                if v.read_only {
                    return Err(mlua::Error::runtime(
                        "a win condition returns its winner instead of ending the game",
                    ));
                }
                let winner = winner.map(|w| parse_player(&w)).transpose()?;
                let events = v.game.borrow_mut().end_game(winner, reason);
                v.events.borrow_mut().extend(events);
                Ok(())
            },
        );
    }
}

/// The script event an engine event is, if any.
fn script_event_name(event: &Event) -> Option<&'static str> {
    Some(match event {
        Event::TurnStarted { .. } => "turn_start",
        Event::TurnEnded { .. } => "turn_end",
        Event::WordCommitted { .. } => "word_committed",
        Event::AttackSucceeded { .. } | Event::AttackRepelled { .. } => "combat_resolved",
        Event::CityCaptured { .. } => "city_captured",
        Event::TokenCaptured { .. } => "token_captured",
        Event::TokenInvoked { .. } => "token_invoked",
        Event::GameOver { .. } => "game_end",
        _ => return None,
    })
}

/// The script event an engine event is, and its fields.
fn script_event(lua: &Lua, event: &Event) -> mlua::Result<Option<(&'static str, Table)>> {
    let t = lua.create_table()?;
    let name = match event {
        Event::TurnStarted { player, turn, drew } => {
            t.raw_set("player", player.name())?;
            t.raw_set("turn", *turn)?;
            t.raw_set("drew", drew.as_str())?;
            "turn_start"
        }
        Event::TurnEnded { player, passed } => {
            t.raw_set("player", player.name())?;
            t.raw_set("passed", *passed)?;
            "turn_end"
        }
        Event::WordCommitted { player, word, key } => {
            t.raw_set("player", player.name())?;
            t.raw_set("word", word.as_str())?;
            t.raw_set("x", key.start.x)?;
            t.raw_set("y", key.start.y)?;
            t.raw_set("dir", crate::game::describe::dir_name(key.dir))?;
            "word_committed"
        }
        Event::AttackSucceeded { .. } => {
            t.raw_set("result", "won")?;
            "combat_resolved"
        }
        Event::AttackRepelled { by, .. } => {
            t.raw_set("result", "repelled")?;
            t.raw_set("by", by.as_str())?;
            "combat_resolved"
        }
        Event::CityCaptured {
            player,
            city,
            from,
            bonus,
        } => {
            t.raw_set("player", player.name())?;
            t.raw_set("city", city.as_str())?;
            t.raw_set("from", from.name())?;
            t.raw_set("bonus", *bonus)?;
            "city_captured"
        }
        Event::TokenCaptured {
            player,
            token,
            kind,
        }
        | Event::TokenInvoked {
            player,
            token,
            kind,
            ..
        } => {
            t.raw_set("player", player.name())?;
            t.raw_set("token", token.as_str())?;
            t.raw_set("kind", kind.as_str())?;
            if matches!(event, Event::TokenCaptured { .. }) {
                "token_captured"
            } else {
                "token_invoked"
            }
        }
        Event::GameOver { result } => {
            t.raw_set("winner", result.winner.map(|w| w.name()))?;
            t.raw_set("reason", crate::game::describe::describe_result(result))?;
            "game_end"
        }
        _ => return Ok(None),
    };
    Ok(Some((name, t)))
}

impl ScriptedGame {
    /// `game` with the scripts of `host` taking part: tokens they define take effect through
    /// them, and `game_start` runs now.
    pub fn new(game: Game, host: ScriptHost) -> (ScriptedGame, Vec<ScriptError>) {
        let host = Arc::new(Mutex::new(host));
        let mut scripted = ScriptedGame {
            game,
            host: host.clone(),
            scripts: Vec::new(),
            storage_at_start: String::new(),
        };
        scripted
            .game
            .set_token_effects(Arc::new(ScriptTokens::new(host.clone())));
        scripted
            .game
            .set_strength_modifiers(Arc::new(super::tokens::ScriptModifiers::new(host)));
        let mut errors = Vec::new();
        let mut events = Vec::new();
        scripted.run_handlers("game_start", None, &mut events, &mut errors);
        scripted.dispatch_all(events, &mut errors);
        scripted.check_win_conditions(&mut Vec::new(), &mut errors);
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
        let mut host = ScriptHost::with_standard_tokens(ScriptLimits::default(), seed)?;
        if let Some(json) = storage.filter(|s| !s.is_empty()) {
            host.set_storage_json(json).map_err(|message| ScriptError {
                script: "(save)".into(),
                line: None,
                event: "load".into(),
                turn: None,
                message,
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
        let game = Game::new(map, rules, lexicon, seed);
        let (mut scripted, more) = ScriptedGame::new(game, host);
        scripted.scripts = loaded;
        // The storage as it was before any script ran: replaying runs the scripts again.
        scripted.storage_at_start = storage.unwrap_or_default().to_string();
        errors.extend(more);
        Ok((scripted, errors))
    }

    /// A saved scripted game, replayed; returns it and every event, in order.
    pub fn from_save(
        save: &SaveFile,
        lexicon: Arc<Lexicon>,
    ) -> Result<(ScriptedGame, Vec<Event>), String> {
        let storage = (!save.storage.is_empty()).then_some(save.storage.as_str());
        let (mut game, _) = ScriptedGame::start(
            &save.map,
            save.rules.clone(),
            lexicon,
            save.seed,
            save.scripts.clone(),
            storage,
        )
        .map_err(|e| e.to_string())?;
        let mut events = Vec::new();
        for (i, action) in save.actions.iter().enumerate() {
            let more = game.apply(action.clone()).map_err(|error| {
                ReplayError {
                    number: i + 1,
                    action: action.clone(),
                    error,
                }
                .to_string()
            })?;
            events.extend(more);
        }
        Ok((game, events))
    }

    /// The save of this game as it stands, scripts and starting storage included.
    pub fn save(&self) -> SaveFile {
        SaveFile {
            scripts: self.scripts.clone(),
            storage: self.storage_at_start.clone(),
            ..SaveFile::of(&self.game)
        }
    }

    /// Reloads script `name` with new text (see `ScriptHost::reload`); a save made afterwards
    /// records the new text.
    pub fn reload_script(&mut self, name: &str, source: &str) -> Result<(), ScriptError> {
        self.host().reload(name, source)?;
        match self.scripts.iter_mut().find(|s| s.name == name) {
            Some(script) => script.source = source.to_string(),
            None => self.scripts.push(ScriptSource {
                name: name.to_string(),
                source: source.to_string(),
            }),
        }
        Ok(())
    }

    /// The scripts taking part, by name.
    pub fn script_names(&self) -> Vec<String> {
        self.scripts.iter().map(|s| s.name.clone()).collect()
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The host, for its console and definitions.
    pub fn host(&self) -> MutexGuard<'_, ScriptHost> {
        match self.host.lock() {
            Ok(host) => host,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Applies `action`, then lets the scripts react; returns the engine's events and those
    /// the scripts' commands caused. Script errors go to the console and the game goes on.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        let events = self.game.apply(action)?;
        let mut errors = Vec::new();
        let mut all = self.dispatch_all(events, &mut errors);
        self.check_win_conditions(&mut all, &mut errors);
        Ok(all)
    }

    /// Runs the handlers of every event, including events their commands cause.
    fn dispatch_all(&mut self, events: Vec<Event>, errors: &mut Vec<ScriptError>) -> Vec<Event> {
        let mut all = Vec::new();
        let mut queue: std::collections::VecDeque<Event> = events.into();
        while let Some(event) = queue.pop_front() {
            let mut caused = Vec::new();
            self.run_handlers_for(&event, &mut caused, errors);
            all.push(event);
            queue.extend(caused);
        }
        all
    }

    fn run_handlers_for(
        &mut self,
        event: &Event,
        caused: &mut Vec<Event>,
        errors: &mut Vec<ScriptError>,
    ) {
        let Some(name) = script_event_name(event) else {
            return;
        };
        // Most events have no handler: build nothing for them.
        if self.host().handler_count(name) == 0 {
            return;
        }
        let lua = self.host().lua.clone();
        let Ok(Some((name, payload))) = script_event(&lua, event) else {
            return;
        };
        self.run_handlers(name, Some(payload), caused, errors);
    }

    fn run_handlers(
        &mut self,
        name: &str,
        payload: Option<Table>,
        caused: &mut Vec<Event>,
        errors: &mut Vec<ScriptError>,
    ) {
        let turn = Some(self.game.turn());
        let mut host = match self.host.lock() {
            Ok(host) => host,
            Err(poisoned) => poisoned.into_inner(),
        };
        let lua = host.lua.clone();
        let state = ViewState::new(&mut self.game);
        let found = lua.scope(|scope| {
            let game = scope.create_userdata(state.view(false))?;
            let payload = payload.clone().map_or(Value::Nil, Value::Table);
            Ok(host.dispatch(name, turn, |_| {
                Ok(MultiValue::from_vec(vec![
                    Value::UserData(game.clone()),
                    payload.clone(),
                ]))
            }))
        });
        errors.extend(found.unwrap_or_default());
        for message in state.messages.take() {
            host.notices.push(ConsoleLine::Notice(message));
        }
        caused.extend(state.events.take());
    }

    /// Asks each win condition, in the order defined, whether someone has won.
    fn check_win_conditions(&mut self, events: &mut Vec<Event>, errors: &mut Vec<ScriptError>) {
        if self.game.result().is_some() || self.host().win_conditions().is_empty() {
            return;
        }
        let mut host = match self.host.lock() {
            Ok(host) => host,
            Err(poisoned) => poisoned.into_inner(),
        };
        let checks = host.win_condition_functions();
        let turn = Some(self.game.turn());
        let lua = host.lua.clone();
        for (script, id, check) in checks {
            let state = ViewState::new(&mut self.game);
            let verdict = lua.scope(|scope| {
                let game = scope.create_userdata(state.view(true))?;
                host.guarded(|| check.call::<Option<String>>(game))
            });
            drop(state);
            match verdict {
                Ok(Some(w)) => {
                    let winner = match w.as_str() {
                        "draw" => None,
                        other => match parse_player(other) {
                            Ok(p) => Some(p),
                            Err(e) => {
                                errors.push(host.error(&script, "win_condition", turn, &e));
                                continue;
                            }
                        },
                    };
                    events.extend(self.game.end_game(winner, format!("win condition `{id}`")));
                    return;
                }
                Ok(None) => {}
                Err(e) => errors.push(host.error(&script, "win_condition", turn, &e)),
            }
        }
    }
}

impl ScriptHost {
    fn win_condition_functions(&self) -> Vec<(String, String, mlua::Function)> {
        let Ok(r) = self.registry.lock() else {
            return Vec::new();
        };
        r.win_conditions
            .iter()
            .filter_map(|d| Some((d.script.clone(), d.id.clone(), d.table.get("check").ok()?)))
            .collect()
    }
}

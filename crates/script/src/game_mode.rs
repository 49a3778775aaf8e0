//! A game whose rules are a pack's Lua (`flow.scripted`): `scryptic.game_mode{...}` defines
//! `setup(game)`, `moves(game, player)`, `play(game, player, move)`, and optionally
//! `revealed(game)` (after secret choices) and `end_if(game)`. `game` is the engine's table
//! (`crate::game::Table`) lent to Lua for the call: whole for `setup`, `play`, `revealed` and
//! `end_if` (the referee sees everything), as the player sees it for `moves`. Its commands are
//! the table's own, each checked as it is made; the engine plays every call on a copy, so a
//! failing script changes nothing.

use super::lua_values::fixed_name;
use super::text::Name;
use super::{Definition, ScriptHost, State, lock};
use crate::board::{Player, Pos};
use crate::game::{GameMode, Piece, Place, SeatSet, Table as GameTable, TableEnd, Var};
use crate::limits::{MAX_MOVE_CHARS, MAX_MOVES};
use crate::rules::RuleSet;
use mlua::{Function, Lua, Table, UserDataMethods, Value};
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, Mutex};

/// The functions `scryptic.game_mode` requires, and those it may have.
const REQUIRED: [&str; 3] = ["setup", "moves", "play"];
const OPTIONAL: [&str; 4] = ["revealed", "end_if", "score", "why_not"];

/// Registers `scryptic.game_mode`.
pub(super) fn install(
    lua: &Lua,
    api: &Table,
    registry: &Arc<Mutex<super::Registry>>,
) -> mlua::Result<()> {
    let reg = registry.clone();
    let define = lua.create_function(move |lua, table: Table| {
        for name in REQUIRED {
            if !matches!(table.get::<Value>(name)?, Value::Function(_)) {
                return Err(mlua::Error::runtime(format!(
                    "scryptic.game_mode needs `{name}` (a function); it has {}",
                    REQUIRED.join(", ")
                )));
            }
        }
        for name in OPTIONAL {
            if !matches!(table.get::<Value>(name)?, Value::Nil | Value::Function(_)) {
                return Err(mlua::Error::runtime(format!(
                    "scryptic.game_mode's `{name}` is a function, or absent"
                )));
            }
        }
        if !matches!(table.get::<Value>("help")?, Value::Nil | Value::String(_)) {
            return Err(mlua::Error::runtime(
                "scryptic.game_mode's `help` is a text (how the game is played, for `help`), or absent",
            ));
        }
        let script = super::sandbox::current_script(lua).unwrap_or_default();
        let mut r = lock(&reg)?;
        r.game_modes.retain(|d| d.script != script);
        r.game_modes.push(Definition {
            script,
            id: "game_mode".into(),
            table,
            failures: 0,
        });
        r.changed();
        Ok(())
    })?;
    api.raw_set("game_mode", define)?;
    lua.register_userdata_type::<GameTable>(add_table_methods)
}

/// What a call of the rules may read beyond the table: the rule set (its JSON tree made only
/// when `game:rule` asks: a search calls the rules thousands of times a second) and the
/// settings.
struct ModeCall {
    rules: Arc<RuleSet>,
    settings: Arc<std::collections::BTreeMap<String, crate::save::SettingValue>>,
}

fn seat_of(table: &GameTable, name: &str) -> mlua::Result<Player> {
    let player = super::game_view::parse_player(name)?;
    if player.index() >= table.seat_count() {
        return Err(mlua::Error::runtime(format!(
            "{name} does not play: this game has {} seats",
            table.seat_count()
        )));
    }
    Ok(player)
}

fn cell_of(table: &GameTable, x: i64, y: i64) -> mlua::Result<Pos> {
    let inside = u32::try_from(x)
        .ok()
        .zip(u32::try_from(y).ok())
        .filter(|&(x, y)| x < table.width() && y < table.height());
    inside.map(|(x, y)| Pos::new(x, y)).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "({x}, {y}) is off the board ({} by {})",
            table.width(),
            table.height()
        ))
    })
}

fn table_error(e: crate::game::TableError) -> mlua::Error {
    mlua::Error::runtime(e.0)
}

fn piece_id(table: &GameTable, id: i64) -> mlua::Result<usize> {
    usize::try_from(id)
        .ok()
        .filter(|&i| i < table.pieces().len())
        .ok_or_else(|| {
            mlua::Error::runtime(format!(
                "there is no piece {id} (the pieces are 0 to {})",
                table.pieces().len().saturating_sub(1)
            ))
        })
}

/// A piece as the Lua table scripts read: `id`, `owner`, `kind`, `value` (nil if it has none
/// or it is hidden), `hidden`, and `x`, `y` on the board or `pit`.
fn piece_table(lua: &Lua, id: usize, piece: &Piece) -> mlua::Result<Table> {
    super::lua_values::piece_table(lua, id, piece)
}

fn pieces_table(
    lua: &Lua,
    table: &GameTable,
    ids: impl Iterator<Item = usize>,
) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for (n, id) in ids.enumerate() {
        list.raw_set(n + 1, piece_table(lua, id, &table.pieces()[id])?)?;
    }
    Ok(list)
}

fn var_value(lua: &Lua, var: Option<&Var>) -> mlua::Result<Value> {
    Ok(match var {
        None => Value::Nil,
        Some(Var::Int(i)) => Value::Integer(*i),
        Some(Var::Bool(b)) => Value::Boolean(*b),
        Some(Var::Text(t)) => Value::String(lua.create_string(t)?),
    })
}

fn value_var(value: Value) -> mlua::Result<Var> {
    match value {
        Value::Integer(i) => Ok(Var::Int(i)),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(Var::Int(n as i64)),
        Value::Boolean(b) => Ok(Var::Bool(b)),
        // Refused before it is copied out of Lua if no variable's text can be that long.
        Value::String(s) if s.as_bytes().len() > crate::limits::MAX_TABLE_TEXT_CHARS * 4 => {
            Err(mlua::Error::runtime(format!(
                "a table variable's text is at most {} characters, not {} bytes",
                crate::limits::MAX_TABLE_TEXT_CHARS,
                s.as_bytes().len()
            )))
        }
        Value::String(s) => Ok(Var::Text(s.to_str()?.to_string())),
        other => Err(mlua::Error::runtime(format!(
            "a table variable is a whole number, a boolean or a string, not a {}",
            other.type_name()
        ))),
    }
}

/// The piece a spec places: `{owner=, kind=, value=, pit=}` or with `x`, `y` instead of `pit`.
fn add_spec(table: &GameTable, spec: &Table) -> mlua::Result<(Player, String, Option<i64>, Place)> {
    let owner: String = spec
        .get("owner")
        .map_err(|_| mlua::Error::runtime("game:add needs `owner`, a seat's name"))?;
    let owner = seat_of(table, &owner)?;
    let kind: String = spec
        .get("kind")
        .map_err(|_| mlua::Error::runtime("game:add needs `kind`, a word"))?;
    let value: Option<i64> = spec
        .get("value")
        .map_err(|_| mlua::Error::runtime("game:add's `value` is a whole number"))?;
    let (x, y): (Option<i64>, Option<i64>) = (spec.get("x")?, spec.get("y")?);
    let pit: Option<String> = spec.get("pit")?;
    let place = match (x, y, pit) {
        (Some(x), Some(y), None) => Place::Cell(cell_of(table, x, y)?),
        (None, None, Some(pit)) => Place::Pit(pit),
        _ => {
            return Err(mlua::Error::runtime(
                "game:add needs one place: `x` and `y` on the board, or a `pit`",
            ));
        }
    };
    Ok((owner, kind, value, place))
}

fn add_table_methods<M: UserDataMethods<GameTable>>(m: &mut M) {
    add_reads(m);
    add_commands(m);
}

fn add_reads<M: UserDataMethods<GameTable>>(m: &mut M) {
    m.add_method("width", |_, t, ()| Ok(t.width()));
    m.add_method("height", |_, t, ()| Ok(t.height()));
    m.add_method("seats", |lua, t, ()| {
        let list = lua.create_table()?;
        for (i, p) in SeatSet::first(t.seat_count()).seats().enumerate() {
            list.raw_set(i + 1, fixed_name(lua, p.name())?)?;
        }
        Ok(list)
    });
    m.add_method("viewer", |lua, t, ()| match t.viewer().flatten() {
        Some(p) => Ok(Value::String(fixed_name(lua, p.name())?)),
        None => Ok(Value::Nil),
    });
    m.add_method("piece", |lua, t, id: i64| {
        let id = piece_id(t, id)?;
        piece_table(lua, id, &t.pieces()[id])
    });
    m.add_method("at", |lua, t, (x, y): (i64, i64)| {
        let cell = cell_of(t, x, y)?;
        let Some(id) = t.piece_at(cell) else {
            return Ok((Value::Nil, Value::Nil, Value::Nil));
        };
        let piece = &t.pieces()[id];
        let owner = Value::String(fixed_name(lua, piece.owner.name())?);
        let value = piece.value.map_or(Value::Nil, Value::Integer);
        Ok((Value::Integer(id as i64), owner, value))
    });
    m.add_method("owners", |lua, t, ()| {
        let cells = t.width() as usize * t.height() as usize;
        super::sandbox::charge_host_work(lua, cells / 4)?;
        let list = lua.create_table_with_capacity(cells, 0)?;
        for y in 0..t.height() {
            for x in 0..t.width() {
                let owner = match t.piece_at(Pos::new(x, y)) {
                    Some(id) => Value::String(fixed_name(lua, t.pieces()[id].owner.name())?),
                    None => Value::Boolean(false),
                };
                list.raw_set(y as usize * t.width() as usize + x as usize + 1, owner)?;
            }
        }
        Ok(list)
    });
    m.add_method("piece_at", |lua, t, (x, y): (i64, i64)| {
        let cell = cell_of(t, x, y)?;
        t.piece_at(cell)
            .map(|id| piece_table(lua, id, &t.pieces()[id]))
            .transpose()
    });
    m.add_method("pieces", |lua, t, owner: Option<Name>| {
        let owner = owner.map(|o| seat_of(t, &o)).transpose()?;
        let ids = (0..t.pieces().len()).filter(|&id| {
            let p = &t.pieces()[id];
            matches!(p.place, Place::Cell(_)) && owner.is_none_or(|o| o == p.owner)
        });
        pieces_table(lua, t, ids)
    });
    m.add_method("pit", |lua, t, (owner, name): (Name, Name)| {
        let owner = seat_of(t, &owner)?;
        pieces_table(lua, t, t.pit(owner, &name))
    });
    m.add_method("count", |_, t, (owner, name): (Name, Name)| {
        let owner = seat_of(t, &owner)?;
        Ok(t.pit(owner, &name).count())
    });
    m.add_method("get", |lua, t, name: Name| var_value(lua, t.var(&name)));
    m.add_method("to_move", |lua, t, ()| {
        let list = lua.create_table()?;
        for (i, p) in t.to_move().seats().enumerate() {
            list.raw_set(i + 1, fixed_name(lua, p.name())?)?;
        }
        Ok(list)
    });
    m.add_method("secret", |_, t, ()| Ok(t.secret()));
    m.add_method("first", |lua, t, ()| fixed_name(lua, t.first().name()));
    m.add_method("cell_name", |_, t, (x, y): (i64, i64)| {
        Ok(crate::game::notation::cell_name(cell_of(t, x, y)?))
    });
    m.add_method("cell", |_, t, name: Name| {
        let cell = crate::game::notation::parse_cell(&name)
            .map_err(|e| mlua::Error::runtime(e.to_string()))?;
        let cell = cell_of(t, i64::from(cell.x), i64::from(cell.y))?;
        Ok((cell.x, cell.y))
    });
    m.add_method("rule", |lua, _, key: Name| {
        let rules = lua
            .app_data_ref::<ModeCall>()
            .map(|call| call.rules.clone())
            .ok_or_else(|| mlua::Error::runtime("rules can be read only while the rules run"))?;
        super::tokens::rule_value(lua, &rules, &key)
    });
    m.add_method("setting", |lua, _, (id, default): (Name, Value)| {
        let settings = lua
            .app_data_ref::<ModeCall>()
            .map(|call| call.settings.clone())
            .ok_or_else(|| mlua::Error::runtime("settings can be read only while the rules run"))?;
        match settings.get(id.as_str()) {
            Some(value) => super::game_view::setting_value(lua, value),
            // A game made without its pack (a test's) has no settings: the default plays.
            None if !default.is_nil() => Ok(default),
            None => Err(mlua::Error::runtime(format!(
                "this game has no setting `{id}` (give game:setting a default for games without it)"
            ))),
        }
    });
}

fn add_commands<M: UserDataMethods<GameTable>>(m: &mut M) {
    m.add_method_mut("add", |lua, t, spec: Table| {
        charge(lua)?;
        let (owner, kind, value, place) = add_spec(t, &spec)?;
        t.add(owner, &kind, value, place).map_err(table_error)
    });
    m.add_method_mut("move", |lua, t, (id, x, y): (i64, i64, i64)| {
        charge(lua)?;
        let (id, cell) = (piece_id(t, id)?, cell_of(t, x, y)?);
        t.move_to(id, Place::Cell(cell)).map_err(table_error)
    });
    m.add_method_mut("to_pit", |lua, t, (id, pit): (i64, Name)| {
        charge(lua)?;
        let id = piece_id(t, id)?;
        t.move_to(id, Place::Pit(pit.into_string()))
            .map_err(table_error)
    });
    m.add_method_mut("show", |lua, t, (id, to): (i64, Option<Name>)| {
        charge(lua)?;
        let id = piece_id(t, id)?;
        let seats = match to {
            Some(name) => SeatSet::one(seat_of(t, &name)?),
            None => SeatSet::first(t.seat_count()),
        };
        t.show(id, seats).map_err(table_error)
    });
    m.add_method_mut("hide", |lua, t, id: i64| {
        charge(lua)?;
        let id = piece_id(t, id)?;
        t.hide(id).map_err(table_error)
    });
    m.add_method_mut("set", |lua, t, (name, value): (Name, Value)| {
        charge(lua)?;
        t.set_var(&name, value_var(value)?).map_err(table_error)
    });
    m.add_method_mut("turn", |lua, t, player: Name| {
        charge(lua)?;
        let player = seat_of(t, &player)?;
        t.give_turn(player).map_err(table_error)
    });
    m.add_method_mut("choose_in_secret", |lua, t, seats: Option<Vec<Name>>| {
        charge(lua)?;
        let set = match seats {
            None => SeatSet::first(t.seat_count()),
            Some(names) => names.iter().try_fold(SeatSet::EMPTY, |set, n| {
                Ok::<_, mlua::Error>(set.with(seat_of(t, n)?))
            })?,
        };
        t.choose_in_secret(set).map_err(table_error)
    });
    m.add_method_mut("done", |lua, t, player: Name| {
        charge(lua)?;
        let player = seat_of(t, &player)?;
        t.choice_done(player).map_err(table_error)
    });
    m.add_method_mut(
        "end_game",
        |lua, t, (winner, reason): (Name, Option<mlua::LuaString>)| {
            charge(lua)?;
            let winner = match winner.as_str() {
                "draw" => None,
                name => Some(seat_of(t, name)?),
            };
            let reason = reason.map_or_else(
                || "the rules ended the game".into(),
                |r| super::text::shown_bytes(&r.as_bytes(), super::text::MAX_MESSAGE_BYTES),
            );
            t.end_game(winner, &reason).map_err(table_error)
        },
    );
    m.add_method_mut(
        "say",
        |lua, t, (text, to): (mlua::LuaString, Option<Name>)| {
            charge(lua)?;
            let to = to.map(|n| seat_of(t, &n)).transpose()?;
            let text = super::text::shown_bytes(&text.as_bytes(), super::text::MAX_MESSAGE_BYTES);
            t.say(&text, to).map_err(table_error)
        },
    );
}

fn charge(lua: &Lua) -> mlua::Result<()> {
    super::sandbox::charge_host_work(lua, super::session::UNITS_PER_COMMAND)
}

/// How a call lends the table: whole and changeable, or only to read.
enum Lent<'a> {
    Read(&'a GameTable),
    Change(&'a mut GameTable),
}

impl State {
    /// The mode's function `name`, if this state defines a game mode with it.
    fn mode_function(&self, name: &str) -> Option<(String, Function)> {
        let registry = self.registry.lock().ok()?;
        let def = registry.game_modes.last()?;
        match def.table.get::<Value>(name).ok()? {
            Value::Function(f) => Some((def.script.clone(), f)),
            _ => None,
        }
    }

    pub(super) fn defines_game_mode(&self) -> bool {
        self.registry.lock().is_ok_and(|r| !r.game_modes.is_empty())
    }

    /// Calls the mode's `name` with the table lent and `args` after it.
    fn call_mode<R: mlua::FromLuaMulti>(
        &mut self,
        name: &str,
        table: Lent<'_>,
        call: ModeCall,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<Option<R>, String> {
        let Some((script, function)) = self.mode_function(name) else {
            return Ok(None);
        };
        self.lua.set_app_data(call);
        let outcome = self.lua.scope(|scope| {
            let game = match table {
                Lent::Read(t) => scope.create_any_userdata_ref(t)?,
                Lent::Change(t) => scope.create_any_userdata_ref_mut(t)?,
            };
            let args = args.into_lua_multi(&self.lua)?;
            self.guarded(|| function.call::<R>((game, args)))
        });
        self.lua.remove_app_data::<ModeCall>();
        outcome
            .map(Some)
            .map_err(|e| self.error(&script, name, None, &e).to_string())
    }
}

/// A game mode from the scripts of a host: what a scripted game plays once they are loaded.
pub struct ScriptMode {
    host: Arc<Mutex<ScriptHost>>,
    settings: Arc<std::collections::BTreeMap<String, crate::save::SettingValue>>,
    /// The mode's `help`, read once.
    help: Option<String>,
}

impl ScriptMode {
    /// The mode `host`'s scripts define, if one does, with the game's `settings`.
    pub fn of(
        host: Arc<Mutex<ScriptHost>>,
        settings: std::collections::BTreeMap<String, crate::save::SettingValue>,
    ) -> Option<ScriptMode> {
        let (defined, help) = match host.lock() {
            Ok(mut h) => (h.defines_game_mode(), h.mode_help()),
            Err(poisoned) => {
                let mut h = poisoned.into_inner();
                (h.defines_game_mode(), h.mode_help())
            }
        };
        defined.then(|| ScriptMode {
            host,
            settings: Arc::new(settings),
            help,
        })
    }

    fn call<R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        table: Lent<'_>,
        rules: &Arc<RuleSet>,
        rng: Option<&mut ChaCha8Rng>,
        args: impl mlua::IntoLuaMulti,
    ) -> Result<Option<R>, String> {
        let mut host = self
            .host
            .lock()
            .map_err(|_| "the script host is unavailable".to_string())?;
        let call = ModeCall {
            rules: rules.clone(),
            settings: self.settings.clone(),
        };
        let state = host
            .mode_state()
            .ok_or_else(|| "no script defines the game's moves any more".to_string())?;
        match rng {
            Some(rng) => {
                let lua = state.lua.clone();
                super::sandbox::with_random_stream(&lua, rng, || {
                    state.call_mode(name, table, call, args)
                })
            }
            None => state.call_mode(name, table, call, args),
        }
    }
}

/// The most bytes of a game mode's `help` kept.
const MAX_HELP_BYTES: usize = 8 * 1024;

impl GameMode for ScriptMode {
    fn help(&self) -> Option<String> {
        self.help.clone()
    }

    fn setup(
        &self,
        table: &mut GameTable,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String> {
        self.call::<()>("setup", Lent::Change(table), rules, Some(rng), ())
            .map(drop)
    }

    fn why_not(
        &self,
        view: &GameTable,
        player: Player,
        mv: &str,
        rules: &Arc<RuleSet>,
    ) -> Option<String> {
        let why: Option<Option<mlua::LuaString>> = self
            .call(
                "why_not",
                Lent::Read(view),
                rules,
                None,
                (player.name(), mv),
            )
            .ok()?;
        let why = why.flatten()?;
        Some(super::text::shown_bytes(
            &why.as_bytes(),
            super::text::MAX_MESSAGE_BYTES,
        ))
    }

    fn moves(
        &self,
        view: &GameTable,
        player: Player,
        rules: &Arc<RuleSet>,
    ) -> Result<Vec<String>, String> {
        let listed: Option<Vec<Value>> =
            self.call("moves", Lent::Read(view), rules, None, player.name())?;
        let listed = listed.unwrap_or_default();
        if listed.len() > MAX_MOVES {
            return Err(format!(
                "moves listed {} moves; a position has at most {MAX_MOVES}",
                listed.len()
            ));
        }
        listed.into_iter().map(move_text).collect()
    }

    fn play(
        &self,
        table: &mut GameTable,
        player: Player,
        mv: &str,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String> {
        self.call::<()>(
            "play",
            Lent::Change(table),
            rules,
            Some(rng),
            (player.name(), mv),
        )
        .map(drop)
    }

    fn revealed(
        &self,
        table: &mut GameTable,
        rules: &Arc<RuleSet>,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), String> {
        let called = self.call::<()>("revealed", Lent::Change(table), rules, Some(rng), ())?;
        called.ok_or_else(|| {
            "the secret choices are made, but the mode has no `revealed` function to say who moves next"
                .to_string()
        })
    }

    fn score(
        &self,
        table: &GameTable,
        player: Player,
        rules: &Arc<RuleSet>,
    ) -> Result<Option<f64>, String> {
        let said: Option<Option<f64>> =
            self.call("score", Lent::Read(table), rules, None, player.name())?;
        Ok(said.flatten())
    }

    fn end_if(&self, table: &GameTable, rules: &Arc<RuleSet>) -> Result<Option<TableEnd>, String> {
        let said: Option<(Option<String>, Option<String>)> =
            self.call("end_if", Lent::Read(table), rules, None, ())?;
        let Some((Some(winner), reason)) = said else {
            return Ok(None);
        };
        let winner = match winner.as_str() {
            "draw" => None,
            name => Some(
                seat_of(table, name)
                    .map_err(|e| format!("end_if returned {name:?}: {e} (or \"draw\", or nil)"))?,
            ),
        };
        let reason = reason.unwrap_or_else(|| "the rules ended the game".into());
        Ok(Some(TableEnd {
            winner,
            reason: reason
                .chars()
                .take(crate::limits::MAX_TABLE_TEXT_CHARS)
                .collect(),
        }))
    }
}

/// A listed move as the engine takes it: a short text.
fn move_text(value: Value) -> Result<String, String> {
    let Value::String(s) = value else {
        return Err(format!(
            "moves returns a list of strings; one is a {}",
            value.type_name()
        ));
    };
    let text = s.to_str().map_err(|e| e.to_string())?.to_string();
    if text.is_empty() || text.chars().count() > MAX_MOVE_CHARS {
        return Err(format!(
            "a move is 1 to {MAX_MOVE_CHARS} characters: {:?}",
            text.chars().take(MAX_MOVE_CHARS + 8).collect::<String>()
        ));
    }
    Ok(text)
}

impl ScriptHost {
    /// Whether some state's scripts define a game mode.
    pub fn defines_game_mode(&self) -> bool {
        self.states.iter().any(State::defines_game_mode)
    }

    /// The game mode's `help` text, if it has one (a string, cut to `MAX_HELP_BYTES`).
    fn mode_help(&mut self) -> Option<String> {
        let state = self.mode_state()?;
        let registry = state.registry.lock().ok()?;
        let mode = registry.game_modes.last()?;
        let help: mlua::LuaString = mode.table.raw_get("help").ok()?;
        Some(super::text::shown(
            &String::from_utf8_lossy(&help.as_bytes()),
            MAX_HELP_BYTES,
        ))
    }

    /// The state whose scripts define the game mode (the last to load, if several do).
    fn mode_state(&mut self) -> Option<&mut State> {
        self.states.iter_mut().rev().find(|s| s.defines_game_mode())
    }
}

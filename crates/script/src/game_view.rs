//! What handlers and win conditions see as `game`: a userdata over the game in play, whose
//! reads are bounded and charged to the budget, and whose changes are commands the engine
//! checks (or messages), gathered for the scripted game to apply.

use super::lua_values::fixed_name;
use super::session::UNITS_PER_COMMAND;
use super::text::Name;
use super::text::{MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_EVENT, shown_bytes};
use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::{Event, Game, ScriptCommand};
use crate::limits::{MAX_ID_CHARS, MAX_NAME_CHARS, MAX_RACK};
use mlua::{LuaString, UserData, UserDataMethods};
use std::sync::{Arc, Mutex};

/// Budget units charged per table the host builds for a script (about what building it in
/// Lua would cost in instructions).
const UNITS_PER_ENTRY: usize = 8;

/// About what one city's table takes in Lua's heap (five fields, its id and name).
const BYTES_PER_CITY: usize = 640;

/// What handlers and win conditions see as `game`. It is made once per scripted game (a
/// userdata's methods are registered once per type, so handing the same one to every call
/// costs nothing), and holds the game only while scripts run: `ScriptedGame` moves the game
/// in before a call and takes it back after.
#[derive(Clone, Default)]
pub(super) struct GameView {
    shared: Arc<Mutex<Shared>>,
}

#[derive(Default)]
struct Shared {
    game: Option<Box<Game>>,
    events: Vec<Event>,
    messages: Vec<String>,
    read_only: bool,
    /// The game's settings, as `game:setting(id)` reads them.
    settings: std::collections::BTreeMap<String, crate::save::SettingValue>,
}

impl GameView {
    /// The settings `game:setting(id)` reads: the game's, fixed when it was created.
    pub(super) fn set_settings(
        &self,
        settings: std::collections::BTreeMap<String, crate::save::SettingValue>,
    ) {
        self.lock().settings = settings;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        match self.shared.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn read<R>(&self, f: impl FnOnce(&Game) -> mlua::Result<R>) -> mlua::Result<R> {
        let shared = self.lock();
        let game = shared.game.as_ref().ok_or_else(|| {
            mlua::Error::runtime("the game can be read only while a script is called")
        })?;
        f(game)
    }

    fn command(&self, lua: &mlua::Lua, command: ScriptCommand) -> mlua::Result<()> {
        super::sandbox::charge_host_work(lua, UNITS_PER_COMMAND)?;
        let mut shared = self.lock();
        if shared.read_only {
            return Err(mlua::Error::runtime(
                "a win condition only reads the game; change it from an event handler",
            ));
        }
        let game = shared.game.as_mut().ok_or_else(|| {
            mlua::Error::runtime("the game can be changed only while a script is called")
        })?;
        let events = game
            .script_command(&command)
            .map_err(|e| mlua::Error::runtime(e.to_string()))?;
        shared.events.extend(events);
        Ok(())
    }

    /// Lends `game` to the view for a call.
    pub(super) fn lend(&self, game: Box<Game>, read_only: bool) {
        let mut shared = self.lock();
        shared.game = Some(game);
        shared.read_only = read_only;
    }

    /// Takes the game back, with what the call caused.
    pub(super) fn take_back(&self) -> (Option<Box<Game>>, Vec<Event>, Vec<String>) {
        let mut shared = self.lock();
        (
            shared.game.take(),
            std::mem::take(&mut shared.events),
            std::mem::take(&mut shared.messages),
        )
    }
}

/// A setting's value as Lua sees it: a boolean, an integer or a string.
pub(super) fn setting_value(
    lua: &mlua::Lua,
    value: &crate::save::SettingValue,
) -> mlua::Result<mlua::Value> {
    use crate::save::SettingValue;
    Ok(match value {
        SettingValue::Bool(b) => mlua::Value::Boolean(*b),
        SettingValue::Int(n) => mlua::Value::Integer(*n),
        SettingValue::Choice(c) => mlua::Value::String(lua.create_string(c)?),
    })
}

pub(super) fn parse_player(name: &str) -> mlua::Result<Player> {
    Player::from_name(name).ok_or_else(|| {
        mlua::Error::runtime(format!(
            "`{name}` is not a player: write \"gold\", \"silver\" or, at a table of more, \"seat3\" and on"
        ))
    })
}

fn parse_owner(name: &str) -> mlua::Result<Owner> {
    match name {
        "neutral" => Ok(Owner::Neutral),
        other => parse_player(other).map(Owner::from),
    }
}

/// The cell (x, y) of the game's board, or an error saying it is off it.
fn on_board(game: &Game, x: i64, y: i64) -> mlua::Result<Pos> {
    let p = cell(x, y)?;
    if game.board().terrain.contains(p) {
        Ok(p)
    } else {
        Err(mlua::Error::runtime(format!("({x}, {y}) is off the board")))
    }
}

fn cell(x: i64, y: i64) -> mlua::Result<Pos> {
    match (u32::try_from(x), u32::try_from(y)) {
        (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
        _ => Err(mlua::Error::runtime(format!("({x}, {y}) is off the board"))),
    }
}

impl UserData for GameView {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("width", |_, v, ()| {
            v.read(|g| Ok(g.board().terrain.width()))
        });
        methods.add_method("height", |_, v, ()| {
            v.read(|g| Ok(g.board().terrain.height()))
        });
        methods.add_method("turn", |_, v, ()| v.read(|g| Ok(g.turn())));
        methods.add_method("active", |_, v, ()| v.read(|g| Ok(g.active().name())));
        methods.add_method("terrain", |lua, v, (x, y): (i64, i64)| {
            v.read(|g| {
                cell(x, y)
                    .ok()
                    .and_then(|p| g.board().terrain.get(p))
                    .map(|t| fixed_name(lua, t.name()))
                    .transpose()
            })
        });
        methods.add_method("letter", |_, v, (x, y): (i64, i64)| {
            v.read(|g| {
                let tile = cell(x, y)
                    .ok()
                    .and_then(|p| g.board().letters.get(p).copied().flatten());
                Ok(tile
                    .map(|t| (t.letter.to_string(), t.player.name()))
                    .unzip())
            })
        });
        methods.add_method("score", |_, v, player: Name| {
            let player = parse_player(&player)?;
            v.read(|g| {
                let s = g.score(player);
                Ok((s.total, s.word, s.base))
            })
        });
        methods.add_method("round", |_, v, ()| {
            v.read(|g| {
                let before = g.match_before();
                let totals = before.totals();
                let (gold, silver) = (totals[0], totals[1]);
                Ok((g.round_number(), before.rounds(), gold, silver))
            })
        });
        methods.add_method("rack", |_, v, player: Name| {
            let player = parse_player(&player)?;
            v.read(|g| Ok(g.rack_letters(player)))
        });
        methods.add_method("pool_size", |_, v, player: Name| {
            let player = parse_player(&player)?;
            v.read(|g| Ok(g.pool_letters(player).len()))
        });
        methods.add_method("cities", |lua, v, ()| {
            v.read(|g| {
                // Built in Rust, out of the budget's sight: charged as the entries it makes.
                let cities = g.board().cities.iter().filter(|c| !c.destroyed);
                let count = cities.clone().count();
                super::sandbox::charge_host_work(lua, count * UNITS_PER_ENTRY)?;
                let bytes = count.saturating_mul(BYTES_PER_CITY);
                super::lua_values::asked_for(lua, bytes, "the list of cities", || {
                    let list = lua.create_table()?;
                    for (i, c) in cities.enumerate() {
                        let t = lua.create_table_with_capacity(0, 6)?;
                        t.raw_set("id", &*c.id)?;
                        t.raw_set("name", &*c.name)?;
                        t.raw_set("x", c.at.x)?;
                        t.raw_set("y", c.at.y)?;
                        t.raw_set("owner", c.owner.name())?;
                        t.raw_set("bonus", c.bonus)?;
                        list.raw_set(i + 1, t)?;
                    }
                    Ok(list)
                })
            })
        });
        methods.add_method("neighbours", |lua, v, (x, y): (i64, i64)| {
            let cells = v.read(|g| {
                let p = on_board(g, x, y)?;
                Ok(g.board().terrain.neighbours4(p).collect::<Vec<_>>())
            })?;
            super::lua_values::cells_table(lua, cells.into_iter())
        });
        methods.add_method("within", |lua, v, (x, y, r): (i64, i64, f64)| {
            let cells = v.read(|g| {
                let p = on_board(g, x, y)?;
                Ok(super::tokens::within(g.board(), p, r).collect::<Vec<_>>())
            })?;
            super::sandbox::charge_host_work(lua, cells.len())?;
            super::lua_values::cells_table(lua, cells.into_iter())
        });
        methods.add_method("connotations", |lua, v, word: LuaString| {
            let word = bounded_text(&word, "the word", crate::limits::MAX_NAME_CHARS)?;
            let lists: Vec<String> = v.read(|g| {
                Ok(g.lexicon()
                    .connotations(&word)
                    .into_iter()
                    .map(str::to_string)
                    .collect())
            })?;
            let table = lua.create_table_with_capacity(lists.len(), 0)?;
            for (i, list) in lists.iter().enumerate() {
                table.raw_set(i + 1, list.as_str())?;
            }
            Ok(table)
        });
        methods.add_method("setting", |lua, v, id: LuaString| {
            let id = bounded_text(&id, "a setting's id", MAX_ID_CHARS)?;
            let shared = v.lock();
            let value = shared.settings.get(&id).ok_or_else(|| {
                let ids: Vec<&str> = shared.settings.keys().map(String::as_str).collect();
                mlua::Error::runtime(format!(
                    "the game has no setting `{}`; its settings: {}",
                    super::text::shown_line(&id, 64),
                    if ids.is_empty() {
                        "none".to_string()
                    } else {
                        ids.join(", ")
                    }
                ))
            })?;
            setting_value(lua, value)
        });
        methods.add_method("city_owner", |_, v, id: LuaString| {
            let id = bounded_text(&id, "a city's id", MAX_ID_CHARS)?;
            v.read(|g| {
                Ok(g.board()
                    .cities
                    .iter()
                    .find(|c| *c.id == *id && !c.destroyed)
                    .map(|c| c.owner.name()))
            })
        });
        methods.add_method("rule", |lua, v, key: LuaString| {
            let key = bounded_text(&key, "a rule's name", MAX_NAME_CHARS)?;
            v.read(|g| super::tokens::rule_value(lua, g.rules(), &key))
        });
        methods.add_method(
            "set_terrain",
            |lua, v, (x, y, name): (i64, i64, LuaString)| {
                let name = bounded_text(&name, "a terrain name", MAX_ID_CHARS)?;
                let terrain = Terrain::from_name(&name)
                    .ok_or_else(|| mlua::Error::runtime(format!("unknown terrain `{name}`")))?;
                v.command(
                    lua,
                    ScriptCommand::SetTerrain {
                        at: cell(x, y)?,
                        terrain,
                    },
                )
            },
        );
        methods.add_method(
            "give_letters",
            |lua, v, (player, letters): (Name, LuaString)| {
                v.command(
                    lua,
                    ScriptCommand::GiveLetters {
                        player: parse_player(&player)?,
                        letters: bounded_text(&letters, "the letters", MAX_RACK)?,
                    },
                )
            },
        );
        methods.add_method(
            "take_letters",
            |lua, v, (player, letters): (Name, LuaString)| {
                v.command(
                    lua,
                    ScriptCommand::TakeLetters {
                        player: parse_player(&player)?,
                        letters: bounded_text(&letters, "the letters", MAX_RACK)?,
                    },
                )
            },
        );
        methods.add_method(
            "place_token",
            |lua, v, (id, kind, x, y): (LuaString, LuaString, i64, i64)| {
                v.command(
                    lua,
                    ScriptCommand::PlaceToken {
                        id: bounded_text(&id, "a token spot's id", MAX_ID_CHARS)?,
                        kind: bounded_text(&kind, "a token kind", MAX_ID_CHARS)?,
                        at: cell(x, y)?,
                    },
                )
            },
        );
        methods.add_method(
            "set_city_owner",
            |lua, v, (city, owner): (LuaString, Name)| {
                v.command(
                    lua,
                    ScriptCommand::SetCityOwner {
                        city: bounded_text(&city, "a city's id", MAX_ID_CHARS)?,
                        owner: parse_owner(&owner)?,
                    },
                )
            },
        );
        methods.add_method("award", |lua, v, (player, points): (Name, i64)| {
            v.command(
                lua,
                ScriptCommand::Award {
                    player: parse_player(&player)?,
                    points,
                },
            )
        });
        methods.add_method("message", |lua, v, text: mlua::LuaString| {
            super::sandbox::charge_host_work(lua, UNITS_PER_COMMAND)?;
            let mut shared = v.lock();
            let count = shared.messages.len();
            if count < MAX_MESSAGES_PER_EVENT {
                shared
                    .messages
                    .push(shown_bytes(&text.as_bytes(), MAX_MESSAGE_BYTES));
            } else if count == MAX_MESSAGES_PER_EVENT {
                shared.messages.push(format!(
                    "(more than {MAX_MESSAGES_PER_EVENT} messages in one event: the rest are dropped)"
                ));
            }
            Ok(())
        });
        methods.add_method(
            "end_game",
            |_, v, (winner, reason): (Option<Name>, LuaString)| {
                let winner = winner.map(|w| parse_player(&w)).transpose()?;
                let reason = shown_bytes(&reason.as_bytes(), MAX_MESSAGE_BYTES);
                let mut shared = v.lock();
                if shared.read_only {
                    return Err(mlua::Error::runtime(
                        "a win condition returns its winner instead of ending the game",
                    ));
                }
                let game = shared.game.as_mut().ok_or_else(|| {
                    mlua::Error::runtime("the game can be ended only while a script is called")
                })?;
                let events = game.end_game(winner, reason);
                shared.events.extend(events);
                Ok(())
            },
        );
    }
}

/// The text of a command's argument, refused before it is copied out of Lua if it is longer
/// than any valid one can be (a letter, id or name has at most `most` characters).
fn bounded_text(text: &LuaString, what: &str, most: usize) -> mlua::Result<String> {
    // A character is at most four bytes.
    let bytes = text.as_bytes().len();
    if bytes > most.saturating_mul(4) || text.to_str()?.chars().count() > most {
        return Err(mlua::Error::runtime(format!(
            "{what} ({bytes} bytes) is longer than the most, {most} characters"
        )));
    }
    Ok(text.to_str()?.to_string())
}

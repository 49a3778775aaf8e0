//! Token kinds defined in Lua. A token's `invoke(game, token)` reads the board through `game`
//! and says what happens through its commands (`set_terrain`, `destroy_letter`,
//! `destroy_city`); the engine then applies the resulting `Effect` as it applies any other.
//! Cells are `x, y` counted from 0 at the top-left, as in map files.

use super::lua_values::{cells_table, fixed_name, uncapped};
use super::text::Name;
use super::{ScriptHost, State};
use crate::board::{Pos, Terrain};
use crate::game::strength::{Role, StrengthModifiers};
use crate::game::{Board, Effect, EffectError, Invocation, TokenEffects};
use crate::rules::RuleSet;
use mlua::{Function, Lua, Table, UserDataMethods, Value};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::sync::{Arc, Mutex};

/// What a token call may do beyond reading the board. The board itself is lent to Lua by
/// reference as `game` (its methods are registered once per state, which makes a call cheap);
/// the rest of the call lives in the state's app data for as long as the call runs.
struct TokenCall {
    rules: Arc<serde_json::Value>,
    effect: Effect,
    /// Strength modifiers only read; their commands are refused.
    read_only: bool,
}

/// The running token call's state, to add to its effect; refused outside a call (Lua may
/// keep `game`) and in strength modifiers, which only read.
fn call_effect<'a>(
    lua: &'a Lua,
    board: &Board,
) -> mlua::Result<mlua::AppDataRefMut<'a, TokenCall>> {
    let call = lua
        .app_data_mut::<TokenCall>()
        .ok_or_else(|| mlua::Error::runtime("the board can be changed only while a token acts"))?;
    if call.read_only {
        return Err(mlua::Error::runtime(
            "a strength modifier only reads the board",
        ));
    }
    // A cell listed twice changes nothing more, so an effect never needs more entries than
    // the board has cells; past that, a script is only growing the host.
    let cells = board.terrain.width() as usize * board.terrain.height() as usize;
    let e = &call.effect;
    if e.terrain.len() + e.destroy_letters.len() + e.destroy_cities.len() + e.awards.len()
        >= 3 * cells
    {
        return Err(mlua::Error::runtime(format!(
            "the effect lists more changes than the board has cells ({cells}) three times over"
        )));
    }
    Ok(call)
}

fn board_cell(board: &Board, x: i64, y: i64) -> mlua::Result<Pos> {
    let pos = u32::try_from(x)
        .ok()
        .zip(u32::try_from(y).ok())
        .map(|(x, y)| Pos::new(x, y));
    pos.filter(|&p| board.terrain.contains(p))
        .ok_or_else(|| mlua::Error::runtime(format!("({x}, {y}) is off the board")))
}

/// Registers the methods of the tokens' view of a board (`Board` is the engine's type, so its
/// methods are registered with the state rather than by implementing `UserData`).
pub(super) fn register_board_view(lua: &Lua) -> mlua::Result<()> {
    lua.register_userdata_type::<Board>(add_board_methods)
}

fn add_board_methods<M: UserDataMethods<Board>>(methods: &mut M) {
    {
        methods.add_method("width", |_, b, ()| Ok(b.terrain.width()));
        methods.add_method("height", |_, b, ()| Ok(b.terrain.height()));
        methods.add_method("terrain", |lua, b, (x, y): (i64, i64)| {
            board_cell(b, x, y)
                .ok()
                .map(|p| fixed_name(lua, b.terrain[p].name()))
                .transpose()
        });
        methods.add_method("letter", |lua, b, (x, y): (i64, i64)| {
            let tile = board_cell(b, x, y).ok().and_then(|p| b.letters[p]);
            match tile {
                Some(t) => text_and_name(lua, t.letter.encode_utf8(&mut [0; 4]), t.player.name()),
                None => Ok((Value::Nil, Value::Nil)),
            }
        });
        methods.add_method("city", |lua, b, (x, y): (i64, i64)| {
            let city = board_cell(b, x, y)
                .ok()
                .and_then(|p| b.cities.iter().find(|c| c.at == p && !c.destroyed));
            match city {
                Some(c) => text_and_name(lua, &c.id, c.owner.name()),
                None => Ok((Value::Nil, Value::Nil)),
            }
        });
        methods.add_method("rule", |lua, _, key: Name| {
            let tree = lua
                .app_data_ref::<TokenCall>()
                .map(|call| call.rules.clone())
                .ok_or_else(|| mlua::Error::runtime("rules can be read only while a token acts"))?;
            tree_value(lua, &tree, &key)
        });
        methods.add_method("neighbours", |lua, b, (x, y): (i64, i64)| {
            let p = board_cell(b, x, y)?;
            cells_table(lua, b.terrain.neighbours4(p))
        });
        methods.add_method("within", |lua, b, (x, y, r): (i64, i64, f64)| {
            let c = board_cell(b, x, y)?;
            cells_table(lua, within(b, c, r))
        });
        methods.add_method("set_terrain", |lua, b, (x, y, name): (i64, i64, Name)| {
            let p = board_cell(b, x, y)?;
            let terrain = terrain_named(&name)?;
            call_effect(lua, b)?.effect.terrain.push((p, terrain));
            Ok(())
        });
        methods.add_method("destroy_letter", |lua, b, (x, y): (i64, i64)| {
            let p = board_cell(b, x, y)?;
            call_effect(lua, b)?.effect.destroy_letters.push(p);
            Ok(())
        });
        methods.add_method("change", |lua, b, spec: Table| {
            let spec = ChangeSpec::read(b, &spec)?;
            let cells = spec.cells(lua, b)?;
            super::sandbox::charge_host_work(lua, cells.len())?;
            let mut call = call_effect(lua, b)?;
            Ok(spec.apply(b, &cells, &mut call.effect))
        });
        methods.add_method("message", |lua, b, text: mlua::LuaString| {
            super::sandbox::charge_host_work(lua, super::session::UNITS_PER_COMMAND)?;
            let mut call = call_effect(lua, b)?;
            let count = call.effect.messages.len();
            if count < super::text::MAX_MESSAGES_PER_EVENT {
                let shown =
                    super::text::shown_bytes(&text.as_bytes(), super::text::MAX_MESSAGE_BYTES);
                call.effect.messages.push(shown);
            }
            Ok(())
        });
        methods.add_method("award", |lua, b, (player, points): (Name, i64)| {
            super::sandbox::charge_host_work(lua, super::session::UNITS_PER_COMMAND)?;
            let player = super::game_view::parse_player(&player)?;
            call_effect(lua, b)?.effect.awards.push((player, points));
            Ok(())
        });
        methods.add_method("destroy_city", |lua, b, (x, y): (i64, i64)| {
            let p = board_cell(b, x, y)?;
            call_effect(lua, b)?.effect.destroy_cities.push(p);
            Ok(())
        });
    }
}

/// What `game:change{...}` asks for: an area (cells within a distance of a cell, or a random
/// connected region grown from it), which of its cells (by terrain, sparing cities), and what
/// happens to them. One call does what a loop over the cells would, without crossing from
/// Lua into Rust for each cell.
struct ChangeSpec {
    at: Pos,
    area: Area,
    from: Option<Vec<Terrain>>,
    spare_cities: bool,
    to: Option<Terrain>,
    destroy_letters: bool,
    destroy_cities: bool,
}

enum Area {
    Within(f64),
    Region(i64),
}

/// The fields `game:change` reads.
const CHANGE_FIELDS: [&str; 9] = [
    "x",
    "y",
    "within",
    "region",
    "from",
    "spare_cities",
    "to",
    "destroy_letters",
    "destroy_cities",
];

fn unknown_change_field(name: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "game:change has no field {name}; its fields are {}",
        CHANGE_FIELDS.join(", ")
    ))
}

fn i64_of(value: &Value, what: &str) -> mlua::Result<i64> {
    match value {
        Value::Integer(i) => Ok(*i),
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(*n as i64),
        _ => Err(mlua::Error::runtime(format!(
            "game:change's `{what}` is a whole number"
        ))),
    }
}

fn f64_of(value: &Value, what: &str) -> mlua::Result<f64> {
    match value {
        Value::Integer(i) => Ok(*i as f64),
        Value::Number(n) => Ok(*n),
        _ => Err(mlua::Error::runtime(format!(
            "game:change's `{what}` is a number"
        ))),
    }
}

fn bool_of(value: &Value) -> bool {
    !matches!(value, Value::Nil | Value::Boolean(false))
}

fn terrain_of(value: &Value) -> mlua::Result<Terrain> {
    match value {
        Value::String(name) => terrain_named(&name.to_str()?),
        _ => Err(mlua::Error::runtime(
            "game:change's `to` is a terrain's name",
        )),
    }
}

fn terrains_of(value: &Value) -> mlua::Result<Vec<Terrain>> {
    match value {
        Value::Table(list) => list
            .sequence_values::<Value>()
            .map(|v| v.and_then(|v| terrain_of(&v)))
            .collect(),
        _ => Err(mlua::Error::runtime(
            "game:change's `from` is a list of terrain names",
        )),
    }
}

fn terrain_named(name: &str) -> mlua::Result<Terrain> {
    Terrain::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Terrain::ALL.iter().map(|t| t.name()).collect();
        mlua::Error::runtime(format!(
            "unknown terrain `{name}`; the terrains are {}",
            names.join(", ")
        ))
    })
}

impl ChangeSpec {
    /// Reads the spec in one pass over its fields (a lookup per field would make a Lua
    /// string of each name, every call).
    fn read(board: &Board, spec: &Table) -> mlua::Result<ChangeSpec> {
        let (mut x, mut y, mut within, mut region) = (None, None, None, None);
        let mut change = ChangeSpec {
            at: Pos::new(0, 0),
            area: Area::Within(0.0),
            from: None,
            spare_cities: false,
            to: None,
            destroy_letters: false,
            destroy_cities: false,
        };
        for pair in spec.pairs::<mlua::LuaString, Value>() {
            let (key, value) = pair.map_err(|_| unknown_change_field("that is not a name"))?;
            let field = |what: &str| -> mlua::Result<Value> {
                match value.clone() {
                    Value::Nil => Err(mlua::Error::runtime(format!(
                        "game:change's `{what}` is nil"
                    ))),
                    v => Ok(v),
                }
            };
            match &*key.as_bytes() {
                b"x" => x = Some(i64_of(&field("x")?, "x")?),
                b"y" => y = Some(i64_of(&field("y")?, "y")?),
                b"within" => within = Some(f64_of(&field("within")?, "within")?),
                b"region" => region = Some(i64_of(&field("region")?, "region")?),
                b"from" => change.from = Some(terrains_of(&field("from")?)?),
                b"to" => change.to = Some(terrain_of(&field("to")?)?),
                b"spare_cities" => change.spare_cities = bool_of(&value),
                b"destroy_letters" => change.destroy_letters = bool_of(&value),
                b"destroy_cities" => change.destroy_cities = bool_of(&value),
                other => return Err(unknown_change_field(&String::from_utf8_lossy(other))),
            }
        }
        let (Some(x), Some(y)) = (x, y) else {
            return Err(mlua::Error::runtime(
                "game:change needs the cell: `x` and `y`",
            ));
        };
        change.at = board_cell(board, x, y)?;
        change.area = match (within, region) {
            (Some(r), None) => Area::Within(r),
            (None, Some(n)) => Area::Region(n),
            _ => {
                return Err(mlua::Error::runtime(
                    "game:change needs one area: `within` (a distance) or `region` (a number of cells)",
                ));
            }
        };
        Ok(change)
    }

    /// The area's cells: within a distance in row order, or a region in the order it grew.
    fn cells(&self, lua: &Lua, board: &Board) -> mlua::Result<Vec<Pos>> {
        match self.area {
            Area::Within(r) => Ok(within(board, self.at, r).collect()),
            Area::Region(n) => {
                let rng = lua
                    .app_data_ref::<super::sandbox::ScriptRng>()
                    .ok_or_else(|| mlua::Error::runtime("random generator unavailable"))?;
                let mut rng = rng
                    .0
                    .lock()
                    .map_err(|_| mlua::Error::runtime("random generator unavailable"))?;
                // Drawn as `math.random(#frontier)` draws, so that a region grows as the same
                // loop written in Lua would.
                use rand::RngExt;
                let draw = |n: usize| {
                    let drawn = rng.random_range(1..=i64::try_from(n).unwrap_or(i64::MAX)) - 1;
                    usize::try_from(drawn).unwrap_or(0)
                };
                let size = usize::try_from(n).unwrap_or(0);
                Ok(crate::game::tokens::grow_region(board, self.at, size, draw))
            }
        }
    }

    /// Adds to `effect` what happens to the chosen cells; returns how many were chosen.
    fn apply(&self, board: &Board, cells: &[Pos], effect: &mut Effect) -> usize {
        let mut chosen = 0;
        for &p in cells {
            let city = board.cities.iter().any(|c| c.at == p && !c.destroyed);
            let wanted = self
                .from
                .as_ref()
                .is_none_or(|f| f.contains(&board.terrain[p]));
            if !wanted || (self.spare_cities && city) {
                continue;
            }
            chosen += 1;
            if let Some(to) = self.to {
                effect.terrain.push((p, to));
            }
            if self.destroy_letters && board.letters[p].is_some() {
                effect.destroy_letters.push(p);
            }
            if self.destroy_cities && city {
                effect.destroy_cities.push(p);
            }
        }
        chosen
    }
}

/// Any text and one of the fixed words, as the Lua values a method returns.
fn text_and_name(lua: &Lua, text: &str, name: &'static str) -> mlua::Result<(Value, Value)> {
    let name = fixed_name(lua, name)?;
    let text =
        super::lua_values::asked_for(lua, text.len() + 32, "a name", || lua.create_string(text))?;
    Ok((Value::String(text), Value::String(name)))
}

/// The cells within straight-line distance `r` of `c`, row by row (only the square around
/// `c` is looked at).
pub(super) fn within(board: &Board, c: Pos, r: f64) -> impl Iterator<Item = Pos> + '_ {
    let reach = if r.is_finite() && r > 0.0 {
        r.floor() as u32
    } else {
        0
    };
    let (w, h) = (board.terrain.width(), board.terrain.height());
    let ys = c.y.saturating_sub(reach)..=c.y.saturating_add(reach).min(h.saturating_sub(1));
    ys.flat_map(move |y| {
        let xs = c.x.saturating_sub(reach)..=c.x.saturating_add(reach).min(w.saturating_sub(1));
        xs.map(move |x| Pos::new(x, y))
    })
    .filter(move |p| {
        let (dx, dy) = (
            f64::from(p.x) - f64::from(c.x),
            f64::from(p.y) - f64::from(c.y),
        );
        dx * dx + dy * dy <= r * r
    })
}

/// The rule set as a JSON tree, for `game:rule`; made once per rule set and thread, since a
/// game's rules rarely change and the conversion is far dearer than the lookup.
fn rules_tree(rules: &RuleSet) -> mlua::Result<Arc<serde_json::Value>> {
    thread_local! {
        static CACHE: RefCell<Option<(RuleSet, Arc<serde_json::Value>)>> = const { RefCell::new(None) };
    }
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if let Some((cached, tree)) = cache.as_ref()
            && cached == rules
        {
            return Ok(tree.clone());
        }
        let tree =
            Arc::new(serde_json::to_value(rules).map_err(|e| mlua::Error::runtime(e.to_string()))?);
        *cache = Some((rules.clone(), tree.clone()));
        Ok(tree)
    })
}

/// A rule constant by its key (`tokens.volcano_cells`), as a Lua value.
pub(super) fn rule_value(lua: &Lua, rules: &RuleSet, key: &str) -> mlua::Result<Value> {
    tree_value(lua, rules_tree(rules)?.as_ref(), key)
}

/// The rule constant at `key` in the rule set's JSON tree.
fn tree_value(lua: &Lua, tree: &serde_json::Value, key: &str) -> mlua::Result<Value> {
    let found = key.split('.').try_fold(tree, |node, part| node.get(part));
    match found {
        Some(serde_json::Value::Number(n)) => Ok(n
            .as_i64()
            .map_or_else(|| Value::Number(n.as_f64().unwrap_or(0.0)), Value::Integer)),
        Some(serde_json::Value::Bool(b)) => Ok(Value::Boolean(*b)),
        Some(serde_json::Value::String(s)) => Ok(Value::String(lua.create_string(s)?)),
        Some(_) => Err(mlua::Error::runtime(format!(
            "the rule `{key}` is a table; name one of its values"
        ))),
        None => Err(mlua::Error::runtime(format!(
            "there is no rule `{key}` (see `scryptic rules show classic --describe`)"
        ))),
    }
}

impl State {
    /// Makes the methods of the tokens' view of `board` now (once per state), so that the
    /// first token invoked in play does not pay for them.
    pub(super) fn prepare_board_view(&self, board: &Board) -> mlua::Result<()> {
        self.lua
            .scope(|scope| scope.create_any_userdata_ref(board).map(drop))
    }

    /// Runs `call` with `board` lent to Lua as `game` and the rest of a token call in app data;
    /// returns what the call did to the effect.
    fn with_board<R>(
        &self,
        board: &Board,
        rules: &RuleSet,
        read_only: bool,
        call: impl FnOnce(mlua::AnyUserData) -> mlua::Result<R>,
    ) -> (mlua::Result<R>, Effect) {
        let rules = match rules_tree(rules) {
            Ok(tree) => tree,
            Err(e) => return (Err(e), Effect::default()),
        };
        self.lua.set_app_data(TokenCall {
            rules,
            effect: Effect::default(),
            read_only,
        });
        let outcome = self.lua.scope(|scope| {
            let game = scope.create_any_userdata_ref(board)?;
            self.guarded(|| call(game))
        });
        let effect = self
            .lua
            .remove_app_data::<TokenCall>()
            .map(|c| c.effect)
            .unwrap_or_default();
        (outcome, effect)
    }
    /// The effect of the script-defined token `call` invokes: its `invoke(game, token)` gets
    /// the token's kind, its spot's id and cell, and who invokes it; its random draws come from
    /// `rng`, the game's generator.
    pub fn invoke_token(
        &mut self,
        call: &Invocation<'_>,
        board: &Board,
        rules: &RuleSet,
        rng: &mut ChaCha8Rng,
    ) -> Result<Effect, EffectError> {
        let Some((script, invoke)) = self.token_function(call.kind) else {
            return Err(EffectError::UnknownKind);
        };
        let token = self
            .token_table(call)
            .map_err(|e| EffectError::Failed(e.to_string()))?;
        let (outcome, effect) = super::sandbox::with_random_stream(&self.lua, rng, || {
            self.with_board(board, rules, false, |game| invoke.call::<()>((game, token)))
        });
        match outcome {
            Ok(()) => Ok(effect),
            Err(e) => Err(EffectError::Failed(
                self.error(&script, "token_invoked", None, &e).to_string(),
            )),
        }
    }

    fn token_function(&self, kind: &str) -> Option<(String, Function)> {
        let registry = self.registry.lock().ok()?;
        let def = registry.tokens.iter().find(|d| d.id == kind)?;
        Some((def.script.clone(), def.table.get("invoke").ok()?))
    }

    fn token_table(&self, call: &Invocation<'_>) -> mlua::Result<Table> {
        uncapped(&self.lua, || {
            let token = self.lua.create_table_with_capacity(0, 5)?;
            token.raw_set("kind", call.kind)?;
            token.raw_set("id", call.token)?;
            token.raw_set("x", call.spot.x)?;
            token.raw_set("y", call.spot.y)?;
            token.raw_set("player", call.player.name())?;
            Ok(token)
        })
    }
}

/// Token effects from the scripts of a host: what the game uses once scripts are loaded.
pub struct ScriptTokens {
    host: Arc<Mutex<ScriptHost>>,
}

impl ScriptTokens {
    /// Effects from `host`'s token definitions.
    pub fn new(host: Arc<Mutex<ScriptHost>>) -> Self {
        ScriptTokens { host }
    }
}

impl TokenEffects for ScriptTokens {
    fn effect(
        &self,
        call: &Invocation<'_>,
        board: &Board,
        rules: &RuleSet,
        rng: &mut ChaCha8Rng,
    ) -> Result<Effect, EffectError> {
        let mut host = self
            .host
            .lock()
            .map_err(|_| EffectError::Failed("the script host is unavailable".into()))?;
        host.invoke_token(call, board, rules, rng)
    }
}

impl State {
    /// The multipliers the scripts' strength modifiers give `word` in `role`; a modifier that
    /// fails or returns something other than a number adds nothing (its error goes to the
    /// console).
    pub fn strength_modifiers_for(
        &mut self,
        word: &crate::game::Word,
        role: Role,
        board: &Board,
        rules: &RuleSet,
    ) -> Vec<(String, f64)> {
        let definitions: Vec<(String, String, Function)> = match self.registry.lock() {
            Ok(r) => r
                .modifiers
                .iter()
                .filter_map(|d| Some((d.script.clone(), d.id.clone(), d.table.get("apply").ok()?)))
                .collect(),
            Err(_) => return Vec::new(),
        };
        if definitions.is_empty() {
            return Vec::new();
        }
        let mut found = Vec::new();
        for (script, id, apply) in definitions {
            let role = match role {
                Role::Attack => "attack",
                Role::Defence => "defence",
            };
            let outcome = self.word_table(word).and_then(|w| {
                self.with_board(board, rules, true, |game| {
                    apply.call::<Option<f64>>((game, w, role))
                })
                .0
            });
            match outcome {
                Ok(Some(factor)) => found.push((id, factor)),
                Ok(None) => {}
                Err(e) => {
                    self.error(&script, "strength_modifier", None, &e);
                }
            }
        }
        found
    }

    fn word_table(&self, word: &crate::game::Word) -> mlua::Result<Table> {
        uncapped(&self.lua, || {
            let t = self.lua.create_table_with_capacity(0, 5)?;
            t.raw_set("text", word.text.as_str())?;
            t.raw_set("player", word.player.name())?;
            t.raw_set("x", word.key.start.x)?;
            t.raw_set("y", word.key.start.y)?;
            t.raw_set("dir", crate::game::describe::dir_name(word.key.dir))?;
            Ok(t)
        })
    }
}

/// Strength modifiers from the scripts of a host.
pub struct ScriptModifiers {
    host: Arc<Mutex<ScriptHost>>,
    /// Whether any modifier is defined, read without the host's lock: without any, a word's
    /// strength asks nothing.
    registered: Arc<super::RegistrySummary>,
}

impl ScriptModifiers {
    /// Modifiers from `host`'s definitions.
    pub fn new(host: Arc<Mutex<ScriptHost>>) -> Self {
        let registered = match host.lock() {
            Ok(h) => h.registry_summary(),
            Err(poisoned) => poisoned.into_inner().registry_summary(),
        };
        ScriptModifiers { host, registered }
    }
}

impl StrengthModifiers for ScriptModifiers {
    fn any(&self) -> bool {
        self.registered.modifiers()
    }

    fn modifiers(
        &self,
        word: &crate::game::Word,
        role: Role,
        board: &Board,
        rules: &RuleSet,
    ) -> Vec<(String, f64)> {
        if !self.registered.modifiers() {
            return Vec::new();
        }
        match self.host.lock() {
            Ok(mut host) => host.strength_modifiers_for(word, role, board, rules),
            Err(_) => Vec::new(),
        }
    }
}

//! The scripting API, described once: what scripts can call and what events carry. The LuaLS
//! definitions in `scripts/types/` are generated from it (`scryptic script types`), and tests
//! check both that they are up to date and that every method listed here exists.

/// A function or method scripts can call.
pub struct ApiFunction {
    /// Its name.
    pub name: &'static str,
    /// Parameters: name, LuaLS type, meaning.
    pub params: &'static [(&'static str, &'static str, &'static str)],
    /// The LuaLS type returned (`nil` for nothing).
    pub returns: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// A field of an event's table.
pub type Field = (&'static str, &'static str, &'static str);

const XY: [(&str, &str, &str); 2] = [
    ("x", "integer", "column, from 0 on the left"),
    ("y", "integer", "row, from 0 at the top"),
];

macro_rules! f {
    ($name:literal, [$($p:expr),* $(,)?], $ret:literal, $doc:literal) => {
        ApiFunction { name: $name, params: &[$($p),*], returns: $ret, doc: $doc }
    };
}

/// The `scryptic` table.
pub const SCRYPTIC: &[ApiFunction] = &[
    f!(
        "on",
        [
            ("event", "ScrypticEvent", "the event's name"),
            (
                "handler",
                "fun(game: ScrypticGame, event: table)",
                "called with the game and the event's fields"
            ),
            (
                "filter",
                "ScrypticEventFilter?",
                "fields the event must have, e.g. {player = \"silver\", turn = {every = 6}}"
            )
        ],
        "nil",
        "Calls `handler` each time `event` happens (only when its fields match `filter`, if given: a value must be equal, `{every = n}` a multiple of n)."
    ),
    f!(
        "token",
        [(
            "definition",
            "ScrypticTokenDefinition",
            "id, name, color and invoke"
        )],
        "nil",
        "Defines a token kind; maps place spots of it by id."
    ),
    f!(
        "win_condition",
        [("definition", "ScrypticWinCondition", "id and check")],
        "nil",
        "Defines a win condition, asked after every action: `check(game)` returns \"gold\", \"silver\", \"draw\" or nil."
    ),
    f!(
        "strength_modifier",
        [("definition", "ScrypticStrengthModifier", "id and apply")],
        "nil",
        "Defines a strength modifier."
    ),
    f!(
        "game_mode",
        [(
            "definition",
            "ScrypticGameMode",
            "setup, moves, play, and revealed, end_if, score, why_not, help if wanted"
        )],
        "nil",
        "Defines the whole game (for a mode whose rules say `flow: (scripted: true)`): `setup(game)` makes the table, `moves(game, player)` lists a player's legal moves from what they see, `play(game, player, move)` makes one, `revealed(game)` goes on after secret choices, `end_if(game)` returns the winner (or \"draw\") and why, `score(game, player)` how well a player stands (0 to 1) for the AI; `why_not(game, player, move)` why a move typed is not legal (seen as `moves` sees the table), `help` (a text) says how the game is played, which `help` at the terminal shows."
    ),
    f!(
        "sorted_pairs",
        [("t", "table", "any table")],
        "fun(): any, any",
        "Iterates `t` in a fixed order (numbers, then strings, each sorted), so scripts behave the same on every run."
    ),
    f!(
        "after",
        [
            (
                "turns",
                "integer",
                "how many turn starts from now (1: the next turn)"
            ),
            (
                "handler",
                "fun(game: ScrypticGame, event: ScrypticEvent_turn_start)",
                "called once, at the start of that turn"
            )
        ],
        "nil",
        "Calls `handler` once, at the start of the turn `turns` turns after the current one (after the first turn's, when a script loads as the game begins)."
    ),
    f!(
        "every",
        [
            ("turns", "integer", "the period, in turns"),
            (
                "handler",
                "fun(game: ScrypticGame, event: ScrypticEvent_turn_start)",
                "called at the start of every turn whose number is a multiple of `turns`"
            )
        ],
        "nil",
        "Calls `handler` at the start of turns `turns`, 2 x `turns`, 3 x `turns`... (as `scryptic.on(\"turn_start\", handler, {turn = {every = turns}})`)."
    ),
    f!(
        "provide",
        [
            (
                "name",
                "string",
                "the interface's name (`bank`, `economy:bank`)"
            ),
            (
                "interface",
                "table<string, any>",
                "named functions and values other scripts may use"
            )
        ],
        "nil",
        "Offers an interface to other scripts and packs (as Factorio's remote interfaces); a script provides it again when it reloads."
    ),
    f!(
        "use",
        [("name", "string", "an interface's name")],
        "table<string, any>",
        "A view of an interface: its values copied, its functions copying the values given and returned (functions cannot cross)."
    ),
    f!(
        "emit",
        [
            (
                "event",
                "string",
                "a custom event's name, with a `:` (`economy:payday`)"
            ),
            (
                "fields",
                "table<string, any>?",
                "its fields: strings, numbers, booleans and tables of them (copied)"
            )
        ],
        "nil",
        "Sends a custom event to every `scryptic.on(event, handler)`, of any script or pack, once the handler that emits it returns."
    ),
    f!(
        "t",
        [
            (
                "key",
                "string",
                "a key of the pack's string table (`locale/en.ron`)"
            ),
            (
                "args",
                "table<string, string|number|boolean>?",
                "values for the text's `{name}` places"
            )
        ],
        "string",
        "The text of `key` in the game's language, from the string table of this script's pack (the key itself when it has none)."
    ),
];

/// Methods of `game` in event handlers and win conditions (win conditions may only read).
pub const GAME: &[ApiFunction] = &[
    f!("width", [], "integer", "Columns of the board."),
    f!("height", [], "integer", "Rows of the board."),
    f!("turn", [], "integer", "The turn's number, from 1."),
    f!("active", [], "ScrypticPlayer", "Whose turn it is."),
    f!(
        "terrain",
        [XY[0], XY[1]],
        "ScrypticTerrain?",
        "The terrain of a cell, or nil off the board."
    ),
    f!(
        "letter",
        [XY[0], XY[1]],
        "string?, ScrypticPlayer?",
        "The letter on a cell and whose it is, or nil."
    ),
    f!(
        "score",
        [("player", "ScrypticPlayer", "whose")],
        "integer, integer, integer",
        "A player's total, word and base score."
    ),
    f!(
        "round",
        [],
        "integer, integer, integer, integer",
        "Which round of the match this game is (from 1), how many rounds the match has (1: a single game), and gold's and silver's totals from the rounds before, in half points."
    ),
    f!(
        "rack",
        [("player", "ScrypticPlayer", "whose")],
        "string",
        "The letters on a player's rack."
    ),
    f!(
        "pool_size",
        [("player", "ScrypticPlayer", "whose")],
        "integer",
        "Letters left in a player's pool."
    ),
    f!("cities", [], "ScrypticCity[]", "Every city still standing."),
    f!(
        "neighbours",
        [XY[0], XY[1]],
        "ScrypticCell[]",
        "The up to four cells next to a cell."
    ),
    f!(
        "within",
        [
            XY[0],
            XY[1],
            ("radius", "number", "a straight-line distance in cells")
        ],
        "ScrypticCell[]",
        "Every cell within `radius` of a cell."
    ),
    f!(
        "connotations",
        [("word", "string", "a word, in any form (SWORDS is a sword)")],
        "string[]",
        "The connotation lists the word belongs to (`attacking`, `burning`, ...), as the game's lexicon has them."
    ),
    f!(
        "setting",
        [(
            "id",
            "string",
            "the setting's id, as the pack's manifest names it"
        )],
        "boolean|integer|string",
        "The value of one of the game's settings (chosen when the game was created, fixed for the whole game)."
    ),
    f!(
        "city_owner",
        [("id", "string", "the city's id")],
        "ScrypticOwner?",
        "Who holds a city, or nil if there is none."
    ),
    f!(
        "rule",
        [(
            "key",
            "string",
            "`section.name`, as `scryptic rules show --describe` lists"
        )],
        "number|boolean|string",
        "A rule constant of the game's rule set."
    ),
    f!(
        "set_terrain",
        [
            XY[0],
            XY[1],
            ("terrain", "ScrypticTerrain", "the new terrain")
        ],
        "nil",
        "Changes a cell's terrain (a letter on new lava is destroyed)."
    ),
    f!(
        "give_letters",
        [
            ("player", "ScrypticPlayer", "whose rack"),
            ("letters", "string", "uppercase letters")
        ],
        "nil",
        "Puts letters on a rack."
    ),
    f!(
        "take_letters",
        [
            ("player", "ScrypticPlayer", "whose rack"),
            ("letters", "string", "uppercase letters")
        ],
        "nil",
        "Takes letters from a rack (an error if it lacks them)."
    ),
    f!(
        "place_token",
        [
            ("id", "string", "a new, unique id"),
            ("kind", "string", "the token kind"),
            XY[0],
            XY[1]
        ],
        "nil",
        "Adds a token spot."
    ),
    f!(
        "set_city_owner",
        [
            ("id", "string", "the city's id"),
            ("owner", "ScrypticOwner", "the new owner")
        ],
        "nil",
        "Gives a city to a player or makes it neutral."
    ),
    f!(
        "award",
        [
            ("player", "ScrypticPlayer", "who"),
            (
                "points",
                "integer",
                "added to the base score; may be negative"
            )
        ],
        "nil",
        "Changes a player's base score."
    ),
    f!(
        "message",
        [("text", "string", "what to tell the players")],
        "nil",
        "Shows a message to the players."
    ),
    f!(
        "end_game",
        [
            ("winner", "ScrypticPlayer?", "the winner, or nil for a draw"),
            ("reason", "string", "why, in words")
        ],
        "nil",
        "Ends the game."
    ),
];

/// Methods of `game` in a token's `invoke`: its commands make the token's effect.
pub const TOKEN_GAME: &[ApiFunction] = &[
    f!("width", [], "integer", "Columns of the board."),
    f!("height", [], "integer", "Rows of the board."),
    f!(
        "terrain",
        [XY[0], XY[1]],
        "ScrypticTerrain?",
        "The terrain of a cell, or nil off the board."
    ),
    f!(
        "letter",
        [XY[0], XY[1]],
        "string?, ScrypticPlayer?",
        "The letter on a cell and whose it is, or nil."
    ),
    f!(
        "city",
        [XY[0], XY[1]],
        "string?, ScrypticOwner?",
        "The id and owner of the city on a cell, or nil."
    ),
    f!(
        "rule",
        [(
            "key",
            "string",
            "`section.name`, such as `tokens.flood_radius`"
        )],
        "number|boolean|string",
        "A rule constant of the game's rule set."
    ),
    f!(
        "neighbours",
        [XY[0], XY[1]],
        "ScrypticCell[]",
        "The up to four cells next to a cell."
    ),
    f!(
        "within",
        [
            XY[0],
            XY[1],
            ("radius", "number", "a straight-line distance in cells")
        ],
        "ScrypticCell[]",
        "Every cell within `radius` of a cell."
    ),
    f!(
        "set_terrain",
        [
            XY[0],
            XY[1],
            ("terrain", "ScrypticTerrain", "the new terrain")
        ],
        "nil",
        "The effect turns a cell to this terrain."
    ),
    f!(
        "change",
        [(
            "spec",
            "ScrypticChange",
            "the area, which of its cells, and what happens to them"
        )],
        "integer",
        "The effect changes many cells in one call (what a loop over `within` would do); returns how many cells it chose."
    ),
    f!(
        "destroy_letter",
        [XY[0], XY[1]],
        "nil",
        "The effect destroys the letter on a cell."
    ),
    f!(
        "destroy_city",
        [XY[0], XY[1]],
        "nil",
        "The effect destroys the city on a cell."
    ),
    f!(
        "message",
        [("text", "string", "what to tell the players")],
        "nil",
        "Tells the players something when the token takes effect."
    ),
    f!(
        "award",
        [
            ("player", "ScrypticPlayer", "who"),
            (
                "points",
                "integer",
                "how many points, added to the base score"
            )
        ],
        "nil",
        "Awards points when the token takes effect."
    ),
];

/// Methods of `game` in a game mode's functions (`scryptic.game_mode`): the table of pieces.
/// `moves` gets it as the player sees it (other players' hidden values are nil) and may only
/// read; the others get the whole truth, and their commands change it.
pub const MODE_GAME: &[ApiFunction] = &[
    f!("width", [], "integer", "Columns of the board."),
    f!("height", [], "integer", "Rows of the board."),
    f!(
        "seats",
        [],
        "ScrypticPlayer[]",
        "The seats that play, in order."
    ),
    f!(
        "viewer",
        [],
        "ScrypticPlayer?",
        "Whose view this is (in `moves`), or nil for the whole truth."
    ),
    f!(
        "piece",
        [("id", "integer", "the piece's id")],
        "ScrypticPiece",
        "A piece by id."
    ),
    f!(
        "piece_at",
        [XY[0], XY[1]],
        "ScrypticPiece?",
        "The piece on a cell, or nil."
    ),
    f!(
        "at",
        [XY[0], XY[1]],
        "integer?, ScrypticPlayer?, integer?",
        "The id, owner and value (nil where hidden) of the piece on a cell, without making a table: for loops a search runs often."
    ),
    f!(
        "owners",
        [],
        "(ScrypticPlayer|false)[]",
        "Who holds each cell, by `y * width + x + 1` (false where empty): one call for a whole board."
    ),
    f!(
        "pieces",
        [("owner", "ScrypticPlayer?", "whose (all if nil)")],
        "ScrypticPiece[]",
        "The pieces on the board."
    ),
    f!(
        "pit",
        [
            ("owner", "ScrypticPlayer", "whose"),
            ("name", "string", "the pit's name")
        ],
        "ScrypticPiece[]",
        "The pieces in one of a player's pits, in id order."
    ),
    f!(
        "count",
        [
            ("owner", "ScrypticPlayer", "whose"),
            ("name", "string", "the pit's name")
        ],
        "integer",
        "How many pieces one of a player's pits holds (public, whatever their values)."
    ),
    f!(
        "get",
        [("name", "string", "the variable's name")],
        "integer|string|boolean|nil",
        "A variable the rules keep on the table (every player may read it)."
    ),
    f!(
        "to_move",
        [],
        "ScrypticPlayer[]",
        "The seats who may move now."
    ),
    f!(
        "first",
        [],
        "ScrypticPlayer",
        "The seat this game starts with: the first seat, unless the map's scenario names another or a match gives the next round to one (the loser of the last, say)."
    ),
    f!(
        "secret",
        [],
        "boolean",
        "Whether the seats to move choose at once and in secret."
    ),
    f!(
        "cell_name",
        [XY[0], XY[1]],
        "string",
        "A cell's name as players write it (`C8`: column letter, row from 1 at the top)."
    ),
    f!(
        "cell",
        [("name", "string", "a cell's name, `C8`")],
        "integer, integer",
        "The x and y of a named cell (an error off the board)."
    ),
    f!(
        "rule",
        [("key", "string", "`section.name`")],
        "number|boolean|string",
        "A rule constant of the game's rule set."
    ),
    f!(
        "setting",
        [
            (
                "id",
                "string",
                "the setting's id, as the pack's manifest names it"
            ),
            (
                "default",
                "any?",
                "the value in a game made without the pack"
            )
        ],
        "boolean|integer|string",
        "The value of one of the game's settings."
    ),
    f!(
        "add",
        [(
            "piece",
            "ScrypticNewPiece",
            "owner, kind, value (optional), and x and y or a pit"
        )],
        "integer",
        "Adds a piece; returns its id. Its value is hidden from every other player until shown."
    ),
    f!(
        "move",
        [("id", "integer", "the piece's id"), XY[0], XY[1]],
        "nil",
        "Moves a piece to an empty cell."
    ),
    f!(
        "to_pit",
        [
            ("id", "integer", "the piece's id"),
            ("pit", "string", "a pit of its owner's")
        ],
        "nil",
        "Moves a piece into one of its owner's pits."
    ),
    f!(
        "show",
        [
            ("id", "integer", "the piece's id"),
            ("to", "ScrypticPlayer?", "one player (every player if nil)")
        ],
        "nil",
        "Shows a piece's value."
    ),
    f!(
        "hide",
        [("id", "integer", "the piece's id")],
        "nil",
        "Hides a piece's value again from all but its owner."
    ),
    f!(
        "set",
        [
            ("name", "string", "the variable's name"),
            ("value", "integer|string|boolean", "its value")
        ],
        "nil",
        "Sets a variable on the table (every player may read it; status lines show it unless its name begins with `_`)."
    ),
    f!(
        "turn",
        [("player", "ScrypticPlayer", "who moves next")],
        "nil",
        "Gives the next move to one player."
    ),
    f!(
        "choose_in_secret",
        [(
            "players",
            "ScrypticPlayer[]?",
            "who chooses (every seat if nil)"
        )],
        "nil",
        "Lets players choose at once and in secret: each one's moves are made on their own copy until every one says `done`, then all are made on the table together and `revealed` runs."
    ),
    f!(
        "done",
        [("player", "ScrypticPlayer", "whose choice")],
        "nil",
        "Says a player's secret choice is complete."
    ),
    f!(
        "end_game",
        [
            ("winner", "ScrypticPlayer|\"draw\"", "who wins"),
            ("reason", "string?", "why, in words")
        ],
        "nil",
        "Ends the game."
    ),
    f!(
        "say",
        [
            ("text", "string", "what to say"),
            ("to", "ScrypticPlayer?", "one player (everyone if nil)")
        ],
        "nil",
        "Tells the players something (only `to` reads it, if given)."
    ),
];

/// Each event and the fields of its table.
pub const EVENT_FIELDS: &[(&str, &str, &[Field])] = &[
    (
        "game_start",
        "The game begins (after the scripts load).",
        &[],
    ),
    (
        "turn_start",
        "A turn begins.",
        &[
            ("player", "ScrypticPlayer", "whose turn"),
            ("turn", "integer", "its number"),
            ("drew", "string", "letters drawn"),
        ],
    ),
    (
        "turn_end",
        "A turn ends.",
        &[
            ("player", "ScrypticPlayer", "whose turn"),
            ("passed", "boolean", "whether nothing was committed"),
        ],
    ),
    (
        "word_committed",
        "A word is committed.",
        &[
            ("player", "ScrypticPlayer", "whose word"),
            ("word", "string", "the main word"),
            XY[0],
            XY[1],
            ("dir", "\"across\"|\"down\"", "its direction"),
        ],
    ),
    (
        "combat_resolved",
        "A combat ends.",
        &[
            ("result", "\"won\"|\"repelled\"", "how it ended"),
            ("by", "string?", "the word that repelled it"),
            ("word", "string", "the attacking word"),
            ("player", "ScrypticPlayer", "the attacker"),
            ("attack", "integer", "the attack's strength"),
            (
                "defence",
                "integer",
                "the defending words' strengths, added up",
            ),
        ],
    ),
    (
        "city_captured",
        "A city changes hands.",
        &[
            ("player", "ScrypticPlayer", "the new owner"),
            ("city", "string", "its id"),
            ("from", "ScrypticOwner", "the old owner"),
            ("bonus", "integer", "base score awarded"),
        ],
    ),
    (
        "token_captured",
        "A token is captured.",
        &[
            ("player", "ScrypticPlayer", "who"),
            ("token", "string", "the spot's id"),
            ("kind", "string", "its kind"),
        ],
    ),
    (
        "token_invoked",
        "A token takes effect.",
        &[
            ("player", "ScrypticPlayer", "who"),
            ("token", "string", "the spot's id"),
            ("kind", "string", "its kind"),
        ],
    ),
    (
        "game_end",
        "The game ends.",
        &[
            ("winner", "ScrypticPlayer?", "the winner, nil for a draw"),
            ("reason", "string", "how it ended"),
            (
                "award_gold",
                "integer?",
                "what the end awarded gold, in half points (nil where the rules award nothing)",
            ),
            (
                "award_silver",
                "integer?",
                "what the end awarded silver, in half points (nil where the rules award nothing)",
            ),
        ],
    ),
    (
        "on_reload",
        "This script was reloaded (storage is kept).",
        &[],
    ),
];

fn function_doc(out: &mut String, f: &ApiFunction) {
    out.push_str(&format!("--- {}\n", f.doc));
    if f.name == "rule" {
        // A checker takes the first signature that fits: a number constant's key gives a
        // number; any other key, what the constant is.
        out.push_str("---@param key ScrypticNumberRule a number constant, `section.name`\n---@return number\n");
        out.push_str(&format!(
            "---@overload fun(self: SELF, key: string): {}\n",
            f.returns
        ));
        return;
    }
    for (name, ty, doc) in f.params {
        out.push_str(&format!("---@param {name} {ty} {doc}\n"));
    }
    if f.returns != "nil" {
        out.push_str(&format!("---@return {}\n", f.returns));
    }
    out.push_str(&overloads(f.name));
}

/// The overloads that tie an argument's value to a precise type: `scryptic.on("turn_start",
/// ...)` hands its handler a `ScrypticEvent_turn_start` (so that a checker knows `event.player`
/// and flags `event.plyaer`), and `game:rule` of a number constant returns a number.
fn overloads(name: &str) -> String {
    match name {
        "on" => EVENT_FIELDS
            .iter()
            .map(|(event, _, _)| {
                format!(
                    "---@overload fun(event: \"{event}\", handler: fun(game: ScrypticGame, event: ScrypticEvent_{event}), filter?: ScrypticEventFilter)\n"
                )
            })
            .chain(std::iter::once(
                "---@overload fun(event: string, handler: fun(game: ScrypticGame, event: table<string, any>))\n".to_string(),
            ))
            .collect(),
        _ => String::new(),
    }
}

fn method_class(out: &mut String, class: &str, doc: &str, methods: &[ApiFunction]) {
    out.push_str(&format!(
        "--- {doc}\n---@class {class}\nlocal {class} = {{}}\n\n"
    ));
    for m in methods {
        let mut doc = String::new();
        function_doc(&mut doc, m);
        out.push_str(&doc.replace("SELF", class));
        let params: Vec<&str> = m.params.iter().map(|p| p.0).collect();
        out.push_str(&format!(
            "function {class}:{}({}) end\n\n",
            m.name,
            params.join(", ")
        ));
    }
}

/// A table type scripts are handed or hand over: its fields (a name ending in `?` may be
/// left out).
pub struct ApiClass {
    /// Its LuaLS name.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Its fields: name, LuaLS type, meaning.
    pub fields: &'static [Field],
}

/// A name for a type, with the type it stands for.
pub struct ApiAlias {
    /// Its LuaLS name.
    pub name: &'static str,
    /// The type, in LuaLS notation.
    pub ty: String,
    /// What it is.
    pub doc: &'static str,
}

/// A group of methods on a `game` object scripts are handed.
pub struct ApiObject {
    /// Its LuaLS name.
    pub name: &'static str,
    /// Where scripts meet it.
    pub doc: &'static str,
    /// Its methods.
    pub methods: &'static [ApiFunction],
}

/// The tables scripts hand to the API or are handed by it, besides events and `game`s.
pub const CLASSES: &[ApiClass] = &[
    ApiClass {
        name: "ScrypticCell",
        doc: "A cell of the board.",
        fields: &XY,
    },
    ApiClass {
        name: "ScrypticCity",
        doc: "A city, as `game:cities()` lists it.",
        fields: &[
            ("id", "string", "its id in the map"),
            ("name", "string", "its name"),
            XY[0],
            XY[1],
            ("owner", "ScrypticOwner", "who holds it"),
            (
                "bonus",
                "integer?",
                "its own capture bonus (nil: the rule set's)",
            ),
        ],
    },
    ApiClass {
        name: "ScrypticChange",
        doc: "What `game:change` does: one area (`within` a distance of the cell, or a `region` of that many cells grown at random from it), its cells of the terrains `from` (all if absent) except cities if `spare_cities`, turned `to` a terrain, their letters and cities destroyed if asked.",
        fields: &[
            XY[0],
            XY[1],
            ("within", "number?", "a distance from the cell"),
            ("region", "number?", "a whole number of cells"),
            (
                "from",
                "ScrypticTerrain[]?",
                "the terrains changed (all if absent)",
            ),
            (
                "spare_cities",
                "boolean?",
                "leave cities' cells as they are",
            ),
            ("to", "ScrypticTerrain?", "the terrain the cells become"),
            (
                "destroy_letters",
                "boolean?",
                "remove the letters on the cells",
            ),
            (
                "destroy_cities",
                "boolean?",
                "remove the cities on the cells",
            ),
        ],
    },
    ApiClass {
        name: "ScrypticToken",
        doc: "The token being invoked, as `invoke` is handed it.",
        fields: &[
            ("kind", "string", "its kind's id"),
            ("id", "string", "the token spot's id"),
            XY[0],
            XY[1],
            ("player", "ScrypticPlayer", "who invokes it"),
        ],
    },
    ApiClass {
        name: "ScrypticTokenDefinition",
        doc: "A token kind, as `scryptic.token` takes it.",
        fields: &[
            (
                "id",
                "string",
                "the kind's id, which maps' token spots name",
            ),
            ("name", "string?", "its name shown to players"),
            ("color", "string?", "its colour, `#rrggbb`"),
            (
                "invoke",
                "fun(game: ScrypticTokenGame, token: ScrypticToken)",
                "makes its effect",
            ),
        ],
    },
    ApiClass {
        name: "ScrypticWinCondition",
        doc: "A win condition, as `scryptic.win_condition` takes it.",
        fields: &[
            ("id", "string", "its id"),
            (
                "check",
                "fun(game: ScrypticGame): (ScrypticPlayer|\"draw\"|nil)",
                "asked after every action: the winner, \"draw\", or nil while the game goes on",
            ),
        ],
    },
    ApiClass {
        name: "ScrypticStrengthModifier",
        doc: "A strength modifier, as `scryptic.strength_modifier` takes it.",
        fields: &[
            ("id", "string", "its id"),
            (
                "apply",
                "fun(game: ScrypticTokenGame, word: ScrypticWord, role: \"attack\"|\"defence\"): number?",
                "asked for every attacking and defending word, with the board read only: a multiplier of its strength, or nil",
            ),
        ],
    },
    ApiClass {
        name: "ScrypticWord",
        doc: "A word in a combat, as a strength modifier's `apply` is handed it.",
        fields: &[
            ("text", "string", "its letters"),
            ("player", "ScrypticPlayer", "whose word"),
            ("x", "integer", "its first letter's column"),
            ("y", "integer", "its first letter's row"),
            ("dir", "\"across\"|\"down\"", "its direction"),
        ],
    },
    ApiClass {
        name: "ScrypticPiece",
        doc: "A piece on the table of a game mode, as `game:pieces()` lists it.",
        fields: &[
            ("id", "integer", "its number"),
            ("owner", "ScrypticPlayer", "whose it is"),
            ("kind", "string", "its kind"),
            (
                "value",
                "integer?",
                "nil where it has none, or it is hidden from the viewer",
            ),
            (
                "hidden",
                "boolean",
                "whether it has a value the viewer may not see",
            ),
            ("x", "integer?", "on the board"),
            ("y", "integer?", "on the board"),
            ("pit", "string?", "in a pit"),
        ],
    },
    ApiClass {
        name: "ScrypticNewPiece",
        doc: "A piece a game mode adds: on the board (`x`, `y`) or in a pit.",
        fields: &[
            ("owner", "ScrypticPlayer", "whose it is"),
            ("kind", "string", "its kind"),
            ("value", "integer?", "its value, if it has one"),
            ("x", "integer?", "on the board"),
            ("y", "integer?", "on the board"),
            ("pit", "string?", "in a pit"),
        ],
    },
    ApiClass {
        name: "ScrypticGameMode",
        doc: "A whole game mode, as `scryptic.game_mode` takes it.",
        fields: &[
            ("setup", "fun(game: ScrypticTable)", "lays out the table"),
            (
                "moves",
                "fun(game: ScrypticTable, player: ScrypticPlayer): string[]",
                "the moves a player may make, seeing the table as they do",
            ),
            (
                "play",
                "fun(game: ScrypticTable, player: ScrypticPlayer, move: string)",
                "makes a move",
            ),
            (
                "revealed?",
                "fun(game: ScrypticTable)",
                "called when everyone has chosen, in simultaneous play",
            ),
            (
                "end_if?",
                "fun(game: ScrypticTable): ScrypticPlayer|\"draw\"|nil, string?",
                "whether the game is over, and why",
            ),
            (
                "score?",
                "fun(game: ScrypticTable, player: ScrypticPlayer): number",
                "a player's score",
            ),
            (
                "why_not?",
                "fun(game: ScrypticTable, player: ScrypticPlayer, move: string): string?",
                "why a move is refused",
            ),
            ("help?", "string", "the mode's rules, shown to players"),
        ],
    },
];

/// The `game` objects scripts are handed, each with its methods.
pub const OBJECTS: &[ApiObject] = &[
    ApiObject {
        name: "ScrypticGame",
        doc: "The game, as event handlers and win conditions see it.",
        methods: GAME,
    },
    ApiObject {
        name: "ScrypticTokenGame",
        doc: "The board, as a token's invoke sees it; its commands make the effect.",
        methods: TOKEN_GAME,
    },
    ApiObject {
        name: "ScrypticTable",
        doc: "The table of pieces, as a game mode's functions see it.",
        methods: MODE_GAME,
    },
];

/// The global tables scripts find: name, LuaLS type, meaning.
pub const GLOBALS: &[Field] = &[
    ("scryptic", "scryptic", "The Scryptic API (read-only)."),
    (
        "storage",
        "table<string, any>",
        "What scripts keep between reloads, in saves, and from one campaign map to the next: strings, numbers, booleans and tables of them.",
    ),
];

/// The type names the API uses.
pub fn aliases() -> Vec<ApiAlias> {
    fn quoted(names: impl Iterator<Item = String>) -> String {
        names
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join("|")
    }
    let seats = (0..crate::board::MAX_SEATS)
        .filter_map(crate::board::Player::seat)
        .map(|p| p.to_string());
    let owners = crate::board::Owner::ALL
        .iter()
        .map(|o| o.name().to_string());
    let terrains = crate::board::Terrain::ALL
        .iter()
        .map(|t| t.name().to_string());
    let events = EVENT_FIELDS.iter().map(|(e, _, _)| e.to_string());
    let constants = crate::rules::RuleSet::constants();
    let numbers = constants
        .iter()
        .filter(|c| c.range.is_some())
        .map(|c| c.key.to_string());
    vec![
        ApiAlias {
            name: "ScrypticPlayer",
            ty: quoted(seats),
            doc: "a seat",
        },
        ApiAlias {
            name: "ScrypticOwner",
            ty: quoted(owners),
            doc: "who holds a city",
        },
        ApiAlias {
            name: "ScrypticTerrain",
            ty: quoted(terrains),
            doc: "a cell's terrain",
        },
        ApiAlias {
            name: "ScrypticEvent",
            ty: quoted(events),
            doc: "an event's name",
        },
        ApiAlias {
            name: "ScrypticNumberRule",
            ty: quoted(numbers),
            doc: "a rule constant that is a number, `section.name`",
        },
        ApiAlias {
            name: "ScrypticEventFilter",
            ty: "table<string, string|integer|boolean|{every: integer}>".into(),
            doc: "fields an event must have: a value must be equal, `{every = n}` a multiple of n",
        },
    ]
}

fn field_line(out: &mut String, (name, ty, doc): &Field) {
    out.push_str(&format!("---@field {name} {ty} {doc}\n"));
}

/// The LuaLS definitions (`---@meta`) of the whole API.
pub fn luals_definitions() -> String {
    let mut out = String::from(
        "---@meta\n-- Generated by `scryptic script types` from crates/script/src/api.rs; do not edit.\n\n",
    );
    for alias in aliases() {
        out.push_str(&format!(
            "--- {}\n---@alias {} {}\n\n",
            alias.doc, alias.name, alias.ty
        ));
    }
    for class in CLASSES {
        out.push_str(&format!("--- {}\n---@class {}\n", class.doc, class.name));
        class.fields.iter().for_each(|f| field_line(&mut out, f));
        out.push('\n');
    }
    for (event, doc, fields) in EVENT_FIELDS {
        out.push_str(&format!("--- {doc}\n---@class ScrypticEvent_{event}\n"));
        fields.iter().for_each(|f| field_line(&mut out, f));
        out.push('\n');
    }
    for object in OBJECTS {
        method_class(&mut out, object.name, object.doc, object.methods);
    }
    out.push_str(&format!(
        "--- {}\n---@class scryptic\nscryptic = {{}}\n\n",
        GLOBALS[0].2
    ));
    for f in SCRYPTIC {
        function_doc(&mut out, f);
        let params: Vec<&str> = f.params.iter().map(|p| p.0).collect();
        out.push_str(&format!(
            "function scryptic.{}({}) end\n\n",
            f.name,
            params.join(", ")
        ));
    }
    let (name, ty, doc) = GLOBALS[1];
    out.push_str(&format!("--- {doc}\n---@type {ty}\n{name} = {{}}\n"));
    out
}

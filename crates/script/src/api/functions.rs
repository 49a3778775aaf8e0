//! What scripts can call: the `scryptic` table's functions and the methods of each `game`
//! they are handed (data only; `api.rs` writes the LuaLS definitions from it).

use super::ApiFunction;

pub(super) const XY: [(&str, &str, &str); 2] = [
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

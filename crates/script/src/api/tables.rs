//! What events carry, and the tables, objects and globals scripts meet (data only; `api.rs`
//! writes the LuaLS definitions from it).

use super::functions::XY;
use super::{ApiClass, ApiObject, Field};
use super::{GAME, MODE_GAME, TOKEN_GAME};

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

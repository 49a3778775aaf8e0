//! The hostile-script corpus (`tests/hostile/`): scripts written to hang, crash or bloat the
//! host, each saying on its first line what must stop it (`-- expect: MESSAGE`). Scripts at
//! the top run on their own; those in `game/` are the body of a `game_start` handler (with
//! `game`), those in `token/` the body of a token's `invoke` (with `game` and `token`). Those in
//! `calls/` call one host function with a huge argument, as a `game_start` handler: each is
//! stopped, or (`-- expect: (no error)`) cut down, and the process stays within its bound.
//! Those in `output/` print, tell or raise a line shaped as the host's (`-- expect: LINE`),
//! which must never show as a line of its own.
//! Those in `events/` are a level's script whose handlers, timers, custom events, interface
//! calls and win conditions together try to make one event (one action) run without end.

use crate::root;
use scryptic::board::{Owner, Player, Pos, TokenSpot};
use scryptic::game::{EffectError, Game};
use scryptic::lexicon::Lexicon;
use scryptic::map::Map;
use scryptic::script::{ScriptError, ScriptHost, ScriptLimits, ScriptedGame};
use std::path::Path;
use std::sync::Arc;

/// One hostile script: its name, its text and the message that must stop it.
pub struct Hostile {
    /// Its name as loaded: `hostile/FILE` (with `game/` or `token/` before the file).
    pub name: String,
    /// The script's text.
    pub source: String,
    /// What the error that stops it must say.
    pub expect: String,
}

/// The scripts of one part of the corpus (`""`, `"game"` or `"token"`), sorted by name.
pub fn corpus(part: &str) -> Vec<Hostile> {
    let dir = root().join("tests/hostile").join(part);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus is readable")
        .map(|e| e.expect("the corpus is readable").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .collect();
    files.sort();
    let prefix = if part.is_empty() {
        "hostile/".to_string()
    } else {
        format!("hostile/{part}/")
    };
    files.iter().map(|path| read(path, &prefix)).collect()
}

fn read(path: &Path, prefix: &str) -> Hostile {
    let source = std::fs::read_to_string(path).expect("a corpus file is text");
    let expect = source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("-- expect: "))
        .unwrap_or_else(|| panic!("{} starts with `-- expect: MESSAGE`", path.display()))
        .to_string();
    let file = path.file_name().expect("a file").to_string_lossy();
    Hostile {
        name: format!("{prefix}{file}"),
        source,
        expect,
    }
}

/// `body` as the body of a function with the given parameters, on the first line so that the
/// file's line numbers stay as they are.
fn wrapped(body: &str, head: &str, tail: &str) -> String {
    format!("{head}{body}\n{tail}")
}

/// A 16x16 map with a capital each and a token spot in the middle.
pub fn hostile_map() -> Map {
    let mut map = Map::new("Hostile", 16, 16);
    map.cities = vec![
        crate::city("aurum", 0, 0, Owner::Gold),
        crate::city("argentum", 15, 15, Owner::Silver),
    ];
    map.tokens = vec![TokenSpot {
        id: "spot".into(),
        kind: "hostile".into(),
        at: Pos::new(8, 8),
    }];
    map.scenario.racks.insert(Player::Gold, "SEAT".into());
    map.scenario.racks.insert(Player::Silver, "AEIOU".into());
    map
}

/// The level's string table for hostile scripts: `many` holds 1,300 placeholders.
pub fn hostile_strings() -> scryptic::save::StringTables {
    let table = [("many".to_string(), "{x}".repeat(1300))]
        .into_iter()
        .collect();
    [(String::new(), table)].into_iter().collect()
}

/// What a `calls/` script's first line says when it must end without an error.
pub const NO_ERROR: &str = "(no error)";

/// A game on `hostile_map`.
pub fn hostile_game(lexicon: Arc<Lexicon>) -> Game {
    let map = hostile_map();
    Game::new(&map, map.rule_set().expect("the default rules"), lexicon, 1)
}

/// Runs a `game/` script as a `game_start` handler beside a well-behaved one (which awards
/// silver a point); returns the game and the errors of `game_start`.
pub fn run_in_game(hostile: &Hostile, lexicon: Arc<Lexicon>) -> (ScriptedGame, Vec<ScriptError>) {
    // No `game/` script is meant to meet the clock: the deterministic limits must stop each.
    // The deadline is the last guard, and on a loaded machine in a debug build a script the
    // budget stops at 0.6 s could otherwise meet a one-second deadline first.
    let limits = ScriptLimits {
        deadline: std::time::Duration::from_secs(30),
        ..ScriptLimits::default()
    };
    let mut host = ScriptHost::with_standard_tokens(limits, 1).expect("a state can be made");
    host.set_packs(Vec::new(), String::new(), hostile_strings());
    host.load(
        "counter.lua",
        "scryptic.on('game_start', function(game) game:award('silver', 1) end)",
    )
    .expect("the counter loads");
    let handler = wrapped(
        &hostile.source,
        "scryptic.on('game_start', function(game) ",
        "end)",
    );
    host.load(&hostile.name, &handler)
        .unwrap_or_else(|e| panic!("{}: {e}", hostile.name));
    ScriptedGame::new(hostile_game(lexicon), host)
}

/// What a pack beside the level provides to the `events/` scripts: `helper:burn`, a function
/// that spends the instructions it is told to.
const HELPER: &str =
    "scryptic.provide('burn', { burn = function(n) local i = 0 while i < n do i = i + 1 end end })";

/// Starts a game of `hostile_game` with an `events/` script as the level's own, beside pack
/// `helper` (see `HELPER`); returns the game and the start's errors. The start is one event.
pub fn run_events(hostile: &Hostile, lexicon: Arc<Lexicon>) -> (ScriptedGame, Vec<ScriptError>) {
    // The budget must stop each, not the clock (see `run_in_game`).
    let limits = ScriptLimits {
        deadline: std::time::Duration::from_secs(30),
        ..ScriptLimits::default()
    };
    let mut host = ScriptHost::with_standard_tokens(limits, 1).expect("a state can be made");
    host.set_packs(
        vec!["core".into(), "helper".into(), String::new()],
        String::new(),
        hostile_strings(),
    );
    host.load("helper:burn.lua", HELPER)
        .expect("the helper loads");
    host.load(&hostile.name, &hostile.source)
        .unwrap_or_else(|e| panic!("{}: {e}", hostile.name));
    ScriptedGame::new(hostile_game(lexicon), host)
}

/// Runs a `token/` script as the `invoke` of a token kind, on `hostile_game`'s spot; returns
/// the host (to see that it goes on) and the refusal.
pub fn run_as_token(hostile: &Hostile, game: &Game) -> (ScriptHost, Result<(), EffectError>) {
    let mut host = ScriptHost::new(ScriptLimits::default(), 1).expect("a state can be made");
    let token = wrapped(
        &hostile.source,
        "scryptic.token { id = 'hostile', invoke = function(game, token) ",
        "end }",
    );
    host.load(&hostile.name, &token)
        .unwrap_or_else(|e| panic!("{}: {e}", hostile.name));
    let outcome = host
        .invoke_token(
            &crate::invocation("hostile", Pos::new(8, 8)),
            game.board(),
            game.rules(),
            &mut crate::rng(1),
        )
        .map(|_| ());
    (host, outcome)
}

//! The bounds every loader checks before it builds anything, so that a file from a stranger
//! cannot make the runtime allocate without limit, loop for ever or overflow. A number that is
//! a rule constant takes its bounds from the rule set's ranges (`RuleSet::constants`); these
//! are the counts and sizes that no rule set governs. README.md lists them for users.

/// The most characters in an id (of a city, a token spot, a script's definitions).
pub const MAX_ID_CHARS: usize = 64;
/// The most characters in a name or an author line.
pub const MAX_NAME_CHARS: usize = 200;
/// The most characters in a description.
pub const MAX_DESCRIPTION_CHARS: usize = 20_000;
/// The most cities, and separately the most token spots, on one map.
pub const MAX_PIECES: usize = 10_000;
/// The values a city's own capture bonus may take (the rule set's bonuses' range).
pub const CITY_BONUS: std::ops::RangeInclusive<i64> = -1_000_000..=1_000_000;
/// The most scripts a map or a save names.
pub const MAX_SCRIPTS: usize = 64;
/// The most event handlers one script may register.
pub const MAX_HANDLERS_PER_SCRIPT: usize = 256;
/// The most token kinds, and separately win conditions and strength modifiers, one script may
/// define.
pub const MAX_DEFINITIONS_PER_SCRIPT: usize = 64;
/// The most bytes in one script's text.
pub const MAX_SCRIPT_BYTES: usize = 1024 * 1024;
/// The most characters in a path a file names (a script, a tileset).
pub const MAX_PATH_CHARS: usize = 1024;
/// The most words a scenario lays on the board.
pub const MAX_SCENARIO_WORDS: usize = 10_000;
/// The most items a rack ever holds, however scripts fill it (the highest `turn.rack_limit`).
pub const MAX_RACK: usize = 1000;
/// The most letters on a scenario's starting rack.
pub const MAX_SCENARIO_RACK: usize = MAX_RACK;
/// The most letters in a scenario's fixed pool order.
pub const MAX_SCENARIO_POOL: usize = 100_000;
/// The most actions a save holds.
pub const MAX_SAVE_ACTIONS: usize = 1_000_000;
/// The most bytes of script storage (JSON) a save carries.
pub const MAX_STORAGE_BYTES: usize = 16 * 1024 * 1024;
/// The most pieces a scripted game's table holds (`flow.scripted`).
pub const MAX_TABLE_PIECES: usize = 4096;
/// The most characters in a piece's kind, a pit's name or a table variable's name.
pub const MAX_TABLE_NAME_CHARS: usize = 32;
/// The most variables a scripted game's rules keep on the table.
pub const MAX_TABLE_VARS: usize = 256;
/// The most characters in a table variable's text.
pub const MAX_TABLE_TEXT_CHARS: usize = 200;
/// The most characters in a scripted game's move.
pub const MAX_MOVE_CHARS: usize = 80;
/// The most legal moves a scripted game's rules may list for one position.
pub const MAX_MOVES: usize = 10_000;
/// The most commands one call of a scripted game's rules may make (setup, a move).
pub const MAX_TABLE_COMMANDS: usize = 100_000;

/// Why `path` (as a file names it) cannot be used: it must be relative, so that a level
/// cannot reach outside its own folder by naming `/etc/passwd` or `C:\Windows`.
pub fn relative_path_problem(path: &str) -> Option<String> {
    let drive =
        path.len() >= 2 && path.as_bytes()[1] == b':' && path.as_bytes()[0].is_ascii_alphabetic();
    if path.is_empty() {
        Some("the path is empty".to_string())
    } else if path.chars().count() > MAX_PATH_CHARS {
        Some(format!(
            "the path has {} characters; the most is {MAX_PATH_CHARS}",
            path.chars().count()
        ))
    } else if path.starts_with('/') || path.starts_with('\\') || drive {
        Some(format!(
            "`{path}` is an absolute path; name files relative to the map's folder (scripts/intro.lua)"
        ))
    } else if path.contains('\0') {
        Some("the path holds a NUL character".to_string())
    } else {
        None
    }
}

/// A reference to another pack's file (`core:tilesets/stone/tileset.ron`, or `core:classic`
/// for a rule set) as (`Some("core")`, the rest); a plain path as (`None`, path). A single
/// letter before the colon is a Windows drive, not a pack.
pub fn split_pack_reference(reference: &str) -> (Option<&str>, &str) {
    match reference.split_once(':') {
        Some((pack, path)) if pack.len() > 1 => (Some(pack), path),
        _ => (None, reference),
    }
}

/// Why a text field of `chars` characters is too long, if it is.
pub fn too_long(what: &str, text: &str, most: usize) -> Option<String> {
    let n = text.chars().count();
    (n > most).then(|| format!("{what} has {n} characters; the most is {most}"))
}

/// The most settings a pack declares, and so the most a save sets and carries declarations of.
pub const MAX_SETTINGS: usize = 64;

#[cfg(test)]
mod tests {
    use super::relative_path_problem;

    #[test]
    fn only_relative_paths_are_accepted() {
        for ok in ["scripts/a.lua", "../tilesets/stone/tileset.ron", "a"] {
            assert_eq!(relative_path_problem(ok), None, "{ok}");
        }
        for bad in [
            "/etc/passwd",
            "\\\\server\\share",
            "C:\\Windows\\x.lua",
            "c:/x",
            "",
        ] {
            assert!(relative_path_problem(bad).is_some(), "{bad}");
        }
    }
}

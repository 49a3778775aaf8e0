//! Script errors in words: a script file that cannot be read, a script that failed (where,
//! in which event, why), and a Lua error's message and traceback, the limits it ran into said
//! as limits.

use super::{BUDGET_MESSAGE, DEADLINE_MESSAGE, MEMORY_MESSAGE, ScriptLimits, sandbox};
use std::fmt;

/// Why a script file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScriptFileError {
    /// A map names a script by an absolute path.
    #[error("{problem}")]
    NotRelative {
        /// What is wrong with the path.
        problem: String,
    },
    /// The file is missing, unreadable, too large or not UTF-8.
    #[error("{source} (script paths are relative to the map)")]
    Unreadable {
        /// Why.
        #[from]
        source: crate::diag::LoadError,
    },
}

/// The text of the script `name` (relative to `map_dir`, at most `MAX_SCRIPT_BYTES`), or
/// why it cannot be read.
pub fn read_script(map_dir: &std::path::Path, name: &str) -> Result<String, ScriptFileError> {
    if let Some(problem) = crate::limits::relative_path_problem(name) {
        return Err(ScriptFileError::NotRelative { problem });
    }
    read_script_file(&map_dir.join(name))
}

/// The text of the script file at `path` (at most `MAX_SCRIPT_BYTES`), or why not.
pub fn read_script_file(path: &std::path::Path) -> Result<String, ScriptFileError> {
    Ok(crate::fsutil::read_text_at_most(
        path,
        crate::limits::MAX_SCRIPT_BYTES as u64,
    )?)
}

/// A script that failed: where, in which event, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// The script's file (as loaded).
    pub script: String,
    /// The line, when known.
    pub line: Option<u32>,
    /// The event being handled (`load` while the script itself runs).
    pub event: String,
    /// The turn, once a game runs.
    pub turn: Option<u32>,
    /// What went wrong.
    pub message: String,
    /// Where it went wrong, innermost call first.
    pub traceback: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "script {}", self.script)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, " in event {}", self.event)?;
        if let Some(turn) = self.turn {
            write!(f, " (turn {turn})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScriptError {}

/// An error of the host itself while it sets up a state or a game.
pub(super) fn setup_error(message: String) -> ScriptError {
    ScriptError {
        script: "(host)".into(),
        line: None,
        event: "setup".into(),
        turn: None,
        message,
        traceback: String::new(),
    }
}

/// The error's message and traceback, with the limits said in words.
pub(super) fn describe_error(
    err: &mlua::Error,
    stopped: Option<sandbox::Stop>,
    limits: &ScriptLimits,
) -> (String, String) {
    let root = root_cause(err);
    let text = match root {
        mlua::Error::RuntimeError(m) | mlua::Error::MemoryError(m) => m.clone(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        other => other.to_string(),
    };
    let (message, traceback) = match text.split_once("\nstack traceback:") {
        Some((m, t)) => (without_addresses(m), format!("stack traceback:{t}")),
        None => (without_addresses(&text), traceback_of(err)),
    };
    // A limit's message replaces Lua's, but keeps the place it names (`file:line: `).
    let place = match split_location("", &message) {
        (file, Some(line), _) => format!("{file}:{line}: "),
        _ => String::new(),
    };
    let message = match stopped {
        Some(sandbox::Stop::Budget) => format!(
            "{BUDGET_MESSAGE}: more than {} instructions in one event, shared by every script \
             it runs (an endless loop, or too much work in one event?)",
            limits.instructions
        ),
        Some(sandbox::Stop::Deadline) => format!(
            "{DEADLINE_MESSAGE}: the event ran for more than {} ms, shared by every script it \
             runs",
            limits.deadline.as_millis()
        ),
        None if message.contains(BUDGET_MESSAGE) => format!(
            "{BUDGET_MESSAGE}: more than {} instructions in one event",
            limits.instructions
        ),
        None if message.contains(MEMORY_MESSAGE) || matches!(root, mlua::Error::MemoryError(_)) => {
            format!(
                "{MEMORY_MESSAGE}: the scripts of this level may use {} MiB",
                limits.memory_bytes / (1024 * 1024)
            )
        }
        None => return (message, traceback),
    };
    (place + &message, traceback)
}

/// `message` with the addresses Lua names an error object by (`table: 0x55e2dcc37ab0`, when a
/// script raises a table without `__tostring`) left out: they differ from run to run, so a
/// game and its replay would tell different errors, and an address says where the host's
/// memory lies.
fn without_addresses(message: &str) -> String {
    const KINDS: [&str; 4] = ["table: 0x", "function: 0x", "userdata: 0x", "thread: 0x"];
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some((at, kind)) = KINDS
        .iter()
        .filter_map(|k| rest.find(k).map(|at| (at, *k)))
        .min_by_key(|(at, _)| *at)
    {
        let digits_from = at + kind.len();
        let digits = rest[digits_from..]
            .bytes()
            .take_while(u8::is_ascii_hexdigit)
            .count();
        out.push_str(&rest[..at]);
        out.push_str(&kind[..kind.len() - ": 0x".len()]);
        out.push_str(" (an error object)");
        rest = &rest[digits_from + digits..];
    }
    out.push_str(rest);
    out
}

fn root_cause(err: &mlua::Error) -> &mlua::Error {
    match err {
        mlua::Error::CallbackError { cause, .. } => root_cause(cause),
        other => other,
    }
}

fn traceback_of(err: &mlua::Error) -> String {
    match err {
        mlua::Error::CallbackError { traceback, .. } => traceback.clone(),
        _ => String::new(),
    }
}

/// `FILE:LINE: message` split into its parts (the message keeps anything else).
pub(super) fn split_location(script: &str, message: &str) -> (String, Option<u32>, String) {
    let found = message.split_once(": ").and_then(|(place, rest)| {
        let (file, line) = place.rsplit_once(':')?;
        Some((
            file.to_string(),
            line.parse::<u32>().ok()?,
            rest.to_string(),
        ))
    });
    match found {
        Some((file, line, rest)) if !file.is_empty() => (file, Some(line), rest),
        _ => (script.to_string(), None, message.to_string()),
    }
}

/// The file and line of the innermost Lua frame of a traceback (skipping Rust functions and
/// the sandbox's own code), for errors raised inside API calls.
pub(super) fn first_lua_frame(traceback: &str) -> Option<(String, u32)> {
    traceback.lines().skip(1).find_map(|frame| {
        let (place, _) = frame.trim().split_once(": ")?;
        let (file, line) = place.rsplit_once(':')?;
        let keep = !file.is_empty() && file != "[C]" && file != "sandbox" && !file.starts_with('[');
        keep.then(|| Some((file.to_string(), line.parse().ok()?)))
            .flatten()
    })
}

#[cfg(test)]
mod address_tests {
    use super::without_addresses;

    #[test]
    fn addresses_are_left_out_of_messages() {
        for (message, shown) in [
            ("table: 0x55e2dcc37ab0", "table (an error object)"),
            (
                "x table: 0x7f54 and function: 0xab y",
                "x table (an error object) and function (an error object) y",
            ),
            ("no address here: 0xyz", "no address here: 0xyz"),
            ("", ""),
        ] {
            assert_eq!(without_addresses(message), shown, "{message}");
        }
    }
}

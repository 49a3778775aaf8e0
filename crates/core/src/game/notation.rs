//! The notation people type: cells as column letters and row numbers (`A1` is the top-left
//! cell, `AA1` the 27th column), and commands such as `commit H8 across SWORD`. Used by
//! `scryptic play` and by the rule scenarios in `tests/scenarios/`.

use super::words::WordKey;
use super::{Action, Game, Placement};
use crate::board::{Player, Pos};
use crate::map::Direction;

pub use super::layout_notation::SIMULTANEOUS_COMMANDS;

/// A command that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

fn err<T>(message: impl Into<String>) -> Result<T, NotationError> {
    Err(NotationError(message.into()))
}

/// The name of a cell: `A1` for (0, 0).
pub fn cell_name(pos: Pos) -> String {
    // In u64: a cell far off any board (a stranger's `u32::MAX`) is named, not wrapped to 0.
    format!("{}{}", column_name(pos.x), u64::from(pos.y) + 1)
}

/// Column letters: A..Z, then AA, AB...
pub fn column_name(x: u32) -> String {
    let mut n = u64::from(x) + 1;
    let mut name = Vec::new();
    while n > 0 {
        let rem = (n - 1) % 26;
        name.push(b'A' + rem as u8);
        n = (n - 1) / 26;
    }
    name.reverse();
    String::from_utf8_lossy(&name).into_owned()
}

/// A cell from its name (`H8`, `aa12`).
pub fn parse_cell(text: &str) -> Result<Pos, NotationError> {
    let split = text
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(text.len());
    let (letters, digits) = text.split_at(split);
    if letters.is_empty() || digits.is_empty() || !letters.chars().all(|c| c.is_ascii_alphabetic())
    {
        return err(format!(
            "`{text}` is not a cell: write a column letter and a row number, such as H8"
        ));
    }
    let column = letters.to_ascii_uppercase().bytes().try_fold(0u32, |n, b| {
        n.checked_mul(26)?.checked_add(u32::from(b - b'A') + 1)
    });
    let row: Option<u32> = digits.parse().ok();
    match (column, row) {
        (Some(c), Some(r)) if r >= 1 => Ok(Pos::new(c - 1, r - 1)),
        _ => err(format!("`{text}` is not a cell on any board")),
    }
}

pub(super) fn parse_dir(text: &str) -> Result<Direction, NotationError> {
    match text.to_ascii_lowercase().as_str() {
        "across" | "a" | "right" => Ok(Direction::Across),
        "down" | "d" => Ok(Direction::Down),
        other => err(format!(
            "`{other}` is not a direction: write across or down"
        )),
    }
}

/// The commands, for help texts.
pub const COMMANDS: &str =
    "commit CELL across|down WORD   place a word (letters already yours, or on a shared board anyone's, are kept)
commit CELL=L CELL=L ...         place single letters
defend auto | defend WORD ...    order your defenders (first fights first)
redeploy CELL across|down        lift one of your words back to the rack
discard LETTERS                  discard letters when your rack is over its limit
exchange LETTERS                 trade letters back into the pool (where the rules allow)
invoke TOKEN                     use a captured token (by its id)
spy                              ask for the strongest placement
forfeit                          concede the game (where the rules allow it)
sudden                           call sudden death: offer your hand (when you cannot make a word)
accept | refuse                  answer an offer of sudden death
end                              end your turn (a pass if you committed nothing)";

/// Reads a command typed for `game`'s player to act (in simultaneous play, the player the
/// line names first, else the player whose turn it would be: see `parse_command_as`).
pub fn parse_command(game: &Game, line: &str) -> Result<Action, NotationError> {
    parse_command_as(game, game.to_act(), line)
}

/// Reads a command typed by `player` (who acts in simultaneous play, unless the line names
/// another seat first; turns' actions are the player's to act, whoever types them).
pub fn parse_command_as(game: &Game, player: Player, line: &str) -> Result<Action, NotationError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&verb, args)) = words.split_first() else {
        return err("type a command (help lists them)");
    };
    if game.rules().flow.scripted {
        return Ok(super::scripted::parse_move(game, player, &words));
    }
    if let Some(action) = super::layout_notation::parse_simultaneous(game, player, &words) {
        return action;
    }
    match verb.to_ascii_lowercase().as_str() {
        "commit" | "play" => parse_commit(game, args),
        "defend" => parse_defend(game, args),
        "redeploy" | "lift" => match args {
            [cell, dir] => {
                let start = parse_cell(cell)?;
                let dir = parse_dir(dir)?;
                let key = game
                    .words()
                    .into_iter()
                    .map(|w| w.word.key)
                    .find(|k| k.start == start && k.dir == dir)
                    .unwrap_or(WordKey { start, dir, len: 0 });
                Ok(Action::Redeploy { word: key })
            }
            _ => err("write: redeploy CELL across|down (the word's first cell)"),
        },
        "discard" => match args {
            [letters] => Ok(Action::Discard {
                letters: letters.to_ascii_uppercase(),
            }),
            _ => err("write: discard LETTERS"),
        },
        "exchange" | "trade" => match args {
            [letters] => Ok(Action::Exchange {
                letters: letters.to_ascii_uppercase(),
            }),
            _ => err("write: exchange LETTERS"),
        },
        "invoke" => match args {
            [token] => Ok(Action::Invoke {
                token: token.to_string(),
            }),
            _ => err("write: invoke TOKEN (the token's id)"),
        },
        "spy" => Ok(Action::Spy),
        "forfeit" | "resign" => Ok(Action::Forfeit),
        "sudden" | "sudden-death" => Ok(Action::CallSuddenDeath),
        "accept" => Ok(Action::Answer { accept: true }),
        "refuse" | "decline" => Ok(Action::Answer { accept: false }),
        "end" | "pass" => Ok(Action::EndTurn),
        other => {
            let commands = if game.rules().flow.simultaneous {
                SIMULTANEOUS_COMMANDS
            } else {
                COMMANDS
            };
            err(format!(
                "`{other}` is not a command; the commands are:\n{commands}"
            ))
        }
    }
}

fn parse_commit(game: &Game, args: &[&str]) -> Result<Action, NotationError> {
    if !args.is_empty() && args.iter().all(|a| a.contains('=')) {
        let letters = args
            .iter()
            .map(|a| parse_single(a))
            .collect::<Result<_, _>>()?;
        return Ok(Action::Commit { letters });
    }
    let [cell, dir, word] = args else {
        return err("write: commit CELL across|down WORD, or commit CELL=L ...");
    };
    let start = parse_cell(cell)?;
    let dir = parse_dir(dir)?;
    let player = game.to_act();
    // On a shared crossword a word runs through anyone's letters; on separate ones only the
    // player's own are kept (the other's may be placed on, which attacks).
    let shared = game.rules().crossword.model == crate::rules::CrosswordModel::Shared;
    let mut letters = Vec::new();
    for (i, letter) in word.to_ascii_uppercase().chars().enumerate() {
        let Some(at) = u32::try_from(i).ok().and_then(|i| dir.step(start, i)) else {
            return err("the word runs off the board");
        };
        match game.board().letters.get(at).copied().flatten() {
            Some(tile) if (shared || tile.player == player) && tile.letter == letter => continue,
            Some(tile) if shared || tile.player == player => {
                let whose = if tile.player == player { "your" } else { "the" };
                return err(format!(
                    "{} holds {whose} {}, not {letter}",
                    cell_name(at),
                    tile.letter
                ));
            }
            _ => letters.push(Placement { at, letter }),
        }
    }
    Ok(Action::Commit { letters })
}

/// One letter written `H8=S`.
pub(super) fn parse_single(text: &str) -> Result<Placement, NotationError> {
    let (cell, letter) = text.split_once('=').unwrap_or((text, ""));
    let mut chars = letter.chars();
    match (chars.next(), chars.next()) {
        (Some(l), None) if l.is_ascii_alphabetic() => Ok(Placement {
            at: parse_cell(cell)?,
            letter: l.to_ascii_uppercase(),
        }),
        _ => err(format!(
            "`{text}`: write a cell, `=` and one letter, such as H8=S"
        )),
    }
}

fn parse_defend(game: &Game, args: &[&str]) -> Result<Action, NotationError> {
    if matches!(args, [a] if a.eq_ignore_ascii_case("auto")) {
        return Ok(Action::Defend { order: None });
    }
    let defender = game.to_act();
    let theirs: Vec<super::Word> = game
        .words()
        .into_iter()
        .map(|w| w.word)
        .filter(|w| w.player == defender)
        .collect();
    let order = args
        .iter()
        .map(|text| {
            let matching: Vec<&super::Word> = theirs
                .iter()
                .filter(|w| w.text.eq_ignore_ascii_case(text))
                .collect();
            match matching.as_slice() {
                [one] => Ok(one.key),
                [] => err(format!("you have no word {}", text.to_ascii_uppercase())),
                _ => err(format!(
                    "you have several words {}; name them by cell with redeploy-style CELL DIR",
                    text.to_ascii_uppercase()
                )),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(Action::Defend { order: Some(order) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_farthest_cell_is_named_not_wrapped() {
        let far = Pos::new(u32::MAX, u32::MAX);
        assert_eq!(cell_name(far), "MWLQKWV4294967296");
        assert_eq!(
            parse_cell("MWLQKWV4294967296").ok(),
            None,
            "off every board"
        );
    }

    #[test]
    fn cell_names_round_trip() {
        for (pos, name) in [
            (Pos::new(0, 0), "A1"),
            (Pos::new(7, 7), "H8"),
            (Pos::new(25, 0), "Z1"),
            (Pos::new(26, 9), "AA10"),
            (Pos::new(511, 511), "SR512"),
        ] {
            assert_eq!(cell_name(pos), name);
            assert_eq!(parse_cell(name).unwrap(), pos);
            assert_eq!(parse_cell(&name.to_lowercase()).unwrap(), pos);
        }
        for bad in ["", "8H", "H", "H0", "Ä1", "H-1"] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
    }
}

//! The notation of simultaneous play: each command may begin with the seat that acts
//! (`seat3 green`), and a crossword is written as the words that make it, separated by commas
//! (`layout H8 across KEYBOARD, J6 down CAKE`), where crossing words share their letter.

use super::notation::{NotationError, cell_name, parse_cell, parse_dir, parse_single};
use super::{Action, Game, Placement};
use crate::board::{Player, Pos};

/// The commands of simultaneous play, for help texts.
pub const SIMULTANEOUS_COMMANDS: &str =
    "layout CELL across|down WORD, ...  lay your whole crossword out anew (no words: all back on the rack)
add CELL across|down WORD, ...     add words to your crossword (its letters stay; crossings shared)
remove CELL ...                     take letters off your crossword back to the rack
green                              call green light (your crossword is complete): everyone draws
red                                call red light once the pool runs low: the grace period begins
jaywalk LETTER                     return a letter from your rack to the pool and draw one
time                               end the grace period after red light (the clock does it)";

/// Reads a simultaneous-play command for `player` (unless the line names another seat first),
/// or `None` when the line's verb is not one of simultaneous play.
pub(super) fn parse_simultaneous(
    game: &Game,
    player: Player,
    words: &[&str],
) -> Option<Result<Action, NotationError>> {
    let (player, words) = match words.split_first() {
        Some((first, rest)) => match Player::from_name(&first.to_ascii_lowercase()) {
            Some(named) => (named, rest),
            None => (player, words),
        },
        None => (player, words),
    };
    let (&verb, args) = words.split_first()?;
    Some(match verb.to_ascii_lowercase().as_str() {
        "layout" | "lay" => read_words(args).map(|letters| Action::Layout { player, letters }),
        "add" => read_words(args).and_then(|added| {
            let letters = with_added(game, player, added)?;
            Ok(Action::Layout { player, letters })
        }),
        "remove" | "unplace" => read_cells(args).map(|cells| Action::Layout {
            player,
            letters: game
                .laid_letters(player)
                .into_iter()
                .filter(|p| !cells.contains(&p.at))
                .collect(),
        }),
        "green" => Ok(Action::GreenLight { player }),
        "red" => Ok(Action::RedLight { player }),
        "time" | "grace-over" => Ok(Action::GraceOver),
        "jaywalk" => match args {
            [letter] if letter.chars().count() == 1 => Ok(Action::Jaywalk {
                player,
                letter: letter.chars().next().unwrap_or('?').to_ascii_uppercase(),
            }),
            _ => Err(NotationError("write: jaywalk LETTER".into())),
        },
        _ => return None,
    })
}

/// `player`'s crossword with `added` letters on it: a letter already there is kept, and one
/// that differs from it is refused.
fn with_added(
    game: &Game,
    player: Player,
    added: Vec<Placement>,
) -> Result<Vec<Placement>, NotationError> {
    let mut letters = game.laid_letters(player);
    for p in added {
        add_letter(&mut letters, p).map_err(|there| {
            NotationError(format!(
                "{} holds your {there}, not {}: remove it first, or lay the whole crossword out anew",
                cell_name(p.at),
                p.letter
            ))
        })?;
    }
    Ok(letters)
}

/// Adds `p` to `letters` unless its cell is there already with the same letter; a cell there
/// with another letter is refused with that letter.
fn add_letter(letters: &mut Vec<Placement>, p: Placement) -> Result<(), char> {
    match letters.iter().find(|q| q.at == p.at) {
        Some(q) if q.letter == p.letter => Ok(()),
        Some(q) => Err(q.letter),
        None => {
            letters.push(p);
            Ok(())
        }
    }
}

/// The letters of words written `CELL across|down WORD, ...`: crossing words share a cell,
/// which must then hold the same letter in both.
fn read_words(args: &[&str]) -> Result<Vec<Placement>, NotationError> {
    let text = args.join(" ");
    let mut letters: Vec<Placement> = Vec::new();
    for part in text
        .split([',', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
    {
        for p in read_word(part)? {
            add_letter(&mut letters, p).map_err(|there| {
                NotationError(format!(
                    "two words cross at {} with different letters ({there} and {})",
                    cell_name(p.at),
                    p.letter
                ))
            })?;
        }
    }
    Ok(letters)
}

/// One word's letters: `H8 across KEYBOARD`, or single letters `H8=K`.
fn read_word(part: &str) -> Result<Vec<Placement>, NotationError> {
    let words: Vec<&str> = part.split_whitespace().collect();
    if words.iter().all(|w| w.contains('=')) {
        return words.iter().map(|w| parse_single(w)).collect();
    }
    let [cell, dir, word] = words[..] else {
        return Err(NotationError(format!(
            "`{part}`: write each word as CELL across|down WORD, words separated by commas"
        )));
    };
    let (start, dir) = (parse_cell(cell)?, parse_dir(dir)?);
    word.chars()
        .enumerate()
        .map(|(i, letter)| {
            if !letter.is_ascii_alphabetic() {
                return Err(NotationError(format!("`{word}` is not a word of letters")));
            }
            let at = u32::try_from(i)
                .ok()
                .and_then(|i| dir.step(start, i))
                .ok_or_else(|| NotationError(format!("{word} runs off the board")))?;
            Ok(Placement {
                at,
                letter: letter.to_ascii_uppercase(),
            })
        })
        .collect()
}

/// Cells written `H8 H9 ...`.
fn read_cells(args: &[&str]) -> Result<Vec<Pos>, NotationError> {
    if args.is_empty() {
        return Err(NotationError(
            "write: remove CELL ... (the cells to take back to the rack)".into(),
        ));
    }
    args.iter().map(|a| parse_cell(a)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(words: &[&str], expected: Result<&str, &str>) {
        let got = read_words(words).map(|letters| {
            letters
                .iter()
                .map(|p| format!("{}={}", cell_name(p.at), p.letter))
                .collect::<Vec<_>>()
                .join(" ")
        });
        match (got, expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{words:?}"),
            (Err(e), Err(says)) => assert!(e.0.contains(says), "{words:?}: {e}"),
            (got, want) => panic!("{words:?}: {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn crosswords_are_written_as_their_words() {
        check(
            &["A1", "across", "CAT,", "C1", "down", "tea"],
            Ok("A1=C B1=A C1=T C2=E C3=A"),
        );
        check(&["A1=C", "B1=a"], Ok("A1=C B1=A"));
        check(
            &["A1", "across", "CAT,", "B1", "down", "OX"],
            Err("different letters"),
        );
        check(&["A1", "across"], Err("CELL across|down WORD"));
        check(&["A1", "across", "C4T"], Err("not a word of letters"));
        check(&[], Ok(""));
    }
}

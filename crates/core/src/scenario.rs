//! Scenarios as data: a game played step by step (`Do` a command in the notation, `Refuse` one
//! with the refusal expected, `Expect` the state after), as the toolkit's rule scenarios
//! (`tests/scenarios/`) and a pack's own checks (`tests/*.ron`, run by `scryptic pack test`)
//! write them. The steps run on anything `Played`: a bare game, or a game whose scripts take
//! part. No I/O: the caller reads the file.

use crate::board::{Owner, Player};
use crate::diag::LoadError;
use crate::game::notation::parse_command;
use crate::game::{Action, ActionError, Event, Game};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The most steps one scenario takes.
pub const MAX_SCENARIO_STEPS: usize = 10_000;

/// One step of a scenario.
#[derive(Clone, Debug, Deserialize)]
pub enum Step {
    /// A command in the notation (`commit A1 across SEAT`, `end`), which must be accepted.
    Do(String),
    /// A command that must be refused with a message containing the second text, changing
    /// nothing.
    Refuse(String, String),
    /// What must hold after the last step.
    Expect(Box<Expect>),
    /// The match's next round begins (the round must have ended and the match go on).
    NextRound,
}

/// What a scenario expects of the game: each field given is checked, the rest are not.
#[derive(Clone, Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Expect {
    /// The letters, row by row (gold's upper case, silver's lower case, `.` empty).
    pub board: Option<Vec<String>>,
    /// The terrain, row by row, in the map legend's characters.
    pub terrain: Option<Vec<String>>,
    /// Word scores by player.
    pub word_score: BTreeMap<Player, i64>,
    /// Base scores by player.
    pub base_score: BTreeMap<Player, i64>,
    /// Racks by player (letters in any order).
    pub racks: BTreeMap<Player, String>,
    /// Tokens held by player, by spot id.
    pub tokens: BTreeMap<Player, Vec<String>>,
    /// Cities' owners, by id.
    pub cities: BTreeMap<String, Owner>,
    /// Cities destroyed, by id.
    pub destroyed_cities: Vec<String>,
    /// Who is to act.
    pub to_act: Option<Player>,
    /// Whose turn it is.
    pub active: Option<Player>,
    /// Whether the game is over.
    pub over: Option<bool>,
    /// The winner.
    pub winner: Option<Player>,
    /// Whether the game ended in a draw.
    pub draw: Option<bool>,
    /// Words on the board and valid.
    pub valid: Vec<String>,
    /// Words on the board and invalid.
    pub invalid: Vec<String>,
    /// Words on the board and cut off from their player's crossword.
    pub disconnected: Vec<String>,
    /// Texts the last step's events contain (as the engine writes them, `CityCaptured`).
    pub events: Vec<String>,
    /// Letters lost, by player.
    pub lost: BTreeMap<Player, usize>,
    /// Letters left to draw, by player (the shared pool's size for each, when shared).
    pub pool: BTreeMap<Player, usize>,
    /// What the end of the game awarded, by player, in points as people write them (`12.5`).
    pub award: BTreeMap<Player, String>,
    /// Texts the scripts' messages so far contain (each in one message).
    pub messages: Vec<String>,
    /// Which round of the match is played, from 1.
    pub round: Option<usize>,
    /// Players from whom the other's letters drawn in the last step are hidden: each such
    /// event, as the player sees it, shows how many letters, not which.
    pub hidden_from: Vec<Player>,
    /// The match's totals, this round's points included once it has ended, in points as people
    /// write them (`12.5`).
    pub match_totals: BTreeMap<Player, String>,
    /// Crossing scores by player, as shown (`9/4 = 2.25`).
    pub crossing: BTreeMap<Player, String>,
    /// The round of simultaneous play, from 1 (a green light begins the next).
    pub light_round: Option<u32>,
    /// Whether each player may jaywalk now.
    pub may_jaywalk: BTreeMap<Player, bool>,
    /// A scripted game's pieces on the board as the whole truth has them, row by row: cells
    /// apart by spaces, `.` empty, else the owner's mark (`g`, `s`, `3`...) and the value
    /// (`?` where hidden, nothing where it has none): `"g3 . s1"`.
    pub table: Option<Vec<String>>,
    /// The same rows as each player sees them.
    pub seen: BTreeMap<Player, Vec<String>>,
    /// What each player sees of pits, as lines `OWNER PIT: VALUES` (`"silver used: 1 4"`,
    /// `"gold available: ? ?"`, `"gold score: empty"`).
    pub seen_pits: BTreeMap<Player, Vec<String>>,
    /// How many pieces each player's pits hold, by pit.
    pub pits: BTreeMap<Player, BTreeMap<String, usize>>,
    /// The rules' table variables, as text.
    pub vars: BTreeMap<String, String>,
    /// Moves each player may make now (each must be among the legal ones).
    pub moves: BTreeMap<Player, Vec<String>>,
    /// The seats who may move now (in a secret choice, those whose choice is not complete).
    pub to_move: Option<Vec<Player>>,
}

/// What a scenario's steps play on: a game, and what its scripts told the players.
pub trait Played {
    /// The game as it stands.
    fn game(&self) -> &Game;
    /// Applies an action, returning its events.
    fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError>;
    /// The messages scripts told since the last call; an error if a script failed.
    fn told(&mut self) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }
    /// Goes on to the match's next round; an error if there is none.
    fn next_round(&mut self) -> Result<(), String>;
}

impl Played for Game {
    fn game(&self) -> &Game {
        self
    }

    fn apply(&mut self, action: Action) -> Result<Vec<Event>, ActionError> {
        Game::apply(self, action)
    }

    fn next_round(&mut self) -> Result<(), String> {
        *self = self.next_round_game().ok_or(NO_NEXT_ROUND)??;
        Ok(())
    }
}

/// Why a scenario cannot go on to a next round.
pub const NO_NEXT_ROUND: &str =
    "there is no next round: the round goes on, or the match is over (or is a single game)";

/// A pack's scenario (`tests/*.ron` in the pack): which of the pack's levels it plays (a
/// mode, a board, settings), with which seed, and its steps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackScenario {
    /// What it checks, for reports.
    pub title: String,
    /// For an extension pack: the pack whose mode it plays, with the extension ticked
    /// (`core`); empty: the pack's own mode.
    #[serde(default)]
    pub pack: String,
    /// The mode played; empty: the pack's first.
    #[serde(default)]
    pub mode: String,
    /// Another board than the mode's (`maps/x.ron`, `core:maps/tutorial.ron`); empty: the
    /// mode's.
    #[serde(default)]
    pub board: String,
    /// Settings, as `--set` takes them.
    #[serde(default)]
    pub set: BTreeMap<String, String>,
    /// Which campaign chapter, from 1 (as `scryptic campaign --chapter` counts).
    #[serde(default = "first_chapter")]
    pub chapter: usize,
    /// The game's seed.
    #[serde(default)]
    pub seed: u64,
    /// A word list in the pack (`tests/words.txt`) played with instead of the dictionary, as
    /// a player points a game at their own list; empty: the dictionary.
    #[serde(default)]
    pub words: String,
    /// The steps.
    pub steps: Vec<Step>,
}

fn first_chapter() -> usize {
    1
}

impl PackScenario {
    /// Parses a pack scenario's text (`path` names it in messages), refusing more than
    /// `MAX_SCENARIO_STEPS` steps.
    pub fn parse(path: &Path, text: &str) -> Result<PackScenario, LoadError> {
        let scenario: PackScenario = crate::ronfile::parse(path, text)?;
        if scenario.steps.len() > MAX_SCENARIO_STEPS {
            return Err(LoadError::one(crate::diag::FileError::at(
                path,
                None,
                format!(
                    "{} steps; a scenario takes at most {MAX_SCENARIO_STEPS}: split it in several files",
                    scenario.steps.len()
                ),
            )));
        }
        if scenario.chapter == 0 {
            return Err(LoadError::one(crate::diag::FileError::at(
                path,
                crate::rules::locate_key(text, "chapter"),
                "chapter 0: chapters count from 1, as `scryptic campaign --chapter` does (the first is `chapter: 1`)",
            )));
        }
        Ok(scenario)
    }
}

/// Plays `steps` on `played`; the first step that does not go as written is the error,
/// named `name step N`.
pub fn run(name: &str, steps: &[Step], played: &mut impl Played) -> Result<(), String> {
    let mut last_events: Vec<Event> = Vec::new();
    let mut told: Vec<String> = played.told().map_err(|e| format!("{name}: {e}"))?;
    for (i, step) in steps.iter().enumerate() {
        let at = |what: String| format!("{name} step {}: {what}", i + 1);
        match step {
            Step::Do(command) => {
                let action = parse_command(played.game(), command)
                    .map_err(|e| at(format!("`{command}`: {e}")))?;
                last_events = played
                    .apply(action)
                    .map_err(|e| at(format!("`{command}` was refused: {e}")))?;
            }
            Step::Refuse(command, message) => refuse(played, command, message).map_err(at)?,
            Step::Expect(expect) => {
                expect_all(played.game(), (&last_events, &told), expect).map_err(at)?;
            }
            Step::NextRound => {
                played.next_round().map_err(at)?;
                last_events.clear();
            }
        }
        told.extend(played.told().map_err(at)?);
    }
    Ok(())
}

/// Checks that `command` is refused with `message`, changing nothing.
fn refuse(played: &mut impl Played, command: &str, message: &str) -> Result<(), String> {
    let before = format!("{:?}", played.game().words());
    let refused = parse_command(played.game(), command)
        .map_err(|e| e.to_string())
        .and_then(|a| played.apply(a).map_err(|e| e.to_string()));
    match refused {
        Ok(_) => Err(format!(
            "`{command}` was accepted; expected a refusal with `{message}`"
        )),
        Err(got) if !got.contains(message) => Err(format!(
            "`{command}` was refused with `{got}`, not `{message}`"
        )),
        Err(_) if before != format!("{:?}", played.game().words()) => {
            Err(format!("refusing `{command}` changed the board"))
        }
        Err(_) => Ok(()),
    }
}

/// Checks each player's expected value of one kind (`what`) against what `got` reads.
fn per_player<T: ToString>(
    want: &mut impl FnMut(&str, String, String),
    expected: &BTreeMap<Player, T>,
    what: &str,
    got: impl Fn(Player) -> String,
) {
    for (&p, value) in expected {
        want(&format!("{p} {what}"), value.to_string(), got(p));
    }
}

fn expect_all(
    game: &Game,
    (events, told): (&[Event], &[String]),
    e: &Expect,
) -> Result<(), String> {
    let mut problems = Vec::new();
    let mut want = |what: &str, expected: String, got: String| {
        if expected != got {
            problems.push(format!("{what}: expected {expected}, got {got}"));
        }
    };
    if let Some(rows) = &e.board {
        want("board", rows.join("\n"), board_rows(game).join("\n"));
    }
    if let Some(rows) = &e.terrain {
        let got = game.board().terrain.rows();
        want("terrain", rows.join("\n"), got.join("\n"));
    }
    per_player(&mut want, &e.word_score, "word score", |p| {
        game.score(p).word.to_string()
    });
    per_player(&mut want, &e.base_score, "base score", |p| {
        game.score(p).base.to_string()
    });
    for (&p, letters) in &e.racks {
        want(
            &format!("{p} rack"),
            sorted(letters),
            sorted(&game.rack_letters(p)),
        );
    }
    for (&p, ids) in &e.tokens {
        let got: Vec<String> = game
            .player(p)
            .tokens()
            .map(|(id, _)| id.to_string())
            .collect();
        want(
            &format!("{p} tokens"),
            format!("{ids:?}"),
            format!("{got:?}"),
        );
    }
    for (id, &owner) in &e.cities {
        let got = game
            .board()
            .cities
            .iter()
            .find(|c| *c.id == **id)
            .map_or_else(|| "no such city".to_string(), |c| format!("{:?}", c.owner));
        want(&format!("city {id}"), format!("{owner:?}"), got);
    }
    for id in &e.destroyed_cities {
        let got = game
            .board()
            .cities
            .iter()
            .any(|c| *c.id == **id && c.destroyed);
        want(
            &format!("city {id} destroyed"),
            "true".into(),
            got.to_string(),
        );
    }
    // Seats are said by their names in the mode (`white`, not `Some(Gold)`).
    let names = game.seat_names();
    let seat = |p: Player| names.name(p).to_string();
    if let Some(p) = e.to_act {
        want("to act", seat(p), seat(game.to_act()));
    }
    if let Some(p) = e.active {
        want("active", seat(p), seat(game.active()));
    }
    if let Some(over) = e.over {
        want(
            "over",
            over.to_string(),
            game.result().is_some().to_string(),
        );
    }
    if let Some(w) = e.winner {
        let got = match game.result() {
            None => "nobody yet (the game is not over)".to_string(),
            Some(result) => result
                .winner
                .map_or_else(|| "nobody (a draw)".to_string(), seat),
        };
        want("winner", seat(w), got);
    }
    if let Some(true) = e.draw {
        want(
            "draw",
            "true".into(),
            game.result()
                .is_some_and(|r| r.winner.is_none())
                .to_string(),
        );
    }
    let words = game.words();
    for text in &e.valid {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && w.valid);
        want(&format!("{text} valid"), "true".into(), ok.to_string());
    }
    for text in &e.invalid {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && !w.valid);
        want(
            &format!("{text} on the board and invalid"),
            "true".into(),
            ok.to_string(),
        );
    }
    for text in &e.disconnected {
        let ok = words
            .iter()
            .any(|w| w.word.text == text.to_uppercase() && !w.connected);
        want(
            &format!("{text} on the board and disconnected"),
            "true".into(),
            ok.to_string(),
        );
    }
    per_player(&mut want, &e.lost, "letters lost", |p| {
        game.player(p).lost.to_string()
    });
    per_player(&mut want, &e.award, "award", |p| {
        game.final_award().map_or_else(
            || "nothing".to_string(),
            |a| crate::game::describe::half_points(a[p.in_pair()]),
        )
    });
    for &viewer in &e.hidden_from {
        let others = events
            .iter()
            .filter(|ev| ev.private_to().is_some_and(|p| p != viewer));
        for event in others {
            let seen = event.seen_by(Some(viewer));
            let letters = seen.private_letters().unwrap_or_default();
            if letters.chars().any(|c| c != crate::game::HIDDEN_LETTER) {
                want(
                    &format!("what {viewer} sees"),
                    "the other's letters hidden".to_string(),
                    format!("{seen:?}"),
                );
            }
        }
        let private = events
            .iter()
            .any(|ev| ev.private_to().is_some_and(|p| p != viewer));
        if !private {
            want(
                &format!("letters hidden from {viewer}"),
                "a draw of the other's in the last step".to_string(),
                "none".to_string(),
            );
        }
    }
    if let Some(round) = e.round {
        want("round", round.to_string(), game.round_number().to_string());
    }
    let rounds = game.rounds_with_this();
    let totals = crate::game::MatchScore::new(&game.rules().series, &rounds).totals();
    per_player(&mut want, &e.match_totals, "match total", |p| {
        crate::game::describe::half_points(totals.get(p.index()).copied().unwrap_or(0))
    });
    per_player(&mut want, &e.crossing, "crossing score", |p| {
        game.crossing_score(p).to_string()
    });
    per_player(&mut want, &e.may_jaywalk, "may jaywalk", |p| {
        game.may_jaywalk(p).to_string()
    });
    if let Some(round) = e.light_round {
        want(
            "round of play",
            round.to_string(),
            game.light_round().to_string(),
        );
    }
    per_player(&mut want, &e.pool, "letters left to draw", |p| {
        game.pool_letters(p).len().to_string()
    });
    check_table(game, e, &mut problems);
    let events_text = format!("{events:?}");
    for needle in &e.events {
        if !events_text.contains(needle.as_str()) {
            problems.push(format!("events lack `{needle}`: {events_text}"));
        }
    }
    for needle in &e.messages {
        if !told.iter().any(|m| m.contains(needle.as_str())) {
            problems.push(format!("no message says `{needle}`: {told:?}"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n  "))
    }
}

/// The expectations of a scripted game's table.
fn check_table(game: &Game, e: &Expect, problems: &mut Vec<String>) {
    let mut want = |what: &str, expected: String, got: String| {
        if expected != got {
            problems.push(format!("{what}: expected {expected}, got {got}"));
        }
    };
    if let Some(rows) = &e.table {
        want(
            "table",
            format!("{rows:#?}"),
            format!("{:#?}", game.table().rows()),
        );
    }
    for (&p, rows) in &e.seen {
        let seen = game.table_for(Some(p)).rows();
        want(
            &format!("table as {p} sees it"),
            format!("{rows:#?}"),
            format!("{seen:#?}"),
        );
    }
    for (&p, lines) in &e.seen_pits {
        let view = game.table_for(Some(p));
        for line in lines {
            let Some((pit, _)) = line.split_once(':') else {
                want("a pit line", "OWNER PIT: VALUES".into(), line.clone());
                continue;
            };
            let mut words = pit.split_whitespace();
            let (owner, name) = (
                words.next().unwrap_or_default(),
                words.next().unwrap_or_default(),
            );
            let Some(owner) = Player::from_name(owner) else {
                want("a pit's owner", "a seat".into(), owner.to_string());
                continue;
            };
            let got = format!("{owner} {name}: {}", view.pit_text(owner, name));
            want(
                &format!("what {p} sees of {owner}'s {name} pit"),
                line.clone(),
                got,
            );
        }
    }
    for (&p, pits) in &e.pits {
        for (name, &count) in pits {
            let got = game.table().pit(p, name).count();
            want(
                &format!("{p}'s {name} pit"),
                count.to_string(),
                got.to_string(),
            );
        }
    }
    for (name, value) in &e.vars {
        let got = match game.table().var(name) {
            Some(crate::game::Var::Int(i)) => i.to_string(),
            Some(crate::game::Var::Text(t)) => t.clone(),
            Some(crate::game::Var::Bool(b)) => b.to_string(),
            None => "nothing".into(),
        };
        want(&format!("variable {name}"), value.clone(), got);
    }
    if let Some(seats) = &e.to_move {
        want(
            "to move",
            format!("{seats:?}"),
            format!("{:?}", game.choosing()),
        );
    }
    for (&p, moves) in &e.moves {
        let legal = game.legal_moves(p).unwrap_or_default();
        for m in moves {
            if !legal.contains(m) {
                problems.push(format!(
                    "{p} may not make {m:?} now; the legal moves: {legal:?}"
                ));
            }
        }
    }
}

fn sorted(letters: &str) -> String {
    let mut v: Vec<char> = letters.to_uppercase().chars().collect();
    v.sort_unstable();
    v.into_iter().collect()
}

fn board_rows(game: &Game) -> Vec<String> {
    let letters = &game.board().letters;
    (0..letters.height())
        .map(|y| {
            letters
                .row(y)
                .unwrap_or_default()
                .iter()
                .map(|t| match t {
                    Some(t) if t.player == Player::Gold => t.letter,
                    Some(t) => t.letter.to_ascii_lowercase(),
                    None => '.',
                })
                .collect()
        })
        .collect()
}

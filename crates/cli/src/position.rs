//! The whole position of a game as JSON for tools (`replay --json`), and a commit's combat
//! preview (`preview`, and `preview` in `play`): the same figures the editor shows.

use crate::board::{Owner, Player, Pos, Terrain};
use crate::game::describe::dir_name;
use crate::game::notation::{cell_name, parse_command};
use crate::game::strength::Strength;
use crate::game::{Action, Event, Game};
use serde::Serialize;

/// A cell as tools want it: its notation name and its file coordinates.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Cell {
    /// `D10`, as typed at the terminal.
    cell: String,
    /// Column, from 0 (map files' x).
    x: u32,
    /// Row, from 0 (map files' y).
    y: u32,
}

impl From<Pos> for Cell {
    fn from(p: Pos) -> Cell {
        Cell {
            cell: cell_name(p),
            x: p.x,
            y: p.y,
        }
    }
}

#[derive(Debug, Serialize)]
struct CityReport {
    id: String,
    name: String,
    at: Cell,
    owner: Owner,
    destroyed: bool,
}

#[derive(Debug, Serialize)]
struct TokenReport {
    id: String,
    kind: String,
    at: Cell,
    captured_by: Option<Player>,
}

#[derive(Debug, Serialize)]
struct WordReport {
    text: String,
    player: Player,
    start: Cell,
    dir: &'static str,
    cells: Vec<Cell>,
    valid: bool,
    connected: bool,
    face: i64,
    connotations: Vec<String>,
    /// The strength it defends with now, modifier by modifier (none for an invalid word).
    defence: Option<Strength>,
}

/// Everything on the board.
#[derive(Debug, Serialize)]
pub(super) struct Position {
    width: u32,
    height: u32,
    /// One string per row, one character per cell, in the map files' default legend.
    terrain: Vec<String>,
    /// Which character stands for which terrain in `terrain`.
    legend: Vec<(char, Terrain)>,
    cities: Vec<CityReport>,
    tokens: Vec<TokenReport>,
    words: Vec<WordReport>,
}

impl Position {
    pub(super) fn of(game: &Game) -> Position {
        let board = game.board();
        let terrain = board.terrain.rows();
        Position {
            width: board.terrain.width(),
            height: board.terrain.height(),
            terrain,
            legend: Terrain::ALL
                .iter()
                .map(|&t| (t.default_char(), t))
                .collect(),
            cities: board
                .cities
                .iter()
                .map(|c| CityReport {
                    id: c.id.to_string(),
                    name: c.name.to_string(),
                    at: c.at.into(),
                    owner: c.owner,
                    destroyed: c.destroyed,
                })
                .collect(),
            tokens: board
                .tokens
                .iter()
                .map(|t| TokenReport {
                    id: t.id.to_string(),
                    kind: t.kind.to_string(),
                    at: t.at.into(),
                    captured_by: t.captured_by,
                })
                .collect(),
            words: game
                .defence_strengths()
                .into_iter()
                .map(|(info, defence)| WordReport {
                    text: info.word.text.clone(),
                    player: info.word.player,
                    start: info.word.key.start.into(),
                    dir: dir_name(info.word.key.dir),
                    cells: info.word.key.cells().map(Cell::from).collect(),
                    valid: info.valid,
                    connected: info.connected,
                    face: info.face,
                    connotations: info.connotations,
                    defence,
                })
                .collect(),
        }
    }
}

/// One defending word in a preview.
#[derive(Debug, Serialize)]
struct DefenderReport {
    word: String,
    start: Cell,
    dir: &'static str,
    defence: Strength,
}

/// What a commit would lead to, worked out on a copy of the game.
#[derive(Debug, Serialize)]
pub(super) struct Preview {
    player: Player,
    word: String,
    /// The attack's strength, modifier by modifier (what it would attack with, even when it
    /// touches nothing).
    attack: Strength,
    defenders: Vec<DefenderReport>,
    /// `no combat`, `succeeds` or `repelled`.
    outcome: &'static str,
    /// The defending word that would hold, if one would.
    repelled_by: Option<String>,
    /// The defending words that would fall, in the order fought.
    defeated: Vec<String>,
    /// The attacker's gain in base score from the combat.
    gain: i64,
    /// Letters each side would lose.
    attacker_letters_lost: usize,
    defender_letters_lost: usize,
    /// How the defender's order is chosen in this preview.
    order: &'static str,
    /// Both scores after the commit (and, if the defender must choose, the automatic order).
    scores_after: Vec<(Player, i64)>,
    /// Whether the commit would end the game.
    ends_game: bool,
}

/// The preview of `command` (a commit in play notation, `commit` itself optional) for
/// whoever must act in `game`: strengths from the engine's preview, the outcome from playing
/// it on a copy with the defender's automatic order. Scripts' reactions to the commit are not
/// played out.
pub(super) fn preview(game: &Game, command: &str) -> Result<Preview, String> {
    let action = parse_command(game, command)
        .or_else(|first| parse_command(game, &format!("commit {command}")).map_err(|_| first))
        .map_err(|e| e.to_string())?;
    let Action::Commit { letters } = &action else {
        return Err(format!(
            "only a commit can be previewed (`commit H8 across SWORD`), not `{command}`"
        ));
    };
    let combat = game.preview_commit(letters).map_err(|e| e.to_string())?;
    let mut copy = game.clone();
    let mut events = copy.apply(action.clone()).map_err(|e| e.to_string())?;
    if copy.combat_pending() {
        events.extend(
            copy.apply(Action::Defend { order: None })
                .map_err(|e| e.to_string())?,
        );
    }
    let mut preview = Preview {
        player: game.active(),
        word: committed_word(&events),
        attack: combat.attack,
        defenders: combat
            .defenders
            .into_iter()
            .map(|(key, word, defence)| DefenderReport {
                word,
                start: key.start.into(),
                dir: dir_name(key.dir),
                defence,
            })
            .collect(),
        outcome: "no combat",
        repelled_by: None,
        defeated: Vec::new(),
        gain: 0,
        attacker_letters_lost: 0,
        defender_letters_lost: 0,
        order: "the defender's automatic order (fewest letters lost)",
        scores_after: Player::BOTH
            .iter()
            .map(|&p| (p, copy.score(p).total))
            .collect(),
        ends_game: copy.result().is_some(),
    };
    for event in &events {
        read_outcome(event, &mut preview);
    }
    Ok(preview)
}

fn committed_word(events: &[Event]) -> String {
    events
        .iter()
        .find_map(|e| match e {
            Event::WordCommitted { word, .. } => Some(word.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

fn read_outcome(event: &Event, preview: &mut Preview) {
    match event {
        Event::DefenderDefeated {
            word,
            removed,
            gain,
            ..
        } => {
            preview.defeated.push(word.clone());
            preview.gain += gain;
            preview.defender_letters_lost += removed.len();
        }
        Event::AttackRepelled { by, removed, .. } => {
            preview.outcome = "repelled";
            preview.repelled_by = Some(by.clone());
            preview.attacker_letters_lost += removed.len();
        }
        Event::AttackSucceeded { cleared } => {
            preview.outcome = "succeeds";
            preview.defender_letters_lost += cleared.len();
        }
        Event::IceBroke { removed, .. } => preview.attacker_letters_lost += removed.len(),
        _ => {}
    }
}

impl Preview {
    /// The preview in words, for the terminal.
    pub(super) fn describe(&self) -> String {
        let mut out = format!(
            "{} {} attacks with {}{}\n",
            self.player,
            self.word,
            self.attack.value,
            explain(&self.attack)
        );
        for d in &self.defenders {
            out.push_str(&format!(
                "  defends: {} at {} {}: {}{}\n",
                d.word,
                d.start.cell,
                d.dir,
                d.defence.value,
                explain(&d.defence)
            ));
        }
        let outcome = match (self.outcome, &self.repelled_by) {
            ("repelled", Some(by)) => format!(
                "repelled by {by}: {} of your letters lost",
                self.attacker_letters_lost
            ),
            ("succeeds", _) => format!(
                "succeeds: {}, {} enemy letters lost, +{} base score",
                match self.defeated.len() {
                    0 => "no word falls".to_string(),
                    1 => format!("{} falls", self.defeated[0]),
                    _ => format!("{} fall", self.defeated.join(", ")),
                },
                self.defender_letters_lost,
                self.gain
            ),
            _ => "no combat: the word touches no enemy letter".to_string(),
        };
        let scores: Vec<String> = self
            .scores_after
            .iter()
            .map(|(p, s)| format!("{p} {s}"))
            .collect();
        out.push_str(&format!(
            "  outcome ({}): {outcome}; scores after: {}{}\n",
            self.order,
            scores.join(", "),
            if self.ends_game {
                "; the game would end"
            } else {
                ""
            }
        ));
        out
    }
}

/// A strength's modifiers in words: ` (face 7, attacking x1.5, on water -1)`.
fn explain(strength: &Strength) -> String {
    use crate::game::strength::Modifier;
    let mut parts = vec![format!("face {}", strength.face)];
    for m in &strength.modifiers {
        parts.push(match m {
            Modifier::Mountain { letters, factor } => format!("{letters} on mountains x{factor}"),
            Modifier::Connotation { name, factor } => format!("{name} x{factor}"),
            Modifier::WaterAttack { factor } => format!("attacking from water x{factor}"),
            Modifier::OwnCity { factor } => format!("on its own city x{factor}"),
            Modifier::Disconnected { factor } => format!("disconnected x{factor}"),
            Modifier::WaterPenalty { amount } => format!("on water -{amount}"),
            Modifier::OwnCityBonus { amount } => format!("on its own city +{amount}"),
            Modifier::Script { id, factor } => format!("{id} x{factor}"),
            Modifier::RepelPenalty { amount } => format!("weakened by a repelled attack -{amount}"),
        });
    }
    format!(" ({})", parts.join(", "))
}

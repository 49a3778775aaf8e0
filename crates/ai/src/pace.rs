//! A person's pace for an AI seat that plays at once with people (simultaneous play): the AI
//! finds its crossword in milliseconds, a person takes minutes, and a game where one seat
//! calls green light every two seconds cannot be played. So a paced AI seat looks new tiles
//! over before it does anything, lays its crossword out a few letters at a time, each letter
//! taking its pace, and calls a light only once what it laid has taken its time. Its level
//! sets the pace (easy slowest), unless the match sets one (`flow.ai_letter_ms`, the
//! `ai_pace` setting).
//!
//! Whoever referees keeps the clock (a server, the editor, a terminal) and asks [`Pacer`]
//! with its own milliseconds; AIs playing only one another are not paced.

use crate::board::Player;
use crate::crossing::tiles_of;
use crate::game::{Action, Game, Placement};
use crate::player::{AiPlayer, Level};
use crate::rules::RuleSet;

/// Milliseconds a letter takes at each level, weakest first, when the match sets no pace.
const LEVEL_LETTER_MS: [u64; 3] = [5_000, 3_000, 2_000];

/// How many letters' time an AI takes to look new tiles over before it lays or calls anything.
const LOOK_LETTERS: u64 = 4;

/// Letters an AI lays in one go (about a word), then takes their time.
pub const LETTERS_AT_A_TIME: usize = 4;

/// How fast an AI seat plays at once with people.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// Milliseconds each letter it lays takes.
    pub letter_ms: u64,
}

impl Pace {
    /// The pace of an AI of `level` in a game of `rules`: the match's when it sets one
    /// (`flow.ai_letter_ms`), else the level's own.
    pub fn of(level: Level, rules: &RuleSet) -> Pace {
        let set = u64::try_from(rules.flow.ai_letter_ms).unwrap_or(0);
        let own = match level {
            Level::Easy => LEVEL_LETTER_MS[0],
            Level::Normal => LEVEL_LETTER_MS[1],
            Level::Hard => LEVEL_LETTER_MS[2],
        };
        Pace {
            letter_ms: if set > 0 { set } else { own },
        }
    }

    /// The pace `given` by whoever referees (a server's `--ai-letter-ms`, a test's), else
    /// [`Pace::of`].
    pub fn given_or_of(given: Option<u64>, level: Level, rules: &RuleSet) -> Pace {
        match given {
            Some(letter_ms) => Pace { letter_ms },
            None => Pace::of(level, rules),
        }
    }

    /// How long looking new tiles over takes.
    pub fn look_ms(self) -> u64 {
        self.letter_ms.saturating_mul(LOOK_LETTERS)
    }
}

/// One AI seat's clock in a game played at once with people: what it did when, from which
/// the pace it is given says when it may act next (a pace changed meanwhile counts at once).
#[derive(Clone, Debug, Default)]
pub struct Pacer {
    /// The seat's tiles (sorted) when last seen: tiles it had not are looked over first.
    tiles: Option<Vec<char>>,
    /// When it last saw tiles it had not, in the referee's milliseconds.
    new_tiles_at_ms: u64,
    /// When it last acted, and how many letters' time that takes.
    acted_at_ms: u64,
    acted_letters: u64,
}

impl Pacer {
    /// When `seat` may act next at `pace`, `game` seen at `now_ms`: tiles it did not have
    /// before (the first deal, a green light's draw, a jaywalk's) are looked over first, and
    /// what it laid last takes its letters' time.
    pub fn ready_at(&mut self, game: &Game, seat: Player, pace: Pace, now_ms: u64) -> u64 {
        let mut tiles = tiles_of(game, seat);
        tiles.sort_unstable();
        if self.tiles.as_ref() != Some(&tiles) {
            self.new_tiles_at_ms = now_ms;
            self.tiles = Some(tiles);
        }
        let looked = self.new_tiles_at_ms.saturating_add(pace.look_ms());
        let busy = pace.letter_ms.saturating_mul(self.acted_letters);
        looked.max(self.acted_at_ms.saturating_add(busy))
    }

    /// The seat did `action` at `now_ms`, `laid` being its letters on the board before: it
    /// is busy for the letters it laid or lifted, and a light or a jaywalk takes one letter's
    /// time.
    pub fn acted(&mut self, laid: &[Placement], action: &Action, now_ms: u64) {
        let letters = match action {
            Action::Layout { letters, .. } => letters_moved(laid, letters),
            _ => 1,
        };
        self.acted_at_ms = now_ms;
        self.acted_letters = letters.max(1) as u64;
    }

    /// What `ai`, playing `seat` at `pace`, does at `now_ms`: `Ok` an action to play now
    /// (its next few letters, a light, a jaywalk), or `Err` when to ask again (`None`: once
    /// the game changes, the AI waiting on the others). Once it is played, tell
    /// [`Pacer::acted`].
    pub fn choose(
        &mut self,
        ai: &mut AiPlayer,
        pace: Pace,
        game: &Game,
        seat: Player,
        now_ms: u64,
    ) -> Result<Action, Option<u64>> {
        let ready = self.ready_at(game, seat, pace, now_ms);
        if now_ms < ready {
            return Err(Some(ready));
        }
        match ai.choose_at_once(game, seat) {
            Some(wanted) => Ok(step_toward(game, seat, wanted)),
            None => Err(None),
        }
    }
}

/// Every AI seat's pacer at a table, by seat.
#[derive(Clone, Debug, Default)]
pub struct Pacers(Vec<Pacer>);

impl Pacers {
    /// `seat`'s pacer (a new one when it has none yet).
    pub fn seat(&mut self, seat: Player) -> &mut Pacer {
        if self.0.len() <= seat.index() {
            self.0.resize_with(seat.index() + 1, Pacer::default);
        }
        &mut self.0[seat.index()]
    }
}

/// How many letters a layout moves from `laid`: those it lays anew or lifts, the larger.
fn letters_moved(laid: &[Placement], layout: &[Placement]) -> usize {
    let added = layout.iter().filter(|p| !laid.contains(p)).count();
    let lifted = laid.iter().filter(|p| !layout.contains(p)).count();
    added.max(lifted)
}

/// `wanted` (what the AI chose at once for `seat`) as a person would do it next: a layout
/// becomes what is laid that it keeps and at most [`LETTERS_AT_A_TIME`] of the letters it
/// adds, each next to one laid before (the crossword grows as a person lays it); anything
/// else stays as it is.
pub fn step_toward(game: &Game, seat: Player, wanted: Action) -> Action {
    let Action::Layout { player, letters } = wanted else {
        return wanted;
    };
    let laid = game.laid_letters(seat);
    let mut next: Vec<Placement> = laid.into_iter().filter(|p| letters.contains(p)).collect();
    let mut to_add: Vec<Placement> = letters.into_iter().filter(|p| !next.contains(p)).collect();
    for _ in 0..LETTERS_AT_A_TIME {
        let joined = to_add
            .iter()
            .position(|p| next.iter().any(|q| touches(p, q)));
        let pick = match joined {
            Some(i) => i,
            None if to_add.is_empty() => break,
            None => 0,
        };
        next.push(to_add.remove(pick));
    }
    Action::Layout {
        player,
        letters: next,
    }
}

/// Whether two placements are on cells side by side.
fn touches(a: &Placement, b: &Placement) -> bool {
    a.at.x.abs_diff(b.at.x) + a.at.y.abs_diff(b.at.y) == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;

    fn at(x: u32, y: u32, letter: char) -> Placement {
        Placement {
            at: Pos::new(x, y),
            letter,
        }
    }

    #[test]
    fn a_level_sets_the_pace_unless_the_match_does() {
        let mut rules = RuleSet::preset("classic").unwrap();
        let paces: Vec<u64> = Level::ALL
            .iter()
            .map(|&l| Pace::of(l, &rules).letter_ms)
            .collect();
        assert_eq!(paces, LEVEL_LETTER_MS);
        rules.flow.ai_letter_ms = 1_500;
        for level in Level::ALL {
            assert_eq!(Pace::of(level, &rules).letter_ms, 1_500);
        }
        assert_eq!(
            Pace::of(Level::Hard, &rules).look_ms(),
            1_500 * LOOK_LETTERS
        );
    }

    #[test]
    fn letters_moved_counts_the_larger_of_laid_and_lifted() {
        let laid = [at(0, 0, 'C'), at(1, 0, 'A'), at(2, 0, 'T')];
        for (layout, moved) in [
            (vec![at(0, 0, 'C'), at(1, 0, 'A'), at(2, 0, 'T')], 0),
            (
                vec![at(0, 0, 'C'), at(1, 0, 'A'), at(2, 0, 'T'), at(0, 1, 'O')],
                1,
            ),
            (vec![at(0, 0, 'C')], 2),
            (vec![at(5, 5, 'C'), at(5, 6, 'A')], 3),
        ] {
            assert_eq!(letters_moved(&laid, &layout), moved, "{layout:?}");
        }
    }
}

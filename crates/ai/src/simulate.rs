//! Balance simulation: AI against AI on a map over many seeds, in parallel, and what the games
//! say about the map (who wins from which seat, by how much, and what decided it).
//!
//! Game `i` is played with seed `first_seed + i`; the AIs (one a seat) move round the table
//! one seat each game (two swap every other game), so a seat's advantage and an AI's strength
//! can be told apart. Where the rules make a match of
//! several rounds, a "game" is a whole match: its winner is the match's, its scores the totals.

use super::player::{AiPlayer, Level};
use super::table::AiTable;
use super::think::Think;
use crate::board::Player;
use crate::game::{Event, Game};
use crate::lexicon::Lexicon;
use crate::map::Map;
use crate::rules::RuleSet;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;

/// What to simulate.
#[derive(Clone)]
pub struct Setup {
    /// The map.
    pub map: Arc<Map>,
    /// Its rules.
    pub rules: RuleSet,
    /// The dictionary.
    pub lexicon: Arc<Lexicon>,
    /// The AIs, one a seat: in game `i`, seat `s` is played by `levels[(s + i) % n]` (two AIs
    /// swap seats every other game).
    pub levels: Vec<Level>,
    /// How long each AI of `levels` thinks a move, in the same order (one AI past the list:
    /// not at all); only the hard level uses it.
    pub thinks: Vec<Think>,
    /// The first game's seed.
    pub first_seed: u64,
    /// How many games.
    pub games: usize,
    /// Actions after which a game is stopped and counted as unfinished.
    pub max_actions: usize,
    /// How a game of the setup begins when its scripts make it (a scripted game's rules are
    /// its Lua): the game for a seed, or why it cannot start. `None`: `Game::new`.
    pub start: Option<Starter>,
}

/// The game a seed begins (see `Setup::start`).
pub type Starter = Arc<dyn Fn(u64) -> Result<Box<dyn Simulated>, String> + Send + Sync>;

/// A game as a simulation plays it: the engine's alone, or one whose level's scripts take
/// part (their handlers award points, their tokens act, their win conditions end it), so that
/// the figures are those of the game players play.
pub trait Simulated {
    /// The game as it stands.
    fn game(&self) -> &Game;
    /// Plays `action`, with whatever takes part in the game; its events, or why it was
    /// refused.
    fn apply(&mut self, action: crate::game::Action) -> Result<Vec<Event>, String>;
    /// The match's next round, when the rules make one: the game it begins, or why it
    /// cannot.
    fn next_round(&self) -> Option<Result<Box<dyn Simulated>, String>>;
}

impl Simulated for Game {
    fn game(&self) -> &Game {
        self
    }

    fn apply(&mut self, action: crate::game::Action) -> Result<Vec<Event>, String> {
        Game::apply(self, action).map_err(|e| e.to_string())
    }

    fn next_round(&self) -> Option<Result<Box<dyn Simulated>, String>> {
        self.next_round_game()
            .map(|next| next.map(|g| Box::new(g) as Box<dyn Simulated>))
    }
}

/// How one game went.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Its number in the batch, from 0 (odd games seat the AIs the other way round).
    pub index: usize,
    /// Its seed.
    pub seed: u64,
    /// The AI playing each seat, gold's first.
    pub seats: Vec<Level>,
    /// The winner (`None`: a draw or unfinished).
    pub winner: Option<Player>,
    /// Why it ended (`unfinished` if stopped; in a match, how each round ended, joined by
    /// ` / `).
    pub reason: String,
    /// Turns played (in a match, in every round; in simultaneous play, rounds of play).
    pub turns: u32,
    /// Final scores by seat (in a match, the totals, which may hold half points; under
    /// crossing scores, each as a number).
    pub scores: Vec<f64>,
    /// Rounds played (1 for a single game).
    pub rounds: usize,
    /// How each round ended (one for a single game).
    pub endings: Vec<String>,
    /// Cities captured by each seat.
    pub captures: Vec<u32>,
    /// Tokens invoked by each seat.
    pub tokens: Vec<u32>,
}

fn seat(player: Player) -> usize {
    player.index()
}

/// Which of the setup's `ais` AIs sits in seat `s` in game `index`: they move round the table
/// a seat a game.
fn ai_in_seat(s: usize, index: usize, ais: usize) -> usize {
    (s + index) % ais.max(1)
}

/// The AIs' levels in game `index`, one a seat.
fn seating(levels: &[Level], index: usize) -> Vec<Level> {
    (0..levels.len())
        .map(|s| levels[ai_in_seat(s, index, levels.len())])
        .collect()
}

/// The AI players of game `index`, one a seat, each with its level and think time.
fn players_of(setup: &Setup, index: usize, seed: u64) -> AiTable {
    let ais = setup.levels.len();
    let think_of = |a: usize| setup.thinks.get(a).copied().unwrap_or_default();
    let player = |s: usize| {
        let a = ai_in_seat(s, index, ais);
        AiPlayer::new(setup.levels[a], seed).thinking(think_of(a))
    };
    AiTable::new((0..ais).map(player).collect())
}

/// Which seat the setup's AI `a` had in game `index` (see `seating`).
fn seat_of(a: usize, index: usize, seats: usize) -> usize {
    let n = seats.max(1);
    (a + n - index % n) % n
}

/// Plays game `index` of the setup to its end (or the action limit).
pub fn play_one(setup: &Setup, index: usize) -> GameRecord {
    let seed = setup.first_seed.wrapping_add(index as u64);
    let seats = seating(&setup.levels, index);
    let mut game: Box<dyn Simulated> = match &setup.start {
        Some(start) => match start(seed) {
            Ok(game) => game,
            Err(reason) => return GameRecord::not_started(index, seed, seats, reason),
        },
        None => {
            let mut game = Game::new(&setup.map, setup.rules.clone(), setup.lexicon.clone(), seed);
            // The AI's spy judges whether a player can make a word, as in every game the
            // toolkit starts (a starter's games have it from where they are made).
            game.set_advisor(crate::spy());
            Box::new(game)
        }
    };
    let mut players = players_of(setup, index, seed);
    let mut tally = Tally::new(seats.len());
    let mut endings = Vec::new();
    loop {
        tally.play_round(setup, game.as_mut(), &mut players);
        endings.push(match game.game().result() {
            Some(r) => reason_name(&r.reason),
            None => "unfinished".to_string(),
        });
        let next = match game.next_round() {
            None => break,
            Some(Ok(next)) => next,
            Some(Err(reason)) => {
                endings.push(format!("not started: {reason}"));
                break;
            }
        };
        tally.turns += game_length(game.game());
        game = next;
    }
    let game = game.game();
    tally.turns += game_length(game);
    let rounds = game.rounds_with_this();
    let score = crate::game::MatchScore::new(&setup.rules.series, &rounds);
    let (winner, scores) = match score.outcome() {
        Some(outcome) if score.is_match() => {
            let half = |seat: usize| outcome.totals.get(seat).map_or(0.0, |&t| t as f64 / 2.0);
            (outcome.winner, (0..seats.len()).map(half).collect())
        }
        _ => (
            game.result().and_then(|r| r.winner),
            game.seats().map(|p| final_score(game, p)).collect(),
        ),
    };
    GameRecord {
        index,
        seed,
        seats,
        winner,
        reason: endings.join(" / "),
        endings,
        turns: tally.turns,
        scores,
        rounds: rounds.len().max(1),
        captures: tally.captures,
        tokens: tally.tokens,
    }
}

impl GameRecord {
    /// A game that could not start, and why.
    fn not_started(index: usize, seed: u64, seats: Vec<Level>, reason: String) -> GameRecord {
        let n = seats.len();
        GameRecord {
            index,
            seed,
            seats,
            winner: None,
            reason: format!("not started: {reason}"),
            endings: vec!["unfinished".into()],
            turns: 0,
            scores: vec![0.0; n],
            rounds: 1,
            captures: vec![0; n],
            tokens: vec![0; n],
        }
    }
}

/// How long `game` was: its turns, or in simultaneous play its rounds (green lights and one).
fn game_length(game: &Game) -> u32 {
    if game.rules().flow.simultaneous {
        game.light_round()
    } else {
        game.turn()
    }
}

/// `player`'s score as the rules count it: the total, or the crossing score as a number.
fn final_score(game: &Game, player: Player) -> f64 {
    match game.rules().crossword.scoring {
        crate::rules::Scoring::CrossingRatio => game.crossing_score(player).value(),
        _ => game.score(player).total as f64,
    }
}

/// What the rounds of one simulated game added up to.
struct Tally {
    turns: u32,
    captures: Vec<u32>,
    tokens: Vec<u32>,
}

impl Tally {
    fn new(seats: usize) -> Tally {
        Tally {
            turns: 0,
            captures: vec![0; seats],
            tokens: vec![0; seats],
        }
    }

    /// Plays `game` to its end (or the action limit), counting captures and tokens.
    fn play_round(&mut self, setup: &Setup, game: &mut dyn Simulated, players: &mut AiTable) {
        while game.game().log().len() < setup.max_actions {
            // No AI acting: the game is over, or nobody can go on (unfinished).
            let Some(action) = players.next_action(game.game()) else {
                break;
            };
            let events = match game.apply(action) {
                Ok(events) => events,
                // An AI's refused action would be a bug; ending the turn keeps the game going.
                Err(_) => match game.apply(crate::game::Action::EndTurn) {
                    Ok(events) => events,
                    Err(_) => break,
                },
            };
            for e in &events {
                match e {
                    Event::CityCaptured { player, .. } => add(&mut self.captures, *player),
                    Event::TokenInvoked { player, .. } => add(&mut self.tokens, *player),
                    _ => {}
                }
            }
        }
    }
}

/// Counts one for `player` in `per_seat`.
fn add(per_seat: &mut [u32], player: Player) {
    if let Some(n) = per_seat.get_mut(seat(player)) {
        *n += 1;
    }
}

fn reason_name(reason: &crate::game::EndReason) -> String {
    use crate::game::EndReason;
    match reason {
        EndReason::Conquest { .. } => "conquest".into(),
        EndReason::Exhaustion { .. } => "exhaustion".into(),
        EndReason::Stalemate => "stalemate".into(),
        EndReason::Forfeit { .. } => "forfeit".into(),
        EndReason::NoWord { .. } => "no word".into(),
        EndReason::SuddenDeath { won: true, .. } => "sudden death won".into(),
        EndReason::SuddenDeath { won: false, .. } => "sudden death lost".into(),
        EndReason::Script { reason } => format!("script: {reason}"),
        EndReason::RedLight { .. } => "red light".into(),
        EndReason::OutOfTime { .. } => "out of time".into(),
    }
}

/// Plays every game of the setup on all cores; `done` is called as each game ends. The
/// records come back in game order, whatever order the games finished in.
pub fn run(setup: &Setup, done: &(dyn Fn(&GameRecord) + Sync)) -> Vec<GameRecord> {
    (0..setup.games)
        .into_par_iter()
        .map(|i| {
            let record = play_one(setup, i);
            done(&record);
            record
        })
        .collect()
}

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct Rate {
    /// Successes.
    pub count: usize,
    /// Trials.
    pub of: usize,
    /// `count / of`.
    pub rate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Rate {
    /// `count` of `of`, with its interval.
    pub fn new(count: usize, of: usize) -> Rate {
        if of == 0 {
            return Rate {
                count,
                of,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (low, high) = wilson(count as f64, of);
        Rate {
            count,
            of,
            rate: count as f64 / of as f64,
            low,
            high,
        }
    }
}

/// The 95% Wilson score interval of `successes` (a draw may count a half) in `of` trials.
pub fn wilson(successes: f64, of: usize) -> (f64, f64) {
    if of == 0 {
        return (0.0, 1.0);
    }
    let n = of as f64;
    let p = successes / n;
    let z = 1.959_963_984_540_054_f64;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// What a batch of games says.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Wins by each seat (gold, who moves first, then silver...).
    pub seat_wins: Vec<Rate>,
    /// Wins by each AI named, in the order named, whichever seat it had.
    pub ai_wins: Vec<Rate>,
    /// Draws, and games stopped unfinished.
    pub draws: usize,
    /// Games stopped at the action limit.
    pub unfinished: usize,
    /// Average final score of each seat.
    pub average_scores: Vec<f64>,
    /// Average final score of each AI named.
    pub average_ai_scores: Vec<f64>,
    /// Average turns per game.
    pub average_turns: f64,
    /// How games ended (in matches, each round): reason and count, most common first.
    pub endings: Vec<(String, usize)>,
    /// Games won by the player who captured more cities, of the games with a winner.
    pub decided_by_captures: Rate,
    /// Average tokens invoked per game.
    pub average_tokens: f64,
}

/// Sums up `records` of games between `levels`.
pub fn report(records: &[GameRecord]) -> Report {
    let n = records.len();
    let avg = |f: &dyn Fn(&GameRecord) -> f64| {
        if n == 0 {
            0.0
        } else {
            records.iter().map(f).sum::<f64>() / n as f64
        }
    };
    let seats = records.iter().map(|r| r.seats.len()).max().unwrap_or(2);
    let seat_wins: Vec<Rate> = (0..seats)
        .map(|s| {
            Rate::new(
                records
                    .iter()
                    .filter(|r| r.winner.map(seat) == Some(s))
                    .count(),
                n,
            )
        })
        .collect();
    // Which seat the AI `a` had in a game.
    let seat_of = |r: &GameRecord, a: usize| seat_of(a, r.index, r.seats.len());
    let ai_wins: Vec<Rate> = (0..seats)
        .map(|a| {
            Rate::new(
                records
                    .iter()
                    .filter(|r| r.winner.is_some_and(|w| seat(w) == seat_of(r, a)))
                    .count(),
                n,
            )
        })
        .collect();
    let score_of = |r: &GameRecord, s: usize| r.scores.get(s).copied().unwrap_or(0.0);
    let mut endings: Vec<(String, usize)> = Vec::new();
    // A match's rounds each count their own ending.
    for ending in records.iter().flat_map(|r| &r.endings) {
        match endings.iter_mut().find(|(reason, _)| reason == ending) {
            Some((_, count)) => *count += 1,
            None => endings.push((ending.clone(), 1)),
        }
    }
    endings.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let won: Vec<&GameRecord> = records.iter().filter(|r| r.winner.is_some()).collect();
    let by_captures = won
        .iter()
        .filter(|r| {
            let w = r.winner.map(seat).unwrap_or(0);
            let most_of_others = (0..r.captures.len())
                .filter(|&s| s != w)
                .map(|s| r.captures[s])
                .max()
                .unwrap_or(0);
            r.captures.get(w).is_some_and(|&c| c > most_of_others)
        })
        .count();
    Report {
        games: n,
        seat_wins,
        ai_wins,
        draws: records
            .iter()
            .filter(|r| r.winner.is_none() && r.reason != "unfinished")
            .count(),
        unfinished: records.iter().filter(|r| r.reason == "unfinished").count(),
        average_scores: (0..seats).map(|s| avg(&|r| score_of(r, s))).collect(),
        average_ai_scores: (0..seats)
            .map(|a| avg(&|r| score_of(r, seat_of(r, a))))
            .collect(),
        average_turns: avg(&|r| f64::from(r.turns)),
        endings,
        decided_by_captures: Rate::new(by_captures, won.len()),
        average_tokens: avg(&|r| f64::from(r.tokens.iter().sum::<u32>())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_the_textbook() {
        // 50 of 100: 0.404 to 0.596; 0 of 10: 0 to 0.278.
        for (count, of, low, high) in [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775)] {
            let r = Rate::new(count, of);
            assert!((r.low - low).abs() < 1e-3, "{r:?}");
            assert!((r.high - high).abs() < 1e-3, "{r:?}");
        }
    }
}

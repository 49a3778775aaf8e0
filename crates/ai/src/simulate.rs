//! Balance simulation: AI against AI on a map over many seeds, in parallel, and what the games
//! say about the map (who wins from which seat, by how much, and what decided it).
//!
//! Game `i` is played with seed `first_seed + i`; the two AIs swap seats every other game, so
//! a seat's advantage and an AI's strength can be told apart. Where the rules make a match of
//! several rounds, a "game" is a whole match: its winner is the match's, its scores the totals.

use super::player::{AiPlayer, Level};
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
    /// The two AIs: the first plays gold in even-numbered games, silver in odd ones.
    pub levels: [Level; 2],
    /// The first game's seed.
    pub first_seed: u64,
    /// How many games.
    pub games: usize,
    /// Actions after which a game is stopped and counted as unfinished.
    pub max_actions: usize,
}

/// How one game went.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Its number in the batch, from 0 (odd games seat the AIs the other way round).
    pub index: usize,
    /// Its seed.
    pub seed: u64,
    /// The AI playing gold, and silver.
    pub seats: [Level; 2],
    /// The winner (`None`: a draw or unfinished).
    pub winner: Option<Player>,
    /// Why it ended (`unfinished` if stopped; in a match, how each round ended, joined by
    /// ` / `).
    pub reason: String,
    /// Turns played (in a match, in every round).
    pub turns: u32,
    /// Final scores, gold and silver (in a match, the totals, which may hold half points).
    pub scores: [f64; 2],
    /// Rounds played (1 for a single game).
    pub rounds: usize,
    /// How each round ended (one for a single game).
    pub endings: Vec<String>,
    /// Cities captured by gold and by silver.
    pub captures: [u32; 2],
    /// Tokens invoked by gold and by silver.
    pub tokens: [u32; 2],
}

fn seat(player: Player) -> usize {
    player.in_pair()
}

/// Plays game `index` of the setup to its end (or the action limit).
pub fn play_one(setup: &Setup, index: usize) -> GameRecord {
    let seed = setup.first_seed.wrapping_add(index as u64);
    let seats = if index % 2 == 0 {
        setup.levels
    } else {
        [setup.levels[1], setup.levels[0]]
    };
    let mut game = Game::new(&setup.map, setup.rules.clone(), setup.lexicon.clone(), seed);
    // The AI's spy judges whether a player can make a word, as in every game the toolkit starts.
    game.set_advisor(crate::spy());
    let mut players = seats.map(|level| AiPlayer::new(level, seed));
    let mut tally = Tally::default();
    let mut endings = Vec::new();
    loop {
        tally.play_round(setup, &mut game, &mut players);
        endings.push(match game.result() {
            Some(r) => reason_name(&r.reason),
            None => "unfinished".to_string(),
        });
        let Some(next) = game.next_round_game() else {
            break;
        };
        tally.turns += game.turn();
        game = next;
    }
    tally.turns += game.turn();
    let rounds = game.rounds_with_this();
    let score = crate::game::MatchScore::new(&setup.rules.series, &rounds);
    let (winner, scores) = match score.outcome() {
        Some(outcome) if score.is_match() => {
            let half = |seat: usize| outcome.totals.get(seat).map_or(0.0, |&t| t as f64 / 2.0);
            (outcome.winner, [half(0), half(1)])
        }
        _ => (
            game.result().and_then(|r| r.winner),
            Player::BOTH.map(|p| game.score(p).total as f64),
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

/// What the rounds of one simulated game added up to.
#[derive(Default)]
struct Tally {
    turns: u32,
    captures: [u32; 2],
    tokens: [u32; 2],
}

impl Tally {
    /// Plays `game` to its end (or the action limit), counting captures and tokens.
    fn play_round(&mut self, setup: &Setup, game: &mut Game, players: &mut [AiPlayer; 2]) {
        while game.result().is_none() && game.log().len() < setup.max_actions {
            let acting = seat(game.to_act());
            let action = players[acting].choose(game);
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
                    Event::CityCaptured { player, .. } => self.captures[seat(*player)] += 1,
                    Event::TokenInvoked { player, .. } => self.tokens[seat(*player)] += 1,
                    _ => {}
                }
            }
        }
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
        let n = of as f64;
        let p = count as f64 / n;
        let z = 1.959_963_984_540_054_f64;
        let z2n = z * z / n;
        let centre = (p + z2n / 2.0) / (1.0 + z2n);
        let half = z * (p * (1.0 - p) / n + z2n / (4.0 * n)).sqrt() / (1.0 + z2n);
        Rate {
            count,
            of,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

/// What a batch of games says.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Wins by the gold seat (who moves first) and by the silver seat.
    pub seat_wins: [Rate; 2],
    /// Wins by the first AI named and by the second, whichever seat they had.
    pub ai_wins: [Rate; 2],
    /// Draws, and games stopped unfinished.
    pub draws: usize,
    /// Games stopped at the action limit.
    pub unfinished: usize,
    /// Average final score of gold and silver.
    pub average_scores: [f64; 2],
    /// Average final score of the first AI and the second.
    pub average_ai_scores: [f64; 2],
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
    let seat_wins =
        Player::BOTH.map(|p| Rate::new(records.iter().filter(|r| r.winner == Some(p)).count(), n));
    // Which seat the AI `a` (0 or 1) had in a game.
    let seat_of = |r: &GameRecord, a: usize| {
        if r.index % 2 == 1 { 1 - a } else { a }
    };
    let ai_wins = [0, 1].map(|a| {
        Rate::new(
            records
                .iter()
                .filter(|r| r.winner.is_some_and(|w| seat(w) == seat_of(r, a)))
                .count(),
            n,
        )
    });
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
            r.captures[w] > r.captures[1 - w]
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
        average_scores: [0, 1].map(|s| avg(&|r| r.scores[s])),
        average_ai_scores: [0, 1].map(|a| avg(&|r| r.scores[seat_of(r, a)])),
        average_turns: avg(&|r| f64::from(r.turns)),
        endings,
        decided_by_captures: Rate::new(by_captures, won.len()),
        average_tokens: avg(&|r| f64::from(r.tokens[0] + r.tokens[1])),
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

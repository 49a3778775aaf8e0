//! Words for people: what an event means and how a game ended, for the terminal
//! game, replays and logs.

use super::notation::cell_name;
use super::{EndReason, Event, GameResult};
use crate::board::{Player, Pos};

fn cells(list: &[Pos]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    list.iter()
        .map(|&p| cell_name(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Half points as people write them: `12`, `12.5`.
pub fn half_points(halves: i64) -> String {
    if halves % 2 == 0 {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

/// What the end of `game` awarded, in words (`points awarded: gold 12.5, silver 12.5`), if
/// it awards anything.
pub fn describe_award(game: &super::Game) -> Option<String> {
    game.final_award().map(award_words)
}

/// An award (gold's, silver's half points) in words.
fn award_words(award: [i64; 2]) -> String {
    format!("points awarded: {}", both_points(&award))
}

/// Letters drawn, or how many when they are hidden from the reader.
fn letters_drawn(letters: &str) -> String {
    if letters.chars().all(|c| c == super::HIDDEN_LETTER) {
        let n = letters.chars().count();
        format!("{n} letter{}", if n == 1 { "" } else { "s" })
    } else {
        letters.to_string()
    }
}

/// One line saying what `event` means.
pub fn describe(event: &Event) -> String {
    match event {
        Event::TurnStarted { player, turn, drew } if drew.is_empty() => {
            format!("turn {turn}: {player} to play")
        }
        Event::TurnStarted { player, turn, drew } => {
            format!(
                "turn {turn}: {player} to play, drew {}",
                letters_drawn(drew)
            )
        }
        Event::ForestCut { cells: c } => format!("the forest at {} is cut down", cells(c)),
        Event::WordCommitted { player, word, key } => format!(
            "{player} plays {word} at {} {}",
            cell_name(key.start),
            dir_name(key.dir)
        ),
        Event::CombatStarted {
            attack, defenders, ..
        } => {
            let d: Vec<String> = defenders
                .iter()
                .map(|(_, w, s)| format!("{w} {}", s.value))
                .collect();
            format!(
                "attack {} against {}",
                attack.value,
                if d.is_empty() {
                    "loose letters".into()
                } else {
                    d.join(", ")
                }
            )
        }
        Event::DefenceOrderNeeded { defender, .. } => {
            format!("{defender} must order the defence (defend WORD ... or defend auto)")
        }
        Event::DefenderDefeated {
            word,
            attack_left,
            removed,
            gain,
            ..
        } => {
            format!(
                "{word} falls (letters lost: {}); attack left {attack_left}; attacker gains {gain}",
                cells(removed)
            )
        }
        Event::AttackRepelled { by, penalty, .. } if *penalty > 0 => format!(
            "{by} repels the attack and is weakened by {penalty} until the attacker's turn ends"
        ),
        Event::AttackRepelled { by, .. } => {
            format!("{by} repels the attack; the attacking letters are lost")
        }
        Event::AttackSucceeded { cleared } => {
            format!("the attack succeeds; cleared: {}", cells(cleared))
        }
        Event::IceBroke { cells: c, removed } => format!(
            "the ice gives way at {}; letters lost: {}",
            cells(c),
            cells(removed)
        ),
        Event::TokenCaptured {
            player,
            token,
            kind,
        } => format!("{player} captures the {kind} token `{token}`"),
        Event::CityCaptured {
            player,
            city,
            from,
            bonus,
        } => format!("{player} takes {city} from {} (+{bonus})", from.name()),
        Event::TokenInvoked {
            player,
            kind,
            terrain,
            removed,
            cities_lost,
            messages,
            ..
        } => format!(
            "{player} invokes {kind}: {} cells change, letters lost: {}{}{}",
            terrain.len(),
            cells(removed),
            if cities_lost.is_empty() {
                String::new()
            } else {
                format!(", cities destroyed: {}", cities_lost.join(", "))
            },
            // A token's messages are its script's: marked as told, never as the game's lines.
            messages
                .iter()
                .map(|m| format!("\n  \u{bb} {m}"))
                .collect::<String>()
        ),
        Event::WordLifted {
            player,
            word,
            returned,
        } => format!("{player} lifts {word}; {returned} back to the rack"),
        Event::Discarded { player, letters } => format!("{player} discards {letters}"),
        Event::Drew { player, letters } => format!("{player} draws {}", letters_drawn(letters)),
        Event::Exchanged {
            player,
            count,
            opponent_gain,
            ..
        } => format!(
            "{player} trades {} back into the pool and draws as many; the opponent scores {opponent_gain}",
            crate::diag::counted(*count, "letter")
        ),
        Event::SuddenDeathCalled { caller, hand } => format!(
            "{caller} calls sudden death, offering the hand {hand}: {} accepts or refuses",
            super::opponent(*caller)
        ),
        Event::SuddenDeathAnswered {
            taker,
            accepted: true,
        } => format!(
            "{taker} accepts sudden death: the hand is theirs, and every turn until they use every tile or cannot"
        ),
        Event::SuddenDeathAnswered {
            taker,
            accepted: false,
        } => format!("{taker} refuses sudden death: play goes on"),
        Event::LaidOut {
            player,
            placed,
            on_rack,
        } => {
            format!("{player} lays out a crossword of {placed} letters, {on_rack} left on the rack")
        }
        Event::GreenLight {
            player,
            round,
            caller_waits,
        } => {
            let wait = if *caller_waits {
                format!(" ({player}'s once everyone else has laid out)")
            } else {
                String::new()
            };
            format!("{player} calls green light: round {round}, every player draws{wait}")
        }
        Event::RedLight {
            player,
            grace_seconds,
        } => format!(
            "{player} calls red light: the others have {grace_seconds} s to finish their crosswords"
        ),
        Event::Jaywalked { player } => {
            format!("{player} jaywalks: a letter back to the pool, one drawn")
        }
        Event::Moved { .. }
        | Event::PieceMoved { .. }
        | Event::PieceShown { .. }
        | Event::PieceHidden { .. }
        | Event::ChoicesRevealed { .. }
        | Event::Said { .. } => super::table_words::describe_table_event(event),
        Event::Reloaded { what } => format!("{what} reloaded"),
        Event::SpyReport { letters } => {
            let placed: Vec<String> = letters
                .iter()
                .map(|p| format!("{}={}", cell_name(p.at), p.letter))
                .collect();
            format!("the spy suggests: commit {}", placed.join(" "))
        }
        Event::TurnEnded {
            player,
            passed: true,
        } => format!("{player} passes"),
        Event::TurnEnded { player, .. } => format!("{player} ends the turn"),
        Event::GameOver { result, award } => match award {
            Some(award) => format!("{}; {}", describe_result(result), award_words(*award)),
            None => describe_result(result),
        },
    }
}

/// `across` or `down`.
pub fn dir_name(dir: crate::map::Direction) -> &'static str {
    match dir {
        crate::map::Direction::Across => "across",
        crate::map::Direction::Down => "down",
    }
}

/// How a game ended, in words.
pub fn describe_result(result: &GameResult) -> String {
    let why = end_reason(result);
    let names: Vec<String> = match &result.reason {
        EndReason::RedLight { shared, .. } => shared.iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    };
    if let Some((last, others)) = names.split_last()
        && !others.is_empty()
    {
        return format!(
            "game over: {} and {last} share the win ({why})",
            others.join(", ")
        );
    }
    match result.winner {
        Some(w) => format!("game over: {w} wins ({why})"),
        None => format!("game over: a draw ({why})"),
    }
}

/// Why a game ended, in words (`silver holds no city`), without who won.
pub fn end_reason(result: &GameResult) -> String {
    match &result.reason {
        // Under classic rules a conquest ends the game and the higher score wins, which may
        // be the player left without a city: said so, it does not read as a mistake.
        EndReason::Conquest { loser } if result.winner == Some(*loser) => {
            format!("{loser} holds no city, but the higher score wins")
        }
        EndReason::Conquest { loser } => format!("{loser} holds no city"),
        EndReason::Exhaustion { player } => format!("{player} has no letters left"),
        EndReason::Stalemate => "both pools are empty and the players passed".to_string(),
        EndReason::Forfeit { loser } => format!("{loser} forfeits"),
        EndReason::NoWord { player } => format!(
            "{player} can make no word and {} has no letters left",
            super::opponent(*player)
        ),
        EndReason::SuddenDeath { taker, won: true } => {
            format!("{taker} used every tile in sudden death")
        }
        EndReason::SuddenDeath { taker, won: false } => {
            format!("{taker} could not use every tile in sudden death")
        }
        EndReason::OutOfTime { loser } => format!("{loser} ran out of time for a move"),
        EndReason::Script { reason } => reason.clone(),
        EndReason::RedLight { caller, .. } => {
            format!("the grace period after {caller}'s red light is over")
        }
    }
}

/// `player`'s score in words, as the rules count it: `score 12 (words 12, base 0)`, or under
/// `CrossingRatio` `score 9/4 = 2.25 (crossing points 9 over 3 words and 1 left over)`.
pub fn score_words(game: &super::Game, player: Player) -> String {
    if game.rules().crossword.scoring == crate::rules::Scoring::CrossingRatio {
        let c = game.crossing_score(player);
        let plural = |n: i64| if n == 1 { "" } else { "s" };
        return format!(
            "score {c} (crossing points {} over {} word{} and {} left over)",
            c.points,
            c.words,
            plural(c.words),
            c.leftovers
        );
    }
    let score = game.score(player);
    format!(
        "score {} (words {}, base {})",
        score.total, score.word, score.base
    )
}

/// Each seat's points (half points) in words: `gold 12.5, silver 3`.
fn both_points(points: &[i64]) -> String {
    let said: Vec<String> = points
        .iter()
        .enumerate()
        .filter_map(|(i, &p)| Some(format!("{} {}", Player::seat(i)?, half_points(p))))
        .collect();
    said.join(", ")
}

/// Where the match stands in `game`'s round, if the rules make a match: `round 2 of 3; match:
/// gold 12.5, silver 3` while it is played; once it has ended, what it added, and once the last
/// round has ended, who won the match.
pub fn describe_match(game: &super::Game) -> Option<String> {
    let before = game.match_before();
    if !before.is_match() {
        return None;
    }
    let Some(round) = game.round_result() else {
        return Some(format!(
            "round {} of {}; match: {}",
            game.round_number(),
            before.rounds(),
            both_points(&before.totals())
        ));
    };
    let rounds = game.rounds_with_this();
    let after = super::MatchScore::new(&game.rules().series, &rounds);
    let mut text = format!(
        "round {} of {} adds {}; match: {}",
        game.round_number(),
        after.rounds(),
        both_points(&round.points),
        both_points(&after.totals())
    );
    if let Some(outcome) = after.outcome() {
        text.push_str(&match outcome.winner {
            Some(winner) => format!("\nthe match is over: {winner} wins it"),
            None => "\nthe match is over: a draw, the totals are equal".to_string(),
        });
    } else {
        let first = after.next_first();
        text.push_str(&format!("\n{first} starts round {}", rounds.len() + 1));
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Player;

    #[test]
    fn a_conquest_won_on_points_says_so() {
        let on_points = GameResult {
            winner: Some(Player::Silver),
            reason: EndReason::Conquest {
                loser: Player::Silver,
            },
        };
        assert_eq!(
            describe_result(&on_points),
            "game over: silver wins (silver holds no city, but the higher score wins)"
        );
        let outright = GameResult {
            winner: Some(Player::Gold),
            ..on_points
        };
        assert_eq!(
            describe_result(&outright),
            "game over: gold wins (silver holds no city)"
        );
    }
}

//! A match: games played as rounds whose points add up (the rule set's `match` section).
//!
//! The engine plays one round at a time. What the rounds before it left (their results) travels
//! with the round, as a campaign's storage travels from chapter to chapter: a game knows the
//! rounds played before it, a save of any round carries the whole match so far, and the next
//! round is made from the one that ended ([`Game::next_round`]).

use super::{Game, opponent};
use crate::board::Player;
use crate::map::Map;
use crate::rules::{MatchRules, NextFirst, RoundPoints};
use serde::{Deserialize, Serialize};

/// The most characters of a round's description a save keeps.
pub const MAX_ROUND_TEXT_CHARS: usize = 400;

/// How one finished round of a match went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RoundResult {
    /// Who took the round's first turn.
    pub first: Player,
    /// Who won the round (`None`: a draw).
    pub winner: Option<Player>,
    /// What the round added to each seat's match total (gold's, silver's, then any other
    /// seat's), in half points.
    pub points: Vec<i64>,
    /// How the round ended, in words.
    pub ended: String,
}

/// The start of a match's next round: its map (the first player set in its scenario), its seed,
/// and the rounds played before it.
#[derive(Clone, Debug)]
pub struct NextRound {
    /// The map, whose scenario names who takes the first turn.
    pub map: Map,
    /// The round's seed (each round's pools are shuffled anew).
    pub seed: u64,
    /// Every round played before it, in order.
    pub earlier: Vec<RoundResult>,
}

/// A match as it stands after some rounds: totals, whether it is over, who won.
#[derive(Clone, Copy, Debug)]
pub struct MatchScore<'a> {
    rules: &'a MatchRules,
    rounds: &'a [RoundResult],
}

/// How a finished match came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchOutcome {
    /// The player with the higher total (`None`: equal totals, a draw).
    pub winner: Option<Player>,
    /// Each seat's total (gold's, silver's, ...), in half points.
    pub totals: Vec<i64>,
}

impl<'a> MatchScore<'a> {
    /// The match of `rounds` finished rounds under `rules`.
    pub fn new(rules: &'a MatchRules, rounds: &'a [RoundResult]) -> MatchScore<'a> {
        MatchScore { rules, rounds }
    }

    /// Whether the rules make a match of several rounds (not a single game).
    pub fn is_match(&self) -> bool {
        self.rules.rounds > 1
    }

    /// How many rounds the match has.
    pub fn rounds(&self) -> usize {
        usize::try_from(self.rules.rounds).unwrap_or(1)
    }

    /// The rounds finished, in order.
    pub fn results(&self) -> &'a [RoundResult] {
        self.rounds
    }

    /// Each seat's total so far (gold's, silver's, ...), in half points: as many as the
    /// rounds name seats, and at least the two players'.
    pub fn totals(&self) -> Vec<i64> {
        let seats = self
            .rounds
            .iter()
            .map(|r| r.points.len())
            .max()
            .unwrap_or(0);
        let mut totals = vec![0_i64; seats.max(2)];
        for round in self.rounds {
            for (total, points) in totals.iter_mut().zip(&round.points) {
                *total = total.saturating_add(*points);
            }
        }
        totals
    }

    /// Whether every round has been played.
    pub fn is_over(&self) -> bool {
        self.rounds.len() >= self.rounds()
    }

    /// The match's outcome once every round has been played: the higher total wins, equal
    /// totals draw.
    pub fn outcome(&self) -> Option<MatchOutcome> {
        if !self.is_over() {
            return None;
        }
        let totals = self.totals();
        Some(MatchOutcome {
            winner: sole_highest(&totals),
            totals,
        })
    }

    /// Who takes the first turn of the round after the last one finished.
    pub fn next_first(&self) -> Player {
        let Some(last) = self.rounds.last() else {
            return Player::Gold;
        };
        match self.rules.next_first {
            NextFirst::Loser => last.winner.map_or(Player::Gold, opponent),
            NextFirst::Alternate => opponent(last.first),
        }
    }
}

/// The seat with the highest total, if no other seat has as much (else `None`: a draw, the
/// highest sharing the win).
fn sole_highest(totals: &[i64]) -> Option<Player> {
    let best = *totals.iter().max()?;
    let mut at_best = totals.iter().enumerate().filter(|(_, t)| **t == best);
    let (seat, _) = at_best.next()?;
    match at_best.next() {
        Some(_) => None,
        None => Player::seat(seat),
    }
}

impl Game {
    /// The rounds of the match played before this game (empty in a single game or a first
    /// round).
    pub fn earlier_rounds(&self) -> &[RoundResult] {
        &self.earlier_rounds
    }

    /// Makes this game a later round of a match, after `earlier` (before any action).
    pub fn set_earlier_rounds(&mut self, earlier: Vec<RoundResult>) {
        self.earlier_rounds = earlier;
    }

    /// Which round of the match this game is, from 1.
    pub fn round_number(&self) -> usize {
        self.earlier_rounds.len() + 1
    }

    /// The match before this round ends (the earlier rounds only).
    pub fn match_before(&self) -> MatchScore<'_> {
        MatchScore::new(&self.rules.series, &self.earlier_rounds)
    }

    /// How this round went, once it has ended, as the match counts it.
    pub fn round_result(&self) -> Option<RoundResult> {
        let result = self.result.as_ref()?;
        let points = self.seats().map(|p| self.round_points(p)).collect();
        let ended = super::describe::describe_result(result);
        Some(RoundResult {
            first: self.map.scenario.first_player(),
            winner: result.winner,
            points,
            ended: ended.chars().take(MAX_ROUND_TEXT_CHARS).collect(),
        })
    }

    /// What this round adds to `player`'s match total, in half points.
    fn round_points(&self, player: Player) -> i64 {
        let score = self.score(player);
        match self.rules.series.round_points {
            RoundPoints::Score => score.total.saturating_mul(2),
            RoundPoints::AwardAndBonus => {
                let award = self.final_award().map_or(0, |a| a[super::index(player)]);
                award.saturating_add(score.base.saturating_mul(2))
            }
            RoundPoints::Wins => match self.result.as_ref().map(|r| r.winner) {
                Some(Some(winner)) if winner == player => 2,
                Some(None) => 1,
                _ => 0,
            },
        }
    }

    /// Whether this round has ended and the match has another (what `next_round` would make,
    /// told without making it: clients ask it every frame).
    pub fn match_goes_on(&self) -> bool {
        let rounds = usize::try_from(self.rules.series.rounds).unwrap_or(1);
        self.result.is_some() && self.earlier_rounds.len() + 1 < rounds
    }

    /// Every round so far, this one included once it has ended.
    pub fn rounds_with_this(&self) -> Vec<RoundResult> {
        let mut rounds = self.earlier_rounds.clone();
        rounds.extend(self.round_result());
        rounds
    }

    /// The next round of the match, once this one has ended and the match goes on: the same
    /// map with the next first player, the next seed, and the rounds so far. `None` while the
    /// round goes on, or when the match is over (or is a single game).
    pub fn next_round(&self) -> Option<NextRound> {
        if !self.match_goes_on() {
            return None;
        }
        let rounds = self.rounds_with_this();
        let score = MatchScore::new(&self.rules.series, &rounds);
        let mut map = (*self.map).clone();
        map.scenario.first = Some(score.next_first());
        Some(NextRound {
            map,
            seed: self.seed.wrapping_add(1),
            earlier: rounds,
        })
    }
}

impl Game {
    /// The next round of the match as an engine game (`next_round`, started with the same
    /// dictionary and advisor, and the same game mode where the rules' scripts play the game,
    /// which sets the round's table up); `None` as for `next_round`, an error when that setup
    /// fails.
    pub fn next_round_game(&self) -> Option<Result<Game, String>> {
        let next = self.next_round()?;
        let mut round = Game::new(
            &next.map,
            (*self.rules).clone(),
            self.lexicon.clone(),
            next.seed,
        );
        round.earlier_rounds = next.earlier;
        round.advisor = self.advisor.clone();
        // A game the rules' scripts play: the same mode sets the next round's table up.
        if let Some(mode) = self.mode.clone()
            && let Err(e) = round.set_game_mode(mode)
        {
            return Some(Err(format!("the next round's setup failed: {e}")));
        }
        Some(Ok(round))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Action;
    use crate::rules::{FirstWord, FlowOverrides, MatchOverrides, RuleOverrides};

    /// A shared crossword of `rounds` rounds where a player may forfeit.
    fn match_of(rounds: i64) -> Game {
        let map = crate::game::tests::shared_crossword(
            FirstWord::Centre,
            RuleOverrides {
                flow: Some(FlowOverrides {
                    forfeit: Some(true),
                    ..Default::default()
                }),
                series: Some(MatchOverrides {
                    rounds: Some(rounds),
                    ..Default::default()
                }),
                ..Default::default()
            },
        );
        crate::game::tests::start(&map, 7)
    }

    /// The round after `game`.
    fn next(game: &Game) -> Game {
        game.next_round_game()
            .expect("the match goes on")
            .expect("the round starts")
    }

    /// Silver forfeits each round: gold wins them, and silver, the loser, starts the next one,
    /// with a deal of its own; after the last, no round follows.
    #[test]
    fn the_loser_of_a_round_starts_the_next_with_a_new_deal() {
        let mut round = match_of(3);
        assert!(round.next_round().is_none(), "the round is not over");
        round.apply(Action::EndTurn).unwrap();
        let mut deals = Vec::new();
        for number in 1..=3 {
            assert_eq!(round.round_number(), number);
            deals.push(round.rack_letters(Player::Gold));
            if number > 1 {
                assert_eq!(round.to_act(), Player::Silver, "round {number}");
            }
            round.apply(Action::Forfeit).unwrap();
            assert_eq!(round.round_result().unwrap().winner, Some(Player::Gold));
            if number < 3 {
                round = next(&round);
            }
        }
        assert!(round.next_round().is_none(), "three rounds were played");
        let rounds = round.rounds_with_this();
        // A match counts points, not rounds won: forfeits score nothing, so the totals are equal
        // and the match is drawn although gold won every round.
        let outcome = MatchScore::new(&round.rules().series, &rounds).outcome();
        assert_eq!(outcome.unwrap().winner, None);
        assert_eq!(rounds.len(), 3);
        assert_ne!(deals[0], deals[1], "each round is dealt anew");
    }

    #[test]
    fn a_single_game_has_no_next_round() {
        let mut game = match_of(1);
        game.apply(Action::Forfeit).unwrap();
        assert!(game.next_round().is_none());
        assert!(!game.match_before().is_match());
    }

    fn round(first: Player, winner: Option<Player>, points: Vec<i64>) -> RoundResult {
        RoundResult {
            first,
            winner,
            points,
            ended: String::new(),
        }
    }

    fn rules(rounds: i64, next_first: NextFirst) -> MatchRules {
        MatchRules {
            rounds,
            next_first,
            round_points: RoundPoints::Score,
        }
    }

    /// Table: the rounds played, then who starts next, whether it is over, and the outcome.
    #[test]
    fn a_match_adds_rounds_up_and_names_who_starts_next() {
        let (gold, silver) = (Player::Gold, Player::Silver);
        let loser = rules(3, NextFirst::Loser);
        let alternate = rules(3, NextFirst::Alternate);
        let won_by_gold = round(gold, Some(gold), vec![20, 4]);
        let drawn = round(silver, None, vec![25, 25]);
        let won_by_silver = round(gold, Some(silver), vec![0, 24]);
        let cases: [(&MatchRules, Vec<RoundResult>, Player, Option<MatchOutcome>); 5] = [
            (&loser, vec![], gold, None),
            (&loser, vec![won_by_gold.clone()], silver, None),
            (&loser, vec![won_by_gold.clone(), drawn.clone()], gold, None),
            (
                &loser,
                vec![won_by_gold.clone(), drawn.clone(), won_by_silver.clone()],
                gold,
                Some(MatchOutcome {
                    winner: Some(silver),
                    totals: vec![45, 53],
                }),
            ),
            (
                &alternate,
                vec![won_by_gold.clone(), drawn.clone()],
                gold,
                None,
            ),
        ];
        for (rules, rounds, next, outcome) in cases {
            let score = MatchScore::new(rules, &rounds);
            assert_eq!(score.next_first(), next, "{rounds:?}");
            assert_eq!(score.is_over(), outcome.is_some());
            assert_eq!(score.outcome(), outcome, "{rounds:?}");
        }
    }

    /// More seats than two: the sole highest total wins; the highest shared is a draw.
    #[test]
    fn the_sole_highest_of_any_seats_wins() {
        let seat3 = Player::seat(2);
        assert_eq!(sole_highest(&[4, 9, 11]), seat3);
        assert_eq!(sole_highest(&[11, 9, 11]), None);
        assert_eq!(sole_highest(&[]), None);
    }

    #[test]
    fn equal_totals_draw_the_match() {
        let rules = rules(2, NextFirst::Loser);
        let rounds = [
            round(Player::Gold, Some(Player::Gold), vec![10, 0]),
            round(Player::Silver, Some(Player::Silver), vec![0, 10]),
        ];
        let outcome = MatchScore::new(&rules, &rounds).outcome();
        assert_eq!(outcome.map(|o| o.winner), Some(None));
    }
}

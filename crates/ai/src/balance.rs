//! Balance tuning, which no map editor offers: the first player's advantage on a map over many
//! seeded games (as `simulate` plays them), and a search of one rule constant for the value
//! that brings that advantage closest to even, each step reported with its interval. What is
//! searched is a rule constant (`capture.city_capture_bonus`) or one city's own capture bonus
//! (`city.ID.bonus`).

use super::simulate::{self, GameRecord, Setup, wilson};
use crate::board::Player;
use crate::map::Map;
use crate::rules::RuleSet;
use serde::Serialize;

/// The first player's share of a batch of games (a win counts 1, a draw or an unfinished game
/// a half) with its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Advantage {
    /// Games played.
    pub games: usize,
    /// The first player's share, 0 to 1: a half is even.
    pub share: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Advantage {
    /// The advantage of `first` (the seat that moves first) over `records`.
    pub fn of(records: &[GameRecord], first: Player) -> Advantage {
        let points: f64 = records
            .iter()
            .map(|r| match r.winner {
                Some(w) if w == first => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
            .sum();
        let (low, high) = wilson(points, records.len());
        let share = if records.is_empty() {
            0.5
        } else {
            points / records.len() as f64
        };
        Advantage {
            games: records.len(),
            share,
            low,
            high,
        }
    }

    /// The first player's edge: their share less a half (positive: they are favoured).
    pub fn edge(&self) -> f64 {
        self.share - 0.5
    }

    /// Whether even play lies within the interval: the games cannot tell the seats apart.
    pub fn is_even(&self) -> bool {
        self.low <= 0.5 && 0.5 <= self.high
    }
}

impl std::fmt::Display for Advantage {
    /// `+4.5 points (-2.1 to +11.0) over 200 games`: the edge in percentage points.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points = |x: f64| (x - 0.5) * 100.0;
        write!(
            f,
            "{:+.1} points ({:+.1} to {:+.1}) over {} games",
            points(self.share),
            points(self.low),
            points(self.high),
            self.games
        )
    }
}

/// The advantage over the games of `setup` (on all cores; `done` is told of each game).
pub fn advantage(setup: &Setup, done: &(dyn Fn(&GameRecord) + Sync)) -> Advantage {
    let records = simulate::run(setup, done);
    Advantage::of(&records, setup.map.scenario.first_player())
}

/// `map` and `rules` with `key` set to `value` (as a rule file writes it): a rule constant
/// (`capture.city_capture_bonus`), or the capture bonus of the map's city `ID` (`city.ID.bonus`,
/// a whole number), or why it cannot be.
pub fn tuned(map: &Map, rules: &RuleSet, key: &str, value: &str) -> Result<(Map, RuleSet), String> {
    let Some(id) = key
        .strip_prefix("city.")
        .and_then(|k| k.strip_suffix(".bonus"))
    else {
        return Ok((map.clone(), rules.with_constant(key, value)?));
    };
    let range = crate::limits::CITY_BONUS;
    let bonus = value
        .parse::<i64>()
        .ok()
        .filter(|b| range.contains(b))
        .ok_or_else(|| {
            format!(
                "{key} cannot be {value}: a city's bonus is a whole number from {} to {}",
                range.start(),
                range.end()
            )
        })?;
    let mut map = map.clone();
    let ids: Vec<String> = map.cities.iter().map(|c| format!("`{}`", c.id)).collect();
    let Some(city) = map.cities.iter_mut().find(|c| c.id == id) else {
        return Err(format!(
            "the map has no city `{id}`: its cities are {}",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        ));
    };
    city.bonus = Some(bonus);
    Ok((map, rules.clone()))
}

/// What to search, and the values to search: `capture.city_capture_bonus=0..20`, or a city's
/// own bonus, `city.aurum.bonus=0..60`.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneRange {
    /// The constant, `section.field`, or a city's bonus, `city.ID.bonus`.
    pub key: String,
    /// The lowest value tried.
    pub low: f64,
    /// The highest.
    pub high: f64,
    /// Whether the values are whole numbers (both ends written without a point).
    pub whole: bool,
}

impl std::str::FromStr for TuneRange {
    type Err = String;

    fn from_str(text: &str) -> Result<TuneRange, String> {
        let shape =
            || format!("{text:?} is not KEY=LO..HI (as `capture.city_capture_bonus=0..20`)");
        let (key, range) = text.split_once('=').ok_or_else(shape)?;
        let (low, high) = range.split_once("..").ok_or_else(shape)?;
        let number = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("{s:?} in {text:?} is not a number"))
        };
        let (lo, hi) = (number(low)?, number(high)?);
        if lo >= hi {
            return Err(format!(
                "{text:?}: the range's low end must be below its high end"
            ));
        }
        Ok(TuneRange {
            key: key.trim().to_string(),
            low: lo,
            high: hi,
            whole: !low.contains('.') && !high.contains('.'),
        })
    }
}

impl TuneRange {
    /// `value` as a rule file writes this constant's values (`12`, `1.5`).
    pub fn written(&self, value: f64) -> String {
        if self.whole {
            format!("{}", value.round() as i64)
        } else {
            format!("{value:?}")
        }
    }

    /// The value halfway between `a` and `b` (a whole number for whole constants), if it lies
    /// strictly between them.
    fn between(&self, a: f64, b: f64) -> Option<f64> {
        let mid = if self.whole {
            ((a + b) / 2.0).floor()
        } else {
            (a + b) / 2.0
        };
        let close = if self.whole {
            false
        } else {
            (b - a).abs() < (self.high - self.low) / 256.0
        };
        (mid > a.min(b) && mid < a.max(b) && !close).then_some(mid)
    }
}

/// One value tried, and the advantage it gave.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneStep {
    /// The value, as the rule file writes it.
    pub value: String,
    /// The first player's advantage with it.
    pub advantage: Advantage,
}

/// Searches `range` for the value whose advantage is closest to even: both ends first; if the
/// advantage changes sides between them, the range is halved toward the change until it is
/// one whole number wide (or 1/256 of it), even play lies within the last value's interval,
/// or `max_steps` values are tried. `batch` plays the games of one value (as written) and gives
/// their advantage, or why that value cannot be played; `step` is told of each.
pub fn tune(
    range: &TuneRange,
    max_steps: usize,
    batch: &mut dyn FnMut(&str) -> Result<Advantage, String>,
    step: &mut dyn FnMut(&TuneStep),
) -> Result<Vec<TuneStep>, String> {
    let mut steps: Vec<TuneStep> = Vec::new();
    let mut try_value = |value: f64, steps: &mut Vec<TuneStep>| -> Result<f64, String> {
        let written = range.written(value);
        let advantage = batch(&written)?;
        let done = TuneStep {
            value: written,
            advantage,
        };
        step(&done);
        steps.push(done);
        Ok(advantage.edge())
    };
    let (mut a, mut b) = (range.low, range.high);
    let mut edge_a = try_value(a, &mut steps)?;
    if max_steps < 2 {
        return Ok(steps);
    }
    let mut edge_b = try_value(b, &mut steps)?;
    while steps.len() < max_steps
        && edge_a.signum() != edge_b.signum()
        && !steps.last().is_some_and(|s| s.advantage.is_even())
    {
        let Some(mid) = range.between(a, b) else {
            break;
        };
        let edge = try_value(mid, &mut steps)?;
        if edge.signum() == edge_a.signum() {
            (a, edge_a) = (mid, edge);
        } else {
            (b, edge_b) = (mid, edge);
        }
    }
    Ok(steps)
}

/// The step whose advantage is closest to even.
pub fn closest(steps: &[TuneStep]) -> Option<&TuneStep> {
    steps.iter().min_by(|x, y| {
        x.advantage
            .edge()
            .abs()
            .total_cmp(&y.advantage.edge().abs())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table: what a tuning key sets (a city's own bonus on the map, a constant in the
    /// rules), and what it refuses.
    #[test]
    fn a_key_tunes_a_city_bonus_or_a_rule_constant() {
        let mut map = Map::new("t", 8, 8);
        map.cities.push(crate::board::City {
            id: "aurum".into(),
            name: "Aurum".into(),
            at: crate::board::Pos::new(1, 1),
            owner: crate::board::Owner::Gold,
            bonus: None,
        });
        let rules = RuleSet::preset("classic").unwrap();
        let (tuned_map, same_rules) = tuned(&map, &rules, "city.aurum.bonus", "45").unwrap();
        assert_eq!(tuned_map.cities[0].bonus, Some(45));
        assert_eq!(same_rules, rules);
        let (same_map, tuned_rules) =
            tuned(&map, &rules, "capture.city_capture_bonus", "12").unwrap();
        assert_eq!(same_map, map);
        assert_eq!(tuned_rules.capture.city_capture_bonus, 12);
        for (key, value, refusal) in [
            (
                "city.lowmoor.bonus",
                "5",
                "no city `lowmoor`: its cities are `aurum`",
            ),
            (
                "city.aurum.bonus",
                "1.5",
                "a city's bonus is a whole number",
            ),
            (
                "city.aurum.bonus",
                "2000000",
                "a whole number from -1000000 to 1000000",
            ),
            ("capture.nothing", "5", "is not a rule constant"),
        ] {
            let refused = tuned(&map, &rules, key, value).unwrap_err();
            assert!(refused.contains(refusal), "{key}={value}: {refused}");
        }
    }

    fn advantage(share: f64, games: usize) -> Advantage {
        let (low, high) = wilson(share * games as f64, games);
        Advantage {
            games,
            share,
            low,
            high,
        }
    }

    /// A made-up map whose first player's share falls as the constant rises: even at 7.3.
    fn falling(value: &str) -> Result<Advantage, String> {
        let v: f64 = value.parse().map_err(|_| format!("{value}?"))?;
        Ok(advantage((0.5 - (v - 7.3) * 0.04).clamp(0.0, 1.0), 4000))
    }

    #[test]
    fn tuning_halves_toward_even_play() {
        let range: TuneRange = "capture.city_capture_bonus=0..20".parse().unwrap();
        let mut told = Vec::new();
        let steps = tune(&range, 12, &mut falling, &mut |s| {
            told.push(s.value.clone())
        })
        .unwrap();
        let values: Vec<&str> = steps.iter().map(|s| s.value.as_str()).collect();
        assert_eq!(
            values,
            ["0", "20", "10", "5", "7"],
            "7 is even within its interval"
        );
        assert_eq!(told, values, "every step is told as it is played");
        assert_eq!(closest(&steps).unwrap().value, "7");
    }

    #[test]
    fn tuning_stops_at_its_step_limit_and_when_both_ends_favour_one_side() {
        let range: TuneRange = "x.y=0..20".parse().unwrap();
        let steps = tune(&range, 3, &mut falling, &mut |_| {}).unwrap();
        assert_eq!(steps.len(), 3);
        let range: TuneRange = "x.y=10..20".parse().unwrap();
        let steps = tune(&range, 12, &mut falling, &mut |_| {}).unwrap();
        assert_eq!(
            steps.len(),
            2,
            "both ends favour the second player: nothing between"
        );
        assert_eq!(closest(&steps).unwrap().value, "10");
        let range: TuneRange = "x.y=0.5..1.5".parse().unwrap();
        assert_eq!(range.written(1.0), "1.0");
    }

    #[test]
    fn a_value_that_cannot_be_played_stops_the_search_with_its_reason() {
        let range: TuneRange = "x.y=0..20".parse().unwrap();
        let err = tune(&range, 8, &mut |_| Err("no".into()), &mut |_| {}).unwrap_err();
        assert_eq!(err, "no");
        for bad in ["x.y", "x.y=1..", "x.y=5..1", "x.y=a..b", "x.y=0..inf"] {
            assert!(bad.parse::<TuneRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn advantage_counts_draws_as_half_and_reads_as_points() {
        let a = advantage(0.5, 100);
        assert!(a.is_even());
        assert_eq!(a.to_string(), "+0.0 points (-9.6 to +9.6) over 100 games");
        assert!(!advantage(0.7, 400).is_even());
    }
}

//! How long the hard level thinks: the simulation step's budget. With time to think, the hard
//! level plays its best candidates against replies in worlds sampled from what it cannot see
//! (`player::simulate_candidates`) and keeps the one that leaves it best off on average.
//!
//! A budget in samples plays the same move every run (what `simulate` and the tests use). A
//! budget in time is a ceiling: the AI stops at [`ENOUGH_WORLDS`] (measured: sixteen worlds
//! played no better than eight) or when the time is up, whichever comes first, so on a big
//! board or a slow machine it still answers in time; a game against the clock is replayed
//! from its saved actions, never by asking the AI again.

use std::time::{Duration, Instant};

/// The most worlds a move a budget in samples may ask for.
pub const MOST_SAMPLES: u32 = 256;
/// The worlds a budget in time stops at, however much time is left.
pub const ENOUGH_WORLDS: u32 = 16;
/// The longest a move a budget in time may take.
pub const LONGEST: Duration = Duration::from_secs(60);

/// The hard level's thinking a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Think {
    /// No simulation: the best candidate by its immediate outcome and the letters it keeps.
    #[default]
    Off,
    /// This many sampled worlds a move: deterministic.
    Samples(u32),
    /// Worlds until this much time has gone (at least one) or [`ENOUGH_WORLDS`] were played.
    Time(Duration),
}

impl Think {
    /// Whether the budget allows any simulation.
    pub fn is_on(self) -> bool {
        self != Think::Off
    }

    /// The budget's clock, started now.
    pub fn start(self) -> Budget {
        Budget {
            think: self,
            started: Instant::now(),
            worlds: 0,
        }
    }
}

/// A budget being spent: how many worlds were played and since when.
pub struct Budget {
    think: Think,
    started: Instant,
    worlds: u32,
}

impl Budget {
    /// Whether another world may be played; counts it if so. The first is always allowed.
    pub fn another(&mut self) -> bool {
        let allowed = match self.think {
            Think::Off => false,
            Think::Samples(n) => self.worlds < n,
            Think::Time(limit) => {
                self.worlds == 0 || (self.worlds < ENOUGH_WORLDS && self.started.elapsed() < limit)
            }
        };
        self.worlds += u32::from(allowed);
        allowed
    }

    /// Worlds played so far.
    pub fn worlds(&self) -> u32 {
        self.worlds
    }
}

impl std::fmt::Display for Think {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Think::Off => f.write_str("off"),
            Think::Samples(n) => write!(f, "{n}"),
            Think::Time(t) if t.subsec_millis() == 0 => write!(f, "{}s", t.as_secs()),
            Think::Time(t) => write!(f, "{}ms", t.as_millis()),
        }
    }
}

impl std::str::FromStr for Think {
    type Err = String;

    /// `off` (or `0`), a number of sampled worlds (`8`), or a time (`500ms`, `2s`).
    fn from_str(text: &str) -> Result<Think, String> {
        let text = text.trim();
        let how = "write `off`, a number of sampled worlds a move (`8`: the same move every run) \
                   or a time a move (`500ms`, `2s`)";
        if text == "off" || text == "0" {
            return Ok(Think::Off);
        }
        let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
            Some(i) => text.split_at(i),
            None => (text, ""),
        };
        let number: u64 = digits
            .parse()
            .map_err(|_| format!("`{text}` is not a think time: {how}"))?;
        let think = match unit {
            "" => Think::Samples(u32::try_from(number).unwrap_or(u32::MAX)),
            "ms" => Think::Time(Duration::from_millis(number)),
            "s" => Think::Time(Duration::from_secs(number)),
            _ => return Err(format!("`{text}` is not a think time: {how}")),
        };
        match think {
            Think::Samples(n) if n > MOST_SAMPLES => Err(format!(
                "{n} samples a move is more than the {MOST_SAMPLES} allowed"
            )),
            Think::Time(t) if t > LONGEST => Err(format!(
                "`{text}` a move is longer than the {} s allowed",
                LONGEST.as_secs()
            )),
            Think::Samples(0) | Think::Time(Duration::ZERO) => Ok(Think::Off),
            think => Ok(think),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table: what a think time reads as, and how it writes back.
    #[test]
    fn think_times_read_and_write() {
        let cases = [
            ("off", Some(Think::Off), "off"),
            ("0", Some(Think::Off), "off"),
            ("8", Some(Think::Samples(8)), "8"),
            (
                "500ms",
                Some(Think::Time(Duration::from_millis(500))),
                "500ms",
            ),
            ("2s", Some(Think::Time(Duration::from_secs(2))), "2s"),
            ("0s", Some(Think::Off), "off"),
            ("257", None, ""),
            ("61s", None, ""),
            ("2m", None, ""),
            ("fast", None, ""),
            ("", None, ""),
        ];
        for (text, expect, written) in cases {
            let read = text.parse::<Think>();
            assert_eq!(read.clone().ok(), expect, "{text}: {read:?}");
            if let Some(think) = expect {
                assert_eq!(think.to_string(), written, "{text}");
            } else {
                assert!(read.unwrap_err().contains(text), "{text}");
            }
        }
    }

    #[test]
    fn a_budget_in_samples_allows_exactly_that_many_worlds() {
        let mut budget = Think::Samples(3).start();
        while budget.another() {}
        assert_eq!(budget.worlds(), 3);
        assert!(!Think::Off.start().another());
    }

    #[test]
    fn a_budget_in_time_stops_at_enough_worlds() {
        let mut budget = Think::Time(LONGEST).start();
        while budget.another() {}
        assert_eq!(budget.worlds(), ENOUGH_WORLDS);
    }

    #[test]
    fn a_budget_in_time_allows_at_least_one_world() {
        let mut budget = Think::Time(Duration::from_millis(1)).start();
        assert!(budget.another());
        std::thread::sleep(Duration::from_millis(2));
        assert!(!budget.another());
        assert_eq!(budget.worlds(), 1);
    }
}

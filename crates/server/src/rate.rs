//! Rate limits: a token bucket for each socket's frames, and one for each address's lobby
//! requests (a bounded table: the longest-quiet addresses go first when it is full).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A token bucket: `per_second` on average, bursts of `burst`.
#[derive(Clone, Debug)]
pub(crate) struct Rate {
    tokens: f64,
    at: Instant,
    per_second: f64,
    burst: f64,
}

impl Rate {
    pub(crate) fn new(per_second: f64, burst: f64) -> Rate {
        Rate {
            tokens: burst,
            at: Instant::now(),
            per_second,
            burst,
        }
    }

    /// Takes a token: whether there was one.
    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.per_second;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The most addresses the lobby's table keeps.
const MOST_ADDRESSES: usize = 10_000;

/// Each address's bucket of lobby requests.
pub(crate) struct ByAddress {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Rate>>,
}

impl ByAddress {
    pub(crate) fn new(per_second: f64, burst: f64) -> ByAddress {
        ByAddress {
            per_second,
            burst,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a token of `address`'s: whether it may make a request now.
    pub(crate) fn take(&self, address: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MOST_ADDRESSES && !buckets.contains_key(&address) {
            // The quietest half goes: their buckets would be full again anyway, or nearly.
            let mut ages: Vec<(Instant, IpAddr)> =
                buckets.iter().map(|(ip, rate)| (rate.at, *ip)).collect();
            ages.sort();
            for (_, ip) in ages.iter().take(MOST_ADDRESSES / 2) {
                buckets.remove(ip);
            }
        }
        buckets
            .entry(address)
            .or_insert_with(|| Rate::new(self.per_second, self.burst))
            .take()
    }
}

/// When each address was last named in the log (a bounded table, as the buckets').
#[derive(Default)]
pub(crate) struct Logged {
    at: Mutex<HashMap<IpAddr, Instant>>,
}

/// How long the log keeps quiet about an address it named.
const LOG_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

impl Logged {
    /// Whether `from` was not named in the last minute (it counts as named now).
    pub(crate) fn first_in_a_while(&self, from: IpAddr) -> bool {
        let now = Instant::now();
        let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
        if at.len() >= MOST_ADDRESSES {
            at.retain(|_, when| now.duration_since(*when) < LOG_EVERY);
        }
        match at.get(&from) {
            Some(when) if now.duration_since(*when) < LOG_EVERY => false,
            _ => {
                at.insert(from, now);
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_and_then_the_rate() {
        let limits = ByAddress::new(1.0, 3.0);
        let here: IpAddr = "127.0.0.1".parse().unwrap();
        let there: IpAddr = "10.0.0.2".parse().unwrap();
        assert!((0..3).all(|_| limits.take(here)));
        assert!(!limits.take(here), "past the burst");
        assert!(limits.take(there), "another address has its own");
    }
}

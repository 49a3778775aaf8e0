//! Pattern search: `?` stands for one letter, `*` for any number of letters (none included).
//! The pattern runs as a non-deterministic automaton over the dictionary's fst; its state is
//! the set of pattern positions reached, as bits of a `u64`.

use fst::Automaton;

/// The longest pattern, so that every position fits in the state's bits.
pub const MAX_PATTERN_LEN: usize = 63;

/// A compiled wildcard pattern.
#[derive(Clone, Debug)]
pub struct Wildcard {
    pattern: Vec<u8>,
}

impl Wildcard {
    /// The pattern, already checked to be lowercase letters, `?` and `*`, and not too long.
    pub fn new(pattern: &str) -> Self {
        Wildcard {
            pattern: pattern.as_bytes().to_vec(),
        }
    }

    /// Adds the positions reachable from `state` without reading a letter (skipping `*`s).
    fn closure(&self, mut state: u64) -> u64 {
        for (i, &p) in self.pattern.iter().enumerate() {
            if p == b'*' && state & (1 << i) != 0 {
                state |= 1 << (i + 1);
            }
        }
        state
    }
}

impl Automaton for Wildcard {
    type State = u64;

    fn start(&self) -> u64 {
        self.closure(1)
    }

    fn is_match(&self, state: &u64) -> bool {
        state & (1 << self.pattern.len()) != 0
    }

    fn can_match(&self, state: &u64) -> bool {
        *state != 0
    }

    fn accept(&self, state: &u64, byte: u8) -> u64 {
        let mut next = 0;
        for (i, &p) in self.pattern.iter().enumerate() {
            if state & (1 << i) == 0 {
                continue;
            }
            match p {
                b'*' => next |= 1 << i,
                b'?' => next |= 1 << (i + 1),
                letter if letter == byte => next |= 1 << (i + 1),
                _ => {}
            }
        }
        self.closure(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fst::{IntoStreamer, Set, Streamer};

    fn check(pattern: &str, words: &[&str], expected: &[&str]) {
        let set = Set::from_iter(words.iter().copied()).unwrap();
        let mut stream = set.search(Wildcard::new(pattern)).into_stream();
        let mut got = Vec::new();
        while let Some(w) = stream.next() {
            got.push(String::from_utf8(w.to_vec()).unwrap());
        }
        assert_eq!(got, expected, "{pattern}");
    }

    #[test]
    fn wildcards() {
        let words = ["cart", "cat", "coat", "sword", "swords", "word"];
        check("c?t", &words, &["cat"]);
        check("c*t", &words, &["cart", "cat", "coat"]);
        check("*word", &words, &["sword", "word"]);
        check("*word*", &words, &["sword", "swords", "word"]);
        check("sw??d", &words, &["sword"]);
        check("*", &words, &words);
        check("**t", &words, &["cart", "cat", "coat"]);
        check("x*", &words, &[]);
    }
}

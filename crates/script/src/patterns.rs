//! Lua 5.4 string patterns (`string.find`, `match`, `gmatch`, `gsub`) matched in Rust with a
//! step count, so that a backtracking pattern on a long subject spends the event's budget
//! instead of hanging inside a C function, where the instruction hook never runs.
//!
//! The semantics are those of the reference manual (§6.4.1), checked against the C library by
//! the property test in `tests.rs`: classes in the C locale, sets, `%b`, `%f`, back-references,
//! position captures, at most 32 captures and 200 nested matching calls.

/// The most captures a pattern may have (LUA_MAXCAPTURES).
const MAX_CAPTURES: usize = 32;

/// The deepest a match may recurse (MAXCCALLS of the C library).
const MAX_DEPTH: u32 = 200;

/// Why a pattern could not be matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// The pattern is malformed (the message is the one Lua gives).
    Malformed(String),
    /// Matching would take more steps than were allowed.
    TooMuchWork,
}

/// One capture: where it starts and, once closed, how long it is or that it is a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CaptureLen {
    Unfinished,
    Position,
    Len(usize),
}

/// What a capture holds once a match succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capture<'s> {
    /// A substring of the subject.
    Text(&'s [u8]),
    /// A position capture `()`: the 1-based index in the subject.
    Position(i64),
}

/// A pattern matched against one subject, counting its steps.
pub struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    captures: [(usize, CaptureLen); MAX_CAPTURES],
    depth: u32,
    steps: u64,
    step_limit: u64,
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` (without its anchor) on `src`, allowed `step_limit` steps in all.
    pub fn new(src: &'a [u8], pat: &'a [u8], step_limit: u64) -> Matcher<'a> {
        Matcher {
            src,
            pat,
            level: 0,
            captures: [(0, CaptureLen::Unfinished); MAX_CAPTURES],
            depth: 0,
            steps: 0,
            step_limit,
        }
    }

    /// The steps taken since the matcher was made or last settled.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Starts counting steps again from zero, now allowed `step_limit` (after the steps so far
    /// were charged and other work spent some of the budget).
    pub fn settled(&mut self, step_limit: u64) {
        self.steps = 0;
        self.step_limit = step_limit;
    }

    /// The subject being matched.
    pub fn subject(&self) -> &'a [u8] {
        self.src
    }

    /// How many captures the pattern opened in the last match (0 if it has none).
    pub fn capture_count(&self) -> usize {
        self.level
    }

    /// Whether the pattern matches at `start`: where the match ends.
    pub fn match_at(&mut self, start: usize) -> Result<Option<usize>, PatternError> {
        self.level = 0;
        self.depth = 0;
        self.do_match(start, 0)
    }

    /// The captures of the last match from `start` to `end` (the whole match when the pattern
    /// has none), as `string.match` returns them.
    pub fn captures(&self, start: usize, end: usize) -> Result<Vec<Capture<'a>>, PatternError> {
        let count = if self.level == 0 { 1 } else { self.level };
        (0..count).map(|i| self.capture(i, start, end)).collect()
    }

    /// Capture `i` of the last match from `start` to `end`.
    pub fn capture(&self, i: usize, start: usize, end: usize) -> Result<Capture<'a>, PatternError> {
        if i >= self.level {
            return if i == 0 {
                Ok(Capture::Text(&self.src[start..end]))
            } else {
                Err(malformed(format!("invalid capture index %{}", i + 1)))
            };
        }
        let (init, len) = self.captures[i];
        match len {
            CaptureLen::Unfinished => Err(malformed("unfinished capture".into())),
            CaptureLen::Position => Ok(Capture::Position(to_lua_index(init) + 1)),
            CaptureLen::Len(len) => Ok(Capture::Text(&self.src[init..init + len])),
        }
    }

    fn step(&mut self) -> Result<(), PatternError> {
        self.steps += 1;
        if self.steps > self.step_limit {
            return Err(PatternError::TooMuchWork);
        }
        Ok(())
    }

    /// The pattern byte at `p`, or 0 past its end (as the C library reads the terminator).
    fn pat_at(&self, p: usize) -> u8 {
        self.pat.get(p).copied().unwrap_or(0)
    }

    fn do_match(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if self.depth >= MAX_DEPTH {
            return Err(malformed("pattern too complex".into()));
        }
        self.depth += 1;
        let result = self.match_loop(s, p);
        self.depth -= 1;
        result
    }

    fn match_loop(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, PatternError> {
        loop {
            self.step()?;
            if p == self.pat.len() {
                return Ok(Some(s));
            }
            match self.pat[p] {
                b'(' => {
                    return if self.pat_at(p + 1) == b')' {
                        self.start_capture(s, p + 2, CaptureLen::Position)
                    } else {
                        self.start_capture(s, p + 1, CaptureLen::Unfinished)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == self.pat.len() => {
                    return Ok((s == self.src.len()).then_some(s));
                }
                b'%' if self.pat_at(p + 1) == b'b' => match self.match_balance(s, p + 2)? {
                    Some(next) => {
                        s = next;
                        p += 4;
                    }
                    None => return Ok(None),
                },
                b'%' if self.pat_at(p + 1) == b'f' => {
                    p += 2;
                    if self.pat_at(p) != b'[' {
                        return Err(malformed("missing '[' after '%f' in pattern".into()));
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    let current = self.src.get(s).copied().unwrap_or(0);
                    if !self.match_bracket_class(previous, p, ep - 1)
                        && self.match_bracket_class(current, p, ep - 1)
                    {
                        p = ep;
                    } else {
                        return Ok(None);
                    }
                }
                b'%' if self.pat_at(p + 1).is_ascii_digit() => {
                    match self.match_back_reference(s, self.pat_at(p + 1))? {
                        Some(next) => {
                            s = next;
                            p += 2;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {
                    let ep = self.class_end(p)?;
                    let suffix = self.pat_at(ep);
                    if !self.single_match(s, p, ep) {
                        if matches!(suffix, b'*' | b'?' | b'-') {
                            // The item may match nothing: go on after its suffix.
                            p = ep + 1;
                            continue;
                        }
                        return Ok(None);
                    }
                    match suffix {
                        b'?' => {
                            if let Some(end) = self.do_match(s + 1, ep + 1)? {
                                return Ok(Some(end));
                            }
                            p = ep + 1;
                        }
                        b'+' => return self.max_expand(s + 1, p, ep),
                        b'*' => return self.max_expand(s, p, ep),
                        b'-' => return self.min_expand(s, p, ep),
                        _ => {
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        }
    }

    /// Where the single-character class starting at `p` ends.
    fn class_end(&self, mut p: usize) -> Result<usize, PatternError> {
        let c = self.pat[p];
        p += 1;
        if c == b'%' {
            if p >= self.pat.len() {
                return Err(malformed("malformed pattern (ends with '%')".into()));
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.pat_at(p) == b'^' {
                p += 1;
            }
            // The first character of a set is never its end, so `[]]` holds `]`.
            loop {
                if p >= self.pat.len() {
                    return Err(malformed("malformed pattern (missing ']')".into()));
                }
                let c = self.pat[p];
                p += 1;
                if c == b'%' && p < self.pat.len() {
                    p += 1;
                }
                if self.pat_at(p) == b']' {
                    break;
                }
            }
            return Ok(p + 1);
        }
        Ok(p)
    }

    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        let Some(&c) = self.src.get(s) else {
            return false;
        };
        match self.pat[p] {
            b'.' => true,
            b'%' => match_class(c, self.pat[p + 1]),
            b'[' => self.match_bracket_class(c, p, ep - 1),
            literal => literal == c,
        }
    }

    /// Whether `c` is in the set between `p` (its `[`) and `ec` (its `]`).
    fn match_bracket_class(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut found = true;
        if self.pat_at(p + 1) == b'^' {
            found = false;
            p += 1;
        }
        p += 1;
        while p < ec {
            if self.pat[p] == b'%' {
                p += 1;
                if match_class(c, self.pat_at(p)) {
                    return found;
                }
            } else if self.pat_at(p + 1) == b'-' && p + 2 < ec {
                if self.pat[p] <= c && c <= self.pat[p + 2] {
                    return found;
                }
                p += 2;
            } else if self.pat[p] == c {
                return found;
            }
            p += 1;
        }
        !found
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, PatternError> {
        let mut count = 0;
        while self.single_match(s + count, p, ep) {
            self.step()?;
            count += 1;
        }
        // Longest first, backing off one character at a time.
        loop {
            if let Some(end) = self.do_match(s + count, ep + 1)? {
                return Ok(Some(end));
            }
            if count == 0 {
                return Ok(None);
            }
            count -= 1;
        }
    }

    fn min_expand(
        &mut self,
        mut s: usize,
        p: usize,
        ep: usize,
    ) -> Result<Option<usize>, PatternError> {
        loop {
            if let Some(end) = self.do_match(s, ep + 1)? {
                return Ok(Some(end));
            }
            if self.single_match(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(
        &mut self,
        s: usize,
        p: usize,
        what: CaptureLen,
    ) -> Result<Option<usize>, PatternError> {
        if self.level >= MAX_CAPTURES {
            return Err(malformed("too many captures".into()));
        }
        self.captures[self.level] = (s, what);
        self.level += 1;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.level -= 1;
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        let open = (0..self.level)
            .rev()
            .find(|&l| self.captures[l].1 == CaptureLen::Unfinished)
            .ok_or_else(|| malformed("invalid pattern capture".into()))?;
        self.captures[open].1 = CaptureLen::Len(s - self.captures[open].0);
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.captures[open].1 = CaptureLen::Unfinished;
        }
        Ok(result)
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, PatternError> {
        if p + 1 >= self.pat.len() {
            return Err(malformed(
                "malformed pattern (missing arguments to '%b')".into(),
            ));
        }
        let (open, close) = (self.pat[p], self.pat[p + 1]);
        if self.src.get(s) != Some(&open) {
            return Ok(None);
        }
        let mut depth = 1;
        for i in s + 1..self.src.len() {
            self.step()?;
            let c = self.src[i];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        Ok(None)
    }

    fn match_back_reference(&mut self, s: usize, digit: u8) -> Result<Option<usize>, PatternError> {
        let index = usize::from(digit).wrapping_sub(usize::from(b'1'));
        let invalid = || malformed(format!("invalid capture index %{}", digit - b'0'));
        if index >= self.level {
            return Err(invalid());
        }
        let (init, len) = self.captures[index];
        let len = match len {
            CaptureLen::Unfinished => return Err(invalid()),
            // A position capture has no text: nothing matches it.
            CaptureLen::Position => return Ok(None),
            CaptureLen::Len(len) => len,
        };
        // Comparing costs a step per 64 bytes, like the other work proportional to length.
        self.steps += (len / 64) as u64;
        self.step()?;
        let matches =
            self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len];
        Ok(matches.then_some(s + len))
    }
}

fn malformed(message: String) -> PatternError {
    PatternError::Malformed(message)
}

fn to_lua_index(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX)
}

/// Whether `c` is in the class `%cl` (C locale); an upper-case class is the complement.
fn match_class(c: u8, cl: u8) -> bool {
    let found = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() {
        !found
    } else {
        found
    }
}

/// Whether a pattern has no special characters (so `find` may search it as plain text).
pub fn has_no_specials(pat: &[u8]) -> bool {
    !pat.iter().any(|c| b"^$*+?.([%-".contains(c))
}

/// Lua's `posrelatI`: a 1-based start position, negative from the end, clamped to 1.
pub fn start_position(pos: i64, len: usize) -> usize {
    let len_i = to_lua_index(len);
    let pos = if pos > 0 {
        pos
    } else if pos == 0 || pos < -len_i {
        1
    } else {
        len_i + pos + 1
    };
    usize::try_from(pos).unwrap_or(usize::MAX)
}

/// Where `needle` first occurs in `haystack` at or after `from`.
pub fn find_plain(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return Some(from);
    }
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pat` on `src` from the start: the whole match or the first capture, as text.
    fn first(src: &str, pat: &str) -> Option<String> {
        let (anchor, body) = match pat.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, pat),
        };
        let mut m = Matcher::new(src.as_bytes(), body.as_bytes(), 1_000_000);
        for start in 0..=src.len() {
            if let Some(end) = m.match_at(start).expect("well formed") {
                return match m.capture(0, start, end).expect("capture") {
                    Capture::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
                    Capture::Position(p) => Some(p.to_string()),
                };
            }
            if anchor {
                break;
            }
        }
        None
    }

    #[test]
    fn patterns_match_as_lua_does() {
        let cases: [(&str, &str, Option<&str>); 16] = [
            ("hello world", "o w", Some("o w")),
            ("hello world", "%a+", Some("hello")),
            ("  x = 12", "(%d+)", Some("12")),
            ("key=value", "(%w+)=(%w+)", Some("key")),
            ("f(a(b)c)", "%b()", Some("(a(b)c)")),
            ("THE (quick) fox", "%f[%a]%a+", Some("THE")),
            ("aaa", "a-", Some("")),
            ("aaab", "a-b", Some("aaab")),
            ("abc", "^b", None),
            ("abc", "c$", Some("c")),
            ("hello", "()ll()", Some("3")),
            ("abcabc", "(abc)%1", Some("abc")),
            ("x]y", "[]]", Some("]")),
            ("a-b", "[a%-]+", Some("a-")),
            ("0x1F", "%x+", Some("0")),
            ("tab\there", "%s", Some("\t")),
        ];
        for (src, pat, expected) in cases {
            assert_eq!(first(src, pat).as_deref(), expected, "{pat} on {src:?}");
        }
    }

    #[test]
    fn malformed_patterns_are_refused_with_luas_messages() {
        let cases = [
            ("%", "ends with '%'"),
            ("[a", "missing ']'"),
            ("(a", "unfinished capture"),
            ("a)", "invalid pattern capture"),
            ("%1", "invalid capture index %1"),
            ("%b", "missing arguments to '%b'"),
            ("%fa", "missing '[' after '%f'"),
        ];
        for (pat, expected) in cases {
            let mut m = Matcher::new(b"abc", pat.as_bytes(), 1000);
            let outcome = m.match_at(0).and_then(|end| match end {
                Some(end) => m.captures(0, end).map(|_| ()),
                None => Ok(()),
            });
            match outcome {
                Err(PatternError::Malformed(message)) => {
                    assert!(message.contains(expected), "{pat}: {message}")
                }
                other => panic!("{pat}: {other:?}"),
            }
        }
    }

    #[test]
    fn backtracking_stops_at_the_step_limit() {
        let src = "a".repeat(5000);
        let mut m = Matcher::new(src.as_bytes(), b".-.-.-.-b", 100_000);
        let outcome = (0..src.len()).try_for_each(|s| m.match_at(s).map(|_| ()));
        assert_eq!(outcome, Err(PatternError::TooMuchWork));
        assert!(m.steps() <= 100_001);
    }

    #[test]
    fn start_positions_follow_lua() {
        for (pos, len, expected) in [(1, 5, 1), (0, 5, 1), (-2, 5, 4), (-9, 5, 1), (7, 5, 7)] {
            assert_eq!(start_position(pos, len), expected, "{pos} of {len}");
        }
    }
}

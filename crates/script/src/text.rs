//! Text that comes from scripts (what they print, their messages, their errors) made safe to
//! show and to keep: control characters escaped, so that a script cannot send a terminal
//! escape sequence to the player's terminal or the editor, and every piece cut to a bound, so
//! that the host's copies cannot grow past the memory the scripts are allowed.

/// The most bytes kept of one printed line.
pub const MAX_PRINT_BYTES: usize = 4096;

/// The most bytes kept of one message to the players.
pub const MAX_MESSAGE_BYTES: usize = 1024;

/// The most bytes kept of one error's message or traceback.
pub const MAX_ERROR_BYTES: usize = 4096;

/// The most lines the console keeps (printed, and notices): older ones are dropped first.
pub const MAX_CONSOLE_LINES: usize = 1000;

/// The most messages to the players one event may send.
pub const MAX_MESSAGES_PER_EVENT: usize = 32;

/// How a text keeps its newlines: printed lines keep them (each line is marked as the
/// script's where it is shown, see `ConsoleLine`), everything else a script says (messages,
/// errors, names) is one line, a newline written `\n`, so that no line of it can pass for the
/// host's own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// Newlines kept.
    Kept,
    /// Newlines written `\n`.
    Escaped,
}

/// `text` with control characters (other than newline and tab) written as escapes (`\x1b`,
/// `\u{85}`), cut to at most about `max_bytes` with a note of how much was cut.
pub fn shown(text: &str, max_bytes: usize) -> String {
    shown_with_more(text, 0, max_bytes, Lines::Kept)
}

/// As `shown`, on one line (a newline written `\n`).
pub fn shown_line(text: &str, max_bytes: usize) -> String {
    shown_with_more(text, 0, max_bytes, Lines::Escaped)
}

/// The first `max_bytes` of a script's bytes as text on one line (the rest is not even
/// copied): a message, a reason, a line said to the players.
pub fn shown_bytes(bytes: &[u8], max_bytes: usize) -> String {
    let kept = bytes.len().min(max_bytes);
    shown_prefix(
        &bytes[..kept],
        bytes.len() - kept,
        max_bytes,
        Lines::Escaped,
    )
}

/// The `kept` first bytes of a longer text, of which `more` bytes were not even copied.
pub fn shown_prefix(kept: &[u8], more: usize, max_bytes: usize, lines: Lines) -> String {
    // Most of what scripts say is short printable ASCII, shown as it is: one pass, one copy.
    if more == 0
        && kept.len() <= max_bytes
        && kept.iter().all(|&b| is_plain(b, lines))
        && let Ok(text) = std::str::from_utf8(kept)
    {
        return text.to_owned();
    }
    shown_with_more(&String::from_utf8_lossy(kept), more, max_bytes, lines)
}

/// A byte shown as itself: printable ASCII, a tab, and a newline where newlines are kept.
fn is_plain(byte: u8, lines: Lines) -> bool {
    (b' '..=b'~').contains(&byte) || byte == b'\t' || (byte == b'\n' && lines == Lines::Kept)
}

/// `text` escaped and cut, with one note that counts what was cut and the `more` bytes that
/// followed it.
fn shown_with_more(text: &str, more: usize, max_bytes: usize, lines: Lines) -> String {
    if more == 0 && text.len() <= max_bytes && text.bytes().all(|b| is_plain(b, lines)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len().min(max_bytes) + 16);
    let mut cut = 0;
    for (at, c) in text.char_indices() {
        if out.len() >= max_bytes {
            cut = text.len() - at;
            break;
        }
        match c {
            '\n' if lines == Lines::Escaped => out.push_str("\\n"),
            '\n' | '\t' => out.push(c),
            c if c.is_control() && u32::from(c) < 0x80 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let byte = u32::from(c) as usize;
                out.push_str("\\x");
                out.push(char::from(HEX[byte >> 4]));
                out.push(char::from(HEX[byte & 15]));
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    if cut + more > 0 {
        out.push_str(&format!("... ({} more bytes)", cut + more));
    }
    out
}

/// The most bytes of a name, key, id or seat a script passes to the host: longer than any
/// valid one, and refused before it is copied out of Lua.
pub const MAX_NAME_BYTES: usize = 1024;

/// A short text argument from a script (a seat, a name, a key, an id), refused before it is
/// copied out of Lua when it is longer than `MAX_NAME_BYTES`: a call with a 4 MiB "name" makes
/// no copy of it in the host.
pub struct Name(String);

impl Name {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl mlua::FromLua for Name {
    fn from_lua(value: mlua::Value, lua: &mlua::Lua) -> mlua::Result<Self> {
        if let mlua::Value::String(text) = &value {
            let bytes = text.as_bytes();
            if bytes.len() > MAX_NAME_BYTES {
                return Err(mlua::Error::runtime(format!(
                    "a name or key of {} bytes: the most is {MAX_NAME_BYTES}",
                    bytes.len()
                )));
            }
            // No name the game knows holds one, and shown it could start a line of its own.
            if bytes.iter().any(|b| b.is_ascii_control()) {
                return Err(mlua::Error::runtime(format!(
                    "the name or key {} holds a control character",
                    shown_line(&String::from_utf8_lossy(&bytes), 64)
                )));
            }
        }
        String::from_lua(value, lua).map(Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_cut() {
        let cases = [
            ("plain text", 100, "plain text"),
            ("\x1b[2J\x1b]0;pwned\x07", 100, "\\x1b[2J\\x1b]0;pwned\\x07"),
            ("two\nlines\tand a tab", 100, "two\nlines\tand a tab"),
            ("next line \u{85}", 100, "next line \\u{85}"),
            ("abcdefghij", 4, "abcd... (6 more bytes)"),
        ];
        for (text, max, expected) in cases {
            assert_eq!(shown(text, max), expected, "{text:?}");
        }
        assert_eq!(shown_bytes(b"abc\xffdef", 3), "abc... (4 more bytes)");
        assert_eq!(shown_bytes(b"won\nerror: x", 100), "won\\nerror: x");
        assert_eq!(shown_line("a\nb\tc", 100), "a\\nb\tc");
        assert_eq!(shown("a\nb", 100), "a\nb");
    }
}

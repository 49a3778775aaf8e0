//! The seats' names and colours of a mode (`seats.names`, `seats.colours`), and their checks.

use super::SeatRules;

/// The most characters of a seat's name.
pub const MAX_SEAT_NAME_CHARS: usize = 16;

impl SeatRules {
    /// Why the names and colours do not do, if they do not, with the constant at fault: more
    /// than the most seats a game has, a name that is not a lowercase word or names two seats
    /// or another seat's own name, a colour that is not `#rrggbb`. A mode may name more seats
    /// than `count`: a setting that seats more players finds them named.
    pub fn looks_problem(&self) -> Option<(&'static str, String)> {
        let most = crate::board::MAX_SEATS;
        if self.names.len() > most || self.colours.len() > most {
            return Some((
                "seats.names",
                format!("seats.names and seats.colours give at most one a seat, {most} in all"),
            ));
        }
        self.names_problem()
            .map(|p| ("seats.names", p))
            .or_else(|| self.colours_problem().map(|p| ("seats.colours", p)))
    }

    fn names_problem(&self) -> Option<String> {
        for (i, name) in self.names.iter().enumerate() {
            let word = !name.is_empty()
                && name.chars().count() <= MAX_SEAT_NAME_CHARS
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !word {
                return Some(format!(
                    "seats.names: {:?} is not a name: lowercase letters, digits and hyphens, up to {MAX_SEAT_NAME_CHARS}, from a letter",
                    crate::diag::shorten(name, 40)
                ));
            }
            let own_of_another =
                crate::board::Player::from_name(name).is_some_and(|p| p.index() != i);
            if own_of_another || self.names[..i].contains(name) {
                return Some(format!(
                    "seats.names: {name:?} would name two seats; give each seat a name of its own"
                ));
            }
        }
        None
    }

    fn colours_problem(&self) -> Option<String> {
        self.colours
            .iter()
            .find(|c| parse_colour(c).is_none())
            .map(|c| {
                format!(
                    "seats.colours: {:?} is not a colour written #rrggbb",
                    crate::diag::shorten(c, 40)
                )
            })
    }
}

/// A colour written `#rrggbb`, as red, green and blue.
pub fn parse_colour(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#').filter(|h| h.len() == 6)?;
    let channel = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([channel(0)?, channel(2)?, channel(4)?])
}

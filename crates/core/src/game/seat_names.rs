//! A mode's names and colours for the seats (`seats.names`, `seats.colours`). The engine writes
//! a seat by its own word (`gold`, `silver`, `seat3`...) in every text it makes; a client shows
//! a text through `SeatNames::render`, which puts the mode's names in their place.

use crate::board::Player;
use crate::rules::{RuleSet, parse_colour};

/// The names a game's seats go by, and their colours where the mode gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatNames {
    /// Each renamed seat's own word and the mode's name for it.
    renamed: Vec<(&'static str, String)>,
    colours: Vec<Option<[u8; 3]>>,
}

impl SeatNames {
    /// The names and colours `rules` give the seats.
    pub fn of(rules: &RuleSet) -> SeatNames {
        let seats = &rules.seats;
        let renamed = seats
            .names
            .iter()
            .enumerate()
            .filter_map(|(i, name)| Some((Player::seat(i)?.name(), name.clone())))
            .filter(|(own, name)| own != name)
            .collect();
        SeatNames {
            renamed,
            colours: seats.colours.iter().map(|c| parse_colour(c)).collect(),
        }
    }

    /// The name `player` goes by.
    pub fn name(&self, player: Player) -> &str {
        let own = player.name();
        self.renamed
            .iter()
            .find(|(word, _)| *word == own)
            .map_or(own, |(_, name)| name.as_str())
    }

    /// The seat `word` names: the mode's name for it or its own word, in any case.
    pub fn seat_named(&self, word: &str) -> Option<Player> {
        let word = word.to_ascii_lowercase();
        let renamed = self
            .renamed
            .iter()
            .find(|(_, name)| name.to_ascii_lowercase() == word);
        match renamed {
            Some((own, _)) => Player::from_name(own),
            None => Player::from_name(&word),
        }
    }

    /// The mode's colour for `player`, as red, green and blue, if it gives one.
    pub fn colour(&self, player: Player) -> Option<[u8; 3]> {
        self.colours.get(player.index()).copied().flatten()
    }

    /// `text` with every seat's own word (a whole word: `gold`, `gold's`) replaced by the
    /// mode's name for it; the text as it is when the mode renames nothing.
    pub fn render(&self, text: &str) -> String {
        if self.renamed.is_empty() {
            return text.to_string();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphanumeric()) {
            out.push_str(&rest[..start]);
            let word_len = rest[start..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(rest.len() - start);
            let word = &rest[start..start + word_len];
            out.push_str(self.renamed_word(word).unwrap_or(word));
            rest = &rest[start + word_len..];
        }
        out.push_str(rest);
        out
    }

    /// The mode's name for a seat's own `word` (written as the engine writes it), if renamed.
    fn renamed_word(&self, word: &str) -> Option<&str> {
        let (_, name) = self.renamed.iter().find(|(own, _)| *own == word)?;
        Some(name)
    }
}

impl super::Game {
    /// The seat of this game that `word` names (the mode's name for it, or its own word), or
    /// a message listing the seats.
    pub fn seat_called(&self, word: &str) -> Result<Player, String> {
        let names = self.seat_names();
        names
            .seat_named(word)
            .filter(|p| self.seats().any(|s| s == *p))
            .ok_or_else(|| {
                let seats: Vec<&str> = self.seats().map(|p| names.name(p)).collect();
                format!("`{word}` is not a seat of this game ({})", seats.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_modes_names_replace_the_seats_own_words() {
        let mut rules = RuleSet::preset("classic").unwrap();
        rules.seats.names = vec!["white".into(), "brown".into()];
        rules.seats.colours = vec!["#f0f0e8".into()];
        let names = SeatNames::of(&rules);
        assert_eq!(names.name(Player::Silver), "brown");
        assert_eq!(
            names.render("game over: gold wins (silver's last city; golden seat3)"),
            "game over: white wins (brown's last city; golden seat3)"
        );
        assert_eq!(names.colour(Player::Gold), Some([0xf0, 0xf0, 0xe8]));
        assert_eq!(names.seat_named("Brown"), Some(Player::Silver));
        assert_eq!(names.seat_named("gold"), Some(Player::Gold));
        assert_eq!(names.seat_named("black"), None);
        assert_eq!(names.colour(Player::Silver), None);
        let plain = SeatNames::of(&RuleSet::preset("classic").unwrap());
        assert_eq!(plain.render("gold to play"), "gold to play");
        assert_eq!(plain.name(Player::Gold), "gold");
    }
}

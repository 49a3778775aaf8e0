//! The Help screen (Tiles, Word States, Special Tiles, Winning, Combat) and the Credits. Every
//! number in the help is read from the rule set in play, so the help never disagrees with the
//! game.

use scryptic_core::RuleSet;

/// A help topic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Topic {
    /// Terrain.
    #[default]
    Tiles,
    /// Valid, invalid and disconnected words.
    WordStates,
    /// Cities and elemental tokens.
    SpecialTiles,
    /// How a game ends.
    Winning,
    /// Attacks and defences.
    Combat,
}

impl Topic {
    /// Every topic, in the menu's order.
    pub const ALL: [Topic; 5] = [
        Topic::Tiles,
        Topic::WordStates,
        Topic::SpecialTiles,
        Topic::Winning,
        Topic::Combat,
    ];

    /// The topic's title.
    pub fn title(self) -> &'static str {
        match self {
            Topic::Tiles => "Tiles",
            Topic::WordStates => "Word States",
            Topic::SpecialTiles => "Special Tiles",
            Topic::Winning => "Winning",
            Topic::Combat => "Combat",
        }
    }
}

/// The value of `key` (`section.field`) in `rules`, in words (`HeavyLetters` as "heavy
/// letters", `{"PerLetter":{"factor":1.5}}` as "per letter, factor 1.5"), never as the rule
/// files write it.
fn value(rules: &RuleSet, key: &str) -> String {
    let json = serde_json::to_value(rules).unwrap_or_default();
    let pointer = format!("/{}", key.replace('.', "/"));
    json.pointer(&pointer).map_or_else(|| "?".into(), in_words)
}

/// A rule's value as a sentence would say it.
fn in_words(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::String(s) => words_of(s),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| match v {
                Value::Object(_) => format!("{}, {}", words_of(k), in_words(v)),
                Value::Null => words_of(k),
                _ => format!("{} {}", words_of(k), in_words(v)),
            })
            .collect::<Vec<_>>()
            .join("; "),
        Value::Array(items) => items.iter().map(in_words).collect::<Vec<_>>().join(", "),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Null => "none".into(),
        Value::Number(n) => n.to_string(),
    }
}

/// `HeavyLetters` and `min_word_length` as "heavy letters" and "min word length".
fn words_of(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c == '_' {
            out.push(' ');
        } else if c.is_uppercase() {
            if i > 0 && !out.ends_with(' ') {
                out.push(' ');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The text of `topic` under `rules`.
pub fn text(topic: Topic, rules: &RuleSet) -> String {
    let v = |key: &str| value(rules, key);
    match topic {
        Topic::Tiles => format!(
            "Plains take any letter. Forest must be cut: the word's placement strength must \
             match the density of the forest under its new letters (a forest cell's density is \
             {} unless the map says otherwise); cut forest becomes plains. Water can be crossed \
             but a word may not begin or end on it; a letter on water costs {} strength. \
             Mountains strengthen the letters on them ({}). Ice carries light words; heavy \
             letters break it (collapse rule: {}), and the word is lost. Lava takes no letter.",
            v("board.default_forest_density"),
            v("strength.water_penalty"),
            v("strength.mountain"),
            v("ice.collapse"),
        ),
        Topic::WordStates => format!(
            "A valid word is in the dictionary and linked: its coins are joined. An invalid word \
             (a fragment left by an attack, or damaged by an element) shows its letters without \
             links and scores nothing until new letters make it a word again. A disconnected \
             word has no path of letters to one of its player's cities: it is grey, defends at \
             x{} and cannot be lifted. A word with a defensive connotation has a thicker link.",
            v("strength.disconnected_defence_multiplier"),
        ),
        Topic::SpecialTiles => format!(
            "Cities are gold, silver or pewter (neutral). Cover a city with a letter to capture \
             it: a contested city is worth {} base points, a neutral one {}. A jewel is an \
             elemental token: build across it to put it on your rack, and invoke it in your \
             turn (volcano, drought, flood, firestorm, or a kind the level's scripts define). \
             You may ask the spy {} times a game for the strongest word your rack can make.",
            v("capture.city_capture_bonus"),
            v("capture.neutral_city_bonus"),
            v("turn.spies_per_game"),
        ),
        Topic::Winning => "A player with no city left loses (conquest). A player whose pool \
             and rack are empty ends the game (exhaustion), and the higher score wins. When both \
             pools are empty and both players pass, the game ends in a stalemate, decided by \
             score. A level's scripts may add their own win conditions. Your score is your word \
             score (the face values of your valid words) plus your base score (combat gains and \
             city bonuses)."
            .to_string(),
        Topic::Combat => format!(
            "A word that crosses or touches an opponent's word attacks every valid enemy word it \
             touches. Before it is committed, the combat dialog shows its attack strength and \
             each defender's, with the modifiers as ideograms (a peak for mountains, blades, a shield or a \
             crescent for connotations, waves for water, a tower for a defender's city, a broken \
             link when disconnected, a page for a script, a red cross for a repel penalty). The \
             defender orders the defenders (or leaves it to the automatic order). The attack \
             fights them one by one, spending {} for each defender it defeats and gaining {} \
             for it; if a defender holds, the attack's letters are lost and the defender carries \
             the attack as a penalty until the attacker's turn ends.",
            v("combat.cost"),
            v("combat.gain"),
        ),
    }
}

/// The Help screen's state: the topic shown.
#[derive(Default)]
pub struct HelpScreen {
    /// The topic shown.
    pub topic: Topic,
}

impl HelpScreen {
    /// The topics on the left, the chosen one's text beside them.
    pub fn ui(&mut self, ui: &mut egui::Ui, rules: &RuleSet) {
        ui.heading("Help");
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                for topic in Topic::ALL {
                    ui.selectable_value(&mut self.topic, topic, topic.title());
                }
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.set_max_width(560.0);
                ui.heading(self.topic.title());
                ui.label(text(self.topic, rules));
            });
        });
    }
}

/// The Credits screen.
pub fn credits_ui(ui: &mut egui::Ui) {
    ui.heading("Scryptic");
    ui.label("Game design (design document v1.6, 2010):");
    for line in [
        "James Gain - Development",
        "Patrick Marais - Development",
        "Stephen Meyer - Art",
        "Luciano Silva - Playtesting, Audio",
    ] {
        ui.label(line);
    }
    ui.separator();
    ui.label("The modding and level-editor toolkit: the Scryptic team.");
    ui.label(
        "Built with egui and eframe, mlua (Lua 5.4), fst, serde and RON, notify, image, rand \
         and rayon. Word lists from SCOWL and meanings from WordNet (see lexicon/SOURCES.md).",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help speaks in words under both presets: no rule file syntax (braces, quotes,
    /// CamelCase names) reaches the player.
    #[test]
    fn the_help_says_the_rules_in_words() {
        for preset in RuleSet::preset_names() {
            let rules = RuleSet::preset(preset).unwrap();
            for topic in Topic::ALL {
                let said = text(topic, &rules);
                for raw in ['{', '}', '"', '?'] {
                    assert!(!said.contains(raw), "{preset} {topic:?}: {said}");
                }
                let camel = said
                    .split(|c: char| !c.is_alphanumeric())
                    .find(|w| w.chars().skip(1).any(char::is_uppercase));
                assert_eq!(camel, None, "{preset} {topic:?}: {said}");
            }
        }
        assert_eq!(words_of("HeavyLetters"), "heavy letters");
    }
}

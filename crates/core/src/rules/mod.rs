//! Rule sets: every constant and either/or of docs/RULES.md, read from RON at run time.
//!
//! A [`RuleSet`] is complete: every constant has a value. The shipped presets (`gdd-1.6`,
//! `classic`) are complete rule sets in RON. What designers write is a [`RuleSpec`]: a preset
//! plus overrides, either inside a map or in a rule-set file ([`RuleFile`]).
//!
//! Invariant: no rule constant is written in code; code reads it from a `RuleSet`.

mod seats;
mod sections;

pub use seats::{MAX_SEAT_NAME_CHARS, parse_colour};
pub use sections::*;

use crate::diag::{FileError, LoadError, line_col_of, nearest_name};
use crate::{fsutil, ronfile};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version of rule-set files this build writes and reads.
pub const RULE_FILE_VERSION: u32 = 1;

/// The presets shipped with the runtime: name and RON source.
const PRESETS: [(&str, &str); 2] = [
    ("gdd-1.6", include_str!("../../presets/gdd-1.6.ron")),
    ("classic", include_str!("../../presets/classic.ron")),
];

/// Every constant and option of the rules, complete.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// The rule set's name (a preset's name, or the name a rule file gives).
    pub name: String,
    /// What it is, in a sentence or two.
    pub description: String,
    /// Map sizes and cell defaults.
    pub board: BoardRules,
    /// Alphabet, values, distribution and pool.
    pub letters: LetterRules,
    /// Racks, draws, redeployments and spies.
    pub turn: TurnRules,
    /// What a committed word must satisfy.
    pub placement: PlacementRules,
    /// Word strength.
    pub strength: StrengthRules,
    /// Combat.
    pub combat: CombatRules,
    /// Validity of fragments.
    pub validity: ValidityRules,
    /// Ice.
    pub ice: IceRules,
    /// City bonuses.
    pub capture: CaptureRules,
    /// Redeployment.
    pub redeploy: RedeployRules,
    /// Elemental token sizes.
    pub tokens: TokenRules,
    /// End of the game.
    pub end: EndRules,
    /// Where letters come from and when racks are replenished (read as the original model
    /// when a complete rule set written before the section lacks it).
    #[serde(default)]
    pub supply: SupplyRules,
    /// Trading letters back (none when a complete rule set written before the section lacks
    /// it).
    #[serde(default)]
    pub exchange: ExchangeRules,
    /// Separate or shared crosswords, the first word's place, what scores (Scryptic's when a
    /// complete rule set written before the section lacks it).
    #[serde(default)]
    pub crossword: CrosswordRules,
    /// Passing, plays a turn, skipped players, running out, forfeiting (Scryptic's when a
    /// complete rule set written before the section lacks it).
    #[serde(default)]
    pub flow: FlowRules,
    /// A match of several games, `match` in rule files (a single game when a complete rule
    /// set written before the section lacks it).
    #[serde(default, rename = "match")]
    pub series: MatchRules,
    /// How many players (two when a complete rule set written before the section lacks it).
    #[serde(default)]
    pub seats: SeatRules,
}

/// Overrides of any constants, section by section; what is left out keeps the preset's value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleOverrides {
    /// Overrides of `board`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardOverrides>,
    /// Overrides of `letters`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub letters: Option<LetterOverrides>,
    /// Overrides of `turn`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<TurnOverrides>,
    /// Overrides of `placement`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placement: Option<PlacementOverrides>,
    /// Overrides of `strength`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<StrengthOverrides>,
    /// Overrides of `combat`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatOverrides>,
    /// Overrides of `validity`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validity: Option<ValidityOverrides>,
    /// Overrides of `ice`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ice: Option<IceOverrides>,
    /// Overrides of `capture`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<CaptureOverrides>,
    /// Overrides of `redeploy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redeploy: Option<RedeployOverrides>,
    /// Overrides of `tokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<TokenOverrides>,
    /// Overrides of `end`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<EndOverrides>,
    /// Overrides of `supply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supply: Option<SupplyOverrides>,
    /// Overrides of `exchange`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<ExchangeOverrides>,
    /// Overrides of `crossword`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crossword: Option<CrosswordOverrides>,
    /// Overrides of `flow`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<FlowOverrides>,
    /// Overrides of `match`.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub series: Option<MatchOverrides>,
    /// Overrides of `seats`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<SeatOverrides>,
}

/// Applies `$mac!(section_field, SectionType)` to every section, so that code walking all
/// sections names each one once.
macro_rules! for_each_section {
    ($mac:ident) => {
        $mac!(board, BoardRules);
        $mac!(letters, LetterRules);
        $mac!(turn, TurnRules);
        $mac!(placement, PlacementRules);
        $mac!(strength, StrengthRules);
        $mac!(combat, CombatRules);
        $mac!(validity, ValidityRules);
        $mac!(ice, IceRules);
        $mac!(capture, CaptureRules);
        $mac!(redeploy, RedeployRules);
        $mac!(tokens, TokenRules);
        $mac!(end, EndRules);
        $mac!(supply, SupplyRules);
        $mac!(exchange, ExchangeRules);
        $mac!(crossword, CrosswordRules);
        $mac!(flow, FlowRules);
        $mac!(series, MatchRules);
        $mac!(seats, SeatRules);
    };
}

impl RuleOverrides {
    /// How many constants are overridden.
    pub fn count(&self) -> usize {
        let mut n = 0;
        macro_rules! add {
            ($field:ident, $ty:ident) => {
                n += self.$field.as_ref().map_or(0, |o| o.count());
            };
        }
        for_each_section!(add);
        n
    }

    /// Whether nothing is overridden.
    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }
}

/// The rules a map or a rule-set file asks for: a preset plus overrides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The preset the overrides start from (`gdd-1.6` or `classic`).
    pub preset: String,
    /// The constants that differ from the preset.
    #[serde(default, skip_serializing_if = "RuleOverrides::is_empty")]
    pub overrides: RuleOverrides,
}

impl Default for RuleSpec {
    fn default() -> Self {
        RuleSpec {
            preset: "classic".to_string(),
            overrides: RuleOverrides::default(),
        }
    }
}

/// A rule-set file: a named preset plus overrides, with a format version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    /// The file format's version.
    pub version: u32,
    /// The rule set's name.
    #[serde(default)]
    pub name: String,
    /// What it changes and why.
    #[serde(default)]
    pub description: String,
    /// The preset the overrides start from.
    pub preset: String,
    /// The constants that differ from the preset.
    #[serde(default, skip_serializing_if = "RuleOverrides::is_empty")]
    pub overrides: RuleOverrides,
}

/// A constant's description for people: its key, what it means, its valid range.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleConstant {
    /// `section.field`, as written in rule files.
    pub key: &'static str,
    /// What it means.
    pub description: &'static str,
    /// The lowest and highest valid value, for numbers.
    pub range: Option<(f64, f64)>,
}

/// A rule set that does not make sense, with the constant concerned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleProblem {
    /// `section.field` of the constant, or `preset`.
    pub key: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl std::fmt::Display for RuleProblem {
    /// `key: message`, as clients list problems.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl RuleProblem {
    /// A problem with the constant `key`.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> Self {
        RuleProblem {
            key: key.into(),
            message: message.into(),
        }
    }
}

/// The names the rule set's reader gives for the constant `key` when asked for a value it
/// lacks (none when the constant is no list of names).
fn read_choices(key: &str) -> Vec<&'static str> {
    let Some((section, field)) = key.split_once('.') else {
        return Vec::new();
    };
    let text = format!("({section}: ({field}: NoSuchChoice))");
    match crate::ronfile::options().from_str::<RuleOverrides>(&text) {
        Err(e) => match e.code {
            ron::Error::NoSuchEnumVariant { expected, .. } => expected.to_vec(),
            _ => Vec::new(),
        },
        Ok(_) => Vec::new(),
    }
}

impl RuleSet {
    /// The names of the shipped presets.
    pub fn preset_names() -> impl Iterator<Item = &'static str> {
        PRESETS.iter().map(|(name, _)| *name)
    }

    /// The shipped preset `name`.
    pub fn preset(name: &str) -> Result<RuleSet, RuleProblem> {
        let Some((_, source)) = PRESETS.iter().find(|(n, _)| *n == name) else {
            let hint = match nearest_name(name, RuleSet::preset_names()) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!(
                    "the presets are {}",
                    RuleSet::preset_names().collect::<Vec<_>>().join(", ")
                ),
            };
            return Err(RuleProblem::new(
                "preset",
                format!("unknown preset `{name}`; {hint}"),
            ));
        };
        ronfile::options()
            .from_str(source)
            .map_err(|err| RuleProblem::new("preset", format!("preset {name} is broken: {err}")))
    }

    /// The rule set a spec asks for: its preset with the overrides put over it, validated.
    pub fn from_spec(spec: &RuleSpec) -> Result<RuleSet, Vec<RuleProblem>> {
        let mut rules = RuleSet::preset(&spec.preset).map_err(|p| vec![p])?;
        rules.overlay(&spec.overrides);
        let problems = rules.validate();
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(problems)
        }
    }

    /// Loads a rule-set file (a preset plus overrides) and validates the result.
    pub fn load(path: &Path) -> Result<RuleSet, LoadError> {
        let text = fsutil::read_text(path)?;
        RuleSet::from_file_text(path, &text)
    }

    /// Parses and validates the text of a rule-set file named `path`.
    pub fn from_file_text(path: &Path, text: &str) -> Result<RuleSet, LoadError> {
        let file: RuleFile = ronfile::parse(path, text)?;
        if file.version != RULE_FILE_VERSION {
            let at = locate_key(text, "version");
            return Err(LoadError::one(FileError::at(
                path,
                at,
                format!(
                    "rule-set file version {} is not one this build reads (it reads version {RULE_FILE_VERSION})",
                    file.version
                ),
            )));
        }
        let spec = RuleSpec {
            preset: file.preset,
            overrides: file.overrides,
        };
        let mut rules = RuleSet::from_spec(&spec)
            .map_err(|problems| LoadError::Problems(locate_problems(path, text, &problems)))?;
        if !file.name.is_empty() {
            rules.name = file.name;
        }
        if !file.description.is_empty() {
            rules.description = file.description;
        }
        Ok(rules)
    }

    /// Puts overrides over this rule set.
    pub fn overlay(&mut self, overrides: &RuleOverrides) {
        macro_rules! apply {
            ($field:ident, $ty:ident) => {
                if let Some(o) = &overrides.$field {
                    self.$field.overlay(o);
                }
            };
        }
        for_each_section!(apply);
    }

    /// Every constant of every section, with descriptions and ranges.
    pub fn constants() -> Vec<RuleConstant> {
        let mut out = Vec::new();
        macro_rules! describe {
            ($field:ident, $ty:ident) => {
                $ty::constants(&mut out);
            };
        }
        for_each_section!(describe);
        out
    }

    /// The overrides that set the constant `key` (`section.field`) to `value`, written as a
    /// rule file writes it (`3`, `true`, `Loser`): the rule set's own reader checks its type.
    pub fn constant_override(key: &str, value: &str) -> Result<RuleOverrides, String> {
        let (section, field) = key
            .split_once('.')
            .ok_or_else(|| format!("`{key}` is not a constant: name one as section.field"))?;
        let text = format!("({section}: ({field}: {value}))");
        crate::ronfile::options()
            .from_str(&text)
            .map_err(|e| e.code.to_string())
    }

    /// The values the constant `key` takes by name, when it is one of a list (`Match`,
    /// `Exceed`): read once from the rule set's own reader, which names them when asked for
    /// one it lacks. Empty for numbers, flags, tables and unknown keys.
    pub fn constant_choices(key: &str) -> &'static [&'static str] {
        static CHOICES: std::sync::OnceLock<std::collections::HashMap<&str, Vec<&str>>> =
            std::sync::OnceLock::new();
        let choices = CHOICES.get_or_init(|| {
            RuleSet::constants()
                .into_iter()
                .map(|c| (c.key, read_choices(c.key)))
                .collect()
        });
        choices.get(key).map_or(&[], Vec::as_slice)
    }

    /// This rule set with the constant `key` set to `value` (see `constant_override`), refused
    /// with the reason when the key names no constant, the value does not fit it, or the rules
    /// it makes do not make sense.
    pub fn with_constant(&self, key: &str, value: &str) -> Result<RuleSet, String> {
        if !RuleSet::constants().iter().any(|c| c.key == key) {
            return Err(format!(
                "`{key}` is not a rule constant (`scryptic rules show classic` lists them)"
            ));
        }
        let overrides = RuleSet::constant_override(key, value)
            .map_err(|e| {
                format!(
                    "{key} cannot be {value} ({e}): write the value as `scryptic rules show` writes this constant (a whole number without a point, true or false, or a name)"
                )
            })?;
        let mut rules = self.clone();
        rules.overlay(&overrides);
        let problems = rules.validate();
        match problems.first() {
            None => Ok(rules),
            Some(problem) => Err(format!(
                "{key} = {value} makes rules that do not make sense: {problem}"
            )),
        }
    }

    /// The valid range of the numeric constant `key` (`board.default_forest_density`).
    pub fn constant_range(key: &str) -> Option<(f64, f64)> {
        RuleSet::constants()
            .into_iter()
            .find(|c| c.key == key)
            .and_then(|c| c.range)
    }

    /// A set split between the players or shared by them is finite: it cannot be drawn with
    /// replacement.
    fn check_supply(&self, out: &mut Vec<RuleProblem>) {
        if self.letters.infinite_pool && self.supply.pool != PoolModel::CopyEach {
            out.push(RuleProblem::new(
                "supply.pool",
                format!(
                    "supply.pool is {:?}, which deals one set of letters, but letters.infinite_pool is true; \
                     set letters.infinite_pool to false or supply.pool to CopyEach",
                    self.supply.pool
                ),
            ));
        }
        let flow = &self.flow;
        if !flow.may_pass && !flow.forfeit && !self.exchange.allowed {
            out.push(RuleProblem::new(
                "flow.may_pass",
                "flow.may_pass is false, but neither flow.forfeit nor exchange.allowed is true: \
                 a player who cannot make a word would have nothing to do; allow one of them",
            ));
        }
        match self.supply.opening_rack(&self.turn, self.seats.count) {
            Err(message) => out.push(RuleProblem::new("supply.opening", message)),
            // An opening of turn.start_rack is checked with it (check_turn).
            Ok(_) if self.supply.opening == Opening::By(OpeningRule::StartRack) => {}
            Ok(n) if !(0..=self.turn.rack_limit).contains(&n) => out.push(RuleProblem::new(
                "supply.opening",
                format!(
                    "supply.opening deals {n} letters each, but turn.rack_limit is {}: players would have to discard before their first move; raise rack_limit or deal from 0 to it",
                    self.turn.rack_limit
                ),
            )),
            Ok(n) => self.check_deal_fits(n, out),
        }
        let crossword = &self.crossword;
        if crossword.model == CrosswordModel::Separate && crossword.first_word != FirstWord::OwnCity
        {
            out.push(RuleProblem::new(
                "crossword.first_word",
                format!(
                    "crossword.first_word is {:?}, but separate crosswords each start from a city \
                     their player owns; set crossword.first_word to OwnCity or crossword.model to Shared",
                    crossword.first_word
                ),
            ));
        }
    }

    /// Refuses opening racks of `each` letters that one set of the letters cannot deal.
    fn check_deal_fits(&self, each: i64, out: &mut Vec<RuleProblem>) {
        if self.letters.infinite_pool {
            return;
        }
        let set: i64 = self.letters.tiles.values().map(|t| t.count.max(0)).sum();
        let dealt = match self.supply.pool {
            PoolModel::CopyEach => each,
            PoolModel::Split | PoolModel::Shared => each.saturating_mul(self.seats.count),
        };
        if dealt > set {
            out.push(RuleProblem::new(
                "supply.opening",
                format!(
                    "the opening racks take {dealt} letters ({each} each), but the letters number {set}; deal fewer or seat fewer players"
                ),
            ));
        }
    }

    /// Everything that does not make sense in this rule set (empty when it is sound).
    pub fn validate(&self) -> Vec<RuleProblem> {
        let mut out = Vec::new();
        macro_rules! ranges {
            ($field:ident, $ty:ident) => {
                self.$field.check_ranges(&mut out);
            };
        }
        for_each_section!(ranges);
        self.check_board(&mut out);
        self.check_turn(&mut out);
        self.check_letters(&mut out);
        self.check_strength(&mut out);
        self.check_supply(&mut out);
        self.check_seats(&mut out);
        if let Limit::AtMost(n) = self.redeploy.max_crossing_words
            && n < 0
        {
            out.push(RuleProblem::new(
                "redeploy.max_crossing_words",
                format!(
                    "redeploy.max_crossing_words is AtMost({n}); it must be 0 or more, or Unlimited"
                ),
            ));
        }
        out
    }

    /// More than two players only where nothing is played between two: a shared crossword,
    /// and none of the rules that name "the other player".
    fn check_seats(&self, out: &mut Vec<RuleProblem>) {
        if let Some((key, problem)) = self.seats.looks_problem() {
            out.push(RuleProblem::new(key, problem));
        }
        let count = self.seats.count;
        if count <= 2 {
            return;
        }
        let two_player_only = [
            (
                self.crossword.model == CrosswordModel::Separate,
                "crossword.model is Separate (a word touching another's attacks it); set it to Shared",
            ),
            (self.flow.sudden_death, "flow.sudden_death is true"),
            (self.flow.forfeit, "flow.forfeit is true"),
            (
                self.flow.no_word_ends_turns_in_a_row,
                "flow.no_word_ends_turns_in_a_row is true",
            ),
            (
                self.crossword.final_award != FinalAward::Nothing,
                "crossword.final_award is not Nothing",
            ),
            (self.series.rounds > 1, "match.rounds is more than 1"),
        ];
        for (_, what) in two_player_only.iter().filter(|(applies, _)| *applies) {
            out.push(RuleProblem::new(
                "seats.count",
                format!(
                    "seats.count is {count}, but {what}: that rule is played by two players alone"
                ),
            ));
        }
    }

    fn check_board(&self, out: &mut Vec<RuleProblem>) {
        let b = &self.board;
        if b.min_side > b.max_side {
            out.push(RuleProblem::new(
                "board.max_side",
                format!(
                    "board.max_side ({}) is below board.min_side ({}); raise max_side or lower min_side",
                    b.max_side, b.min_side
                ),
            ));
        }
    }

    fn check_turn(&self, out: &mut Vec<RuleProblem>) {
        let t = &self.turn;
        if t.rack_limit < t.start_rack {
            out.push(RuleProblem::new(
                "turn.rack_limit",
                format!(
                    "turn.rack_limit ({}) is below turn.start_rack ({}): players would have to discard before their first move; raise rack_limit or lower start_rack",
                    t.rack_limit, t.start_rack
                ),
            ));
        }
    }

    fn check_letters(&self, out: &mut Vec<RuleProblem>) {
        let tiles = &self.letters.tiles;
        for (&letter, tile) in tiles {
            if !letter.is_ascii_uppercase() {
                out.push(RuleProblem::new(
                    "letters.tiles",
                    format!("letters.tiles has '{letter}'; letters must be uppercase A to Z"),
                ));
            }
            if !(0..=1000).contains(&tile.value) || !(0..=100_000).contains(&tile.count) {
                out.push(RuleProblem::new(
                    "letters.tiles",
                    format!(
                        "letters.tiles '{letter}' has value {} and count {}; values must be from 0 to 1000 and counts from 0 to 100000",
                        tile.value, tile.count
                    ),
                ));
            }
        }
        if tiles.values().all(|t| t.count <= 0) {
            out.push(RuleProblem::new(
                "letters.tiles",
                "letters.tiles gives every letter a count of 0: the pools would be empty; give some letters a count",
            ));
        }
    }

    fn check_strength(&self, out: &mut Vec<RuleProblem>) {
        let (name, factor) = match self.strength.mountain {
            Mountain::WordAverage { mountain_weight } => ("mountain_weight", mountain_weight),
            Mountain::PerLetter { factor } => ("factor", factor),
        };
        if !factor.is_finite() || !(0.0..=100.0).contains(&factor) {
            out.push(RuleProblem::new(
                "strength.mountain",
                format!("strength.mountain's {name} is {factor}; it must be from 0 to 100"),
            ));
        }
        for (list, c) in &self.strength.connotations {
            let valid_name = !list.is_empty()
                && list.chars().all(|ch| {
                    ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_' || ch == '-'
                });
            if !valid_name {
                out.push(RuleProblem::new(
                    "strength.connotations",
                    format!(
                        "connotation `{list}`: names are lowercase letters, digits, `_` and `-`"
                    ),
                ));
            }
            for (what, v) in [
                ("attack", c.attack),
                ("defence", c.defence),
                ("forest", c.forest),
            ] {
                if !v.is_finite() || !(0.0..=100.0).contains(&v) {
                    out.push(RuleProblem::new(
                        "strength.connotations",
                        format!(
                            "connotation `{list}` has {what} {v}; multipliers must be from 0 to 100"
                        ),
                    ));
                }
            }
        }
    }

    /// The value of letter `letter` in pips, if the alphabet has it.
    pub fn letter_value(&self, letter: char) -> Option<i64> {
        self.letters.tiles.get(&letter).map(|t| t.value)
    }

    /// The rule set as a rule-set file: `preset` with every constant overridden, so that the
    /// file loads as exactly this rule set (`rules show` prints it; `rules check` and
    /// `play --rules` take it).
    pub fn to_rule_file(&self, preset: &str) -> RuleFile {
        let mut overrides = RuleOverrides::default();
        macro_rules! all {
            ($field:ident, $ty:ident) => {
                overrides.$field = Some((&self.$field).into());
            };
        }
        for_each_section!(all);
        RuleFile {
            version: RULE_FILE_VERSION,
            name: self.name.clone(),
            description: self.description.clone(),
            preset: preset.to_string(),
            overrides,
        }
    }

    /// [`RuleSet::to_rule_file`] as canonical RON.
    pub fn to_rule_file_ron(&self, preset: &str) -> String {
        ronfile::to_canonical(&self.to_rule_file(preset), 3)
            .unwrap_or_else(|err| format!("// cannot write rules: {err}\n"))
    }

    /// The rule set as canonical RON.
    pub fn to_ron(&self) -> String {
        ronfile::to_canonical(self, 3)
            .unwrap_or_else(|err| format!("// cannot write rules: {err}\n"))
    }
}

/// Turns rule problems into file errors, pointing at the key where the file names it.
pub fn locate_problems(path: &Path, text: &str, problems: &[RuleProblem]) -> Vec<FileError> {
    problems
        .iter()
        .map(|p| {
            let field = p.key.rsplit('.').next().unwrap_or(&p.key);
            FileError::at(path, locate_key(text, field), p.message.clone())
        })
        .collect()
}

/// Line and column of the first `key:` in `text` (a field written in RON), if any.
pub fn locate_key(text: &str, key: &str) -> Option<(usize, usize)> {
    key_offset(text, key).map(|start| line_col_of(text, start))
}

/// The byte offset of the first `key:` in `text` (a field written in RON), if any.
pub fn key_offset(text: &str, key: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find(key) {
        let start = from + found;
        let end = start + key.len();
        let starts_word = start == 0 || !is_ident_byte(bytes[start - 1]);
        let rest = text[end..].trim_start();
        if starts_word && rest.starts_with(':') {
            return Some(start);
        }
        from = end;
    }
    None
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[cfg(test)]
mod tests;

//! The sections of a rule set. Each section is declared once, by `rule_section!`, which makes
//! the section itself, its overrides (every field optional), the overlay of one on the other,
//! the range checks, and the descriptions that `scryptic rules show` and the editor display.

use super::{RuleConstant, RuleProblem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How an override combines with the value it overrides: plain values are replaced, tables
/// (letters, connotations) are merged entry by entry so that a mod can change one letter.
pub trait Overlay {
    /// Puts `with` over `self`.
    fn overlay(&mut self, with: Self);
}

macro_rules! replace_on_overlay {
    ($($t:ty),*) => { $(impl Overlay for $t { fn overlay(&mut self, with: Self) { *self = with; } })* };
}
replace_on_overlay!(
    i64,
    f64,
    bool,
    Mountain,
    ForestCut,
    CombatCost,
    CombatGain,
    Fragments,
    IceCollapse,
    LiftCheck,
    Limit,
    Conquest,
    PoolModel,
    DrawModel,
    CrosswordModel,
    FirstWord,
    Scoring,
    Exhaustion,
    ExhaustionWinner,
    FinalAward,
    NextFirst,
    RoundPoints,
    Opening,
    Vec<i64>,
    Vec<String>
);

impl<K: Ord, V> Overlay for BTreeMap<K, V> {
    fn overlay(&mut self, with: Self) {
        self.extend(with);
    }
}

/// A value that has a valid range.
trait Ranged {
    fn as_f64(&self) -> f64;
}

impl Ranged for i64 {
    fn as_f64(&self) -> f64 {
        *self as f64
    }
}

impl Ranged for f64 {
    fn as_f64(&self) -> f64 {
        *self
    }
}

fn check_range(key: String, value: &impl Ranged, (lo, hi): (f64, f64), out: &mut Vec<RuleProblem>) {
    let v = value.as_f64();
    if !v.is_finite() || v < lo || v > hi {
        out.push(RuleProblem::new(
            key.clone(),
            format!("{key} is {v}; it must be from {lo} to {hi}"),
        ));
    }
}

macro_rules! rule_section {
    (
        $(#[$sattr:meta])*
        $section:literal => $name:ident / $over:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty $(, range($lo:expr, $hi:expr))?;
            )*
        }
    ) => {
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        $(#[$sattr])*
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        #[doc = concat!("Overrides of the `", $section, "` section: a field left out keeps the preset's value.")]
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $over {
            $(
                $(#[doc = $doc])*
                #[serde(skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }

        impl From<&$name> for $over {
            /// Overrides of every constant of the section, to the values of `section`.
            fn from(section: &$name) -> $over {
                $over { $( $field: Some(section.$field.clone()), )* }
            }
        }

        impl $over {
            /// How many constants this overrides.
            pub fn count(&self) -> usize {
                0 $( + usize::from(self.$field.is_some()) )*
            }
        }

        impl $name {
            /// The section's name in rule files.
            pub const SECTION: &'static str = $section;

            /// Puts the given overrides over these values.
            pub fn overlay(&mut self, overrides: &$over) {
                $( if let Some(v) = &overrides.$field { Overlay::overlay(&mut self.$field, v.clone()); } )*
            }

            /// Every constant of the section, with its description and range.
            pub fn constants(out: &mut Vec<RuleConstant>) {
                $(
                    out.push(RuleConstant {
                        key: concat!($section, ".", stringify!($field)),
                        description: concat!($($doc, "\n",)*).trim(),
                        range: None $( .or(Some(($lo as f64, $hi as f64))) )?,
                    });
                )*
            }

            /// Values outside their ranges.
            #[allow(unused_variables, clippy::ptr_arg, reason = "sections without numbers have nothing to check")]
            pub fn check_ranges(&self, out: &mut Vec<RuleProblem>) {
                $( $( check_range(
                    concat!($section, ".", stringify!($field)).to_string(),
                    &self.$field,
                    ($lo as f64, $hi as f64),
                    out,
                ); )? )*
            }
        }
    };
}

rule_section! {
    /// The board: map sizes and the defaults for cells a map does not set.
    "board" => BoardRules / BoardOverrides {
        /// The fewest rows or columns a map may have.
        min_side: i64, range(1, 1024);
        /// The most rows or columns a map may have.
        max_side: i64, range(1, 1024);
        /// Density of a forest cell whose map does not set one.
        default_forest_density: i64, range(0, 1000);
        /// Thickness of an ice cell whose map does not set one.
        default_ice_thickness: i64, range(0, 1000);
    }
}

/// One letter of the alphabet: its value in pips and how many each pool holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tile {
    /// Pips: the letter's strength.
    pub value: i64,
    /// How many of it each player's pool starts with.
    pub count: i64,
}

rule_section! {
    /// Letters: the alphabet, values, distribution and pool.
    "letters" => LetterRules / LetterOverrides {
        /// Every letter with its value and its count in a pool (uppercase A-Z).
        tiles: BTreeMap<char, Tile>;
        /// Whether pools never run out (letters are drawn with replacement, by the counts as weights).
        infinite_pool: bool;
    }
}

rule_section! {
    /// Turns: racks, draws, redeployments and spies.
    "turn" => TurnRules / TurnOverrides {
        /// Letters each player draws before their first turn.
        start_rack: i64, range(0, 1000);
        /// Letters drawn at the start of each of a player's turns but their first.
        draw_per_turn: i64, range(0, 1000);
        /// The most items (letters and tokens) a rack holds; over it the player discards.
        rack_limit: i64, range(1, 1000);
        /// How many words a player may lift and replay in one turn.
        redeploys_per_turn: i64, range(0, 1000);
        /// How many times in a game a player may ask for the strongest placement.
        spies_per_game: i64, range(0, 1000);
    }
}

/// How strong a word must be to cut through forest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestCut {
    /// Placement strength must be strictly greater than the forest's total density.
    Exceed,
    /// Placement strength must be at least the forest's total density.
    Match,
}

rule_section! {
    /// Placement: what a committed word must satisfy.
    "placement" => PlacementRules / PlacementOverrides {
        /// The shortest word (main word or cross-word).
        min_word_length: i64, range(1, 100);
        /// Whether placement strength must exceed or only match the forest's density.
        forest_cut: ForestCut;
    }
}

/// How mountains strengthen a word.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Mountain {
    /// The whole word: face x (w*M + O) / (M + O), M letters on mountains, O the others.
    WordAverage {
        /// The weight `w` of a letter on a mountain.
        mountain_weight: f64,
    },
    /// Each letter on a mountain counts this many times its value.
    PerLetter {
        /// The factor for a letter on a mountain.
        factor: f64,
    },
}

/// What a connotation (a semantic word list) does to a word's strength.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Connotation {
    /// Multiplier when the word attacks.
    pub attack: f64,
    /// Multiplier when the word defends.
    pub defence: f64,
    /// Multiplier of placement strength when cutting through forest.
    pub forest: f64,
}

rule_section! {
    /// Word strength: terrain, connotations and penalties.
    "strength" => StrengthRules / StrengthOverrides {
        /// How letters on mountains strengthen a word.
        mountain: Mountain;
        /// Multiplier of an attack with any letter on water (1 = none).
        water_attack_multiplier: f64, range(0, 100);
        /// Multiplier of a defence with a letter on a city the defender owns (1 = none).
        own_city_defence_multiplier: f64, range(0, 100);
        /// Multiplier of a disconnected word's defence.
        disconnected_defence_multiplier: f64, range(0, 100);
        /// Subtracted, after rounding, from a word with any letter on water (attack and defence).
        water_penalty: i64, range(0, 1000);
        /// Added, after rounding, to a defence with a letter on a city the defender owns.
        own_city_defence_bonus: i64, range(0, 1000);
        /// Whether a word that repels an attack is weakened by that attack's strength until the attacker's turn ends.
        repel_penalty: bool;
        /// Connotations by list name (the lists are in `lexicon/`) and their multipliers.
        connotations: BTreeMap<String, Connotation>;
    }
}

/// What an attack spends to defeat a defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatCost {
    /// The defender's face value.
    FaceValue,
    /// The defender's defence strength.
    Defence,
}

/// What the attacker gains for a defeated defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatGain {
    /// The value of the letters removed from the board.
    RemovedLetters,
    /// The defender's defence strength.
    Defence,
}

rule_section! {
    /// Combat: how an attack wears down and what it earns.
    "combat" => CombatRules / CombatOverrides {
        /// What the attack spends on each defender it defeats.
        cost: CombatCost;
        /// What the attacker's base score gains for each defender defeated.
        gain: CombatGain;
    }
}

/// When runs of letters left behind by combat or an effect count as words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fragments {
    /// They are invalid until the end of the current turn.
    InvalidUntilTurnEnd,
    /// They are checked against the dictionary at once.
    Recheck,
}

rule_section! {
    /// Validity of words left behind.
    "validity" => ValidityRules / ValidityOverrides {
        /// When fragments left by combat or effects are checked.
        fragments: Fragments;
    }
}

/// Which ice cells give way under a word that is too heavy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IceCollapse {
    /// Every ice cell under the word becomes water.
    WholeWord,
    /// Only the cells whose letter is heavier than the ice become water.
    HeavyLetters,
}

rule_section! {
    /// Ice: what happens under heavy words.
    "ice" => IceRules / IceOverrides {
        /// Which ice cells turn to water when a placed letter is heavier than its ice.
        collapse: IceCollapse;
    }
}

rule_section! {
    /// Captures: what cities are worth.
    "capture" => CaptureRules / CaptureOverrides {
        /// Base score for capturing a city the opponent owned.
        city_capture_bonus: i64, range(-1_000_000, 1_000_000);
        /// Base score for capturing a neutral city.
        neutral_city_bonus: i64, range(-1_000_000, 1_000_000);
    }
}

/// What must hold after a word is lifted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LiftCheck {
    /// Every own word must still be valid and connected.
    KeepValidAndConnected,
    /// Nothing more is checked.
    Nothing,
}

/// A count that may be unlimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// No limit.
    Unlimited,
    /// At most this many.
    AtMost(i64),
}

rule_section! {
    /// Redeployment: lifting a word back to the rack.
    "redeploy" => RedeployRules / RedeployOverrides {
        /// What must hold after lifting.
        after_lift: LiftCheck;
        /// How many other words may cross a word that is lifted.
        max_crossing_words: Limit;
        /// Whether an invalid (defeated) word may be lifted.
        lift_invalid: bool;
        /// Whether a disconnected word may be lifted.
        lift_disconnected: bool;
    }
}

rule_section! {
    /// The standard elemental tokens' sizes.
    "tokens" => TokenRules / TokenOverrides {
        /// Cells of lava a volcano spreads, grown at random from its spot.
        volcano_cells: i64, range(0, 1_000_000);
        /// Radius within which a drought turns water to plains.
        drought_radius: i64, range(0, 4096);
        /// Radius within which a flood turns plains and forest to water.
        flood_radius: i64, range(0, 4096);
        /// Radius within which a firestorm turns forest to plains.
        firestorm_radius: i64, range(0, 4096);
    }
}

/// What a conquest (a player left with no city) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Conquest {
    /// The other player wins, whatever the score.
    OpponentWins,
    /// The game ends and the higher score wins.
    HigherScore,
}

rule_section! {
    /// The end of the game.
    "end" => EndRules / EndOverrides {
        /// What happens when a player owns no city.
        conquest: Conquest;
        /// With both pools empty, this many passes in a row end the game.
        passes_to_end: i64, range(1, 1000);
    }
}

/// Where the letters players draw come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PoolModel {
    /// Each player's pool holds the whole distribution (a copy each).
    CopyEach,
    /// One set of the distribution, shuffled and split evenly: each player draws from an own
    /// pile of half of it (an odd letter out goes to the player who moves first).
    Split,
    /// One set of the distribution in one pool that both players draw from.
    Shared,
}

/// When a player's rack is replenished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DrawModel {
    /// `turn.draw_per_turn` letters at the start of each of the player's turns but the first.
    PerTurn,
    /// At the end of each of the player's turns, the rack is refilled to `turn.start_rack`
    /// letters (as far as the pool allows).
    RefillHand,
    /// Never: the opening rack is every letter a player gets.
    Never,
}

rule_section! {
    /// Supply: where letters come from and when racks are replenished.
    // A complete rule set written before a constant of the section existed (a save) reads
    // it as the section's default, the rules before it.
    #[serde(default)]
    "supply" => SupplyRules / SupplyOverrides {
        /// Where letters come from: a copy of the distribution each, one set split between the players, or one shared pool.
        pool: PoolModel;
        /// When racks are replenished: a number of letters each turn, refilled to the opening rack's size after each turn, or never.
        draw: DrawModel;
        /// How many letters each player draws before play: turn.start_rack (StartRack), by the number of players from opening_table (Table), or a number of letters.
        opening: Opening;
        /// The opening racks by the number of players, from two: [25, 17, 15] deals 25 letters each to two players, 17 to three, 15 to four, and offers no game to five (read when opening is Table).
        opening_table: Vec<i64>;
    }
}

/// How many letters each player draws before play (`supply.opening`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    untagged,
    expecting = "supply.opening must be StartRack, Table or a number of letters such as 20"
)]
pub enum Opening {
    /// This many letters each, whatever the number of players.
    Letters(i64),
    /// A rule naming where the number comes from.
    By(OpeningRule),
}

/// Where the number of letters in an opening rack comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningRule {
    /// `turn.start_rack`.
    StartRack,
    /// `supply.opening_table`, by the number of players.
    Table,
}

impl CaptureRules {
    /// What capturing a city held by `from` is worth under these rules (a city's own bonus,
    /// where the map gives one, replaces it).
    pub fn bonus_from(&self, from: crate::board::Owner) -> i64 {
        match from {
            crate::board::Owner::Neutral => self.neutral_city_bonus,
            _ => self.city_capture_bonus,
        }
    }
}

impl SupplyRules {
    /// How many letters each of `seats` players draws before play, or why this rule set
    /// offers no game to that many.
    pub fn opening_rack(&self, turn: &TurnRules, seats: i64) -> Result<i64, String> {
        match self.opening {
            Opening::Letters(n) => Ok(n),
            Opening::By(OpeningRule::StartRack) => Ok(turn.start_rack),
            Opening::By(OpeningRule::Table) => usize::try_from(seats - 2)
                .ok()
                .and_then(|i| self.opening_table.get(i).copied())
                .ok_or_else(|| {
                    format!(
                        "supply.opening is Table, but supply.opening_table ({:?}) gives no opening for {seats} players (its first entry is for two); add one or seat fewer players",
                        self.opening_table
                    )
                }),
        }
    }
}

impl Default for SupplyRules {
    /// The supply of the rules before the section existed: a copy of the distribution each,
    /// letters drawn each turn. A complete rule set written then (in a save) reads as that.
    fn default() -> SupplyRules {
        SupplyRules {
            pool: PoolModel::CopyEach,
            draw: DrawModel::PerTurn,
            opening: Opening::By(OpeningRule::StartRack),
            opening_table: Vec::new(),
        }
    }
}

rule_section! {
    /// Trading letters back into the pool (the `Exchange` action).
    // A complete rule set written before a constant of the section existed (a save) reads
    // it as the section's default, the rules before it.
    #[serde(default)]
    "exchange" => ExchangeRules / ExchangeOverrides {
        /// Whether a player may trade letters from the rack back into their pool; the pool is reshuffled, the rack refilled, and the turn ends.
        allowed: bool;
        /// Points the opponent scores at once for each letter traded.
        opponent_points_per_letter: i64, range(0, 1_000_000);
    }
}

impl Default for ExchangeRules {
    /// No trading: the rules before the section existed.
    fn default() -> ExchangeRules {
        ExchangeRules {
            allowed: false,
            opponent_points_per_letter: 0,
        }
    }
}

/// Whose letters a word may run through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrosswordModel {
    /// Each player grows an own crossword; a word touching the other's attacks it.
    Separate,
    /// One crossword for both, built a la Scrabble through anyone's letters; contact is no
    /// attack (no combat), and no city is needed.
    Shared,
}

/// Where the first word of a game must stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstWord {
    /// On a city its player owns (and every later word joins the player's crossword).
    OwnCity,
    /// Across the board's centre cell (the middle one, or right and below of the middle on an
    /// even side).
    Centre,
    /// Anywhere on the board.
    Anywhere,
}

/// What a player's word score counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scoring {
    /// The face values of the player's valid words.
    WordFaceValues,
    /// The player's letters on the board, a point each.
    TilesOnBoard,
    /// Nothing from words: the score is the base score alone, which scripts set with
    /// `game:award` (the scoring hook of a mode the models do not cover).
    ByScripts,
    /// The face values of the letters in two words (crossing points), and the score that
    /// decides who leads is those points over the words plus the tiles left over (Lexicon
    /// Crossing; `Game::crossing_score`).
    CrossingRatio,
}

/// What the end of a game awards, on top of the scores (a round's points, in a match).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FinalAward {
    /// Nothing: the scores are the game's outcome.
    Nothing,
    /// The letters on the board, a point each: all to the winner, split evenly on a draw (in
    /// half points, so that an odd count splits exactly).
    TilesInPlay,
}

rule_section! {
    /// The crossword: whose letters words run through, where the first word goes, what scores.
    // A complete rule set written before a constant of the section existed (a save) reads
    // it as the section's default, the rules before it.
    #[serde(default)]
    "crossword" => CrosswordRules / CrosswordOverrides {
        /// Separate crosswords that attack on contact, or one shared crossword.
        model: CrosswordModel;
        /// Where the first word must stand: on an own city, across the centre cell, or anywhere (a shared crossword's later words must use a letter already on the board).
        first_word: FirstWord;
        /// What the word score counts: the face values of valid words, the letters on the board, nothing (scripts score with game:award), or crossing points (who leads: points over words plus leftovers).
        scoring: Scoring;
        /// What the end of the game awards: nothing, or the letters on the board (all to the winner, split on a draw).
        final_award: FinalAward;
    }
}

impl Default for CrosswordRules {
    /// Scryptic's crossword: the rules before the section existed.
    fn default() -> CrosswordRules {
        CrosswordRules {
            model: CrosswordModel::Separate,
            first_word: FirstWord::OwnCity,
            scoring: Scoring::WordFaceValues,
            final_award: FinalAward::Nothing,
        }
    }
}

/// When running out of letters ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Exhaustion {
    /// As soon as one player's rack and pool are empty.
    OnePlayerOut,
    /// Only once both players' racks and pools are empty.
    BothOut,
}

/// Who wins a game ended by running out of letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExhaustionWinner {
    /// The higher score (equal scores draw).
    HigherScore,
    /// Nobody: the game is a draw (the letters were all used on both sides).
    Draw,
}

rule_section! {
    /// Turn flow: passing, plays a turn, skipped players, running out, forfeiting.
    // A complete rule set written before a constant of the section existed (a save) reads
    // it as the section's default, the rules before it.
    #[serde(default)]
    "flow" => FlowRules / FlowOverrides {
        /// Whether a player may end a turn having played nothing (a pass); without it, a player who cannot play trades or forfeits.
        may_pass: bool;
        /// Whether committing a word ends the turn at once (one play a turn).
        one_play_per_turn: bool;
        /// Whether a player with no letters left (rack and pool empty) is skipped, so that the other takes turns in a row.
        skip_without_letters: bool;
        /// When running out of letters ends the game: when one player has none, or only when both have none.
        exhaustion: Exhaustion;
        /// Whether a player may forfeit the game (the `Forfeit` action), which the opponent then wins.
        forfeit: bool;
        /// Who wins when running out of letters ends the game: the higher score, or nobody (a draw).
        exhaustion_winner: ExhaustionWinner;
        /// Whether the engine ends the game when a player taking turns in a row (the other being out of letters) can make no word: the player who ran out then wins.
        no_word_ends_turns_in_a_row: bool;
        /// Whether a player who cannot make a word may call sudden death: the opponent accepts (and must use every tile they have and the hand offered, taking every turn) or refuses (play goes on).
        sudden_death: bool;
        /// What the end's award is multiplied by when the taker of a sudden death uses every tile.
        sudden_death_factor: i64, range(1, 1000);
        /// Whether the engine judges that a player cannot make a word (with the move generator): sudden death only for a player who cannot, and the game ended for a player who must and cannot; without it, players judge for themselves.
        judge_no_word: bool;
        /// Whether the players act at once, without turns: each lays out their own crossword anew whenever they like (Layout) and signals (GreenLight), each action naming its player.
        simultaneous: bool;
        /// Letters every player draws when someone calls green light (simultaneous play); once the pool holds fewer than every player's draw, the first to complete their crossword calls red light instead.
        green_light_draw: i64, range(1, 1000);
        /// Whether a player may jaywalk once a round in simultaneous play: return a letter to the pool and draw one (everyone in the first round, then everyone but the latest green light's caller).
        jaywalk: bool;
        /// Whether the caller of a green light sees the letters it draws them only after every other player has laid out since (the others get a head start).
        caller_waits: bool;
        /// Seconds of grace the others have to finish after red light; the clock's end is an action in the log (GraceOver), so replays are exact.
        grace_seconds: i64, range(0, 86_400);
        /// Seconds a player has for each move (a turn, an answer, a defence, a scripted choice) before the referee's clock ends the game against them (OutOfTime, in the log); 0: no clock. A server keeps it; in simultaneous play the grace period is the clock.
        move_seconds: i64, range(0, 31_536_000);
        /// Milliseconds an AI seat takes to lay each letter when it plays at once with people (simultaneous play; it looks new tiles over for a few letters' time before it lays or calls anything); 0: its level's own pace. Kept by whoever referees with a clock (a server, the editor, a terminal); AIs playing only one another take no time.
        ai_letter_ms: i64, range(0, 60_000);
        /// Whether the game's moves are its rules' own: the mode's script (scryptic.game_mode) sets up a table of pieces, lists each seat's legal moves from what that seat sees, plays them and ends the game; no letters are dealt and no crossword is played.
        scripted: bool;
    }
}

impl Default for FlowRules {
    /// Scryptic's turn flow: the rules before the section existed.
    fn default() -> FlowRules {
        FlowRules {
            may_pass: true,
            one_play_per_turn: false,
            skip_without_letters: false,
            exhaustion: Exhaustion::OnePlayerOut,
            forfeit: false,
            exhaustion_winner: ExhaustionWinner::HigherScore,
            no_word_ends_turns_in_a_row: false,
            sudden_death: false,
            sudden_death_factor: 2,
            judge_no_word: true,
            simultaneous: false,
            green_light_draw: 1,
            jaywalk: false,
            caller_waits: false,
            grace_seconds: 60,
            move_seconds: 0,
            ai_letter_ms: 0,
            scripted: false,
        }
    }
}

/// Who takes the first turn of a match's next round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextFirst {
    /// The loser of the round before (after a draw: gold).
    Loser,
    /// The player who did not start the round before.
    Alternate,
}

/// What a round adds to a player's match total.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundPoints {
    /// The player's score when the round ended.
    Score,
    /// What the end of the round awarded the player (`crossword.final_award`), with the points
    /// scored apart from words during the round (a trade's points): the word score, which only
    /// measures the race, is left out.
    AwardAndBonus,
    /// A point for the round's winner, half a point each for a draw: a match of games that
    /// keep no score of their own (a game a pack's Lua defines, say).
    Wins,
}

rule_section! {
    /// A match: a series of games (rounds) whose points add up; one round is a single game.
    // A complete rule set written before a constant of the section existed (a save) reads
    // it as the section's default, the rules before it.
    #[serde(default)]
    "match" => MatchRules / MatchOverrides {
        /// How many games make the match (1: a single game, no match).
        rounds: i64, range(1, 99);
        /// Who starts each round after the first: the loser of the round before (gold after a draw), or the one who did not start it.
        next_first: NextFirst;
        /// What a round adds to each player's total: the score, or the end's award with the points scored apart from words.
        round_points: RoundPoints;
    }
}

impl Default for MatchRules {
    /// A single game: the rules before the section existed.
    fn default() -> MatchRules {
        MatchRules {
            rounds: 1,
            next_first: NextFirst::Loser,
            round_points: RoundPoints::Score,
        }
    }
}

rule_section! {
    /// Who sits at the table: how many players.
    // A complete rule set written before the section existed (a save) reads it as two players.
    #[serde(default)]
    "seats" => SeatRules / SeatOverrides {
        /// How many players take part (gold, silver, then seat 3 and on, in turn order); more than two only where nothing is played between two (a shared crossword without the two-player rules: sudden death, forfeits, the no-word end, an award at the end, matches).
        count: i64, range(2, 8);
        /// The mode's names for the seats, in seat order (["white", "brown"]); a seat left out keeps its own (gold, silver, seat3...). Lowercase letters, digits and hyphens, up to 16. Name every seat a setting may add: names past `count` wait for them.
        names: Vec<String>;
        /// The mode's colours for the seats, in seat order, as "#rrggbb"; a seat left out keeps the toolkit's. Like the names, they may go past `count`.
        colours: Vec<String>;
    }
}

impl Default for SeatRules {
    /// Two players under the toolkit's names and colours: the rules before the section existed.
    fn default() -> SeatRules {
        SeatRules {
            count: 2,
            names: Vec::new(),
            colours: Vec::new(),
        }
    }
}

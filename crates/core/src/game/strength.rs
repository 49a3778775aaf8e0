//! Word strength (docs/RULES.md section 5), explained: every strength comes with the named
//! modifiers that produced it, so a client can show why (the design document's ideograms).

use crate::rules::{Mountain, RuleSet};
use serde::{Deserialize, Serialize};

/// Whether a word is attacking or defending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Role {
    /// The committed word, attacking.
    Attack,
    /// An opponent's word, defending.
    Defence,
}

/// One thing that changed a word's strength.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Modifier {
    /// Letters on mountains (`letters` of them), multiplying the base by `factor`.
    Mountain {
        /// How many letters stand on mountains.
        letters: u32,
        /// The resulting factor on the face value.
        factor: f64,
    },
    /// A connotation of the word (`attacking`, `defending`, ...).
    Connotation {
        /// The list's name.
        name: String,
        /// Its multiplier for this role.
        factor: f64,
    },
    /// A letter on water while attacking (a multiplier).
    WaterAttack {
        /// The multiplier.
        factor: f64,
    },
    /// A letter on a city the defender owns (a multiplier).
    OwnCity {
        /// The multiplier.
        factor: f64,
    },
    /// The defending word is disconnected from its player's cities.
    Disconnected {
        /// The multiplier.
        factor: f64,
    },
    /// A letter on water (subtracted after rounding).
    WaterPenalty {
        /// What is subtracted.
        amount: i64,
    },
    /// A letter on a city the defender owns (added after rounding).
    OwnCityBonus {
        /// What is added.
        amount: i64,
    },
    /// A script's strength modifier.
    Script {
        /// The modifier's id.
        id: String,
        /// Its multiplier.
        factor: f64,
    },
    /// The word repelled an attack this turn and is weakened by it.
    RepelPenalty {
        /// What is subtracted.
        amount: i64,
    },
}

/// A strength and how it came about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Strength {
    /// The final strength, never below 0.
    pub value: i64,
    /// The face value: the sum of the letters' values.
    pub face: i64,
    /// What changed it, in the order applied.
    pub modifiers: Vec<Modifier>,
}

/// What strength needs to know about a word where it stands.
#[derive(Clone, Debug, Default)]
pub struct WordFacts {
    /// Each letter's value and whether its cell is a mountain.
    pub letters: Vec<(i64, bool)>,
    /// The word's connotations.
    pub connotations: Vec<String>,
    /// Whether any letter is on water.
    pub on_water: bool,
    /// Whether any letter is on a city its player owns.
    pub on_own_city: bool,
    /// Whether the word is disconnected.
    pub disconnected: bool,
    /// A repel penalty on the word.
    pub penalty: i64,
    /// Multipliers from scripts' strength modifiers: id and factor.
    pub scripted: Vec<(String, f64)>,
}

/// Rounding of `x` down, forgiving the last bit of floating-point error (7 x 1.5 is 10.5, and
/// 5 x 0.6 must be 3, not 2.9999999999999996).
fn round_down(x: f64) -> i64 {
    (x + ROUNDING_ALLOWANCE).floor() as i64
}

/// What [`round_down`] forgives.
const ROUNDING_ALLOWANCE: f64 = 1e-9;

/// The strength of a word with `facts` in `role` under `rules`.
pub fn strength(rules: &RuleSet, facts: &WordFacts, role: Role) -> Strength {
    let face: i64 = facts.letters.iter().map(|&(v, _)| v).sum();
    let mut modifiers = Vec::new();
    let base = mountain_base(rules.strength.mountain, facts, face, &mut modifiers);
    let value = strength_after_mountains(rules, facts, role, base, Some(&mut modifiers));
    Strength {
        value,
        face,
        modifiers,
    }
}

/// The strength of a word whose face value with mountains counted is `base` (docs/RULES.md
/// section 5 from step 2 on; the letters of `facts` are not read). It records no modifiers,
/// so allocates nothing; [`least_base_reaching`] is its inverse.
pub fn strength_from_base(rules: &RuleSet, facts: &WordFacts, role: Role, base: f64) -> i64 {
    strength_after_mountains(rules, facts, role, base, None)
}

/// The least strength before multipliers (a word's face value with mountains counted) at
/// which a word with `facts` has at least `strength` in `role`, or a hair less (a bound that
/// lets a little more through is still a bound): the inverse of [`strength_from_base`]. `-inf`
/// when a base of 0 reaches it, `+inf` when no base does. The spy bounds its search with it.
pub fn least_base_reaching(rules: &RuleSet, facts: &WordFacts, role: Role, strength: i64) -> f64 {
    let (factor, added) = factor_and_additions(rules, facts, role, None);
    if added.max(0) >= strength {
        return f64::NEG_INFINITY;
    }
    if factor <= 0.0 {
        return f64::INFINITY;
    }
    // round_down(base * factor) + added >= strength, with round_down's own allowance.
    let needed = (strength - added) as f64;
    (needed - ROUNDING_ALLOWANCE) / factor - 1e-6
}

/// Steps 2 to 5 of section 5: multipliers, rounding down, additions, never below 0. Each
/// modifier that changes the strength is pushed to `modifiers`, when given.
fn strength_after_mountains(
    rules: &RuleSet,
    facts: &WordFacts,
    role: Role,
    base: f64,
    modifiers: Option<&mut Vec<Modifier>>,
) -> i64 {
    let (factor, added) = factor_and_additions(rules, facts, role, modifiers);
    (round_down(base * factor) + added).max(0)
}

/// Steps 2 and 4 of section 5: the product of the multipliers and the sum of the additions,
/// each modifier that changes the strength pushed to `modifiers`, when given.
fn factor_and_additions(
    rules: &RuleSet,
    facts: &WordFacts,
    role: Role,
    mut modifiers: Option<&mut Vec<Modifier>>,
) -> (f64, i64) {
    let s = &rules.strength;
    let mut factor = 1.0;
    let mut note = |m: &dyn Fn() -> Modifier| {
        if let Some(modifiers) = modifiers.as_deref_mut() {
            modifiers.push(m());
        }
    };
    let mut multiply = |m: &dyn Fn() -> Modifier, f: f64, factor: &mut f64| {
        if f != 1.0 {
            *factor *= f;
            note(m);
        }
    };
    for name in &facts.connotations {
        if let Some(c) = s.connotations.get(name) {
            let f = match role {
                Role::Attack => c.attack,
                Role::Defence => c.defence,
            };
            multiply(
                &|| Modifier::Connotation {
                    name: name.clone(),
                    factor: f,
                },
                f,
                &mut factor,
            );
        }
    }
    if role == Role::Attack && facts.on_water {
        let f = s.water_attack_multiplier;
        multiply(&|| Modifier::WaterAttack { factor: f }, f, &mut factor);
    }
    if role == Role::Defence && facts.on_own_city {
        let f = s.own_city_defence_multiplier;
        multiply(&|| Modifier::OwnCity { factor: f }, f, &mut factor);
    }
    if role == Role::Defence && facts.disconnected {
        let f = s.disconnected_defence_multiplier;
        multiply(&|| Modifier::Disconnected { factor: f }, f, &mut factor);
    }
    for (id, f) in &facts.scripted {
        if f.is_finite() && *f >= 0.0 {
            multiply(
                &|| Modifier::Script {
                    id: id.clone(),
                    factor: *f,
                },
                *f,
                &mut factor,
            );
        }
    }
    let mut added = 0;
    let mut add = |m: &dyn Fn() -> Modifier, amount: i64| {
        if amount != 0 {
            added += amount;
            note(m);
        }
    };
    if facts.on_water {
        let amount = s.water_penalty;
        add(&|| Modifier::WaterPenalty { amount }, -amount);
    }
    if role == Role::Defence && facts.on_own_city {
        let amount = s.own_city_defence_bonus;
        add(&|| Modifier::OwnCityBonus { amount }, amount);
    }
    if role == Role::Defence {
        let amount = facts.penalty;
        add(&|| Modifier::RepelPenalty { amount }, -amount);
    }
    (factor, added)
}

fn mountain_base(
    rule: Mountain,
    facts: &WordFacts,
    face: i64,
    modifiers: &mut Vec<Modifier>,
) -> f64 {
    let on_mountain = facts.letters.iter().filter(|&&(_, m)| m).count() as u32;
    if on_mountain == 0 {
        return face as f64;
    }
    let base = match rule {
        Mountain::WordAverage { mountain_weight } => {
            let (m, o) = (
                f64::from(on_mountain),
                (facts.letters.len() as f64) - f64::from(on_mountain),
            );
            face as f64 * (mountain_weight * m + o) / (m + o)
        }
        Mountain::PerLetter { factor } => facts
            .letters
            .iter()
            .map(|&(v, m)| if m { v as f64 * factor } else { v as f64 })
            .sum(),
    };
    let factor = if face == 0 { 1.0 } else { base / face as f64 };
    modifiers.push(Modifier::Mountain {
        letters: on_mountain,
        factor,
    });
    base
}

/// Multipliers that scripts add to a word's strength.
pub trait StrengthModifiers: Send + Sync {
    /// Whether any modifier is defined now (none: every word's multipliers are none, and a
    /// search may bound strength without asking).
    fn any(&self) -> bool {
        true
    }

    /// The multipliers (id and factor) for `word` in `role` on `board`.
    fn modifiers(
        &self,
        word: &super::Word,
        role: Role,
        board: &super::Board,
        rules: &RuleSet,
    ) -> Vec<(String, f64)>;
}

/// Placement strength for cutting through forest: face value times the word's forest
/// multipliers (the `burning` connotation).
pub fn placement_strength(rules: &RuleSet, face: i64, connotations: &[impl AsRef<str>]) -> f64 {
    let factor: f64 = connotations
        .iter()
        .filter_map(|n| rules.strength.connotations.get(n.as_ref()))
        .map(|c| c.forest)
        .product();
    face as f64 * factor
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(values: &[i64]) -> WordFacts {
        WordFacts {
            letters: values.iter().map(|&v| (v, false)).collect(),
            ..Default::default()
        }
    }

    /// Strength of `facts` in `role` under preset `preset` is `expected`.
    fn check(preset: &str, facts: &WordFacts, role: Role, expected: i64) {
        let rules = RuleSet::preset(preset).unwrap();
        assert_eq!(
            strength(&rules, facts, role).value,
            expected,
            "{preset} {role:?} {facts:?}"
        );
    }

    #[test]
    fn table() {
        // SWORD attacking: 7 x 1.5 = 10 (the design document's example).
        let sword = WordFacts {
            connotations: vec!["attacking".into()],
            ..facts(&[1, 3, 1, 1, 1])
        };
        check("gdd-1.6", &sword, Role::Attack, 10);
        check("gdd-1.6", &sword, Role::Defence, 7);
        // GRAM defending on its own city: gdd x1.5 -> 7; classic +2 -> 7.
        let gram = WordFacts {
            on_own_city: true,
            ..facts(&[1, 1, 1, 2])
        };
        check("gdd-1.6", &gram, Role::Defence, 7);
        check("classic", &gram, Role::Defence, 7);
        check("classic", &gram, Role::Attack, 5);
        // Mountains: 2 of 4 letters (face 6): gdd 6 x (2x2+2)/4 = 9; classic per letter.
        let hill = WordFacts {
            letters: vec![(3, true), (1, true), (1, false), (1, false)],
            ..Default::default()
        };
        check("gdd-1.6", &hill, Role::Attack, 9);
        check("classic", &hill, Role::Attack, 8);
        // Water: gdd x0.6 when attacking; classic -1 both ways.
        let wet = WordFacts {
            on_water: true,
            ..facts(&[1, 1, 1, 1, 1])
        };
        check("gdd-1.6", &wet, Role::Attack, 3);
        check("gdd-1.6", &wet, Role::Defence, 5);
        check("classic", &wet, Role::Attack, 4);
        check("classic", &wet, Role::Defence, 4);
        // Disconnected defence x0.6; repel penalty; never below 0.
        let cut_off = WordFacts {
            disconnected: true,
            ..facts(&[2, 2, 1])
        };
        check("classic", &cut_off, Role::Defence, 3);
        let penalised = WordFacts {
            penalty: 9,
            ..facts(&[1, 1])
        };
        check("classic", &penalised, Role::Defence, 0);
        // Sneaking works both ways.
        let spy = WordFacts {
            connotations: vec!["sneaking".into()],
            ..facts(&[2, 2, 3])
        };
        check("classic", &spy, Role::Attack, 10);
        check("classic", &spy, Role::Defence, 10);
    }

    #[test]
    fn modifiers_explain_the_value() {
        let rules = RuleSet::preset("gdd-1.6").unwrap();
        let f = WordFacts {
            connotations: vec!["attacking".into()],
            on_water: true,
            ..facts(&[1, 3, 1, 1, 1])
        };
        let s = strength(&rules, &f, Role::Attack);
        assert_eq!(s.face, 7);
        assert_eq!(
            s.modifiers,
            vec![
                Modifier::Connotation {
                    name: "attacking".into(),
                    factor: 1.5
                },
                Modifier::WaterAttack { factor: 0.6 }
            ]
        );
        assert_eq!(s.value, 6);
    }

    #[test]
    fn burning_cuts_forest_better() {
        let rules = RuleSet::preset("classic").unwrap();
        assert_eq!(placement_strength(&rules, 4, &["burning"]), 6.0);
        assert_eq!(placement_strength(&rules, 4, &["attacking"]), 4.0);
    }

    /// The least base reaching a strength is the inverse of strength from base: just above
    /// it the strength is reached, a little below it it is not, for words with and without
    /// connotations, on water and off, in both roles, under every preset.
    #[test]
    fn the_least_base_reaching_a_strength_inverts_strength_from_base() {
        for preset in RuleSet::preset_names() {
            let rules = RuleSet::preset(preset).unwrap();
            let connoted: Vec<String> = rules.strength.connotations.keys().cloned().collect();
            for (connotations, on_water, on_own_city) in [
                (vec![], false, false),
                (vec![], true, false),
                (connoted.clone(), false, true),
                (connoted, true, true),
            ] {
                let facts = WordFacts {
                    connotations,
                    on_water,
                    on_own_city,
                    penalty: 1,
                    ..WordFacts::default()
                };
                for role in [Role::Attack, Role::Defence] {
                    for strength in 0..80 {
                        let least = least_base_reaching(&rules, &facts, role, strength);
                        let at = |base: f64| strength_from_base(&rules, &facts, role, base);
                        let case = format!("{preset} {role:?} {facts:?} {strength}: {least}");
                        if least.is_finite() {
                            assert!(at(least + 2e-6) >= strength, "{case}");
                            assert!(least < 0.0 || at(least - 1e-5) < strength, "{case}");
                        } else if least < 0.0 {
                            assert!(at(0.0) >= strength, "{case}");
                        } else {
                            assert!(at(1e9) < strength, "{case}");
                        }
                    }
                }
            }
        }
    }
}

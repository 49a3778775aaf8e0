//! Combat (docs/RULES.md section 7): the committed word attacks the opponent's valid words that it
//! touches, one by one in the defender's order, until it is repelled or all have fallen.

use super::commit::CommitPlan;
use super::strength::{Role, Strength, WordFacts, strength};
use super::words::{Word, WordKey};
use super::{ActionError, Event, Game, Penalty, opponent};
use crate::board::{Player, Pos, Terrain};
use crate::rules::{CombatCost, CombatGain};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The most defenders whose every order is tried for the automatic order; with more, the
/// strongest defend first.
const MAX_EXHAUSTIVE_DEFENDERS: usize = 7;

/// A combat waiting for the defender's order.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(super) struct Pending {
    /// The seat that must answer with an order of defence (`Defend`).
    pub defender: Player,
    /// The attacking word, as committed.
    plan: CommitPlan,
    /// The attack's strength, with every modifier.
    attack: Strength,
    /// The enemy words the attack touches, each with its defence.
    defenders: Vec<Defender>,
}

impl Pending {
    /// The combat as `viewer` knows it: the attacker's rack after the attack is theirs alone.
    pub(super) fn seen_by(&self, viewer: Option<Player>) -> Pending {
        let mut seen = self.clone();
        if viewer != Some(self.plan.player) {
            for item in &mut seen.plan.rack_after {
                if let super::RackItem::Letter(c) = item {
                    *c = super::HIDDEN_LETTER;
                }
            }
        }
        seen
    }

    /// Whether every cell and word of the combat is inside the board (`inside`, `key_inside`)
    /// and its players have seats (`is_seat`): a snapshot's check.
    pub(super) fn fits(
        &self,
        inside: &dyn Fn(Pos) -> bool,
        key_inside: &dyn Fn(&WordKey) -> bool,
        is_seat: &dyn Fn(Player) -> bool,
    ) -> bool {
        let plan = &self.plan;
        is_seat(self.defender)
            && is_seat(plan.player)
            && plan.placed.iter().all(|p| inside(p.at))
            && plan.forest.iter().all(|&at| inside(at))
            && key_inside(&plan.main)
            && plan.cross.iter().all(key_inside)
            && self
                .defenders
                .iter()
                .all(|d| key_inside(&d.word.key) && is_seat(d.word.player))
    }

    /// Letters committed to the waiting attack.
    pub fn letters(&self) -> usize {
        self.plan.placed.len()
    }
}

/// An enemy word a combat's attack touches, and its defence.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct Defender {
    /// The defending word.
    word: Word,
    /// Its strength in defence, with every modifier.
    defence: Strength,
}

/// What a commit would start: the attack's strength and each defender's, before committing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CombatPreview {
    /// The attacking word's strength, explained.
    pub attack: Strength,
    /// Each defending word, its text and its strength.
    pub defenders: Vec<(WordKey, String, Strength)>,
}

/// How a combat in a given order ends.
#[derive(Clone, Debug, Default)]
struct Outcome {
    /// Per defeated defender (in order): its index, the attack left, letters removed, gain.
    defeats: Vec<(usize, i64, Vec<Pos>, i64)>,
    /// The defender that held, and the attack it held against.
    repelled_by: Option<(usize, i64)>,
    removed: usize,
}

impl Game {
    /// The defending words of the combat waiting for its order, if one is waiting.
    pub fn pending_defenders(&self) -> Option<Vec<WordKey>> {
        self.pending
            .as_ref()
            .map(|p| p.defenders.iter().map(|d| d.word.key).collect())
    }

    /// Whether committing `letters` is legal now (section 4), without committing and without
    /// working out the combat: the reason if not.
    pub fn check_commit(&self, letters: &[super::Placement]) -> Result<(), ActionError> {
        self.plan_commit(letters).map(|_| ())
    }

    /// What committing `letters` would lead to, without committing: the attack and defences.
    pub fn preview_commit(
        &self,
        letters: &[super::Placement],
    ) -> Result<CombatPreview, ActionError> {
        let plan = self.plan_commit(letters)?;
        let (attack, defenders) = self.combatants(&plan);
        Ok(CombatPreview {
            attack,
            defenders: defenders
                .into_iter()
                .map(|d| (d.word.key, d.word.text, d.defence))
                .collect(),
        })
    }

    /// Every word on the board (as [`Game::words`] finds them) with the strength it would
    /// defend with now, modifiers named; `None` for a word that cannot defend (an invalid one).
    pub fn defence_strengths(&self) -> Vec<(super::WordInfo, Option<Strength>)> {
        let connected = crate::board::Player::BOTH.map(|p| self.connected_grid(p));
        self.words()
            .into_iter()
            .map(|info| {
                let defence = info.valid.then(|| {
                    let grid = &connected[super::index(info.word.player)];
                    let mut facts = self.facts(&info.word, Some(grid));
                    facts.scripted = self.scripted_modifiers(&info.word, Role::Defence);
                    strength(&self.rules, &facts, Role::Defence)
                });
                (info, defence)
            })
            .collect()
    }

    /// The opponent's letters on or next to the main word.
    fn touching(&self, plan: &CommitPlan) -> BTreeSet<Pos> {
        let enemy = opponent(plan.player);
        let mut cells = BTreeSet::new();
        for c in plan.main.cells() {
            for n in std::iter::once(c).chain(self.board.letters.neighbours4(c)) {
                if self.board.tile(n).is_some_and(|t| t.player == enemy) {
                    cells.insert(n);
                }
            }
        }
        cells
    }

    fn combatants(&self, plan: &CommitPlan) -> (Strength, Vec<Defender>) {
        if !self.contact_is_attack() {
            return (self.attack_of(plan), Vec::new());
        }
        let touching = self.touching(plan);
        let enemy = opponent(plan.player);
        let connected = self.connected_grid(enemy);
        let defenders = self
            .board_words()
            .into_iter()
            .filter(|w| {
                w.player == enemy
                    && self.is_valid(w)
                    && w.key.cells().any(|c| touching.contains(&c))
            })
            .map(|word| {
                let mut facts = self.facts(&word, Some(&connected));
                facts.scripted = self.scripted_modifiers(&word, Role::Defence);
                Defender {
                    defence: strength(&self.rules, &facts, Role::Defence),
                    word,
                }
            })
            .collect();
        (self.attack_of(plan), defenders)
    }

    /// The attack strength of a planned commit's main word.
    fn attack_of(&self, plan: &CommitPlan) -> Strength {
        self.word_attack_strength(plan.player, plan.main, &plan.main_text)
    }

    /// The attack strength `player`'s main word `text` would have at `key`, read as it would
    /// stand once placed. Nothing is checked: this is for placements known to be legal (the
    /// move generator's), where [`Game::attack_strength`] would check the commit again and
    /// against the player's own rack.
    pub fn word_attack_strength(&self, player: Player, key: WordKey, text: &str) -> Strength {
        let attacker = Word {
            player,
            key,
            text: text.to_string(),
        };
        let mut facts = self.facts(&attacker, None);
        facts.scripted = self.scripted_modifiers(&attacker, Role::Attack);
        strength(&self.rules, &facts, Role::Attack)
    }

    /// The attack strength committing `letters` would have (the spy's measure), without
    /// finding the defenders.
    pub fn attack_strength(&self, letters: &[super::Placement]) -> Result<Strength, ActionError> {
        self.plan_commit(letters).map(|plan| self.attack_of(&plan))
    }

    /// The scripts' multipliers for `word` in `role`.
    fn scripted_modifiers(&self, word: &Word, role: Role) -> Vec<(String, f64)> {
        self.modifiers.as_ref().map_or_else(Vec::new, |m| {
            m.modifiers(word, role, &self.board, &self.rules)
        })
    }

    /// What strength needs to know about `word` where it stands (its text gives its letters,
    /// so a word not yet placed is read as it would stand).
    fn facts(&self, word: &Word, connected: Option<&crate::board::Grid<bool>>) -> WordFacts {
        let cells: Vec<Pos> = word.key.cells().collect();
        WordFacts {
            letters: cells
                .iter()
                .zip(word.text.chars())
                .map(|(&c, letter)| {
                    let value = self.rules.letter_value(letter).unwrap_or(0);
                    (value, self.board.terrain[c] == Terrain::Mountain)
                })
                .collect(),
            connotations: self.connotations_of(&word.text),
            on_water: cells
                .iter()
                .any(|&c| self.board.terrain[c] == Terrain::Water),
            on_own_city: cells
                .iter()
                .any(|&c| self.board.owns_city_at(word.player, c)),
            disconnected: connected.is_some_and(|g| !cells.iter().any(|&c| g[c])),
            penalty: self
                .marks
                .penalties
                .iter()
                .filter(|p| p.player == word.player && p.key == word.key)
                .map(|p| p.amount)
                .sum(),
            scripted: Vec::new(),
        }
    }

    /// Whether a word touching another player's letters attacks them: not in a shared
    /// crossword, where contact is how words are built.
    pub fn contact_is_attack(&self) -> bool {
        self.rules.crossword.model == crate::rules::CrosswordModel::Separate
    }

    /// Starts the combat a commit causes, resolving it now unless the defender must choose.
    pub(super) fn start_combat(&mut self, plan: CommitPlan, events: &mut Vec<Event>) {
        if !self.contact_is_attack() || self.touching(&plan).is_empty() {
            self.place_letters(&plan);
            self.finish_commit(&plan, events);
            return;
        }
        let (attack, defenders) = self.combatants(&plan);
        events.push(Event::CombatStarted {
            attacker: plan.player,
            attack: attack.clone(),
            defenders: defenders
                .iter()
                .map(|d| (d.word.key, d.word.text.clone(), d.defence.clone()))
                .collect(),
        });
        let pending = Pending {
            defender: opponent(plan.player),
            plan,
            attack,
            defenders,
        };
        if pending.defenders.len() >= 2 {
            events.push(Event::DefenceOrderNeeded {
                defender: pending.defender,
                defenders: pending.defenders.iter().map(|d| d.word.key).collect(),
            });
            self.pending = Some(pending);
        } else {
            let order = (0..pending.defenders.len()).collect();
            self.resolve(pending, order, events);
        }
    }

    /// The defender's answer to a pending combat.
    pub(super) fn defend(
        &mut self,
        order: Option<&[WordKey]>,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let pending = self.pending.as_ref().ok_or(ActionError::NoCombatPending)?;
        let order = match order {
            None => self.automatic_order(pending),
            Some(keys) => chosen_order(pending, keys)?,
        };
        let pending = self.pending.take().ok_or(ActionError::NoCombatPending)?;
        self.resolve(pending, order, events);
        Ok(())
    }

    /// The order that loses the defender the fewest letters (ties: the earliest order tried).
    fn automatic_order(&self, pending: &Pending) -> Vec<usize> {
        let n = pending.defenders.len();
        if n > MAX_EXHAUSTIVE_DEFENDERS {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(pending.defenders[i].defence.value));
            return order;
        }
        let words = self.board_word_keys();
        let mut best: Option<(usize, Vec<usize>)> = None;
        for order in permutations(n) {
            let lost = self.simulate(pending, &order, &words).removed;
            if best.as_ref().is_none_or(|(fewest, _)| lost < *fewest) {
                best = Some((lost, order));
            }
        }
        best.map(|(_, o)| o).unwrap_or_default()
    }

    /// The combat fought in `order` over the board's `words`, computed without changing anything.
    fn simulate(&self, pending: &Pending, order: &[usize], words: &[(Player, WordKey)]) -> Outcome {
        let enemy = pending.defender;
        let mut defeated: BTreeSet<WordKey> = BTreeSet::new();
        let mut gone: BTreeSet<Pos> = BTreeSet::new();
        let mut attack = pending.attack.value;
        let mut outcome = Outcome::default();
        for &i in order {
            let d = &pending.defenders[i];
            if attack <= d.defence.value {
                outcome.repelled_by = Some((i, attack));
                break;
            }
            defeated.insert(d.word.key);
            let removed: Vec<Pos> = d
                .word
                .key
                .cells()
                .filter(|c| !gone.contains(c))
                .filter(|&c| {
                    // The cheap tests first: the set of defeated words is asked only about the
                    // few words through the cell (this runs for every order a defence tries).
                    !words
                        .iter()
                        .any(|&(p, k)| k.covers(c) && p == enemy && !defeated.contains(&k))
                })
                .collect();
            gone.extend(&removed);
            let value: i64 = removed
                .iter()
                .filter_map(|&c| self.board.tile(c))
                .filter_map(|t| self.rules.letter_value(t.letter))
                .sum();
            attack -= match self.rules.combat.cost {
                CombatCost::FaceValue => self.face_value(&d.word.text),
                CombatCost::Defence => d.defence.value,
            };
            let gain = match self.rules.combat.gain {
                CombatGain::RemovedLetters => value,
                CombatGain::Defence => d.defence.value,
            };
            outcome.removed += removed.len();
            outcome.defeats.push((i, attack, removed, gain));
        }
        outcome
    }

    /// Fights the combat in `order` and applies what happens.
    fn resolve(&mut self, pending: Pending, order: Vec<usize>, events: &mut Vec<Event>) {
        let before = self.board_word_keys();
        let outcome = self.simulate(&pending, &order, &before);
        let plan = &pending.plan;
        for (i, attack_left, removed, gain) in &outcome.defeats {
            let d = &pending.defenders[*i];
            self.remove_letters(removed);
            let attacker = self.player_mut(plan.player);
            attacker.base_score = attacker.base_score.saturating_add(*gain);
            self.marks.defeated.insert((pending.defender, d.word.key));
            events.push(Event::DefenderDefeated {
                word: d.word.text.clone(),
                key: d.word.key,
                attack_left: *attack_left,
                removed: removed.clone(),
                gain: *gain,
            });
        }
        match outcome.repelled_by {
            Some((i, attack)) => {
                let d = &pending.defenders[i];
                self.player_mut(plan.player).lost += plan.placed.len();
                let penalty = if self.rules.strength.repel_penalty {
                    attack
                } else {
                    0
                };
                if penalty > 0 {
                    self.marks.penalties.push(Penalty {
                        player: pending.defender,
                        key: d.word.key,
                        amount: penalty,
                        until_end_of: plan.player,
                    });
                }
                events.push(Event::AttackRepelled {
                    by: d.word.text.clone(),
                    removed: plan.placed.iter().map(|p| p.at).collect(),
                    penalty,
                });
                self.after_removal(&before);
            }
            None => {
                let cleared: Vec<Pos> = self.touching(plan).into_iter().collect();
                self.remove_letters(&cleared);
                self.place_letters(plan);
                events.push(Event::AttackSucceeded { cleared });
                // The words the commit made are committed words, valid and scoring at once;
                // only the runs combat broke wait for the end of the turn.
                let made: Vec<WordKey> = std::iter::once(plan.main)
                    .chain(plan.cross.iter().copied())
                    .collect();
                self.after_removal_sparing(&before, plan.player, &made);
                self.finish_commit(plan, events);
            }
        }
    }
}

/// The defenders' indices in the order `keys` names them, if it names each exactly once.
fn chosen_order(pending: &Pending, keys: &[WordKey]) -> Result<Vec<usize>, ActionError> {
    let bad = || ActionError::BadDefenceOrder {
        expected: pending
            .defenders
            .iter()
            .map(|d| d.word.text.clone())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let order: Vec<usize> = keys
        .iter()
        .map(|k| pending.defenders.iter().position(|d| d.word.key == *k))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let distinct: BTreeSet<usize> = order.iter().copied().collect();
    if distinct.len() != pending.defenders.len() || order.len() != distinct.len() {
        return Err(bad());
    }
    Ok(order)
}

/// Every order of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..n).collect();
    loop {
        out.push(current.clone());
        let Some(i) = (1..n).rev().find(|&i| current[i - 1] < current[i]) else {
            return out;
        };
        let j = (i..n)
            .rev()
            .find(|&j| current[j] > current[i - 1])
            .unwrap_or(i);
        current.swap(i - 1, j);
        current[i..].reverse();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn permutations_are_all_there() {
        let p = super::permutations(3);
        assert_eq!(
            p,
            vec![
                vec![0, 1, 2],
                vec![0, 2, 1],
                vec![1, 0, 2],
                vec![1, 2, 0],
                vec![2, 0, 1],
                vec![2, 1, 0]
            ]
        );
        assert_eq!(super::permutations(0), vec![Vec::<usize>::new()]);
    }
}

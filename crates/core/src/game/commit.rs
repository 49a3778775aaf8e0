//! Committing a word (docs/RULES.md section 4): every check first, without changing anything;
//! then the placement, combat, ice and captures, in that order.

use super::strength::placement_strength;
use super::turn::take_letters;
use super::words::{Tile, WordKey, run_through};
use super::{ActionError, Event, Game, Placement, RackItem};
use crate::board::{Owner, Player, Pos, Terrain};
use crate::map::Direction;
use crate::rules::{CrosswordModel, FirstWord, ForestCut, IceCollapse};
use std::collections::BTreeMap;

/// A commit that passed every check: what it places and the words it forms.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub(super) struct CommitPlan {
    /// Who commits.
    pub player: Player,
    /// The letters laid from the rack and their cells.
    pub placed: Vec<Placement>,
    /// The word the letters make (its first cell, direction and length).
    pub main: WordKey,
    /// The cross-words the placed letters form with the player's letters.
    pub cross: Vec<WordKey>,
    /// That word's letters, uppercase.
    pub main_text: String,
    /// The cells of forest the word covers (letters there are hidden from the opponent).
    pub forest: Vec<Pos>,
    /// The rack once the letters are laid.
    pub rack_after: Vec<RackItem>,
}

impl Game {
    /// Checks a commit completely, changing nothing.
    pub(super) fn plan_commit(&self, letters: &[Placement]) -> Result<CommitPlan, ActionError> {
        let player = self.active;
        let placed: Vec<Placement> = letters
            .iter()
            .map(|p| Placement {
                at: p.at,
                letter: p.letter.to_ascii_uppercase(),
            })
            .collect();
        if placed.is_empty() {
            return Err(ActionError::NothingPlaced);
        }
        // More letters than the rack holds can never be right; refusing them first keeps the
        // cell checks below (which compare letters pairwise) small whatever a save holds.
        let rack = &self.player(player).rack;
        if placed.len() > rack.len() {
            let letter = placed.last().map_or('?', |p| p.letter);
            return Err(ActionError::NotInRack { letter });
        }
        self.check_cells(player, &placed)?;
        let wanted: Vec<char> = placed.iter().map(|p| p.letter).collect();
        let rack_after = take_letters(&self.player(player).rack, &wanted)
            .map_err(|letter| ActionError::NotInRack { letter })?;
        let at: BTreeMap<Pos, char> = placed.iter().map(|p| (p.at, p.letter)).collect();
        let is_placed = |p: Pos| at.contains_key(&p);
        let main = self.main_word(player, &placed, &is_placed)?;
        if i64::from(main.len) < self.rules.placement.min_word_length {
            return Err(ActionError::TooShort {
                min: self.rules.placement.min_word_length,
            });
        }
        let text_of = |key: &WordKey| -> String {
            key.cells()
                .map(|c| {
                    at.get(&c)
                        .copied()
                        .or_else(|| self.board.tile(c).map(|t| t.letter))
                        .unwrap_or('?')
                })
                .collect()
        };
        let cross_dir = match main.dir {
            Direction::Across => Direction::Down,
            Direction::Down => Direction::Across,
        };
        let cross: Vec<WordKey> = placed
            .iter()
            .filter_map(|p| {
                run_through(
                    &self.board.letters,
                    player,
                    self.runs(),
                    p.at,
                    cross_dir,
                    &is_placed,
                )
            })
            .collect();
        let main_text = text_of(&main);
        for key in std::iter::once(&main).chain(&cross) {
            let text = text_of(key);
            if !self.lexicon.contains(&text) {
                return Err(ActionError::NotAWord { word: text });
            }
            self.check_water_ends(key, &text)?;
        }
        match self.rules.crossword.model {
            CrosswordModel::Separate => {
                self.check_connection(player, &main, &cross, &main_text, &is_placed)?
            }
            CrosswordModel::Shared => {
                self.check_shared_join(&main, &cross, &main_text, &is_placed)?
            }
        }
        let forest = self.check_forest(&placed, &main_text)?;
        Ok(CommitPlan {
            player,
            placed,
            main,
            cross,
            main_text,
            forest,
            rack_after,
        })
    }

    fn check_cells(&self, player: Player, placed: &[Placement]) -> Result<(), ActionError> {
        for (i, p) in placed.iter().enumerate() {
            let Some(&terrain) = self.board.terrain.get(p.at) else {
                return Err(ActionError::OffBoard { at: p.at });
            };
            if placed[..i].iter().any(|q| q.at == p.at) {
                return Err(ActionError::SameCell { at: p.at });
            }
            match self.board.tile(p.at) {
                Some(_) if self.rules.crossword.model == CrosswordModel::Shared => {
                    return Err(ActionError::Occupied { at: p.at });
                }
                Some(t) if t.player == player => return Err(ActionError::OwnLetter { at: p.at }),
                _ => {}
            }
            if terrain == Terrain::Lava {
                return Err(ActionError::OnLava { at: p.at });
            }
        }
        Ok(())
    }

    /// The main word: the run of own letters through the placed ones, in their line.
    fn main_word(
        &self,
        player: Player,
        placed: &[Placement],
        is_placed: &dyn Fn(Pos) -> bool,
    ) -> Result<WordKey, ActionError> {
        let too_short = ActionError::TooShort {
            min: self.rules.placement.min_word_length,
        };
        let first = placed[0].at;
        let run = |dir| {
            run_through(
                &self.board.letters,
                player,
                self.runs(),
                first,
                dir,
                is_placed,
            )
        };
        if placed.len() == 1 {
            return run(Direction::Across)
                .or_else(|| run(Direction::Down))
                .ok_or(too_short);
        }
        let dir = if placed.iter().all(|p| p.at.y == first.y) {
            Direction::Across
        } else if placed.iter().all(|p| p.at.x == first.x) {
            Direction::Down
        } else {
            return Err(ActionError::NotInLine);
        };
        let main = run(dir).unwrap_or(WordKey {
            start: first,
            dir,
            len: 1,
        });
        if let Some(outside) = placed.iter().find(|p| !main.covers(p.at)) {
            return Err(ActionError::Gap {
                at: self.first_gap(main, outside.at),
            });
        }
        Ok(main)
    }

    /// The first empty cell after the run `main`, toward `target`.
    fn first_gap(&self, main: WordKey, target: Pos) -> Pos {
        let before = match main.dir {
            Direction::Across => target.x < main.start.x,
            Direction::Down => target.y < main.start.y,
        };
        if before {
            match main.dir {
                Direction::Across => Pos::new(main.start.x - 1, main.start.y),
                Direction::Down => Pos::new(main.start.x, main.start.y - 1),
            }
        } else {
            main.dir.step(main.start, main.len).unwrap_or(target)
        }
    }

    fn check_water_ends(&self, key: &WordKey, text: &str) -> Result<(), ActionError> {
        let ends = [
            Some(key.start),
            key.dir.step(key.start, key.len.saturating_sub(1)),
        ];
        for end in ends.into_iter().flatten() {
            if self.board.terrain.get(end).is_some_and(|t| !t.is_land()) {
                return Err(ActionError::EndsOnWater {
                    word: text.to_string(),
                    at: end,
                });
            }
        }
        Ok(())
    }

    /// The word must cover a city its player owns, or include or cross a connected own letter.
    fn check_connection(
        &self,
        player: Player,
        main: &WordKey,
        cross: &[WordKey],
        text: &str,
        is_placed: &dyn Fn(Pos) -> bool,
    ) -> Result<(), ActionError> {
        if main.cells().any(|c| self.board.owns_city_at(player, c)) {
            return Ok(());
        }
        let connected = self.connected_grid(player);
        let joins = std::iter::once(main)
            .chain(cross)
            .flat_map(|k| k.cells().collect::<Vec<_>>())
            .any(|c| !is_placed(c) && connected[c]);
        if joins {
            Ok(())
        } else {
            Err(ActionError::NotConnected {
                word: text.to_string(),
            })
        }
    }

    /// In a shared crossword: the first word of the game stands where `crossword.first_word`
    /// says, and every later one uses a letter already on the board (in its main word or a
    /// cross-word).
    fn check_shared_join(
        &self,
        main: &WordKey,
        cross: &[WordKey],
        text: &str,
        is_placed: &dyn Fn(Pos) -> bool,
    ) -> Result<(), ActionError> {
        if self.board.has_letters() {
            let uses_a_letter = std::iter::once(main)
                .chain(cross)
                .any(|k| k.cells().any(|c| !is_placed(c)));
            return if uses_a_letter {
                Ok(())
            } else {
                Err(ActionError::MustJoin {
                    word: text.to_string(),
                })
            };
        }
        let anchor_ok = match self.rules.crossword.first_word {
            FirstWord::Anywhere => true,
            FirstWord::Centre => main.covers(self.centre_cell()),
            FirstWord::OwnCity => main
                .cells()
                .any(|c| self.board.owns_city_at(self.active, c)),
        };
        if anchor_ok {
            Ok(())
        } else {
            Err(ActionError::FirstWordPlace {
                word: text.to_string(),
                place: match self.rules.crossword.first_word {
                    FirstWord::Centre => format!(
                        "across the centre cell {}",
                        super::notation::cell_name(self.centre_cell())
                    ),
                    _ => "on a city you own".to_string(),
                },
            })
        }
    }

    /// The board's centre cell: the middle one, or right and below the middle on an even side.
    pub fn centre_cell(&self) -> Pos {
        Pos::new(
            self.board.terrain.width() / 2,
            self.board.terrain.height() / 2,
        )
    }

    /// Forest cells under placed letters, if the word is strong enough to cut them.
    fn check_forest(&self, placed: &[Placement], text: &str) -> Result<Vec<Pos>, ActionError> {
        let forest: Vec<Pos> = placed
            .iter()
            .map(|p| p.at)
            .filter(|&c| self.board.terrain[c] == Terrain::Forest)
            .collect();
        if forest.is_empty() {
            return Ok(forest);
        }
        let needed: i64 = forest
            .iter()
            .map(|&c| self.board.density[c])
            .fold(0, i64::saturating_add);
        let connotations = self.connotations_of(text);
        let has = placement_strength(&self.rules, self.face_value(text), &connotations);
        let (ok, comparison) = match self.rules.placement.forest_cut {
            ForestCut::Exceed => (has > needed as f64, "above"),
            ForestCut::Match => (has >= needed as f64, "at least"),
        };
        if ok {
            Ok(forest)
        } else {
            Err(ActionError::ForestTooDense {
                word: text.to_string(),
                comparison,
                needed,
                cells: forest.len(),
                has,
            })
        }
    }

    pub(super) fn commit(
        &mut self,
        letters: &[Placement],
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let plan = self.plan_commit(letters)?;
        let player = plan.player;
        self.player_mut(player).rack = plan.rack_after.clone();
        for &c in &plan.forest {
            self.board.terrain.set(c, Terrain::Plains);
        }
        if !plan.forest.is_empty() {
            events.push(Event::ForestCut {
                cells: plan.forest.clone(),
            });
        }
        events.push(Event::WordCommitted {
            player,
            word: plan.main_text.clone(),
            key: plan.main,
        });
        self.turn_state.committed = true;
        self.start_combat(plan, events);
        Ok(())
    }

    /// Puts the placed letters on the board (the word stands).
    pub(super) fn place_letters(&mut self, plan: &CommitPlan) {
        for p in &plan.placed {
            self.board.letters.set(
                p.at,
                Some(Tile {
                    player: plan.player,
                    letter: p.letter,
                }),
            );
        }
    }

    /// After a word stands: ice (section 4, step 2), then captures (step 3).
    pub(super) fn finish_commit(&mut self, plan: &CommitPlan, events: &mut Vec<Event>) {
        if self.ice_breaks(plan, events) {
            return;
        }
        self.capture(plan, events);
    }

    fn ice_breaks(&mut self, plan: &CommitPlan, events: &mut Vec<Event>) -> bool {
        let heavy: Vec<Pos> = plan
            .placed
            .iter()
            .filter(|p| self.board.terrain[p.at] == Terrain::Ice)
            .filter(|p| self.rules.letter_value(p.letter).unwrap_or(0) > self.board.thickness[p.at])
            .map(|p| p.at)
            .collect();
        if heavy.is_empty() {
            return false;
        }
        let cells: Vec<Pos> = match self.rules.ice.collapse {
            IceCollapse::HeavyLetters => heavy,
            IceCollapse::WholeWord => plan
                .main
                .cells()
                .filter(|&c| self.board.terrain[c] == Terrain::Ice)
                .collect(),
        };
        for &c in &cells {
            self.board.terrain.set(c, Terrain::Water);
        }
        let before = self.board_word_keys();
        let removed = self.letters_only_in(plan.player, plan.main, &before);
        self.remove_letters(&removed);
        self.after_removal(&before);
        events.push(Event::IceBroke { cells, removed });
        true
    }

    /// The cells of `key` whose letters no other word of `player` uses.
    pub(super) fn letters_only_in(
        &self,
        player: Player,
        key: WordKey,
        words: &[(Player, WordKey)],
    ) -> Vec<Pos> {
        key.cells()
            .filter(|&c| {
                !words
                    .iter()
                    .any(|&(p, k)| p == player && k != key && k.covers(c))
            })
            .collect()
    }

    fn capture(&mut self, plan: &CommitPlan, events: &mut Vec<Event>) {
        let player = plan.player;
        for cell in plan.main.cells().collect::<Vec<_>>() {
            if let Some(token) = self
                .board
                .tokens
                .iter_mut()
                .find(|t| t.at == cell && !t.captured())
            {
                token.captured_by = Some(player);
                let (id, kind) = (token.id.clone(), token.kind.clone());
                self.player_mut(player).rack.push(RackItem::Token {
                    id: id.to_string(),
                    kind: kind.to_string(),
                });
                events.push(Event::TokenCaptured {
                    player,
                    token: id.to_string(),
                    kind: kind.to_string(),
                });
            }
            let Some(city) = self
                .board
                .cities
                .iter_mut()
                .find(|c| c.at == cell && !c.destroyed)
            else {
                continue;
            };
            let from = city.owner;
            if from == Owner::from(player) {
                continue;
            }
            city.owner = Owner::from(player);
            let id = city.id.clone();
            let bonus = city.bonus.unwrap_or(self.rules.capture.bonus_from(from));
            let state = self.player_mut(player);
            state.base_score = state.base_score.saturating_add(bonus);
            events.push(Event::CityCaptured {
                player,
                city: id.to_string(),
                from,
                bonus,
            });
        }
    }
}

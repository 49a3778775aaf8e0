//! Pools, racks, draws and discards (docs/RULES.md section 2); ending a turn (section 3); and the
//! end of the game (section 11).

use super::{ActionError, EndReason, Event, Game, GameResult, PlayerState, RackItem, opponent};
use crate::board::Player;
use crate::map::Map;
use crate::rules::{Conquest, DrawModel, Exhaustion, ExhaustionWinner, PoolModel, RuleSet};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The seats' starting states and the shared pool, as the rule set's `supply.pool` says: a
/// shuffled copy of the distribution each, one shuffled set split between them (the first
/// seats get the letters left over), or one shuffled set that all draw from. A map's fixed
/// pool orders replace a player's own pile (a shared pool has no owner, so none replaces it).
pub(super) fn initial_supply(
    map: &Map,
    rules: &RuleSet,
    rng: &mut ChaCha8Rng,
) -> (Vec<PlayerState>, VecDeque<char>) {
    let seats: Vec<Player> = (0..usize::try_from(rules.seats.count).unwrap_or(2))
        .filter_map(Player::seat)
        .collect();
    let fixed = |player: Player| -> Option<VecDeque<char>> {
        let order = map.scenario.pools.get(&player)?;
        Some(order.chars().map(|c| c.to_ascii_uppercase()).collect())
    };
    match rules.supply.pool {
        PoolModel::CopyEach => {
            // Each player's copy is shuffled in turn, gold first, as it always was: games of
            // this model replay as they did before other models existed.
            let piles = seats.iter().map(|&p| match fixed(p) {
                Some(pile) => pile,
                None if rules.letters.infinite_pool => VecDeque::new(),
                None => shuffled_set(rules, rng),
            });
            (piles.map(player_with).collect(), VecDeque::new())
        }
        PoolModel::Split => {
            let set: Vec<char> = shuffled_set(rules, rng).into();
            let dealt = split_evenly(&set, seats.len());
            let piles = seats
                .iter()
                .zip(dealt)
                .map(|(&p, pile)| fixed(p).unwrap_or_else(|| pile.into()));
            (piles.map(player_with).collect(), VecDeque::new())
        }
        PoolModel::Shared => (
            seats.iter().map(|_| player_with(VecDeque::new())).collect(),
            match &map.scenario.shared_pool {
                Some(order) => order.chars().map(|c| c.to_ascii_uppercase()).collect(),
                None => shuffled_set(rules, rng),
            },
        ),
    }
}

/// `set` dealt into `seats` piles in order, as evenly as it goes: the first piles hold one
/// letter more when the set does not divide (two seats: the first mover takes the odd one).
fn split_evenly(set: &[char], seats: usize) -> Vec<Vec<char>> {
    let seats = seats.max(1);
    let (each, extra) = (set.len() / seats, set.len() % seats);
    let mut rest = set;
    (0..seats)
        .map(|i| {
            let (pile, after) = rest.split_at(each + usize::from(i < extra));
            rest = after;
            pile.to_vec()
        })
        .collect()
}

/// One set of the rule set's distribution, shuffled.
fn shuffled_set(rules: &RuleSet, rng: &mut ChaCha8Rng) -> VecDeque<char> {
    let mut letters: Vec<char> = rules
        .letters
        .tiles
        .iter()
        .flat_map(|(&c, t)| std::iter::repeat_n(c, usize::try_from(t.count).unwrap_or(0)))
        .collect();
    letters.shuffle(rng);
    letters.into()
}

fn player_with(pool: VecDeque<char>) -> PlayerState {
    PlayerState {
        pool,
        rack: Vec::new(),
        base_score: 0,
        spies_used: 0,
        turns_started: 0,
        lost: 0,
    }
}

impl Game {
    /// The opening rack: the scenario's, or as many letters as `supply.opening` deals.
    pub(super) fn fill_opening_rack(&mut self, player: Player, map: &Map) {
        match map.scenario.racks.get(&player) {
            Some(rack) => {
                let letters = rack
                    .chars()
                    .map(|c| RackItem::Letter(c.to_ascii_uppercase()));
                self.player_mut(player).rack.extend(letters);
            }
            None => {
                let rules = &self.rules;
                let opening = rules
                    .supply
                    .opening_rack(&rules.turn, rules.seats.count)
                    .unwrap_or(rules.turn.start_rack);
                self.draw(player, opening);
            }
        }
    }

    /// Draws up to `n` letters onto `player`'s rack; returns the letters drawn.
    pub(super) fn draw(&mut self, player: Player, n: i64) -> String {
        let mut drawn = String::new();
        for _ in 0..n.max(0) {
            let letter = if self.rules.letters.infinite_pool && self.pool_letters(player).is_empty()
            {
                self.weighted_letter()
            } else {
                self.pool_mut(player).pop_front()
            };
            let Some(letter) = letter else { break };
            self.player_mut(player).rack.push(RackItem::Letter(letter));
            drawn.push(letter);
        }
        if self.rules.letters.infinite_pool {
            self.initial_letters += drawn.chars().count();
        }
        drawn
    }

    /// The letters `player` draws from, first drawn first: the shared pool, or their own.
    pub fn pool_letters(&self, player: Player) -> &VecDeque<char> {
        match self.rules.supply.pool {
            PoolModel::Shared => &self.shared_pool,
            PoolModel::CopyEach | PoolModel::Split => &self.player(player).pool,
        }
    }

    pub(super) fn pool_mut(&mut self, player: Player) -> &mut VecDeque<char> {
        self.pool_and_rng(player).0
    }

    /// The pool `player` draws from, with the game's generator beside it (to shuffle it).
    pub(super) fn pool_and_rng(
        &mut self,
        player: Player,
    ) -> (&mut VecDeque<char>, &mut ChaCha8Rng) {
        let seat = self.seat_index(player);
        let pool = match self.rules.supply.pool {
            PoolModel::Shared => &mut self.shared_pool,
            PoolModel::CopyEach | PoolModel::Split => &mut self.players[seat].pool,
        };
        (pool, &mut self.rng)
    }

    /// How many letters are on `player`'s rack (tokens are not letters).
    pub(super) fn rack_letter_count(&self, player: Player) -> usize {
        self.player(player)
            .rack
            .iter()
            .filter(|i| matches!(i, RackItem::Letter(_)))
            .count()
    }

    /// Refills `player`'s rack to the opening rack's size, as far as the pool allows.
    fn refill(&mut self, player: Player) -> String {
        let size = usize::try_from(self.rules.turn.start_rack).unwrap_or(0);
        let missing = size.saturating_sub(self.rack_letter_count(player));
        self.draw(player, i64::try_from(missing).unwrap_or(0))
    }

    /// A letter drawn with replacement, weighted by the distribution's counts.
    fn weighted_letter(&mut self) -> Option<char> {
        let total: i64 = self
            .rules
            .letters
            .tiles
            .values()
            .map(|t| t.count.max(0))
            .sum();
        if total <= 0 {
            return None;
        }
        let mut pick = self.rng.random_range(0..total);
        for (&c, t) in &self.rules.letters.tiles {
            if pick < t.count.max(0) {
                return Some(c);
            }
            pick -= t.count.max(0);
        }
        None
    }

    /// Starts `player`'s turn: they draw, except on their first turn.
    pub(super) fn begin_turn(&mut self, player: Player, events: &mut Vec<Event>) {
        self.active = player;
        self.turn += 1;
        self.turn_state = Default::default();
        let draws_now =
            self.rules.supply.draw == DrawModel::PerTurn && self.player(player).turns_started > 0;
        let drew = if draws_now {
            self.draw(player, self.rules.turn.draw_per_turn)
        } else {
            String::new()
        };
        self.player_mut(player).turns_started += 1;
        events.push(Event::TurnStarted {
            player,
            turn: self.turn,
            drew,
        });
    }

    /// Refuses anything but a discard while the rack is over its limit.
    pub(super) fn require_rack_within_limit(&self) -> Result<(), ActionError> {
        let (held, excess) = self.rack_excess(self.active);
        if excess > 0 {
            return Err(ActionError::MustDiscard {
                held,
                limit: self.rules.turn.rack_limit,
                excess,
            });
        }
        Ok(())
    }

    /// Items on the rack, and how many letters must go (tokens cannot be discarded).
    pub fn rack_excess(&self, player: Player) -> (usize, usize) {
        let held = self.player(player).rack.len();
        // The hand taken in sudden death may hold the rack past its limit.
        if self.sudden_death_taker() == Some(player) {
            return (held, 0);
        }
        let limit = usize::try_from(self.rules.turn.rack_limit).unwrap_or(0);
        let letters = self.rack_letter_count(player);
        (held, held.saturating_sub(limit).min(letters))
    }

    pub(super) fn discard(
        &mut self,
        letters: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let player = self.active;
        let (_, excess) = self.rack_excess(player);
        let wanted: Vec<char> = letters.chars().map(|c| c.to_ascii_uppercase()).collect();
        if excess == 0 {
            return Err(ActionError::CannotDiscard {
                reason: "you may discard only when your rack is over its limit".into(),
            });
        }
        if wanted.is_empty() || wanted.len() > excess {
            return Err(ActionError::CannotDiscard {
                reason: format!("discard {excess} letters to get back to the limit"),
            });
        }
        let remaining = take_letters(&self.player(player).rack, &wanted).map_err(|letter| {
            ActionError::CannotDiscard {
                reason: format!("your rack has no {letter} to discard"),
            }
        })?;
        let player_state = self.player_mut(player);
        player_state.rack = remaining;
        player_state.lost += wanted.len();
        events.push(Event::Discarded {
            player,
            letters: wanted.iter().collect(),
        });
        Ok(())
    }

    /// Trades `letters` from the active player's rack back into their pool, reshuffles it,
    /// draws as many (or refills the rack, under RefillHand), scores the opponent the rule
    /// set's points per letter, and ends the turn.
    pub(super) fn exchange(
        &mut self,
        letters: &str,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let player = self.active;
        let refuse = |reason: &str| {
            Err(ActionError::CannotExchange {
                reason: reason.to_string(),
            })
        };
        if !self.rules.exchange.allowed {
            return refuse("these rules have no trading of letters (exchange.allowed is false)");
        }
        if self.turn_state.committed || self.turn_state.redeploys > 0 {
            return refuse("you have already played this turn; trading takes a whole turn");
        }
        let wanted: Vec<char> = letters.chars().map(|c| c.to_ascii_uppercase()).collect();
        if wanted.is_empty() {
            return refuse("name the letters to trade: exchange LETTERS");
        }
        let rack = &self.player(player).rack;
        let remaining = take_letters(rack, &wanted).map_err(|_| ActionError::CannotExchange {
            reason: format!(
                "your rack lacks {} to trade {}",
                lacking(rack, &wanted),
                wanted.iter().collect::<String>()
            ),
        })?;
        self.player_mut(player).rack = remaining;
        let (pool, rng) = self.pool_and_rng(player);
        pool.extend(wanted.iter().copied());
        pool.make_contiguous().shuffle(rng);
        let drew = match self.rules.supply.draw {
            DrawModel::RefillHand => self.refill(player),
            DrawModel::PerTurn | DrawModel::Never => {
                self.draw(player, i64::try_from(wanted.len()).unwrap_or(0))
            }
        };
        let per_letter = self.rules.exchange.opponent_points_per_letter;
        let opponent_gain = per_letter.saturating_mul(i64::try_from(wanted.len()).unwrap_or(0));
        // Every other player scores it (the opponent, at a table of two).
        for other in self.seats().filter(|&p| p != player) {
            let other = self.player_mut(other);
            other.base_score = other.base_score.saturating_add(opponent_gain);
        }
        events.push(Event::Exchanged {
            player,
            count: wanted.len(),
            drew,
            opponent_gain,
        });
        self.turn_state.exchanged = true;
        self.end_turn(events);
        Ok(())
    }

    /// Refuses a pass where `flow.may_pass` is false, saying what the player may do instead.
    pub(super) fn require_play_or_pass(&self) -> Result<(), ActionError> {
        let played = self.turn_state.committed || self.turn_state.exchanged;
        if self.rules.flow.may_pass || played {
            return Ok(());
        }
        let mut options = vec!["play a word"];
        if self.rules.exchange.allowed {
            options.push("trade letters (exchange LETTERS)");
        }
        if self.rules.flow.forfeit {
            options.push("forfeit");
        }
        Err(ActionError::MustPlay {
            options: options.join(", or "),
        })
    }

    /// Under `flow.one_play_per_turn`, a word committed (its combat settled) ends the turn.
    pub(super) fn end_turn_after_a_play(&mut self, events: &mut Vec<Event>) {
        let settled = self.pending.is_none() && self.result.is_none();
        if self.rules.flow.one_play_per_turn && self.turn_state.committed && settled {
            self.end_turn(events);
        }
    }

    /// The active player concedes; the opponent wins.
    pub(super) fn forfeit(&mut self, events: &mut Vec<Event>) -> Result<(), ActionError> {
        if !self.rules.flow.forfeit {
            return Err(ActionError::NoForfeit);
        }
        let loser = self.active;
        self.finish(
            GameResult {
                winner: Some(opponent(loser)),
                reason: EndReason::Forfeit { loser },
            },
            events,
        );
        Ok(())
    }

    /// Ends the game with `result`, telling it in `events`.
    pub(super) fn finish(&mut self, result: GameResult, events: &mut Vec<Event>) {
        // An offer left unanswered (a script ended the game) asks nothing any more.
        self.offer = None;
        self.result = Some(result.clone());
        let award = self.final_award();
        events.push(Event::GameOver { result, award });
    }

    /// Whether `player` has no letter left to play: rack and pool empty.
    pub(super) fn out_of_letters(&self, player: Player) -> bool {
        !self.rules.letters.infinite_pool
            && self.pool_letters(player).is_empty()
            && self.rack_letter_count(player) == 0
    }

    /// Who plays next: the taker of a sudden death under way; else the opponent, unless
    /// `flow.skip_without_letters` skips them for having no letters while `player` still has
    /// some (then `player` goes on).
    fn next_player(&self, player: Player) -> Player {
        if let Some(taker) = self.sudden_death_taker() {
            return taker;
        }
        let seats = self.players.len().max(1);
        let mut after = (1..seats).filter_map(|step| Player::seat((player.index() + step) % seats));
        let next = after.clone().next().unwrap_or(player);
        if !self.rules.flow.skip_without_letters {
            return next;
        }
        // The first after `player` with letters left; else `player` if they have some; else
        // the next (no one has any: the game is ending).
        match after.find(|&p| !self.out_of_letters(p)) {
            Some(with_letters) => with_letters,
            None if !self.out_of_letters(player) => player,
            None => next,
        }
    }

    pub(super) fn end_turn(&mut self, events: &mut Vec<Event>) {
        let player = self.active;
        // A caller of sudden death has given their hand away and draws no more.
        let gave_hand = self.sudden_death == Some(player);
        if self.rules.supply.draw == DrawModel::RefillHand
            && !self.turn_state.exchanged
            && !gave_hand
        {
            let letters = self.refill(player);
            if !letters.is_empty() {
                events.push(Event::Drew { player, letters });
            }
        }
        let passed = !(self.turn_state.committed || self.turn_state.exchanged);
        self.passes_in_row = if passed { self.passes_in_row + 1 } else { 0 };
        self.marks.fragments.clear();
        self.marks.penalties.retain(|p| p.until_end_of != player);
        events.push(Event::TurnEnded { player, passed });
        self.check_end(events);
        if self.result.is_none() {
            let next = self.next_player(player);
            self.begin_turn(next, events);
            // The one left with letters takes turns in a row from now on (the others are out,
            // perhaps from this very turn): stuck, they end the game at once.
            let alone = self.seats().all(|p| p == next || self.out_of_letters(p));
            if next == player || alone || self.sudden_death.is_some() {
                self.end_if_no_word(events);
            }
        }
    }

    /// Ends the game if a condition of section 11 holds (or a script ended it while a combat
    /// waited). Nothing ends while a combat waits for the defender's order: it resolves first.
    pub(super) fn check_end(&mut self, events: &mut Vec<Event>) {
        if self.result.is_some() || self.pending.is_some() {
            return;
        }
        if let Some(result) = self.deferred_end.take() {
            self.finish(result, events);
            return;
        }
        let Some(reason) = self.end_reason() else {
            return;
        };
        let draw_when_out = self.rules.flow.exhaustion_winner == ExhaustionWinner::Draw;
        let winner = match (&reason, self.rules.end.conquest) {
            (EndReason::Conquest { loser }, Conquest::OpponentWins) => Some(opponent(*loser)),
            (EndReason::SuddenDeath { taker, .. }, _) => Some(*taker),
            (EndReason::Exhaustion { .. }, _) if draw_when_out => None,
            _ => self.leader(),
        };
        self.finish(GameResult { winner, reason }, events);
    }

    fn end_reason(&self) -> Option<EndReason> {
        // Simultaneous play ends only when the grace period after red light does.
        if self.rules.flow.simultaneous {
            return None;
        }
        // A shared crossword needs no city, so losing them all ends nothing.
        let separate = self.rules.crossword.model == crate::rules::CrosswordModel::Separate;
        if let Some(loser) = Player::BOTH
            .into_iter()
            .find(|&p| separate && self.board.cities_of(p) == 0)
        {
            return Some(EndReason::Conquest { loser });
        }
        // Under sudden death only the taker's last tile ends the game (or their being stuck).
        if self.sudden_death.is_some() {
            return self.sudden_death_end();
        }
        let infinite = self.rules.letters.infinite_pool;
        let out = |p: Player| self.out_of_letters(p);
        let exhausted = match self.rules.flow.exhaustion {
            Exhaustion::OnePlayerOut => self.seats().find(|&p| out(p)),
            // All out: the player whose turn ended last ran out last.
            Exhaustion::BothOut => self.seats().all(out).then_some(self.active),
        };
        if let Some(player) = exhausted {
            return Some(EndReason::Exhaustion { player });
        }
        let pools_empty = !infinite && self.seats().all(|p| self.pool_letters(p).is_empty());
        (pools_empty && self.passes_in_row >= self.rules.end.passes_to_end)
            .then_some(EndReason::Stalemate)
    }

    /// What the end of the game awards each player (gold's, then silver's), in half points, as
    /// `crossword.final_award` says; `None` while the game goes on or when it awards nothing.
    pub fn final_award(&self) -> Option<[i64; 2]> {
        let result = self.result.as_ref()?;
        // A taker who used every tile in sudden death scores the award multiplied.
        let factor = match result.reason {
            EndReason::SuddenDeath { won: true, .. } => self.rules.flow.sudden_death_factor,
            _ => 1,
        };
        match self.rules.crossword.final_award {
            crate::rules::FinalAward::Nothing => None,
            crate::rules::FinalAward::TilesInPlay => {
                let tiles = i64::try_from(self.board.letter_count()).unwrap_or(i64::MAX / 2);
                let halves = tiles.saturating_mul(factor);
                Some(match result.winner {
                    Some(winner) => {
                        let mut award = [0, 0];
                        award[super::index(winner)] = halves.saturating_mul(2);
                        award
                    }
                    None => [halves, halves],
                })
            }
        }
    }

    /// The player with the highest score (under `CrossingRatio`, the highest crossing score),
    /// or `None` when the highest is shared.
    pub(super) fn leader(&self) -> Option<Player> {
        let mut best: Option<Player> = None;
        let mut shared = false;
        for seat in self.seats() {
            let Some(leading) = best else {
                best = Some(seat);
                continue;
            };
            match self.compare_scores(seat, leading) {
                std::cmp::Ordering::Greater => (best, shared) = (Some(seat), false),
                std::cmp::Ordering::Equal => shared = true,
                std::cmp::Ordering::Less => {}
            }
        }
        if shared { None } else { best }
    }

    /// The players whose score is the highest, in seat order (one, unless it is shared).
    pub(super) fn sharing_the_lead(&self) -> Vec<Player> {
        let mut best: Vec<Player> = Vec::new();
        for seat in self.seats() {
            match best.first().map(|&b| self.compare_scores(seat, b)) {
                None | Some(std::cmp::Ordering::Equal) => best.push(seat),
                Some(std::cmp::Ordering::Greater) => best = vec![seat],
                Some(std::cmp::Ordering::Less) => {}
            }
        }
        best
    }

    /// How `a`'s score compares with `b`'s, as the rules count scores.
    fn compare_scores(&self, a: Player, b: Player) -> std::cmp::Ordering {
        match self.rules.crossword.scoring {
            crate::rules::Scoring::CrossingRatio => {
                self.crossing_score(a).cmp_exact(&self.crossing_score(b))
            }
            _ => self.score(a).total.cmp(&self.score(b).total),
        }
    }

    /// Ends the game with `winner` (for scripts' win conditions). While a combat waits for
    /// the defender's order, the end waits for the combat's resolution (the first script's
    /// end is kept).
    pub fn end_game(&mut self, winner: Option<Player>, reason: String) -> Vec<Event> {
        if self.result.is_some() || self.deferred_end.is_some() {
            return Vec::new();
        }
        let result = GameResult {
            winner,
            reason: EndReason::Script { reason },
        };
        if self.pending.is_some() {
            self.deferred_end = Some(result);
            return Vec::new();
        }
        let mut events = Vec::new();
        self.finish(result, &mut events);
        events
    }
}

/// The rack without `wanted` letters, or the first letter it lacks.
/// What `wanted` needs that `rack` lacks, in words: `2 E and a K` (each letter once, in the
/// order first wanted, with how many are missing).
fn lacking(rack: &[RackItem], wanted: &[char]) -> String {
    let mut missing: Vec<(char, usize)> = Vec::new();
    for &letter in wanted {
        let held = rack
            .iter()
            .filter(|i| **i == RackItem::Letter(letter))
            .count();
        let asked = wanted.iter().filter(|&&w| w == letter).count();
        if asked > held && !missing.iter().any(|(l, _)| *l == letter) {
            missing.push((letter, asked - held));
        }
    }
    let words: Vec<String> = missing
        .iter()
        .map(|&(letter, n)| match n {
            // A letter whose name begins with a vowel's sound: an F, an X.
            1 if "AEFHILMNORSX".contains(letter) => format!("an {letter}"),
            1 => format!("a {letter}"),
            n => format!("{n} {letter}"),
        })
        .collect();
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

pub(super) fn take_letters(rack: &[RackItem], wanted: &[char]) -> Result<Vec<RackItem>, char> {
    let mut remaining = rack.to_vec();
    for &letter in wanted {
        let at = remaining
            .iter()
            .position(|i| *i == RackItem::Letter(letter))
            .ok_or(letter)?;
        remaining.remove(at);
    }
    Ok(remaining)
}

//! AI players at three levels. Each call of [`AiPlayer::choose`] answers with the next action
//! for whoever must act: discard down to the rack limit, invoke a token that helps, commit the
//! chosen placement (or redeploy a word to make a better one possible), order the defenders
//! when attacked, and end the turn.
//!
//! - **Easy** plays plausible words but weak ones: a random placement from the lower half of
//!   the candidates by face value.
//! - **Normal** plays the placement with the best immediate outcome as the engine computes
//!   it, combat included: the most promising candidates are played out on a copy of the game.
//! - **Hard** weighs every placement by its outcome, the tokens it holds and the letters it
//!   keeps (leave values learned from self-play). Given time to think ([`Think`]), it plays
//!   its best candidates on in worlds sampled from the letters it cannot see (the opponent's
//!   rack, every pile's order), each answered by the opponent's reply, and keeps the one that
//!   leaves it best off on average; and it lifts one of its cheapest words first when the
//!   letters back on its rack make a placement worth more than the best without. Where the
//!   rules allow more than one word a turn, it plays another when that word gains well beyond
//!   its letters' worth: it presses an attack on a defender left weaker by a repelled one,
//!   takes a city or a token spot in reach. Well ahead, it pulls its first word of a turn
//!   toward the cities the opponent holds: a conquest while it leads ends the game as its win.
//!
//! In the endgame (few letters left to place, both sides together) the hard level plays its
//! best candidates out to the game's end, each in a few worlds sampled from what it cannot
//! see, both sides played by normal AIs, and keeps the one that wins most: in Word Wars that
//! is how a round is won rather than drawn (going out first on a board the other cannot play
//! out; a round where both players use all their tiles is a draw, the tiles split).
//!
//! In a race (Word Wars: the player left unable to make a word loses) every level but Easy
//! also weighs the letters it keeps by how hard they are to play out (`eval::leave_cost`),
//! which raised Normal's wins against Easy from 84.5% to 89% of 200 Word Wars matches; a stuck
//! AI calls sudden death or trades before it forfeits, and answers an offer by playing it out
//! (`sudden_death`).

use super::eval::{Beside, after, value};
use super::movegen::{Move, MoveGen};
use super::think::Think;
use crate::board::Player;
use crate::game::{Action, Game, WordKey};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

mod endgame;
use endgame::{ROLLED_OUT, in_endgame};

/// How well an AI plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Plausible but weak.
    Easy,
    /// The best immediate outcome.
    Normal,
    /// Every placement weighed with the letters it keeps, tokens sought and spent.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The level's name, as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// What the level does, in a sentence for a player choosing one.
    pub fn description(self) -> &'static str {
        match self {
            Level::Easy => {
                "Plays plausible words, but weak ones, picked at random; at once, long words \
                 blind to what a crossing is worth; in a game of the rules' own moves, a short \
                 search"
            }
            Level::Normal => {
                "Plays the word with the best immediate outcome, combat included, one word a \
                 turn; at once, weighs crossings and searches its last crossword afresh; in a \
                 game of the rules' own moves, a deeper search"
            }
            Level::Hard => {
                "Weighs every placement with the letters it keeps, seeks and spends tokens, and \
                 plays another word in the same turn when it takes a city or a token or presses \
                 an attack; well ahead, it marches on the opponent's cities; at once, it weighs \
                 crossings most and improves its last crossword; in a game of the rules' own \
                 moves, a deeper search still"
            }
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("`{s}` is not an AI level: write easy, normal or hard"))
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How many candidates by estimate are played out in full on a copy of the game.
const PLAYED_OUT: usize = 16;
/// Own words the AI tries lifting when it finds no placement.
const REDEPLOY_TRIES: usize = 6;
/// Redeploys in a game (both sides) past which the AI no longer lifts a word to play it.
const REDEPLOYS_A_GAME: usize = 12;
/// What the hard level counts a token it holds for, in points of score.
const TOKEN_WORTH: f64 = 4.0;
/// How much the hard level counts the leave values of the letters it keeps (measured: 1 and 3
/// were weaker, 5 far weaker; see PERFORMANCE.md).
const LEAVE_WEIGHT: f64 = 2.0;
/// Candidates the hard level plays on in sampled worlds when it has time to think (measured:
/// six, over eight worlds, beat no simulation; PERFORMANCE.md).
const SIMULATED: usize = 6;
/// Actions after a candidate within which the opponent's reply is played out.
const REPLY_ACTIONS: usize = 16;
/// How many times its face value a second word in a turn must gain the hard level (measured
/// over 400 games each against normal: 1, 1.5, 2 and 3; 2 was better than playing one word a
/// turn on every shipped duel and the tutorial, where 1 was worse; PERFORMANCE.md).
const FOLLOW_UP_WORTH: f64 = 2.0;
/// The score lead from which the hard level presses toward the cities the opponent holds
/// (measured over 200 games against easy and 400 against normal from each of three seeds: from
/// 20, 37 of 600 games against easy end by conquest and the wins against normal stay as they
/// were; pressing from any lead loses games; PERFORMANCE.md).
const PRESS_LEAD: i64 = 20;
/// What each cell nearer to a city the opponent holds counts for when pressing, in points.
const PRESS_PULL: f64 = 6.0;
/// Words the hard level commits in a turn at most.
const COMMITS_A_TURN: usize = 3;
/// Defenders whose every order the AI tries (more: the engine's order).
const ORDERED_DEFENDERS: usize = 4;

/// The search's iterations a move in scripted games, by level (measured on Scryper over 100
/// games each: normal beat easy 100 to 0 at 15 and 60, hard normal 89 to 4, 7 drawn, at 300;
/// PERFORMANCE.md).
const SCRIPTED_ITERATIONS: [usize; 3] = [15, 60, 300];

/// An AI player: a level, a seed for its chances, and its move generator's buffers.
pub struct AiPlayer {
    level: Level,
    seed: u64,
    generator: MoveGen,
    /// Simultaneous play's crossword, kept while the tiles stay the same.
    plans: super::at_once::PlanCache,
    /// How long the hard level thinks a move.
    think: Think,
    /// The normal AI that answers for the opponent in the hard level's sampled worlds.
    replier: Option<Box<AiPlayer>>,
}

impl AiPlayer {
    /// An AI of `level` whose chance choices follow from `seed`.
    pub fn new(level: Level, seed: u64) -> AiPlayer {
        AiPlayer {
            level,
            seed,
            generator: MoveGen::new(),
            plans: Default::default(),
            think: Think::Off,
            replier: None,
        }
    }

    /// The same AI thinking `think` a move (only the hard level simulates; see [`Think`]).
    pub fn thinking(mut self, think: Think) -> AiPlayer {
        self.think = think;
        self
    }

    /// What the AI does for `player` in simultaneous play, where everyone acts at once; `None`
    /// when it waits (its crossword is as good as it can make it, no signal is its to call).
    pub fn choose_at_once(&mut self, game: &Game, player: Player) -> Option<Action> {
        let effort = super::at_once::LEVEL_EFFORT[self.level as usize];
        let mut rng = self.rng(game);
        super::at_once::choose(&mut self.plans, effort, &mut rng, game, player)
    }

    /// The next move of a scripted game, by a search of the level's effort (a move the
    /// engine refuses, naming the legal ones, when there is none).
    fn choose_scripted(&mut self, game: &Game) -> Action {
        let player = game.choosing().first().copied().unwrap_or(game.to_act());
        self.choose_scripted_as(game, player)
    }

    /// The move of `player`, one of those whose move it is in the scripted `game` (with
    /// secret choices, several choose at once and each AI for its own seat).
    pub fn choose_scripted_as(&mut self, game: &Game, player: Player) -> Action {
        let effort = super::ismcts::Effort::iterations(match self.level {
            Level::Easy => SCRIPTED_ITERATIONS[0],
            Level::Normal => SCRIPTED_ITERATIONS[1],
            Level::Hard => SCRIPTED_ITERATIONS[2],
        });
        let mut rng = self.rng(game);
        super::ismcts::choose(game, player, effort, &mut rng).unwrap_or(Action::Move {
            player,
            mv: String::new(),
        })
    }

    /// The AI's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The next action for whoever must act in `game` (the AI plays that side). It never
    /// peeks: it plays on a game that side might be in, as far as it can tell
    /// (`Game::sample_for`: the other racks and every pile's order dealt again from the
    /// letters it cannot see), so what it does depends only on what that side sees.
    pub fn choose(&mut self, game: &Game) -> Action {
        if game.rules().flow.scripted {
            return self.choose_scripted(game);
        }
        let mut rng = self.rng(game);
        let view = game.sample_for(game.to_act(), &mut rng);
        self.choose_seen(&view)
    }

    /// The next action in `game`, a game as the side to act sees it.
    fn choose_seen(&mut self, game: &Game) -> Action {
        if let Some(crate::game::Prompt::SuddenDeath { .. }) = game.prompt() {
            let mut rng = self.rng(game);
            return super::sudden_death::answer(&mut self.generator, game, &mut rng);
        }
        let player = game.to_act();
        if player != game.active() {
            return self.defend(game);
        }
        let (_, excess) = game.rack_excess(player);
        if excess > 0 {
            return Action::Discard {
                letters: discards(&game.rack_letters(player), excess),
            };
        }
        if game.committed_this_turn() {
            return match self.follow_up(game, player) {
                Some(m) => Action::Commit {
                    letters: m.placements(),
                },
                None => Action::EndTurn,
            };
        }
        if let Some(token) = self.helpful_token(game) {
            return Action::Invoke { token };
        }
        if let Some(word) = self.strategic_redeploy(game, player) {
            return Action::Redeploy { word };
        }
        if let Some(m) = self.placement(game, player) {
            return Action::Commit {
                letters: m.placements(),
            };
        }
        if let Some(word) = self.helpful_redeploy(game, player) {
            return Action::Redeploy { word };
        }
        when_stuck(game, player)
    }

    /// A random source for this moment of this game, so that choices replay.
    fn rng(&self, game: &Game) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(
            self.seed ^ game.seed().rotate_left(17) ^ (game.log().len() as u64) << 32,
        )
    }

    /// The defence order that leaves the AI best off, trying every order of a few defenders.
    fn defend(&mut self, game: &Game) -> Action {
        let automatic = Action::Defend { order: None };
        let Some(defenders) = game.pending_defenders() else {
            return automatic;
        };
        if self.level == Level::Easy || defenders.len() > ORDERED_DEFENDERS {
            return automatic;
        }
        let me = game.to_act();
        let mut best: Option<(f64, Vec<WordKey>)> = None;
        for order in permutations(&defenders) {
            let mut next = game.clone();
            if next
                .apply(Action::Defend {
                    order: Some(order.clone()),
                })
                .is_err()
            {
                continue;
            }
            let v = value(&next, me);
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, order));
            }
        }
        best.map_or(automatic, |(_, order)| Action::Defend {
            order: Some(order),
        })
    }

    /// A captured token whose effect leaves the AI better off now. The hard level also spends
    /// a token whose effect costs it nothing: held, it takes a rack slot a letter could have.
    fn helpful_token(&self, game: &Game) -> Option<String> {
        let me = game.active();
        let now = value(game, me);
        let spends_free = self.level == Level::Hard;
        game.player(me)
            .tokens()
            .map(|(id, _)| id.to_string())
            .find(|id| {
                after(game, Action::Invoke { token: id.clone() }).is_some_and(|next| {
                    let then = value(&next, me);
                    then > now || (spends_free && then >= now)
                })
            })
    }

    /// The placement this level plays, if there is any.
    fn placement(&mut self, game: &Game, player: Player) -> Option<Move> {
        let rack = game.rack_letters(player);
        let mut moves = self.generator.all(game, player, &rack);
        if moves.is_empty() {
            return None;
        }
        match self.level {
            Level::Easy => self.weak(game, moves),
            Level::Normal => best_outcome(game, player, &mut moves, PLAYED_OUT, false)
                .first()
                .map(|&(_, m)| m),
            Level::Hard => {
                let ranked = best_outcome(game, player, &mut moves, usize::MAX, true);
                if ranked.len() > 1 && in_endgame(game) {
                    let best = &ranked[..ranked.len().min(ROLLED_OUT)];
                    return self.rolled_out(game, player, best);
                }
                if self.think.is_on() && ranked.len() > 1 {
                    self.simulated(game, player, &ranked[..ranked.len().min(SIMULATED)])
                } else {
                    ranked.first().map(|&(_, m)| m)
                }
            }
        }
    }

    /// The simulation step: each of `candidates` played in the same worlds sampled from what
    /// `player` cannot see, followed by the further words this level would play in the turn
    /// and the opponent's reply played out by a normal AI, as many worlds as
    /// the think budget allows; the candidate with the best total. Ties keep the earlier
    /// (better by its immediate outcome).
    fn simulated(
        &mut self,
        game: &Game,
        player: Player,
        candidates: &[(f64, Move)],
    ) -> Option<Move> {
        let mut totals = vec![0.0; candidates.len()];
        let mut rng = self.rng(game);
        let mut replier = (self.replier.take())
            .unwrap_or_else(|| Box::new(AiPlayer::new(Level::Normal, self.seed)));
        let mut budget = self.think.start();
        while budget.another() {
            let world = game.sample_for(player, &mut rng);
            for (total, (_, m)) in totals.iter_mut().zip(candidates) {
                let commit = Action::Commit {
                    letters: m.placements(),
                };
                *total += after(&world, commit).map_or(f64::NEG_INFINITY, |next| {
                    let answered = replied(self.turn_finished(next, player), player, &mut replier);
                    worth(&answered, player)
                });
            }
        }
        let best = (0..candidates.len()).fold(
            0,
            |best, i| {
                if totals[i] > totals[best] { i } else { best }
            },
        );
        candidates.get(best).map(|&(_, m)| m)
    }

    /// The hard level's next word in a turn it has already played one in (the rules allow as
    /// many as the rack makes): its best placement by the hard level's weighing, when that
    /// leaves it better off by more than `FOLLOW_UP_WORTH` times the word's face value. The
    /// letters would score later anyway, and a fuller rack makes better words; what a second
    /// word must bring beyond them is an attack's gains (a defender that repelled an attack
    /// stays weaker until the turn ends), a city, a token, a rack rid of letters it cannot use.
    fn follow_up(&mut self, game: &Game, player: Player) -> Option<Move> {
        if self.level != Level::Hard || commits_this_turn(game) >= COMMITS_A_TURN {
            return None;
        }
        let now = worth(game, player);
        self.outcomes(game, player, usize::MAX, true)
            .into_iter()
            .find(|&(then, m)| then - now > FOLLOW_UP_WORTH * m.face() as f64)
            .map(|(_, m)| m)
    }

    /// `game`, just after `player` committed a word, with the further words this level would
    /// play in the same turn (`follow_up`) played.
    fn turn_finished(&mut self, mut game: Game, player: Player) -> Game {
        while game.result().is_none() && game.to_act() == player && game.active() == player {
            let Some(m) = self.follow_up(&game, player) else {
                break;
            };
            match after(
                &game,
                Action::Commit {
                    letters: m.placements(),
                },
            ) {
                Some(next) => game = next,
                None => break,
            }
        }
        game
    }

    /// Every placement of `player`'s rack, the `keep` most promising played out
    /// (`best_outcome`); best outcome first.
    fn outcomes(
        &mut self,
        game: &Game,
        player: Player,
        keep: usize,
        whole: bool,
    ) -> Vec<(f64, Move)> {
        let rack = game.rack_letters(player);
        let mut moves = self.generator.all(game, player, &rack);
        best_outcome(game, player, &mut moves, keep, whole)
    }

    /// A random placement among the lower half by face value.
    fn weak(&self, game: &Game, moves: Vec<Move>) -> Option<Move> {
        let mut by_face: Vec<(i64, Move)> = moves.into_iter().map(|m| (m.face(), m)).collect();
        by_face.sort_by_key(|(f, _)| *f);
        let half = by_face.len().div_ceil(2);
        let mut rng = self.rng(game);
        let pick = rng.random_range(0..half);
        Some(by_face[pick].1)
    }

    /// With time to think, the hard level also lifts one of its cheapest words when the best
    /// placement its letters then allow leaves it better off than the best placement without
    /// (the word's face leaves the score; its letters come back to the rack).
    fn strategic_redeploy(&mut self, game: &Game, player: Player) -> Option<WordKey> {
        if self.level != Level::Hard || !self.think.is_on() || self.redeploys_spent(game) {
            return None;
        }
        // One lift a turn.
        if this_turn(game).any(|a| matches!(a, Action::Redeploy { .. })) {
            return None;
        }
        let plain = (self.outcomes(game, player, PLAYED_OUT, true).first())
            .map_or(worth(game, player), |&(v, _)| v);
        let mut words: Vec<(i64, WordKey)> = game
            .words()
            .into_iter()
            .filter(|w| w.word.player == player)
            .map(|w| (w.face, w.word.key))
            .collect();
        words.sort_by_key(|&(face, key)| (face, key));
        let mut best: Option<(f64, WordKey)> = None;
        for &(_, word) in words.iter().take(REDEPLOY_TRIES) {
            let Some(lifted) = after(game, Action::Redeploy { word }) else {
                continue;
            };
            let then = self.outcomes(&lifted, player, PLAYED_OUT, true);
            if let Some(&(v, _)) = then.first()
                && v > plain
                && best.is_none_or(|(b, _)| v > b)
            {
                best = Some((v, word));
            }
        }
        best.map(|(_, word)| word)
    }

    /// Whether the game has seen so many redeploys that the AI makes no more (see
    /// `REDEPLOYS_A_GAME`).
    fn redeploys_spent(&self, game: &Game) -> bool {
        let redeployed = game
            .log()
            .iter()
            .filter(|a| matches!(a, Action::Redeploy { .. }))
            .count();
        redeployed >= REDEPLOYS_A_GAME
    }

    /// A word to lift when no placement is possible, if lifting it makes one possible.
    fn helpful_redeploy(&mut self, game: &Game, player: Player) -> Option<WordKey> {
        // A word lifted and a letter of it laid again can bring the board back where it was:
        // past a few redeploys in a game, the AI passes instead, so such a game still ends.
        if self.level == Level::Easy || self.redeploys_spent(game) {
            return None;
        }
        let words: Vec<WordKey> = game
            .words()
            .into_iter()
            .filter(|w| w.word.player == player)
            .map(|w| w.word.key)
            .take(REDEPLOY_TRIES)
            .collect();
        let now = value(game, player);
        words.into_iter().find(|&word| {
            after(game, Action::Redeploy { word }).is_some_and(|next| {
                (self.outcomes(&next, player, 4, false).first()).is_some_and(|&(v, _)| v > now)
            })
        })
    }
}

/// The `keep` most promising of `moves` by a quick estimate (face value, more for touching a
/// city), each played out on a copy of the game; best outcome first. `whole` (the hard
/// level's view of the whole game) also aims at the token spots no one has captured and
/// counts the tokens held and the letters kept.
fn best_outcome(
    game: &Game,
    player: Player,
    moves: &mut [Move],
    keep: usize,
    whole: bool,
) -> Vec<(f64, Move)> {
    let mut targets: Vec<crate::board::Pos> = game
        .board()
        .cities
        .iter()
        .filter(|c| !c.destroyed && c.owner != crate::board::Owner::from(player))
        .map(|c| c.at)
        .collect();
    if whole {
        let free = game
            .board()
            .tokens
            .iter()
            .filter(|t| t.captured_by.is_none());
        targets.extend(free.map(|t| t.at));
    }
    let estimate = |m: &Move| {
        let covers_target = m.cells().any(|(at, _, _)| targets.contains(&at));
        m.face() * if covers_target { 4 } else { 1 }
    };
    moves.sort_by_cached_key(|m| std::cmp::Reverse(estimate(m)));
    let beside = Beside::new(game);
    let pull = if whole {
        conquest_pull(game, beside.base_scores(), player)
    } else {
        None
    };
    let mut played: Vec<(f64, Move)> = moves
        .iter()
        .take(keep)
        .filter_map(|m| {
            let next = super::eval::tried(
                game,
                Action::Commit {
                    letters: m.placements(),
                },
            )?;
            let value = beside.value(&next, player);
            let mut weighed = if whole {
                value + held_worth(&next, player)
            } else {
                value
            };
            if let Some(pull) = pull {
                let distance = distance_to_enemy_city(&next, player).unwrap_or(0);
                weighed -= pull * f64::from(distance);
            }
            Some((weighed, *m))
        })
        .collect();
    played.sort_by(|a, b| b.0.total_cmp(&a.0));
    played
}

/// `game` (just after `player` committed) played on to the start of `player`'s next turn:
/// their turn ended and the opponent's played by `replier` (within a bound of actions).
fn replied(mut game: Game, player: Player, replier: &mut AiPlayer) -> Game {
    for _ in 0..REPLY_ACTIONS {
        let next_turn_begun = game.active() == player && !game.committed_this_turn();
        if game.result().is_some() || next_turn_begun {
            break;
        }
        let action = replier.choose_seen(&game);
        if game.apply(action).is_err() {
            break;
        }
    }
    game
}

/// A position's worth for `player` as the hard level weighs it: its value and what it holds.
fn worth(game: &Game, player: Player) -> f64 {
    value(game, player) + held_worth(game, player)
}

/// What the hard level counts beyond the score lead: the tokens `player` holds (an effect to
/// come, worth something until it is spent) and the letters they keep (the leave values
/// learned from self-play, `leaves`).
fn held_worth(game: &Game, player: Player) -> f64 {
    let tokens = TOKEN_WORTH * game.player(player).tokens().count() as f64;
    let leave = super::leaves::Leaves::shipped().of(&game.rack_letters(player));
    tokens + LEAVE_WEIGHT * leave
}

/// The letters to discard from `rack` to lose `count`: the ones a rack least wants to keep
/// (repeats first, then awkward letters, then vowels beyond what words need).
fn discards(rack: &str, count: usize) -> String {
    let letters: Vec<char> = rack.chars().collect();
    let vowels = letters.iter().filter(|c| "AEIOU".contains(**c)).count();
    let mut scored: Vec<(i32, usize, char)> = letters
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let repeats = letters[..i].iter().filter(|&&d| d == c).count() as i32;
            let awkward = i32::from("QZXJKVW".contains(c));
            let spare_vowel = i32::from("AEIOU".contains(c) && vowels * 2 > letters.len());
            (repeats * 4 + awkward * 3 + spare_vowel * 2, i, c)
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(count).map(|(_, _, c)| c).collect()
}

/// The actions of the turn under way (the actions since the last turn ended), latest first.
fn this_turn(game: &Game) -> impl Iterator<Item = &Action> {
    (game.log().iter().rev()).take_while(|a| !matches!(a, Action::EndTurn))
}

/// The words committed in the turn under way.
fn commits_this_turn(game: &Game) -> usize {
    this_turn(game)
        .filter(|a| matches!(a, Action::Commit { .. }))
        .count()
}

/// Every order of `items`.
fn permutations(items: &[WordKey]) -> Vec<Vec<WordKey>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// What to do with no word to play: pass where the rules allow it; else call sudden death
/// where it is worth it; else trade the whole rack back for fresh letters where trading is
/// allowed and the pool has letters to give; else forfeit. Trading costs points, forfeiting
/// the whole game, so a stuck player trades again, up to a few trades among the last actions,
/// so that two players who can never make a word do not trade forever.
fn when_stuck(game: &Game, player: Player) -> Action {
    const RECENT: usize = 6;
    const MOST_TRADES: usize = 3;
    let rules = game.rules();
    if rules.flow.may_pass {
        return Action::EndTurn;
    }
    if super::sudden_death::worth_calling(game) {
        return Action::CallSuddenDeath;
    }
    let rack = game.rack_letters(player);
    let recent_trades = game
        .log()
        .iter()
        .rev()
        .take(RECENT)
        .filter(|a| matches!(a, Action::Exchange { .. }))
        .count();
    let trade_helps =
        !rack.is_empty() && !game.pool_letters(player).is_empty() && recent_trades < MOST_TRADES;
    if rules.exchange.allowed && trade_helps {
        return Action::Exchange { letters: rack };
    }
    Action::Forfeit
}

/// How much `player`'s first word of a turn is pulled toward the cities the opponent holds,
/// in points a cell (`PRESS_PULL`), when they lead by `PRESS_LEAD` or more: every city taken,
/// a conquest ends the game, and under either rule a conquest while ahead is a win. Further
/// words in the turn are not pulled: each must pay for itself (`follow_up`).
fn conquest_pull(game: &Game, scores: &[crate::game::Score], player: Player) -> Option<f64> {
    if game.committed_this_turn() {
        return None;
    }
    let total = |p: Player| scores.get(p.index()).map_or(0, |s| s.total);
    let lead = total(player).saturating_sub(total(crate::game::opponent(player)));
    (lead >= PRESS_LEAD).then_some(PRESS_PULL)
}

/// How far `player`'s letters are from the cities the opponent holds: the fewest steps across
/// and down from any of their letters to the nearest such city (`None` when the opponent
/// holds none, or `player` has no letter).
fn distance_to_enemy_city(game: &Game, player: Player) -> Option<u32> {
    let board = game.board();
    let letters = &board.letters;
    let own: Vec<crate::board::Pos> = (letters.positions().zip(letters.cells()))
        .filter(|(_, t)| t.is_some_and(|t| t.player == player))
        .map(|(at, _)| at)
        .collect();
    (board.city_cells(crate::game::opponent(player)))
        .filter_map(|city| {
            let steps = |at: &crate::board::Pos| at.x.abs_diff(city.x) + at.y.abs_diff(city.y);
            own.iter().map(steps).min()
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discards_repeats_and_awkward_letters_first() {
        for (rack, count, expect) in [("EEEAST", 2, "EE"), ("QAEIRST", 1, "Q"), ("ABCDE", 0, "")] {
            assert_eq!(discards(rack, count), expect, "{rack}");
        }
    }

    #[test]
    fn levels_read_and_write_their_names() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert!(
            "expert"
                .parse::<Level>()
                .unwrap_err()
                .contains("easy, normal or hard")
        );
    }
}

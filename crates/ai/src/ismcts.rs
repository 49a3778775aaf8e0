//! The AI of scripted games (`flow.scripted`): Information-Set Monte Carlo Tree Search
//! (Cowling, Powley and Whitehouse's single-observer ISMCTS) over the moves the game's rules
//! list. Each iteration plays on a game the player might be in (`Game::sample_for`: the
//! values hidden from them drawn from those they may be, chance reseeded), walks the tree of
//! moves by UCB among the moves legal in that sample (a child counts as available each time
//! its move is legal), adds one move, and scores the position reached: with the rules' own
//! `score` where they give one (a heuristic's value at the leaf, as a chess engine's
//! evaluation: on Scryper, 60 iterations scored so won as often against 200 with 8-move
//! random playouts, 11 of 20, at a seventeenth of the time), else by playing on at random.
//!
//! **Invariant:** the search never reads the truth of what its player may not see: it starts
//! every iteration from `sample_for`, and the rules list each seat's moves from that seat's
//! view of the sample.

use crate::board::Player;
use crate::game::{Action, Game};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Moves a playout makes, where the rules give no `score`, before it is cut short and
/// counted as a draw: a scripted game's move costs tens of microseconds of Lua, and a whole
/// game hundreds of moves.
const PLAYOUT_MOVES: usize = 8;

/// The most a move of the AI takes: under issue 25's second, with room for the iteration under
/// way when it runs out.
const THINK_TIME: std::time::Duration = std::time::Duration::from_millis(900);

/// How hard the search tries: iterations, how deep a playout goes, and UCB's exploration.
#[derive(Clone, Copy, Debug)]
pub struct Effort {
    /// Iterations (samples played from the root) per move.
    pub iterations: usize,
    /// Moves a playout makes at most, where the rules give no `score` (where they do, the
    /// position reached is scored at once).
    pub playout_moves: usize,
    /// UCB's exploration constant.
    pub exploration: f64,
    /// The most a move may take: the search stops there, whatever iterations are left (a
    /// person waits for it; a rules script may be slow). It makes the AI's choices depend on
    /// the machine only when it is reached.
    pub think_time: std::time::Duration,
}

impl Effort {
    /// The search of `iterations` iterations, with the usual depth and exploration.
    pub fn iterations(iterations: usize) -> Effort {
        Effort {
            iterations,
            playout_moves: PLAYOUT_MOVES,
            exploration: 0.7,
            think_time: THINK_TIME,
        }
    }
}

/// A node: the move that led to it and who made it, its children, and what the search saw.
struct Node {
    mv: String,
    mover: Player,
    children: Vec<usize>,
    visits: f64,
    /// The mover's total reward through this node.
    reward: f64,
    /// How often its move was legal when its parent was reached.
    available: f64,
}

/// What one search found: the move, and how much it did.
#[derive(Clone, Debug)]
pub struct Found {
    /// The move chosen.
    pub mv: String,
    /// Iterations made.
    pub iterations: usize,
    /// Moves played in all (tree and playouts).
    pub moves_played: usize,
}

/// The next move of `player`, who is to move in `game` (a scripted game), by a search of
/// `effort`; `None` when they have no legal move.
pub fn choose(game: &Game, player: Player, effort: Effort, rng: &mut ChaCha8Rng) -> Option<Action> {
    let found = search(game, player, effort, rng)?;
    Some(Action::Move {
        player,
        mv: found.mv,
    })
}

/// The search behind `choose`.
pub fn search(game: &Game, player: Player, effort: Effort, rng: &mut ChaCha8Rng) -> Option<Found> {
    let legal = game.legal_moves(player).ok()?;
    match legal.len() {
        0 => return None,
        1 => {
            return Some(Found {
                mv: legal.into_iter().next()?,
                iterations: 0,
                moves_played: 0,
            });
        }
        _ => {}
    }
    let mut tree = Tree {
        nodes: vec![Node {
            mv: String::new(),
            mover: player,
            children: Vec::new(),
            visits: 0.0,
            reward: 0.0,
            available: 0.0,
        }],
        me: player,
        effort,
        moves_played: 0,
        playout_moves: if game.standing(player).is_some() {
            0
        } else {
            effort.playout_moves
        },
    };
    let began = std::time::Instant::now();
    let mut iterations = 0;
    while iterations < effort.iterations && began.elapsed() < effort.think_time {
        tree.iterate(game, rng);
        iterations += 1;
    }
    let best = tree.nodes[0]
        .children
        .iter()
        .map(|&c| &tree.nodes[c])
        .filter(|n| n.mover == player)
        .max_by(|a, b| a.visits.total_cmp(&b.visits))?;
    Some(Found {
        mv: best.mv.clone(),
        iterations,
        moves_played: tree.moves_played,
    })
}

struct Tree {
    nodes: Vec<Node>,
    me: Player,
    effort: Effort,
    moves_played: usize,
    /// Random moves played on from a new node before it is scored.
    playout_moves: usize,
}

impl Tree {
    /// One iteration: a sample, selection and expansion down the tree, a playout, and the
    /// result carried back up.
    fn iterate(&mut self, game: &Game, rng: &mut ChaCha8Rng) {
        let mut sample = game.sample_for(self.me, rng);
        let mut path = vec![0];
        let mut node = 0;
        while sample.result().is_none() {
            let Some((mover, moves)) = next_moves(&mut sample, self.me) else {
                break;
            };
            match self.descend(node, mover, &moves, rng) {
                Step::Existing(child) => {
                    if !self.play(&mut sample, mover, &self.nodes[child].mv.clone()) {
                        return;
                    }
                    path.push(child);
                    node = child;
                }
                Step::New(mv) => {
                    if !self.play(&mut sample, mover, &mv) {
                        return;
                    }
                    let child = self.add(node, mover, mv);
                    path.push(child);
                    break;
                }
            }
        }
        let reward = self.play_out(&mut sample, rng);
        for &n in &path[1..] {
            let node = &mut self.nodes[n];
            node.visits += 1.0;
            node.reward += if node.mover == self.me {
                reward
            } else {
                1.0 - reward
            };
        }
        self.nodes[0].visits += 1.0;
    }

    /// Where the walk goes from `node` with `mover`'s `moves` legal: a move not yet in the
    /// tree, else the child best by UCB among those legal now.
    fn descend(
        &mut self,
        node: usize,
        mover: Player,
        moves: &[String],
        rng: &mut ChaCha8Rng,
    ) -> Step {
        let children: Vec<usize> = self.nodes[node]
            .children
            .iter()
            .copied()
            .filter(|&c| self.nodes[c].mover == mover && moves.contains(&self.nodes[c].mv))
            .collect();
        for &c in &children {
            self.nodes[c].available += 1.0;
        }
        let untried: Vec<&String> = moves
            .iter()
            .filter(|m| !children.iter().any(|&c| &&self.nodes[c].mv == m))
            .collect();
        if !untried.is_empty() {
            return Step::New(untried[rng.random_range(0..untried.len())].clone());
        }
        let c = self.effort.exploration;
        let ucb =
            |n: &Node| n.reward / n.visits + c * (n.available.max(1.0).ln() / n.visits).sqrt();
        let best = children
            .iter()
            .copied()
            .max_by(|&a, &b| ucb(&self.nodes[a]).total_cmp(&ucb(&self.nodes[b])));
        // Every legal move has a child here, and there is at least one legal move.
        Step::Existing(best.unwrap_or(children[0]))
    }

    fn add(&mut self, parent: usize, mover: Player, mv: String) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv,
            mover,
            children: Vec::new(),
            visits: 0.0,
            reward: 0.0,
            available: 1.0,
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Plays `mv` on the sample; false if the rules refused or failed (the iteration is
    /// dropped).
    fn play(&mut self, sample: &mut Game, mover: Player, mv: &str) -> bool {
        self.moves_played += 1;
        sample
            .apply(Action::Move {
                player: mover,
                mv: mv.to_string(),
            })
            .is_ok()
    }

    /// Plays the sample on with random legal moves (none where the rules score a position);
    /// the reward for the searching player: 1 for a win, 0 for a loss, a half for a draw,
    /// else the rules' score (a half where they give none).
    fn play_out(&mut self, sample: &mut Game, rng: &mut ChaCha8Rng) -> f64 {
        for _ in 0..self.playout_moves {
            if sample.result().is_some() {
                break;
            }
            let Some((mover, moves)) = next_moves(sample, sample.to_act()) else {
                break;
            };
            let mv = &moves[rng.random_range(0..moves.len())];
            if !self.play(sample, mover, mv) {
                return 0.5;
            }
        }
        match sample.result() {
            Some(r) if r.winner == Some(self.me) => 1.0,
            Some(r) if r.winner.is_some() => 0.0,
            Some(_) => 0.5,
            None => sample.standing(self.me).unwrap_or(0.5),
        }
    }
}

enum Step {
    Existing(usize),
    New(String),
}

/// Who moves next in `game` and their legal moves (none when no one can move). In a secret
/// choice, where the order does not matter, `first` chooses first if they are choosing.
pub fn next_moves(game: &mut Game, first: Player) -> Option<(Player, Arc<Vec<String>>)> {
    let choosing = game.choosing();
    let mover = if choosing.contains(&first) {
        first
    } else {
        *choosing.first()?
    };
    let moves = game.list_moves(mover).ok()?;
    (!moves.is_empty()).then_some((mover, moves))
}

/// A random legal move for whoever moves next: the weakest player, a baseline.
pub fn random_move(game: &mut Game, rng: &mut ChaCha8Rng) -> Option<Action> {
    let first = game.to_act();
    let (player, moves) = next_moves(game, first)?;
    let mv = moves[rng.random_range(0..moves.len())].clone();
    Some(Action::Move { player, mv })
}

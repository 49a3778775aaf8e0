//! An AI seat's thinking, off its match: the AIs due to act are taken out of the match with a
//! copy of the game, think on it while the match is free for its people (a person acting at
//! once, or in a secret choice, does not wait for a search), and are put back with what they
//! chose, which is played if the match has not moved on meanwhile (else they think again).
//!
//! In simultaneous play with people each AI seat keeps a person's pace (`scryptic_ai::pace`):
//! only the seats its pacer lets act think, and the match is woken when the first may act.

use super::Match;
use crate::store::Store;
use scryptic_ai::{AiPlayer, Pace};
use scryptic_core::board::Player;
use scryptic_core::game::{Action, Game};
use scryptic_protocol::Occupant;

/// What a step of a match's driver does: played something (or not), or an AI to think.
pub(crate) enum Stepped {
    /// Whether an action was played.
    Played(bool),
    /// AIs to think off the match, then [`Match::thought`].
    Think(Box<Thinking>),
}

/// AI seats taken out of their match to think on a copy of its game.
pub(crate) struct Thinking {
    /// Each AI with its seat and its place among the match's AIs, in the order they are
    /// asked (the first with an action acts).
    ais: Vec<(usize, Player, AiPlayer)>,
    game: Game,
    /// The match's actions when the copy was taken.
    actions: u64,
    /// How the AIs choose.
    kind: Kind,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// The seat to act in turns.
    Turn,
    /// A mover of a scripted game.
    Scripted,
    /// Simultaneous play; `paced`: with people, each AI at its pace.
    AtOnce { paced: bool },
}

impl Thinking {
    /// Each AI in turn thinks on the copy: the first action one chooses, with its seat (in
    /// simultaneous play an AI may wait).
    pub(crate) fn think(&mut self) -> Option<(Player, Action)> {
        let (game, kind) = (&self.game, self.kind);
        self.ais.iter_mut().find_map(|(_, seat, ai)| {
            let action = match kind {
                Kind::Turn => Some(ai.choose(game)),
                Kind::Scripted => Some(ai.choose_scripted_as(game, *seat)),
                Kind::AtOnce { .. } => ai.choose_at_once(game, *seat),
            };
            action.map(|a| (*seat, a))
        })
    }
}

impl Match {
    /// The AIs due to act, taken out of the match with a copy of its game; none when no AI is
    /// to act (in simultaneous play with people, none whose pace lets it act yet: the match
    /// is then woken when the first may, `ai_plan_due_ms`).
    pub(super) fn next_thinking(&mut self, now_ms: u64) -> Option<Box<Thinking>> {
        self.ai_wake_ms = None;
        if !self.under_way() || self.ais.is_empty() {
            return None;
        }
        let flow = &self.game().rules().flow;
        let (simultaneous, scripted) = (flow.simultaneous, flow.scripted);
        let (kind, chosen) = if simultaneous {
            let paced = self.has_people();
            let turn = self.ai_turn;
            self.ai_turn = self.ai_turn.wrapping_add(1);
            let count = self.ais.len();
            let order: Vec<usize> = (0..count).map(|k| (turn + k) % count).collect();
            let ready: Vec<usize> = if paced {
                order
                    .into_iter()
                    .filter(|&at| self.pace_lets(at, now_ms))
                    .collect()
            } else {
                order
            };
            (Kind::AtOnce { paced }, ready)
        } else if scripted {
            let game = self.game();
            let choosing = game.choosing();
            let movers = if choosing.is_empty() {
                vec![game.to_act()]
            } else {
                choosing
            };
            let at = self.ais.iter().position(|(p, _)| movers.contains(p));
            (Kind::Scripted, at.into_iter().collect())
        } else {
            let actor = self.game().to_act();
            let at = self.ais.iter().position(|(p, _)| *p == actor);
            (Kind::Turn, at.into_iter().collect())
        };
        if chosen.is_empty() {
            return None;
        }
        Some(Box::new(self.take_ais(chosen, kind)))
    }

    /// Whether the pace of the AI at `at` lets it act at `now_ms`; if not, the match is woken
    /// when it does.
    fn pace_lets(&mut self, at: usize, now_ms: u64) -> bool {
        let (seat, ref ai) = self.ais[at];
        let pace = Pace::given_or_of(self.ai_letter_ms, ai.level(), self.game.game().rules());
        let ready = (self.pacers.seat(seat)).ready_at(self.game.game(), seat, pace, now_ms);
        if ready > now_ms {
            self.ai_wake_ms = Some(self.ai_wake_ms.map_or(ready, |w| w.min(ready)));
        }
        ready <= now_ms
    }

    /// The AIs at `chosen` (places among the match's AIs, in the order they are asked) taken
    /// out, with a copy of the game.
    fn take_ais(&mut self, chosen: Vec<usize>, kind: Kind) -> Thinking {
        let mut by_place = chosen.clone();
        by_place.sort_unstable_by(|a, b| b.cmp(a));
        let mut taken: Vec<(usize, Player, AiPlayer)> = by_place
            .into_iter()
            .map(|at| {
                let (seat, ai) = self.ais.remove(at);
                (at, seat, ai)
            })
            .collect();
        taken.sort_by_key(|(at, ..)| chosen.iter().position(|c| c == at));
        self.thinking = true;
        Thinking {
            ais: taken,
            game: self.game.game().clone(),
            actions: self.actions,
            kind,
        }
    }

    /// The AIs back from `thinking`, and `chose` (what the first with an action chose) played
    /// if the match has not moved on since (in simultaneous play, the chosen layout's next
    /// letters on the game as it is now, at the AI's pace). Whether something was played or
    /// the AIs should think again at once (the match moved on meanwhile).
    pub(crate) fn thought(
        &mut self,
        thinking: Thinking,
        chose: Option<(Player, Action)>,
        store: &dyn Store,
    ) -> bool {
        let Thinking {
            mut ais,
            actions,
            kind,
            ..
        } = thinking;
        ais.sort_by_key(|(at, ..)| *at);
        for (at, seat, ai) in ais {
            let place = at.min(self.ais.len());
            self.ais.insert(place, (seat, ai));
        }
        self.thinking = false;
        let Some((seat, action)) = chose else {
            return false;
        };
        if self.actions != actions {
            return true;
        }
        match kind {
            Kind::AtOnce { paced: true } => self.play_paced(seat, action, store),
            Kind::AtOnce { paced: false } => self.act(Some(seat), action, store).is_ok(),
            Kind::Turn | Kind::Scripted => self.play_ai(seat, action, store),
        }
    }

    /// Plays a paced AI's choice as a person would: its next few letters, its pacer told.
    fn play_paced(&mut self, seat: Player, wanted: Action, store: &dyn Store) -> bool {
        let game = self.game.game();
        let action = scryptic_ai::pace::step_toward(game, seat, wanted);
        let laid = game.laid_letters(seat);
        let now = self.clock.now_ms();
        if self.act(Some(seat), action.clone(), store).is_err() {
            return false;
        }
        self.pacers.seat(seat).acted(&laid, &action, now);
        true
    }

    /// Plays the AI's action in turns or a scripted game; an AI that cannot act would hold
    /// the match for ever, so its seat opens.
    fn play_ai(&mut self, seat: Player, action: Action, store: &dyn Store) -> bool {
        let Err(e) = self.act(Some(seat), action, store) else {
            return true;
        };
        let name = self.game().seat_names().name(seat).to_string();
        self.ais.retain(|(p, _)| *p != seat);
        self.seats[seat.index()].occupant = Occupant::Open;
        let _ = store.set_seats(&self.id, &self.stored_seats(), &self.listing());
        self.send_seats();
        eprintln!(
            "match {}: the AI for {name} is stuck ({e}); its seat is open",
            self.id
        );
        false
    }

    /// Whether a person holds a seat (an AI playing at once then keeps their pace).
    fn has_people(&self) -> bool {
        (self.seats.iter()).any(|s| matches!(s.occupant, Occupant::Person { .. }))
    }
}

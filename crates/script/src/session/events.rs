//! Engine events as scripts see them: the event's name and the fields of its table, and what
//! `combat_resolved` tells of the combat it ends.

use crate::EventField;
use crate::board::Player;
use crate::game::Event;

/// What `combat_resolved` tells of the combat it ends, kept from the events that began it (a
/// combat may end an action later, when the defender orders its words).
#[derive(Clone, Debug, Default)]
pub(super) struct CombatRecord {
    word: String,
    player: Option<Player>,
    attack: i64,
    defence: i64,
}

impl CombatRecord {
    /// Keeps what `event` tells of the combat.
    pub(super) fn note(&mut self, event: &Event) {
        match event {
            Event::WordCommitted { player, word, .. } => {
                self.word.clone_from(word);
                self.player = Some(*player);
            }
            Event::CombatStarted {
                attacker,
                attack,
                defenders,
            } => {
                self.player = Some(*attacker);
                self.attack = attack.value;
                self.defence = defenders.iter().map(|(_, _, s)| s.value).sum();
            }
            _ => {}
        }
    }

    /// The fields `combat_resolved` adds to the outcome.
    pub(super) fn fields(&self) -> [(&'static str, EventField<'_>); 4] {
        [
            (
                "word",
                EventField::Text(std::borrow::Cow::Borrowed(&self.word)),
            ),
            (
                "player",
                EventField::Word(self.player.map_or("gold", Player::name)),
            ),
            ("attack", EventField::Int(self.attack)),
            ("defence", EventField::Int(self.defence)),
        ]
    }
}

/// The script event an engine event is, if any.
pub(super) fn script_event_name(event: &Event) -> Option<&'static str> {
    Some(match event {
        Event::TurnStarted { .. } => "turn_start",
        Event::TurnEnded { .. } => "turn_end",
        Event::WordCommitted { .. } => "word_committed",
        Event::AttackSucceeded { .. } | Event::AttackRepelled { .. } => "combat_resolved",
        Event::CityCaptured { .. } => "city_captured",
        Event::TokenCaptured { .. } => "token_captured",
        Event::TokenInvoked { .. } => "token_invoked",
        Event::GameOver { .. } => "game_end",
        _ => return None,
    })
}

/// The fields of the script event `event` is (none if it is none).
pub(super) fn event_fields(
    event: &Event,
) -> smallvec::SmallVec<[(&'static str, EventField<'_>); 6]> {
    fn text(s: &str) -> EventField<'_> {
        EventField::Text(std::borrow::Cow::Borrowed(s))
    }
    use EventField::{Bool, Int, Text, Word};
    match event {
        Event::TurnStarted { player, turn, drew } => smallvec::smallvec![
            ("player", Word(player.name())),
            ("turn", Int(i64::from(*turn))),
            ("drew", text(drew)),
        ],
        Event::TurnEnded { player, passed } => {
            smallvec::smallvec![("player", Word(player.name())), ("passed", Bool(*passed))]
        }
        Event::WordCommitted { player, word, key } => smallvec::smallvec![
            ("player", Word(player.name())),
            ("word", text(word)),
            ("x", Int(i64::from(key.start.x))),
            ("y", Int(i64::from(key.start.y))),
            ("dir", Word(crate::game::describe::dir_name(key.dir))),
        ],
        Event::AttackSucceeded { .. } => smallvec::smallvec![("result", Word("won"))],
        Event::AttackRepelled { by, .. } => {
            smallvec::smallvec![("result", Word("repelled")), ("by", text(by))]
        }
        Event::CityCaptured {
            player,
            city,
            from,
            bonus,
        } => smallvec::smallvec![
            ("player", Word(player.name())),
            ("city", text(city)),
            ("from", Word(from.name())),
            ("bonus", Int(*bonus)),
        ],
        Event::TokenCaptured {
            player,
            token,
            kind,
        }
        | Event::TokenInvoked {
            player,
            token,
            kind,
            ..
        } => smallvec::smallvec![
            ("player", Word(player.name())),
            ("token", text(token)),
            ("kind", text(kind)),
        ],
        Event::GameOver { result, award } => {
            let mut fields = smallvec::SmallVec::new();
            if let Some(winner) = result.winner {
                fields.push(("winner", Word(winner.name())));
            }
            if let Some([gold, silver]) = award {
                fields.push(("award_gold", Int(*gold)));
                fields.push(("award_silver", Int(*silver)));
            }
            let reason = crate::game::describe::describe_result(result);
            fields.push(("reason", Text(std::borrow::Cow::Owned(reason))));
            fields
        }
        _ => smallvec::SmallVec::new(),
    }
}

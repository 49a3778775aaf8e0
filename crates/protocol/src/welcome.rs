//! A server's welcome as a client reads it: the map parsed, the rule set checked sound, the
//! seat named one of its rules'. Every client (the terminal, the editor, the browser) reads it
//! here, so none shows what another would refuse.

use crate::{MatchInfo, PackFile, ServerFrame};
use scryptic_core::board::Player;
use scryptic_core::game::SeatNames;
use scryptic_core::map::Map;
use scryptic_core::rules::RuleSet;
use std::path::Path;

/// A server's welcome, read and checked: the map parsed, the rule set sound, the seat one of
/// its rules' (a client shows nothing of a welcome that fails these).
pub struct Welcome {
    /// The match.
    pub info: MatchInfo,
    /// The seat played (none: watching).
    pub seat: Option<Player>,
    /// The match's map.
    pub map: Map,
    /// The rule set played with.
    pub rules: RuleSet,
    /// How the mode is played, from its scripts.
    pub help: Option<String>,
    /// The board's tileset, as a file of one of the match's packs.
    pub tileset: Option<PackFile>,
}

impl Welcome {
    /// Reads `frame` if it is a welcome (`None` for any other frame); a welcome that does not
    /// make sense is an error saying why.
    pub fn read(frame: &ServerFrame) -> Option<Result<Welcome, String>> {
        let ServerFrame::Welcome {
            match_info,
            seat,
            map,
            rules,
            help,
            tileset,
        } = frame
        else {
            return None;
        };
        let read = || {
            let map = Map::from_text(Path::new("the server's map"), map)
                .map_err(|e| format!("the server's map cannot be read: {e}"))?;
            if let Some(p) = rules.validate().first() {
                return Err(format!("the server's rule set is not sound: {}", p.message));
            }
            let seat = match seat {
                Some(name) => Some(SeatNames::of(rules).seat_named(name).ok_or_else(|| {
                    format!("the server seated this client at `{name}`, not a seat of its rules")
                })?),
                None => None,
            };
            Ok(Welcome {
                info: match_info.clone(),
                seat,
                map,
                rules: (**rules).clone(),
                help: help.clone(),
                tileset: tileset.clone(),
            })
        };
        Some(read())
    }
}

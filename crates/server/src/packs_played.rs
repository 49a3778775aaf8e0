//! The packs a server plays, as the lobby lists them (`GET /api/packs`): each pack's newest
//! version with a mode to play, its modes and its settings, so that a client can offer to make
//! a match of any of them.

use scryptic_core::board::Player;
use scryptic_core::rules::RuleSet;
use scryptic_pack::{Catalog, Choice, Level, Pack};
use scryptic_protocol::{ModeInfo, PackList, PlayedPack, SettingInfo};

/// The packs of `catalog` that have a mode to play, the newest version of each, by id.
pub(crate) fn list(catalog: &Catalog) -> PackList {
    let mut ids: Vec<&str> = catalog.packs().iter().map(|p| p.id()).collect();
    ids.dedup();
    let packs = ids
        .into_iter()
        .filter_map(|id| catalog.get(id))
        .filter(|pack| !pack.manifest.modes.is_empty())
        .map(|pack| played(catalog, pack))
        .collect();
    PackList { packs }
}

fn played(catalog: &Catalog, pack: &Pack) -> PlayedPack {
    let manifest = &pack.manifest;
    // Each mode's rules, assembled once (none for a mode that cannot be: a game of it could
    // not be made either).
    let rules: Vec<Option<RuleSet>> = (manifest.modes.iter())
        .map(|mode| mode_rules(catalog, &manifest.id, &mode.id))
        .collect();
    let any_at_once = rules.iter().flatten().any(|r| r.flow.simultaneous);
    PlayedPack {
        id: manifest.id.clone(),
        title: manifest.title.clone(),
        version: manifest.version.to_string(),
        description: manifest.description.clone(),
        tags: manifest.tags.clone(),
        authors: manifest.authors.clone(),
        license: manifest.license.clone(),
        modes: (manifest.modes.iter().zip(&rules))
            .map(|(mode, rules)| ModeInfo {
                id: mode.id.clone(),
                title: mode.title.clone(),
                description: mode.description.clone(),
                min_seats: mode.seats.0,
                max_seats: mode.seats.1,
                seat_names: rules
                    .as_ref()
                    .map(|r| seat_names(r, mode.seats.1))
                    .unwrap_or_default(),
            })
            .collect(),
        settings: manifest
            .offered_settings()
            .iter()
            .filter(|s| {
                let own = manifest.settings.iter().any(|o| o.id == s.id);
                own || any_at_once || !scryptic_pack::settings::only_at_once(&s.id)
            })
            .map(|setting| SettingInfo {
                id: setting.id.clone(),
                title: setting.title.clone(),
                description: setting.description.clone(),
                kind: setting.kind.clone(),
            })
            .collect(),
    }
}

/// The rules of mode `mode` of pack `pack`, if the mode can be assembled.
fn mode_rules(catalog: &Catalog, pack: &str, mode: &str) -> Option<RuleSet> {
    let choice = Choice {
        pack: pack.to_string(),
        mode: mode.to_string(),
        ..Choice::default()
    };
    Level::from_pack(catalog, &choice)
        .ok()
        .map(|level| level.rules)
}

/// The names of the first `most` seats under `rules`.
fn seat_names(rules: &RuleSet, most: u32) -> Vec<String> {
    let names = scryptic_core::game::SeatNames::of(rules);
    (0..most as usize)
        .filter_map(Player::seat)
        .map(|p| names.name(p).to_string())
        .collect()
}

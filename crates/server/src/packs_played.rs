//! The packs a server plays, as the lobby lists them (`GET /api/packs`): each pack's newest
//! version with a mode to play, its modes and its settings, so that a client can offer to make
//! a match of any of them.

use scryptic_core::board::Player;
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
    PlayedPack {
        id: manifest.id.clone(),
        title: manifest.title.clone(),
        version: manifest.version.to_string(),
        description: manifest.description.clone(),
        tags: manifest.tags.clone(),
        authors: manifest.authors.clone(),
        license: manifest.license.clone(),
        modes: manifest
            .modes
            .iter()
            .map(|mode| ModeInfo {
                id: mode.id.clone(),
                title: mode.title.clone(),
                description: mode.description.clone(),
                min_seats: mode.seats.0,
                max_seats: mode.seats.1,
                seat_names: seat_names(catalog, &manifest.id, &mode.id, mode.seats.1),
            })
            .collect(),
        settings: manifest
            .offered_settings()
            .iter()
            .filter(|s| {
                let own = manifest.settings.iter().any(|o| o.id == s.id);
                own || !only_at_once(&s.id) || any_at_once(catalog, manifest)
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

/// Whether a platform's setting `id` is for modes played at once only (an AI's pace).
fn only_at_once(id: &str) -> bool {
    scryptic_pack::settings::only_at_once(id)
}

/// Whether any mode of the pack is played at once (its players act without turns).
fn any_at_once(catalog: &Catalog, manifest: &scryptic_pack::Manifest) -> bool {
    manifest.modes.iter().any(|mode| {
        let choice = Choice {
            pack: manifest.id.clone(),
            mode: mode.id.clone(),
            ..Choice::default()
        };
        Level::from_pack(catalog, &choice).is_ok_and(|level| level.rules.flow.simultaneous)
    })
}

/// The names of the first `most` seats of mode `mode` of pack `pack`, as its rules name them
/// (none if the mode cannot be assembled: a game of it could not be made either).
fn seat_names(catalog: &Catalog, pack: &str, mode: &str, most: u32) -> Vec<String> {
    let choice = Choice {
        pack: pack.to_string(),
        mode: mode.to_string(),
        ..Choice::default()
    };
    let Ok(level) = Level::from_pack(catalog, &choice) else {
        return Vec::new();
    };
    let names = scryptic_core::game::SeatNames::of(&level.rules);
    (0..most as usize)
        .filter_map(Player::seat)
        .map(|p| names.name(p).to_string())
        .collect()
}

//! The board's art: the tileset the match's pack names, as the editor finds it: the pack is
//! fetched from the server by its hash and read in memory, and used only if its files hash as
//! the match says. Until it is here, or if it cannot be had, the board is drawn plain. (The
//! client carries no pack of its own: `core`'s images would be most of its download, and only
//! the matches drawn with them need them.)

use crate::lobby::{self, Pending};
use scryptic_pack::TilesetRef;
use scryptic_pack::record::pack_hash;
use scryptic_play::server_seat::{ServerSeat, Wake};
use scryptic_protocol::PackRef;
use std::path::Path;

/// A tileset being found: its pack being fetched.
pub struct Finding {
    archive: Pending<Vec<u8>>,
    wanted: PackRef,
    path: String,
}

/// Starts finding the tileset `seat`'s match draws its board with (none: it names none).
pub fn find(base: &str, seat: &ServerSeat, wake: Wake) -> Result<Option<Finding>, String> {
    let Some(file) = &seat.tileset else {
        return Ok(None);
    };
    let wanted = (seat.info.packs.iter())
        .find(|p| p.id == file.pack)
        .cloned()
        .ok_or_else(|| {
            format!(
                "the server names a tileset in pack {}, which the match does not load",
                file.pack
            )
        })?;
    let hash = wanted.sha256.to_ascii_lowercase();
    if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "the match names pack {} by `{hash}`, which is not a hash",
            wanted.id
        ));
    }
    Ok(Some(Finding {
        archive: lobby::pack_archive(base, &hash, wake),
        wanted,
        path: file.path.clone(),
    }))
}

impl Finding {
    /// The tileset once its pack is here and checked (an error says why it cannot be used).
    pub fn take(&self) -> Option<Result<TilesetRef, String>> {
        let bytes = match self.archive.take()? {
            Ok(bytes) => bytes,
            Err(e) => return Some(Err(e)),
        };
        Some(self.read(&bytes))
    }

    fn read(&self, bytes: &[u8]) -> Result<TilesetRef, String> {
        let label = format!("{} {}", self.wanted.id, self.wanted.version);
        let shown = Path::new(&self.wanted.id);
        let pack = scryptic_pack::archive::read_in_memory(shown, bytes)
            .map_err(|e| format!("the pack {label} the server sent cannot be read: {e}"))?;
        let got = pack_hash(&pack).map_err(|e| e.to_string())?;
        if got != self.wanted.sha256 || pack.id() != self.wanted.id {
            return Err(format!(
                "the pack {label} the server sent is not the match's: its files hash to {got}"
            ));
        }
        Ok(TilesetRef {
            files: pack.files,
            path: self.path.clone(),
        })
    }
}

/// Puts the tileset on `view`'s board once it is here; what went wrong finding it, if anything.
pub fn show(
    ctx: &egui::Context,
    view: &mut scryptic_play::PlayView,
    art: &mut Option<Finding>,
) -> Option<String> {
    let found = art.as_ref()?.take()?;
    *art = None;
    match found {
        Ok(tileset) => {
            view.board.use_tileset(ctx, Some(tileset));
            crate::mark("scryptic-tileset");
            None
        }
        Err(e) => Some(format!("{e}: the board is drawn plain")),
    }
}

//! A tileset's images as egui textures: terrain variants, letter coins, city tiles, token
//! jewels and the pieces of scripted games, shared by the map canvas and the play board.

use egui::{TextureHandle, TextureOptions};
use scryptic_core::{Owner, Player, Pos, Terrain};
use scryptic_render::tileset::Tileset;
use std::collections::BTreeMap;

/// The tileset's images, uploaded once.
pub struct TileTextures {
    /// The tileset itself (flat colours, variant choice).
    pub tileset: Tileset,
    variants: BTreeMap<Terrain, Vec<TextureHandle>>,
    coins: BTreeMap<Player, Vec<TextureHandle>>,
    cities: BTreeMap<Owner, TextureHandle>,
    tokens: BTreeMap<String, TextureHandle>,
    pieces: BTreeMap<String, Vec<TextureHandle>>,
}

fn upload(ctx: &egui::Context, name: String, img: &image::RgbaImage) -> TextureHandle {
    let size = [img.width() as usize, img.height() as usize];
    let image = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
    ctx.load_texture(name, image, TextureOptions::LINEAR)
}

/// Uploads a numbered list of images, each named `{prefix}-{i}`.
fn upload_all(
    ctx: &egui::Context,
    prefix: &str,
    images: &[image::RgbaImage],
) -> Vec<TextureHandle> {
    (images.iter().enumerate())
        .map(|(i, img)| upload(ctx, format!("{prefix}-{i}"), img))
        .collect()
}

impl TileTextures {
    /// Uploads every image of `tileset`.
    pub fn load(ctx: &egui::Context, tileset: Tileset) -> TileTextures {
        let variants = tileset
            .terrain
            .iter()
            .map(|(terrain, images)| (*terrain, upload_all(ctx, terrain.name(), &images.variants)))
            .collect();
        let coins = tileset
            .coins
            .iter()
            .map(|(player, images)| {
                let prefix = format!("coin-{}", player.name());
                (*player, upload_all(ctx, &prefix, images))
            })
            .collect();
        let cities = tileset
            .cities
            .iter()
            .map(|(owner, img)| (*owner, upload(ctx, format!("city-{owner:?}"), img)))
            .collect();
        let tokens = tileset
            .tokens
            .iter()
            .map(|(kind, img)| (kind.clone(), upload(ctx, format!("jewel-{kind}"), img)))
            .collect();
        let pieces = tileset
            .pieces
            .iter()
            .map(|(kind, images)| {
                (
                    kind.clone(),
                    upload_all(ctx, &format!("piece-{kind}"), images),
                )
            })
            .collect();
        TileTextures {
            tileset,
            variants,
            coins,
            cities,
            tokens,
            pieces,
        }
    }

    /// The variant of `terrain` drawn at `pos`.
    pub fn terrain(&self, terrain: Terrain, pos: Pos) -> Option<&TextureHandle> {
        let index = self.tileset.variant_index(terrain, pos)?;
        self.variants.get(&terrain)?.get(index)
    }

    /// `player`'s coin with `pips` pips (the most the tileset has, if fewer).
    pub fn coin(&self, player: Player, pips: i64) -> Option<&TextureHandle> {
        let coins = self.coins.get(&player)?;
        let index = usize::try_from(pips.max(1) - 1).unwrap_or(0);
        coins.get(index.min(coins.len().saturating_sub(1)))
    }

    /// The city tile of `owner`.
    pub fn city(&self, owner: Owner) -> Option<&TextureHandle> {
        self.cities.get(&owner)
    }

    /// The image of a `kind` piece of the seat at `seat_index` (the kind's last for a seat
    /// past its list).
    pub fn piece(&self, kind: &str, seat_index: usize) -> Option<&TextureHandle> {
        scryptic_render::tileset::for_seat(self.pieces.get(kind)?, seat_index)
    }

    /// The jewel of a `kind` token.
    pub fn token(&self, kind: &str) -> Option<&TextureHandle> {
        self.tokens.get(kind)
    }
}

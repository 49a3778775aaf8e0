//! `scryptic tileset generate`.

use super::{Streams, print_json};
use crate::tileset::{GenerateOptions, PieceColours, Style, generate};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub(super) enum TilesetCommand {
    /// Draw a tileset (every PNG and its manifest) from a seed, the stone one by default; the
    /// same options always give the same files, byte for byte.
    Generate {
        /// The folder to write into (created if missing; files in it are replaced).
        #[arg(long, default_value = "tilesets/stone")]
        out: PathBuf,
        /// The seed the stones are grown from.
        #[arg(long, default_value_t = GenerateOptions::default().seed)]
        seed: u64,
        /// Tile side in pixels (8 to 512).
        #[arg(long, default_value_t = GenerateOptions::default().tile_size, value_parser = clap::value_parser!(u32).range(8..=512))]
        tile_size: u32,
        /// Variants per terrain (1 to 64).
        #[arg(long, default_value_t = GenerateOptions::default().variants, value_parser = clap::value_parser!(u32).range(1..=64))]
        variants: u32,
        /// What the terrain is made of: stone, or wood for board games.
        #[arg(long, value_enum, default_value = "stone")]
        style: StyleArg,
        /// A kind of piece to draw as wooden blocks, a colour for each seat in the rules'
        /// order: `--piece brick=#eeeadf,#8a5a35` (repeat for more kinds).
        #[arg(long = "piece", value_name = "KIND=#RRGGBB,...")]
        pieces: Vec<PieceColours>,
        /// Print the files written as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `--style`'s values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(super) enum StyleArg {
    /// Semi-precious stones set in brass.
    Stone,
    /// Squares of stained wood.
    Wood,
}

pub(super) fn run(cmd: TilesetCommand, io: &mut Streams) -> anyhow::Result<i32> {
    let TilesetCommand::Generate {
        out,
        seed,
        tile_size,
        variants,
        style,
        pieces,
        json,
    } = cmd;
    let style = match style {
        StyleArg::Stone => Style::Stone,
        StyleArg::Wood => Style::Wood,
    };
    let files = generate(
        &out,
        &GenerateOptions {
            seed,
            tile_size,
            variants,
            style,
            pieces,
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot write the tileset into {}: {e}", out.display()))?;
    if json {
        print_json(io.out, &files)?;
    } else {
        writeln!(io.out, "wrote {} files into {}", files.len(), out.display())?;
    }
    Ok(0)
}

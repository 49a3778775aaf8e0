//! `scryptic tileset generate`.

use super::{Streams, print_json};
use crate::tileset::{GenerateOptions, generate};
use clap::Subcommand;
use std::path::PathBuf;

#[derive(Subcommand, Debug)]
pub(super) enum TilesetCommand {
    /// Draw the stone tileset (every PNG and its manifest) from a seed; the same options
    /// always give the same files, byte for byte.
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
        /// Print the files written as JSON.
        #[arg(long)]
        json: bool,
    },
}

pub(super) fn run(cmd: TilesetCommand, io: &mut Streams) -> anyhow::Result<i32> {
    let TilesetCommand::Generate {
        out,
        seed,
        tile_size,
        variants,
        json,
    } = cmd;
    let files = generate(
        &out,
        &GenerateOptions {
            seed,
            tile_size,
            variants,
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

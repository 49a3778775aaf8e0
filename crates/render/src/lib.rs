//! Scryptic's tilesets (manifests, loading, the generated stone textures) and map rendering.
#![deny(missing_docs)]

pub mod render;
pub mod tileset;

// The core's modules, named as the rest of the runtime names them.
use scryptic_core::{board, diag, fsutil, limits, map, noise, ronfile, rules};
use scryptic_pack as pack;

//! `scryptic-editor [MAP]`: the level editor's window.

use clap::Parser;
use std::path::PathBuf;

/// The Scryptic level editor.
#[derive(Parser)]
#[command(version, about)]
struct Args {
    /// A map file to open (a new map when left out).
    map: Option<PathBuf>,
}

fn main() -> eframe::Result {
    let args = Args::parse();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_title("Scryptic editor"),
        ..Default::default()
    };
    eframe::run_native(
        "Scryptic editor",
        options,
        Box::new(move |_cc| {
            Ok(Box::new(scryptic_editor::EditorApp::new(
                args.map.as_deref(),
            )))
        }),
    )
}

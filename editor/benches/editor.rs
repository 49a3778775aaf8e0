//! Editor costs (issue 7 targets), headless: one frame of the whole window with the shipped
//! 256x256 map fully in view (under 8 ms) and with a 512x512 map (under 16 ms), layout and
//! tessellation included; a 100,000-cell bucket fill and its undo (each under 16 ms); the
//! process's resident memory with a 512x512 map open (under 300 MB), printed once.
//! Run: `cargo bench -p scryptic-editor --bench editor`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use scryptic::ai::{AiPlayer, Level};
use scryptic::map::{GenerateOptions, generate};
use scryptic::{Map, Pos, Terrain};
use scryptic_editor::EditorApp;
use scryptic_editor::document::Document;
use scryptic_editor::paint;
use std::path::Path;

fn input_with(frame: u64, events: Vec<egui::Event>) -> egui::RawInput {
    egui::RawInput {
        events,
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        time: Some(frame as f64 / 60.0),
        ..Default::default()
    }
}

/// One whole frame: the window's layout and drawing, then tessellation into meshes.
fn frame(ctx: &egui::Context, app: &mut EditorApp, n: u64) -> usize {
    frame_with(ctx, app, n, Vec::new())
}

/// One whole frame with `events` as its input.
fn frame_with(ctx: &egui::Context, app: &mut EditorApp, n: u64, events: Vec<egui::Event>) -> usize {
    let output = ctx.run_ui(input_with(n, events), |ui| app.ui(ui));
    ctx.tessellate(output.shapes, output.pixels_per_point).len()
}

/// The screen point of `cell`'s centre on the canvas drawn last frame.
fn cell_point(app: &EditorApp, cell: Pos) -> egui::Pos2 {
    let rect = app.map_mode.canvas.last_rect().unwrap();
    app.map_mode.view.cell_centre(rect, cell)
}

/// Frames of a brush stroke in progress over the whole map in view: the button is pressed on
/// the first frame, and every frame after moves the pointer to the next cell of a diagonal
/// sweep with the brush's terrain turned between forest and mountain, so every frame paints
/// cells that change, remakes the flat texture and draws it.
fn painting(c: &mut Criterion, name: &str, mut app: EditorApp) {
    let ctx = egui::Context::default();
    let mut n = 0;
    for _ in 0..3 {
        n += 1;
        frame(&ctx, &mut app, n);
    }
    let side = app.doc.map.width().min(app.doc.map.height());
    let start = cell_point(&app, Pos::new(1, 1));
    n += 1;
    frame_with(
        &ctx,
        &mut app,
        n,
        vec![
            egui::Event::PointerMoved(start),
            egui::Event::PointerButton {
                pos: start,
                button: egui::PointerButton::Primary,
                pressed: true,
                modifiers: egui::Modifiers::NONE,
            },
        ],
    );
    let mut step = 1;
    let (mut frames, mut painted) = (0_u64, 0_u64);
    c.bench_function(name, |b| {
        b.iter(|| {
            n += 1;
            step = step % (side - 2) + 1;
            app.map_mode.tools.terrain = if n % 2 == 0 {
                Terrain::Forest
            } else {
                Terrain::Mountain
            };
            let before = app.doc.generation();
            let at = cell_point(&app, Pos::new(step, (step * 7) % (side - 2) + 1));
            let meshes = frame_with(&ctx, &mut app, n, vec![egui::Event::PointerMoved(at)]);
            frames += 1;
            painted += u64::from(app.doc.generation() > before);
            meshes
        })
    });
    assert!(
        painted * 10 >= frames * 9,
        "the benchmark measured painting: {painted} of {frames} frames painted"
    );
}

fn frames_while_painting(c: &mut Criterion) {
    private_data_folder();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("continent-256.ron");
    std::fs::copy(root.join("maps/continent-256.ron"), &copy).unwrap();
    painting(
        c,
        "editor frame while painting, 256x256 all in view",
        EditorApp::new(Some(&copy)),
    );
    let mut big = EditorApp::default();
    big.doc = Document::new(big_map());
    painting(c, "editor frame while painting, 512x512 all in view", big);
}

fn big_map() -> Map {
    generate(&GenerateOptions {
        name: "big".into(),
        width: 512,
        height: 512,
        seed: 7,
        neutral_city_pairs: 8,
        token_pairs: 4,
    })
    .expect("the generated map has room for its pieces")
}

fn resident_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Keeps the benchmarks' recent files and autosaves out of the user's data folder.
fn private_data_folder() {
    static DATA: std::sync::Once = std::sync::Once::new();
    DATA.call_once(|| {
        let data = tempfile::tempdir().unwrap().keep();
        // SAFETY: set once, before any editor reads it, while one thread runs.
        unsafe { std::env::set_var("SCRYPTIC_EDITOR_DATA", data) };
    });
}

fn frames(c: &mut Criterion) {
    private_data_folder();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut group = c.benchmark_group("editor frame");
    // A copy: the edits measured below autosave beside the map they open.
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("maps/continent-256.ron");
    for dir in ["maps", "tilesets/stone"] {
        std::fs::create_dir_all(scratch.path().join(dir)).unwrap();
    }
    std::fs::copy(root.join("maps/continent-256.ron"), &copy).unwrap();
    for file in std::fs::read_dir(root.join("tilesets/stone")).unwrap() {
        let file = file.unwrap().path();
        let name = file.file_name().unwrap();
        std::fs::copy(&file, scratch.path().join("tilesets/stone").join(name)).unwrap();
    }
    let continent = EditorApp::new(Some(&copy));
    let mut big = EditorApp::default();
    big.doc = Document::new(big_map());
    for (name, mut app) in [
        ("256x256 shipped map, all in view", continent),
        ("512x512 map, all in view", big),
    ] {
        let ctx = egui::Context::default();
        let mut n = 0;
        for _ in 0..3 {
            n += 1;
            frame(&ctx, &mut app, n);
        }
        assert!(
            app.map_mode.view.zoom * app.doc.map.width() as f32 <= 1280.0,
            "the whole map is in view"
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                frame(&ctx, &mut app, n)
            })
        });
        group.bench_function(
            format!("{name}, after an edit (texture remade, validation rerun)"),
            |b| {
                b.iter(|| {
                    n += 1;
                    let t = if n % 2 == 0 {
                        Terrain::Forest
                    } else {
                        Terrain::Mountain
                    };
                    app.doc.paint_step("dot", &[Pos::new(5, 5)], t);
                    frame(&ctx, &mut app, n)
                })
            },
        );
        if name.starts_with("512") {
            eprintln!(
                "resident memory with the 512x512 map open: {:.1} MB",
                resident_mb().unwrap_or(f64::NAN)
            );
        }
    }
    group.finish();
}

fn fill_and_undo(c: &mut Criterion) {
    // A 320x320 region of plains (102,400 cells) in a 512x512 map.
    let mut map = Map::new("fill", 512, 512);
    for y in 0..512 {
        map.terrain.set(Pos::new(320, y), Terrain::Water);
    }
    for x in 0..320 {
        map.terrain.set(Pos::new(x, 320), Terrain::Water);
    }
    let region = paint::flood(&map.terrain, Pos::new(0, 0)).len();
    assert_eq!(region, 320 * 320);
    let mut group = c.benchmark_group("editor edits");
    group.bench_function("bucket fill of 102,400 cells", |b| {
        b.iter_batched_ref(
            || Document::new(map.clone()),
            |doc| {
                let cells = paint::flood(&doc.map.terrain, Pos::new(0, 0));
                doc.paint_step("fill", &cells, Terrain::Forest);
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("undo of that fill", |b| {
        b.iter_batched_ref(
            || {
                let mut doc = Document::new(map.clone());
                let cells = paint::flood(&doc.map.terrain, Pos::new(0, 0));
                doc.paint_step("fill", &cells, Terrain::Forest);
                doc
            },
            |doc| doc.undo(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// A frame of Play mode on the 40x40 duel in the middle of a game (issue 8: under 8 ms): the
/// board with its coins and links, the rack, the side panel.
fn play_frame(c: &mut Criterion) {
    private_data_folder();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut app = EditorApp::new(Some(&root.join("maps/duel-40.ron")));
    app.mode = scryptic_editor::app::Mode::Play;
    let ctx = egui::Context::default();
    let mut n = 1;
    frame(&ctx, &mut app, n);
    app.play.start(&ctx, &app.doc);
    let session = app.play.session.as_mut().expect("the duel starts");
    let mut players = [Level::Normal, Level::Normal].map(|l| AiPlayer::new(l, 3));
    while session.game().log().len() < 120 && session.game().result().is_none() {
        let seat = usize::from(session.game().to_act() == scryptic::Player::Silver);
        let action = players[seat].choose(session.game());
        session.act(action);
        session.combat = None;
    }
    session.rack_hidden = false;
    let letters = session.game().letters_in_play();
    for _ in 0..3 {
        n += 1;
        frame(&ctx, &mut app, n);
    }
    println!("play frame: 40x40 duel after 120 actions, {letters} letters on the board");
    c.bench_function("play frame, 40x40 duel mid-game", |b| {
        b.iter(|| {
            n += 1;
            frame(&ctx, &mut app, n)
        })
    });
}

/// A game of `pack`'s first mode (the repository's packs), `settings` set, seed 5.
fn pack_game(pack: &str, settings: &[(&str, &str)]) -> scryptic::script::ScriptedGame {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let (mut catalog, _) = scryptic::pack::Catalog::discover();
    for found in scryptic::pack::Pack::scan(&root.join("packs")).0 {
        let _ = catalog.add(found);
    }
    let choice = scryptic::pack::Choice {
        pack: pack.into(),
        set: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        ..Default::default()
    };
    let level = scryptic::pack::Level::from_pack(&catalog, &choice).unwrap();
    let lexicon = std::sync::Arc::new(scryptic::lexicon::Lexicon::english());
    scryptic::script::ScriptedGame::start_level(&level, lexicon, 5, None)
        .unwrap()
        .0
}

/// An online seat's view taken in, as the editor takes each one (issue 43): the frame read
/// from its JSON, the game rebuilt from its snapshot and checked whole. Every view of a match
/// is taken in so; in simultaneous play, one comes with every tile anyone lays.
fn online_view(c: &mut Criterion) {
    use scryptic::game::{Action, Game};
    use scryptic::protocol::{MAX_SERVER_FRAME, ServerFrame, View};
    let mut word_wars = pack_game("word-wars", &[]);
    let mut ai = [Level::Normal, Level::Normal].map(|l| AiPlayer::new(l, 3));
    while word_wars.game().log().len() < 40 && word_wars.game().result().is_none() {
        let seat = usize::from(word_wars.game().to_act() != scryptic::Player::Gold);
        let action = ai[seat].choose(word_wars.game());
        if word_wars.apply(action).is_err() {
            word_wars.apply(Action::EndTurn).ok();
        }
    }
    let mut crossing = pack_game("lexicon-crossing", &[("players", "3")]);
    for seat in crossing.game().seats().collect::<Vec<_>>() {
        let mut ai = AiPlayer::new(Level::Normal, 3);
        if let Some(layout) = ai.choose_at_once(crossing.game(), seat) {
            crossing.apply(layout).ok();
        }
    }
    let mut group = c.benchmark_group("online view taken in");
    for (name, game) in [
        ("Word Wars after 40 actions", word_wars.game()),
        ("Lexicon Crossing, 3 crosswords", crossing.game()),
    ] {
        let view = View {
            actions: game.log().len() as u64,
            snapshot: game.seen_by(Some(scryptic::Player::Silver)).snapshot(),
            events: Vec::new(),
            events_dropped: 0,
            moves: Vec::new(),
            console: Vec::new(),
            grace_left_ms: None,
            move_left_ms: None,
        };
        let text = scryptic::protocol::write(ServerFrame::View(Box::new(view)));
        println!("online view, {name}: {} bytes of JSON", text.len());
        let (map, rules, lexicon) = (game.map(), game.rules(), game.shared_lexicon());
        group.bench_function(name, |b| {
            b.iter(|| {
                let Ok(ServerFrame::View(view)) =
                    scryptic::protocol::read::<ServerFrame>(&text, MAX_SERVER_FRAME)
                else {
                    panic!("a view");
                };
                Game::from_snapshot(map, rules.clone(), lexicon.clone(), view.snapshot).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    frames,
    frames_while_painting,
    fill_and_undo,
    play_frame,
    online_view
);
criterion_main!(benches);

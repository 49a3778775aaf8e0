//! What packs cost a game's start: resolving and assembling a level (which hashes every file of
//! every pack it loads, for the save's record), against a map file outside any pack, and the
//! start of a scripted game from the level. Run: `cargo bench -p scryptic-tests --bench packs`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::lexicon::Lexicon;
use scryptic::pack::{Catalog, Choice, Level, Pack};
use scryptic::script::ScriptedGame;
use scryptic_tests::root;
use std::sync::Arc;

fn packs(c: &mut Criterion) {
    let mut catalog = Catalog::new(vec![scryptic::pack::core().unwrap()]);
    catalog
        .add(Pack::open(&root().join("packs/wending")).unwrap())
        .unwrap();
    let classic = Choice {
        pack: "core".into(),
        mode: "classic".into(),
        ..Choice::default()
    };
    let wending = Choice {
        pack: "wending".into(),
        ..Choice::default()
    };
    let loose = root().join("maps/duel-24.ron");
    let mut group = c.benchmark_group("level");
    group.bench_function("core:classic (built in)", |b| {
        b.iter(|| Level::from_pack(&catalog, &classic).unwrap())
    });
    group.bench_function("wending chapter 1 (a folder, depending on core)", |b| {
        b.iter(|| Level::from_pack(&catalog, &wending).unwrap())
    });
    group.bench_function("a map file outside any pack", |b| {
        b.iter(|| Level::from_map_file(&loose, None, &catalog).unwrap())
    });
    group.bench_function("Catalog::discover", |b| b.iter(Catalog::discover));
    group.finish();

    let lexicon = Arc::new(Lexicon::english());
    let level = Level::from_pack(&catalog, &wending).unwrap();
    c.bench_function("start a game of wending chapter 1", |b| {
        b.iter(|| ScriptedGame::start_level(&level, lexicon.clone(), 1, None).unwrap())
    });
}

criterion_group!(benches, packs);
criterion_main!(benches);

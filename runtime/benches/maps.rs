//! Map load+validate and save, on the shipped 256x256 map and a generated 512x512 one.
//! Target (issue 2): under 20 ms each for 512x512 in release. Run: `cargo bench -p scryptic --bench maps`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic::map::{GenerateOptions, Map, ValidationContext, generate, validate};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn load_and_validate(path: &Path) -> usize {
    let map = Map::load(path).expect("benchmark map loads");
    let rules = map.rule_set().expect("benchmark map's rules are sound");
    validate(&map, &rules, &ValidationContext::default()).len()
}

fn bench_map(c: &mut Criterion, label: &str, path: &Path) {
    let map = Map::load(path).expect("benchmark map loads");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("saved.ron");
    let mut group = c.benchmark_group(label);
    group.bench_function("load+validate", |b| {
        b.iter(|| black_box(load_and_validate(path)))
    });
    group.bench_function("serialize", |b| b.iter(|| black_box(map.to_ron())));
    group.bench_function("save (atomic, with fsync)", |b| {
        b.iter(|| map.save(&out).expect("save"))
    });
    group.finish();
}

fn maps(c: &mut Criterion) {
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../maps/continent-256.ron");
    bench_map(c, "map 256x256", &shipped);

    let dir = tempfile::tempdir().expect("a temporary folder");
    let big = dir.path().join("generated-512.ron");
    let options = GenerateOptions {
        name: "Benchmark 512".into(),
        width: 512,
        height: 512,
        seed: 512,
        neutral_city_pairs: 32,
        token_pairs: 16,
    };
    generate(&options)
        .expect("the generated map has room for its pieces")
        .save(&big)
        .expect("save the generated map");
    bench_map(c, "map 512x512", &big);
}

criterion_group!(benches, maps);
criterion_main!(benches);

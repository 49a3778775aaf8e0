//! A pack index at the most packs a reader accepts (10,000, three releases each): read and
//! checked whole, searched, and an install planned from it.
//! Run: `cargo bench -p scryptic-pack --bench index`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use scryptic_pack::index::{
    INDEX_FORMAT, Index, IndexedPack, MAX_INDEX_PACKS, Release, parse_wanted, plan,
};
use semver::{Version, VersionReq};

fn big_index() -> Index {
    let api = format!(
        "^{}.{}",
        scryptic_pack::manifest::API_VERSION.major,
        scryptic_pack::manifest::API_VERSION.minor
    );
    let packs = (0..MAX_INDEX_PACKS)
        .map(|i| IndexedPack {
            id: format!("pack-{i}"),
            title: format!("Pack number {i}"),
            description: "A pack of maps, rules and scripts for tests of the index's reader, long enough to be like a real description of a campaign.".into(),
            tags: vec!["campaign".into(), format!("tag-{}", i % 50)],
            thumbnail: Some(format!("pack-{i}.png")),
            releases: (0..3)
                .map(|r| Release {
                    version: Version::new(1, r, 0),
                    scryptic: VersionReq::parse(&api).unwrap(),
                    depends: if i > 0 {
                        [(format!("pack-{}", i - 1), VersionReq::parse("^1").unwrap())].into()
                    } else {
                        Default::default()
                    },
                    size: 100_000,
                    sha256: "a".repeat(64),
                    url: format!("pack-{i}-1.{r}.0.zip"),
                    signature: Some("b".repeat(128)),
                    key: Some("c".repeat(64)),
                })
                .collect(),
        })
        .collect();
    Index {
        format: INDEX_FORMAT,
        packs,
    }
}

fn index(c: &mut Criterion) {
    let index = big_index();
    let text = index.to_json();
    println!(
        "index of {} packs: {} MiB of JSON",
        index.packs.len(),
        text.len() >> 20
    );
    let mut group = c.benchmark_group("pack index, 10,000 packs");
    group.sample_size(10);
    group.bench_function("read and checked", |b| {
        b.iter(|| Index::parse("bench", &text).unwrap())
    });
    let words = vec!["campaign".to_string(), "tag-7".to_string()];
    group.bench_function("searched", |b| b.iter(|| index.search(&words).len()));
    let (catalog, _) = scryptic_pack::Catalog::discover();
    let indexes = vec![("bench".to_string(), index)];
    // A chain of 20 dependencies to plan.
    let wanted = [parse_wanted("pack-20").unwrap()];
    group.bench_function("install planned, 21 packs deep", |b| {
        b.iter(|| plan(&indexes, &wanted, &catalog, false).unwrap().len())
    });
    group.finish();
}

criterion_group!(benches, index);
criterion_main!(benches);

//! The lexicon against a `HashSet<String>` baseline, measured in the same run: build, load,
//! `contains` throughput, and memory. Targets (issue 3): load under 5 ms, under 2 MB in memory,
//! at least 2.5 million `contains` a second on one core. Run: `cargo bench -p scryptic --bench lexicon`.
#![allow(
    clippy::unwrap_used,
    reason = "tests and benchmarks unwrap: a panic there is a failure"
)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scryptic::lexicon::Lexicon;
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashSet;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the bytes live on the heap, so the benchmark can say what each structure costs.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Heap bytes that `make`'s result keeps alive.
fn heap_of<T>(make: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    let value = make();
    (value, LIVE.load(Ordering::Relaxed).saturating_sub(before))
}

fn words_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../lexicon/words.txt")
}

fn hash_set(text: &str) -> HashSet<String> {
    text.lines().map(str::to_string).collect()
}

/// Every 25th dictionary word and a non-word made from each: half hits, half misses.
fn probes(text: &str) -> Vec<String> {
    text.lines()
        .step_by(25)
        .flat_map(|w| [w.to_string(), format!("{w}q")])
        .collect()
}

fn lexicon(c: &mut Criterion) {
    let text = std::fs::read_to_string(words_path()).expect("lexicon/words.txt");
    let fst_dir = tempfile::tempdir().expect("a temporary folder");
    let fst_path = fst_dir.path().join("words.fst");
    std::fs::write(&fst_path, Lexicon::english().dictionary_bytes()).expect("write the fst");

    report_memory(&text);

    let mut build = c.benchmark_group("lexicon build");
    build.sample_size(10);
    build.bench_function("fst from words.txt", |b| {
        b.iter(|| {
            Lexicon::from_word_list(Path::new("words.txt"), black_box(&text)).expect("builds")
        })
    });
    build.bench_function("HashSet<String> from words.txt", |b| {
        b.iter(|| hash_set(black_box(&text)))
    });
    build.finish();

    let mut load = c.benchmark_group("lexicon load");
    load.bench_function("english (built in)", |b| {
        b.iter(|| black_box(Lexicon::english()))
    });
    load.bench_function("fst file", |b| {
        b.iter(|| Lexicon::load_fst(black_box(&fst_path)).expect("loads"))
    });
    load.finish();

    let probes = probes(&text);
    let english = Lexicon::english();
    let set = hash_set(&text);
    let mut contains = c.benchmark_group("lexicon contains");
    contains.throughput(Throughput::Elements(probes.len() as u64));
    contains.bench_function("fst", |b| {
        b.iter(|| probes.iter().filter(|w| english.contains(w)).count())
    });
    contains.bench_function("HashSet<String>", |b| {
        b.iter(|| probes.iter().filter(|w| set.contains(w.as_str())).count())
    });
    contains.finish();
}

fn report_memory(text: &str) {
    let (english, english_heap) = heap_of(Lexicon::english);
    let (built, built_heap) =
        heap_of(|| Lexicon::from_word_list(Path::new("words.txt"), text).expect("builds"));
    let (set, set_heap) = heap_of(|| hash_set(text));
    eprintln!(
        "memory: english lexicon: {} bytes of fst and tables (static), {english_heap} bytes of heap",
        english.stats().total_bytes
    );
    eprintln!("memory: lexicon built from words.txt: {built_heap} bytes of heap");
    eprintln!(
        "memory: HashSet<String> of words.txt: {set_heap} bytes of heap ({} words)",
        set.len()
    );
    drop((english, built, set));
}

criterion_group!(benches, lexicon);
criterion_main!(benches);

//! libFuzzer target: any bytes as a pack's string table (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::Strings.run(bytes);
});

//! libFuzzer target: any bytes as a seat's view a stranger's server sends a client (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::View.run(bytes);
});

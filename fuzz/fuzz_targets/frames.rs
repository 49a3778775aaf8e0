//! libFuzzer target: any bytes as online frames a stranger sends a server, one a line (see `scryptic_tests::fuzz`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    scryptic_tests::fuzz::Target::Frames.run(bytes);
});

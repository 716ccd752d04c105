//! Fuzz target: arbitrary bytes as a stored cache entry: the envelope check, then the payload
//! decoder (also fed the raw bytes, so the decoder is reached without forging a checksum).
#![no_main]
use libfuzzer_sys::fuzz_target;
use termcheck_engine::cache::{decode_report, envelope, CacheKey};

fuzz_target!(|data: &[u8]| {
    let build = [7u8; 32];
    let key = CacheKey([9u8; 32]);
    if let Ok(payload) = envelope::open(&build, &key, data) {
        let _ = decode_report(payload);
    }
    let _ = decode_report(data);
    // A sealed copy must always open to the same payload.
    let sealed = envelope::seal(&build, &key, data);
    assert_eq!(envelope::open(&build, &key, &sealed), Ok(data));
});

//! Fuzz target: arbitrary text as a termcheck.toml through the policy parser.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = termcheck_fuzz::policy::parse_policy(text, Path::new("/ws/termcheck.toml"), Path::new("/ws"));
    }
});

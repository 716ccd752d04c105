//! Annotations for code checked by termcheck (attributes for Rust, `termcheck.h` for C); filled by the modular-analysis work.

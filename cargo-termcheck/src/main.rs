//! cargo-termcheck CLI.
fn main() {}

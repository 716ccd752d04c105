//! Tests of linking the sysroot's std bitcode into rustc's bitcode (`std_bitcode`), on a crate
//! compiled at test time with termcheck's flags.

use super::std_bitcode::{rust_producer, StdBitcodeOptions, STD_OWNER};
use super::{load_module_linked, LoadedModule};
use crate::driver::InputKind;
use crate::ir::externals::{classify, External};
use std::path::{Path, PathBuf};

const VEC_PUSH: &str = "#[no_mangle] pub fn vec_push(n: usize) -> usize {\n    let mut v = Vec::new();\n    for i in 0..n {\n        v.push(i as u8);\n    }\n    v.len()\n}\n";

/// Compiles `source` as a Rust library with termcheck's flags into `dir/t.bc`.
fn compile(dir: &Path, source: &str) -> PathBuf {
    let bc = dir.join("t.bc");
    std::fs::write(dir.join("t.rs"), source).expect("write the source");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args(["--crate-type=lib", "--emit=llvm-bc", "-C", "codegen-units=1", "-C", "symbol-mangling-version=v0", "-g", "t.rs", "-o"])
        .arg(&bc)
        .current_dir(dir)
        .output()
        .expect("rustc runs");
    assert!(out.status.success(), "rustc failed: {}", String::from_utf8_lossy(&out.stderr));
    bc
}

fn load(bc: &Path, options: &StdBitcodeOptions) -> LoadedModule {
    load_module_linked(bc, InputKind::LlvmBitcode, &[], options).expect("links and loads")
}

fn defines(loaded: &LoadedModule, needle: &str) -> bool {
    loaded.module.functions.iter().any(|f| !f.is_declaration() && f.name.contains(needle))
}

#[test]
fn the_producers_rust_part_is_recognised() {
    assert_eq!(rust_producer("LLVM22.1.2-rust-1.95.0-stable"), Some("rust-1.95.0-stable"));
    assert_eq!(rust_producer("LLVM22.1.8"), None);
}

#[test]
fn vec_growth_is_linked_from_the_sysroot_and_cached() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let bc = compile(dir.path(), VEC_PUSH);
    let without = load(&bc, &StdBitcodeOptions { disabled: true, ..Default::default() });
    assert!(without.std_functions.is_empty());
    assert!(!defines(&without, "8grow_one"), "grow_one is external without std");
    let cache = dir.path().join("cache");
    let with = load(&bc, &StdBitcodeOptions { cache_dir: Some(cache.clone()), disabled: false });
    // `RawVec<u8>::grow_one` and the drop of `Vec<u8>` (shared generic instances of the
    // sysroot) are now defined, and named as std's.
    assert!(defines(&with, "8grow_one"), "{:?}", with.std_functions);
    assert!(with.std_functions.iter().any(|f| f.contains("8grow_one")));
    assert!(with.std_functions.iter().all(|f| !f.contains("vec_push")), "the crate's own functions are not std's");
    // Only what is needed: a few functions, not all of alloc.
    assert!(with.std_functions.len() < 40, "{} std functions linked", with.std_functions.len());
    // Functions the engine knows by name stay declarations (their summaries apply).
    for f in with.module.functions.iter().filter(|f| !f.is_declaration()) {
        assert!(matches!(classify(&f.name), External::Unknown(_)), "{} was linked", f.name);
    }
    // The extracted members are cached and reused.
    let cached: Vec<PathBuf> = walk(&cache);
    assert!(!cached.is_empty() && cached.iter().all(|p| p.extension().is_some_and(|e| e == "bc")), "{cached:?}");
    let again = load(&bc, &StdBitcodeOptions { cache_dir: Some(cache), disabled: false });
    assert_eq!(again.std_functions, with.std_functions);
    assert!(!STD_OWNER.is_empty());
}

#[test]
fn a_truncated_or_corrupt_cache_entry_is_extracted_again() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let bc = compile(dir.path(), VEC_PUSH);
    let cache = dir.path().join("cache");
    let options = StdBitcodeOptions { cache_dir: Some(cache.clone()), disabled: false };
    let first = load(&bc, &options);
    let entries = walk(&cache);
    assert!(!entries.is_empty());
    let whole: Vec<Vec<u8>> = entries.iter().map(|p| std::fs::read(p).unwrap()).collect();
    // truncated (as by a crash of a writer without the atomic rename): the header and its
    // producer string are intact, the rest is gone
    for (path, bytes) in entries.iter().zip(&whole) {
        std::fs::write(path, &bytes[..bytes.len() / 2]).unwrap();
    }
    let again = load(&bc, &options);
    assert_eq!(again.std_functions, first.std_functions);
    for (path, bytes) in entries.iter().zip(&whole) {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{} rewritten whole", path.display());
    }
    // one byte flipped in the middle, and an empty file
    for (i, (path, bytes)) in entries.iter().zip(&whole).enumerate() {
        let mut bad = bytes.clone();
        if i % 2 == 0 {
            bad[bytes.len() / 2] ^= 0x5a;
        } else {
            bad.clear();
        }
        std::fs::write(path, bad).unwrap();
    }
    let third = load(&bc, &options);
    assert_eq!(third.std_functions, first.std_functions);
    // an entry of the earlier format (bitcode without the hash) is replaced too
    for (path, bytes) in entries.iter().zip(&whole) {
        std::fs::write(path, &bytes[..bytes.len() - blake3::OUT_LEN]).unwrap();
    }
    assert_eq!(load(&bc, &options).std_functions, first.std_functions);
    assert_eq!(std::fs::read(&entries[0]).unwrap(), whole[0]);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn c_bitcode_links_nothing() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let c = dir.path().join("x.c");
    std::fs::write(&c, "void *malloc(unsigned long);\nint g(int);\nint f(int x) { return g(x); }\n").unwrap();
    let bc = dir.path().join("x.bc");
    let clang = super::toolchain::find_clang().expect("clang-22");
    assert!(std::process::Command::new(clang).args(["-c", "-emit-llvm", "-o"]).arg(&bc).arg(&c).status().unwrap().success());
    let loaded = load(&bc, &StdBitcodeOptions::default());
    assert!(loaded.std_functions.is_empty());
}

//! Computes `ENGINE_BUILD_ID`: a blake3 hash of every file under `engine/src`, the engine's
//! manifest, the workspace lock file and the pinned Z3 version, so that it changes whenever
//! the engine's code or its dependencies change (the crate version alone does not). The
//! persistent report cache (`cache`) ignores entries written by another build id.

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    files(&root.join("src"), &mut inputs);
    inputs.push(root.join("Cargo.toml"));
    inputs.push(root.join("build.rs"));
    inputs.push(root.join("../Cargo.lock"));
    inputs.sort();
    let mut h = blake3::Hasher::new();
    h.update(b"termcheck engine build id v1\0");
    for path in &inputs {
        let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap_or_default();
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
        println!("cargo:rerun-if-changed={}", path.display());
    }
    // Directories: cargo rescans them, so added and removed files are noticed too.
    println!("cargo:rerun-if-changed={}", root.join("src").display());
    for var in ["Z3_SYS_Z3_VERSION", "CARGO_PKG_VERSION"] {
        println!("cargo:rerun-if-env-changed={var}");
        h.update(var.as_bytes());
        h.update(std::env::var(var).unwrap_or_default().as_bytes());
        h.update(b"\0");
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let id = h.finalize();
    let text = format!(
        "/// Identifies the engine's build: blake3 of its sources, manifest, lock file and Z3 version.\npub const ENGINE_BUILD_ID: [u8; 32] = {:?};\n",
        id.as_bytes()
    );
    std::fs::write(out.join("build_id.rs"), text).expect("write build_id.rs");
}

//! Locating clang-22 and compiling a C file to LLVM bitcode.

use crate::error::EngineError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Flags for clang: -O0 code without `optnone` (so mem2reg may run), no finite-loop
/// assumption (C's forward-progress rule must not be baked in), source value names and
/// debug locations kept, old C (implicit declarations, int/pointer mixes) accepted.
const CLANG_FLAGS: &[&str] = &[
    "-c",
    "-emit-llvm",
    "-O0",
    "-g",
    "-Xclang",
    "-disable-O0-optnone",
    "-fno-finite-loops",
    "-fno-discard-value-names",
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-w",
];

/// The clang-22 executable: `clang-22` on PATH, else the Debian locations.
pub(super) fn find_clang() -> Result<PathBuf, EngineError> {
    static CLANG: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLANG
        .get_or_init(|| {
            let on_path = std::env::var_os("PATH")
                .into_iter()
                .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
                .map(|dir| dir.join("clang-22"));
            on_path
                .chain(["/usr/bin/clang-22", "/usr/lib/llvm-22/bin/clang"].map(PathBuf::from))
                .find(|p| p.is_file())
        })
        .clone()
        .ok_or_else(|| EngineError::Toolchain {
            message: "clang-22 not found (looked on PATH, /usr/bin/clang-22, /usr/lib/llvm-22/bin/clang)".into(),
        })
}

/// Compiles `source` to LLVM bitcode in a temporary file (removed when the handle drops).
pub(super) fn compile_c(source: &Path) -> Result<tempfile::NamedTempFile, EngineError> {
    let clang = find_clang()?;
    let output_file = tempfile::Builder::new()
        .prefix("termcheck-")
        .suffix(".bc")
        .tempfile()
        .map_err(|e| EngineError::Toolchain { message: format!("cannot create a temporary file: {e}") })?;
    let output = Command::new(&clang)
        .args(CLANG_FLAGS)
        .arg("-o")
        .arg(output_file.path())
        .arg(source)
        .output()
        .map_err(|e| EngineError::Toolchain { message: format!("cannot run {}: {e}", clang.display()) })?;
    if !output.status.success() {
        return Err(EngineError::CompileFailed {
            path: source.display().to_string(),
            diagnostics: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(output_file)
}

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

/// Where clang-22 is looked for after PATH.
const CLANG_FALLBACKS: [&str; 2] = ["/usr/bin/clang-22", "/usr/lib/llvm-22/bin/clang"];

/// The first existing `clang-22` in the directories of `path_var`, else the first existing
/// fallback.
fn locate_clang(path_var: Option<std::ffi::OsString>, fallbacks: &[&str]) -> Option<PathBuf> {
    let on_path: Vec<PathBuf> = path_var.iter().flat_map(std::env::split_paths).map(|dir| dir.join("clang-22")).collect();
    on_path.into_iter().chain(fallbacks.iter().map(PathBuf::from)).find(|p| p.is_file())
}

/// The clang-22 executable: `clang-22` on PATH, else the Debian locations.
pub fn find_clang() -> Result<PathBuf, EngineError> {
    static CLANG: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLANG.get_or_init(|| locate_clang(std::env::var_os("PATH"), &CLANG_FALLBACKS)).clone().ok_or_else(|| {
        EngineError::Toolchain {
            message: format!("clang-22 not found (looked on PATH, {})", CLANG_FALLBACKS.join(", ")),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clang_is_looked_up_on_path_then_in_fallbacks() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert_eq!(locate_clang(Some(dir.path().into()), &["/nonexistent/clang"]), None);
        let fake = dir.path().join("clang-22");
        std::fs::write(&fake, "").unwrap();
        assert_eq!(locate_clang(Some(dir.path().into()), &["/nonexistent/clang"]), Some(fake.clone()));
        assert_eq!(locate_clang(None, &["/nonexistent/clang", fake.to_str().unwrap()]), Some(fake));
    }
}

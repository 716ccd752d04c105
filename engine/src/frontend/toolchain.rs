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
    locate_tool("clang-22", path_var, fallbacks)
}

/// The first existing `name` in the directories of `path_var`, else the first existing
/// fallback.
pub(super) fn locate_tool(name: &str, path_var: Option<std::ffi::OsString>, fallbacks: &[&str]) -> Option<PathBuf> {
    let on_path: Vec<PathBuf> = path_var.iter().flat_map(std::env::split_paths).map(|dir| dir.join(name)).collect();
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

/// Compiles `source` to LLVM bitcode in a temporary file (removed when the handle drops);
/// `extra` (the user's `-I`/`-D`/`--clang-arg`) comes after termcheck's flags, so it may
/// override them (e.g. `-w`), and before the file.
pub(super) fn compile_c(source: &Path, extra: &[String]) -> Result<tempfile::NamedTempFile, EngineError> {
    let clang = find_clang()?;
    let output_file = tempfile::Builder::new()
        .prefix("termcheck-")
        .suffix(".bc")
        .tempfile()
        .map_err(|e| EngineError::Toolchain { message: format!("cannot create a temporary file: {e}") })?;
    let mut command = Command::new(&clang);
    command.args(CLANG_FLAGS).args(extra).arg("-o").arg(output_file.path()).arg(source);
    die_with_parent(&mut command);
    let output = command.output().map_err(|e| EngineError::Toolchain { message: format!("cannot run {}: {e}", clang.display()) })?;
    if !output.status.success() {
        return Err(EngineError::CompileFailed {
            path: source.display().to_string(),
            diagnostics: diagnostics(&output.status, &output.stderr),
        });
    }
    Ok(output_file)
}

/// What to show for a failed clang run: its stderr, and how it ended when a signal ended it
/// (a crash prints nothing itself, e.g. a stack overflow on a deeply nested expression).
fn diagnostics(status: &std::process::ExitStatus, stderr: &[u8]) -> String {
    use std::os::unix::process::ExitStatusExt;
    let mut text = String::from_utf8_lossy(stderr).trim_end().to_string();
    if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGSEGV => " (SIGSEGV: clang crashed, often a stack overflow on very deeply nested code)",
            libc::SIGABRT => " (SIGABRT: clang aborted)",
            libc::SIGKILL => " (SIGKILL: killed, e.g. by the out-of-memory killer)",
            _ => "",
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&format!("clang-22 was ended by signal {signal}{name}"));
    } else if text.is_empty() {
        text = format!("clang-22 failed with {status} and printed nothing");
    }
    text
}

/// Makes the child get SIGKILL when the thread that started it ends: a run that gives up
/// (the CLI's timeout ends the process) never leaves clang running behind it.
pub(super) fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: `prctl` is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_without_output_names_the_signal() {
        use std::os::unix::process::ExitStatusExt;
        let crashed = std::process::ExitStatus::from_raw(libc::SIGSEGV);
        let text = diagnostics(&crashed, b"");
        assert!(text.contains("signal 11") && text.contains("stack overflow"), "{text}");
        let failed = std::process::ExitStatus::from_raw(1 << 8);
        assert!(diagnostics(&failed, b"").contains("printed nothing"));
        assert_eq!(diagnostics(&failed, b"x.c:1:1: error: oops\n"), "x.c:1:1: error: oops");
    }

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

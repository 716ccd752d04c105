//! Untrusted bitcode is first parsed by `opt-22` in a child process, so that an abort inside
//! LLVM's bitcode reader (e.g. `LLVM ERROR: out of memory` on a huge record count, whose
//! bad-alloc handler cannot return) ends the child, not the analysis, and becomes a
//! `MalformedLlvm` error.
//!
//! Why `opt-22 -disable-output` and not `llvm-dis-22` or re-executing the CLI: `opt` reads its
//! input through `parseIRFile` → `parseBitcodeFile`, the very entry point inkwell's
//! `LLVMParseBitcodeInContext2` uses, from the same `libLLVM.so.22.1` the engine links, and
//! it verifies the module; so an input it accepts is read in process by the same code with
//! the same outcome. `llvm-dis` reads lazily and then materialises (another path) and writes
//! a disassembly nobody needs. Re-executing the CLI would tie the engine library (also used by
//! tests, the fuzz targets and examples) to one binary. The child costs ~50 ms per file.
//! Bitcode that clang-22 just wrote from a C file is not checked (it comes from the same LLVM).

use super::toolchain;
use crate::error::EngineError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Where `opt-22` is looked for after PATH.
const OPT_FALLBACKS: [&str; 2] = ["/usr/bin/opt-22", "/usr/lib/llvm-22/bin/opt"];

/// The `opt-22` executable: on PATH, else the Debian locations.
fn find_opt() -> Result<PathBuf, EngineError> {
    static OPT: OnceLock<Option<PathBuf>> = OnceLock::new();
    OPT.get_or_init(|| toolchain::locate_tool("opt-22", std::env::var_os("PATH"), &OPT_FALLBACKS)).clone().ok_or_else(|| {
        EngineError::Toolchain {
            message: format!(
                "opt-22 not found (looked on PATH, {}); it parses untrusted bitcode in a child process",
                OPT_FALLBACKS.join(", ")
            ),
        }
    })
}

/// Parses (and verifies) the bitcode file `path` in an `opt-22` child; `Ok` when it reads
/// cleanly, `MalformedLlvm` (shown as `shown`) when it reports an error or is ended by a
/// signal (an abort in the reader).
pub(super) fn check_in_child(path: &Path, shown: &str) -> Result<(), EngineError> {
    let opt = find_opt()?;
    let mut command = Command::new(&opt);
    command.arg("-disable-output").arg(path).stdin(std::process::Stdio::null());
    toolchain::die_with_parent(&mut command);
    let output = command.output().map_err(|e| EngineError::Toolchain { message: format!("cannot run {}: {e}", opt.display()) })?;
    if output.status.success() {
        return Ok(());
    }
    Err(EngineError::MalformedLlvm { path: shown.to_string(), message: failure_message(&output.status, &output.stderr) })
}

/// The message for a failed check: LLVM's first error line (without the tool's name and the
/// path), and, when a signal ended the child, that LLVM's bitcode reader aborted.
fn failure_message(status: &std::process::ExitStatus, stderr: &[u8]) -> String {
    use std::os::unix::process::ExitStatusExt;
    let text = String::from_utf8_lossy(stderr);
    let first = text
        .lines()
        .map(str::trim)
        .find(|line| line.contains("error") || line.contains("ERROR"))
        .or_else(|| text.lines().map(str::trim).find(|line| !line.is_empty()))
        .map(|line| line.rsplit_once(": error: ").map_or(line, |(_, rest)| rest).to_string());
    match (status.signal(), first) {
        (Some(signal), Some(line)) => format!("LLVM's bitcode reader aborted (signal {signal}): {line}"),
        (Some(signal), None) => format!("LLVM's bitcode reader aborted (signal {signal})"),
        (None, Some(line)) => line,
        (None, None) => format!("opt-22 rejected the bitcode ({status}) and printed nothing"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    #[test]
    fn an_abort_names_the_signal_and_llvms_message() {
        let aborted = std::process::ExitStatus::from_raw(libc::SIGABRT);
        let text = failure_message(&aborted, b"LLVM ERROR: out of memory\nAllocation failed\nPLEASE submit a bug report\n");
        assert_eq!(text, "LLVM's bitcode reader aborted (signal 6): LLVM ERROR: out of memory");
        assert_eq!(failure_message(&aborted, b""), "LLVM's bitcode reader aborted (signal 6)");
    }

    #[test]
    fn a_reported_error_keeps_llvms_text_without_the_tool_prefix() {
        let failed = std::process::ExitStatus::from_raw(1 << 8);
        let text = failure_message(&failed, b"opt-22: x.bc: error: Invalid record\n");
        assert_eq!(text, "Invalid record");
        assert!(failure_message(&failed, b"").contains("printed nothing"));
    }

    #[test]
    fn the_reader_out_of_memory_input_is_an_error_not_an_abort() {
        let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/bad-input/bitcode-reader-out-of-memory.bc");
        match check_in_child(&input, "x.bc") {
            Err(EngineError::MalformedLlvm { message, .. }) => assert!(message.contains("aborted"), "{message}"),
            other => panic!("expected MalformedLlvm, got {other:?}"),
        }
    }
}

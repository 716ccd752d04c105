//! The roles the `cargo-termcheck` binary plays inside the build that workspace mode starts:
//! cargo runs it as the rustc wrapper (`RUSTC_WRAPPER`) and the `cc` crate as the C compiler
//! (`CC_<target>`). The role is chosen by the name it is started under: workspace mode links
//! the binary into `<target-dir>/termcheck/tools/` under the names below, so no environment
//! variable (inherited by every child of the build) can switch a role on by accident.

use std::ffi::OsString;
use std::path::Path;

/// File name of the rustc-wrapper role.
pub const RUSTC_WRAPPER_NAME: &str = "termcheck-rustc-wrapper";
/// File name of the C-compiler-shim role.
pub const CC_SHIM_NAME: &str = "termcheck-cc";

/// Environment: the user's own `RUSTC_WRAPPER`, run by ours (chained).
pub const CHAINED_RUSTC_WRAPPER_ENV: &str = "TERMCHECK_CHAINED_RUSTC_WRAPPER";
/// Environment: the manifest directories of the workspace members (a PATH-style list).
pub const MEMBER_DIRS_ENV: &str = "TERMCHECK_MEMBER_DIRS";
/// Environment: the clang-22 executable the C shim runs.
pub const CLANG_ENV: &str = "TERMCHECK_CLANG";

/// Runs the role `args[0]` names, if it names one, and returns its exit code.
pub fn dispatch(args: &[OsString]) -> Option<i32> {
    let name = args.first().and_then(|a| Path::new(a).file_name())?.to_str()?;
    match name {
        RUSTC_WRAPPER_NAME => Some(crate::rustc_wrapper::run(&args[1..])),
        CC_SHIM_NAME => Some(crate::cc_shim::run(&args[1..])),
        _ => None,
    }
}

/// Runs `program` with `args` (stdio inherited) and returns its exit code (101 when it cannot
/// be started, after saying why on stderr: the caller is cargo or a build script, which show it).
#[allow(clippy::print_stderr, reason = "a build tool's failure is reported to cargo on stderr")]
pub fn run_inherited(program: &std::ffi::OsStr, args: &[OsString]) -> i32 {
    match std::process::Command::new(program).args(args).status() {
        Ok(status) => exit_code_of(status),
        Err(e) => {
            eprintln!("termcheck: cannot run {}: {e}", Path::new(program).display());
            101
        }
    }
}

/// The exit code of a finished child (signals map to 128 + signal, as shells do).
pub fn exit_code_of(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status.code().unwrap_or_else(|| 128 + status.signal().unwrap_or(0))
}

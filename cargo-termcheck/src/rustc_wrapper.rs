//! The rustc-wrapper role (`RUSTC_WRAPPER` during workspace mode's build): for a workspace
//! member's crate compiled for the target (not its build script, not a proc-macro) it adds
//! `llvm-bc` to rustc's `--emit`, so that rustc writes `<crate-name><extra-filename>.bc` next to
//! the normal outputs in `--out-dir`; every other invocation (dependencies, build scripts,
//! cargo's `-vV`/`--print` probes) runs unchanged. A user's own `RUSTC_WRAPPER` is chained:
//! it runs the (possibly extended) rustc command line.
//!
//! The flags that change code generation (`-C codegen-units=1`, `-C symbol-mangling-version=v0`,
//! `-C debuginfo=2`, `--cfg termcheck`) are not added here but through `CARGO_ENCODED_RUSTFLAGS`,
//! so that they are part of cargo's fingerprint (`workspace::cargo_build`).

use crate::tool_role::{run_inherited, CHAINED_RUSTC_WRAPPER_ENV, MEMBER_DIRS_ENV};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// Runs the wrapped rustc command line `args` (`args[0]` is rustc or an inner wrapper).
pub fn run(args: &[OsString]) -> i32 {
    let Some((program, rest)) = args.split_first() else {
        return run_inherited(OsStr::new("rustc"), &[]);
    };
    let members: Vec<PathBuf> = std::env::var_os(MEMBER_DIRS_ENV).map(|v| std::env::split_paths(&v).collect()).unwrap_or_default();
    let manifest_dir = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let rest = if is_member_target_compile(rest, manifest_dir.as_deref(), &members) { with_bitcode_emit(rest) } else { rest.to_vec() };
    match std::env::var_os(CHAINED_RUSTC_WRAPPER_ENV).filter(|w| !w.is_empty()) {
        Some(chained) => {
            let mut all = vec![program.clone()];
            all.extend(rest);
            run_inherited(&chained, &all)
        }
        None => run_inherited(program, &rest),
    }
}

/// Whether a rustc command line compiles a workspace member's crate for the target: it
/// emits something (not a `--print` probe), has `--target` (build scripts and proc-macros are
/// built for the host without it), is not a proc-macro or build script, and cargo runs it
/// for a package whose manifest directory is a member's.
fn is_member_target_compile(args: &[OsString], manifest_dir: Option<&Path>, members: &[PathBuf]) -> bool {
    let text: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    let value_of = |flag: &str| text.windows(2).find(|w| w[0] == flag).map(|w| w[1]);
    let emits = text.iter().any(|a| a.starts_with("--emit="));
    let has_target = text.iter().any(|a| *a == "--target" || a.starts_with("--target="));
    let proc_macro = text.windows(2).any(|w| w[0] == "--crate-type" && w[1] == "proc-macro");
    let build_script = value_of("--crate-name").is_some_and(|n| n.starts_with("build_script_"));
    let member = manifest_dir.is_some_and(|d| members.iter().any(|m| m == d));
    emits && has_target && !proc_macro && !build_script && member
}

/// `args` with `llvm-bc` added to the `--emit=` list (once).
fn with_bitcode_emit(args: &[OsString]) -> Vec<OsString> {
    args.iter()
        .map(|a| match a.to_str().and_then(|s| s.strip_prefix("--emit=")) {
            Some(kinds) if !kinds.split(',').any(|k| k == "llvm-bc" || k.starts_with("llvm-bc=")) => OsString::from(format!("--emit={kinds},llvm-bc")),
            _ => a.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    const LIB: &[&str] = &["--crate-name", "ffi_basic", "--crate-type", "lib", "--emit=dep-info,metadata,link", "--target", "x86_64-unknown-linux-gnu"];

    #[test]
    fn only_member_target_compiles_get_bitcode() {
        let members = [PathBuf::from("/w/a")];
        let at = |d: &str| Some(PathBuf::from(d));
        assert!(is_member_target_compile(&os(LIB), at("/w/a").as_deref(), &members));
        // A dependency, or no package at all (cargo's own probes).
        assert!(!is_member_target_compile(&os(LIB), at("/registry/cc").as_deref(), &members));
        assert!(!is_member_target_compile(&os(LIB), None, &members));
        // Host builds: build scripts and proc-macros have no --target.
        let build_script = os(&["--crate-name", "build_script_build", "--crate-type", "bin", "--emit=dep-info,link"]);
        assert!(!is_member_target_compile(&build_script, at("/w/a").as_deref(), &members));
        let mut proc_macro = os(LIB);
        proc_macro[3] = "proc-macro".into();
        assert!(!is_member_target_compile(&proc_macro, at("/w/a").as_deref(), &members));
        // Probes emit nothing.
        let probe = os(&["-", "--crate-name", "___", "--print=file-names", "--target", "x86_64-unknown-linux-gnu"]);
        assert!(!is_member_target_compile(&probe, at("/w/a").as_deref(), &members));
    }

    #[test]
    fn bitcode_is_added_to_the_emit_list_once() {
        let extended = with_bitcode_emit(&os(LIB));
        assert_eq!(extended[4], "--emit=dep-info,metadata,link,llvm-bc");
        assert_eq!(with_bitcode_emit(&extended), extended);
        assert_eq!(with_bitcode_emit(&os(&["--emit=llvm-bc=x.bc"])), os(&["--emit=llvm-bc=x.bc"]));
    }
}

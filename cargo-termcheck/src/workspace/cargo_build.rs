//! The instrumented build: `cargo build` into `<target-dir>/termcheck` for the host triple,
//! with this binary as rustc wrapper (bitcode of the members' crates) and as the `cc` crate's C
//! compiler (bitcode of their C), and the code-generation flags in `CARGO_ENCODED_RUSTFLAGS`
//! so that cargo's fingerprint covers them: a crate built without them (or with other ones) is
//! never reused for termcheck, and the other way round. `--target <host>` keeps the flags away
//! from build scripts and proc-macros (cargo passes target rustflags only to target units).
//! cargo's human output and rendered diagnostics go to stderr as usual; its JSON messages
//! (`--message-format=json-render-diagnostics`) are read from stdout for the artifacts.
//!
//! Not honoured in termcheck mode: `rustflags` from cargo configuration files (cargo lets the
//! `CARGO_ENCODED_RUSTFLAGS` environment variable override them; `RUSTFLAGS` and
//! `CARGO_ENCODED_RUSTFLAGS` from the environment are kept and extended), a `CC`/`CC_<target>`
//! the user set (C is compiled by clang-22), and a rustc wrapper set only in a configuration
//! file (`RUSTC_WRAPPER` from the environment is chained).

use super::args::WorkspaceArgs;
use super::error::WorkspaceError;
use crate::tool_role::{CC_SHIM_NAME, CHAINED_RUSTC_WRAPPER_ENV, CLANG_ENV, MEMBER_DIRS_ENV, RUSTC_WRAPPER_NAME};
use cargo_metadata::{Artifact, BuildScript, Message};
use std::ffi::OsString;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// termcheck's flags for every target crate (in the fingerprint; see the module documentation).
/// `--cfg termcheck` lets code tell a termcheck build apart (`#[cfg(termcheck)]`);
/// `-Copt-level=0` keeps LLVM's optimisations (which may exploit undefined behaviour, see
/// `engine/src/frontend/loading.rs`) out of the bitcode whatever the profile says; overflow
/// checks and debug assertions stay as the profile sets them.
pub const TERMCHECK_RUSTFLAGS: &[&str] = &[
    "--cfg",
    "termcheck",
    "--check-cfg",
    "cfg(termcheck)",
    "-Copt-level=0",
    "-Ccodegen-units=1",
    "-Csymbol-mangling-version=v0",
    "-Cdebuginfo=2",
];

/// Everything the build needs besides the arguments.
#[derive(Clone, Debug)]
pub struct BuildSetup {
    pub cargo: OsString,
    /// `<target-dir>/termcheck`.
    pub termcheck_dir: PathBuf,
    pub host: String,
    pub clang: PathBuf,
    /// Manifest directories of the workspace members.
    pub member_dirs: Vec<PathBuf>,
}

/// The messages of a finished build that workspace mode reads.
#[derive(Debug, Default)]
pub struct BuildOutput {
    pub artifacts: Vec<Artifact>,
    pub build_scripts: Vec<BuildScript>,
}

/// The host triple, from `rustc -vV` (`RUSTC` or `rustc` on PATH).
pub fn host_triple() -> Result<String, WorkspaceError> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let shown = Path::new(&rustc).display().to_string();
    let output = Command::new(&rustc).arg("-vV").output().map_err(|e| WorkspaceError::Spawn { program: shown.clone(), message: e.to_string() })?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(|h| h.trim().to_string())
        .ok_or_else(|| WorkspaceError::Spawn { program: shown, message: format!("`-vV` printed no host line: {text}") })
}

/// The value of `CARGO_ENCODED_RUSTFLAGS` for the build: the user's flags from
/// `CARGO_ENCODED_RUSTFLAGS` (else `RUSTFLAGS`, split at whitespace), then termcheck's.
pub fn encoded_rustflags(encoded: Option<&str>, plain: Option<&str>) -> String {
    let mut flags: Vec<String> = match (encoded, plain) {
        (Some(e), _) if !e.is_empty() => e.split('\x1f').map(str::to_string).collect(),
        (_, Some(p)) => p.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    flags.extend(TERMCHECK_RUSTFLAGS.iter().map(|f| f.to_string()));
    flags.join("\x1f")
}

/// The `cargo build` command line (without the program).
pub fn build_arguments(args: &WorkspaceArgs, setup: &BuildSetup) -> Vec<String> {
    let mut argv = vec!["build".to_string(), "--message-format=json-render-diagnostics".into(), "--target".into(), setup.host.clone()];
    argv.push("--target-dir".into());
    argv.push(setup.termcheck_dir.display().to_string());
    argv.extend(args.common_cargo_flags());
    argv.extend(args.selection_flags());
    argv
}

/// Links this executable into `<termcheck dir>/tools` under the role names (replacing links
/// left by another build of termcheck) and returns the directory.
fn install_tools(termcheck_dir: &Path) -> Result<PathBuf, WorkspaceError> {
    let io = |path: &Path, e: std::io::Error| WorkspaceError::Io { path: path.display().to_string(), message: e.to_string() };
    let exe = std::env::current_exe().map_err(|e| io(Path::new("the termcheck executable"), e))?;
    let tools = termcheck_dir.join("tools");
    std::fs::create_dir_all(&tools).map_err(|e| io(&tools, e))?;
    for name in [RUSTC_WRAPPER_NAME, CC_SHIM_NAME] {
        let link = tools.join(name);
        if std::fs::read_link(&link).is_ok_and(|target| target == exe) {
            continue;
        }
        let fresh = tools.join(format!(".{name}.{}", std::process::id()));
        let _ = std::fs::remove_file(&fresh);
        std::os::unix::fs::symlink(&exe, &fresh).map_err(|e| io(&fresh, e))?;
        std::fs::rename(&fresh, &link).map_err(|e| io(&link, e))?;
    }
    Ok(tools)
}

/// Runs the build and collects its artifacts and build-script results.
pub fn run_build(args: &WorkspaceArgs, setup: &BuildSetup) -> Result<BuildOutput, WorkspaceError> {
    let tools = install_tools(&setup.termcheck_dir)?;
    let mut command = Command::new(&setup.cargo);
    command.args(build_arguments(args, setup)).stdout(Stdio::piped()).stderr(Stdio::inherit()).stdin(Stdio::null());
    let rustflags = encoded_rustflags(std::env::var("CARGO_ENCODED_RUSTFLAGS").ok().as_deref(), std::env::var("RUSTFLAGS").ok().as_deref());
    command.env("CARGO_ENCODED_RUSTFLAGS", rustflags).env_remove("RUSTFLAGS").env("CARGO_INCREMENTAL", "0");
    let wrapper = tools.join(RUSTC_WRAPPER_NAME);
    match std::env::var_os("RUSTC_WRAPPER").filter(|w| !w.is_empty() && Path::new(w).file_name() != Some(RUSTC_WRAPPER_NAME.as_ref())) {
        Some(user_wrapper) => command.env(CHAINED_RUSTC_WRAPPER_ENV, user_wrapper),
        None => command.env_remove(CHAINED_RUSTC_WRAPPER_ENV),
    };
    command.env("RUSTC_WRAPPER", &wrapper);
    let members = std::env::join_paths(&setup.member_dirs).map_err(|e| WorkspaceError::Io { path: "the member directories".into(), message: e.to_string() })?;
    command.env(MEMBER_DIRS_ENV, members);
    let shim = tools.join(CC_SHIM_NAME);
    // cc looks up CC_<target> (as written), then CC_<target with underscores>.
    command.env(format!("CC_{}", setup.host), &shim).env(format!("CC_{}", setup.host.replace(['-', '.'], "_")), &shim);
    command.env(CLANG_ENV, &setup.clang);
    let shown = Path::new(&setup.cargo).display().to_string();
    let mut child = command.spawn().map_err(|e| WorkspaceError::Spawn { program: shown, message: e.to_string() })?;
    let mut output = BuildOutput::default();
    if let Some(stdout) = child.stdout.take() {
        for message in Message::parse_stream(BufReader::new(stdout)).flatten() {
            match message {
                Message::CompilerArtifact(artifact) => output.artifacts.push(artifact),
                Message::BuildScriptExecuted(script) => output.build_scripts.push(script),
                _ => {}
            }
        }
    }
    let status = child.wait().map_err(|e| WorkspaceError::Spawn { program: "cargo build".into(), message: e.to_string() })?;
    if !status.success() {
        return Err(WorkspaceError::BuildFailed { status: status.to_string() });
    }
    Ok(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_rustflags_are_kept_before_termchecks() {
        let ours = TERMCHECK_RUSTFLAGS.join("\x1f");
        assert_eq!(encoded_rustflags(None, None), ours);
        assert_eq!(encoded_rustflags(None, Some(" -C  opt-level=1 ")), format!("-C\x1fopt-level=1\x1f{ours}"));
        // The encoded form wins over RUSTFLAGS (cargo's precedence) and keeps spaces.
        assert_eq!(encoded_rustflags(Some("--cfg\x1fa b"), Some("-x")), format!("--cfg\x1fa b\x1f{ours}"));
        assert_eq!(encoded_rustflags(Some(""), Some("-x")), format!("-x\x1f{ours}"));
    }

    #[test]
    fn the_build_targets_the_host_in_the_termcheck_directory() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: WorkspaceArgs,
        }
        let args = Wrapper::try_parse_from(["t", "-p", "a", "--offline"]).unwrap().args;
        let setup = BuildSetup {
            cargo: "cargo".into(),
            termcheck_dir: "/w/target/termcheck".into(),
            host: "x86_64-unknown-linux-gnu".into(),
            clang: "/usr/bin/clang-22".into(),
            member_dirs: vec![],
        };
        assert_eq!(
            build_arguments(&args, &setup),
            [
                "build", "--message-format=json-render-diagnostics", "--target", "x86_64-unknown-linux-gnu", "--target-dir",
                "/w/target/termcheck", "--offline", "--package", "a"
            ]
        );
    }
}

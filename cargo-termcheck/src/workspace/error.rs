//! Errors of workspace mode, with stable diagnostic codes; every one ends the run with exit
//! code 101 (build or internal failure), like cargo's own failures.

use miette::Diagnostic;
use termcheck_engine::error::EngineError;
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum WorkspaceError {
    #[error("{tool} was not found ({detail})")]
    #[diagnostic(
        code(termcheck::workspace::toolchain),
        help("run `bash scripts/setup.sh` in the termcheck repository: it installs LLVM 22 and clang-22 (Debian packages clang-22, llvm-22)")
    )]
    MissingTool { tool: String, detail: String },

    #[error("cannot read the workspace with `cargo metadata`: {message}")]
    #[diagnostic(code(termcheck::workspace::metadata), help("check --manifest-path and the package names given with -p/--exclude"))]
    Metadata { message: String },

    #[error("no workspace member matches the package selection {selection}")]
    #[diagnostic(code(termcheck::workspace::selection), help("name workspace members with -p, or use --workspace"))]
    NothingSelected { selection: String },

    #[error("cannot run {program}: {message}")]
    #[diagnostic(code(termcheck::workspace::spawn))]
    Spawn { program: String, message: String },

    #[error("the build failed: `cargo build` exited with {status}")]
    #[diagnostic(code(termcheck::workspace::build), help("cargo's errors are shown above; the workspace must build before it can be checked"))]
    BuildFailed { status: String },

    #[error("no bitcode for {what}: {path} is missing")]
    #[diagnostic(
        code(termcheck::workspace::bitcode_missing),
        help("the build reused artifacts compiled without termcheck's rustc wrapper; remove {dir} and run again")
    )]
    MissingBitcode { what: String, path: String, dir: String },

    #[error("cannot prepare {path}: {message}")]
    #[diagnostic(code(termcheck::workspace::io))]
    Io { path: String, message: String },

    #[error(transparent)]
    #[diagnostic(transparent)]
    Engine(#[from] EngineError),
}

//! Typed errors of the engine's public API, with stable miette codes for the CLI.

use miette::Diagnostic;
use thiserror::Error;

/// An input the engine cannot analyse at all (as opposed to a MAYBE verdict).
#[derive(Debug, Error, Diagnostic)]
pub enum EngineError {
    #[error("cannot read {path}: {message}")]
    #[diagnostic(code(termcheck::io), help("check that the file exists and is readable"))]
    Io { path: String, message: String },

    #[error("cannot read {path}: it is {what}, not a regular file")]
    #[diagnostic(code(termcheck::input::not_a_file), help("pass the path of a regular file (.c, .i, .ll, .bc, .smt2 or .koat)"))]
    NotARegularFile { path: String, what: String },

    #[error("unsupported input file {path}: expected .c, .ll, .bc, .smt2 or .koat")]
    #[diagnostic(code(termcheck::input::extension))]
    UnsupportedExtension { path: String },

    #[error("C compilation of {path} failed")]
    #[diagnostic(code(termcheck::frontend::clang), help("clang-22's diagnostics:\n{diagnostics}"))]
    CompileFailed { path: String, diagnostics: String },

    #[error("malformed LLVM input {path}: {message}")]
    #[diagnostic(code(termcheck::frontend::llvm))]
    MalformedLlvm { path: String, message: String },

    #[error("toolchain problem: {message}")]
    #[diagnostic(code(termcheck::frontend::toolchain), help("run scripts/setup.sh to install LLVM 22 and clang-22"))]
    Toolchain { message: String },

    #[error("{path}:{line}:{col}: {message}")]
    #[diagnostic(code(termcheck::its::parse))]
    ItsParse { path: String, line: usize, col: usize, message: String },

    #[error("{path} is an integer transition system, which has no functions to analyse one by one")]
    #[diagnostic(
        code(termcheck::input::not_a_program),
        help("--all-functions needs a program (.c, .i, .ll, .bc); prove an integer transition system without it")
    )]
    NotAProgram { path: String },

    #[error("{path} was written by {producer}, newer than the LLVM {linked} termcheck is linked with")]
    #[diagnostic(
        code(termcheck::frontend::llvm_version),
        help("use a Rust toolchain whose LLVM major version is at most termcheck's (rustc -vV shows `LLVM version`), or rebuild termcheck against a newer LLVM")
    )]
    BitcodeTooNew { path: String, producer: String, linked: String },

    #[error("linking the bitcode of {module} failed: {message}")]
    #[diagnostic(code(termcheck::frontend::link), help("two inputs define the same symbol, or their modules are incompatible"))]
    LinkFailed { module: String, message: String },

    #[error("entry function `{name}` not found in {path}")]
    #[diagnostic(code(termcheck::input::entry), help("pass --entry with a function defined in the input"))]
    MissingEntry { path: String, name: String },
}

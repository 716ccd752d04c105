//! Why a termcheck.toml could not be used: typed errors that render as miette diagnostics
//! pointing into the file, each with a stable code (`cargo termcheck explain CODE`).

use miette::{Diagnostic, NamedSource, SourceSpan};
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// An error in finding, reading or checking the policy file (exit code 2).
#[derive(Debug, Error, Diagnostic)]
pub enum PolicyError {
    #[error("cannot read the policy file {}: {source}", path.display())]
    #[diagnostic(code(termcheck::config::read), help("check that the file exists and is readable (--config PATH names it explicitly)"))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("more than one policy file in {}: {}", dir.display(), found.join(", "))]
    #[diagnostic(code(termcheck::config::ambiguous), help("keep one of them, or choose with --config PATH"))]
    Ambiguous { dir: PathBuf, found: Vec<String> },

    #[error("{message}")]
    #[diagnostic(code(termcheck::config::syntax), help("termcheck.toml must be valid TOML (https://toml.io)"))]
    Syntax {
        message: String,
        #[source_code]
        file: Arc<NamedSource<String>>,
        #[label("here")]
        span: Option<SourceSpan>,
    },

    #[error("{message}")]
    #[diagnostic(code(termcheck::config::unknown_key), help("the keys are listed in docs/policy.md"))]
    UnknownKey {
        message: String,
        #[source_code]
        file: Arc<NamedSource<String>>,
        #[label("not a key of termcheck.toml here")]
        span: Option<SourceSpan>,
    },

    #[error("{message}")]
    #[diagnostic(code(termcheck::config::missing_key), help("{help}"))]
    MissingKey {
        message: String,
        help: String,
        #[source_code]
        file: Arc<NamedSource<String>>,
        #[label("in this table")]
        span: Option<SourceSpan>,
    },

    #[error("{message}")]
    #[diagnostic(code(termcheck::config::invalid_value), help("{help}"))]
    InvalidValue {
        message: String,
        help: String,
        #[source_code]
        file: Arc<NamedSource<String>>,
        #[label("{label}")]
        span: Option<SourceSpan>,
        label: String,
    },
}

impl PolicyError {
    /// The stable code of the error (as shown by miette).
    pub fn code_str(&self) -> String {
        Diagnostic::code(self).map(|c| c.to_string()).unwrap_or_default()
    }
}

//! The arguments of workspace mode (`cargo termcheck` without a subcommand): cargo's
//! package-selection flags, forwarded to `cargo metadata` and `cargo build`, and the analysis
//! options shared with `prove`.

use crate::cli::{CacheModeArg, IntSemanticsArg};
use std::num::NonZeroUsize;
use std::path::PathBuf;

/// `cargo termcheck [OPTIONS]`: build the workspace's crates to bitcode and check every function.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkspaceArgs {
    /// Package to check (see `cargo help pkgid`); may be repeated.
    #[arg(short = 'p', long = "package", value_name = "SPEC", help_heading = "Package selection")]
    pub packages: Vec<String>,

    /// Check every member of the workspace.
    #[arg(long, alias = "all", help_heading = "Package selection")]
    pub workspace: bool,

    /// Exclude a package from --workspace; may be repeated.
    #[arg(long, value_name = "SPEC", requires = "workspace", help_heading = "Package selection")]
    pub exclude: Vec<String>,

    /// Features to activate (space or comma separated); may be repeated.
    #[arg(short = 'F', long, value_name = "FEATURES", help_heading = "Feature selection")]
    pub features: Vec<String>,

    /// Activate all available features.
    #[arg(long, help_heading = "Feature selection")]
    pub all_features: bool,

    /// Do not activate the `default` feature.
    #[arg(long, help_heading = "Feature selection")]
    pub no_default_features: bool,

    /// Path to Cargo.toml.
    #[arg(long, value_name = "PATH", help_heading = "Manifest options")]
    pub manifest_path: Option<PathBuf>,

    /// Cargo's target directory; termcheck builds into its `termcheck` subdirectory.
    #[arg(long, value_name = "DIR", help_heading = "Manifest options")]
    pub target_dir: Option<PathBuf>,

    /// Passed to cargo: require Cargo.lock to be up to date.
    #[arg(long, help_heading = "Manifest options")]
    pub locked: bool,

    /// Passed to cargo: run without accessing the network.
    #[arg(long, help_heading = "Manifest options")]
    pub offline: bool,

    /// Passed to cargo: --locked and --offline.
    #[arg(long, help_heading = "Manifest options")]
    pub frozen: bool,

    /// Wall-clock limit of the analysis (after the build) in seconds.
    #[arg(long = "timeout", value_name = "SECS", default_value = "600", value_parser = crate::cli::parse_timeout, help_heading = "Analysis")]
    pub analysis_timeout: f64,

    /// Wall-clock limit of one function in seconds.
    #[arg(long = "function-timeout", value_name = "SECS", default_value = "60", value_parser = crate::cli::parse_function_timeout, help_heading = "Analysis")]
    pub per_function_timeout: f64,

    /// Resident-memory limit of the analysis in MB; past it functions are MAYBE with `memory limit of N MB reached` (0: none).
    #[arg(long = "memory-limit", value_name = "MB", default_value_t = crate::supervise::DEFAULT_MEMORY_LIMIT_MB, help_heading = "Analysis")]
    pub memory_limit: u64,

    /// Functions analysed at the same time [default: the machine's cores].
    #[arg(long = "jobs", short = 'j', value_name = "N", help_heading = "Analysis")]
    pub analysis_jobs: Option<NonZeroUsize>,

    /// Integer semantics of the C code (Rust code keeps its own: see docs).
    #[arg(long = "int-semantics", value_enum, value_name = "MODE", default_value_t = IntSemanticsArg::C, help_heading = "Analysis")]
    pub semantics: IntSemanticsArg,

    /// Directory of the persistent report cache [default: as `prove`].
    #[arg(long = "cache-dir", value_name = "DIR", help_heading = "Cache")]
    pub report_cache_dir: Option<PathBuf>,

    /// Neither read nor write the report cache.
    #[arg(long = "no-cache", conflicts_with = "report_cache_dir", help_heading = "Cache")]
    pub without_cache: bool,

    /// read-write: reuse and store reports; read-only: reuse, never write (e.g. CI).
    #[arg(long = "cache-mode", value_enum, value_name = "MODE", default_value_t = CacheModeArg::ReadWrite, help_heading = "Cache")]
    pub report_cache_mode: CacheModeArg,

    /// The termcheck.toml policy to apply [default: termcheck.toml, .termcheck.toml or
    /// .cargo/termcheck.toml found walking up to the workspace root; or TERMCHECK_CONFIG].
    #[arg(long = "config", value_name = "PATH", help_heading = "Policy and output")]
    pub policy_path: Option<PathBuf>,

    /// human: verdicts and the policy's findings; json: one JSON object per line (docs/output-format.md).
    #[arg(long = "message-format", value_enum, value_name = "FMT", default_value_t = MessageFormat::Human, help_heading = "Policy and output")]
    pub message_format: MessageFormat,

    /// Also write the findings as SARIF 2.1.0 to this file (CI code scanning).
    #[arg(long = "sarif", value_name = "PATH", help_heading = "Policy and output")]
    pub sarif_path: Option<PathBuf>,

    /// Colour of human output [default: CARGO_TERM_COLOR, NO_COLOR, then whether stdout is a terminal].
    #[arg(long = "color", value_enum, value_name = "WHEN", help_heading = "Policy and output")]
    pub color: Option<ColorArg>,
}

/// `--message-format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageFormat {
    Human,
    Json,
}

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

impl WorkspaceArgs {
    /// The flags forwarded to `cargo build` and `cargo metadata` alike (manifest, features,
    /// lock and network flags).
    pub fn common_cargo_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        if let Some(path) = &self.manifest_path {
            flags.push("--manifest-path".to_string());
            flags.push(path.display().to_string());
        }
        for features in &self.features {
            flags.push("--features".to_string());
            flags.push(features.clone());
        }
        if self.all_features {
            flags.push("--all-features".to_string());
        }
        if self.no_default_features {
            flags.push("--no-default-features".to_string());
        }
        flags.extend(self.lock_flags());
        flags
    }

    /// `--locked`, `--offline`, `--frozen` as given.
    pub fn lock_flags(&self) -> Vec<String> {
        [(self.locked, "--locked"), (self.offline, "--offline"), (self.frozen, "--frozen")]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, flag)| flag.to_string())
            .collect()
    }

    /// The package-selection flags for `cargo build`.
    pub fn selection_flags(&self) -> Vec<String> {
        let mut flags = Vec::new();
        for package in &self.packages {
            flags.push("--package".to_string());
            flags.push(package.clone());
        }
        if self.workspace {
            flags.push("--workspace".to_string());
        }
        for package in &self.exclude {
            flags.push("--exclude".to_string());
            flags.push(package.clone());
        }
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(clap::Parser)]
    struct Wrapper {
        #[command(flatten)]
        args: WorkspaceArgs,
    }

    fn parse(args: &[&str]) -> Result<WorkspaceArgs, clap::Error> {
        use clap::Parser;
        Wrapper::try_parse_from(std::iter::once("t").chain(args.iter().copied())).map(|w| w.args)
    }

    #[test]
    fn flags_are_forwarded_in_cargo_spelling() {
        let args = parse(&[
            "-p", "a", "--package", "b", "--workspace", "--exclude", "c", "--features", "x,y", "--all-features",
            "--no-default-features", "--manifest-path", "w/Cargo.toml", "--locked", "--frozen",
        ])
        .unwrap();
        assert_eq!(
            args.common_cargo_flags(),
            ["--manifest-path", "w/Cargo.toml", "--features", "x,y", "--all-features", "--no-default-features", "--locked", "--frozen"]
        );
        assert_eq!(args.selection_flags(), ["--package", "a", "--package", "b", "--workspace", "--exclude", "c"]);
    }

    #[test]
    fn defaults_and_bad_values() {
        let args = parse(&[]).unwrap();
        assert_eq!((args.analysis_timeout, args.per_function_timeout), (600.0, 60.0));
        assert!(args.common_cargo_flags().is_empty() && args.selection_flags().is_empty());
        assert!(parse(&["--exclude", "c"]).is_err(), "--exclude needs --workspace");
        assert!(parse(&["--timeout", "0"]).is_err());
        assert!(parse(&["--no-cache", "--cache-dir", "d"]).is_err());
    }
}

//! The command-line contract of `cargo termcheck` (clap derive). Benchmarks depend on it: keep it stable.

use clap::{Parser, Subcommand, ValueEnum};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use termcheck_engine::verdict::IntSemantics;

const AFTER_HELP: &str = "\
Verdicts: the first line of `prove`'s output is YES, NO or MAYBE (Termination Competition
convention), the second `memory-safety: proved|violated|unknown` (omitted for integer
transition systems), then the evidence.

Exit codes: 0 for every verdict (YES, NO, MAYBE, including MAYBE after a timeout);
2 for bad input or bad arguments; 101 for an internal error (printed as MAYBE with
`reason: internal error: ...`).

`prove FILE --all-functions` prints one verdict per defined function of a C or LLVM
file (a block per function, then a summary line).

Workspace mode: `cargo termcheck` without a subcommand builds the selected workspace
members (Rust and the C their build scripts compile with the `cc` crate) to LLVM bitcode
in <target-dir>/termcheck, links one module per library or binary target and prints a
verdict per function of the members' own code, grouped by crate. Its exit codes: 0 when
every reported function terminates and is memory safe, 1 when not, 2 for bad arguments,
101 when the build fails or a tool is missing (see docs/workspace-mode.md).

Logging: set TERMCHECK_LOG to a tracing filter (e.g. TERMCHECK_LOG=debug) for debug
logs on stderr.";

/// `cargo termcheck`: proves termination and memory safety of C programs and termination of
/// integer transition systems; without a subcommand, of every function of a Cargo workspace.
#[derive(Parser, Debug)]
#[command(
    name = "cargo-termcheck",
    bin_name = "cargo termcheck",
    version,
    about = "Prove termination and memory safety of C programs (and termination of integer transition systems)",
    after_help = AFTER_HELP,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Workspace mode (no subcommand).
    #[command(flatten)]
    pub workspace: crate::workspace::args::WorkspaceArgs,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Prove termination (and memory safety) of one input file.
    Prove(ProveArgs),
    /// Explain a diagnostic code (e.g. `termcheck::config::unknown_key`, `non-termination`);
    /// without a code, list every code.
    Explain(ExplainArgs),
}

/// Arguments of `cargo termcheck explain`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The code: in full, its last segment, or a check's termcheck.toml key.
    pub code: Option<String>,
}

/// Arguments of `cargo termcheck prove`.
#[derive(clap::Args, Debug, Clone)]
pub struct ProveArgs {
    /// Input file: C (.c, .i), LLVM IR (.ll, .bc) or an integer transition system (.smt2, .koat).
    pub file: PathBuf,

    /// Function whose runs are analysed (C and LLVM inputs).
    #[arg(long, value_name = "FUNCTION", default_value = "main")]
    pub entry: String,

    /// Analyse every defined function as an entry of its own (its parameters arbitrary) and
    /// print one verdict per function, then a summary line (C and LLVM inputs only).
    #[arg(long, conflicts_with = "entry")]
    pub all_functions: bool,

    /// Wall-clock limit in seconds; on expiry the verdict is MAYBE with `reason: timeout after N s`.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = parse_timeout)]
    pub timeout: f64,

    /// Wall-clock limit of one function in seconds (at most --timeout, which it defaults to).
    #[arg(long, value_name = "SECS", value_parser = parse_function_timeout)]
    pub function_timeout: Option<f64>,

    /// Resident-memory limit in MB; past it the verdict is MAYBE with `reason: memory limit of N MB reached` (0: none).
    #[arg(long, value_name = "MB", default_value_t = crate::supervise::DEFAULT_MEMORY_LIMIT_MB)]
    pub memory_limit: u64,

    /// Functions analysed at the same time by --all-functions [default: the machine's cores].
    #[arg(long, value_name = "N")]
    pub jobs: Option<NonZeroUsize>,

    /// Integer semantics of the program (see engine/src/interp/SEMANTICS.md).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = IntSemanticsArg::C)]
    pub int_semantics: IntSemanticsArg,

    /// Output format (see docs/output-format.md).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,

    /// Directory of the persistent report cache [default: termcheck in the user's cache
    /// directory, e.g. $XDG_CACHE_HOME/termcheck or ~/.cache/termcheck].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Neither read nor write the report cache.
    #[arg(long, conflicts_with = "cache_dir")]
    pub no_cache: bool,

    /// read-write: reuse and store reports; read-only: reuse, never write (e.g. CI).
    #[arg(long, value_enum, value_name = "MODE", default_value_t = CacheModeArg::ReadWrite)]
    pub cache_mode: CacheModeArg,

    /// Add DIR to clang's include path (C inputs; repeatable).
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,

    /// Define a preprocessor macro for clang, `NAME` or `NAME=VALUE` (C inputs; repeatable).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,

    /// Pass ARG to clang as it is, e.g. `--clang-arg=-std=c99` (C inputs; repeatable; after
    /// termcheck's own flags and the -I/-D ones).
    #[arg(long = "clang-arg", value_name = "ARG", allow_hyphen_values = true)]
    pub clang_args: Vec<String>,

    /// For a NO or memory-safety violation of a C input: write a C file that replays the
    /// witness natively (calls the entry with the witness's arguments, feeds its inputs; see
    /// docs/output-format.md, "Replaying a witness").
    #[arg(long, value_name = "FILE", conflicts_with = "all_functions")]
    pub emit_harness: Option<PathBuf>,

    /// Which witness `--emit-harness` replays when the report has both a NO and a
    /// memory-safety violation (default: the violation, which ends its run first).
    #[arg(long, value_enum, value_name = "WITNESS", requires = "emit_harness")]
    pub harness_of: Option<HarnessOf>,
}

/// The witness a replay harness is written for (`--harness-of`).
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum HarnessOf {
    /// The memory-safety violation.
    Violation,
    /// The non-terminating run (NO).
    Nontermination,
}

impl ProveArgs {
    /// The extra clang arguments in the order clang gets them: `-I` directories, `-D`
    /// macros, then the `--clang-arg`s.
    pub fn clang_arguments(&self) -> Vec<String> {
        let includes = self.include_dirs.iter().map(|d| format!("-I{}", d.display()));
        let defines = self.defines.iter().map(|d| format!("-D{d}"));
        includes.chain(defines).chain(self.clang_args.iter().cloned()).collect()
    }
}

/// `--cache-mode` values.
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum CacheModeArg {
    /// Reuse stored reports and store new ones.
    ReadWrite,
    /// Reuse stored reports, never write.
    ReadOnly,
}

/// `--int-semantics` values.
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum IntSemanticsArg {
    /// LLVM semantics of clang's IR: signed overflow (nsw), division by zero and over-wide shifts are undefined behaviour.
    C,
    /// Two's complement everywhere (like -fwrapv); no overflow is undefined.
    Wrap,
    /// Signed integers are unbounded mathematical integers; unsigned results have no upper bound but wrap below zero.
    Math,
}

impl From<IntSemanticsArg> for IntSemantics {
    fn from(arg: IntSemanticsArg) -> IntSemantics {
        match arg {
            IntSemanticsArg::C => IntSemantics::C,
            IntSemanticsArg::Wrap => IntSemantics::Wrap,
            IntSemanticsArg::Math => IntSemantics::Math,
        }
    }
}

/// `--format` values.
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutputFormat {
    /// Verdict line, memory-safety line, then the evidence as indented text.
    Human,
    /// One JSON object (schema in docs/output-format.md).
    Json,
}

/// Parses `--timeout`: a positive, finite number of seconds (fractions allowed).
pub(crate) fn parse_timeout(text: &str) -> Result<f64, String> {
    let secs: f64 = text.parse().map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 || secs > 1.0e7 {
        return Err(format!("timeout must be a positive number of seconds (at most 10^7), got {text}"));
    }
    Ok(secs)
}

/// Parses `--function-timeout`: as `--timeout`, and not rounded down to zero nanoseconds.
pub(crate) fn parse_function_timeout(text: &str) -> Result<f64, String> {
    let secs = parse_timeout(text)?;
    if std::time::Duration::from_secs_f64(secs).is_zero() {
        return Err(format!("function timeout must be a positive number of seconds, got {text}"));
    }
    Ok(secs)
}

/// Drops the `termcheck` argument cargo inserts when it runs us as `cargo termcheck …`
/// (cargo calls `cargo-termcheck termcheck …`); a direct `cargo-termcheck …` call is left alone.
pub fn normalize_args(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    if args.get(1).is_some_and(|a| a == "termcheck") {
        args.remove(1);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(normalize_args(args.iter().map(Into::into).collect()))
    }

    fn prove_of(command: Option<Command>) -> ProveArgs {
        match command {
            Some(Command::Prove(p)) => p,
            other => panic!("not prove: {other:?}"),
        }
    }

    #[test]
    fn explain_takes_an_optional_code() {
        let Some(Command::Explain(e)) = parse(&["cargo-termcheck", "explain", "non-termination"]).unwrap().command else { panic!("explain") };
        assert_eq!(e.code.as_deref(), Some("non-termination"));
        let Some(Command::Explain(e)) = parse(&["cargo-termcheck", "termcheck", "explain"]).unwrap().command else { panic!("explain") };
        assert_eq!(e.code, None);
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_match_the_contract() {
        let p = prove_of(parse(&["cargo-termcheck", "prove", "a.c"]).unwrap().command);
        assert_eq!(p.entry, "main");
        assert_eq!(p.timeout, 60.0);
        assert_eq!(p.int_semantics, IntSemanticsArg::C);
        assert_eq!(p.format, OutputFormat::Human);
        assert!(!p.all_functions);
        assert_eq!(p.function_timeout, None);
        assert_eq!(p.jobs, None);
        assert_eq!((p.cache_dir, p.no_cache, p.cache_mode), (None, false, CacheModeArg::ReadWrite));
    }

    #[test]
    fn all_functions_options_are_parsed() {
        let p = prove_of(
            parse(&["cargo-termcheck", "prove", "a.c", "--all-functions", "--jobs", "3", "--function-timeout", "2.5"])
                .unwrap()
                .command);
        assert!(p.all_functions);
        assert_eq!(p.jobs, NonZeroUsize::new(3));
        assert_eq!(p.function_timeout, Some(2.5));
    }

    #[test]
    fn bad_all_functions_options_are_rejected() {
        for args in [
            &["--all-functions", "--entry", "f"][..],
            &["--jobs", "0"][..],
            &["--jobs", "-1"][..],
            &["--function-timeout", "0"][..],
            &["--function-timeout", "1e-300"][..],
        ] {
            let mut all = vec!["cargo-termcheck", "prove", "a.c"];
            all.extend(args);
            assert!(parse(&all).is_err(), "{args:?}");
        }
    }

    #[test]
    fn cache_options() {
        let p = prove_of(parse(&["cargo-termcheck", "prove", "a.c", "--cache-dir", "d", "--cache-mode", "read-only"]).unwrap().command);
        assert_eq!((p.cache_dir, p.cache_mode), (Some(PathBuf::from("d")), CacheModeArg::ReadOnly));
        let p = prove_of(parse(&["cargo-termcheck", "prove", "a.c", "--no-cache"]).unwrap().command);
        assert!(p.no_cache);
        assert!(parse(&["cargo-termcheck", "prove", "a.c", "--no-cache", "--cache-dir", "d"]).is_err());
        assert!(parse(&["cargo-termcheck", "prove", "a.c", "--cache-mode", "write-only"]).is_err());
    }

    #[test]
    fn clang_options_are_collected_in_order() {
        let p = prove_of(
            parse(&["cargo-termcheck", "prove", "a.c", "-I", "inc", "-DN=3", "-D", "FLAG", "--clang-arg", "-std=c99", "-Iother", "--clang-arg=-O0"])
                .unwrap()
                .command);
        assert_eq!(p.clang_arguments(), ["-Iinc", "-Iother", "-DN=3", "-DFLAG", "-std=c99", "-O0"]);
        let p = prove_of(parse(&["cargo-termcheck", "prove", "a.c"]).unwrap().command);
        assert!(p.clang_arguments().is_empty());
    }

    #[test]
    fn cargo_subcommand_argument_is_skipped() {
        let p = prove_of(
            parse(&["cargo-termcheck", "termcheck", "prove", "x.ll", "--entry", "f", "--int-semantics", "math"])
                .unwrap()
                .command);
        assert_eq!(p.file, PathBuf::from("x.ll"));
        assert_eq!(p.entry, "f");
        assert_eq!(p.int_semantics, IntSemanticsArg::Math);
    }

    #[test]
    fn a_file_named_termcheck_later_is_not_skipped() {
        let p = prove_of(parse(&["cargo-termcheck", "prove", "termcheck"]).unwrap().command);
        assert_eq!(p.file, PathBuf::from("termcheck"));
    }

    #[test]
    fn bad_timeouts_are_rejected() {
        for t in ["0", "-1", "abc", "inf", "NaN"] {
            assert!(parse(&["cargo-termcheck", "prove", "a.c", "--timeout", t]).is_err(), "{t}");
        }
        let p = prove_of(parse(&["cargo-termcheck", "prove", "a.c", "--timeout", "0.5"]).unwrap().command);
        assert_eq!(p.timeout, 0.5);
    }

    #[test]
    fn no_subcommand_is_workspace_mode_with_cargos_selection_flags() {
        for args in [&["cargo-termcheck"][..], &["cargo-termcheck", "termcheck"][..]] {
            let cli = parse(args).unwrap();
            assert!(cli.command.is_none(), "{args:?}");
        }
        let cli = parse(&["cargo-termcheck", "termcheck", "--manifest-path", "w/Cargo.toml", "-p", "a", "--timeout", "5"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.workspace.manifest_path, Some(PathBuf::from("w/Cargo.toml")));
        assert_eq!(cli.workspace.packages, ["a"]);
        assert_eq!(cli.workspace.analysis_timeout, 5.0);
        // Workspace options do not mix with a subcommand.
        assert!(parse(&["cargo-termcheck", "-p", "a", "prove", "x.c"]).is_err());
    }
}

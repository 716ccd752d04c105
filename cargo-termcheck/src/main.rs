//! `cargo termcheck` / `cargo-termcheck`: the command-line front of the engine.
//!
//! Thin by design: argument parsing, running the engine under a time limit and a panic guard,
//! rendering, exit codes. All analysis lives in `termcheck_engine`.
//!
//! Exit codes (docs/output-format.md): 0 for every verdict, 2 for bad input or arguments,
//! 101 for an internal error (a panic, printed as MAYBE with `reason: internal error: …`).

mod cache_choice;
mod cli;
mod linear_text;
mod logging;
mod render_human;
mod render_json;
mod supervise;

use clap::Parser;
use cli::{Cli, Command, OutputFormat, ProveArgs};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};
use supervise::{run_with_limit, Supervised, GRACE};
use termcheck_engine::driver::{prove_file_with_store, InputKind};
use termcheck_engine::config::Config;
use termcheck_engine::verdict::{MemorySafety, Report, Termination};

/// Exit code for every verdict.
const EXIT_VERDICT: i32 = 0;
/// Exit code for input the engine cannot analyse (missing file, malformed input, …).
const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for an internal error (same as a Rust panic / cargo's failure code).
const EXIT_INTERNAL: i32 = 101;

fn main() {
    let cli = match Cli::try_parse_from(cli::normalize_args(std::env::args_os().collect())) {
        Ok(cli) => cli,
        // clap prints help/version (exit 0) or the usage error (exit 2).
        Err(e) => e.exit(),
    };
    logging::init();
    install_diagnostic_style();
    let code = match cli.command {
        Command::Prove(args) => prove(args),
    };
    std::process::exit(code);
}

/// miette's graphical reports; lines are wrapped only on a terminal, so that logs and tools
/// reading stderr get each message on one line.
fn install_diagnostic_style() {
    let wrap = std::io::stderr().is_terminal();
    let _ = miette::set_hook(Box::new(move |_| Box::new(miette::MietteHandlerOpts::new().wrap_lines(wrap).build())));
}

/// A MAYBE report for an analysis that produced none (timeout, internal error); programs get
/// `memory-safety: unknown` with the same reason, integer transition systems no memory verdict.
fn maybe_report(reason: String, is_its: bool) -> Report {
    Report {
        memory_safety: (!is_its).then(|| MemorySafety::Unknown { reason: reason.clone() }),
        termination: Termination::Maybe { reason },
        stats: vec![],
    }
}

/// Writes the rendered report to stdout; a closed stdout (e.g. `| head -1`) is not an error.
fn print_report(report: &Report, format: OutputFormat, elapsed: Duration) {
    let text = match format {
        OutputFormat::Human => render_human::human_text(report),
        OutputFormat::Json => render_json::json_text(report, elapsed.as_millis()),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// `prove FILE`: runs the engine on a worker thread and returns the process exit code.
fn prove(args: ProveArgs) -> i32 {
    let config = Config::new(args.int_semantics.into(), Duration::from_secs_f64(args.timeout));
    let is_its = matches!(InputKind::of(&args.file), Some(InputKind::ItsSmt2 | InputKind::ItsKoat));
    let start = Instant::now();
    let path = args.file.clone();
    let wait = config.timeout() + GRACE;
    let entry = args.entry.clone();
    let store = cache_choice::store_for(&args);
    let run = move || {
        let result = prove_file_with_store(&path, &entry, &config, store.as_ref());
        result.map(|report| cache_choice::with_store_problems(report, store.stats()))
    };
    match run_with_limit(wait, run) {
        Supervised::Finished(Ok(report)) => {
            print_report(&report, args.format, start.elapsed());
            EXIT_VERDICT
        }
        #[allow(clippy::print_stderr, reason = "the CLI renders input errors on stderr")]
        Supervised::Finished(Err(error)) => {
            eprintln!("{:?}", miette::Report::new(error));
            EXIT_BAD_INPUT
        }
        Supervised::Panicked(message) => {
            let report = maybe_report(format!("internal error: {message}"), is_its);
            print_report(&report, args.format, start.elapsed());
            EXIT_INTERNAL
        }
        Supervised::TimedOut => {
            let report = maybe_report(format!("timeout after {} s", args.timeout), is_its);
            print_report(&report, args.format, start.elapsed());
            // Ends the abandoned worker and any z3 threads with it.
            std::process::exit(EXIT_VERDICT)
        }
    }
}

//! `cargo termcheck` / `cargo-termcheck`: the command-line front of the engine.
//!
//! Thin by design: argument parsing, running the engine under a time limit and a panic guard,
//! rendering, exit codes. All analysis lives in `termcheck_engine`: `prove FILE` calls
//! `driver::prove_file`, `prove FILE --all-functions` `driver::load_program` and then
//! `analysis::analyze_module` for every defined function.
//!
//! Without a subcommand it is workspace mode (`workspace`, docs/workspace-mode.md); when cargo
//! or the `cc` crate run it under a build-tool name it is the rustc wrapper or the C shim
//! (`tool_role`).
//!
//! Exit codes of `prove` (docs/output-format.md): 0 for every verdict, 2 for bad input or
//! arguments, 101 for an internal error (a panic, printed as MAYBE with `reason: internal
//! error: …`). Workspace mode: 0 gate met, 1 not met, 2 usage, 101 build or internal failure.

mod cache_choice;
mod cc_shim;
mod cli;
mod harness;
mod linear_text;
mod logging;
#[allow(dead_code, unused_imports, reason = "the gate's library API: some items serve its tests, and per-function [[timeout]] entries are not wired to the engine yet")]
mod policy;
mod render_human;
mod render_json;
mod render_proof;
#[allow(unused_imports, reason = "renderer API re-exports, some used by tests only")]
mod report;
mod rustc_wrapper;
mod supervise;
mod terminal_safe;
mod tool_role;
mod workspace;

use clap::Parser;
use cli::{Cli, Command, OutputFormat, ProveArgs};
use std::io::{IsTerminal, Write};
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::time::{Duration, Instant};
use supervise::{run_with_limit, Supervised, GRACE};
use termcheck_engine::analysis::{analyze_module_with_store, FunctionReport, FunctionSelection, ModuleReport};
use termcheck_engine::driver::{load_program_linked, own_functions, prove_file_with_store, InputKind};
use termcheck_engine::config::Config;
use termcheck_engine::driver::load_program_with_clang_args;
use termcheck_engine::ir::Module;
use termcheck_engine::verdict::{MemorySafety, Report, Termination};

/// Exit code for every verdict.
const EXIT_VERDICT: i32 = 0;
/// Exit code for input the engine cannot analyse (missing file, malformed input, …).
const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for an internal error (same as a Rust panic / cargo's failure code).
const EXIT_INTERNAL: i32 = 101;

fn main() {
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // Inside workspace mode's build this binary is also the rustc wrapper and the C shim.
    if let Some(code) = tool_role::dispatch(&argv) {
        std::process::exit(code);
    }
    let cli = match Cli::try_parse_from(cli::normalize_args(argv)) {
        Ok(cli) => cli,
        // clap prints help/version (exit 0) or the usage error (exit 2).
        Err(e) => e.exit(),
    };
    logging::init();
    install_diagnostic_style();
    let code = match cli.command {
        Some(Command::Prove(args)) if args.all_functions => prove_all_functions(args),
        Some(Command::Prove(args)) => prove(args),
        Some(Command::Explain(args)) => explain(args.code.as_deref()),
        None => workspace::run(cli.workspace),
    };
    supervise::exit_after_worker(code);
}

/// `explain [CODE]`: the paragraph of one stable diagnostic code, or the table of all codes;
/// an unknown code is a usage error (exit 2).
#[allow(clippy::print_stdout, clippy::print_stderr, reason = "the CLI prints the explanation")]
fn explain(code: Option<&str>) -> i32 {
    match code {
        None => {
            print!("{}", policy::codes::code_table());
            EXIT_VERDICT
        }
        Some(code) => match policy::codes::explain(code) {
            Some(text) => {
                print!("{text}");
                EXIT_VERDICT
            }
            None => {
                eprintln!("error: unknown diagnostic code `{code}`; `cargo termcheck explain` lists every code");
                EXIT_BAD_INPUT
            }
        },
    }
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

/// The engine's configuration for the command line: `timeout` for the whole run, the
/// per-function limit of `--function-timeout` (default: the whole run) and `--jobs` workers
/// (default: the machine's cores).
fn config_of(args: &ProveArgs, timeout: Duration) -> Config {
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN));
    let config = Config::new(args.int_semantics.into(), timeout)
        .with_jobs(jobs)
        .with_clang_args(args.clang_arguments())
        .with_std_bitcode_cache(cache_choice::std_bitcode_dir(args));
    // One function's budget is what the user gave (default: the whole `--timeout`), not the
    // time left after loading: it is part of the report cache's key, which must not change
    // from run to run. The run's own deadline still cuts every function off in time.
    let limit = Duration::from_secs_f64(args.function_timeout.unwrap_or(args.timeout));
    config.clone().with_function_timeout(limit).unwrap_or(config)
}

/// `prove FILE`: runs the engine on a worker thread and returns the process exit code.
fn prove(args: ProveArgs) -> i32 {
    supervise::set_memory_limit(args.memory_limit);
    let token = termcheck_engine::cancel::CancelToken::new();
    let config = config_of(&args, Duration::from_secs_f64(args.timeout)).with_cancel(token.clone());
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
    match supervise::run_cancelling(wait, &token, run) {
        Supervised::Finished(Ok(report)) => {
            print_report(&report, args.format, start.elapsed());
            if let Some(target) = &args.emit_harness {
                return emit_harness(&args, target, &report);
            }
            EXIT_VERDICT
        }
        #[allow(clippy::print_stderr, reason = "the CLI renders input errors on stderr")]
        Supervised::Finished(Err(error)) => {
            eprintln!("{}", terminal_safe::report(error));
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
            // The worker was cancelled; `_exit` only if it is still running.
            supervise::exit_after_worker(EXIT_VERDICT)
        }
        Supervised::MemoryLimit(megabytes) => {
            let report = maybe_report(supervise::memory_limit_reason(megabytes), is_its);
            print_report(&report, args.format, start.elapsed());
            supervise::exit_after_worker(EXIT_VERDICT)
        }
    }
}

/// `--emit-harness FILE`: writes the C replay harness of the report's witness (`harness`).
/// A report without a replayable witness writes nothing and says why on stderr (exit 0: the
/// verdict stands); a file that cannot be written is bad input (exit 2).
#[allow(clippy::print_stderr, reason = "the CLI reports on stderr why no harness was written")]
fn emit_harness(args: &ProveArgs, target: &std::path::Path, report: &Report) -> i32 {
    let module = match load_program_with_clang_args(&args.file, &args.clang_arguments()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("termcheck: no harness written: {e}");
            return EXIT_VERDICT;
        }
    };
    let source = args.file.display().to_string();
    match harness::harness_text(&module, &args.entry, &source, &args.clang_arguments(), report, args.harness_of) {
        Ok(text) => match std::fs::write(target, text) {
            Ok(()) => EXIT_VERDICT,
            Err(e) => {
                eprintln!("error: cannot write the harness to {}: {e}", target.display());
                EXIT_BAD_INPUT
            }
        },
        Err(e) => {
            eprintln!("termcheck: no harness written: {e}");
            EXIT_VERDICT
        }
    }
}

/// Writes an `--all-functions` result to stdout (a closed stdout is not an error).
fn print_module(functions: &[FunctionReport], report: Option<&ModuleReport>, unfinished: Option<&str>, format: OutputFormat, elapsed: Duration) {
    let text = match format {
        OutputFormat::Human => render_human::module_text(functions, unfinished),
        OutputFormat::Json => {
            let run = render_json::ModuleRun {
                functions,
                analysed: report.map_or(0, |r| r.analysed),
                reused: report.map_or(0, |r| r.reused),
                summaries_stored: report.map_or(0, |r| r.summaries_stored),
                calls_served_from_summaries: report.map_or(0, |r| r.calls_served_from_summaries),
                summaries_loaded_from_disk: report.map_or(0, |r| r.summaries_loaded_from_disk),
                calls_served_from_disk: report.map_or(0, |r| r.calls_served_from_disk),
                seconds: report.map_or(elapsed.as_secs_f64(), |r| r.seconds),
                unfinished,
            };
            render_json::module_json_text(&run, elapsed.as_millis())
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// The run's counts on stderr, after the verdicts (the way cargo reports `Finished`): how
/// many functions were analysed and how many reports came from the cache, the time, and how
/// many callee summaries the run's summary store received and served.
#[allow(clippy::print_stderr, reason = "the CLI reports the run's counts on stderr")]
fn print_run_counts(report: &ModuleReport) {
    eprintln!(
        "termcheck: {} functions: {} analysed, {} reused from the cache, in {:.2} s; callee summaries: {} stored, {} calls served from them; {} summaries loaded from disk, {} calls served from them",
        report.functions.len(),
        report.analysed,
        report.reused,
        report.seconds,
        report.summaries_stored,
        report.calls_served_from_summaries,
        report.summaries_loaded_from_disk,
        report.calls_served_from_disk
    );
}

/// MAYBE for every defined function of `module` (module order), all with `reason`: what an
/// `--all-functions` run prints when the engine gave no report.
fn unfinished_functions(module: &Module, selection: &FunctionSelection, reason: &str) -> Vec<FunctionReport> {
    module
        .functions
        .iter()
        .filter(|f| !f.is_declaration())
        .filter(|f| match selection {
            FunctionSelection::AllDefined => true,
            FunctionSelection::Named(names) => names.contains(&f.name),
        })
        .map(|f| FunctionReport {
            name: f.name.clone(),
            location: f.loc.clone(),
            termination: Termination::Maybe { reason: reason.to_string() },
            memory_safety: MemorySafety::Unknown { reason: reason.to_string() },
            seconds: 0.0,
            stats: vec![],
        })
        .collect()
}

/// `prove FILE --all-functions`: loads the program, then analyses every defined function
/// (`analysis::analyze_module_with_store`, through the report cache like `prove`) with the
/// time left of `--timeout`, each step on a supervised worker thread. Exit codes as `prove`.
fn prove_all_functions(args: ProveArgs) -> i32 {
    supervise::set_memory_limit(args.memory_limit);
    let start = Instant::now();
    let timeout = Duration::from_secs_f64(args.timeout);
    let timeout_reason = format!("timeout after {} s", args.timeout);
    let path = args.file.clone();
    let load_config = config_of(&args, timeout);
    let (module, selection) = match run_with_limit(timeout + GRACE, move || load_program_linked(&path, &load_config)) {
        Supervised::Finished(Ok(loaded)) => {
            let selection = own_functions(&loaded);
            (Arc::new(loaded.module), selection)
        }
        #[allow(clippy::print_stderr, reason = "the CLI renders input errors on stderr")]
        Supervised::Finished(Err(error)) => {
            eprintln!("{}", terminal_safe::report(error));
            return EXIT_BAD_INPUT;
        }
        Supervised::Panicked(message) => {
            print_module(&[], None, Some(&format!("internal error: {message}")), args.format, start.elapsed());
            return EXIT_INTERNAL;
        }
        Supervised::TimedOut => {
            print_module(&[], None, Some(&timeout_reason), args.format, start.elapsed());
            supervise::exit_abandoning_worker(EXIT_VERDICT)
        }
        Supervised::MemoryLimit(megabytes) => {
            print_module(&[], None, Some(&supervise::memory_limit_reason(megabytes)), args.format, start.elapsed());
            supervise::exit_abandoning_worker(EXIT_VERDICT)
        }
    };
    let remaining = timeout.saturating_sub(start.elapsed());
    if remaining.is_zero() {
        let functions = unfinished_functions(&module, &selection, &timeout_reason);
        print_module(&functions, None, Some(&timeout_reason), args.format, start.elapsed());
        return EXIT_VERDICT;
    }
    let token = termcheck_engine::cancel::CancelToken::new();
    let config = config_of(&args, remaining).with_cancel(token.clone());
    let shared = Arc::clone(&module);
    let store = cache_choice::store_for(&args);
    let wanted = selection.clone();
    let outcome = supervise::run_cancelling(remaining + GRACE, &token, move || {
        analyze_module_with_store(&shared, &config, &wanted, store.as_ref())
    });
    match outcome {
        Supervised::Finished(report) => {
            print_module(&report.functions, Some(&report), None, args.format, start.elapsed());
            if args.format == OutputFormat::Human {
                print_run_counts(&report);
            }
            EXIT_VERDICT
        }
        Supervised::Panicked(message) => {
            let reason = format!("internal error: {message}");
            print_module(&unfinished_functions(&module, &selection, &reason), None, Some(&reason), args.format, start.elapsed());
            EXIT_INTERNAL
        }
        Supervised::TimedOut => {
            print_module(&unfinished_functions(&module, &selection, &timeout_reason), None, Some(&timeout_reason), args.format, start.elapsed());
            supervise::exit_after_worker(EXIT_VERDICT)
        }
        Supervised::MemoryLimit(megabytes) => {
            let reason = supervise::memory_limit_reason(megabytes);
            print_module(&unfinished_functions(&module, &selection, &reason), None, Some(&reason), args.format, start.elapsed());
            supervise::exit_after_worker(EXIT_VERDICT)
        }
    }
}

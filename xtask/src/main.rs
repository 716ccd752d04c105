//! Project automation: `cargo xtask bench DIR` runs the release binary on a benchmark folder
//! with known answers and prints the score (see README.md, "Benchmarks").
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "the benchmark runner reports on the terminal")]

mod differential;
mod expected;
mod gen_modular;
mod its_replay;
mod loop_lines;
mod replay;
mod replay_math;
mod replay_math_ops;
#[cfg(test)]
mod replay_math_tests;
mod replay_math_witness;
mod runner;
mod scoring;
mod summary;

use clap::{Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use summary::Scored;

/// Extra time beyond `--timeout` before the runner kills a program's process.
const KILL_SLACK: Duration = Duration::from_secs(10);

#[derive(Parser, Debug)]
#[command(name = "cargo xtask", about = "termcheck project automation")]
struct Cli {
    #[command(subcommand)]
    command: Task,
}

#[derive(Subcommand, Debug)]
enum Task {
    /// Run the release binary on every program of DIR/expected.tsv and score the answers.
    Bench(BenchArgs),
    /// Write a generated C module for the modular analysis / report cache benchmark.
    GenModular(GenModularArgs),
    /// Write random small C programs with loops for the differential check (gen_<seed>.c).
    GenDiff(GenDiffArgs),
    /// Run the release binary on every .c file of DIR and check each answer by native execution.
    DiffCheck(DiffCheckArgs),
    /// Check that every loop a YES proof names (JSON `loops`) is at a loop statement, over DIR/expected.tsv.
    LoopLines(FolderRun),
    /// Replay every NO/violated witness of DIR/expected.tsv: C through its generated harness, ITS in an ITS interpreter.
    Replay(ReplayArgs),
}

#[derive(clap::Args, Debug)]
struct ReplayArgs {
    #[command(flatten)]
    folder: FolderRun,
    /// Seconds a NO's replay must keep running.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    run_limit: u64,
    /// Only the programs whose expected answer is not YES (NO, UNSAFE/UB, UNKNOWN): where
    /// witnesses are due; a witness on a YES program is a wrong answer `bench` counts.
    #[arg(long)]
    skip_yes: bool,
    /// Also replay every C witness the native harness reproduces in the replay interpreter
    /// (a cross-check of the two; a disagreement of either fails the command).
    #[arg(long)]
    also_interpret: bool,
}

/// A run of the binary over one benchmark folder (`loop-lines`, `replay`).
#[derive(clap::Args, Debug)]
struct FolderRun {
    /// Benchmark folder with an expected.tsv.
    dir: PathBuf,
    /// Programs analysed in parallel.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// `--timeout` of each analysis.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Integer semantics passed to the binary (`wrap` builds replays with -fwrapv).
    #[arg(long, value_enum, default_value_t = IntSemantics::C)]
    int_semantics: IntSemantics,
    /// Binary to run (default: target/release/cargo-termcheck of this workspace).
    #[arg(long)]
    binary: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct GenDiffArgs {
    /// Seed of the first program; program i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of programs.
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Output folder.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct DiffCheckArgs {
    /// Folder of C programs (e.g. written by gen-diff).
    dir: PathBuf,
    /// Programs checked in parallel.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// `--timeout` of each analysis in seconds, fractions allowed (integer semantics `c`).
    #[arg(long, default_value_t = 5.0, value_parser = positive_seconds)]
    timeout: f64,
    /// Write per-program results as TSV (path, verdict, memory_safety, seconds,
    /// native_seconds, finding, detail).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Loop iterations a NO witness of a loop-counted (generated) program must run through at
    /// -O2 (default 2^32 + 2^20: past a 32-bit wrap-around).
    #[arg(long)]
    no_loop_bound: Option<u64>,
    /// CPU seconds after which a NO witness still running at -O2 counts as running on
    /// (default 5; the loop-iteration bound above usually ends the run first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    no_cpu_seconds: Option<u64>,
    /// Binary to run (default: target/release/cargo-termcheck of this workspace).
    #[arg(long)]
    binary: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct GenModularArgs {
    /// Number of functions (including `main`).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(20..=1_000_000))]
    functions: u64,
    /// Seed of the generator (same seed, same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Change one constant of the leaf `f0` (same line and columns).
    #[arg(long)]
    edit_leaf: bool,
    /// Output file.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Benchmark folder with an expected.tsv (`path<TAB>expected`, paths relative to DIR).
    dir: PathBuf,
    /// Programs analysed in parallel.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: u64,
    /// Per-program limit passed to `--timeout`; the process is killed 10 s later.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Integer semantics passed to the binary (tpdb-c is scored with math, paper-examples with c).
    #[arg(long, value_enum, default_value_t = IntSemantics::Math)]
    int_semantics: IntSemantics,
    /// Only programs whose path contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Write per-file results as TSV (path, expected, got, memory_safety, seconds, outcome, detail).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Binary to run (default: target/release/cargo-termcheck of this workspace).
    #[arg(long)]
    binary: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum IntSemantics {
    C,
    Wrap,
    Math,
}

impl IntSemantics {
    fn word(self) -> &'static str {
        match self {
            IntSemantics::C => "c",
            IntSemantics::Wrap => "wrap",
            IntSemantics::Math => "math",
        }
    }
}

/// `target/release/cargo-termcheck` of this workspace (honouring CARGO_TARGET_DIR).
/// Parses a positive, finite number of seconds (`diff-check --timeout`).
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e7 => Ok(s),
        _ => Err(format!("a positive number of seconds (at most 10^7), got {text}")),
    }
}

fn default_binary() -> PathBuf {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace");
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace.join("target"));
    let target = if target.is_absolute() { target } else { workspace.join(target) };
    target.join("release").join("cargo-termcheck")
}

fn bench(args: BenchArgs) -> Result<bool, String> {
    let binary = args.binary.clone().unwrap_or_else(default_binary);
    if !binary.is_file() {
        return Err(format!(
            "{} not found: build it first with `cargo build --release -p cargo-termcheck`",
            binary.display()
        ));
    }
    let mut rows = expected::read_expected(&args.dir)?;
    if let Some(filter) = &args.filter {
        rows.retain(|r| r.path.contains(filter.as_str()));
    }
    if rows.is_empty() {
        return Err("no programs to run (empty expected.tsv or --filter matched nothing)".into());
    }
    let header = format!(
        "bench: {} programs from {}, timeout {} s, int-semantics {}, {} jobs, binary {}",
        rows.len(),
        args.dir.display(),
        args.timeout,
        args.int_semantics.word(),
        args.jobs,
        binary.display()
    );
    eprintln!("{header}");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.jobs as usize).build().map_err(|e| e.to_string())?;
    let kill_after = Duration::from_secs(args.timeout) + KILL_SLACK;
    let done = AtomicUsize::new(0);
    let total = rows.len();
    let start = Instant::now();
    let results: Vec<Scored> = pool.install(|| {
        rows.into_par_iter()
            .map(|row| {
                let file = args.dir.join(&row.path);
                let run = runner::run_one(&binary, &file, args.timeout, args.int_semantics.word(), kill_after);
                let scored = Scored::new(row, run);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!(
                    "[{n:>4}/{total}] {:<8} {:<8} {:>6.1}s {}",
                    scoring::answer(&scored.run),
                    scored.row.expected.word(),
                    scored.run.seconds,
                    scored.row.path
                );
                scored
            })
            .collect()
    });
    let wall = start.elapsed().as_secs_f64();
    if let Some(out) = &args.out {
        std::fs::write(out, summary::tsv_text(&results)).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        eprintln!("bench: per-file results in {}", out.display());
    }
    print!("{header}\n{}{}", summary::summary_text(&results, wall), summary::resources_text(&results, args.timeout));
    Ok(results.iter().all(|s| s.outcome != scoring::Outcome::Wrong))
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Task::Bench(args) => bench(args),
        Task::GenModular(args) => {
            let text = gen_modular::generate(args.functions as usize, args.seed, args.edit_leaf);
            std::fs::write(&args.out, text).map(|()| true).map_err(|e| format!("cannot write {}: {e}", args.out.display()))
        }
        Task::GenDiff(args) => differential::generate(args.seed, args.count, &args.out).map(|()| true),
        Task::LoopLines(f) => {
            let binary = f.binary.clone().unwrap_or_else(default_binary);
            let kill_after = Duration::from_secs(f.timeout) + KILL_SLACK;
            loop_lines::run(&binary, &f.dir, f.timeout, f.int_semantics.word(), f.jobs as usize, kill_after)
        }
        Task::Replay(args) => {
            let f = &args.folder;
            let binary = f.binary.clone().unwrap_or_else(default_binary);
            let kill_after = Duration::from_secs(f.timeout) + KILL_SLACK;
            replay::run(&binary, &f.dir, f.timeout, f.int_semantics.word(), f.jobs as usize, Duration::from_secs(args.run_limit), kill_after, args.skip_yes, args.also_interpret)
        }
        Task::DiffCheck(args) => {
            let binary = args.binary.clone().unwrap_or_else(default_binary);
            let mut bounds = termcheck_tests::real_exec::LoopBounds::default();
            if let Some(n) = args.no_loop_bound {
                bounds.no_optimised = n;
            }
            if let Some(s) = args.no_cpu_seconds {
                bounds.no_cpu_seconds = s;
            }
            differential::check(&binary, &args.dir, args.timeout, args.jobs as usize, args.out.as_deref(), &bounds)
        }
    };
    match result {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("xtask: some answers are WRONG (listed above)");
            std::process::exit(1);
        }
        Err(message) => {
            eprintln!("error: {message}");
            std::process::exit(2);
        }
    }
}

//! Whole-module benchmark driver for the report cache (BENCHMARKS.md, "Modular analysis"):
//! `modular_bench FILE.c [--jobs 2] [--timeout 600] [--function-timeout 30] [--cache-dir DIR]
//! [--int-semantics c|wrap|math]` analyses every defined function of FILE with
//! `analyze_module_with_store` (`FunctionSelection::AllDefined`) and prints the counts,
//! verdict totals and wall time. Without `--cache-dir` nothing is cached.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a benchmark tool that prints its results")]

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use termcheck_engine::analysis::{analyze_module_with_store, FunctionSelection};
use termcheck_engine::cache::disk::{CacheMode, DiskStore};
use termcheck_engine::cache::{NoStore, ReportStore};
use termcheck_engine::config::Config;
use termcheck_engine::driver::InputKind;
use termcheck_engine::verdict::{IntSemantics, MemorySafety, Termination};

fn main() {
    let mut args = std::env::args().skip(1);
    let mut file = None;
    let (mut jobs, mut timeout, mut function_timeout) = (2usize, 600.0f64, 30.0f64);
    let mut cache_dir: Option<PathBuf> = None;
    let mut semantics = IntSemantics::C;
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--jobs" => jobs = value().parse().expect("--jobs N"),
            "--timeout" => timeout = value().parse().expect("--timeout SECS"),
            "--function-timeout" => function_timeout = value().parse().expect("--function-timeout SECS"),
            "--cache-dir" => cache_dir = Some(PathBuf::from(value())),
            "--int-semantics" => {
                semantics = match value().as_str() {
                    "c" => IntSemantics::C,
                    "wrap" => IntSemantics::Wrap,
                    "math" => IntSemantics::Math,
                    other => panic!("unknown semantics {other}"),
                }
            }
            _ => file = Some(PathBuf::from(a)),
        }
    }
    let file = file.expect("usage: modular_bench FILE.c [--jobs N] [--cache-dir DIR] ...");
    let config = Config::new(semantics, Duration::from_secs_f64(timeout))
        .with_function_timeout(Duration::from_secs_f64(function_timeout))
        .expect("positive function timeout")
        .with_jobs(NonZeroUsize::new(jobs).expect("--jobs at least 1"));
    let started = Instant::now();
    let module = termcheck_engine::frontend::load_module(&file, InputKind::C).unwrap_or_else(|e| panic!("{e}"));
    let loaded = started.elapsed();
    let store: Box<dyn ReportStore> = match &cache_dir {
        Some(dir) => Box::new(DiskStore::new(dir, CacheMode::ReadWrite)),
        None => Box::new(NoStore),
    };
    let report = analyze_module_with_store(&module, &config, &FunctionSelection::AllDefined, store.as_ref());
    let (mut yes, mut no, mut maybe, mut proved) = (0, 0, 0, 0);
    for f in &report.functions {
        match f.termination {
            Termination::Yes(_) => yes += 1,
            Termination::No(_) => no += 1,
            Termination::Maybe { .. } => maybe += 1,
        }
        proved += usize::from(f.memory_safety == MemorySafety::Proved);
    }
    println!("functions: {}", report.functions.len());
    println!("analysed: {}", report.analysed);
    println!("reused from cache: {}", report.reused);
    println!("YES {yes}, NO {no}, MAYBE {maybe}; memory safety proved {proved}");
    println!("cache problems: {:?}", store.stats());
    println!("load: {:.3}s, analysis: {:.3}s, total: {:.3}s", loaded.as_secs_f64(), report.seconds, started.elapsed().as_secs_f64());
}

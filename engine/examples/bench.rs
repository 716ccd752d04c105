//! In-process benchmark runner (for profiling; `cargo xtask bench` is the official one):
//! `bench DIR [--jobs 2] [--timeout 30] [--int-semantics c|wrap|math] [--filter S]`;
//! set `RUST_LOG=termcheck_engine=debug` for per-phase timings.
//!
//! Works for C and ITS folders alike (tpdb-c is scored with `--int-semantics math`,
//! paper-examples with `c`); prints the memory-safety verdict per file and counts a YES on an
//! `UNSAFE` program as wrong.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "a profiling tool that prints its results")]

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use termcheck_engine::config::Config;
use termcheck_engine::verdict::{IntSemantics, MemorySafety, Termination};

struct Row {
    path: String,
    expected: String,
    answer: String,
    detail: String,
    secs: f64,
}

fn main() {
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::from_default_env()).with_writer(std::io::stderr).init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut dir = None;
    let mut jobs = 2usize;
    let mut timeout = 30u64;
    let mut filter = None;
    let mut sem = IntSemantics::C;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--jobs" => {
                jobs = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(2).clamp(1, 2);
                i += 1;
            }
            "--timeout" => {
                timeout = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(30);
                i += 1;
            }
            "--int-semantics" => {
                sem = match args.get(i + 1).map(|s| s.as_str()) {
                    Some("math") => IntSemantics::Math,
                    Some("wrap") => IntSemantics::Wrap,
                    _ => IntSemantics::C,
                };
                i += 1;
            }
            "--filter" => {
                filter = args.get(i + 1).cloned();
                i += 1;
            }
            other => dir = Some(PathBuf::from(other)),
        }
        i += 1;
    }
    let Some(dir) = dir else {
        eprintln!("usage: bench DIR [--jobs 2] [--timeout 30] [--int-semantics c|wrap|math] [--filter SUBSTRING]");
        std::process::exit(2);
    };
    let tsv = match std::fs::read_to_string(dir.join("expected.tsv")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {}/expected.tsv: {e}", dir.display());
            std::process::exit(2);
        }
    };
    let tasks: Vec<(String, String)> = tsv
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut parts = l.split('\t');
            Some((parts.next()?.to_string(), parts.next()?.trim().to_string()))
        })
        .filter(|(p, _)| filter.as_ref().is_none_or(|f| p.contains(f.as_str())))
        .collect();
    let tasks = Arc::new(tasks);
    let next = Arc::new(AtomicUsize::new(0));
    let rows = Arc::new(Mutex::new(Vec::new()));
    let mut handles = Vec::new();
    for _ in 0..jobs {
        let (tasks, next, rows, dir) = (tasks.clone(), next.clone(), rows.clone(), dir.clone());
        handles.push(std::thread::spawn(move || loop {
            let k = next.fetch_add(1, Ordering::SeqCst);
            let Some((path, expected)) = tasks.get(k) else { break };
            let config = Config::new(sem, Duration::from_secs(timeout));
            let t0 = Instant::now();
            let result = termcheck_engine::driver::prove_file(&dir.join(path), "main", &config);
            let secs = t0.elapsed().as_secs_f64();
            let (answer, detail) = match result {
                Ok(report) => {
                    let ms = match &report.memory_safety {
                        Some(MemorySafety::Proved) => "proved".to_string(),
                        Some(MemorySafety::Violated(v)) => format!("violated: {}", v.message),
                        Some(MemorySafety::Unknown { reason }) => format!("unknown: {reason}"),
                        None => "-".into(),
                    };
                    match report.termination {
                        Termination::Yes(_) => ("YES".to_string(), format!("[ms {ms}]")),
                        Termination::No(w) => ("NO".to_string(), format!("[ms {ms}] {}", w.description.join(" | "))),
                        Termination::Maybe { reason } => ("MAYBE".to_string(), format!("[ms {ms}] {reason}")),
                    }
                }
                Err(e) => ("ERROR".to_string(), e.to_string()),
            };
            eprintln!("{path}\t{expected}\t{answer}\t{secs:.2}s\t{}", detail.chars().take(300).collect::<String>());
            if let Ok(mut r) = rows.lock() {
                r.push(Row { path: path.clone(), expected: expected.clone(), answer, detail, secs });
            }
        }));
    }
    for h in handles {
        let _ = h.join();
    }
    let rows = rows.lock().map(|mut r| std::mem::take(&mut *r)).unwrap_or_default();
    let count = |a: &str| rows.iter().filter(|r| r.answer == a).count();
    let wrong: Vec<&Row> = rows
        .iter()
        .filter(|r| (r.answer == "YES" && (r.expected == "NO" || r.expected == "UNSAFE")) || (r.answer == "NO" && r.expected == "YES"))
        .collect();
    let mut times: Vec<f64> = rows.iter().map(|r| r.secs).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    let median = if times.is_empty() { 0.0 } else { times[times.len() / 2] };
    let total: f64 = times.iter().sum();
    println!("problems: {}", rows.len());
    println!("YES: {}  NO: {}  MAYBE: {}  errors: {}  wrong: {}", count("YES"), count("NO"), count("MAYBE"), count("ERROR"), wrong.len());
    println!("median time: {median:.3} s  total: {total:.1} s");
    for r in &wrong {
        println!("WRONG {} expected {} got {} ({})", r.path, r.expected, r.answer, r.detail);
    }
    for r in rows.iter().filter(|r| r.answer == "ERROR") {
        println!("ERROR {}: {}", r.path, r.detail);
    }
}

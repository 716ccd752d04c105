//! The differential check of issue 12: `gen-diff` writes random C programs
//! (`termcheck_tests::generated_c`), `diff-check` runs termcheck on each and checks every
//! answer by native execution (`termcheck_tests::real_exec`): a NO witness must keep running,
//! a YES must end on boundary and random inputs, a `violated` must make a sanitizer report.
//! Any answer execution contradicts is a disagreement: a soundness bug.
//!
//! Generated programs count their loop iterations (`TC_STEP()`, see `generated_c`): their NO
//! and YES answers are checked against loop-iteration bounds (`real_exec::counted`), which
//! are deterministic and cost a NO witness only the time of its bound. Other programs (no
//! `TC_STEP`) get the wall-clock checks of `real_exec::check`.

use crate::runner;
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use termcheck_tests::generated_c::{program, Seeded};
use termcheck_tests::real_exec::{
    check_no_witness, check_no_witness_counted, check_terminates, check_terminates_counted, check_violation, check_violation_counted, Answer, LoopBounds, Native,
};

/// Writes programs `seed .. seed+count` as `DIR/gen_<seed>.c`.
pub fn generate(seed: u64, count: u64, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for s in seed..seed.saturating_add(count) {
        let path = out.join(format!("gen_{s}.c"));
        std::fs::write(&path, program(&mut Seeded::new(s))).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// What the check concluded for one program.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Finding {
    /// The answer was checked by execution and holds (or MAYBE: nothing to check).
    Agrees,
    /// Execution contradicts the answer.
    Disagrees(String),
    /// termcheck gave no answer (exit code other than 0, or output not parsed).
    NoAnswer(String),
}

struct Checked {
    path: PathBuf,
    verdict: String,
    memory: String,
    seconds: f64,
    /// Wall time of the native checks (compiling and running), for the profile of a run.
    native_seconds: f64,
    finding: Finding,
    note: String,
}

/// Whether `path` is a program whose loops count their iterations (`generated_c`).
fn counts_loops(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| text.contains("#ifdef TC_LOOP_STEPS") && text.contains("TC_STEP();"))
}

fn examine(binary: &Path, native: &Native, path: &Path, timeout: f64, bounds: &LoopBounds) -> Checked {
    let mut checked = Checked { path: path.to_path_buf(), verdict: "-".into(), memory: "-".into(), seconds: 0.0, native_seconds: 0.0, finding: Finding::Agrees, note: String::new() };
    let run = runner::run_json(binary, path, timeout, Duration::from_secs_f64(timeout) + Duration::from_secs(10));
    checked.seconds = run.seconds;
    if run.exit != Some(0) {
        checked.finding = Finding::NoAnswer(format!("exit {:?}: {}", run.exit, run.stderr_head));
        return checked;
    }
    let answer = match Answer::parse(&run.stdout) {
        Ok(a) => a,
        Err(e) => {
            checked.finding = Finding::NoAnswer(e);
            return checked;
        }
    };
    checked.verdict = answer.verdict.clone();
    checked.memory = answer.memory_safety.clone();
    let mut wrong = Vec::new();
    let counted = counts_loops(path);
    let native_start = Instant::now();
    if let Some(feed) = &answer.no_witness {
        let reproduced = if counted { check_no_witness_counted(native, path, feed, bounds) } else { check_no_witness(native, path, feed) };
        if let Err(e) = reproduced {
            wrong.push(format!("NO witness not reproduced: {e}"));
        }
    }
    if answer.verdict == "YES" {
        match if counted { check_terminates_counted(native, path, bounds) } else { check_terminates(native, path) } {
            Ok(_) => {}
            // A sanitizer report refutes memory safety, which only a `proved` claims; a YES
            // about termination alone is refuted only by a run that does not end.
            Err(e) if answer.memory_safety != "proved" && e.contains("sanitizer report") => checked.note = format!("YES with memory {}: {e}", answer.memory_safety),
            Err(e) => wrong.push(format!("YES refuted: {e}")),
        }
    }
    if let Some(violation) = &answer.violation {
        let confirmed = if counted { check_violation_counted(native, path, &violation.inputs) } else { check_violation(native, path, &violation.inputs) };
        if let Err(e) = confirmed {
            wrong.push(format!("violation ({}) not confirmed: {e}", violation.kind));
        }
    }
    checked.native_seconds = native_start.elapsed().as_secs_f64();
    if answer.verdict == "MAYBE" {
        checked.note = answer.reason.unwrap_or_default().lines().next().unwrap_or("").chars().take(100).collect();
    }
    if !wrong.is_empty() {
        checked.finding = Finding::Disagrees(wrong.join("; "));
    }
    checked
}

/// `diff-check DIR`: every `.c` file of DIR (sorted) checked; the summary on stdout, per-file
/// rows to `out` if given. Ok(false) when any answer disagrees with execution.
pub fn check(binary: &Path, dir: &Path, timeout: f64, jobs: usize, out: Option<&Path>, bounds: &LoopBounds) -> Result<bool, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .c files in {}", dir.display()));
    }
    let native = Native::new()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let done = AtomicUsize::new(0);
    let total = files.len();
    let start = Instant::now();
    let results: Vec<Checked> = pool.install(|| {
        files
            .par_iter()
            .map(|path| {
                let c = examine(binary, &native, path, timeout, bounds);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                let mark = match &c.finding {
                    Finding::Agrees => "ok",
                    Finding::Disagrees(_) => "DISAGREE",
                    Finding::NoAnswer(_) => "no-answer",
                };
                eprintln!("[{n:>5}/{total}] {mark:<9} {:<5} {:<9} {:>5.1}s {:>5.1}s {}", c.verdict, c.memory, c.seconds, c.native_seconds, c.path.display());
                c
            })
            .collect()
    });
    if let Some(out) = out {
        let mut tsv = String::from("path\tverdict\tmemory_safety\tseconds\tnative_seconds\tfinding\tdetail\n");
        for c in &results {
            let (finding, detail) = match &c.finding {
                Finding::Agrees => ("agrees", c.note.clone()),
                Finding::Disagrees(d) => ("DISAGREES", d.clone()),
                Finding::NoAnswer(d) => ("no-answer", d.clone()),
            };
            let _ = writeln!(tsv, "{}\t{}\t{}\t{:.3}\t{:.3}\t{finding}\t{}", c.path.display(), c.verdict, c.memory, c.seconds, c.native_seconds, detail.replace(['\t', '\n'], " "));
        }
        std::fs::write(out, tsv).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    print!("{}", summary(&results, start.elapsed().as_secs_f64()));
    Ok(results.iter().all(|c| !matches!(c.finding, Finding::Disagrees(_))))
}

fn summary(results: &[Checked], wall: f64) -> String {
    let count = |f: &dyn Fn(&Checked) -> bool| results.iter().filter(|c| f(c)).count();
    let mut out = String::new();
    let _ = writeln!(out, "{:<28}{:>6}", "programs", results.len());
    for verdict in ["YES", "NO", "MAYBE"] {
        let _ = writeln!(out, "{:<28}{:>6}", format!("{verdict} answers"), count(&|c| c.verdict == verdict));
    }
    let _ = writeln!(out, "{:<28}{:>6}", "memory-safety violated", count(&|c| c.memory == "violated"));
    let checked = count(&|c| c.verdict == "YES" || c.verdict == "NO" || c.memory == "violated");
    let _ = writeln!(out, "{:<28}{:>6}", "answers checked by running", checked);
    let _ = writeln!(out, "{:<28}{:>6}", "no answer (exit ≠ 0)", count(&|c| matches!(c.finding, Finding::NoAnswer(_))));
    let _ = writeln!(out, "{:<28}{:>6}", "DISAGREEMENTS", count(&|c| matches!(c.finding, Finding::Disagrees(_))));
    let _ = writeln!(out, "{:<28}{wall:>8.1} s", "wall time");
    for c in results {
        match &c.finding {
            Finding::Disagrees(d) => {
                let _ = writeln!(out, "  DISAGREES {}: {} / memory {}: {d}", c.path.display(), c.verdict, c.memory);
            }
            Finding::NoAnswer(d) => {
                let _ = writeln!(out, "  no answer {}: {d}", c.path.display());
            }
            Finding::Agrees => {}
        }
    }
    out
}

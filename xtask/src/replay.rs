//! `cargo xtask replay DIR`: every NO and every memory-safety violation the binary reports on
//! the C programs of DIR/expected.tsv is replayed natively through its `--emit-harness`
//! harness, built as docs/output-format.md says (clang-22 -O0 -fno-finite-loops, the
//! program's `main` renamed): a NO must still run after `--run-limit` seconds, a violation
//! must be reported by ASan/UBSan (built with -fsanitize=address,undefined). Programs whose
//! verdict has no harness (the reason is on stderr) are counted apart. Figures in BENCHMARKS.md.

use crate::expected::read_expected;
use crate::runner::run_process;
use rayon::prelude::*;
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

/// The result of one program.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Replay {
    /// No NO and no violation: nothing to replay.
    Nothing,
    /// A witness, but no harness was written (e.g. pointer inputs).
    NoHarness,
    /// The harness does not build.
    BuildFailed,
    /// The harness reproduced the NO (still running) or the violation (sanitizer report).
    Reproduced,
    /// The harness ran but did not reproduce the witness.
    NotReproduced,
}

/// Replays one program's witness; `work` is an empty scratch folder.
fn replay_one(binary: &Path, file: &Path, timeout: u64, int_semantics: &str, run_limit: Duration, work: &Path, kill_after: Duration) -> (Replay, String) {
    let harness = work.join("harness.c");
    let t = timeout.to_string();
    let args: Vec<&OsStr> = vec!["prove".as_ref(), file.as_os_str(), "--timeout".as_ref(), t.as_ref(), "--int-semantics".as_ref(), int_semantics.as_ref(), "--no-cache".as_ref(), "--emit-harness".as_ref(), harness.as_os_str()];
    let run = run_process(binary, &args, kill_after);
    let violated = run.memory_safety.as_deref() == Some("violated");
    let no = run.first_line == "NO";
    if !violated && !no {
        return (Replay::Nothing, String::new());
    }
    if !harness.is_file() {
        return (Replay::NoHarness, run.stderr_head);
    }
    let exe = work.join("replay");
    let mut build: Vec<&OsStr> = ["-O0", "-g", "-fno-finite-loops", "-w", "-Dmain=__termcheck_program_main"].map(OsStr::new).to_vec();
    if int_semantics == "wrap" {
        build.push("-fwrapv".as_ref());
    }
    if violated {
        build.extend(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"].map(OsStr::new));
    }
    build.extend([file.as_os_str(), harness.as_os_str(), "-o".as_ref(), exe.as_os_str()]);
    let compiled = run_process(Path::new("clang-22"), &build, kill_after);
    if compiled.exit != Some(0) {
        return (Replay::BuildFailed, compiled.stderr_head);
    }
    let limit = if violated { kill_after } else { run_limit };
    // through `sh` so that the sanitizer's report (stderr) is in `stdout`
    let ran = run_process(Path::new("sh"), &["-c".as_ref(), "exec \"$0\" 2>&1".as_ref(), exe.as_os_str()], limit);
    let reproduced = if violated {
        ran.exit != Some(0) && !ran.killed && (ran.stdout.contains("Sanitizer") || ran.stdout.contains("runtime error"))
    } else {
        ran.killed
    };
    let what = if violated { "violation" } else { "NO" };
    if reproduced {
        (Replay::Reproduced, what.into())
    } else {
        (Replay::NotReproduced, format!("{what}: exit {:?}, killed {}, output `{}`", ran.exit, ran.killed, ran.stdout.lines().take(3).collect::<Vec<_>>().join(" / ")))
    }
}

/// Runs the replay over every `.c` program of `dir`'s expected.tsv; `Ok(false)` when a
/// harness was built but did not reproduce its witness.
#[allow(clippy::too_many_arguments, reason = "the command's options, passed through")]
pub fn run(binary: &Path, dir: &Path, timeout: u64, int_semantics: &str, jobs: usize, run_limit: Duration, kill_after: Duration) -> Result<bool, String> {
    let rows: Vec<_> = read_expected(dir)?.into_iter().filter(|r| r.path.ends_with(".c")).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let scratch = std::env::temp_dir().join(format!("xtask-replay-{}", std::process::id()));
    let results: Vec<(String, Replay, String)> = pool.install(|| {
        rows.into_par_iter()
            .enumerate()
            .map(|(i, row)| {
                let work = scratch.join(i.to_string());
                if std::fs::create_dir_all(&work).is_err() {
                    return (row.path.clone(), Replay::BuildFailed, "no scratch folder".into());
                }
                let (r, detail) = replay_one(binary, &dir.join(&row.path), timeout, int_semantics, run_limit, &work, kill_after);
                std::fs::remove_dir_all(&work).ok();
                (row.path.clone(), r, detail)
            })
            .collect()
    });
    std::fs::remove_dir_all(&scratch).ok();
    let count = |k: Replay| results.iter().filter(|(_, r, _)| *r == k).count();
    for (path, r, detail) in &results {
        if matches!(r, Replay::NoHarness | Replay::BuildFailed | Replay::NotReproduced) {
            println!("{r:?} {path}: {detail}");
        }
    }
    let witnesses = results.len() - count(Replay::Nothing);
    println!(
        "replay: {} C programs from {}, {witnesses} NO/violated, {} reproduced by the harness, {} not reproduced, {} without a harness, {} harnesses that do not build",
        results.len(),
        dir.display(),
        count(Replay::Reproduced),
        count(Replay::NotReproduced),
        count(Replay::NoHarness),
        count(Replay::BuildFailed)
    );
    Ok(count(Replay::NotReproduced) == 0)
}

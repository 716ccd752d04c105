//! `cargo xtask replay DIR`: every NO and every memory-safety violation the binary reports on
//! the programs of DIR/expected.tsv is replayed.
//!
//! C programs: natively, through the `--emit-harness` harness, built as docs/output-format.md
//! says (clang-22 -O0 -fno-finite-loops, the program's `main` renamed): a NO must still run
//! after `--run-limit` seconds, a violation must be reported by ASan/UBSan (built with
//! -fsanitize=address,undefined). A report with both is replayed twice (`--harness-of`).
//! Under `--int-semantics math` a NO holds over mathematical integers, which C's
//! fixed-width types are not: its harness is built with sanitizers that report every step
//! leaving them (`MATH_SANITIZERS`). A NO whose native run is reported is counted apart as
//! holding over ℤ only — the engine's interpreter confirmed it in math semantics, C cannot;
//! one still running after `--run-limit` seconds without a report is reproduced (concrete
//! lassos and recurrent sets over ℤ alike: the harness feeds the set's inputs), and one that
//! ends without a report ran the math run to its end: it disagrees.
//!
//! A NO the native harness does not reproduce — no harness (the run reads uninitialised
//! values), or over ℤ only — is replayed by the replay interpreter of `replay_math.rs`, an
//! interpreter of the engine front end's IR over unbounded integers (`--also-interpret`:
//! every C NO, as a cross-check); the listing says which replay reproduced a witness.
//!
//! ITS inputs (`.smt2`, `.koat`): the JSON witness's `its_lasso` is replayed by the ITS
//! interpreter of `its_replay.rs`.
//!
//! Every witness ends in one of three kinds of result: replayed (reproduced, or over ℤ only);
//! not replayed, with the reason (no harness — the binary's stderr says why —, a harness that
//! does not build, the ITS interpreter's budget, a bounded ITS search that guessed or cut);
//! or **disagrees** (the harness ended, no sanitizer report, an exact ITS check failed): a
//! soundness alarm, which makes the command fail. Figures in BENCHMARKS.md.

use crate::expected::read_expected;
use crate::runner::run_process;
use rayon::prelude::*;
use std::ffi::OsStr;
use std::path::Path;
use std::time::Duration;

/// The result of one witness.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Replay {
    /// A witness, but no harness was written (e.g. values no C call gives).
    NoHarness,
    /// The harness does not build.
    BuildFailed,
    /// The harness reproduced the NO (still running) or the violation (sanitizer report).
    Reproduced,
    /// Under `math`: the NO holds over mathematical integers only (a recurrent set over ℤ, or a
    /// native run that overflows a signed type), and the replay interpreter did not reproduce it.
    OverIntegersOnly,
    /// A witness the native harness cannot reproduce (over ℤ only, or no harness) reproduced
    /// by the replay interpreter (`replay_math.rs`) in the command's integer semantics.
    Interpreted,
    /// With `--also-interpret`: reproduced natively and by the replay interpreter.
    Both,
    /// ITS: the interpreter's budget ran out before the witness was reproduced or refuted.
    Undecided,
    /// ITS: not reproduced by a bounded search that guessed or cut (or the witness lacks a
    /// part the replay needs): not replayed, nothing refuted.
    NotFound,
    /// The replay contradicts the witness: the harness ran and ended (NO) or no sanitizer
    /// reported (violation), or an exact check of the ITS interpreter failed. A soundness
    /// alarm: the command fails.
    Disagrees,
}

impl Replay {
    /// Why a witness was not replayed, for the ones that were not (`None`: replayed, or it
    /// disagrees).
    fn not_replayed_because(self) -> Option<&'static str> {
        match self {
            Replay::NoHarness => Some("no harness"),
            Replay::BuildFailed => Some("the harness does not build"),
            Replay::Undecided => Some("the interpreter's budget ran out"),
            Replay::NotFound => Some("not found by the bounded search"),
            Replay::Reproduced | Replay::OverIntegersOnly | Replay::Interpreted | Replay::Both | Replay::Disagrees => None,
        }
    }
}

/// The witnesses of one program and how each replayed.
type Replays = Vec<(&'static str, Replay, String)>;

/// What one run of the binary says, from its JSON report.
struct Verdict {
    no: bool,
    violated: bool,
    json: serde_json::Value,
    /// The first line of the binary's stderr (why no harness was written).
    stderr_head: String,
}

fn prove(binary: &Path, file: &Path, timeout: u64, int_semantics: &str, kill_after: Duration, extra: &[&OsStr]) -> Verdict {
    let t = timeout.to_string();
    let mut args: Vec<&OsStr> = vec!["prove".as_ref(), file.as_os_str(), "--timeout".as_ref(), t.as_ref(), "--int-semantics".as_ref(), int_semantics.as_ref(), "--no-cache".as_ref(), "--format".as_ref(), "json".as_ref()];
    args.extend(extra);
    let run = run_process(binary, &args, kill_after);
    let json: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap_or_default();
    Verdict {
        no: json["verdict"] == "NO",
        violated: json["memory_safety"] == "violated",
        stderr_head: run.stderr_head,
        json,
    }
}

/// The sanitizers of a NO's harness under `math`: signed and unsigned overflow (math
/// semantics has no upper bound for either), integer truncations and sign changes, and
/// over-wide shifts. Math semantics wraps unsigned values below zero as C does, which the
/// unsigned check reports too: such a run is counted over ℤ only, the cautious side.
const MATH_SANITIZERS: &str = "-fsanitize=signed-integer-overflow,unsigned-integer-overflow,implicit-conversion,shift";

/// Builds and runs the harness `work/harness.c` of `file`'s witness `of` (`violation` or
/// `nontermination`).
fn run_harness(file: &Path, int_semantics: &str, of: &str, run_limit: Duration, work: &Path, kill_after: Duration) -> (Replay, String) {
    let violated = of == "violation";
    let math = int_semantics == "math";
    let exe = work.join("replay");
    let mut build: Vec<&OsStr> = ["-O0", "-g", "-fno-finite-loops", "-w", "-Dmain=__termcheck_program_main"].map(OsStr::new).to_vec();
    if int_semantics == "wrap" {
        build.push("-fwrapv".as_ref());
    }
    if violated {
        build.extend(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"].map(OsStr::new));
    } else if math {
        // every step where C leaves mathematical integers is reported: a run without a
        // report is the math run
        build.extend([MATH_SANITIZERS, "-fno-sanitize-recover=all"].map(OsStr::new));
    }
    let harness = work.join("harness.c");
    build.extend([file.as_os_str(), harness.as_os_str(), "-o".as_ref(), exe.as_os_str()]);
    let compiled = run_process(Path::new("clang-22"), &build, kill_after);
    if compiled.exit != Some(0) {
        return (Replay::BuildFailed, compiled.stderr_head);
    }
    let limit = if violated { kill_after } else { run_limit };
    // through `sh` so that the sanitizer's report (stderr) is in `stdout`
    let ran = run_process(Path::new("sh"), &["-c".as_ref(), "exec \"$0\" 2>&1".as_ref(), exe.as_os_str()], limit);
    let sanitizer = ran.stdout.contains("Sanitizer") || ran.stdout.contains("runtime error");
    let reproduced = if violated { ran.exit != Some(0) && !ran.killed && sanitizer } else { ran.killed };
    if reproduced {
        (Replay::Reproduced, of.into())
    } else if math && !violated && sanitizer {
        (Replay::OverIntegersOnly, format!("the native run leaves mathematical integers: `{}`", ran.stdout.lines().find(|l| l.contains("runtime error")).unwrap_or("")))
    } else {
        (Replay::Disagrees, format!("exit {:?}, killed {}, output `{}`", ran.exit, ran.killed, ran.stdout.lines().take(3).collect::<Vec<_>>().join(" / ")))
    }
}

/// Replays every witness of one C program: the binary's default harness (the violation if
/// there is one, else the NO), then, when the report has both, the NO's (a second run). A NO
/// the harness does not reproduce, and a violation without a harness, go to the replay
/// interpreter, and with `also_interpret` every witness does (a cross-check of the
/// interpreter against the native runs).
#[allow(clippy::too_many_arguments, reason = "the command's options, passed through")]
fn replay_c(binary: &Path, file: &Path, timeout: u64, int_semantics: &str, run_limit: Duration, work: &Path, kill_after: Duration, also_interpret: bool) -> Replays {
    let harness = work.join("harness.c");
    let mut out = Replays::new();
    let mut of: Option<&str> = None;
    loop {
        std::fs::remove_file(&harness).ok();
        let mut extra: Vec<&OsStr> = vec!["--emit-harness".as_ref(), harness.as_os_str()];
        if let Some(of) = of {
            extra.extend([OsStr::new("--harness-of"), OsStr::new(of)]);
        }
        let verdict = prove(binary, file, timeout, int_semantics, kill_after, &extra);
        let replayed = match of {
            Some(w) => w,
            None if verdict.violated => "violation",
            None if verdict.no => "nontermination",
            None => return out,
        };
        let what = if replayed == "violation" { "violation" } else { "NO" };
        let r = if what == "NO" && !verdict.no {
            // the second run did not give a NO again (a time limit): nothing to replay
            return out;
        } else if !harness.is_file() {
            (Replay::NoHarness, verdict.stderr_head.clone())
        } else {
            run_harness(file, int_semantics, replayed, run_limit, work, kill_after)
        };
        let r = match r.0 {
            Replay::NoHarness | Replay::OverIntegersOnly => interpret(file, int_semantics, what, &verdict.json, r),
            Replay::Reproduced if also_interpret => match interpret(file, int_semantics, what, &verdict.json, r) {
                (Replay::Interpreted, detail) => (Replay::Both, detail),
                other => other,
            },
            _ => r,
        };
        out.push((what, r.0, r.1));
        if what == "NO" || !verdict.no {
            return out;
        }
        of = Some("nontermination");
    }
}

/// A witness (`what`: `NO` or `violation`, of the JSON report `report`) the native harness
/// does not reproduce (`native`: over ℤ only, or no harness), or with `--also-interpret` one
/// it does, replayed in the replay interpreter over the engine front end's IR of `file`:
/// reproduced, still `native` with the interpreter's reason, or a disagreement.
fn interpret(file: &Path, int_semantics: &str, what: &str, report: &serde_json::Value, native: (Replay, String)) -> (Replay, String) {
    use crate::replay_math_witness::{replay_no, replay_violation, Outcome, STEP_BUDGET};
    use termcheck_engine::verdict::IntSemantics;
    let sem = match int_semantics {
        "math" => IntSemantics::Math,
        "wrap" => IntSemantics::Wrap,
        _ => IntSemantics::C,
    };
    let module = match termcheck_engine::frontend::load_module(file, termcheck_engine::driver::InputKind::C) {
        Ok(m) => m,
        Err(e) => return (native.0, format!("{}; the replay interpreter: the program does not load: {e}", native.1)),
    };
    let outcome = if what == "NO" { replay_no(&module, "main", sem, &report["termination"], STEP_BUDGET) } else { replay_violation(&module, "main", sem, &report["memory"], STEP_BUDGET) };
    match outcome {
        Outcome::Replayed(detail) => (Replay::Interpreted, detail),
        Outcome::NotReplayed(why) => (native.0, format!("{}; the replay interpreter: {why}", native.1)),
        Outcome::Disagrees(why) => (Replay::Disagrees, format!("the replay interpreter ({int_semantics}): {why}")),
    }
}

/// Replays the NO of one ITS input in the ITS interpreter.
fn replay_its(binary: &Path, file: &Path, timeout: u64, kill_after: Duration) -> Replays {
    let verdict = prove(binary, file, timeout, "c", kill_after, &[]);
    if !verdict.no {
        return vec![];
    }
    let koat = file.extension().is_some_and(|e| e == "koat");
    let parsed = std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|text| termcheck_engine::its::parse_file(&file.display().to_string(), &text, koat).map_err(|e| e.to_string()));
    let result = parsed
        .map_err(|e| crate::its_replay::Failure { miss: crate::its_replay::Miss::NotFound, detail: format!("the input does not parse: {e}") })
        .and_then(|its| crate::its_replay::replay(&its, &verdict.json["termination"]));
    use crate::its_replay::{Failure, Miss};
    let (r, detail) = match result {
        Ok(()) => (Replay::Reproduced, String::new()),
        Err(Failure { miss: Miss::OutOfBudget, detail }) => (Replay::Undecided, detail),
        Err(Failure { miss: Miss::NotFound, detail }) => (Replay::NotFound, detail),
        Err(Failure { miss: Miss::Refuted, detail }) => (Replay::Disagrees, detail),
    };
    vec![("NO", r, detail)]
}

/// Runs the replay over every program of `dir`'s expected.tsv (C, `.smt2`, `.koat`; with
/// `skip_yes` not those expected YES); `Ok(false)` when a replay disagrees with its witness.
#[allow(clippy::too_many_arguments, reason = "the command's options, passed through")]
pub fn run(binary: &Path, dir: &Path, timeout: u64, int_semantics: &str, jobs: usize, run_limit: Duration, kill_after: Duration, skip_yes: bool, also_interpret: bool) -> Result<bool, String> {
    let rows: Vec<_> = read_expected(dir)?
        .into_iter()
        .filter(|r| [".c", ".smt2", ".koat"].iter().any(|e| r.path.ends_with(e)))
        .filter(|r| !(skip_yes && r.expected == crate::expected::Expected::Yes))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let scratch = std::env::temp_dir().join(format!("xtask-replay-{}", std::process::id()));
    let results: Vec<(String, Replays)> = pool.install(|| {
        rows.into_par_iter()
            .enumerate()
            .map(|(i, row)| {
                let file = dir.join(&row.path);
                if !row.path.ends_with(".c") {
                    return (row.path.clone(), replay_its(binary, &file, timeout, kill_after));
                }
                let work = scratch.join(i.to_string());
                if std::fs::create_dir_all(&work).is_err() {
                    return (row.path.clone(), vec![("?", Replay::BuildFailed, "no scratch folder".into())]);
                }
                let r = replay_c(binary, &file, timeout, int_semantics, run_limit, &work, kill_after, also_interpret);
                std::fs::remove_dir_all(&work).ok();
                (row.path.clone(), r)
            })
            .collect()
    });
    std::fs::remove_dir_all(&scratch).ok();
    let all: Vec<(&str, &str, Replay, &str)> = results.iter().flat_map(|(p, rs)| rs.iter().map(move |(w, r, d)| (p.as_str(), *w, *r, d.as_str()))).collect();
    let count = |what: &str, k: Replay| all.iter().filter(|(_, w, r, _)| *w == what && *r == k).count();
    for (path, what, r, detail) in &all {
        match r.not_replayed_because() {
            Some(why) => println!("not replayed ({why}) {what} {path}: {detail}"),
            None if *r == Replay::Disagrees => println!("DISAGREES {what} {path}: {detail}"),
            None if *r == Replay::OverIntegersOnly => println!("over mathematical integers only {what} {path}: {detail}"),
            None if *r == Replay::Interpreted => println!("reproduced by the replay interpreter ({int_semantics}) {what} {path}: {detail}"),
            None if *r == Replay::Reproduced && detail.contains("; the replay interpreter: ") => println!("reproduced natively, not replayed by the replay interpreter {what} {path}: {detail}"),
            None if *r == Replay::Both => println!("reproduced natively and by the replay interpreter ({int_semantics}) {what} {path}: {detail}"),
            None => {}
        }
    }
    for what in ["NO", "violation"] {
        let total = all.iter().filter(|(_, w, _, _)| *w == what).count();
        println!(
            "replay {what}: {} programs from {}, {total} {what} witnesses, {} reproduced natively ({} of them also by the replay interpreter), {} reproduced by the replay interpreter, {} over mathematical integers only, {} DISAGREE; not replayed: {} undecided (ITS interpreter budget), {} not found by the bounded ITS search, {} without a harness, {} harnesses that do not build",
            results.len(),
            dir.display(),
            count(what, Replay::Reproduced) + count(what, Replay::Both),
            count(what, Replay::Both),
            count(what, Replay::Interpreted),
            count(what, Replay::OverIntegersOnly),
            count(what, Replay::Disagrees),
            count(what, Replay::Undecided),
            count(what, Replay::NotFound),
            count(what, Replay::NoHarness),
            count(what, Replay::BuildFailed)
        );
    }
    let agree = all.iter().all(|(_, _, r, _)| *r != Replay::Disagrees);
    if !agree {
        println!("replay: a replay DISAGREES with its witness (a soundness alarm, listed above)");
    }
    Ok(agree)
}

//! The three checks of an answer by native execution: a NO witness must keep running, a YES
//! program must end on boundary and random inputs, a memory-safety violation must make a
//! sanitizer report. Each returns `Ok(summary)` or `Err(why the answer is not confirmed)`.

use super::feed::{After, Feed};
use super::native::{run, run_bounded, Build, Ending, Native, NativeRun};
use std::path::Path;
use std::time::Duration;

/// Control-flow edges a NO witness must run through at `-O0` (about 0.2-0.5 s: far more than
/// any bitvector loop of up to 2^20 iterations, the calibration point of issue #4).
pub const NO_STEP_BOUND: u64 = 1 << 27;
/// Wall-clock bound of the step-counted runs (reached only on a very slow machine; a run
/// still going then is also accepted, as issue #4 asks).
pub const NO_WALL: Duration = Duration::from_secs(3);
/// CPU time (not wall time: see [`SAFETY_WALL`]) a NO witness must keep running at `-O2` under UBSan: a 2^32-iteration loop
/// takes well under a second there (or is folded away), so a witness whose loop only ends
/// after a 32-bit wrap-around, or reaches a signed overflow only after 2^31 steps (beyond the
/// `-O0` step bound), is caught (a 64-bit wrap-around is out of reach of any execution).
pub const NO_OPTIMISED_CPU: Duration = Duration::from_secs(3);
/// Wall-clock bound of one YES run at `-O0`; a run still going is retried at `-O2`.
pub const YES_WALL: Duration = Duration::from_secs(3);
/// CPU-time bound of one YES run at `-O2` with UBSan (2^32 iterations of a small loop body
/// take about 0.5 s there; bitvector/gcd_yes.c's worst inputs take 2^33 iterations of a
/// compare-and-subtract, which went past 10 s on a machine loaded by other builds).
pub const YES_OPTIMISED_CPU: Duration = Duration::from_secs(30);
/// Wall-clock safety net of the CPU-time-bounded `-O2` runs: they end by their CPU-time bound
/// ([`NO_OPTIMISED_CPU`], [`YES_OPTIMISED_CPU`] used as CPU seconds through `RLIMIT_CPU`),
/// which does not depend on the machine's load; the wall only matters on a machine so loaded
/// that the run gets less than a tenth of a core.
pub const SAFETY_WALL: Duration = Duration::from_secs(300);
/// Random input sequences per YES program (seeds 1..=N), after the four boundary fills.
pub const YES_RANDOM_RUNS: u64 = 10;

pub(super) fn describe(run: &NativeRun) -> String {
    match &run.ending {
        Ending::StillRunning => format!("still running after {:.1} s", run.elapsed.as_secs_f64()),
        Ending::StepBoundReached => format!("step bound reached after {:.2} s", run.elapsed.as_secs_f64()),
        Ending::CpuBoundReached => format!("CPU-time bound reached after {:.1} s", run.elapsed.as_secs_f64()),
        Ending::SanitizerReport(r) => format!("sanitizer report: {r}"),
        Ending::FeedStop(m) => format!("stopped by the input feed: {m}"),
        Ending::Terminated(code) => format!("terminated (exit code {code:?}) after {:.2} s", run.elapsed.as_secs_f64()),
    }
}

/// A NO witness: at `-O0` (plain, then with UBSan) the run on `feed` reaches the step bound or
/// is still running at the wall bound, without a sanitizer report and without asking for an
/// input the witness does not give; at `-O2` with UBSan it is still running after
/// [`NO_OPTIMISED_CPU`], without a report.
pub fn check_no_witness(native: &Native, source: &Path, feed: &Feed) -> Result<String, String> {
    let mut notes = Vec::new();
    for build in [Build::StepCounted, Build::StepCountedUbsan] {
        let exe = native.compile(source, build)?;
        let r = run(&exe, feed, NO_WALL, Some(NO_STEP_BOUND))?;
        match r.ending {
            Ending::StepBoundReached | Ending::StillRunning => notes.push(format!("{build:?}: {}", describe(&r))),
            _ => return Err(format!("witness {feed} not reproduced ({build:?}): {}", describe(&r))),
        }
    }
    let exe = native.compile(source, Build::UbsanOptimised)?;
    let r = run_bounded(&exe, feed, SAFETY_WALL, None, Some(NO_OPTIMISED_CPU.as_secs()))?;
    match r.ending {
        Ending::CpuBoundReached | Ending::StillRunning => notes.push(format!("-O2: {}", describe(&r))),
        _ => return Err(format!("witness {feed} not reproduced at -O2: {}", describe(&r))),
    }
    Ok(notes.join("; "))
}

/// The input sequences of a YES check: every read 0, 1, minimum, maximum, then random seeds.
pub fn yes_feeds() -> Vec<Feed> {
    let mut feeds: Vec<Feed> = [After::Zero, After::One, After::Min, After::Max].into_iter().map(Feed::fill).collect();
    feeds.extend((1..=YES_RANDOM_RUNS).map(|seed| Feed::fill(After::Random(seed))));
    feeds
}

/// A YES: on every feed of [`yes_feeds`] the program ends within [`YES_WALL`] at `-O0` under
/// ASan and UBSan, or (a long loop) within [`YES_OPTIMISED_CPU`] at `-O2` under UBSan,
/// without a sanitizer report.
pub fn check_terminates(native: &Native, source: &Path) -> Result<String, String> {
    let first = Stage { build: Build::AsanUbsan, wall: YES_WALL, steps: None, cpu_seconds: None };
    let rerun = Stage { build: Build::UbsanOptimised, wall: SAFETY_WALL, steps: None, cpu_seconds: Some(YES_OPTIMISED_CPU.as_secs()) };
    ends_on_every_feed(native, source, &first, |e| *e == Ending::StillRunning, &rerun)
}

/// One build and the bounds of its runs.
pub(super) struct Stage {
    pub build: Build,
    pub wall: Duration,
    pub steps: Option<u64>,
    pub cpu_seconds: Option<u64>,
}

/// The YES check's loop: on every feed of [`yes_feeds`] the program ends at `first`; a run
/// that `first` leaves unfinished (`unfinished` of its ending) is repeated at `rerun`, where
/// it must end. Anything else (a sanitizer report, a feed stop) refutes the YES.
pub(super) fn ends_on_every_feed(native: &Native, source: &Path, first: &Stage, unfinished: fn(&Ending) -> bool, rerun: &Stage) -> Result<String, String> {
    let exe = native.compile(source, first.build)?;
    let mut second = None;
    let mut long = 0;
    let feeds = yes_feeds();
    for feed in &feeds {
        let r = run_bounded(&exe, feed, first.wall, first.steps, first.cpu_seconds)?;
        match r.ending {
            Ending::Terminated(_) => continue,
            ref e if unfinished(e) => {}
            _ => return Err(format!("on {feed}: {}", describe(&r))),
        }
        let exe2 = match &second {
            Some(path) => path,
            None => second.insert(native.compile(source, rerun.build)?),
        };
        let r2 = run_bounded(exe2, feed, rerun.wall, rerun.steps, rerun.cpu_seconds)?;
        match r2.ending {
            Ending::Terminated(_) => long += 1,
            _ => return Err(format!("on {feed}: {:?} {}; {:?} {}", first.build, describe(&r), rerun.build, describe(&r2))),
        }
    }
    Ok(format!("{} input sequences ended ({long} of them only at {:?})", feeds.len(), rerun.build))
}

/// A memory-safety violation: the run on its inputs (ASan + UBSan, `-O0`) makes a report.
pub fn check_violation(native: &Native, source: &Path, inputs: &Feed) -> Result<String, String> {
    violation_reported(native, source, inputs, Build::AsanUbsan)
}

/// The violation check with `build` (an `-O0` ASan + UBSan build, run without a step bound).
pub(super) fn violation_reported(native: &Native, source: &Path, inputs: &Feed, build: Build) -> Result<String, String> {
    let exe = native.compile(source, build)?;
    let r = run(&exe, inputs, Duration::from_secs(10), None)?;
    match r.ending {
        Ending::SanitizerReport(report) => Ok(report),
        _ => Err(format!("violation on {inputs} not reproduced: {}", describe(&r))),
    }
}

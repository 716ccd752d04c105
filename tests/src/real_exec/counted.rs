//! The checks of [`check`](super::check) for generated programs whose loops count their
//! iterations (`generated_c`: `TC_STEP()` in every loop body, built with `-DTC_LOOP_STEPS`):
//! "does not end" and "ends" are decided by a bound on loop iterations, not by seconds of wall
//! time, so the verdict of a check does not depend on the machine's load and a NO witness
//! costs the time of its bound, not a fixed wait. Wall-clock bounds remain only as a safety
//! net (a loop-counted run is never expected to reach them).

use super::check::{describe, ends_on_every_feed, violation_reported, Stage};
use super::feed::Feed;
use super::native::{run_bounded, Build, Ending, Native};
use std::path::Path;
use std::time::Duration;

/// The loop-iteration bounds of the checks, and CPU-time bounds for loops whose iterations
/// are slow (an iteration that reads an input calls into the stub: 2^32 of them take
/// minutes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopBounds {
    /// Iterations a NO witness must run through at `-O0` under UBSan (a quick first look).
    pub no_unoptimised: u64,
    /// Iterations a NO witness must run through at `-O2` under UBSan.
    pub no_optimised: u64,
    /// Iterations within which a YES run at `-O0` under ASan and UBSan usually ends; past it
    /// the run is repeated at `-O2`.
    pub yes_unoptimised: u64,
    /// Iterations within which a YES run at `-O2` under UBSan must end.
    pub yes_optimised: u64,
    /// CPU seconds after which a NO witness still running at `-O2` counts as running on
    /// (reached first only by loops slower than ~1 ns per iteration).
    pub no_cpu_seconds: u64,
    /// CPU seconds within which a YES run at `-O2` must end.
    pub yes_cpu_seconds: u64,
}

impl Default for LoopBounds {
    /// `no_optimised` is 2^32 + 2^20: one unsigned 32-bit counter stepping by one goes round
    /// once within it, and a signed one reaches its overflow (UBSan report) from any start,
    /// so a witness whose loop ends only after a wrap-around is caught; about 3-10 s at
    /// `-O2`. `yes_optimised` 2^36 covers two such wrap-arounds in a row and more.
    fn default() -> Self {
        LoopBounds {
            no_unoptimised: 1 << 20,
            no_optimised: (1 << 32) + (1 << 20),
            yes_unoptimised: 1 << 22,
            yes_optimised: 1 << 36,
            no_cpu_seconds: 5,
            yes_cpu_seconds: 60,
        }
    }
}

/// Wall-clock safety net of one loop-counted run.
const SAFETY_WALL: Duration = Duration::from_secs(600);

/// A NO witness: at `-O0` under ASan and UBSan and at `-O2` under UBSan the run on `feed`
/// reaches the loop-iteration bound (at `-O2` or computes for `no_cpu_seconds`), without a
/// sanitizer report and without asking for an input the witness does not give.
///
/// The `-O0` build is the one of the YES and violation checks ([`LOOP_COUNTED_O0`]), so a NO
/// with a violation costs two builds, not three; ASan there only adds checks (a witness the
/// engine replayed makes no memory error, so a report is a disagreement either way).
pub fn check_no_witness_counted(native: &Native, source: &Path, feed: &Feed, bounds: &LoopBounds) -> Result<String, String> {
    let mut notes = Vec::new();
    for (build, bound, cpu) in [
        (LOOP_COUNTED_O0, bounds.no_unoptimised, None),
        (Build::LoopCountedUbsanOptimised, bounds.no_optimised, Some(bounds.no_cpu_seconds)),
    ] {
        let exe = native.compile(source, build)?;
        let r = run_bounded(&exe, feed, SAFETY_WALL, Some(bound), cpu)?;
        match r.ending {
            Ending::StepBoundReached | Ending::CpuBoundReached => notes.push(format!("{build:?}: {} loop iterations, {}", bound, describe(&r))),
            _ => return Err(format!("witness {feed} not reproduced ({build:?}, bound {bound} loop iterations): {}", describe(&r))),
        }
    }
    Ok(notes.join("; "))
}

/// The `-O0` build of every check of a loop-counted program (NO witness, YES, violation).
pub const LOOP_COUNTED_O0: Build = Build::LoopCountedAsanUbsan;

/// A memory-safety violation of a loop-counted program: as [`check_violation`] (no bound on
/// loop iterations), on the [`LOOP_COUNTED_O0`] build the other checks share.
///
/// [`check_violation`]: super::check_violation
pub fn check_violation_counted(native: &Native, source: &Path, inputs: &Feed) -> Result<String, String> {
    violation_reported(native, source, inputs, LOOP_COUNTED_O0)
}

/// A YES: on every feed of [`yes_feeds`] the program ends within `yes_unoptimised` loop
/// iterations at `-O0` under ASan and UBSan, or (a long loop) within `yes_optimised` at `-O2`
/// under UBSan, without a sanitizer report.
pub fn check_terminates_counted(native: &Native, source: &Path, bounds: &LoopBounds) -> Result<String, String> {
    let first = Stage { build: LOOP_COUNTED_O0, wall: SAFETY_WALL, steps: Some(bounds.yes_unoptimised), cpu_seconds: None };
    let rerun = Stage { build: Build::LoopCountedUbsanOptimised, wall: SAFETY_WALL, steps: Some(bounds.yes_optimised), cpu_seconds: Some(bounds.yes_cpu_seconds) };
    ends_on_every_feed(native, source, &first, |e| *e == Ending::StepBoundReached, &rerun)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generated_c::{program, Seeded};

    fn write(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
        let preamble: String = program(&mut Seeded::new(0)).split("static int h").next().unwrap_or_default().to_string();
        let path = dir.join(name);
        std::fs::write(&path, format!("{preamble}{body}")).expect("write");
        path
    }

    /// The bounds are loop iterations: a loop of 2^20 iterations ends under a bound of 2^21
    /// and is stopped by one of 2^19, whatever the machine's load.
    #[test]
    fn the_bound_counts_loop_iterations() {
        let native = Native::new().expect("clang-22");
        let dir = tempfile::tempdir().expect("tempdir");
        let source = write(dir.path(), "count.c", "int main(void) {\n    unsigned n = __VERIFIER_nondet_uint();\n    while (n > 0u) {\n        TC_STEP();\n        n = n - 1u;\n    }\n    return 0;\n}\n");
        let feed = Feed::values(&[1 << 20]);
        let small = LoopBounds { no_unoptimised: 1 << 19, no_optimised: 1 << 19, ..LoopBounds::default() };
        check_no_witness_counted(&native, &source, &feed, &small).expect("2^20 iterations pass a bound of 2^19");
        let large = LoopBounds { no_unoptimised: 1 << 19, no_optimised: 1 << 21, ..LoopBounds::default() };
        let err = check_no_witness_counted(&native, &source, &feed, &large).expect_err("the loop ends before 2^21");
        assert!(err.contains("terminated"), "{err}");
    }

    /// A loop that reads an input in every iteration runs far slower than 1 ns per iteration:
    /// its NO witness passes by the CPU-time bound instead of waiting for 2^32 iterations
    /// (found by the differential run: such witnesses ran into the 600 s wall).
    #[test]
    fn a_slow_nonterminating_loop_passes_by_its_cpu_time() {
        let native = Native::new().expect("clang-22");
        let dir = tempfile::tempdir().expect("tempdir");
        let source = write(dir.path(), "reads.c", "int main(void) {\n    int b = 0;\n    while (b != 6) {\n        TC_STEP();\n        if (__VERIFIER_nondet_int()) break;\n    }\n    return 0;\n}\n");
        let feed = Feed { stem: Vec::new(), cycle: vec![crate::real_exec::FeedValue { ty: Some("int".into()), decimal: "0".into() }], after: crate::real_exec::After::Stop };
        let bounds = LoopBounds { no_cpu_seconds: 1, ..LoopBounds::default() };
        let note = check_no_witness_counted(&native, &source, &feed, &bounds).expect("runs on");
        assert!(note.contains("CPU-time bound reached"), "{note}");
    }

    /// A NO with a violation costs two builds: the witness's `-O0` look and the violation's
    /// run share one (ASan and UBSan); a memory error in a witness's loop is caught there.
    #[test]
    fn a_no_witness_and_a_violation_share_the_unoptimised_build() {
        let native = Native::new().expect("clang-22");
        let dir = tempfile::tempdir().expect("tempdir");
        let source = write(dir.path(), "both.c", "int main(void) {\n    int a[4] = {0};\n    int i = __VERIFIER_nondet_int();\n    if (i >= 0) { a[i] = 1; return a[0]; }\n    while (i < 0) {\n        TC_STEP();\n        a[-i % 4] = 0;\n    }\n    return 0;\n}\n");
        let bounds = LoopBounds { no_unoptimised: 1 << 10, no_optimised: 1 << 12, ..LoopBounds::default() };
        check_no_witness_counted(&native, &source, &Feed::values(&[-1]), &bounds).expect("runs on");
        check_violation_counted(&native, &source, &Feed::values(&[4])).expect("writes past the array");
        assert_eq!(native.builds(), 2);
        // The same loop stepping out of its array is a memory error, not a non-terminating run.
        let out = write(dir.path(), "out.c", "int main(void) {\n    int a[4] = {0};\n    int *q = a;\n    int i = __VERIFIER_nondet_int();\n    while (i < 0) {\n        TC_STEP();\n        q[-i] = 0;\n    }\n    return 0;\n}\n");
        let err = check_no_witness_counted(&native, &out, &Feed::values(&[-5]), &bounds).expect_err("out of bounds");
        assert!(err.contains("sanitizer report"), "{err}");
    }

    /// A NO witness whose loop ends only after a wrap-around (here of a 16-bit counter, 2^16 - 5
    /// iterations) is refuted by a bound past the wrap-around; a YES on a loop that needs the
    /// `-O2` rerun passes. The default bounds go past a 32-bit wrap-around.
    #[test]
    fn a_loop_ending_after_a_wrap_around_is_not_a_nontermination_witness() {
        let native = Native::new().expect("clang-22");
        let dir = tempfile::tempdir().expect("tempdir");
        let source = write(dir.path(), "wrap.c", "int main(void) {\n    unsigned short s = (unsigned short)__VERIFIER_nondet_uint();\n    while (s != 0) {\n        TC_STEP();\n        s = s + 1;\n    }\n    return 0;\n}\n");
        let bounds = LoopBounds { no_unoptimised: 1 << 10, no_optimised: 1 << 17, yes_unoptimised: 1 << 10, yes_optimised: 1 << 17, ..LoopBounds::default() };
        let err = check_no_witness_counted(&native, &source, &Feed::values(&[5]), &bounds).expect_err("ends after 2^16 - 5 iterations");
        assert!(err.contains("LoopCountedUbsanOptimised") && err.contains("terminated"), "{err}");
        let yes = check_terminates_counted(&native, &source, &bounds).expect("every input ends");
        assert!(!yes.contains("(0 of them"), "input 1 needs the -O2 rerun: {yes}");
        let defaults = LoopBounds::default();
        assert!(defaults.no_optimised > 1 << 32 && defaults.yes_optimised > 1 << 33, "{defaults:?}");
    }
}

//! `--timeout` is honoured end to end: a hard input with a short limit ends within the limit
//! plus the CLI's grace, with exit code 0 and an honest MAYBE (or a real verdict, should the
//! engine become fast enough on it).

use std::path::Path;
use std::time::Duration;
use termcheck_tests::{invariants, run_binary};

#[test]
fn a_short_timeout_ends_the_run_in_time() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/slow");
    let limit = 0.5;
    let args: Vec<String> =
        ["prove", "alternate.smt2", "--timeout", &limit.to_string()].iter().map(|s| s.to_string()).collect();
    let run = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &dir, &args, Duration::from_secs(30));
    invariants::check_human_contract(&run, true).unwrap_or_else(|e| panic!("{e}\n{run:?}"));
    // Grace of the watchdog (0.8 s, rounded up to 2) plus slack for process start-up and parsing on a busy machine.
    assert!(run.elapsed.as_secs_f64() < limit + 2.0 + 3.0, "took {:?}", run.elapsed);
    if run.stdout.starts_with("MAYBE") && run.elapsed.as_secs_f64() >= limit {
        let reason = run.stdout.lines().find_map(|l| l.strip_prefix("reason: ")).unwrap_or("");
        assert!(reason.contains("timeout"), "a MAYBE at the limit should say it timed out: {reason}");
    }
}

//! Scoring of benchmark answers against the known results (see /work/shared/bench/README.md).
//!
//! Wrong: YES where NO or UNSAFE/UB is expected, NO where YES is expected, and
//! `memory-safety: violated` where YES is expected. UNKNOWN rows are never wrong; DISPUTED rows
//! are not scored (their crashes still count as errors). A timeout is a MAYBE whose reason
//! mentions a timeout, or a run the outer limit killed; an error is any exit code other than 0
//! (bad input 2, internal error 101, …) or an exit 0 whose first line is not a verdict.

use crate::expected::Expected;
use crate::runner::RunResult;

/// The single bucket one row falls into.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    SolvedYes,
    SolvedNo,
    Wrong,
    Maybe,
    Timeout,
    Error,
    /// An answer on a DISPUTED row.
    NotScored,
}

/// The answer word a run gave (`YES`, `NO`, `MAYBE`, `TIMEOUT` or `ERROR`).
pub fn answer(run: &RunResult) -> &'static str {
    if run.killed {
        return "TIMEOUT";
    }
    if run.exit != Some(0) {
        return "ERROR";
    }
    match run.first_line.as_str() {
        "YES" => "YES",
        "NO" => "NO",
        "MAYBE" if run.reason.as_deref().is_some_and(is_timeout_reason) => "TIMEOUT",
        "MAYBE" => "MAYBE",
        _ => "ERROR",
    }
}

/// Whether a MAYBE reason reports that the time limit ran out.
pub fn is_timeout_reason(reason: &str) -> bool {
    let r = reason.to_ascii_lowercase();
    r.contains("timeout") || r.contains("timed out") || r.contains("time limit") || r.contains("deadline")
}

/// Whether the run claims a memory-safety violation.
pub fn claims_violation(run: &RunResult) -> bool {
    run.exit == Some(0) && run.memory_safety.as_deref() == Some("violated")
}

/// Scores one run.
pub fn score(expected: Expected, run: &RunResult) -> Outcome {
    let word = answer(run);
    match word {
        "ERROR" => return Outcome::Error,
        "TIMEOUT" if expected != Expected::Yes || !claims_violation(run) => return Outcome::Timeout,
        _ => {}
    }
    if expected == Expected::Disputed {
        return Outcome::NotScored;
    }
    let wrong = match (word, expected) {
        ("YES", Expected::No | Expected::Unsafe) => true,
        ("NO", Expected::Yes) => true,
        (_, Expected::Yes) => claims_violation(run),
        _ => false,
    };
    match (wrong, word) {
        (true, _) => Outcome::Wrong,
        (false, "YES") => Outcome::SolvedYes,
        (false, "NO") => Outcome::SolvedNo,
        (false, "TIMEOUT") => Outcome::Timeout,
        _ => Outcome::Maybe,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(first: &str, memory: Option<&str>, reason: Option<&str>, exit: Option<i32>) -> RunResult {
        RunResult {
            exit,
            killed: exit.is_none(),
            first_line: first.into(),
            memory_safety: memory.map(String::from),
            reason: reason.map(String::from),
            ..RunResult::default()
        }
    }

    #[test]
    fn right_answers_are_solved() {
        assert_eq!(score(Expected::Yes, &run("YES", Some("proved"), None, Some(0))), Outcome::SolvedYes);
        assert_eq!(score(Expected::No, &run("NO", None, None, Some(0))), Outcome::SolvedNo);
        assert_eq!(score(Expected::Unknown, &run("YES", None, None, Some(0))), Outcome::SolvedYes);
    }

    #[test]
    fn wrong_answers_are_wrong() {
        assert_eq!(score(Expected::No, &run("YES", Some("proved"), None, Some(0))), Outcome::Wrong);
        assert_eq!(score(Expected::Unsafe, &run("YES", Some("proved"), None, Some(0))), Outcome::Wrong);
        assert_eq!(score(Expected::Yes, &run("NO", Some("proved"), None, Some(0))), Outcome::Wrong);
        assert_eq!(score(Expected::Yes, &run("MAYBE", Some("violated"), Some("r"), Some(0))), Outcome::Wrong);
        assert_eq!(
            score(Expected::Yes, &run("MAYBE", Some("violated"), Some("timeout after 3 s"), Some(0))),
            Outcome::Wrong
        );
    }

    #[test]
    fn unsafe_found_is_a_maybe_with_violation() {
        let r = run("MAYBE", Some("violated"), Some("memory"), Some(0));
        assert_eq!(score(Expected::Unsafe, &r), Outcome::Maybe);
        assert!(claims_violation(&r));
    }

    #[test]
    fn timeouts_errors_and_disputed() {
        assert_eq!(score(Expected::Yes, &run("MAYBE", Some("unknown"), Some("timeout after 30 s"), Some(0))), Outcome::Timeout);
        assert_eq!(score(Expected::Yes, &run("", None, None, None)), Outcome::Timeout);
        assert_eq!(score(Expected::Yes, &run("MAYBE", Some("unknown"), Some("internal error: x"), Some(101))), Outcome::Error);
        assert_eq!(score(Expected::No, &run("", None, None, Some(2))), Outcome::Error);
        assert_eq!(score(Expected::No, &run("garbage", None, None, Some(0))), Outcome::Error);
        assert_eq!(score(Expected::Disputed, &run("YES", None, None, Some(0))), Outcome::NotScored);
        assert_eq!(score(Expected::Disputed, &run("", None, None, Some(2))), Outcome::Error);
        assert_eq!(score(Expected::Unknown, &run("NO", None, None, Some(0))), Outcome::SolvedNo);
    }
}

//! Which checks an engine report raises: the engine's verdicts mapped onto the policy's checks.
//!
//! Only `Termination::Yes` and `MemorySafety::Proved` raise nothing. A NO is non-termination, a
//! replayed violation of kind `undefined-behaviour` (or one whose text says "undefined
//! behaviour") is undefined behaviour, any other violation a memory-safety violation. A MAYBE
//! or unknown whose reason mentions running out of time is a timeout, otherwise unproven: a
//! reason such as "possible undefined behaviour in the loop …" is an unknown, not a replayed
//! run, so it stays `termination-unproven` / `memory-safety-unproven` (docs/policy.md).

use super::check::Check;
use termcheck_engine::analysis::FunctionReport;
use termcheck_engine::verdict::{MemorySafety, Termination, Violation};

/// One check raised by a function's report, with the engine's words for it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Observation {
    pub check: Check,
    pub detail: String,
}

/// The violation kind the engine's interpreter gives undefined behaviour (its stable string,
/// `interp::fault::kind::UNDEFINED_BEHAVIOUR`, private to the engine; engine/src/interp/SEMANTICS.md).
const UNDEFINED_BEHAVIOUR: &str = "undefined-behaviour";

/// Words with which the engine and the command say that time ran out (the engine's report
/// cache recognises timeouts by the same words: engine/src/cache/mod.rs, `is_cacheable`).
const TIME_WORDS: [&str; 5] = ["timeout", "time limit", "out of time", "timed out", "deadline"];

fn mentions_time(reason: &str) -> bool {
    let reason = reason.to_lowercase();
    TIME_WORDS.iter().any(|w| reason.contains(w))
}

fn mentions_undefined_behaviour(text: &str) -> bool {
    let text = text.to_lowercase();
    text.contains("undefined behaviour") || text.contains("undefined behavior")
}

/// Whether a replayed violation is undefined behaviour rather than a memory-safety violation.
pub fn is_undefined_behaviour(violation: &Violation) -> bool {
    violation.kind == UNDEFINED_BEHAVIOUR || mentions_undefined_behaviour(&violation.message)
}

/// The checks `report` raises, at most one observation per check, in `Check` order.
pub fn observations(report: &FunctionReport) -> Vec<Observation> {
    let mut found = Vec::new();
    match &report.termination {
        Termination::Yes(_) => {}
        Termination::No(witness) => {
            let detail = witness.description.first().cloned().unwrap_or_else(|| "a non-terminating run was replayed".into());
            found.push(Observation { check: Check::NonTermination, detail });
        }
        Termination::Maybe { reason } if mentions_time(reason) => {
            found.push(Observation { check: Check::Timeout, detail: format!("termination: {reason}") })
        }
        Termination::Maybe { reason } => found.push(Observation { check: Check::TerminationUnproven, detail: reason.clone() }),
    }
    match &report.memory_safety {
        MemorySafety::Proved => {}
        MemorySafety::Violated(violation) => {
            let check = if is_undefined_behaviour(violation) { Check::UndefinedBehaviour } else { Check::MemorySafetyViolated };
            let at = violation.location.as_deref().map(|l| format!(" at {l}")).unwrap_or_default();
            // The kind is the check's own name for undefined behaviour: not repeated.
            let kind = if violation.kind == UNDEFINED_BEHAVIOUR { String::new() } else { format!("{}: ", violation.kind) };
            found.push(Observation { check, detail: format!("{kind}{}{at}", violation.message) });
        }
        MemorySafety::Unknown { reason } if mentions_time(reason) => {
            // One timeout per function: the memory reason is added to the termination one.
            let detail = format!("memory safety: {reason}");
            match found.iter_mut().find(|o| o.check == Check::Timeout) {
                Some(timeout) if timeout.detail.ends_with(reason.as_str()) => {}
                Some(timeout) => timeout.detail = format!("{}; {detail}", timeout.detail),
                None => found.push(Observation { check: Check::Timeout, detail }),
            }
        }
        MemorySafety::Unknown { reason } => found.push(Observation { check: Check::MemorySafetyUnproven, detail: reason.clone() }),
    }
    found.sort_by_key(|o| o.check);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::verdict::{NonTerminationWitness, TerminationProof};

    fn report(termination: Termination, memory_safety: MemorySafety) -> FunctionReport {
        FunctionReport { name: "f".into(), location: None, termination, memory_safety, seconds: 0.0, stats: vec![] }
    }

    fn maybe(reason: &str) -> Termination {
        Termination::Maybe { reason: reason.into() }
    }

    fn unknown(reason: &str) -> MemorySafety {
        MemorySafety::Unknown { reason: reason.into() }
    }

    fn violated(kind: &str, message: &str) -> MemorySafety {
        MemorySafety::Violated(Violation { kind: kind.into(), message: message.into(), location: Some("a.c:3".into()), inputs: vec![], entry_args: vec![], entry_memory: vec![] })
    }

    fn checks(r: &FunctionReport) -> Vec<Check> {
        observations(r).into_iter().map(|o| o.check).collect()
    }

    #[test]
    fn proved_raises_nothing() {
        assert!(observations(&report(Termination::Yes(TerminationProof::default()), MemorySafety::Proved)).is_empty());
    }

    #[test]
    fn each_verdict_maps_to_its_check() {
        let no = Termination::No(NonTerminationWitness { description: vec!["loop at a.c:4 repeats".into()], ..Default::default() });
        let r = report(no, MemorySafety::Proved);
        assert_eq!(observations(&r), [Observation { check: Check::NonTermination, detail: "loop at a.c:4 repeats".into() }]);
        assert_eq!(checks(&report(maybe("no ranking function found"), unknown("pointer of unknown size"))), [
            Check::TerminationUnproven,
            Check::MemorySafetyUnproven
        ]);
        let r = report(maybe("a run violates memory safety"), violated("invalid-read", "read past the end"));
        assert_eq!(checks(&r), [Check::TerminationUnproven, Check::MemorySafetyViolated]);
        assert_eq!(observations(&r)[1].detail, "invalid-read: read past the end at a.c:3");
    }

    #[test]
    fn replayed_undefined_behaviour_is_its_own_check() {
        let by_kind = report(maybe("x"), violated(UNDEFINED_BEHAVIOUR, "signed overflow"));
        assert_eq!(checks(&by_kind), [Check::TerminationUnproven, Check::UndefinedBehaviour]);
        let by_message = report(maybe("x"), violated("error", "reached `unreachable` (undefined behaviour)"));
        assert_eq!(checks(&by_message), [Check::TerminationUnproven, Check::UndefinedBehaviour]);
    }

    #[test]
    fn possible_undefined_behaviour_is_only_unproven() {
        let r = report(maybe("possible undefined behaviour in the loop at a.c:3"), unknown("possible undefined behaviour"));
        assert_eq!(checks(&r), [Check::TerminationUnproven, Check::MemorySafetyUnproven]);
    }

    #[test]
    fn timeouts_are_recognised_in_either_verdict_and_counted_once() {
        for reason in ["timeout", "timeout during symbolic execution", "the run's time limit was used up", "timeout after 3 s", "out of time"] {
            let r = report(maybe(reason), unknown(reason));
            assert_eq!(observations(&r), [Observation { check: Check::Timeout, detail: format!("termination: {reason}") }], "{reason}");
        }
        let r = report(Termination::Yes(TerminationProof::default()), unknown("timeout during symbolic execution"));
        assert_eq!(observations(&r), [Observation { check: Check::Timeout, detail: "memory safety: timeout during symbolic execution".into() }]);
        let r = report(maybe("timeout"), unknown("deadline reached"));
        assert_eq!(observations(&r)[0].detail, "termination: timeout; memory safety: deadline reached");
    }
}

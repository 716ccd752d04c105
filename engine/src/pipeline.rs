//! The program pipeline: symbolic execution proves (YES, memory safety), the concrete
//! interpreter judges witnesses (NO from a replayed lasso, `violated` from a replayed fault).
//!
//! Time split: symbolic execution gets most of the budget; whatever it leaves goes to the
//! witness search. Every NO and every `violated` comes from `interp` runs that reproduce the
//! recorded inputs exactly; the symbolic side never produces them.

use crate::interp::{self, InputSource, Outcome, RunConfig, SearchBudget, SequenceInputs, Witness, WitnessKind};
use crate::ir::{FuncId, Module};
use crate::verdict::{AnalysisOptions, MemorySafety, Report, Termination};
use std::time::Instant;

/// Share of the remaining time that symbolic execution may use before witnesses are searched.
const SYMEXEC_SHARE: f64 = 0.75;
/// Error-state input candidates replayed at most.
const MAX_REPLAYED_CANDIDATES: usize = 32;

/// Analyses the runs of `opts.entry` (which must be defined in `module`).
pub fn prove_program(module: &Module, entry: FuncId, opts: &AnalysisOptions, deadline: Instant) -> Report {
    let now = Instant::now();
    let remaining = deadline.saturating_duration_since(now);
    let symexec_deadline = now + remaining.mul_f64(SYMEXEC_SHARE);
    let analysis = crate::symexec::analyze(module, opts, symexec_deadline);
    let mut stats = analysis.stats;
    if matches!(analysis.termination, Termination::Yes(_)) && analysis.memory_safety == MemorySafety::Proved {
        return Report { termination: analysis.termination, memory_safety: Some(MemorySafety::Proved), stats };
    }

    let search_started = Instant::now();
    let replayed_fault = replay_error_candidates(module, entry, opts, &analysis.error_inputs, deadline);
    let budget = SearchBudget::until(deadline);
    // With memory safety proved no fault exists, so the first witness found is the one wanted;
    // otherwise keep searching for a lasso after a fault, since a program may have both.
    let found = if analysis.memory_safety == MemorySafety::Proved {
        let w = interp::search_witness(module, entry, opts.int_semantics, &budget);
        interp::Witnesses { lasso: w.clone().filter(|w| matches!(w.kind, WitnessKind::Lasso(_))), violation: w.filter(|w| matches!(w.kind, WitnessKind::Violation { .. })) }
    } else {
        interp::search_witnesses(module, entry, opts.int_semantics, &budget)
    };
    stats.push(("witness search time".into(), format!("{:.3}s", search_started.elapsed().as_secs_f64())));

    let fault = replayed_fault.or(found.violation);
    let memory = match fault.as_ref().and_then(Witness::to_violation) {
        Some(v) => MemorySafety::Violated(v),
        None => analysis.memory_safety,
    };
    if let Some(lasso) = found.lasso {
        // A replayed lasso free of undefined behaviour: NO, whatever other runs do.
        stats.push(("witness strategy".into(), lasso.strategy.clone()));
        let evidence = lasso.to_nontermination().unwrap_or_default();
        return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
    }
    if let (Some(w), MemorySafety::Violated(v)) = (&fault, &memory) {
        stats.push(("witness strategy".into(), w.strategy.clone()));
        let reason = format!("a run violates memory safety or has undefined behaviour ({}); termination is not analysed past it", v.kind);
        return Report { termination: Termination::Maybe { reason }, memory_safety: Some(memory), stats };
    }
    Report { termination: analysis.termination, memory_safety: Some(memory), stats }
}

/// Replays the symbolic executor's candidate inputs for its error states; returns the first
/// one whose run ends in a violation, replayed a second time with exactly the consumed inputs.
fn replay_error_candidates(module: &Module, entry: FuncId, opts: &AnalysisOptions, candidates: &[Vec<(String, i128)>], deadline: Instant) -> Option<Witness> {
    if !module.function(entry).params.is_empty() {
        // Candidates carry only `__VERIFIER_nondet_*` values, not entry arguments.
        return None;
    }
    let cfg = RunConfig { semantics: opts.int_semantics, max_steps: 1_000_000, deadline: Some(deadline), ..RunConfig::default() };
    for candidate in candidates.iter().take(MAX_REPLAYED_CANDIDATES) {
        if Instant::now() >= deadline {
            return None;
        }
        let values: Vec<i128> = candidate.iter().map(|(_, v)| *v).collect();
        // Inputs beyond the candidate (e.g. uninitialised reads) default to 0.
        let first = run_with(module, entry, &cfg, &mut SequenceInputs::new(values, Some(0)));
        let Outcome::Violation { kind, message, function, loc } = &first.outcome else { continue };
        let consumed: Vec<i128> = first.trace_inputs.iter().map(|(_, v)| *v).collect();
        let again = run_with(module, entry, &RunConfig { deadline: None, max_steps: first.steps + 1, ..cfg.clone() }, &mut SequenceInputs::new(consumed, None));
        if again.outcome != first.outcome {
            continue;
        }
        return Some(Witness {
            kind: WitnessKind::Violation { kind: kind.clone(), message: message.clone(), function: function.clone(), loc: loc.clone() },
            inputs: first.trace_inputs.clone(),
            entry_args: vec![],
            strategy: "symbolic error path".into(),
            steps: first.steps,
            poison_created: first.poison_created.clone(),
        });
    }
    None
}

fn run_with(module: &Module, entry: FuncId, cfg: &RunConfig, src: &mut dyn InputSource) -> interp::RunResult {
    interp::run(module, entry, &[], cfg, src)
}

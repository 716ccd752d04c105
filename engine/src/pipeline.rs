//! The program pipeline for one function, the unit of work: the bit-vector prover
//! (register-only programs under `c`/`wrap`) and symbolic execution with the ITS back end
//! prove (YES, memory safety); the concrete interpreter and the bit-precise recurrent sets
//! judge witnesses (NO from a replayed lasso or a replayed stem into a closed recurrent set,
//! bit-vector under `c`/`wrap`, over mathematical integers under `math`; `violated` from a
//! replayed fault). The pipeline owns the provers' order and their time.
//!
//! Time split (`Config::shares`, by default): the bit-vector prover may use 30% (it gives up at
//! once outside its scope), symbolic execution 75% of the rest; whatever is left goes to the
//! witness search. Every NO
//! and every `violated` comes from `interp` runs that reproduce the recorded inputs exactly;
//! the symbolic side never produces them.

use crate::config::{Config, TerminationLimits};
use crate::facts::ModuleFacts;
use crate::interp::{self, RunConfig, SearchBudget, Witness, WitnessKind};
use crate::ir::{FuncId, Module};
use crate::smt::Budget;
use crate::symexec::{GraphOutcome, SummaryStore};
use crate::verdict::{IntSemantics, MemorySafety, Report, Termination, TerminationProof};
use std::time::Instant;

/// Analyses the runs of `f` (defined in `module`; its parameters arbitrary, its callees
/// inlined) until `deadline`; `facts` are `module`'s. The report is normalized (YES needs
/// proved memory safety).
pub fn prove_function(module: &Module, facts: &ModuleFacts, f: FuncId, config: &Config, deadline: Instant) -> Report {
    crate::cancel::scope(config.cancel_token(), || prove_runs(module, facts, f, config, deadline, None).normalized())
}

/// Termination of the runs a symbolic execution graph describes: the ITS back end (limits
/// `limits`, until `deadline`) on a complete graph's ITS; its YES made readable with program
/// names, its NO only a MAYBE (the ITS over-approximates the program).
pub fn graph_termination(graph: &GraphOutcome, limits: &TerminationLimits, deadline: Instant) -> Termination {
    match graph {
        GraphOutcome::Unknown(reason) => Termination::Maybe { reason: reason.clone() },
        GraphOutcome::NoCycles => {
            Termination::Yes(TerminationProof { components: vec![], notes: vec!["no loops: the symbolic execution graph has no cycle".into()] })
        }
        GraphOutcome::Its(g) => {
            let budget = Budget::until(deadline, limits.query_limit);
            match crate::termination::prove_its(&g.its, &limits.shares, &budget) {
                Termination::Yes(proof) => Termination::Yes(g.readable_proof(proof)),
                Termination::No(_) => Termination::Maybe {
                    reason: "the ITS of the symbolic execution graph has a non-terminating run, but it is not replayed as a program run".into(),
                },
                Termination::Maybe { reason } => Termination::Maybe { reason: format!("termination of the ITS not proved: {reason}") },
            }
        }
    }
}

/// [`prove_function`] for a whole-module run that knows some callees are proved: `proved`
/// holds callees proved to terminate and to be memory safe for all arguments (their own
/// analyses, never verdicts derived from call contexts) and whose code touches no memory.
/// First, with a share of the budget, symbolic execution does not execute their calls (a
/// call only yields an arbitrary result of its type: every run of the callee terminates, has
/// no other effect, and any result is allowed); only a YES with proved memory safety is kept
/// from that attempt, since its graph over-approximates the runs. Otherwise the function is
/// analysed as by [`prove_function`], its callees executed in place, in the time left.
/// `called` are those of the proved callees that `f` may reach. With a summary `store` (a
/// whole-module run), calls that are instances of stored entries are served from it and the
/// summaries this analysis proves are added to it (see [`publish`]).
pub fn prove_function_assuming(module: &Module, facts: &ModuleFacts, f: FuncId, config: &Config, deadline: Instant, called: &std::collections::BTreeSet<FuncId>, store: Option<&SummaryStore>) -> Report {
    crate::cancel::scope(config.cancel_token(), || prove_assuming_here(module, facts, f, config, deadline, called, store))
}

/// [`prove_function_assuming`] inside its cancellation scope.
fn prove_assuming_here(module: &Module, facts: &ModuleFacts, f: FuncId, config: &Config, deadline: Instant, called: &std::collections::BTreeSet<FuncId>, store: Option<&SummaryStore>) -> Report {
    if called.is_empty() {
        return prove_runs(module, facts, f, config, deadline, store).normalized();
    }
    let started = Instant::now();
    let attempt_deadline = started + config.shares().assumed_callees.of(deadline.saturating_duration_since(started));
    let mut attempt = crate::symexec::analyze_assuming_with_store(module, facts, f, config, attempt_deadline, called, store);
    let termination = graph_termination(&attempt.graph, config.termination(), attempt_deadline);
    publish(store, &mut attempt, &termination, config, attempt_deadline);
    let used = attempt.stats.iter().any(|(k, _)| k == "calls of proved callees not executed");
    if let (Termination::Yes(mut proof), MemorySafety::Proved, true) = (termination, &attempt.memory_safety, used) {
        let names: Vec<String> = called.iter().map(|g| format!("`{}`", module.function(*g).name)).collect();
        proof.notes.push(format!("calls of {} not executed: each is proved to terminate and to be memory safe for all arguments, and touches no memory", names.join(", ")));
        let mut stats = attempt.stats;
        stats.push(("first attempt (proved callees not executed)".into(), format!("proved in {:.3}s", started.elapsed().as_secs_f64())));
        return Report { termination: Termination::Yes(proof), memory_safety: Some(MemorySafety::Proved), stats };
    }
    let mut report = prove_runs(module, facts, f, config, deadline, store).normalized();
    report.stats.push(("first attempt (proved callees not executed)".into(), format!("not proved in {:.3}s", started.elapsed().as_secs_f64())));
    report
}

fn prove_runs(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, store: Option<&SummaryStore>) -> Report {
    let shares = config.shares();
    let now = Instant::now();
    let remaining = deadline.saturating_duration_since(now);
    if let Some(report) = bit_precise_yes(module, facts, entry, config, now + shares.bit_precise.of(remaining)) {
        return report;
    }
    let now = Instant::now();
    let remaining = deadline.saturating_duration_since(now);
    let symexec_deadline = now + shares.symexec.of(remaining);
    let (analysis, termination) = summaries_first(module, facts, entry, config, symexec_deadline, store);
    let mut stats = analysis.stats;
    if matches!(termination, Termination::Yes(_)) && analysis.memory_safety == MemorySafety::Proved {
        return Report { termination, memory_safety: Some(MemorySafety::Proved), stats };
    }

    let search_started = Instant::now();
    let replayed_fault = replay_error_candidates(module, facts, entry, config, &analysis.error_inputs, deadline);
    // With memory safety proved no fault exists, so the first witness found is the one wanted;
    // otherwise keep searching for a lasso after a fault, since a program may have both.
    let stop_at_first = analysis.memory_safety == MemorySafety::Proved;
    // Keep a share of the time for the recurrent-set NO (bit-vector or mathematical).
    let bit_precise = config.int_semantics() != IntSemantics::Math;
    let search_deadline = search_started + shares.lasso_search.of(deadline.saturating_duration_since(search_started));
    let budget = SearchBudget::until(search_deadline, config.witnesses());
    let found = interp::search(module, facts, entry, config.int_semantics(), &budget, stop_at_first);
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
    if !matches!(termination, Termination::Yes(_)) {
        // A replayed run that enters one function again, deeper, in an equal state while the
        // first entry is still running: it recurses forever (interp::recursion_repeat).
        let prove = || crate::nontermination::recursion_concrete::prove_nontermination(module, facts, entry, config, deadline);
        if let Some(evidence) = timed_no(&mut stats, "recursion repeat time", "concrete infinite recursion", prove) {
            return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
        }
    }
    if bit_precise && !matches!(termination, Termination::Yes(_)) {
        let started = Instant::now();
        let recurrent = crate::bitprecise::recurrent::prove_nontermination(module, facts, entry, config, deadline);
        stats.push(("recurrent set time".into(), format!("{:.3}s", started.elapsed().as_secs_f64())));
        if let Some(evidence) = recurrent {
            // A replayed stem into a recurrent set closed under all inputs: a real infinite run.
            stats.push(("witness strategy".into(), "bit-precise recurrent set".into()));
            return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
        }
        // A replayed stem into a set of the parameters that every call carries to a recursive
        // call without UB: the recursion never returns (ARCHITECTURE.md).
        let prove = || crate::nontermination::recursion_bitvector::prove_nontermination(module, facts, entry, config, deadline);
        if let Some(evidence) = timed_no(&mut stats, "recursion recurrent set time", "bit-precise recurrent set of an infinite recursion", prove) {
            return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
        }
    }
    if !bit_precise && !matches!(termination, Termination::Yes(_)) {
        let started = Instant::now();
        let recurrent = crate::nontermination::prove_nontermination(module, facts, entry, config, deadline);
        stats.push(("recurrent set time".into(), format!("{:.3}s", started.elapsed().as_secs_f64())));
        if let Some(evidence) = recurrent {
            // A replayed stem into a set closed under every iteration over mathematical integers.
            stats.push(("witness strategy".into(), "recurrent set over mathematical integers".into()));
            return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
        }
        // The same over mathematical integers.
        let prove = || crate::nontermination::math_recursion::prove_nontermination(module, facts, entry, config, deadline);
        if let Some(evidence) = timed_no(&mut stats, "recursion recurrent set time", "recurrent set of an infinite recursion over mathematical integers", prove) {
            return Report { termination: Termination::No(evidence), memory_safety: Some(memory), stats };
        }
    }
    if let (Some(w), MemorySafety::Violated(v)) = (&fault, &memory) {
        stats.push(("witness strategy".into(), w.strategy.clone()));
        let reason = format!("a run violates memory safety or has undefined behaviour ({}); termination is not analysed past it", v.kind);
        return Report { termination: Termination::Maybe { reason }, memory_safety: Some(memory), stats };
    }
    Report { termination, memory_safety: Some(memory), stats }
}

/// Runs the NO prover `prove`, records its time as the statistic `time_stat` and, when it
/// finds a witness, `strategy` as the witness strategy.
fn timed_no(stats: &mut Vec<(String, String)>, time_stat: &str, strategy: &str, prove: impl FnOnce() -> Option<crate::verdict::NonTerminationWitness>) -> Option<crate::verdict::NonTerminationWitness> {
    let started = Instant::now();
    let found = prove();
    stats.push((time_stat.into(), format!("{:.3}s", started.elapsed().as_secs_f64())));
    if found.is_some() {
        stats.push(("witness strategy".into(), strategy.into()));
    }
    found
}

/// Symbolic execution and the ITS proof of its graph until `deadline` (the ITS proof shares
/// symbolic execution's deadline). First, with `TimeShares::summarized_callees` of the time,
/// the non-recursive callees `SymexecLimits::callee_summaries` selects go through summaries
/// (each entry's graph built once and reused by the calls it generalizes); that graph
/// describes every run as the in-place one does, so its YES with proved memory safety is
/// kept. Anything else (a summary loses a relation the proof needs, an unwinding callee, a
/// merge limit) falls back to executing every non-recursive callee in place in the time
/// left, whose graph gives the verdict, error candidates and statistics. Without such a
/// callee reachable from `entry` the attempt is not made. With a summary `store`, the
/// attempt first serves calls from it; if that attempt is not proved and did use the store,
/// it is repeated without the store (its own callee graphs) before the fallback.
fn summaries_first(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, store: Option<&SummaryStore>) -> (crate::symexec::Analysis, Termination) {
    let mode = config.symexec().callee_summaries;
    let started = Instant::now();
    if crate::symexec::summarizes_a_callee(module, facts, entry, mode) {
        let attempt_deadline = started + config.shares().summarized_callees.of(deadline.saturating_duration_since(started));
        let mut attempt = crate::symexec::analyze_summarizing(module, facts, entry, config, attempt_deadline, mode, store);
        let its_started = Instant::now();
        let mut termination = graph_termination(&attempt.graph, config.termination(), attempt_deadline);
        if matches!(attempt.graph, GraphOutcome::Its(_)) {
            attempt.stats.push(("ITS prover time".into(), format!("{:.3}s", its_started.elapsed().as_secs_f64())));
        }
        publish(store, &mut attempt, &termination, config, attempt_deadline);
        let proved = |t: &Termination, a: &crate::symexec::Analysis| matches!(t, Termination::Yes(_)) && a.memory_safety == MemorySafety::Proved;
        let served = attempt.stats.iter().any(|(k, v)| (k == "calls served from the summary store" && v != "0") || k == "calls widened with a stored entry");
        if !proved(&termination, &attempt) && served && Instant::now() < attempt_deadline {
            tracing::debug!("summarized callees from the store: not proved ({termination:?}); callee graphs built again");
            let mut again = crate::symexec::analyze_summarizing(module, facts, entry, config, attempt_deadline, mode, None);
            let again_termination = graph_termination(&again.graph, config.termination(), attempt_deadline);
            again.stats.push(("first attempt (calls served from the summary store)".into(), "not proved".into()));
            (attempt, termination) = (again, again_termination);
        }
        if proved(&termination, &attempt) {
            return (attempt, termination);
        }
        tracing::debug!("summarized callees: not proved ({termination:?}); callees executed in place");
        let (mut analysis, termination) = in_place(module, facts, entry, config, deadline, store);
        analysis.stats.push(("first attempt (callees through summaries)".into(), format!("not proved in {:.3}s", started.elapsed().as_secs_f64())));
        return (analysis, termination);
    }
    in_place(module, facts, entry, config, deadline, store)
}

/// Symbolic execution with non-recursive callees executed in place, and its ITS proof. With
/// a store that holds summaries of recursive functions `entry` may call (outside its own
/// recursion group), a first attempt with `TimeShares::summarized_callees` of the time
/// serves their calls from it (the caller's ITS then has none of their recursion cycles);
/// unless that attempt proves termination and memory safety, or used no stored summary and
/// finished in its time, the graph is built again with every recursive callee analysed here,
/// so a stored summary whose return states are weaker than a fresh entry's costs time, not
/// a verdict.
fn in_place(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, store: Option<&SummaryStore>) -> (crate::symexec::Analysis, Termination) {
    use crate::symexec::Imports;
    let offered = store.is_some_and(|s| s.offers(entry, &|g| facts.summarized(module, g) != crate::facts::recursion::Summarized::No));
    if offered {
        let started = Instant::now();
        let attempt_deadline = started + config.shares().summarized_callees.of(deadline.saturating_duration_since(started));
        let (attempt, termination) = in_place_with(module, facts, entry, config, attempt_deadline, store, Imports::Recursive);
        let proved = matches!(termination, Termination::Yes(_)) && attempt.memory_safety == MemorySafety::Proved;
        let served = attempt.stats.iter().any(|(k, _)| k == "calls of recursive callees served from the summary store" || k == "calls widened with a stored entry");
        if proved || (!served && Instant::now() < attempt_deadline) {
            return (attempt, termination);
        }
        tracing::debug!("recursive callees from the store: not proved ({termination:?}); their graphs built here");
        let (mut analysis, termination) = in_place_with(module, facts, entry, config, deadline, store, Imports::NonRecursive);
        analysis.stats.push(("first attempt (recursive callees from the summary store)".into(), format!("not proved in {:.3}s", started.elapsed().as_secs_f64())));
        return (analysis, termination);
    }
    in_place_with(module, facts, entry, config, deadline, store, Imports::NonRecursive)
}

fn in_place_with(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, store: Option<&SummaryStore>, imports: crate::symexec::Imports) -> (crate::symexec::Analysis, Termination) {
    let mut analysis = crate::symexec::analyze_seeding(module, facts, entry, config, deadline, store, imports);
    let its_started = Instant::now();
    let termination = graph_termination(&analysis.graph, config.termination(), deadline);
    if matches!(analysis.graph, GraphOutcome::Its(_)) {
        analysis.stats.push(("ITS prover time".into(), format!("{:.3}s", its_started.elapsed().as_secs_f64())));
    }
    publish(store, &mut analysis, &termination, config, deadline);
    (analysis, termination)
}

/// Adds the summaries `analysis` exports to `store` once their termination is proved
/// (docs/design/modular.md, "The module-wide summary store"): the analysed function's own
/// entry (`E_top`) when `termination` — the proof of its whole graph — is a YES with proved
/// memory safety; a callee's entry when the ITS of the entry's subgraph alone is proved
/// (until `deadline`; entries already stored are not proved again). Every export comes from
/// a complete graph without error states. Notes the count in the statistics.
fn publish(store: Option<&SummaryStore>, analysis: &mut crate::symexec::Analysis, termination: &Termination, config: &Config, deadline: Instant) {
    let Some(store) = store else { return };
    let exports = std::mem::take(&mut analysis.exports);
    let mut stored = 0usize;
    for export in exports {
        if store.has(&export.summary) {
            continue;
        }
        let proved = match &export.subgraph {
            None => matches!(termination, Termination::Yes(_)) && analysis.memory_safety == MemorySafety::Proved,
            Some(outcome) => Instant::now() < deadline && matches!(graph_termination(outcome, config.termination(), deadline), Termination::Yes(_)),
        };
        if proved {
            tracing::debug!("summary of `{}` stored", export.function);
            store.put(export.summary);
            stored += 1;
        }
    }
    if stored > 0 {
        analysis.stats.push(("summaries stored".into(), stored.to_string()));
    }
}

/// Replays the symbolic executor's candidate inputs for its error states; returns the first
/// one whose run ends in a confirmed violation.
fn replay_error_candidates(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, candidates: &[Vec<(String, i128)>], deadline: Instant) -> Option<Witness> {
    if !module.function(entry).params.is_empty() {
        // Candidates carry only `__VERIFIER_nondet_*` values, not entry arguments.
        return None;
    }
    let limits = config.witnesses();
    let cfg = RunConfig { deadline: Some(deadline), ..RunConfig::new(config.int_semantics(), limits.run, limits.replay_steps) };
    candidates
        .iter()
        .take(limits.max_replayed_candidates)
        .take_while(|_| Instant::now() < deadline)
        .filter_map(|c| {
            let values = c.iter().map(|(_, v)| *v).collect();
            interp::replay_inputs(module, facts, entry, &[], &cfg, values, "symbolic error path")
        })
        .find(|w| matches!(w.kind, WitnessKind::Violation { .. }))
}

/// A YES from the bit-vector prover (register-only entry functions in `c`/`wrap` semantics),
/// re-checked with fresh queries inside `prove_function`; `None` if out of scope or not proved.
fn bit_precise_yes(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<Report> {
    if config.int_semantics() == IntSemantics::Math {
        return None;
    }
    let started = Instant::now();
    let result = crate::bitprecise::termination::prove_function(module, facts, entry, config.int_semantics(), config.bitprecise().query_limit, config.bitprecise().max_region_nodes, deadline);
    let mut stats = vec![("bit-vector prover time".to_string(), format!("{:.3}s", started.elapsed().as_secs_f64()))];
    match result {
        Ok(proof) => {
            stats.push(("bit-vector queries".into(), proof.queries.to_string()));
            let termination = Termination::Yes(proof.termination_proof(module, config.bitprecise().query_limit));
            Some(Report { termination, memory_safety: Some(MemorySafety::Proved), stats })
        }
        Err(e) => {
            tracing::debug!(?e, "bit-vector prover");
            None
        }
    }
}

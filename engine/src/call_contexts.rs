//! Verdicts of internal functions in their call contexts: a function that only the analysed
//! code calls is judged by the runs its callers make, not for arbitrary arguments.
//!
//! The rule (docs/design/modular.md §1, "Internal function"). Let `f` be defined, with
//! `internal`/`private` linkage and an address that never escapes
//! ([`crate::ir::Function::callable_from_outside`] is false). Every execution of `f` then
//! happens inside an execution of some function `r` that code outside the module can call
//! (the bottom of the call stack), and `r` reaches `f` through direct calls: `r` lies in the
//! caller closure of `f`. Call the functions of that closure that are callable from outside
//! the *roots* of `f`. If every root's runs are proved to terminate, every execution of `f`
//! is a part of a terminating run, so it terminates; if every root is proved memory safe,
//! every state `f` reaches is a reachable state of a root, so it is safe. The root reports
//! used here are the complete analyses of the roots (their callees, `f` included, executed in
//! place or through seed 002's summaries), never `f`'s own verdict, so the argument is not
//! circular.
//!
//! Conversely `f`'s own analysis starts from arbitrary arguments, which its callers may never
//! pass: a NO or a memory-safety violation found that way is not a behaviour of the program.
//! For such an `f` it becomes MAYBE / unknown, with the witness named in the reason (the roots'
//! own analyses report the violations their runs can reach). A YES or "proved" of `f`'s own
//! analysis holds for every argument, so it also holds in every context and is kept.
//!
//! Nothing changes when `f` has no root (dead code, or only reached from itself) or when a
//! root has no report in this run (a `--entry` selection): then `f` stays judged for
//! arbitrary arguments, as the `prove` entry is.

use crate::analysis::FunctionReport;
use crate::ir::callgraph::CallGraph;
use crate::ir::{FuncId, Module};
use crate::verdict::{MemorySafety, Termination, TerminationProof};
use std::collections::HashMap;

/// Rewrites the reports of internal functions whose roots all have reports in `reports`,
/// as the module documentation says. `reports` may hold any subset of the defined functions.
pub fn judge_internal_functions_in_contexts(module: &Module, reports: &mut [FunctionReport]) {
    let index: HashMap<&str, usize> = reports.iter().enumerate().map(|(i, r)| (r.name.as_str(), i)).collect();
    let cg = CallGraph::new(module);
    let callers = callers_of(module, &cg);
    let mut updates = Vec::new();
    for (i, report) in reports.iter().enumerate() {
        let Some(f) = module.function_by_name(&report.name) else { continue };
        let func = module.function(f);
        if func.is_declaration() || func.callable_from_outside() {
            continue;
        }
        let roots = roots_of(module, &callers, f);
        if roots.is_empty() {
            continue;
        }
        let Some(root_reports) = roots.iter().map(|r| index.get(module.function(*r).name.as_str()).map(|&k| &reports[k])).collect::<Option<Vec<_>>>() else {
            continue;
        };
        let names: Vec<String> = roots.iter().map(|r| format!("`{}`", module.function(*r).name)).collect();
        let all_terminate = root_reports.iter().all(|r| matches!(r.termination, Termination::Yes(_)));
        let all_safe = root_reports.iter().all(|r| r.memory_safety == MemorySafety::Proved);
        updates.push((i, in_contexts(report, &names.join(", "), all_terminate, all_safe)));
    }
    for (i, report) in updates {
        reports[i] = report;
    }
}

/// The report of an internal function given what its roots (named in `roots`) prove.
fn in_contexts(own: &FunctionReport, roots: &str, all_terminate: bool, all_safe: bool) -> FunctionReport {
    let name = &own.name;
    let termination = match &own.termination {
        Termination::Yes(_) => own.termination.clone(),
        _ if all_terminate => Termination::Yes(TerminationProof {
            components: vec![],
            notes: vec![format!(
                "proved in its call contexts: `{name}` is internal and only called directly, and every function that can call it from outside the module ({roots}) is proved to terminate"
            )],
        }),
        Termination::No(_) => Termination::Maybe {
            reason: format!(
                "`{name}` does not terminate for some arguments, but it is internal and no caller is shown to pass them (callers reachable from outside: {roots})"
            ),
        },
        Termination::Maybe { .. } => own.termination.clone(),
    };
    let memory_safety = match &own.memory_safety {
        MemorySafety::Proved => MemorySafety::Proved,
        _ if all_safe => MemorySafety::Proved,
        MemorySafety::Violated(v) => MemorySafety::Unknown {
            reason: format!(
                "{} ({}) for some arguments, but `{name}` is internal and no caller is shown to pass them (callers reachable from outside: {roots})",
                v.kind, v.message
            ),
        },
        MemorySafety::Unknown { .. } => own.memory_safety.clone(),
    };
    let mut stats = own.stats.clone();
    if termination != own.termination || memory_safety != own.memory_safety {
        stats.push(("judged in the call contexts of".into(), roots.into()));
    }
    FunctionReport { termination, memory_safety, stats, ..own.clone() }
}

/// Per function: the defined functions that call it directly.
fn callers_of(module: &Module, cg: &CallGraph) -> Vec<Vec<FuncId>> {
    let mut callers = vec![Vec::new(); module.functions.len()];
    for (i, callees) in cg.callees.iter().enumerate() {
        for g in callees {
            callers[g.0 as usize].push(FuncId(i as u32));
        }
    }
    callers
}

/// The functions callable from outside the module among the transitive callers of `f`,
/// in `FuncId` order.
fn roots_of(module: &Module, callers: &[Vec<FuncId>], f: FuncId) -> Vec<FuncId> {
    let mut seen = vec![false; module.functions.len()];
    let mut stack = vec![f];
    seen[f.0 as usize] = true;
    let mut roots = Vec::new();
    while let Some(g) = stack.pop() {
        for &c in &callers[g.0 as usize] {
            if std::mem::replace(&mut seen[c.0 as usize], true) {
                continue;
            }
            if module.function(c).callable_from_outside() {
                roots.push(c);
            }
            // Keep climbing through every caller: an outside-callable caller may itself be
            // called by other functions, whose roots are roots of `f` as well.
            stack.push(c);
        }
    }
    roots.sort();
    roots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze_module, FunctionSelection};
    use crate::config::Config;
    use crate::driver::InputKind;
    use crate::verdict::IntSemantics;
    use std::time::Duration;

    fn run(src: &str) -> Vec<FunctionReport> {
        let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
        let config = Config::new(IntSemantics::Math, Duration::from_secs(120)).with_function_timeout(Duration::from_secs(15)).expect("positive");
        analyze_module(&m, &config, &FunctionSelection::AllDefined).functions
    }

    fn get<'a>(reports: &'a [FunctionReport], name: &str) -> &'a FunctionReport {
        reports.iter().find(|r| r.name == name).expect("reported")
    }

    #[test]
    fn a_static_helper_is_proved_by_its_callers_contexts() {
        // Mathematical integers (under `c` the generalized counter `n` is not shown free of
        // overflow in `main` either): `step` alone loops for x < 0; `main` only passes 10.
        let r = run("static int step(int x) { int n = 0; while (x != 0) { x = x - 1; n++; } return n; }\nint main(void) { return step(10); }\n");
        assert!(matches!(get(&r, "main").termination, Termination::Yes(_)), "{:?}", get(&r, "main"));
        let step = get(&r, "step");
        let Termination::Yes(proof) = &step.termination else { panic!("step: {step:?}") };
        assert!(proof.notes[0].contains("call contexts") && proof.notes[0].contains("`main`"), "{proof:?}");
        assert_eq!(step.memory_safety, MemorySafety::Proved);
    }

    #[test]
    fn an_external_or_escaping_function_stays_judged_for_arbitrary_arguments() {
        // `step` is external (no `static`): outside code may pass -1. (The run uses `math`.)
        let r = run("int step(int x) { int n = 0; while (x != 0) { x = x - 1; n++; } return n; }\nint main(void) { return step(10); }\n");
        assert!(!matches!(get(&r, "step").termination, Termination::Yes(_)));
        // `step` is static but its address escapes into a pointer call.
        let r = run("static int step(int x) { int n = 0; while (x != 0) { x = x - 1; n++; } return n; }\nint (*volatile fp)(int) = step;\nint main(void) { return step(10); }\n");
        assert!(!matches!(get(&r, "step").termination, Termination::Yes(_)), "{:?}", get(&r, "step"));
    }

    #[test]
    fn an_unproved_root_leaves_the_helper_unproved_and_its_witness_is_not_a_no() {
        // `main` passes an arbitrary value: `step` really loops for negative ones, but from
        // arbitrary arguments only; `main`'s own analysis is what decides the program.
        let r = run("extern int __VERIFIER_nondet_int(void);\nstatic int step(int x) { while (x != 0) { if (x > 0) x--; } return 0; }\nint main(void) { return step(__VERIFIER_nondet_int()); }\n");
        let step = get(&r, "step");
        assert!(matches!(step.termination, Termination::Maybe { .. }), "{step:?}");
        assert!(!matches!(get(&r, "main").termination, Termination::Yes(_)));
    }

    #[test]
    fn roots_are_found_through_internal_callers() {
        let r = run("static int leaf(int x) { while (x != 0) x -= 1; return x; }\nstatic int mid(int x) { return leaf(x) + leaf(3); }\nint api(void) { return mid(7); }\nint main(void) { return api(); }\n");
        for f in ["leaf", "mid", "api", "main"] {
            assert!(matches!(get(&r, f).termination, Termination::Yes(_)), "{f}: {:?}", get(&r, f));
        }
    }
}

//! Tests of summaries of non-recursive callees (`config::CalleeSummaries`): calls of a callee
//! with a loop go through call abstraction, entry, return states and intersection; an entry
//! built for one call serves every later call it generalizes; the caller's memory is carried
//! (a callee that frees or writes it is tracked), and the verdicts agree with executing the
//! callees in place.

use super::analyze_summarizing;
use crate::config::{CalleeSummaries, Config};
use crate::driver::InputKind;
use crate::facts::ModuleFacts;
use crate::verdict::{IntSemantics, MemorySafety, Termination};
use std::time::{Duration, Instant};

struct Run {
    analysis: super::Analysis,
    termination: Termination,
}

fn run(src: &str, sem: IntSemantics, mode: CalleeSummaries) -> Run {
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let config = Config::new(sem, Duration::from_secs(60));
    let deadline = Instant::now() + Duration::from_secs(60);
    let main = m.function_by_name("main").expect("main");
    let analysis = analyze_summarizing(&m, &ModuleFacts::new(&m), main, &config, deadline, mode, None);
    let termination = crate::pipeline::graph_termination(&analysis.graph, config.termination(), deadline);
    Run { analysis, termination }
}

fn stat(r: &Run, key: &str) -> Option<usize> {
    r.analysis.stats.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.parse().ok())
}

/// `count` runs a loop; it is called three times with arguments of the same shape.
const THREE_CALLS: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int count(int n) { int i = 0; while (i < n) i++; return i; }\n\
    int main(void) { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); int c = __VERIFIER_nondet_int();\n\
      if (a > 100 || b > 100 || c > 100) return 0; return count(a) + count(b) + count(c); }";

#[test]
fn a_callee_with_a_loop_is_summarized_and_its_entry_reused_by_later_calls() {
    let sem = IntSemantics::Math;
    let r = run(THREE_CALLS, sem, CalleeSummaries::WithLoops);
    assert!(matches!(r.termination, Termination::Yes(_)), "{sem:?}: {:?}", r.termination);
    assert_eq!(r.analysis.memory_safety, MemorySafety::Proved, "{sem:?}");
    // every call (one per path: the return states split the paths) but the first is an
    // instance of the first call's entry: the callee's graph is built once
    let calls = stat(&r, "summarized calls of non-recursive callees").unwrap_or(0);
    assert!(calls >= 3, "{:?}", r.analysis.stats);
    assert_eq!(stat(&r, "callee entries reused"), Some(calls - 1), "{:?}", r.analysis.stats);
}

#[test]
fn the_pipeline_keeps_a_proof_made_through_summaries() {
    // (math: under `c` the bit-vector prover, which runs first, proves this register-only program)
    let src = "extern int __VERIFIER_nondet_int(void);\n\
        int count(int n) { int i = 0; while (i < n) i++; return i; }\n\
        int main(void) { count(__VERIFIER_nondet_int()); count(__VERIFIER_nondet_int()); return count(7) > 3; }";
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let config = Config::new(IntSemantics::Math, Duration::from_secs(60));
    let main = m.function_by_name("main").expect("main");
    let report = crate::pipeline::prove_function(&m, &ModuleFacts::new(&m), main, &config, Instant::now() + Duration::from_secs(60));
    assert!(matches!(report.termination, Termination::Yes(_)), "{:?}", report.termination);
    assert!(report.stats.iter().any(|(k, _)| k == "summarized calls of non-recursive callees"), "{:?}", report.stats);
    assert!(!report.stats.iter().any(|(k, _)| k == "first attempt (callees through summaries)"), "{:?}", report.stats);
}

#[test]
fn without_the_mode_callees_are_executed_in_place() {
    let r = run(THREE_CALLS, IntSemantics::Math, CalleeSummaries::Off);
    assert!(matches!(r.termination, Termination::Yes(_)), "{:?}", r.termination);
    assert_eq!(stat(&r, "summarized calls of non-recursive callees"), None);
    // single-block callees stay inlined in every mode (footnote 5)
    let r = run("int id(int x) { return x + 1; }\nint main(void) { return id(1) + id(2); }", IntSemantics::Math, CalleeSummaries::Branching);
    assert_eq!(stat(&r, "summarized calls of non-recursive callees"), None, "{:?}", r.analysis.stats);
}

#[test]
fn the_caller_loop_terminates_through_the_callee_result() {
    // step returns a value ≥ 1 after its own loop: main's loop decreases x by it
    let src = "extern int __VERIFIER_nondet_int(void);\n\
        int step(int k) { int s = 1; while (k > 0) { k--; } return s; }\n\
        int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) { x = x - step(x); } return 0; }";
    let r = run(src, IntSemantics::Math, CalleeSummaries::WithLoops);
    assert!(matches!(r.termination, Termination::Yes(_)), "{:?}", r.termination);
    assert!(stat(&r, "summarized calls of non-recursive callees").is_some_and(|k| k >= 1), "{:?}", r.analysis.stats);
}

#[test]
fn a_non_terminating_callee_loop_is_not_proved() {
    let src = "extern int __VERIFIER_nondet_int(void);\n\
        int spin(int k) { while (k != 0) { k = k - 2; } return 0; }\n\
        int main(void) { return spin(__VERIFIER_nondet_int()); }";
    let r = run(src, IntSemantics::Math, CalleeSummaries::WithLoops);
    assert!(matches!(r.termination, Termination::Maybe { .. }), "{:?}", r.termination);
}

#[test]
fn a_callee_that_frees_the_callers_block_makes_a_later_use_an_error() {
    let src = "#include <stdlib.h>\n\
        void drop(int *p, int n) { for (int i = 0; i < n; i++) p[0] = i; free(p); }\n\
        int main(void) { int *q = malloc(4 * sizeof(int)); if (!q) return 0; drop(q, 3); return q[0]; }";
    let r = run(src, IntSemantics::C, CalleeSummaries::WithLoops);
    assert!(stat(&r, "summarized calls of non-recursive callees").is_some_and(|k| k >= 1), "{:?}", r.analysis.stats);
    assert!(matches!(r.analysis.memory_safety, MemorySafety::Unknown { .. }), "{:?}", r.analysis.memory_safety);
    assert!(!r.analysis.error_inputs.is_empty() || matches!(r.analysis.graph, super::GraphOutcome::Unknown(_)));
}

#[test]
fn a_callee_writing_the_callers_stack_array_is_checked_against_its_bounds() {
    // fill writes n cells of the caller's 4-cell stack array: in bounds for n = 4, one past
    // the end for n = 5 (an error state inside the callee's graph is one of the caller's)
    let src = |n: u32| {
        format!(
            "void fill(int *a, int n) {{ for (int i = 0; i < n; i++) a[i] = 5; }}\n\
             int main(void) {{ int a[4]; fill(a, {n}); return 0; }}"
        )
    };
    let safe = run(&src(4), IntSemantics::C, CalleeSummaries::WithLoops);
    assert!(stat(&safe, "summarized calls of non-recursive callees").is_some_and(|k| k >= 1), "{:?}", safe.analysis.stats);
    assert_eq!(safe.analysis.memory_safety, MemorySafety::Proved, "{:?}", safe.analysis.graph);
    assert!(matches!(safe.termination, Termination::Yes(_)), "{:?}", safe.termination);
    let unsafe_ = run(&src(5), IntSemantics::C, CalleeSummaries::WithLoops);
    assert!(matches!(unsafe_.analysis.memory_safety, MemorySafety::Unknown { .. }), "{:?}", unsafe_.analysis.memory_safety);
}

#[test]
fn a_call_on_another_block_of_the_same_shape_reuses_the_entry() {
    // sum(a, 4) and sum(b, 4) pass two stack arrays of the same size: the blocks are paired
    // through the parameter, so the second call is an instance of the first call's entry;
    // sum(a, 3) has another length (n = 4 is a fact of the entry) and gets its own entry
    let src = "int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s = s + a[i]; return s; }\n\
        int main(void) { int a[4] = {1, 2, 3, 4}; int b[4] = {5, 6, 7, 8}; int x = sum(a, 4); int y = sum(b, 4); int z = sum(a, 3); return x + y + z; }";
    let r = run(src, IntSemantics::Math, CalleeSummaries::WithLoops);
    assert!(matches!(r.termination, Termination::Yes(_)), "{:?}", r.termination);
    assert_eq!(r.analysis.memory_safety, MemorySafety::Proved);
    assert_eq!(stat(&r, "summarized calls of non-recursive callees"), Some(3), "{:?}", r.analysis.stats);
    assert_eq!(stat(&r, "callee entries reused"), Some(1), "{:?}", r.analysis.stats);
}

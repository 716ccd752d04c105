//! Tests of summarized calls (seed 002): recursion through call abstractions, return states,
//! their widening and the intersection with callers, on C programs; and the entry states of
//! roots from parameter attributes (design §6).

use super::tests::prove;
use crate::driver::InputKind;
use crate::verdict::{IntSemantics, MemorySafety, Termination};

fn proved(src: &str, sem: IntSemantics) -> super::tests::Proved {
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    prove(&m, sem, 30)
}

/// [`proved`] with budgets no loaded machine reaches (a 600 s deadline, 60 s per z3 query),
/// for tests whose analysis needs many queries: on a machine loaded by other builds (load 20)
/// the default 2 s per query and 30 s in all ran out and turned the YES into a MAYBE. Every
/// phase ends by its own limits long before (about a second on a quiet machine).
fn proved_unhurried(m: &crate::ir::Module, sem: IntSemantics) -> super::tests::Proved {
    use std::time::{Duration, Instant};
    let base = crate::config::Config::new(sem, Duration::from_secs(600));
    let symexec = crate::config::SymexecLimits { query_limit: Duration::from_secs(60), ..*base.symexec() };
    let termination = crate::config::TerminationLimits { query_limit: Duration::from_secs(60), ..*base.termination() };
    let config = base.with_symexec(symexec).and_then(|c| c.with_termination(termination)).expect("positive limits");
    let deadline = Instant::now() + config.timeout();
    let entry = m.function_by_name("main").expect("main");
    let analysis = super::analyze(m, &crate::facts::ModuleFacts::new(m), entry, &config, deadline);
    let termination = crate::pipeline::graph_termination(&analysis.graph, config.termination(), deadline);
    super::tests::Proved { analysis, termination }
}

fn stat<'a>(p: &'a super::tests::Proved, key: &str) -> Option<&'a str> {
    p.analysis.stats.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

const SUM_TO: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int sum_to(int n) { if (n <= 0) return 0; return 1 + sum_to(n - 1); }\n\
    int main(void) { int n = __VERIFIER_nondet_int(); if (n > 1000) n = 1000; return sum_to(n); }";

#[test]
fn linear_recursion_terminates_under_every_semantics() {
    for sem in [IntSemantics::Math, IntSemantics::C, IntSemantics::Wrap] {
        let p = proved(SUM_TO, sem);
        assert!(matches!(p.termination, Termination::Yes(_)), "{sem:?}: {:?}", p.termination);
        assert_eq!(p.memory_safety, MemorySafety::Proved, "{sem:?}");
        assert!(stat(&p, "summarized calls").is_some_and(|v| v != "0"), "{:?}", p.analysis.stats);
    }
}

#[test]
fn the_result_is_bounded_by_the_argument_through_widening() {
    // Under `c`, `1 + sum_to(n - 1)` cannot overflow only if the return states relate the
    // result to the argument (r = n for n ≥ 1): the widening's templates keep that relation.
    let p = proved(SUM_TO, IntSemantics::C);
    assert!(p.error_inputs.is_empty());
    let returns: usize = stat(&p, "return states").and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!(returns >= 2 && returns < 20, "return states: {returns}");
}

#[test]
fn recursion_without_decrease_is_not_proved() {
    let p = proved("int f(int n) { return f(n) + 1; }\nint main(void) { return f(3); }", IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Maybe { .. }), "{:?}", p.termination);
    let p = proved(
        "extern int __VERIFIER_nondet_int(void);\n\
         int f(int n) { if (n == 0) return 0; return f(n - 2); }\n\
         int main(void) { return f(__VERIFIER_nondet_int()); }",
        IntSemantics::Math,
    );
    assert!(matches!(p.termination, Termination::Maybe { .. }), "{:?}", p.termination);
}

#[test]
fn termination_of_a_caller_depends_on_the_returned_value() {
    // g returns 1 for every n: the loop decreases x
    let one = "extern int __VERIFIER_nondet_int(void);\n\
        int g(int n) { if (n <= 0) return 1; return g(n - 1); }\n\
        int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x = x - g(x); return 0; }";
    let p = proved(one, IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    // g returns 0: the loop never ends for x > 0, so no summary may claim a decrease
    let zero = one.replace("return 1;", "return 0;");
    let p = proved(&zero, IntSemantics::Math);
    assert!(!matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    // the identity in disguise: x = id(x) never changes x
    let id = "extern int __VERIFIER_nondet_int(void);\n\
        int id(int n) { if (n <= 0) return n; return 1 + id(n - 1); }\n\
        int main(void) { int x = __VERIFIER_nondet_int(); while (x > 1) x = id(x); return 0; }";
    let p = proved(id, IntSemantics::Math);
    assert!(!matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    // halving: the result is below the argument
    let half = "extern int __VERIFIER_nondet_int(void);\n\
        int half(int n) { if (n <= 1) return 0; return 1 + half(n - 2); }\n\
        int main(void) { int x = __VERIFIER_nondet_int(); while (x > 1) x = half(x); return 0; }";
    let p = proved(half, IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
}

#[test]
fn mutual_recursion_is_one_cycle_through_both_entries() {
    let src = "extern int __VERIFIER_nondet_int(void);\n\
        int odd(int n); int even(int n) { if (n == 0) return 1; return odd(n - 1); }\n\
        int odd(int n) { if (n == 0) return 0; return even(n - 1); }\n\
        int main(void) { int x = __VERIFIER_nondet_int(); if (x < 0) return 0; return even(x); }";
    let p = proved(src, IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    // without the guard, negative arguments recurse forever
    let p = proved(&src.replace("if (x < 0) return 0; ", ""), IntSemantics::Math);
    assert!(!matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
}

#[test]
fn nested_recursive_calls_terminate() {
    let src = "extern int __VERIFIER_nondet_int(void);\n\
        int ack(int m, int n) { if (m <= 0) return n + 1; if (n <= 0) return ack(m - 1, 1); return ack(m - 1, ack(m, n - 1)); }\n\
        int main(void) { int m = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); if (m < 0 || n < 0) return 0; return ack(m, n); }";
    let p = proved(src, IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
}

#[test]
fn recursion_that_frees_the_callers_memory_is_tracked() {
    // seed 002's example: f decrements *p recursively and frees p once it is negative, so it
    // returns a negative number and main's loop ends; memory safety needs the free inside the
    // callee to reach the caller's state
    let src = "#include <stdlib.h>\n\
        extern int __VERIFIER_nondet_int(void);\n\
        int f(int *p) { if (*p < 0) { int pv = *p; free(p); return pv; } (*p)--; return f(p); }\n\
        int main(void) { int i = __VERIFIER_nondet_int(); while (i > 0) { int *op = malloc(sizeof(int)); if (op == NULL) return 0; *op = i; i += f(op); } return 0; }";
    for sem in [IntSemantics::C, IntSemantics::Math] {
        let p = proved(src, sem);
        assert_eq!(p.memory_safety, MemorySafety::Proved, "{sem:?}");
        assert!(matches!(p.termination, Termination::Yes(_)), "{sem:?}: {:?}", p.termination);
    }
    // the callee frees the block: a use after the call is an error state (never proved safe)
    let uaf = src.replace("i += f(op);", "i += f(op); i += *op;");
    let p = proved(&uaf, IntSemantics::C);
    assert_ne!(p.memory_safety, MemorySafety::Proved);
    // a callee that keeps the block: the caller may free it afterwards
    let keep = "#include <stdlib.h>\n\
        extern int __VERIFIER_nondet_int(void);\n\
        int g(int *p, int n) { if (n <= 0 || *p <= 0) return *p; *p = *p - 1; return g(p, n - 1); }\n\
        int main(void) { int *q = malloc(sizeof(int)); if (!q) return 0; *q = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); int r = g(q, n); free(q); return r; }";
    let p = proved(keep, IntSemantics::C);
    assert_eq!(p.memory_safety, MemorySafety::Proved, "{:?}", p.analysis.stats);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    // freeing it in the caller as well is a double free
    let double = keep.replace("if (n <= 0 || *p <= 0) return *p;", "if (n <= 0 || *p <= 0) { int v = *p; free(p); return v; }");
    let p = proved(&double, IntSemantics::C);
    assert_ne!(p.memory_safety, MemorySafety::Proved);
}

#[test]
fn recursion_over_an_array_in_the_callers_frame() {
    let src = "int sum(int *p, int n) { if (n <= 0) return 0; return *p + sum(p + 1, n - 1); }\n\
        int main(void) { int a[3] = {1, 2, 3}; return sum(a, 3); }";
    let p = proved(src, IntSemantics::Math);
    // whatever the verdict, the caller's stack array is never freed by the callee
    assert!(!matches!(p.termination, Termination::No(_)), "{:?}", p.termination);
    // reading past the end is never proved safe
    let oob = src.replace("sum(a, 3)", "sum(a, 4)");
    let p = proved(&oob, IntSemantics::Math);
    assert_ne!(p.memory_safety, MemorySafety::Proved);
}


#[test]
fn entries_of_different_call_sites_converge_independently() {
    // main's loop reaches the recursive f from several unrolled call sites; each call site's
    // chain of entries needs a few merges, more than the per-position limit in all, so the
    // merge limit counts per chain of entries
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../benchmarks/recursion/free_in_callee_yes.c")).expect("benchmark file");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let p = proved_unhurried(&m, IntSemantics::C);
    assert_eq!(p.memory_safety, MemorySafety::Proved, "{:?}", p.termination);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
}

#[test]
fn a_root_parameter_is_a_block_only_under_dereferenceable_and_noalias() {
    use crate::ir::{ParamAttrs, Type, ValueId};
    // long inc(long *p) { *p = *p + 1; return 0; } — in LLVM, as a Rust `&mut i64` would be
    let src = "long inc(long *p) { *p = *p + 1; return 0; }";
    let mut m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let f = m.function_by_name("inc").expect("inc");
    let run = |m: &crate::ir::Module| {
        let facts = crate::facts::ModuleFacts::new(m);
        let config = super::tests::config(IntSemantics::Wrap);
        super::analyze(m, &facts, f, &config, std::time::Instant::now() + std::time::Duration::from_secs(20))
    };
    // a C pointer promises nothing: the accesses may be out of bounds
    assert_ne!(run(&m).memory_safety, MemorySafety::Proved);
    let func = &mut m.functions[f.0 as usize];
    assert_eq!(func.params, vec![(ValueId(0), Type::Ptr)]);
    func.param_attrs = vec![ParamAttrs { nonnull: true, noundef: true, dereferenceable: Some(8), noalias: true, align: Some(8), ..ParamAttrs::default() }];
    assert_eq!(run(&m).memory_safety, MemorySafety::Proved);
    // 4 bytes are not enough for the 8-byte access
    m.functions[f.0 as usize].param_attrs[0].dereferenceable = Some(4);
    assert_ne!(run(&m).memory_safety, MemorySafety::Proved);
    // readonly: a write would be undefined behaviour, so no block is assumed
    m.functions[f.0 as usize].param_attrs[0].dereferenceable = Some(8);
    m.functions[f.0 as usize].param_attrs[0].readonly = true;
    assert_ne!(run(&m).memory_safety, MemorySafety::Proved);
    // without noalias the memory may be shared with a global: no block either
    m.functions[f.0 as usize].param_attrs[0].readonly = false;
    m.functions[f.0 as usize].param_attrs[0].noalias = false;
    assert_ne!(run(&m).memory_safety, MemorySafety::Proved);
}

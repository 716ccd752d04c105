//! Tests of recurrent sets over a loop with inner loops (`math_nested`): the cut points and
//! their carried state, NOs found and re-checked, terminating nests refused, and the re-check
//! rejecting wrong families.

use super::math_nested::{encode_nested_loop, recheck_nested};
use super::tests::{compile, config, deadline, prove_no, MAX_CELLS, NONDET};
use crate::facts::ModuleFacts;
use crate::logic::{Formula, Term, Var};
use crate::verdict::{InnerRecurrentSet, IntSemantics, RecurrentSetWitness};

const COUNTER: &str = "int main(void) { int n = __VERIFIER_nondet_int(), j; if (n < 1) return 0; while (n > 0) { j = 0; while (j < n) j = j + 1; n = n + 1; } return 0; }";

/// The NO of `src`, whose witness has inner sets, re-checked on a fresh module.
fn nested_no(src: &str) -> RecurrentSetWitness {
    let w = prove_no(src).unwrap_or_else(|| panic!("expected a nested recurrent set for {src}"));
    let rs = w.recurrent_set.expect("a math recurrent-set witness");
    assert!(!rs.inner_sets.is_empty(), "{src}: expected sets at inner headers, got {rs:?}");
    let m = compile(&format!("{NONDET}{src}"));
    let entry = m.function_by_name("main").unwrap();
    assert!(recheck_nested(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::Math), &rs, deadline()));
    rs
}

#[test]
fn inner_headers_carry_the_outer_values_they_read() {
    let m = compile(&format!("{NONDET}{COUNTER}"));
    let main = m.function_by_name("main").unwrap();
    let facts = ModuleFacts::new(&m);
    let forest = &facts.function(&m, main).loops;
    let outer = forest.loops.iter().position(|l| !l.innermost).expect("an outer loop");
    let nested = encode_nested_loop(&m, m.function(main), forest, outer, MAX_CELLS).unwrap();
    assert_eq!(nested.cuts.len(), 2);
    assert_eq!(nested.segments.len(), 2);
    let names = |k: usize| nested.cuts[k].state.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
    // The header's state is its phi n; the inner header's is its phi j and n, read by its guard.
    assert_eq!(names(0).len(), 1, "{:?}", names(0));
    assert!(names(1).iter().any(|n| n.starts_with("j#")) && names(1).contains(&names(0)[0]), "{:?}", names(1));
    // From the header the segment reaches the inner header only; from the inner header both.
    let mut from_inner: Vec<usize> = nested.segments[1].arrivals.iter().map(|a| a.to).collect();
    from_inner.sort_unstable();
    assert_eq!(nested.segments[0].arrivals.iter().map(|a| a.to).collect::<Vec<_>>(), vec![1]);
    assert_eq!(from_inner, vec![0, 1]);
    // An innermost loop is not a nest.
    let inner = forest.loops.iter().position(|l| l.innermost).unwrap();
    assert!(encode_nested_loop(&m, m.function(main), forest, inner, MAX_CELLS).is_err());
}

#[test]
fn outer_loops_behind_terminating_inner_loops_are_non_terminating() {
    nested_no(COUNTER);
    // Two inner loops, one after the other.
    let rs = nested_no("int main(void) { int n = __VERIFIER_nondet_int(), i, j; while (n > 0) { i = 0; while (i < n) i = i + 1; j = n; while (j > 0) j = j - 1; n = n + 1; } return 0; }");
    assert_eq!(rs.inner_sets.len(), 2);
    // An inner loop whose exit is a nondeterministic choice: a NO either way (the run that
    // feeds 1 forever stays in the inner loop, found as an innermost recurrent set first).
    assert!(prove_no("int main(void) { int x = __VERIFIER_nondet_int(), y = 0; while (x > 0) { while (__VERIFIER_nondet_int()) y = y + 1; x = x + 1; } return 0; }").is_some());
}

#[test]
fn terminating_nests_get_no_witness() {
    assert!(prove_no("int main(void) { int n = __VERIFIER_nondet_int(), j; while (n > 0) { j = 0; while (j < n) j = j + 1; n = n - 1; } return 0; }").is_none());
    // The inner loop moves n: the outer guard fails after one round.
    assert!(prove_no("int main(void) { int n = __VERIFIER_nondet_int(); while (n > 0) { while (n > 0) n = n - 1; } return 0; }").is_none());
}

#[test]
fn recheck_rejects_wrong_families() {
    let good = nested_no(COUNTER);
    let m = compile(&format!("{NONDET}{COUNTER}"));
    let entry = m.function_by_name("main").unwrap();
    let facts = ModuleFacts::new(&m);
    let check = |w: &RecurrentSetWitness, sem: IntSemantics| recheck_nested(&m, &facts, entry, &config(sem), w, deadline());
    assert!(check(&good, IntSemantics::Math));
    assert!(!check(&good, IntSemantics::C), "only under math");
    let inner = good.inner_sets[0].clone();
    let n = good.set.vars().into_iter().next().expect("the header's set reads n");
    // The inner set is empty: the segment from the header arrives outside it.
    let empty = RecurrentSetWitness { inner_sets: vec![InnerRecurrentSet { set: Formula::False, ..inner.clone() }], ..good.clone() };
    assert!(!check(&empty, IntSemantics::Math));
    // The inner set does not keep n positive: the way back to the header can exit.
    let loose = RecurrentSetWitness { inner_sets: vec![InnerRecurrentSet { set: Formula::True, ..inner.clone() }], ..good.clone() };
    assert!(!check(&loose, IntSemantics::Math));
    // The header's set lets the loop exit.
    let open = RecurrentSetWitness { set: Formula::True, ..good.clone() };
    assert!(!check(&open, IntSemantics::Math));
    // A closed family the stem does not reach.
    let far = Formula::ge(Term::Var(n.clone()), Term::Const(1_000_000));
    let elsewhere = RecurrentSetWitness { set: far.clone(), inner_sets: vec![InnerRecurrentSet { set: far, ..inner.clone() }], ..good.clone() };
    assert!(!check(&elsewhere, IntSemantics::Math));
    // Inner headers missing, named twice, unknown, or sets over foreign variables.
    assert!(!check(&RecurrentSetWitness { inner_sets: vec![], ..good.clone() }, IntSemantics::Math));
    assert!(!check(&RecurrentSetWitness { inner_sets: vec![inner.clone(), inner.clone()], ..good.clone() }, IntSemantics::Math));
    let unknown = InnerRecurrentSet { header: "no.such.block".into(), ..inner.clone() };
    assert!(!check(&RecurrentSetWitness { inner_sets: vec![unknown], ..good.clone() }, IntSemantics::Math));
    let foreign = InnerRecurrentSet { set: Formula::ge(Term::Var(Var::new("zz")), Term::Const(0)), ..inner };
    assert!(!check(&RecurrentSetWitness { inner_sets: vec![foreign], ..good.clone() }, IntSemantics::Math));
    // A stem one step short of the header entry.
    assert!(!check(&RecurrentSetWitness { stem_steps: good.stem_steps - 1, ..good }, IntSemantics::Math));
}

//! Unit tests of the merge candidates about list invariants (`generalize::closure`): which
//! facts over a merged list's variables are offered to both states.

use super::facts::{ARel, Atom, Fact};
use super::generalize;
use super::lists_tests::{ctx, inv, module, with_head};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

/// A state whose local 0 holds `h`, the start of one list of `len` cells whose first value
/// is `first` and whose first next pointer is `n` (a cell start, ≥ 1).
fn list_state(tag: &str, len: i128, first: i128) -> State {
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, &format!("h{tag}"));
    let (l, f, n) = (format!("len{tag}"), format!("f{tag}"), format!("n{tag}"));
    s.lists.push(inv(&format!("h{tag}"), &l, (&f, &format!("l{tag}")), &n, None));
    s.add_atom(Atom::var_const(&v(&l), Rel::Eq, len));
    s.add_atom(Atom::var_const(&v(&f), Rel::Eq, first));
    s.add_atom(Atom::var_const(&v(&n), Rel::Ge, 1));
    s
}

#[test]
fn a_merged_list_value_is_not_ordered_against_pointers() {
    // a cons loop's states: first value 0 then 1, next pointer an address (≥ 1). Both entail
    // `first ≤ next`, but that holds only while the value is below an address: the next
    // merge refutes it and costs one more round (benchmarks/lists append_yes never
    // converged). The merged value keeps its integer facts (`first ≥ 0`).
    let m = module();
    let mut cx = ctx(&m);
    let (a, b) = (list_state("a", 2, 0), list_state("b", 3, 1));
    let merged = generalize::merge(&mut cx, &a, &b).state;
    let l = &merged.lists[0];
    let (first, next) = (&l.fields[0].first, &l.fields[1].first);
    let mixed: Vec<&Fact> = merged.kb.iter().filter(|f| f.vars().contains(first) && f.vars().contains(next)).collect();
    assert!(mixed.is_empty(), "a value ordered against a pointer: {mixed:?}");
    let nonneg = Atom::cmp(&LinExpr::var(first), Rel::Ge, &LinExpr::constant(0)).map(Fact::Atom);
    assert!(nonneg.is_some_and(|n| merged.kb.contains(&n)), "{:?}", merged.kb);
    assert!(merged.kb.iter().all(|f| !matches!(f, Fact::Atom(x) if x.rel == ARel::Le && x.e.coeffs.len() == 2 && x.e.coeffs.contains_key(first) && x.e.coeffs.contains_key(next))));
}

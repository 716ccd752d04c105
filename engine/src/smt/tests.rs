//! Unit tests for the z3 bridge: sat/unsat, entailment, models, reals, quantifiers.

use super::*;
use crate::logic::{Formula, Term, Var};

fn x() -> Var {
    Var::new("x")
}

#[test]
fn entailment_and_models() {
    let b = Budget::unlimited(std::time::Duration::from_secs(10));
    let gt = Formula::gt(Term::var(&x()), Term::Const(5));
    assert!(entails(&gt, &Formula::ge(Term::var(&x()), Term::Const(6)), &b));
    assert!(!entails(&gt, &Formula::ge(Term::var(&x()), Term::Const(7)), &b));
    let (r, m) = model(&Formula::and([gt, Formula::lt(Term::var(&x()), Term::Const(7))]), &[x()], &b);
    assert_eq!(r, SatResult::Sat);
    assert_eq!(m.expect("model").get(&x()), Some(&Value::Int(6)));
}

#[test]
fn big_constants_round_trip() {
    let b = Budget::unlimited(std::time::Duration::from_secs(10));
    let big = (1i128 << 64) - 1;
    let f = Formula::eq(Term::var(&x()), Term::Const(big));
    let (_, m) = model(&f, &[x()], &b);
    assert_eq!(m.expect("model").get(&x()), Some(&Value::Int(big)));
}

#[test]
fn reals_give_rationals() {
    let reals: BTreeSet<Var> = [x()].into_iter().collect();
    let f = Formula::eq(Term::scale(2, Term::var(&x())), Term::Const(1));
    let (r, m) = solve(&Query { formula: &f, real_vars: &reals, timeout: None }, &[x()]);
    assert_eq!(r, SatResult::Sat);
    assert_eq!(m.expect("model").get(&x()), Some(&Value::Rat(1, 2)));
}

#[test]
fn exists_is_bound() {
    let b = Budget::unlimited(std::time::Duration::from_secs(10));
    let y = Var::new("y");
    // exists y. x = 2y  ∧  x = 3  is unsat
    let f = Formula::and([
        Formula::Exists(vec![y.clone()], Box::new(Formula::eq(Term::var(&x()), Term::scale(2, Term::var(&y))))),
        Formula::eq(Term::var(&x()), Term::Const(3)),
    ]);
    assert_eq!(check_sat(&f, &b), SatResult::Unsat);
}

#[test]
fn expired_budget_is_unknown_never_unsat() {
    let b = Budget::until(std::time::Instant::now() - std::time::Duration::from_secs(1), std::time::Duration::from_secs(10));
    assert_eq!(check_sat(&Formula::False, &b), SatResult::Unknown);
    assert!(!entails(&Formula::True, &Formula::True, &b));
}

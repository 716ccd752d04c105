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

/// x³ + y³ = z³ over positive integers: z3 searches without end (no timeout given).
fn endless() -> Formula {
    let v = |n: &str| Term::var(&Var::new(n));
    let cube = |n: &str| Term::Mul(vec![v(n), v(n), v(n)]);
    Formula::and([
        Formula::gt(v("x"), Term::Const(0)),
        Formula::gt(v("y"), Term::Const(0)),
        Formula::gt(v("z"), Term::Const(0)),
        Formula::eq(Term::Add(vec![cube("x"), cube("y")]), cube("z")),
    ])
}

/// Issue 12: a query in flight returns `Unknown` once its analysis is cancelled, even without
/// a time limit of its own, and the next query of the thread (a fresh helper) works.
#[test]
fn a_cancelled_analysis_gets_unknown_from_a_query_in_flight() {
    let token = crate::cancel::CancelToken::new();
    let canceller = token.clone();
    let stop = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(300));
        canceller.cancel();
    });
    let formula = endless();
    let query = Query { formula: &formula, real_vars: &BTreeSet::new(), timeout: None };
    let (result, _) = crate::cancel::scope(&token, || solve(&query, &[]));
    stop.join().expect("canceller");
    assert_eq!(result, SatResult::Unknown);
    let (after, _) = crate::cancel::scope(&token, || solve(&query, &[]));
    assert_eq!(after, SatResult::Unknown, "a cancelled analysis starts no query");
    let b = Budget::unlimited(std::time::Duration::from_secs(10));
    assert!(entails(&Formula::gt(Term::var(&x()), Term::Const(5)), &Formula::ge(Term::var(&x()), Term::Const(6)), &b));
}

/// A query with a time limit returns by it (plus the helper's slack) with `Unknown`: the
/// caller does not wait for z3 beyond the limit.
#[test]
fn a_query_returns_unknown_by_its_time_limit() {
    let formula = endless();
    let query = Query { formula: &formula, real_vars: &BTreeSet::new(), timeout: Some(std::time::Duration::from_millis(200)) };
    let (result, model) = solve(&query, &[]);
    assert_eq!(result, SatResult::Unknown);
    assert!(model.is_none());
}

fn int_query(f: &Formula) -> Query<'_> {
    static NO_REALS: std::sync::LazyLock<BTreeSet<Var>> = std::sync::LazyLock::new(BTreeSet::new);
    Query { formula: f, real_vars: &NO_REALS, timeout: Some(std::time::Duration::from_secs(10)) }
}

/// Solver reuse: a query never sees an assertion of an earlier one (each is popped), models
/// come from the query's own scope, and all of it runs on one solver.
#[test]
fn a_reused_solver_keeps_no_assertion_of_an_earlier_query() {
    let mut reused = reuse::ReusedSolver::default();
    let is = |c: i128| Formula::eq(Term::var(&x()), Term::Const(c));
    let (r, m) = translate::solve(&int_query(&is(5)), &[x()], &mut reused);
    assert_eq!((r, m.and_then(|m| m.get(&x()).copied())), (SatResult::Sat, Some(Value::Int(5))));
    // x = 6 would be unsat if x = 5 were still asserted.
    let (r, m) = translate::solve(&int_query(&is(6)), &[x()], &mut reused);
    assert_eq!((r, m.and_then(|m| m.get(&x()).copied())), (SatResult::Sat, Some(Value::Int(6))));
    let contradiction = Formula::and([Formula::gt(Term::var(&x()), Term::Const(0)), Formula::lt(Term::var(&x()), Term::Const(0))]);
    assert_eq!(translate::solve(&int_query(&contradiction), &[], &mut reused).0, SatResult::Unsat);
    // ... and an unsat query leaves nothing behind either.
    assert_eq!(translate::solve(&int_query(&is(7)), &[x()], &mut reused).0, SatResult::Sat);
    assert_eq!(reused.built, 1, "all four queries ran on one solver");
}

/// A reused solver whose check ends `unknown` (here its time limit) is thrown away: the answer
/// stays `Unknown`, and the next query runs on a new solver with the right answer.
#[test]
fn an_unknown_answer_rebuilds_the_reused_solver() {
    let mut reused = reuse::ReusedSolver::default();
    let [a, b, c] = ["a", "b", "c"].map(z3::ast::Int::new_const);
    let zero = z3::ast::Int::from_i64(0);
    let cube = |v: &z3::ast::Int| z3::ast::Int::mul(&[v.clone(), v.clone(), v.clone()]);
    let fermat = z3::ast::Bool::and(&[a.gt(&zero), b.gt(&zero), c.gt(&zero), z3::ast::Int::add(&[cube(&a), cube(&b)]).eq(cube(&c))]);
    let r = reused.check(&fermat, Some(std::time::Duration::from_millis(200)), |_, r| r);
    assert_eq!(r, SatResult::Unknown);
    assert_eq!(translate::solve(&int_query(&Formula::gt(Term::var(&x()), Term::Const(5))), &[], &mut reused).0, SatResult::Sat);
    assert_eq!(reused.built, 2, "the solver that answered unknown is not reused");
}

/// Only linear, quantifier-free integer queries go to the reused solver.
#[test]
fn reuse_takes_linear_integer_queries_only() {
    let v = |n: &str| Term::var(&Var::new(n));
    let linear = Formula::le(Term::Add(vec![Term::scale(3, v("x")), Term::Div(Box::new(v("y")), Box::new(Term::Const(2)))]), Term::Const(4));
    assert!(reuse::fits(&linear, false));
    assert!(!reuse::fits(&linear, true), "queries over reals keep the default tactics");
    assert!(!reuse::fits(&endless(), false), "non-linear");
    let by_var = Formula::eq(Term::Mod(Box::new(v("x")), Box::new(v("y"))), Term::Const(0));
    assert!(!reuse::fits(&by_var, false), "remainder by a variable");
    let quantified = Formula::Exists(vec![Var::new("y")], Box::new(Formula::eq(v("x"), v("y"))));
    assert!(!reuse::fits(&quantified, false));
}

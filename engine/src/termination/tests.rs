//! Unit tests of the back end on small hand-written ITSs; every YES certificate and NO witness is re-checked.

use super::*;
use crate::its::{Its, Transition};
use crate::logic::{Formula, Term, Var};
use crate::smt::Budget;
use std::time::{Duration, Instant};

fn budget() -> Budget {
    Budget::until(Instant::now() + Duration::from_secs(20), Duration::from_secs(10))
}

fn shares() -> crate::config::PortfolioShares {
    crate::config::Config::new(crate::verdict::IntSemantics::Math, Duration::from_secs(20)).termination().shares
}

fn v(n: &str) -> Term {
    Term::Var(Var::new(n))
}
fn c(k: i128) -> Term {
    Term::Const(k)
}

/// An ITS with variables `vars`, start location `start` and rules (from, to, guard, updates).
fn its(vars: &[&str], rules: Vec<(&str, &str, Formula, Vec<Term>)>) -> Its {
    let mut its = Its { vars: vars.iter().map(Var::new).collect(), ..Its::default() };
    its.start = Some(its.location("start"));
    for (from, to, guard, update) in rules {
        let (from, to) = (its.location(from), its.location(to));
        its.transitions.push(Transition { from, to, guard, update, origin: None });
    }
    its
}

fn expect_yes(its: &Its) -> Certificate {
    match analyse(its, &shares(), &budget()) {
        Outcome::Yes { prepared, certificate } => {
            check_certificate(&prepared, &certificate, &budget()).expect("certificate re-checks");
            certificate
        }
        other => panic!("expected YES, got {other:?}"),
    }
}

fn expect_no(its: &Its) {
    match analyse(its, &shares(), &budget()) {
        Outcome::No { prepared, lasso } => assert!(nontermination::check_lasso(&prepared, &lasso, &budget())),
        other => panic!("expected NO, got {other:?}"),
    }
}

fn expect_maybe(its: &Its) {
    assert!(matches!(analyse(its, &shares(), &budget()), Outcome::Maybe(_)));
}

#[test]
fn acyclic_is_yes() {
    let s = its(&["x"], vec![("start", "a", Formula::True, vec![v("x")])]);
    assert!(expect_yes(&s).phases.is_empty());
}

#[test]
fn countdown_linear() {
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::sub(v("x"), c(1))]),
    ]);
    let cert = expect_yes(&s);
    assert_eq!(cert.phases.len(), 1);
    assert_eq!(cert.phases[0].depth, 1);
}

#[test]
fn lexicographic_two_phases() {
    // while (x > 0) { if (y > 0) y--; else { x--; y = *; } }
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::True, vec![v("x"), v("y")]),
        ("l", "l", Formula::and([Formula::gt(v("x"), c(0)), Formula::gt(v("y"), c(0))]), vec![v("x"), Term::sub(v("y"), c(1))]),
        ("l", "l", Formula::and([Formula::gt(v("x"), c(0)), Formula::le(v("y"), c(0))]), vec![Term::sub(v("x"), c(1)), v("n")]),
    ]);
    let cert = expect_yes(&s);
    assert!(!cert.phases.is_empty());
}

#[test]
fn multiphase_needed() {
    // while (x >= 0) { x = x + y; y = y - 1; }
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::True, vec![v("x"), v("y")]),
        ("l", "l", Formula::ge(v("x"), c(0)), vec![Term::add(v("x"), v("y")), Term::sub(v("y"), c(1))]),
    ]);
    let cert = expect_yes(&s);
    assert!(cert.phases.iter().any(|p| p.depth >= 2));
}

#[test]
fn disjunctive_guard_split() {
    // while (x > 0 || y > 0) { if x > 0 then x-- else y-- } encoded with an or-guard.
    let g = Formula::or([
        Formula::and([Formula::gt(v("x"), c(0))]),
        Formula::and([Formula::le(v("x"), c(0)), Formula::gt(v("y"), c(0))]),
    ]);
    let upd = vec![Term::Ite(Box::new(Formula::gt(v("x"), c(0))), Box::new(Term::sub(v("x"), c(1))), Box::new(v("x"))), Term::Ite(Box::new(Formula::gt(v("x"), c(0))), Box::new(v("y")), Box::new(Term::sub(v("y"), c(1))))];
    let s = its(&["x", "y"], vec![("start", "l", Formula::True, vec![v("x"), v("y")]), ("l", "l", g, upd)]);
    // The ite updates are over-approximated by unknowns, so no ranking function is found; but
    // nothing wrong may be claimed either.
    assert!(!matches!(analyse(&s, &shares(), &budget()), Outcome::No { .. }));
}

#[test]
fn fixed_point_nontermination() {
    // while (x > 0) { x = x; } reachable with x = 1
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![v("x")]),
    ]);
    expect_no(&s);
}

#[test]
fn recurrent_set_nontermination() {
    // while (x > 0) { x = x + y; }  (diverges for y ≥ 0)
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::True, vec![v("x"), v("y")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::add(v("x"), v("y")), v("y")]),
    ]);
    expect_no(&s);
}

#[test]
fn growing_nontermination_needs_monotone_set() {
    // while (x > 0) { x = x + 1; }: no fixed point, recurrent set x > 0.
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::add(v("x"), c(1))]),
    ]);
    expect_no(&s);
}

#[test]
fn unreachable_loop_is_ignored() {
    let s = its(&["x"], vec![
        ("start", "a", Formula::True, vec![v("x")]),
        ("b", "b", Formula::True, vec![v("x")]),
    ]);
    expect_yes(&s);
}

#[test]
fn stem_must_reach_the_recurrent_set() {
    // The stem sets x = 0, the loop runs only while x > 0: terminating.
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![c(0)]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![v("x")]),
    ]);
    let out = analyse(&s, &shares(), &budget());
    assert!(!matches!(out, Outcome::No { .. }));
}

#[test]
fn two_location_cycle() {
    let s = its(&["x", "y"], vec![
        ("start", "a", Formula::True, vec![v("x"), v("y")]),
        ("a", "b", Formula::gt(v("x"), c(0)), vec![v("x"), c(10)]),
        ("b", "b", Formula::gt(v("y"), c(0)), vec![v("x"), Term::sub(v("y"), c(1))]),
        ("b", "a", Formula::le(v("y"), c(0)), vec![Term::sub(v("x"), c(1)), v("y")]),
    ]);
    expect_yes(&s);
}

#[test]
fn nonlinear_guard_over_approximated() {
    // while (x*x > 0 && x > 0) x--;
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::and([Formula::gt(Term::mul(v("x"), v("x")), c(0)), Formula::gt(v("x"), c(0))]), vec![Term::sub(v("x"), c(1))]),
    ]);
    expect_yes(&s);
}

#[test]
fn nondeterministic_loop_is_maybe_or_no() {
    // while (x > 0) { x = *; } — nonterminating (choose x' = 1 forever).
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![v("t")]),
    ]);
    expect_no(&s);
}

#[test]
fn parsed_t2_example_is_yes() {
    let its = crate::its::parse_file("q.smt2", crate::its::tests::QUOT, false).unwrap();
    expect_yes(&its);
}

#[test]
fn tampered_certificate_is_rejected() {
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::sub(v("x"), c(1))]),
    ]);
    let Outcome::Yes { prepared, mut certificate } = analyse(&s, &shares(), &budget()) else { panic!("expected YES") };
    for fs in certificate.phases[0].functions.values_mut() {
        fs[0] = fs[0].scale(-1).unwrap();
    }
    assert!(check_certificate(&prepared, &certificate, &budget()).is_err());
    assert!(check_certificate(&prepared, &Certificate::default(), &budget()).is_err());
}

#[test]
fn zero_variable_loop_is_no() {
    let s = its(&[], vec![("start", "l", Formula::True, vec![]), ("l", "l", Formula::True, vec![])]);
    expect_no(&s);
}

#[test]
fn recurrent_set_over_two_rules_with_long_stem() {
    // From (0, 100): x counts up to y - 2, then (x, y) := (y - 1, y + 1) forever.
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::True, vec![c(0), c(100)]),
        ("l", "l", Formula::and([Formula::gt(Term::sub(v("y"), c(2)), v("x"))]), vec![Term::add(v("x"), c(1)), v("y")]),
        ("l", "l", Formula::eq(v("x"), Term::sub(v("y"), c(2))), vec![Term::sub(v("y"), c(1)), Term::add(v("y"), c(1))]),
    ]);
    expect_no(&s);
}

#[test]
fn multi_location_recurrent_set() {
    // a: x > 0 → b with y = x + 1; b: y > 0 → b with y - 1; b: y = 0 → a.  Diverges for x > 0.
    let s = its(&["x", "y"], vec![
        ("start", "a", Formula::gt(v("x"), c(0)), vec![v("x"), v("y")]),
        ("a", "b", Formula::gt(v("x"), c(0)), vec![Term::add(v("x"), c(1)), Term::add(v("x"), c(1))]),
        ("b", "b", Formula::gt(v("y"), c(0)), vec![v("x"), Term::sub(v("y"), c(1))]),
        ("b", "a", Formula::eq(v("y"), c(0)), vec![v("x"), v("t")]),
    ]);
    expect_no(&s);
}

#[test]
fn up_and_down_needs_hull() {
    // d = 0 counts x down to 0, d = 1 counts up to 10; at the ends the direction flips.
    let s = its(&["d", "x"], vec![
        ("start", "l", Formula::ge(v("x"), c(0)), vec![c(0), v("x")]),
        ("l", "l", Formula::and([Formula::lt(v("x"), c(10)), Formula::gt(v("x"), c(0)), Formula::eq(v("d"), c(0))]), vec![c(0), Term::sub(v("x"), c(1))]),
        ("l", "l", Formula::and([Formula::lt(v("x"), c(10)), Formula::gt(v("x"), c(0)), Formula::eq(v("d"), c(1))]), vec![c(1), Term::add(v("x"), c(1))]),
        ("l", "l", Formula::eq(v("x"), c(10)), vec![c(0), c(9)]),
        ("l", "l", Formula::eq(v("x"), c(0)), vec![c(1), c(1)]),
    ]);
    expect_no(&s);
}

#[test]
fn invariant_needed_for_ranking() {
    // y ≥ 1 is established before the loop and never changed: while (x < 100) x = x + y.
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::ge(v("y"), c(1)), vec![v("x"), v("y")]),
        ("l", "l", Formula::lt(v("x"), c(100)), vec![Term::add(v("x"), v("y")), v("y")]),
    ]);
    expect_yes(&s);
}

#[test]
fn refinement_separates_phases() {
    // if y > x then x++ else if y < x then y++ : the two rules never follow each other.
    let s = its(&["x", "y"], vec![
        ("start", "l", Formula::True, vec![v("x"), v("y")]),
        ("l", "l", Formula::gt(v("y"), v("x")), vec![Term::add(v("x"), c(1)), v("y")]),
        ("l", "l", Formula::lt(v("y"), v("x")), vec![v("x"), Term::add(v("y"), c(1))]),
    ]);
    expect_yes(&s);
}

#[test]
fn koat_file_through_the_driver() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.koat");
    std::fs::write(
        &path,
        "(GOAL TERMINATION)\n(STARTTERM (FUNCTIONSYMBOLS start))\n(VAR x y)\n(RULES\n  start(x, y) -> loop(x, y)\n  loop(x, y) -> loop(x - 1, y + x) :|: x > 0\n  loop(x, y) -> Com_2(a(x, y), b(x, y)) :|: x <= 0\n)\n",
    )
    .unwrap();
    let config = crate::config::Config::new(crate::verdict::IntSemantics::Math, Duration::from_secs(20));
    let report = crate::driver::prove_file(&path, "main", &config).unwrap();
    assert!(matches!(report.termination, crate::verdict::Termination::Yes(_)), "{:?}", report.termination);
    std::fs::write(&path, "(RULES\n  loop(x) -> loop(x) :|: x > 0\n)\n").unwrap();
    let report = crate::driver::prove_file(&path, "main", &config).unwrap();
    assert!(matches!(report.termination, crate::verdict::Termination::No(_)), "{:?}", report.termination);
    std::fs::write(&path, "(RULES\n  loop(x) -> loop(x :|: x > 0\n)\n").unwrap();
    assert!(matches!(crate::driver::prove_file(&path, "main", &config), Err(crate::error::EngineError::ItsParse { .. })));
}

#[test]
fn malformed_its_is_maybe_not_a_panic() {
    let mut s = its(&["x"], vec![("start", "l", Formula::True, vec![v("x")])]);
    s.transitions[0].update.clear();
    expect_maybe(&s);
    s.transitions[0].update = vec![v("x")];
    s.transitions[0].to = crate::its::LocId(99);
    expect_maybe(&s);
}

#[test]
fn lexicographic_component_bounded_only_where_it_decreases() {
    // Nested loops with the inner counter reset by the outer step:
    // while (i < 10) { if (j < 12) j++; else { i++; j = 3; } }  (i unbounded below on the
    // inner rule, j unbounded above on the outer one). No linear function is bounded on both
    // rules and decreases on one, so the all-bounded LP fails; `10 − i`, bounded and
    // decreasing on the outer rule and unchanged on the inner one, removes it by LP alone.
    let s = its(&["i", "j"], vec![
        ("start", "l", Formula::True, vec![v("i"), v("j")]),
        ("l", "l", Formula::lt(v("j"), c(12)), vec![v("i"), Term::add(v("j"), c(1))]),
        ("l", "l", Formula::and([Formula::lt(v("i"), c(10)), Formula::ge(v("j"), c(12))]), vec![Term::add(v("i"), c(1)), c(3)]),
    ]);
    let lin: Vec<rules::LinRule> = s.transitions.iter().map(|t| rules::linearize(&s, t)).collect();
    let phase = ranking::find_lp_phase(&s, &lin, &[1, 2], 0, &budget()).expect("a phase from linear programs");
    assert_eq!(phase.removed, vec![2]);
    let certificate = Certificate { phases: vec![phase.clone()] };
    // One phase alone does not cover the inner loop that is left ...
    assert!(check_certificate(&s, &certificate, &budget()).is_err());
    // ... which the next LP removes; the whole proof re-checks.
    let inner = ranking::find_lp_phase(&s, &lin, &[1], 0, &budget()).expect("12 − j on the inner rule");
    check_certificate(&s, &Certificate { phases: vec![phase, inner] }, &budget()).expect("certificate re-checks");
    expect_yes(&s);
}

/// `while (x > 0) x = -2*x + 10`: no linear ranking function over the rationals (the fixed
/// point 10/3 lies inside every unrolled guard), but no run of 5 steps over the integers.
fn negated_doubling() -> Its {
    its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::add(Term::mul(c(-2), v("x")), c(10))]),
    ])
}

#[test]
fn bounded_cycle_is_yes() {
    let cert = expect_yes(&negated_doubling());
    assert!(cert.phases.iter().any(|p| p.steps.is_some()), "{cert:?}");
}

#[test]
fn steps_bound_is_the_least_length_without_a_path() {
    let s = negated_doubling();
    // x = 3 runs 3, 4, 2, 6 and leaves: 4 steps, no 5
    assert_eq!(bounded::steps_bound(&s, &[1], &budget()), Some(5));
    assert!(bounded::check_steps_bound(&s, &[1], 5, &budget()).is_ok());
    assert!(bounded::check_steps_bound(&s, &[1], 4, &budget()).is_err());
}

#[test]
fn steps_bound_refuses_a_countdown() {
    // while (x > 0) x--: runs of every length
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::gt(v("x"), c(0)), vec![Term::sub(v("x"), c(1))]),
    ]);
    assert_eq!(bounded::steps_bound(&s, &[1], &budget()), None);
    assert!(bounded::check_steps_bound(&s, &[1], bounded::MAX_STEPS, &budget()).is_err());
}

#[test]
fn certificate_with_a_wrong_step_bound_is_rejected() {
    let s = negated_doubling();
    let prepared = prepare::prepare(&s, &budget());
    let scope = graph::cyclic_components(&prepared, &(0..prepared.transitions.len()).collect::<Vec<_>>()).remove(0);
    let phase = |k| ranking::Phase { scope: scope.clone(), removed: scope.clone(), functions: Default::default(), depth: 0, steps: Some(k) };
    assert!(check_certificate(&prepared, &Certificate { phases: vec![phase(3)] }, &budget()).is_err());
    assert!(check_certificate(&prepared, &Certificate { phases: vec![phase(5)] }, &budget()).is_ok());
}

/// Piecewise: `while (q > 0 && p > 0 && p != q) { if (q < p) { q--; p = *; } else { p--; q = *; } }`
/// (min(p, q) decreases; no lexicographic linear function on the loop head).
fn piecewise() -> Its {
    let pos = |a: &str| Formula::gt(v(a), c(0));
    its(&["p", "q"], vec![
        ("start", "l", Formula::True, vec![v("p"), v("q")]),
        ("l", "l", Formula::and([pos("p"), pos("q"), Formula::lt(v("q"), v("p"))]), vec![v("n"), Term::sub(v("q"), c(1))]),
        ("l", "l", Formula::and([pos("p"), pos("q"), Formula::lt(v("p"), v("q"))]), vec![Term::sub(v("p"), c(1)), v("m")]),
    ])
}

#[test]
fn split_by_guards_ranks_a_minimum() {
    let s = piecewise();
    let prepared = prepare::prepare(&s, &budget());
    let all: Vec<usize> = (0..prepared.transitions.len()).collect();
    let lin: Vec<rules::LinRule> = prepared.transitions.iter().map(|t| rules::linearize(&prepared, t)).collect();
    assert!(ranking::rank_and_remove(&prepared, &lin, &all, ranking::MAX_DEPTH, &budget()).is_err(), "not rankable unsplit");
    let scope = graph::cyclic_components(&prepared, &all).remove(0);
    let split = split::split_by_guards(&prepared, &[scope], &budget()).expect("split");
    assert!(split.locations.iter().any(|l| l.contains('[')), "{:?}", split.locations);
    let lin: Vec<rules::LinRule> = split.transitions.iter().map(|t| rules::linearize(&split, t)).collect();
    let all: Vec<usize> = (0..split.transitions.len()).collect();
    let phases = ranking::rank_and_remove(&split, &lin, &all, 1, &budget()).expect("linear on the split ITS");
    check_certificate(&split, &Certificate { phases }, &budget()).expect("certificate re-checks");
}

#[test]
fn split_keeps_a_non_terminating_run() {
    // while (x > 0) { if (x < 5) x++; else x = 1; }: split at x < 5, still no YES
    let s = its(&["x"], vec![
        ("start", "l", Formula::True, vec![v("x")]),
        ("l", "l", Formula::and([Formula::gt(v("x"), c(0)), Formula::lt(v("x"), c(5))]), vec![Term::add(v("x"), c(1))]),
        ("l", "l", Formula::and([Formula::gt(v("x"), c(0)), Formula::ge(v("x"), c(5))]), vec![c(1)]),
    ]);
    let prepared = prepare::prepare(&s, &budget());
    let all: Vec<usize> = (0..prepared.transitions.len()).collect();
    let scope = graph::cyclic_components(&prepared, &all).remove(0);
    let split = split::split_by_guards(&prepared, &[scope], &budget()).expect("split");
    let lin: Vec<rules::LinRule> = split.transitions.iter().map(|t| rules::linearize(&split, t)).collect();
    let all: Vec<usize> = (0..split.transitions.len()).collect();
    assert!(ranking::rank_and_remove(&split, &lin, &all, ranking::MAX_DEPTH, &budget()).is_err());
    assert!(!matches!(analyse(&s, &shares(), &budget()), Outcome::Yes { .. }));
}

#[test]
fn split_reaches_every_unrolled_copy_of_a_loop() {
    // the symbolic execution graph's two copies of one loop head (`l` and `k`), each an SCC
    // of its own that needs the split (Piecewise twice)
    let pos = |a: &str| Formula::gt(v(a), c(0));
    let left = || Formula::and([pos("p"), pos("q"), Formula::lt(v("q"), v("p"))]);
    let right = || Formula::and([pos("p"), pos("q"), Formula::lt(v("p"), v("q"))]);
    let s = its(&["p", "q"], vec![
        ("start", "l", left(), vec![v("n0"), Term::sub(v("q"), c(1))]),
        ("start", "k", right(), vec![Term::sub(v("p"), c(1)), v("m0")]),
        ("l", "l", left(), vec![v("n"), Term::sub(v("q"), c(1))]),
        ("l", "l", right(), vec![Term::sub(v("p"), c(1)), v("m")]),
        ("k", "k", left(), vec![v("n1"), Term::sub(v("q"), c(1))]),
        ("k", "k", right(), vec![Term::sub(v("p"), c(1)), v("m1")]),
    ]);
    let prepared = prepare::prepare(&s, &budget());
    let all: Vec<usize> = (0..prepared.transitions.len()).collect();
    let sccs = graph::cyclic_components(&prepared, &all);
    assert_eq!(sccs.len(), 2);
    let rank = |its: &Its| {
        let lin: Vec<rules::LinRule> = its.transitions.iter().map(|t| rules::linearize(its, t)).collect();
        let all: Vec<usize> = (0..its.transitions.len()).collect();
        ranking::rank_and_remove(its, &lin, &all, 1, &budget()).map(|phases| Certificate { phases })
    };
    // splitting one SCC leaves the other stuck; splitting both ranks the whole ITS
    let one = split::split_by_guards(&prepared, &sccs[..1], &budget()).expect("split");
    assert!(rank(&one).is_err());
    let both = split::split_by_guards(&prepared, &sccs, &budget()).expect("split");
    let cert = rank(&both).expect("ranked");
    check_certificate(&both, &cert, &budget()).expect("certificate re-checks");
}

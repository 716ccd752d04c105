//! Tests of the recurrent sets over mathematical integers: every encoded operation against
//! the interpreter's `math` arithmetic (including values outside their width), closed and
//! non-closed candidates, loops that look non-terminating but terminate, and the
//! independent re-check of witnesses (including tampered ones).

use super::math_ops::{self, NotEncodable};
use super::math_recurrent::{candidates, houdini};
use super::math_step::{encode_math_loop_step, var_term};
use super::*;
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::arith;
use crate::interp::value::Value;
use crate::ir::{ArithFlags, BinOp, CastOp, IntPred, Module};
use crate::logic::{Formula, Term};
use crate::termination::eval::{eval_formula, eval_term, Valuation};
use crate::verdict::{IntSemantics, NonTerminationWitness, RecurrentSetWitness};
use std::time::{Duration, Instant};

pub(super) fn config(sem: IntSemantics) -> Config {
    Config::new(sem, Duration::from_secs(60))
}

/// Cells of one array behind a variable index (the default configuration's).
pub(super) const MAX_CELLS: usize = 16;

pub(super) fn deadline() -> Instant {
    Instant::now() + Duration::from_secs(20)
}

/// Values of a `w`-bit register under `math`: canonical ones and some beyond the width.
fn values(w: u32) -> Vec<i128> {
    let p = 1i128 << w;
    let mut v = vec![0, 1, -1, 2, -2, 3, 5, -7, w as i128, p / 2 - 1, -p / 2, p - 1, p, p + 3, -p - 5, 3 * p + 1, 100, -100];
    v.sort();
    v.dedup();
    v
}

fn concrete<E>(r: Result<Value, E>) -> Option<i128> {
    match r {
        Ok(v) if !v.poison => Some(v.int),
        _ => None,
    }
}

#[test]
fn binary_operations_agree_with_the_interpreter() {
    let ops = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::UDiv, BinOp::SDiv, BinOp::URem, BinOp::SRem, BinOp::Shl, BinOp::LShr, BinOp::AShr, BinOp::And];
    let nsw = ArithFlags { nsw: true, ..ArithFlags::default() };
    let nuw = ArithFlags { nuw: true, ..ArithFlags::default() };
    let mut checked = 0;
    for w in [8u32, 32] {
        for op in ops {
            for flags in [ArithFlags::default(), nsw, nuw] {
                for &a in &values(w) {
                    for &b in &values(w) {
                        let (t, bad) = match math_ops::binary(op, flags, w, Term::Const(a), Term::Const(b)) {
                            Ok(r) => r,
                            Err(NotEncodable(_)) => continue,
                        };
                        let expected = concrete(arith::binary(op, flags, w, Value::int(a), Value::int(b), IntSemantics::Math));
                        let val = Valuation::new();
                        let got = if eval_formula(&bad, &val) == Some(true) { None } else { eval_term(&t, &val) };
                        assert_eq!(got, expected, "{op:?} {flags:?} i{w} {a} {b}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn comparisons_and_casts_agree_with_the_interpreter() {
    let preds = [IntPred::Eq, IntPred::Ne, IntPred::Slt, IntPred::Sle, IntPred::Sgt, IntPred::Sge, IntPred::Ult, IntPred::Ule, IntPred::Ugt, IntPred::Uge];
    let val = Valuation::new();
    for w in [8u32, 32] {
        for &a in &values(w) {
            for &b in &values(w) {
                for pred in preds {
                    let expected = arith::compare(pred, w, Value::int(a), Value::int(b), IntSemantics::Math).unwrap().int != 0;
                    assert_eq!(eval_formula(&math_ops::compare(pred, w, Term::Const(a), Term::Const(b)), &val), Some(expected), "{pred:?} {a} {b}");
                }
            }
            for (op, to) in [(CastOp::Trunc, 4), (CastOp::ZExt, 64), (CastOp::SExt, 64), (CastOp::BitCast, w)] {
                let expected = arith::cast(op, w, to, Value::int(a), IntSemantics::Math).unwrap().int;
                let t = math_ops::cast(op, w, to, Term::Const(a)).unwrap();
                assert_eq!(eval_term(&t, &val), Some(expected), "{op:?} i{w} {a} to i{to}");
            }
        }
    }
    // Branches test the low bit, as the interpreter does.
    assert_eq!(eval_formula(&math_ops::low_bit(Term::Const(-1)), &val), Some(true));
    assert_eq!(eval_formula(&math_ops::low_bit(Term::Const(2)), &val), Some(false));
}

pub(super) fn compile(src: &str) -> Module {
    crate::frontend::load_source(src, crate::driver::InputKind::C).expect("test program compiles")
}

pub(super) const NONDET: &str = "extern int __VERIFIER_nondet_int(void);\n";

pub(super) fn prove_no(src: &str) -> Option<NonTerminationWitness> {
    let m = compile(&format!("{NONDET}{src}"));
    let entry = m.function_by_name("main").unwrap();
    prove_nontermination(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::Math), deadline())
}

/// A NO whose witness carries a recurrent set that re-checks on a fresh module.
fn proved_no(src: &str) -> RecurrentSetWitness {
    let w = prove_no(src).unwrap_or_else(|| panic!("expected a recurrent set for {src}"));
    assert!(w.any_further_inputs);
    let rs = w.recurrent_set.expect("a math recurrent-set witness");
    let m = compile(&format!("{NONDET}{src}"));
    let entry = m.function_by_name("main").unwrap();
    assert!(recheck(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::Math), &rs, deadline()));
    rs
}

#[test]
fn growing_counters_and_doubling_are_non_terminating() {
    proved_no("int main(void) { int i = __VERIFIER_nondet_int(); while (i > 0) i = i + 1; return 0; }");
    proved_no("int main(void) { int x = __VERIFIER_nondet_int(); while (x > 1) x = 2 * x; return 0; }");
    // Values outgrow i128 quickly; the set is still found from the observed prefix.
    proved_no("int main(void) { int n = __VERIFIER_nondet_int(); int i = 0, j = 1, t; while (j != n) { t = j + i; i = j; j = t; } return 0; }");
    // No exit at all.
    let rs = proved_no("int main(void) { int i = __VERIFIER_nondet_int(); while (1) { if (i <= 0) i--; else i++; } return 0; }");
    assert_eq!(rs.set, Formula::True);
}

#[test]
fn guard_and_parity_candidates() {
    // |i| grows and the sign alternates: the guard i != 0 itself is closed.
    let rs = proved_no("int main(void) { int i = __VERIFIER_nondet_int(); while (i != 0) { if (i < 0) { i = i - 1; i = -i; } else { i = i + 1; i = -i; } } return 0; }");
    assert!(rs.set.to_string().contains("!= 0"), "{}", rs.set);
    // Steps of 2 from an odd value never hit 0 or 1 going down.
    proved_no("int main(void) { int i = __VERIFIER_nondet_int(); while (i != 1 && i != 0) i = i - 2; return 0; }");
    // Two variables moving towards each other by an odd distance.
    proved_no("int main(void) { int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int(); while (i != j) { i = i - 1; j = j + 1; } return 0; }");
}

#[test]
fn unsigned_counter_wraps_below_zero_under_math() {
    // SEMANTICS.md: `i >= 0` on an unsigned is always true; 0 - 1 wraps to UINT_MAX.
    proved_no("int main(void) { unsigned n = __VERIFIER_nondet_int(); for (unsigned i = n; i >= 0; i--) {} return 0; }");
}

#[test]
fn nondeterminism_in_the_body_is_universally_quantified() {
    // The input only feeds a variable that does not matter.
    proved_no("int main(void) { int x = __VERIFIER_nondet_int(), y = 0; while (x > 0) { y = __VERIFIER_nondet_int(); x = x + 1; } return y; }");
    // An input can end the loop in any iteration: not closed for every input, only for a
    // constant input that keeps x positive.
    let w = prove_no("int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) { x = x + __VERIFIER_nondet_int(); } return 0; }").unwrap();
    assert!(!w.any_further_inputs && w.recurrent_set.and_then(|r| r.fixed_input).is_some());
}

#[test]
fn constant_inputs_when_some_inputs_would_end_the_loop() {
    // Input 0 in the first test would set x = -1; feeding 1 forever keeps x growing.
    let src = "int main(void) { int x = __VERIFIER_nondet_int(); while (x >= 0) { if (__VERIFIER_nondet_int() != 0) x = x + 1; else x = -1; } return 0; }";
    let w = prove_no(src).expect("a NO with constant inputs");
    assert!(!w.any_further_inputs);
    let rs = w.recurrent_set.clone().unwrap();
    let c = rs.fixed_input.expect("closed only for a constant input");
    assert_eq!(w.input_cycle, vec![("__VERIFIER_nondet_int".to_string(), c)]);
    let m = compile(&format!("{NONDET}{src}"));
    let entry = m.function_by_name("main").unwrap();
    let facts = ModuleFacts::new(&m);
    let check = |w: &RecurrentSetWitness| recheck(&m, &facts, entry, &config(IntSemantics::Math), w, deadline());
    assert!(check(&rs));
    // Not closed for every input, and -1 is not a value every input type holds unchanged.
    assert!(!check(&RecurrentSetWitness { fixed_input: None, ..rs.clone() }));
    assert!(!check(&RecurrentSetWitness { fixed_input: Some(-1), ..rs }));
    // Terminating whatever the inputs: x decreases in every iteration.
    assert!(prove_no("int main(void) { int x = __VERIFIER_nondet_int(), y = 1; while (x > 0 && y != 0) { y = __VERIFIER_nondet_int(); x = x - 1; } return 0; }").is_none());
}

#[test]
fn booleans_selects_and_switches_in_the_body() {
    // A `_Bool` flag carried around the loop, a conditional expression, a switch.
    proved_no("int main(void) { int x = __VERIFIER_nondet_int(); _Bool go = x > 0; while (go) { x = x > 5 ? x + 2 : x + 1; go = x > 0; } return 0; }");
    proved_no("int main(void) { int x = __VERIFIER_nondet_int(); while (x != 3) { switch (x) { case 1: x = 3; break; case 2: x = 3; break; default: x = x + 2; } } return 0; }");
    // The flag turns false after one iteration: terminating, no NO.
    assert!(prove_no("int main(void) { int x = __VERIFIER_nondet_int(); _Bool go = 1; while (go) { x = x + 1; go = !go; } return x; }").is_none());
}

#[test]
fn nested_loop_stuck_inside() {
    proved_no("int main(void) { int i = __VERIFIER_nondet_int(), j; while (i < 10) { j = i; while (j > 0) j = j + 1; i = i + 1; } return 0; }");
}

#[test]
fn terminating_loops_get_no_witness() {
    // The graph's ITS loses `&` (the result is unconstrained), so it looks non-terminating;
    // the exact encoding refuses the operation and no NO is claimed.
    assert!(prove_no("int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x = x & (x - 1); return 0; }").is_none());
    // Halving terminates.
    assert!(prove_no("int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x = x / 2; return 0; }").is_none());
    // Unsigned growth is unbounded under math too, but this loop has a bound.
    assert!(prove_no("int main(void) { int i = __VERIFIER_nondet_int(); while (i > 0 && i < 1000000) i = i + 1; return 0; }").is_none());
    // A memory cell that counts down: terminating, no NO.
    assert!(prove_no("int main(void) { int a[2]; a[0] = __VERIFIER_nondet_int(); while (a[0] > 0) a[0] = a[0] - 1; return 0; }").is_none());
}

fn counter_step() -> (Module, super::math_step::MathLoopStep) {
    let m = compile(&format!("{NONDET}int main(void) {{ int i = __VERIFIER_nondet_int(); while (i > 0) i = i + 1; return 0; }}"));
    let f = &m.functions[m.function_by_name("main").unwrap().0 as usize];
    let lp = ModuleFacts::new(&m).function(&m, m.function_by_name("main").unwrap()).loops.loops[0].clone();
    let step = encode_math_loop_step(&m, f, &lp, MAX_CELLS).unwrap();
    (m, step)
}

#[test]
fn houdini_drops_non_inductive_candidates_and_refuses_exiting_sets() {
    let (_, step) = counter_step();
    let i = var_term(&step.state[0]);
    let limits = *config(IntSemantics::Math).bitprecise();
    // i <= 10 is not closed (i grows); i >= 1 is.
    let cands = vec![Formula::ge(i.clone(), Term::Const(1)), Formula::le(i.clone(), Term::Const(10))];
    let set = houdini(&step, None, cands, &limits, deadline()).expect("i >= 1 is closed");
    assert_eq!(set, Formula::ge(i.clone(), Term::Const(1)));
    // i == 0 can leave the loop: no set.
    assert!(houdini(&step, None, vec![Formula::eq(i.clone(), Term::Const(0))], &limits, deadline()).is_none());
    // Observations filter the candidates.
    let obs: Vec<Valuation> = [5, 6, 7].iter().map(|v| [(crate::logic::Var::new(&step.state[0].name), *v)].into()).collect();
    let c = candidates(&step, &obs);
    assert!(c.contains(&Formula::ge(i.clone(), Term::Const(5))));
    assert!(!c.iter().any(|f| *f == Formula::le(i.clone(), Term::Const(0))));
}

#[test]
fn recheck_rejects_tampered_witnesses() {
    let src = "int main(void) { int i = __VERIFIER_nondet_int(); while (i > 0) i = i + 1; return 0; }";
    let good = proved_no(src);
    let m = compile(&format!("{NONDET}{src}"));
    let entry = m.function_by_name("main").unwrap();
    let facts = ModuleFacts::new(&m);
    let check = |w: &RecurrentSetWitness, sem: IntSemantics| recheck(&m, &facts, entry, &config(sem), w, deadline());
    assert!(check(&good, IntSemantics::Math));
    // Only under math.
    assert!(!check(&good, IntSemantics::C));
    let (_, step) = counter_step();
    let i = var_term(&step.state[0]);
    // A set that is not closed (the loop can exit from i <= 0).
    let open = RecurrentSetWitness { set: Formula::True, ..good.clone() };
    assert!(!check(&open, IntSemantics::Math));
    // A stem that does not reach the set: the input 0 skips the loop.
    let skips = RecurrentSetWitness { stem_inputs: vec![("__VERIFIER_nondet_int".into(), 0)], ..good.clone() };
    assert!(!check(&skips, IntSemantics::Math));
    // A closed set the reached state does not satisfy.
    let elsewhere = RecurrentSetWitness { set: Formula::ge(i.clone(), Term::Const(1_000_000)), ..good.clone() };
    assert!(!check(&elsewhere, IntSemantics::Math));
    // Variables that are not the loop's, and a header that does not exist.
    let foreign = RecurrentSetWitness { set: Formula::ge(Term::Var(crate::logic::Var::new("zz")), Term::Const(1)), ..good.clone() };
    assert!(!check(&foreign, IntSemantics::Math));
    let nowhere = RecurrentSetWitness { header: "no.such.block".into(), ..good.clone() };
    assert!(!check(&nowhere, IntSemantics::Math));
    // A stem one step short of the header entry.
    let short = RecurrentSetWitness { stem_steps: good.stem_steps - 1, ..good };
    assert!(!check(&short, IntSemantics::Math));
}

#[test]
fn loops_over_fixed_memory_cells() {
    // A cell of a local array (alloca with a constant offset), a global, and a pointer to a
    // stack cell defined before the loop: each cell is a state variable.
    let rs = proved_no("int main(void) { int a[2]; a[0] = __VERIFIER_nondet_int(); a[1] = 1; while (a[0] > 0) a[0] = a[0] + a[1]; return 0; }");
    assert!(rs.set.to_string().contains("*a"), "{}", rs.set);
    proved_no("int g; int main(void) { g = __VERIFIER_nondet_int(); while (g >= 0) g = 2 * g + 10; return 0; }");
    proved_no("#include <stdlib.h>\nint main(void) { int *x = alloca(sizeof(int)); *x = __VERIFIER_nondet_int(); while (*x >= 0) *x = 2 * (*x) + 10; return 0; }");
    // Stores on some paths only, a cell and a register together.
    proved_no("int main(void) { int c[1]; int i = __VERIFIER_nondet_int(); c[0] = 0; while (i > 0) { if (c[0] > 5) i = i + 1; else c[0] = c[0] + 1; } return 0; }");
}

#[test]
fn memory_the_encoding_cannot_fix_is_refused() {
    let step_of = |src: &str| {
        let m = compile(&format!("{NONDET}{src}"));
        let main = m.function_by_name("main").unwrap();
        let lp = ModuleFacts::new(&m).function(&m, main).loops.loops[0].clone();
        encode_math_loop_step(&m, m.function(main), &lp, MAX_CELLS)
    };
    // A variable index into memory of unknown size (a pointer into the middle of an array)
    // or into more cells than the limit.
    assert!(step_of("int main(void) { int a[4] = {0}; int *p = a + (__VERIFIER_nondet_int() & 1); int i = 0; while (p[i] >= 0) i = (i + 1) % 3; return 0; }").is_err());
    assert!(step_of("int main(void) { int a[17]; int i = 0; a[0] = 1; while (i >= 0) { a[i % 17] = i; i = i + 1; } return 0; }").is_err());
    // A variable byte index into an int array: the access may straddle two cells.
    assert!(step_of("int main(void) { int a[4]; int i = 0; a[0] = 1; while (i >= 0) { *(int *)((char *)a + i % 13) = i; i = i + 1; } return 0; }").is_err());
    // A call of a defined function, and a free, may touch memory the encoding does not see.
    assert!(step_of("void f(int *p) { *p = 0; }\nint main(void) { int x = 1; while (x > 0) { f(&x); x = x + 1; } return 0; }").is_err());
    // Pointers loaded from memory are not fixed addresses.
    assert!(step_of("int x; int *gp; int main(void) { gp = &x; x = 1; while (*gp > 0) *gp = *gp + 1; return 0; }").is_err());
    // The same bytes accessed as an int and as a char.
    assert!(step_of("int main(void) { int x = 1; while (x > 0) { *(char *)&x = 1; x = x + 1; } return 0; }").is_err());
}

/// Runs `main` of `src` (no inputs) in the interpreter under `math` and checks that, between
/// every two consecutive visits of its first loop's header, the encoded iteration takes a
/// back edge and lands exactly on the interpreter's next state, memory cells included.
fn encoding_follows_the_interpreter(src: &str) -> usize {
    use super::header_visits::HeaderVisits;
    use crate::interp::{run_observed, RunConfig, SequenceInputs};
    use crate::smt::{check_sat, Budget, SatResult};
    let m = compile(src);
    let main = m.function_by_name("main").unwrap();
    let facts = ModuleFacts::new(&m);
    let lp = facts.function(&m, main).loops.loops[0].clone();
    let step = encode_math_loop_step(&m, m.function(main), &lp, MAX_CELLS).expect("encodable");
    assert!(!step.cells.is_empty(), "the loop keeps its state in memory");
    let cfg = RunConfig::new(IntSemantics::Math, config(IntSemantics::Math).witnesses().run, 100_000);
    let mut visits = HeaderVisits::new(main, lp.header, 1, step.cell_specs(), 200, 0);
    run_observed(&m, &facts, main, &[], &cfg, &mut SequenceInputs::new(vec![], None), &mut visits);
    let states: Vec<Valuation> = visits.first.iter().map(|v| super::recheck::observation(&step, v).expect("cells readable")).collect();
    let pinned = |o: &Valuation| Formula::and(o.iter().map(|(v, x)| Formula::eq(Term::Var(v.clone()), Term::Const(*x))));
    for pair in states.windows(2) {
        let lands = Formula::and([step.stay.clone(), step.after_iteration(&pinned(&pair[1]))]);
        let differs = Formula::and([pinned(&pair[0]), Formula::and(step.definitions.clone()), Formula::not(lands)]);
        assert_eq!(check_sat(&differs, &Budget::unlimited(Duration::from_secs(10))), SatResult::Unsat, "{src}: {:?} -> {:?}", pair[0], pair[1]);
    }
    states.len()
}

#[test]
fn memory_cells_follow_the_interpreter() {
    // Array cells at constant offsets, stores on some paths, division and remainder.
    let n = encoding_follows_the_interpreter(
        "int main(void) { int a[3]; a[0] = 100; a[1] = 0; a[2] = 7; while (a[0] > 0) { if (a[0] % 2) { a[1] = a[1] + a[2]; a[0] = a[0] - 1; } else a[0] = a[0] / 2; } return a[1]; }",
    );
    assert!(n > 5, "{n} visits");
    // A global and a char cell that wraps to 0, next to a register.
    encoding_follows_the_interpreter("char c; int g; int main(void) { int i = 0; while (g < 200) { c = c + 1; if (c > 3) c = 0; g = g + c; i++; } return i; }");
    // Struct fields of different sizes; a value stored twice in one iteration.
    encoding_follows_the_interpreter(
        "struct s { int x; long y; short z; }; int main(void) { struct s v; v.x = 1; v.y = 0; v.z = 3; while (v.y < 1000) { v.y = v.y + v.x; v.x = v.x + v.z; v.z = -v.z; v.z = v.z + 1; } return 0; }",
    );
}

#[test]
fn aliased_or_uninitialised_cells_give_no_witness() {
    // p[1] and q[0] are the same int of g: the store through q ends the loop. The encoding
    // sees two cells of different bases; their concrete ranges overlap, so no observation.
    assert!(prove_no("int g[4]; void f(int *p, int *q) { while (p[1] > 0) { q[0] = q[0] - 1; p[0] = p[0] + 1; } }\nint main(void) { g[2] = __VERIFIER_nondet_int(); f(g + 1, g + 2); return 0; }").is_none());
    // The same cell through two parameters, counting down from a value so large that every
    // observed run is still in the loop at the step limit: only the overlap check of the
    // observation keeps `*p > 0` (closed if *q were another cell) from becoming a NO.
    assert!(prove_no("void f(int *p, int *q) { while (*p > 0) { *q = *q - 1; } }\nint main(void) { int x = 1000000000; f(&x, &x); return 0; }").is_none());
    // Distinct cells through two parameters: non-terminating for x > 0.
    proved_no("void f(int *p, int *q) { while (*p > 0) { *q = *q - 1; } }\nint main(void) { int x = __VERIFIER_nondet_int(); int y = 0; f(&x, &y); return 0; }");
    // An uninitialised cell is not observed (its value would be drawn on the first read).
    assert!(prove_no("int main(void) { int a[2]; int n = __VERIFIER_nondet_int(); while (n > 0) { a[1] = a[1] + 1; if (a[1] > 100) n = 0; } return 0; }").is_none());
}

#[test]
fn variable_indices_into_arrays_of_known_size() {
    // Every cell of the array is a state variable; the index stays in bounds in the set.
    let rs = proved_no("int main(void) { int a[4] = {0, 1, 2, 3}; int i = __VERIFIER_nondet_int(); if (i < 0 || i > 3) return 0; while (a[i] >= 0) { a[i] = a[i] + 1; i = (i + 1) % 4; } return 0; }");
    assert!(rs.set.to_string().contains("*a"), "{}", rs.set);
    // A global array, written at a variable index and read at a constant one.
    proved_no("int g[3]; int main(void) { int i = 0; g[0] = __VERIFIER_nondet_int(); g[1] = 0; g[2] = 0; while (g[0] > 0) { g[i] = g[i] + 1; i = i + 1; if (i == 3) i = 0; } return 0; }");
    // Two dimensions.
    proved_no("int main(void) { int m[2][2] = {{1, 1}, {1, 1}}; int i = 0, j = 0; while (m[0][0] > 0) { m[i][j] = m[i][j] + m[j][i]; j = 1 - j; if (j == 0) i = 1 - i; } return 0; }");
    // An index that runs past the end: undefined behaviour, never a NO.
    assert!(prove_no("int main(void) { int a[4] = {1, 1, 1, 1}; int i = 0; while (a[0] > 0) { a[i] = 1; i = i + 1; } return 0; }").is_none());
    // A terminating loop over an array (each cell counts down): no NO.
    assert!(prove_no("int main(void) { int a[3] = {5, 5, 5}; int i = 0; while (a[i] > 0) { a[i] = a[i] - 1; i = (i + 1) % 3; } return 0; }").is_none());
}

#[test]
fn array_cells_follow_the_interpreter() {
    // Variable reads and writes, the index itself a cell's value, a 2-D array, a global.
    encoding_follows_the_interpreter("int main(void) { int a[5] = {3, 1, 4, 1, 5}; int i = 0, s = 0; while (s < 500) { s = s + a[i]; a[(i + 2) % 5] = a[i] + 1; i = (i + 1) % 5; } return s; }");
    encoding_follows_the_interpreter("int main(void) { int a[4] = {1, 2, 3, 0}; int k = 0; while (k < 200) { a[a[3]] = a[a[3]] + k; a[3] = (a[3] + 1) % 3; k++; } return 0; }");
    encoding_follows_the_interpreter("int main(void) { short m[3][2] = {{1, 2}, {3, 4}, {5, 6}}; int i = 0, j = 1; while (m[2][1] < 300) { m[i][j] = m[i][j] + m[2 - i][1 - j]; j = 1 - j; i = (i + 1) % 3; } return 0; }");
    encoding_follows_the_interpreter("long g[3]; int main(void) { int i = 2; g[1] = 7; while (g[0] < 1000) { g[i] = g[i] * 2 + g[1]; i = i == 0 ? 2 : i - 1; } return 0; }");
}

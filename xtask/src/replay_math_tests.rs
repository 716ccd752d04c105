//! Unit tests of the replay interpreter (`replay_math.rs`, `replay_math_witness.rs`): one per
//! rule, on small C programs lowered by the engine's front end and hand-written witnesses.

use crate::replay_math_witness::{replay_no, replay_violation, Outcome};
use serde_json::{json, Value};
use termcheck_engine::driver::InputKind;
use termcheck_engine::ir::{Module, Op};
use termcheck_engine::logic::{Formula, Rel, Term, Var};
use termcheck_engine::verdict::IntSemantics;

const BUDGET: u64 = 20_000;

fn module(c: &str) -> Module {
    termcheck_engine::frontend::load_source(c, InputKind::C).expect("the test program compiles")
}

/// The set-variable name (`x#N`) of the phi named `var` in `main`'s block `header`.
fn phi_name(m: &Module, header: &str, var: &str) -> String {
    let f = &m.functions[m.function_by_name("main").expect("main").0 as usize];
    let block = f.blocks.iter().find(|b| b.name == header).expect("the header block");
    let v = block.instrs.iter().filter(|i| matches!(i.op, Op::Phi { .. })).filter_map(|i| i.result).find(|v| f.value_names[v.0 as usize].as_deref() == Some(var)).expect("the phi");
    format!("{var}#{}", v.0)
}

/// A witness: `inputs` in order, then any values (`any_further`) or none; optionally the
/// recurrent set `set` at `main`'s block `header`.
fn witness(inputs: &[(&str, i64)], any_further: bool, set: Option<(&str, Formula)>) -> Value {
    let named: Vec<Value> = inputs.iter().map(|(n, v)| json!({ "name": n, "value": v })).collect();
    json!({
        "result": "NO",
        "entry_args": [],
        "entry_memory": [],
        "inputs": named,
        "input_cycle": [],
        "any_further_inputs": any_further,
        "recurrent_set": set.map(|(header, f)| json!({
            "function": "main", "header": header, "depth": 1, "stem_inputs": named, "stem_steps": 0,
            "fixed_input": null, "set": f.to_string(), "set_formula": serde_json::to_value(&f).expect("serializable"), "inner_sets": [],
        })),
        "its_lasso": null,
    })
}

/// The widest value a replayed run reports (`values up to N bits`).
fn widest(detail: &str) -> u64 {
    detail.split("values up to ").nth(1).and_then(|r| r.split(' ').next()).and_then(|b| b.parse().ok()).expect("the widest value")
}

fn at_least(name: &str, c: i128) -> Formula {
    Formula::Cmp(Rel::Ge, Term::Var(Var::new(name)), Term::Const(c))
}

const DOUBLING: &str = "int main(void) { int x = 1; while (x > 0) { x = x * 2; } return 0; }";

#[test]
fn a_terminating_run_disagrees() {
    let m = module("extern int __VERIFIER_nondet_int(void);\nint main(void) { int n = __VERIFIER_nondet_int(); while (n > 0) { n = n - 1; } return 0; }");
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[("__VERIFIER_nondet_int", 5)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("ends")), "{out:?}");
}

#[test]
fn an_unsupported_instruction_is_not_replayed() {
    let m = module("int main(void) { double d = 1.0; while (d > 0.0) { d = d * 1.5; } return 0; }");
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], false, None), BUDGET);
    assert!(matches!(&out, Outcome::NotReplayed(d) if d.starts_with("unsupported")), "{out:?}");
}

#[test]
fn growth_past_two_to_the_64_replays_over_the_integers() {
    let m = module(DOUBLING);
    let set = at_least(&phi_name(&m, "while.cond", "x"), 1);
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], true, Some(("while.cond", set))), BUDGET);
    let Outcome::Replayed(detail) = &out else { panic!("{out:?}") };
    assert!(widest(detail) > 64, "{detail}");
    assert!(detail.contains("in the recurrent set"), "{detail}");
}

#[test]
fn the_same_growth_is_undefined_under_c() {
    let m = module(DOUBLING);
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&[], true, None), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.starts_with("undefined-behaviour")), "{out:?}");
}

#[test]
fn mathematical_values_are_kept_in_memory() {
    // `x` lives in memory (its address is taken): its value passes 2^31 there
    let m = module("int main(void) { int x = 1; int *p = &x; while (*p > 0) { *p = *p * 2; } return 0; }");
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], true, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(d) if widest(d) > 64), "{out:?}");
}

#[test]
fn a_run_that_leaves_its_recurrent_set_disagrees() {
    let m = module("int main(void) { int x = 10; while (x > 0) { x = x - 1; } while (1) { } return 0; }");
    let set = at_least(&phi_name(&m, "while.cond", "x"), 1);
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], true, Some(("while.cond", set))), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("leaves the recurrent set")), "{out:?}");
}

#[test]
fn a_run_that_never_enters_its_recurrent_set_disagrees() {
    let m = module("int main(void) { int x = 1; while (x > 0) { x = 2 - x; } return 0; }");
    let set = Formula::Cmp(Rel::Le, Term::Var(Var::new(phi_name(&m, "while.cond", "x"))), Term::Const((-1).into()));
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], true, Some(("while.cond", set))), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("does not enter")), "{out:?}");
}

const UNINITIALISED: &str = "int main(void) { int a; int b = 0; while (a > 0) { b = b + 1; b = b - 1; } return 0; }";

#[test]
fn the_value_chosen_for_an_uninitialised_local_is_fed_under_c_and_math() {
    let m = module(UNINITIALISED);
    for sem in [IntSemantics::C, IntSemantics::Math] {
        let out = replay_no(&m, "main", sem, &witness(&[("freeze", 3)], false, None), BUDGET);
        assert!(matches!(&out, Outcome::Replayed(_)), "{sem:?}: {out:?}");
        let out = replay_no(&m, "main", sem, &witness(&[("freeze", 0)], false, None), BUDGET);
        assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("ends")), "{sem:?}: {out:?}");
    }
}

#[test]
fn an_input_of_another_kind_or_one_too_many_disagrees() {
    let m = module(UNINITIALISED);
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&[("__VERIFIER_nondet_int", 3)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("`freeze` in the run")), "{out:?}");
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&[], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("the witness gives 0")), "{out:?}");
}

#[test]
fn an_uninitialised_read_of_memory_takes_one_input_and_keeps_it() {
    // the first load of the fresh block draws `uninit-read`, the later loads read it back
    let m = module("void *malloc(unsigned long);\nint main(void) { int *p = malloc(4); while (*p != 0) { *p = *p + 0; } return 0; }");
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&[("uninit-read", 7)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(_)), "{out:?}");
}

#[test]
fn a_state_the_run_comes_back_to_is_an_exact_lasso_but_growth_is_not() {
    let m = module(UNINITIALISED);
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&[("freeze", 3)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(d) if d.contains("a lasso")), "{out:?}");
    let m = module(DOUBLING);
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[], true, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(d) if !d.contains("a lasso")), "{out:?}");
}

/// A violation witness (the JSON `memory` object).
fn violation(kind: &str, inputs: &[(&str, i64)]) -> Value {
    let named: Vec<Value> = inputs.iter().map(|(n, v)| json!({ "name": n, "value": v })).collect();
    json!({ "result": "violated", "kind": kind, "message": "", "location": null, "entry_args": [], "entry_memory": [], "inputs": named })
}

const OUT_OF_BOUNDS: &str = "extern int __VERIFIER_nondet_int(void);\nint main(void) { int a[4]; int i = __VERIFIER_nondet_int(); a[i] = 1; return a[0]; }";

#[test]
fn a_violation_replays_when_the_run_faults_with_its_kind() {
    let m = module(OUT_OF_BOUNDS);
    let out = replay_violation(&m, "main", IntSemantics::C, &violation("invalid-write", &[("__VERIFIER_nondet_int", 4)]), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(d) if d.starts_with("invalid-write")), "{out:?}");
}

#[test]
fn a_violation_disagrees_when_the_run_faults_otherwise_or_ends() {
    let m = module(OUT_OF_BOUNDS);
    let out = replay_violation(&m, "main", IntSemantics::C, &violation("null-dereference", &[("__VERIFIER_nondet_int", 4)]), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("not null-dereference")), "{out:?}");
    // `a[0]` is read uninitialised after the in-bounds store: one more input
    let out = replay_violation(&m, "main", IntSemantics::C, &violation("invalid-write", &[("__VERIFIER_nondet_int", 2), ("uninit-read", 0)]), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("ends")), "{out:?}");
}

#[test]
fn memcpy_copies_bytes_and_fixes_uninitialised_ones_first() {
    let m = module("int main(void) { char a[4]; a[0] = 'a'; char b[4]; __builtin_memcpy(b, a, 4); while (b[0] == 'a' && b[3] == a[3]) { } return 0; }");
    let inputs = [("uninit-read", 1), ("uninit-read", 2), ("uninit-read", 3)];
    let out = replay_no(&m, "main", IntSemantics::C, &witness(&inputs, false, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(d) if d.contains("a lasso")), "{out:?}");
}

/// Old C calls `__VERIFIER_assume` through an implicit `int f()`: the value it "returns" is
/// arbitrary, the witness's next input (as in the engine's interpreter). A result that keeps
/// the loop going replays; one that ends it disagrees.
#[test]
fn the_result_of_a_void_function_called_as_int_is_the_next_input() {
    let m = module("int __VERIFIER_assume(int);\nint main(void) { int r = __VERIFIER_assume(1); while (r > 0) { } return 0; }");
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[("__VERIFIER_assume result", 1)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Replayed(_)), "{out:?}");
    let out = replay_no(&m, "main", IntSemantics::Math, &witness(&[("__VERIFIER_assume result", 0)], false, None), BUDGET);
    assert!(matches!(&out, Outcome::Disagrees(d) if d.contains("ends")), "{out:?}");
}

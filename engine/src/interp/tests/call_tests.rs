//! Calls: defined functions, recursion limits, verifier functions, intrinsics, unknown externals.

use super::builder::*;
use crate::interp::{run, Outcome, RunConfig, SequenceInputs};
use crate::ir::*;
use crate::verdict::IntSemantics::*;

/// main calls the declaration `name` (function 1) with `args` and returns its result (or 0).
fn calling(name: &str, params: &[Type], ret: Type, args: Vec<Operand>) -> Module {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let r = if ret == Type::Void {
        f.push_void(e, call(1, args, Type::Void));
        c(32, 0)
    } else {
        f.push(e, call(1, args, ret.clone()))
    };
    f.term(e, Terminator::Ret(Some(r)));
    module(vec![f.finish(), decl(name, params, ret)])
}

#[test]
fn nondet_values_come_from_the_input_source_and_are_recorded() {
    let m = calling("__VERIFIER_nondet_int", &[], i32t(), vec![]);
    let r = run_with(&m, C, &[], vec![1 << 40 | 7]);
    assert_eq!(r.outcome, Outcome::Returned(Some(7)));
    assert_eq!(r.trace_inputs, vec![("__VERIFIER_nondet_int".to_string(), 7)]);
    let m = calling("__VERIFIER_nondet_uint", &[], i32t(), vec![]);
    let r = run_with(&m, C, &[], vec![-1]);
    assert_eq!(r.outcome, Outcome::Returned(Some(-1)));
    assert_eq!(r.trace_inputs, vec![("__VERIFIER_nondet_uint".to_string(), u32::MAX as i128)]);
    // Replaying the recorded (unsigned) value gives the same run.
    assert_eq!(run_with(&m, C, &[], vec![u32::MAX as i128]).outcome, Outcome::Returned(Some(-1)));
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::InputsExhausted);
}

#[test]
fn assume_blocks_and_exits_exit() {
    let m = calling("__VERIFIER_assume", &[i32t()], Type::Void, vec![c(32, 0)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Blocked);
    let m = calling("__VERIFIER_assume", &[i32t()], Type::Void, vec![c(32, 3)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(0)));
    let m = calling("abort", &[], Type::Void, vec![]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Exited("abort".into()));
    let m = calling("__VERIFIER_assume", &[i32t()], Type::Void, vec![Operand::Poison(i32t())]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(crate::interp::kind::UNDEFINED_BEHAVIOUR));
}

#[test]
fn unknown_externals_are_unsupported() {
    let m = calling("mystery_io", &[Type::Ptr], i32t(), vec![Operand::NullPtr]);
    match run_with(&m, C, &[], vec![]).outcome {
        Outcome::Unsupported(msg) => assert!(msg.contains("unknown external function mystery_io"), "{msg}"),
        o => panic!("expected Unsupported, got {o:?}"),
    }
}

#[test]
fn min_max_and_abs_intrinsics() {
    let m = calling("llvm.smax.i32", &[i32t(), i32t()], i32t(), vec![c(32, -3), c(32, 2)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(2)));
    let m = calling("llvm.umax.i32", &[i32t(), i32t()], i32t(), vec![c(32, -3), c(32, 2)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(-3)));
    let m = calling("llvm.abs.i32", &[i32t(), Type::Int(1)], i32t(), vec![c(32, -3), c(1, -1)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(3)));
    let m = calling("llvm.abs.i32", &[i32t(), Type::Int(1)], i32t(), vec![c(32, i32::MIN as i128), c(1, -1)]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(crate::interp::kind::UNDEFINED_BEHAVIOUR));
}

/// `int f(int n) { return n == 0 ? 0 : 1 + f(n - 1); }` as function 0.
fn recursive() -> Module {
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let base = f.block("base");
    let rec = f.block("rec");
    let n = f.param(0);
    let z = f.push(e, icmp(IntPred::Eq, 32, n.clone(), c(32, 0)));
    f.term(e, Terminator::CondBr { cond: z, then_block: base, else_block: rec });
    f.term(base, Terminator::Ret(Some(c(32, 0))));
    let m1 = f.push(rec, nsw(BinOp::Sub, 32, n, c(32, 1)));
    let r = f.push(rec, call(0, vec![m1], i32t()));
    let s = f.push(rec, nsw(BinOp::Add, 32, r, c(32, 1)));
    f.term(rec, Terminator::Ret(Some(s)));
    module(vec![f.finish()])
}

#[test]
fn recursion_and_the_depth_limit() {
    let m = recursive();
    assert_eq!(run_with(&m, C, &[10], vec![]).outcome, Outcome::Returned(Some(10)));
    let cfg = RunConfig::new(crate::verdict::IntSemantics::C, crate::config::RunLimits { max_call_depth: 100, ..super::run_limits() }, 1_000_000);
    let r = run(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), &[-1], &cfg, &mut SequenceInputs::new(vec![], None));
    assert_eq!(r.outcome, Outcome::DepthLimit);
}

#[test]
fn indirect_calls_through_function_addresses() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let r = f.push(e, Op::Call { callee: Callee::Indirect(Operand::Function(FuncId(1))), args: vec![c(32, 4)], ret: i32t() });
    f.term(e, Terminator::Ret(Some(r)));
    let mut g = FnBuilder::new("g", &[i32t()], i32t());
    let ge = g.block("entry");
    let p = g.param(0);
    let d = g.push(ge, nsw(BinOp::Mul, 32, p, c(32, 2)));
    g.term(ge, Terminator::Ret(Some(d)));
    let m = module(vec![f.finish(), g.finish()]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(8)));
}

#[test]
fn unsupported_instructions_stop_the_run() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let r = f.push(e, Op::Unsupported { text: "fadd double".into() });
    f.term(e, Terminator::Ret(Some(r)));
    assert!(matches!(run_with(&module(vec![f.finish()]), C, &[], vec![]).outcome, Outcome::Unsupported(_)));
}

#[test]
fn switch_picks_the_matching_case_or_the_default() {
    let mut f = FnBuilder::new("main", &[i32t()], i32t());
    let e = f.block("entry");
    let one = f.block("one");
    let two = f.block("two");
    let other = f.block("other");
    let p = f.param(0);
    f.term(e, Terminator::Switch { value: p, bits: 32, default: other, cases: vec![(1, one), (-2, two)] });
    f.term(one, Terminator::Ret(Some(c(32, 10))));
    f.term(two, Terminator::Ret(Some(c(32, 20))));
    f.term(other, Terminator::Ret(Some(c(32, 30))));
    let m = module(vec![f.finish()]);
    assert_eq!(run_with(&m, C, &[1], vec![]).outcome, Outcome::Returned(Some(10)));
    assert_eq!(run_with(&m, C, &[-2], vec![]).outcome, Outcome::Returned(Some(20)));
    assert_eq!(run_with(&m, C, &[0xfffffffe], vec![]).outcome, Outcome::Returned(Some(20)));
    assert_eq!(run_with(&m, C, &[7], vec![]).outcome, Outcome::Returned(Some(30)));
}

#[test]
fn undef_operands_are_fresh_inputs() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let r = f.push(e, bin(BinOp::Add, 32, Operand::Undef(i32t()), c(32, 1)));
    f.term(e, Terminator::Ret(Some(r)));
    let m = module(vec![f.finish()]);
    let r = run_with(&m, C, &[], vec![41]);
    assert_eq!(r.outcome, Outcome::Returned(Some(42)));
    assert_eq!(r.trace_inputs, vec![("undef".to_string(), 41)]);
}

#[test]
fn reaching_unreachable_is_undefined_behaviour() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    f.term(e, Terminator::Unreachable);
    let m = module(vec![f.finish()]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(crate::interp::kind::UNDEFINED_BEHAVIOUR));
}

#[test]
fn implicitly_declared_void_functions_give_an_arbitrary_result() {
    // Old C: `__VERIFIER_assume(n >= 0)` without a prototype is `int __VERIFIER_assume()`.
    let m = calling("__VERIFIER_assume", &[], i32t(), vec![c(32, 1)]);
    let r = run_with(&m, C, &[], vec![7]);
    assert_eq!(r.outcome, Outcome::Returned(Some(7)));
    assert_eq!(r.trace_inputs, vec![("__VERIFIER_assume result".to_string(), 7)]);
}

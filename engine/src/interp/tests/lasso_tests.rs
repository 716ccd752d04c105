//! Lasso detection: exact state repeats at loop headers.

use super::builder::*;
use crate::interp::{run, Outcome, RunConfig, SequenceInputs, StrategyInputs, Strategy};
use crate::ir::*;
use crate::verdict::IntSemantics::*;

/// `while (x != 0) x = x; return 0;` with x a parameter (a phi at the header).
fn stuck_loop() -> Module {
    let mut f = FnBuilder::new("main", &[i32t()], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let body = f.block("body");
    let exit = f.block("exit");
    let p = f.param(0);
    f.term(e, Terminator::Br(h));
    let x = f.phi(h, i32t(), vec![]);
    let nz = f.push(h, icmp(IntPred::Ne, 32, x.clone(), c(32, 0)));
    f.term(h, Terminator::CondBr { cond: nz, then_block: body, else_block: exit });
    f.term(body, Terminator::Br(h));
    f.set_phi(h, &x, vec![(p, e), (x.clone(), body)]);
    f.term(exit, Terminator::Ret(Some(c(32, 0))));
    module(vec![f.finish()])
}

#[test]
fn a_loop_that_keeps_its_state_is_a_lasso() {
    let m = stuck_loop();
    match run_with(&m, C, &[1], vec![]).outcome {
        Outcome::Lasso(l) => {
            assert_eq!(l.block, "header");
            assert!(l.cycle_steps > 0);
            assert!(l.inputs_in_cycle.is_empty());
        }
        o => panic!("expected a lasso, got {o:?}"),
    }
    assert_eq!(run_with(&m, C, &[0], vec![]).outcome, Outcome::Returned(Some(0)));
}

/// `while (nondet() != 0) { y = nondet(); } return 0;`
fn nondet_loop() -> Module {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let body = f.block("body");
    let exit = f.block("exit");
    f.term(e, Terminator::Br(h));
    let v = f.push(h, call(1, vec![], i32t()));
    let nz = f.push(h, icmp(IntPred::Ne, 32, v, c(32, 0)));
    f.term(h, Terminator::CondBr { cond: nz, then_block: body, else_block: exit });
    let _y = f.push(body, call(1, vec![], i32t()));
    f.term(body, Terminator::Br(h));
    f.term(exit, Terminator::Ret(Some(c(32, 0))));
    module(vec![f.finish(), decl("__VERIFIER_nondet_int", &[], i32t())])
}

#[test]
fn a_loop_consuming_inputs_is_a_lasso_with_its_cycle_inputs() {
    let m = nondet_loop();
    let r = run_with(&m, C, &[], vec![5, 9, 3]);
    match &r.outcome {
        Outcome::Lasso(l) => {
            assert_eq!(l.inputs_in_stem, 0);
            let n = "__VERIFIER_nondet_int".to_string();
            assert_eq!(l.inputs_in_cycle, vec![(n.clone(), 5), (n, 9)]);
        }
        o => panic!("expected a lasso, got {o:?}"),
    }
    // Random inputs: the dead value `y` does not prevent the repeat.
    let cfg = RunConfig::new(crate::verdict::IntSemantics::C, super::run_limits(), 10_000);
    let r = run(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), &[], &cfg, &mut StrategyInputs::new(Strategy::Range { lo: 1, hi: 1000 }, 3));
    assert!(matches!(r.outcome, Outcome::Lasso(_)), "{:?}", r.outcome);
    assert_eq!(run_with(&m, C, &[], vec![0]).outcome, Outcome::Returned(Some(0)));
}

/// `unsigned char x = 0; while (1) x++;` through memory (flag-less i8 add).
fn byte_counter(flags: ArithFlags) -> Module {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let a = f.push(e, Op::Alloca { elem_size: 1, count: c(32, 1), count_bits: 32 });
    f.push_void(e, Op::Store { ty: Type::Int(8), value: c(8, 0), ptr: a.clone(), size: 1 });
    f.term(e, Terminator::Br(h));
    let x = f.push(h, Op::Load { ty: Type::Int(8), ptr: a.clone(), size: 1 });
    let y = f.push(h, Op::Bin { op: BinOp::Add, flags, bits: 8, lhs: x, rhs: c(8, 1) });
    f.push_void(h, Op::Store { ty: Type::Int(8), value: y, ptr: a, size: 1 });
    f.term(h, Terminator::Br(h));
    module(vec![f.finish()])
}

#[test]
fn wrapping_counters_repeat_and_signed_overflow_is_caught() {
    match run_with(&byte_counter(ArithFlags::default()), C, &[], vec![]).outcome {
        Outcome::Lasso(l) => assert_eq!(l.cycle_steps, 256 * 4),
        o => panic!("expected a lasso, got {o:?}"),
    }
    // With nsw, the stored poison is only UB when used... it is loaded and added again, and
    // poison stays in memory: the state then repeats with poison (no UB use): still a lasso
    // in LLVM terms, since nothing branches on it.
    let nsw_flags = ArithFlags { nsw: true, ..Default::default() };
    assert!(matches!(run_with(&byte_counter(nsw_flags), C, &[], vec![]).outcome, Outcome::Lasso(_)));
    // Math mode: the value grows without bound, so it is eventually not storable.
    assert!(matches!(run_with(&byte_counter(nsw_flags), Math, &[], vec![]).outcome, Outcome::Unsupported(_)));
}

#[test]
fn counting_loops_terminate() {
    // i = 0; while (i < 10) i++; return i;
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let body = f.block("body");
    let exit = f.block("exit");
    f.term(e, Terminator::Br(h));
    let i = f.phi(h, i32t(), vec![]);
    let lt = f.push(h, icmp(IntPred::Slt, 32, i.clone(), c(32, 10)));
    f.term(h, Terminator::CondBr { cond: lt, then_block: body, else_block: exit });
    let i1 = f.push(body, nsw(BinOp::Add, 32, i.clone(), c(32, 1)));
    f.term(body, Terminator::Br(h));
    f.set_phi(h, &i, vec![(c(32, 0), e), (i1, body)]);
    f.term(exit, Terminator::Ret(Some(i)));
    let m = module(vec![f.finish()]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(10)));
}

#[test]
fn allocating_loops_never_repeat_a_state() {
    // while (1) { free(malloc(4)); }: addresses are never reused, so no exact repeat (a known
    // incompleteness, documented in SEMANTICS.md); the run hits the step limit.
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    f.term(e, Terminator::Br(h));
    let p = f.push(h, call(1, vec![c(64, 4)], Type::Ptr));
    f.push_void(h, call(2, vec![p], Type::Void));
    f.term(h, Terminator::Br(h));
    let m = module(vec![f.finish(), decl("malloc", &[Type::Int(64)], Type::Ptr), decl("free", &[Type::Ptr], Type::Void)]);
    let cfg = RunConfig::new(crate::verdict::IntSemantics::C, super::run_limits(), 3000);
    assert_eq!(run(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), &[], &cfg, &mut SequenceInputs::new(vec![], None)).outcome, Outcome::StepLimit);
}

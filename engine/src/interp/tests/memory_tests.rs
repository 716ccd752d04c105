//! Memory model: allocations, bounds, liveness, library functions.

use super::builder::*;
use crate::interp::{kind, Outcome};
use crate::ir::*;
use crate::verdict::IntSemantics::*;

const MALLOC: u32 = 1;
const FREE: u32 = 2;
const MEMSET: u32 = 3;
const MEMCPY: u32 = 4;

/// `entry` plus malloc, free, llvm.memset, llvm.memcpy declarations (indices 1..=4) and `extra`.
fn with_libc(entry: Function, extra: Vec<Function>) -> Module {
    let mut fs = vec![
        entry,
        decl("malloc", &[Type::Int(64)], Type::Ptr),
        decl("free", &[Type::Ptr], Type::Void),
        decl("llvm.memset.p0.i64", &[Type::Ptr, Type::Int(8), Type::Int(64), Type::Int(1)], Type::Void),
        decl("llvm.memcpy.p0.p0.i64", &[Type::Ptr, Type::Ptr, Type::Int(64), Type::Int(1)], Type::Void),
    ];
    fs.extend(extra);
    module(fs)
}

fn malloc(f: &mut FnBuilder, b: BlockId, n: i128) -> Operand {
    f.push(b, call(MALLOC, vec![c(64, n)], Type::Ptr))
}

fn free(f: &mut FnBuilder, b: BlockId, p: Operand) {
    f.push_void(b, call(FREE, vec![p], Type::Void));
}

fn gep(base: Operand, offset: i128) -> Op {
    Op::PtrAdd { base, offset, indices: vec![], inbounds: true }
}

fn store32(v: Operand, p: Operand) -> Op {
    Op::Store { ty: i32t(), value: v, ptr: p, size: 4 }
}

fn load32(p: Operand) -> Op {
    Op::Load { ty: i32t(), ptr: p, size: 4 }
}

/// `int *a = malloc(16); a[i] = 7; return a[i];` for the parameter i.
fn array_module() -> Module {
    let mut f = FnBuilder::new("main", &[Type::Int(64)], i32t());
    let e = f.block("entry");
    let a = malloc(&mut f, e, 16);
    let i = f.param(0);
    let p = f.push(e, Op::PtrAdd { base: a, offset: 0, indices: vec![GepIndex { value: i, bits: 64, scale: 4 }], inbounds: true });
    f.push_void(e, store32(c(32, 7), p.clone()));
    let v = f.push(e, load32(p));
    f.term(e, Terminator::Ret(Some(v)));
    with_libc(f.finish(), vec![])
}

#[test]
fn in_bounds_accesses_work_and_off_by_one_is_caught() {
    let m = array_module();
    assert_eq!(run_with(&m, C, &[3], vec![]).outcome, Outcome::Returned(Some(7)));
    assert_eq!(violation_kind(&run_with(&m, C, &[4], vec![]).outcome), Some(kind::INVALID_WRITE));
    assert_eq!(violation_kind(&run_with(&m, C, &[-1], vec![]).outcome), Some(kind::INVALID_WRITE));
}

#[test]
fn use_after_free_and_double_free() {
    for double in [false, true] {
        let mut f = FnBuilder::new("main", &[], i32t());
        let e = f.block("entry");
        let p = malloc(&mut f, e, 4);
        f.push_void(e, store32(c(32, 1), p.clone()));
        free(&mut f, e, p.clone());
        if double {
            free(&mut f, e, p);
            f.term(e, Terminator::Ret(Some(c(32, 0))));
        } else {
            let v = f.push(e, load32(p));
            f.term(e, Terminator::Ret(Some(v)));
        }
        let m = with_libc(f.finish(), vec![]);
        let want = if double { kind::DOUBLE_FREE } else { kind::USE_AFTER_FREE };
        assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(want));
    }
}

#[test]
fn null_dereference_and_free_of_null() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    free(&mut f, e, Operand::NullPtr);
    let q = f.push(e, gep(Operand::NullPtr, 8));
    let v = f.push(e, load32(q));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::NULL_DEREFERENCE));
}

#[test]
fn free_of_stack_memory_is_invalid() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let a = f.push(e, Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 });
    free(&mut f, e, a);
    f.term(e, Terminator::Ret(Some(c(32, 0))));
    let m = with_libc(f.finish(), vec![]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::INVALID_FREE));
}

#[test]
fn stack_memory_dies_when_its_frame_returns() {
    // int *g(void) { int x = 5; return &x; }  main: return *g();
    let mut g = FnBuilder::new("g", &[], Type::Ptr);
    let e = g.block("entry");
    let x = g.push(e, Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 });
    g.push_void(e, store32(c(32, 5), x.clone()));
    g.term(e, Terminator::Ret(Some(x)));
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let p = f.push(e, call(5, vec![], Type::Ptr));
    let v = f.push(e, load32(p));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![g.finish()]);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::USE_AFTER_FREE));
}

#[test]
fn uninitialised_reads_are_inputs_fixed_at_the_first_read() {
    // int a; x = a; y = a; return x - y;  (always 0: the garbage does not change)
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let a = f.push(e, Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 });
    let x = f.push(e, load32(a.clone()));
    let y = f.push(e, load32(a));
    let v = f.push(e, bin(BinOp::Sub, 32, x, y));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    let r = run_with(&m, C, &[], vec![-9, 5]);
    assert_eq!(r.outcome, Outcome::Returned(Some(0)));
    assert_eq!(r.trace_inputs, vec![("uninit-read".to_string(), -9)]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::InputsExhausted);
}

#[test]
fn memset_and_memcpy() {
    let mut f = FnBuilder::new("main", &[Type::Int(64)], i32t());
    let e = f.block("entry");
    let n = f.param(0);
    let a = malloc(&mut f, e, 8);
    let b = malloc(&mut f, e, 8);
    f.push_void(e, call(MEMSET, vec![a.clone(), c(8, 1), c(64, 8), c(1, 0)], Type::Void));
    f.push_void(e, call(MEMCPY, vec![b.clone(), a, n, c(1, 0)], Type::Void));
    let v = f.push(e, load32(b));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    assert_eq!(run_with(&m, C, &[8], vec![]).outcome, Outcome::Returned(Some(0x01010101)));
    assert_eq!(violation_kind(&run_with(&m, C, &[9], vec![]).outcome), Some(kind::INVALID_READ));
}

#[test]
fn copies_of_uninitialised_memory_agree_with_the_original() {
    // a = malloc(4); b = malloc(4); memcpy(b, a, 4); return *a - *b;
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let a = malloc(&mut f, e, 4);
    let b = malloc(&mut f, e, 4);
    f.push_void(e, call(MEMCPY, vec![b.clone(), a.clone(), c(64, 4), c(1, 0)], Type::Void));
    let x = f.push(e, load32(a));
    let y = f.push(e, load32(b));
    let v = f.push(e, bin(BinOp::Sub, 32, x, y));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    let r = run_with(&m, C, &[], vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(r.outcome, Outcome::Returned(Some(0)));
    assert_eq!(r.trace_inputs.len(), 4);
}

#[test]
fn pointers_round_trip_through_memory() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let cell = f.push(e, Op::Alloca { elem_size: 8, count: c(32, 1), count_bits: 32 });
    let a = malloc(&mut f, e, 4);
    f.push_void(e, store32(c(32, 11), a.clone()));
    f.push_void(e, Op::Store { ty: Type::Ptr, value: a, ptr: cell.clone(), size: 8 });
    let p = f.push(e, Op::Load { ty: Type::Ptr, ptr: cell, size: 8 });
    let v = f.push(e, load32(p));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(11)));
}

#[test]
fn globals_are_initialised_and_constants_are_read_only() {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let v = f.push(e, load32(Operand::Global(GlobalId(0))));
    f.push_void(e, store32(v.clone(), Operand::Global(GlobalId(1))));
    f.term(e, Terminator::Ret(Some(v)));
    let mut m = with_libc(f.finish(), vec![]);
    m.globals = vec![
        Global { name: "g".into(), size: 4, is_constant: false, init: GlobalInit::Bytes(vec![Some(3), Some(0), Some(0), Some(0)]), refs: vec![] },
        Global { name: "k".into(), size: 4, is_constant: true, init: GlobalInit::Zero, refs: vec![] },
    ];
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::INVALID_WRITE));
    m.globals[1].is_constant = false;
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(3)));
    m.globals[0].init = GlobalInit::External;
    assert!(matches!(run_with(&m, C, &[], vec![]).outcome, Outcome::Unsupported(_)));
}

#[test]
fn math_values_outside_the_width_cannot_be_stored() {
    let mut f = FnBuilder::new("main", &[i32t()], i32t());
    let e = f.block("entry");
    let a = f.push(e, Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 });
    let p = f.param(0);
    let x = f.push(e, nsw(BinOp::Add, 32, p, c(32, 1)));
    f.push_void(e, store32(x, a.clone()));
    let v = f.push(e, load32(a));
    f.term(e, Terminator::Ret(Some(v)));
    let m = with_libc(f.finish(), vec![]);
    assert_eq!(run_with(&m, Math, &[5], vec![]).outcome, Outcome::Returned(Some(6)));
    assert!(matches!(run_with(&m, Math, &[i32::MAX as i128], vec![]).outcome, Outcome::Unsupported(_)));
    // Under C semantics the stored poison only becomes UB when it is returned from main.
    assert_eq!(violation_kind(&run_with(&m, C, &[i32::MAX as i128], vec![]).outcome), Some(kind::UNDEFINED_BEHAVIOUR));
}

#[test]
fn calloc_realloc_and_strlen() {
    // p = calloc(2, 4); p[0] = 0x41414141 (bytes 'A'); q = realloc(p, 16); return strlen(q);
    let mut f = FnBuilder::new("main", &[], Type::Int(64));
    let e = f.block("entry");
    let p = f.push(e, call(5, vec![c(64, 2), c(64, 4)], Type::Ptr));
    f.push_void(e, store32(c(32, 0x41414141), p.clone()));
    let q = f.push(e, call(6, vec![p.clone(), c(64, 16)], Type::Ptr));
    let n = f.push(e, call(7, vec![q], Type::Int(64)));
    let v = f.push(e, load32(p));
    let _ = v;
    f.term(e, Terminator::Ret(Some(n)));
    let extra = vec![
        decl("calloc", &[Type::Int(64), Type::Int(64)], Type::Ptr),
        decl("realloc", &[Type::Ptr, Type::Int(64)], Type::Ptr),
        decl("strlen", &[Type::Ptr], Type::Int(64)),
    ];
    let m = with_libc(f.finish(), extra.clone());
    // The old block is freed by realloc: the later load through p is a use after free.
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::USE_AFTER_FREE));

    let mut f = FnBuilder::new("main", &[], Type::Int(64));
    let e = f.block("entry");
    let p = f.push(e, call(5, vec![c(64, 2), c(64, 4)], Type::Ptr));
    f.push_void(e, store32(c(32, 0x41414141), p.clone()));
    let q = f.push(e, call(6, vec![p, c(64, 16)], Type::Ptr));
    let n = f.push(e, call(7, vec![q], Type::Int(64)));
    f.term(e, Terminator::Ret(Some(n)));
    let m = with_libc(f.finish(), extra);
    assert_eq!(run_with(&m, C, &[], vec![]).outcome, Outcome::Returned(Some(4)));
}

#[test]
fn stackrestore_ends_variable_length_arrays() {
    // s = stacksave(); a = alloca(n); stackrestore(s); *a = 1;
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let s = f.push(e, call(5, vec![], Type::Ptr));
    let a = f.push(e, Op::Alloca { elem_size: 4, count: c(32, 3), count_bits: 32 });
    f.push_void(e, store32(c(32, 1), a.clone()));
    f.push_void(e, call(6, vec![s], Type::Void));
    f.push_void(e, store32(c(32, 1), a));
    f.term(e, Terminator::Ret(Some(c(32, 0))));
    let extra = vec![decl("llvm.stacksave.p0", &[], Type::Ptr), decl("llvm.stackrestore.p0", &[Type::Ptr], Type::Void)];
    let m = with_libc(f.finish(), extra);
    assert_eq!(violation_kind(&run_with(&m, C, &[], vec![]).outcome), Some(kind::USE_AFTER_FREE));
}

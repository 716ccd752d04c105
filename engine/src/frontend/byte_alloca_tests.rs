//! Tests of `byte_allocas`: which `[N x i8]` locals are retyped or erased before mem2reg, and which are kept.

use super::load_source;
use crate::driver::InputKind;
use crate::ir::*;

fn load_ll(text: &str) -> Module {
    load_source(text, InputKind::LlvmText).expect("LLVM text translates")
}

fn ops(m: &Module, name: &str) -> Vec<Op> {
    let f = m.function(m.function_by_name(name).expect("function present"));
    f.blocks.iter().flat_map(|b| b.instrs.iter().map(|i| i.op.clone())).collect()
}

fn count(ops: &[Op], pred: impl Fn(&Op) -> bool) -> usize {
    ops.iter().filter(|o| pred(o)).count()
}

fn is_alloca(o: &Op) -> bool {
    matches!(o, Op::Alloca { .. })
}

fn is_memory(o: &Op) -> bool {
    matches!(o, Op::Alloca { .. } | Op::Load { .. } | Op::Store { .. })
}

#[test]
fn a_byte_array_used_as_one_integer_is_promoted() {
    // rustc's `let mut total = 0u32; … total` at -O0
    let m = load_ll(
        "define i32 @f(i32 %x) {\n  %total = alloca [4 x i8], align 4\n  store i32 0, ptr %total, align 4\n  \
         %a = load i32, ptr %total, align 4\n  %b = add i32 %a, %x\n  store i32 %b, ptr %total, align 4\n  \
         %r = load i32, ptr %total, align 4\n  ret i32 %r\n}\n",
    );
    let f = ops(&m, "f");
    assert_eq!(count(&f, is_memory), 0, "{f:?}");
}

#[test]
fn write_only_spills_are_erased_with_their_stores_and_geps() {
    // rustc's `%values.dbg.spill`: a slice spilled for the debugger and never read
    let m = load_ll(
        "define i64 @f(ptr %p, i64 %n) {\n  %spill = alloca [16 x i8], align 8\n  store ptr %p, ptr %spill, align 8\n  \
         %hi = getelementptr inbounds i8, ptr %spill, i64 8\n  store i64 %n, ptr %hi, align 8\n  ret i64 %n\n}\n",
    );
    let f = ops(&m, "f");
    assert_eq!(count(&f, is_memory), 0, "{f:?}");
    assert_eq!(count(&f, |o| matches!(o, Op::PtrAdd { .. })), 0, "{f:?}");
}

#[test]
fn escaping_mixed_or_out_of_bounds_locals_are_kept() {
    let m = load_ll(
        "declare void @h(ptr)\n\
         define void @escapes(i64 %n) {\n  %s = alloca [8 x i8], align 8\n  store i64 %n, ptr %s, align 8\n  call void @h(ptr %s)\n  ret void\n}\n\
         define i32 @mixed(i64 %n) {\n  %s = alloca [8 x i8], align 8\n  store i64 %n, ptr %s, align 8\n  %r = load i32, ptr %s, align 4\n  ret i32 %r\n}\n\
         define void @past_end(i64 %n) {\n  %s = alloca [8 x i8], align 8\n  %hi = getelementptr i8, ptr %s, i64 4\n  store i64 %n, ptr %hi, align 8\n  ret void\n}\n\
         define void @variable_index(i64 %n, i64 %i) {\n  %s = alloca [8 x i8], align 8\n  %hi = getelementptr i8, ptr %s, i64 %i\n  store i8 0, ptr %hi, align 1\n  ret void\n}\n\
         define void @volatile_store(i64 %n) {\n  %s = alloca [8 x i8], align 8\n  store volatile i64 %n, ptr %s, align 8\n  ret void\n}\n\
         define void @stores_itself() {\n  %s = alloca [8 x i8], align 8\n  store ptr %s, ptr %s, align 8\n  ret void\n}\n",
    );
    for name in ["escapes", "mixed", "past_end", "variable_index", "volatile_store", "stores_itself"] {
        assert_eq!(count(&ops(&m, name), is_alloca), 1, "{name} keeps its local");
    }
}

#[test]
fn a_pair_accessed_at_two_offsets_is_split_into_promotable_slots() {
    // rustc's `Option<usize>` returned through a local: tag at 0, value at 8
    let m = load_ll(
        "define i64 @f(i64 %x, i1 %c) {\n  %o = alloca [16 x i8], align 8\n  br i1 %c, label %some, label %none\n\
         some:\n  store i64 1, ptr %o, align 8\n  %v = getelementptr inbounds i8, ptr %o, i64 8\n  store i64 %x, ptr %v, align 8\n  br label %join\n\
         none:\n  store i64 0, ptr %o, align 8\n  br label %join\n\
         join:\n  %t = load i64, ptr %o, align 8\n  %w = getelementptr inbounds i8, ptr %o, i64 8\n  %y = load i64, ptr %w, align 8\n  \
         %r = add i64 %t, %y\n  ret i64 %r\n}\n",
    );
    let f = ops(&m, "f");
    assert_eq!(count(&f, is_memory), 0, "{f:?}");
    // one slot at an offset, the rest never accessed
    let m = load_ll(
        "define i64 @g(i64 %n) {\n  %s = alloca [16 x i8], align 8\n  %hi = getelementptr inbounds i8, ptr %s, i64 8\n  \
         store i64 %n, ptr %hi, align 8\n  %r = load i64, ptr %hi, align 8\n  ret i64 %r\n}\n",
    );
    let g = ops(&m, "g");
    assert_eq!(count(&g, is_memory), 0, "{g:?}");
}

#[test]
fn overlapping_or_differently_typed_slots_keep_the_local() {
    let m = load_ll(
        "define i32 @overlap(i64 %x) {\n  %o = alloca [16 x i8], align 8\n  store i64 %x, ptr %o, align 8\n  \
         %w = getelementptr inbounds i8, ptr %o, i64 4\n  %y = load i32, ptr %w, align 4\n  ret i32 %y\n}\n\
         define i32 @two_types(i64 %x) {\n  %o = alloca [8 x i8], align 8\n  store i64 %x, ptr %o, align 8\n  \
         %y = load i32, ptr %o, align 4\n  ret i32 %y\n}\n",
    );
    for name in ["overlap", "two_types"] {
        assert_eq!(count(&ops(&m, name), is_alloca), 1, "{name} keeps its local");
    }
}

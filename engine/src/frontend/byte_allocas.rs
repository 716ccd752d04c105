//! rustc's byte-array locals before mem2reg: a `[N x i8]` alloca used only as one scalar is retyped so mem2reg promotes it; a write-only alloca (a debug spill) is dropped with its stores.
//!
//! rustc (and, more rarely, clang) declares every local as `alloca [N x i8]` and accesses it
//! with typed loads and stores. mem2reg only promotes allocas whose loads and stores have the
//! allocated type, so at `-O0` a Rust `u32` counter stays in memory, and so do the
//! `*.dbg.spill` slots rustc writes for debuggers and never reads. Each such slot becomes a
//! block of the symbolic state with disjointness facts against every other block, which
//! makes every entailment of a Rust loop larger (issue 9, "Rust loop speed").
//!
//! Two rewrites, both exact (the program's observable behaviour is unchanged):
//! - **Retype.** An entry-block alloca with a constant count of one whose every use is a
//!   non-volatile load of, or a non-volatile store of a value of, one integer or pointer type
//!   `T` at the alloca itself (not as the stored value), with `store size(T)` = the alloca's
//!   size, is replaced by `alloca T` with the same alignment: the same bytes are accessed
//!   the same way, now in a form mem2reg promotes.
//! - **Write-only.** An entry-block alloca whose every use is, directly or through
//!   `getelementptr i8, ptr, <constant>` chains, the address operand of a non-volatile store
//!   that lies wholly inside the alloca is erased with those stores and GEPs. No load can
//!   observe the bytes, the address never escapes, and each removed store is in bounds of a
//!   live stack block (it cannot fail), so no run and no memory error is lost.
//!
//! Debug records (`#dbg_declare`) refer to allocas through metadata, not as uses; they follow
//! a retyped alloca (replace-all-uses) and become empty locations for an erased one.

use super::layout::Layout;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// Applies both rewrites to every entry-block alloca of `f`; returns how many allocas were
/// retyped and how many erased.
///
/// # Safety
/// `f` must be a live function definition of a live module whose DataLayout `layout` reads.
pub(super) unsafe fn simplify(f: LLVMValueRef, layout: Layout, builder: LLVMBuilderRef) -> (usize, usize) {
    let entry = LLVMGetEntryBasicBlock(f);
    let mut allocas = Vec::new();
    let mut inst = LLVMGetFirstInstruction(entry);
    while !inst.is_null() {
        if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMAlloca && has_count_one(inst) {
            allocas.push(inst);
        }
        inst = LLVMGetNextInstruction(inst);
    }
    let (mut retyped, mut erased) = (0, 0);
    for a in allocas {
        let size = layout.alloc_size(LLVMGetAllocatedType(a));
        if size == 0 {
            continue;
        }
        let mut stores = Vec::new();
        let mut geps = Vec::new();
        if write_only(a, 0, size, layout, &mut stores, &mut geps) {
            stores.into_iter().for_each(|s| LLVMInstructionEraseFromParent(s));
            // innermost GEPs were pushed last: erase them first (they use the outer ones)
            geps.into_iter().rev().for_each(|g| LLVMInstructionEraseFromParent(g));
            LLVMInstructionEraseFromParent(a);
            erased += 1;
        } else if let Some(t) = single_scalar_type(a, size, layout) {
            if t != LLVMGetAllocatedType(a) {
                LLVMPositionBuilderBefore(builder, a);
                let name = super::ffi::value_name(a);
                let cname = std::ffi::CString::new(name).unwrap_or_default();
                let new = LLVMBuildAlloca(builder, t, cname.as_ptr());
                LLVMSetAlignment(new, LLVMGetAlignment(a));
                LLVMReplaceAllUsesWith(a, new);
                LLVMInstructionEraseFromParent(a);
                retyped += 1;
            }
        }
    }
    (retyped, erased)
}

/// Whether the alloca allocates a single element (a constant count of 1).
unsafe fn has_count_one(a: LLVMValueRef) -> bool {
    let count = LLVMGetOperand(a, 0);
    !LLVMIsAConstantInt(count).is_null() && LLVMConstIntGetZExtValue(count) == 1
}

/// The users of `v`, collected before any of them is changed.
unsafe fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    let mut u = LLVMGetFirstUse(v);
    while !u.is_null() {
        out.push(LLVMGetUser(u));
        u = LLVMGetNextUse(u);
    }
    out
}

/// Whether `v` is used as the address operand (operand 1), not as the stored value.
unsafe fn is_store_address(store: LLVMValueRef, v: LLVMValueRef) -> bool {
    LLVMGetOperand(store, 1) == v && LLVMGetOperand(store, 0) != v
}

/// Whether every use of `p` (at byte `offset` of an alloca of `size` bytes) is the address of
/// an in-bounds non-volatile store or a constant byte GEP whose uses are such stores; the
/// stores and GEPs are collected.
unsafe fn write_only(
    p: LLVMValueRef,
    offset: i128,
    size: u64,
    layout: Layout,
    stores: &mut Vec<LLVMValueRef>,
    geps: &mut Vec<LLVMValueRef>,
) -> bool {
    for user in users(p) {
        if LLVMIsAInstruction(user).is_null() {
            return false;
        }
        match LLVMGetInstructionOpcode(user) {
            LLVMOpcode::LLVMStore => {
                if LLVMGetVolatile(user) != 0 || !is_store_address(user, p) {
                    return false;
                }
                let written = layout.store_size(LLVMTypeOf(LLVMGetOperand(user, 0)));
                if written == 0 || offset < 0 || offset + i128::from(written) > i128::from(size) {
                    return false;
                }
                stores.push(user);
            }
            LLVMOpcode::LLVMGetElementPtr => {
                let Some(step) = constant_byte_offset(user, p) else { return false };
                geps.push(user);
                if !write_only(user, offset + step, size, layout, stores, geps) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// The offset of `getelementptr i8, ptr p, iN C` (C a constant), if `gep` has that form.
unsafe fn constant_byte_offset(gep: LLVMValueRef, p: LLVMValueRef) -> Option<i128> {
    if LLVMGetNumOperands(gep) != 2 || LLVMGetOperand(gep, 0) != p {
        return None;
    }
    let elem = LLVMGetGEPSourceElementType(gep);
    if LLVMGetTypeKind(elem) != LLVMTypeKind::LLVMIntegerTypeKind || LLVMGetIntTypeWidth(elem) != 8 {
        return None;
    }
    let idx = LLVMGetOperand(gep, 1);
    if LLVMIsAConstantInt(idx).is_null() || LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64 {
        return None;
    }
    Some(i128::from(LLVMConstIntGetSExtValue(idx)))
}

/// The one integer or pointer type `T` of every load from and store to `a` (at `a` itself,
/// non-volatile, `a` never the stored value), when `store size(T)` is the alloca's `size`.
unsafe fn single_scalar_type(a: LLVMValueRef, size: u64, layout: Layout) -> Option<LLVMTypeRef> {
    let mut ty: Option<LLVMTypeRef> = None;
    for user in users(a) {
        if LLVMIsAInstruction(user).is_null() || is_volatile_access(user) {
            return None;
        }
        let t = match LLVMGetInstructionOpcode(user) {
            LLVMOpcode::LLVMLoad => LLVMTypeOf(user),
            LLVMOpcode::LLVMStore if is_store_address(user, a) => LLVMTypeOf(LLVMGetOperand(user, 0)),
            _ => return None,
        };
        if ty.is_some_and(|x| x != t) {
            return None;
        }
        ty = Some(t);
    }
    let t = ty?;
    let scalar = matches!(LLVMGetTypeKind(t), LLVMTypeKind::LLVMIntegerTypeKind | LLVMTypeKind::LLVMPointerTypeKind);
    (scalar && layout.store_size(t) == size && layout.alloc_size(t) == size).then_some(t)
}

/// Whether `i` is a volatile load or store (`LLVMGetVolatile` asserts on other instructions).
unsafe fn is_volatile_access(i: LLVMValueRef) -> bool {
    matches!(LLVMGetInstructionOpcode(i), LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore) && LLVMGetVolatile(i) != 0
}

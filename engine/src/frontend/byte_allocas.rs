//! rustc's byte-array locals before mem2reg: a `[N x i8]` alloca accessed only as scalars at fixed offsets is split into one alloca per scalar so mem2reg promotes them; a write-only alloca (a debug spill) is dropped with its stores.
//!
//! rustc (and, more rarely, clang) declares every local as `alloca [N x i8]` and accesses it
//! with typed loads and stores. mem2reg only promotes allocas whose loads and stores have the
//! allocated type, so at `-O0` a Rust `u32` counter stays in memory, and so do the
//! `*.dbg.spill` slots rustc writes for debuggers and never reads. Each such slot becomes a
//! block of the symbolic state with disjointness facts against every other block, which
//! makes every entailment of a Rust loop larger (issue 9, "Rust loop speed").
//!
//! Two rewrites, both exact (the program's observable behaviour is unchanged):
//! - **Split into scalar slots.** An entry-block alloca with a constant count of one whose
//!   every use is, directly or through `getelementptr i8, ptr, <constant>` chains, a
//!   non-volatile load or a non-volatile store (as its address, not as the stored value) of an
//!   integer or pointer type, where all accesses at one offset have one type `T` and the
//!   slots `[offset, offset + size(T))` lie inside the alloca without overlapping, is
//!   replaced by one `alloca T` per slot, each access pointed at its slot (a `u32` local, or
//!   the `{tag, value}` pair of an `Option<usize>` returned through memory): every access
//!   reads or writes the same bytes as before, and no byte is shared between two slots, so
//!   the rewrite is exact; a slot read before any write reads uninitialised memory in both
//!   forms. mem2reg then promotes the slots.
//! - **Write-only.** An entry-block alloca whose every use is, directly or through
//!   `getelementptr i8, ptr, <constant>` chains, the address operand of a non-volatile store
//!   that lies wholly inside the alloca is erased with those stores and GEPs. No load can
//!   observe the bytes, the address never escapes, and each removed store is in bounds of a
//!   live stack block (it cannot fail), so no run and no memory error is lost.
//!
//! Debug records (`#dbg_declare`) refer to allocas through metadata, not as uses: they follow
//! an alloca that is one scalar as a whole (it is replaced by `alloca T`, all uses at once,
//! so the variable keeps its source name); they become empty locations for an erased alloca
//! and for one split into several slots (those slots get the alloca's name plus `.OFFSET`).

use super::layout::Layout;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// Applies both rewrites to every entry-block alloca of `f`; returns how many allocas were
/// split into scalar slots (or retyped) and how many erased.
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
        } else if let Some(slots) = scalar_slots(a, size, layout) {
            let one = slots.len() == 1 && slots[0].offset == 0 && layout.store_size(slots[0].ty) == size;
            if one && slots[0].ty == LLVMGetAllocatedType(a) {
                continue;
            }
            if one {
                // the whole alloca is one scalar: replace all uses, so its debug records follow
                retype(a, slots[0].ty, builder);
            } else {
                split(a, slots, builder);
            }
            retyped += 1;
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

/// One scalar slot of a split alloca: the bytes `[offset, offset + size(ty))`, and the
/// loads and stores that access exactly them.
struct Slot {
    offset: i128,
    ty: LLVMTypeRef,
    accesses: Vec<LLVMValueRef>,
    geps: Vec<LLVMValueRef>,
}

/// The scalar slots of `a` when every use is, directly or through constant byte GEPs, a
/// non-volatile load or a store (as its address) of an integer or pointer type, all accesses
/// at one offset have one type, and the slots lie inside the alloca without overlapping.
unsafe fn scalar_slots(a: LLVMValueRef, size: u64, layout: Layout) -> Option<Vec<Slot>> {
    let mut accesses: Vec<(i128, LLVMTypeRef, LLVMValueRef)> = Vec::new();
    let mut geps = Vec::new();
    collect_accesses(a, 0, &mut accesses, &mut geps)?;
    let mut slots: Vec<Slot> = Vec::new();
    for (offset, ty, inst) in accesses {
        if !matches!(LLVMGetTypeKind(ty), LLVMTypeKind::LLVMIntegerTypeKind | LLVMTypeKind::LLVMPointerTypeKind) {
            return None;
        }
        let bytes = layout.store_size(ty);
        if bytes == 0 || layout.alloc_size(ty) != bytes || offset < 0 || offset + i128::from(bytes) > i128::from(size) {
            return None;
        }
        match slots.iter_mut().find(|s| s.offset == offset) {
            Some(s) if s.ty == ty => s.accesses.push(inst),
            Some(_) => return None,
            None => slots.push(Slot { offset, ty, accesses: vec![inst], geps: vec![] }),
        }
    }
    slots.sort_by_key(|s| s.offset);
    for w in slots.windows(2) {
        if w[0].offset + i128::from(layout.store_size(w[0].ty)) > w[1].offset {
            return None;
        }
    }
    if let Some(first) = slots.first_mut() {
        first.geps = geps;
    }
    (!slots.is_empty()).then_some(slots)
}

/// Collects `(offset, type, instruction)` for every load and store through `p` (at byte
/// `offset` of the alloca) and the constant byte GEPs in between; `None` for any other use.
unsafe fn collect_accesses(
    p: LLVMValueRef,
    offset: i128,
    out: &mut Vec<(i128, LLVMTypeRef, LLVMValueRef)>,
    geps: &mut Vec<LLVMValueRef>,
) -> Option<()> {
    for user in users(p) {
        if LLVMIsAInstruction(user).is_null() || is_volatile_access(user) {
            return None;
        }
        match LLVMGetInstructionOpcode(user) {
            LLVMOpcode::LLVMLoad => out.push((offset, LLVMTypeOf(user), user)),
            LLVMOpcode::LLVMStore if is_store_address(user, p) => out.push((offset, LLVMTypeOf(LLVMGetOperand(user, 0)), user)),
            LLVMOpcode::LLVMGetElementPtr => {
                let step = constant_byte_offset(user, p)?;
                geps.push(user);
                collect_accesses(user, offset + step, out, geps)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// Replaces `a` by `alloca t` with the same name and alignment (all uses, debug records too).
unsafe fn retype(a: LLVMValueRef, t: LLVMTypeRef, builder: LLVMBuilderRef) {
    LLVMPositionBuilderBefore(builder, a);
    let cname = std::ffi::CString::new(super::ffi::value_name(a)).unwrap_or_default();
    let new = LLVMBuildAlloca(builder, t, cname.as_ptr());
    LLVMSetAlignment(new, LLVMGetAlignment(a));
    LLVMReplaceAllUsesWith(a, new);
    LLVMInstructionEraseFromParent(a);
}

/// Replaces `a` by one alloca per slot (named after `a`, aligned as far as `a`'s alignment
/// and the slot's offset allow) and points every access at its slot; the GEPs and `a` go.
unsafe fn split(a: LLVMValueRef, slots: Vec<Slot>, builder: LLVMBuilderRef) {
    let align = LLVMGetAlignment(a).max(1);
    let name = super::ffi::value_name(a);
    let mut geps = Vec::new();
    for slot in slots {
        LLVMPositionBuilderBefore(builder, a);
        let label = if slot.offset == 0 { name.clone() } else { format!("{name}.{}", slot.offset) };
        let cname = std::ffi::CString::new(label).unwrap_or_default();
        let new = LLVMBuildAlloca(builder, slot.ty, cname.as_ptr());
        // the largest power of two dividing both the alloca's alignment and the offset
        let offset_align = if slot.offset == 0 { align } else { 1u32 << (slot.offset as u64).trailing_zeros().min(31) };
        LLVMSetAlignment(new, align.min(offset_align));
        for inst in slot.accesses {
            let ptr_index = if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMLoad { 0 } else { 1 };
            LLVMSetOperand(inst, ptr_index, new);
        }
        geps.extend(slot.geps);
    }
    // innermost GEPs were pushed last: erase them first (they use the outer ones)
    geps.into_iter().rev().for_each(|g| LLVMInstructionEraseFromParent(g));
    LLVMInstructionEraseFromParent(a);
}

/// Whether `i` is a volatile load or store (`LLVMGetVolatile` asserts on other instructions).
unsafe fn is_volatile_access(i: LLVMValueRef) -> bool {
    matches!(LLVMGetInstructionOpcode(i), LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore) && LLVMGetVolatile(i) != 0
}

//! Constants: integer values, module-level constant operands (null, undef, globals, functions)
//! and the byte images of global initialisers.

use super::ffi;
use super::layout::{self, Layout};
use crate::ir::{FuncId, GlobalId, GlobalInit, Operand};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind;
use std::collections::HashMap;

/// Largest global whose non-zero initializer is imaged byte by byte; bigger ones are
/// reported as `GlobalInit::External` (unknown contents) to bound memory and time.
const MAX_INIT_IMAGE_BYTES: u64 = 1 << 20;

/// Module-wide numbering of functions and globals, and the DataLayout.
pub(super) struct ModuleMaps {
    pub(super) layout: Layout,
    pub(super) functions: HashMap<LLVMValueRef, FuncId>,
    pub(super) globals: HashMap<LLVMValueRef, GlobalId>,
}

/// An integer constant as (width, value sign-extended into i128); `None` for anything else,
/// including integers wider than 128 bits.
pub(super) fn const_int(v: LLVMValueRef) -> Option<(u32, i128)> {
    // SAFETY: `v` is a live value; the accessors are only used on ConstantInt.
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            return None;
        }
        let bits = layout::int_width(LLVMTypeOf(v));
        if bits <= 64 {
            return Some((bits, LLVMConstIntGetSExtValue(v) as i128));
        }
        if bits > 128 {
            return None;
        }
        // Wider than 64 bits: LLVM prints the signed decimal value (`i128 -5`).
        let text = ffi::value_text(v);
        let value: i128 = text.rsplit(' ').next()?.parse().ok()?;
        Some((bits, value))
    }
}

impl ModuleMaps {
    /// The operand of a constant that needs no instruction: integers, null, undef/poison,
    /// globals and functions (aliases resolved). `None` for everything else.
    pub(super) fn constant_operand(&self, v: LLVMValueRef) -> Option<Operand> {
        if let Some((bits, value)) = const_int(v) {
            return Some(Operand::Int { bits, value });
        }
        if let Some(&f) = self.functions.get(&v) {
            return Some(Operand::Function(f));
        }
        if let Some(&g) = self.globals.get(&v) {
            return Some(Operand::Global(g));
        }
        // SAFETY: `v` is a live value; only type tests and alias resolution follow.
        unsafe {
            if !LLVMIsAConstantPointerNull(v).is_null() {
                return Some(Operand::NullPtr);
            }
            if LLVMIsPoison(v) != 0 {
                return Some(Operand::Poison(self.layout.ty(LLVMTypeOf(v))));
            }
            if LLVMIsUndef(v) != 0 {
                return Some(Operand::Undef(self.layout.ty(LLVMTypeOf(v))));
            }
            if !LLVMIsAGlobalAlias(v).is_null() {
                let target = LLVMAliasGetAliasee(v);
                if self.functions.contains_key(&target) || self.globals.contains_key(&target) {
                    return self.constant_operand(target);
                }
            }
        }
        None
    }

    /// The initial contents of a global variable.
    pub(super) fn global_init(&self, global: LLVMValueRef, size: u64) -> GlobalInit {
        // SAFETY: `global` is a live global variable.
        let init = unsafe {
            if LLVMIsDeclaration(global) != 0 {
                return GlobalInit::External;
            }
            LLVMGetInitializer(global)
        };
        if init.is_null() {
            return GlobalInit::External;
        }
        if unsafe { !LLVMIsAConstantAggregateZero(init).is_null() } {
            return GlobalInit::Zero;
        }
        if size > MAX_INIT_IMAGE_BYTES {
            // Sound but imprecise: the analysis treats the contents as unknown.
            tracing::debug!(global = %ffi::value_name(global), size, "initializer too large for a byte image");
            return GlobalInit::External;
        }
        // Bytes not covered by the initialiser (struct padding) stay unknown.
        let mut bytes = vec![None; size as usize];
        self.write_bytes(init, 0, &mut bytes);
        if bytes.iter().all(|b| *b == Some(0)) {
            GlobalInit::Zero
        } else {
            GlobalInit::Bytes(bytes)
        }
    }

    /// The globals whose addresses `global`'s initializer holds, at any depth of its constant
    /// aggregates and expressions (aliases resolved), sorted and without duplicates.
    pub(super) fn global_refs(&self, global: LLVMValueRef) -> Vec<GlobalId> {
        // SAFETY: `global` is a live global variable; constants' operands are live constants.
        let init = unsafe {
            if LLVMIsDeclaration(global) != 0 {
                return vec![];
            }
            LLVMGetInitializer(global)
        };
        let (mut refs, mut seen, mut todo) = (std::collections::BTreeSet::new(), std::collections::HashSet::new(), vec![init]);
        while let Some(c) = todo.pop() {
            if c.is_null() || !seen.insert(c) {
                continue;
            }
            if let Some(Operand::Global(g)) = self.constant_operand(c) {
                refs.insert(g);
                continue;
            }
            // SAFETY: as above; a `ConstantData` has no operands, every other constant's
            // operands are constants.
            unsafe {
                if !LLVMIsAGlobalValue(c).is_null() || LLVMIsAConstant(c).is_null() {
                    continue;
                }
                let n = LLVMGetNumOperands(c);
                todo.extend((0..n.max(0) as u32).map(|i| LLVMGetOperand(c, i)));
            }
        }
        refs.into_iter().collect()
    }

    /// Writes the little-endian image of constant `c` at `offset` into `bytes`; bytes whose
    /// value is not a known number (pointers, floats, undef) become `None`.
    fn write_bytes(&self, c: LLVMValueRef, offset: u64, bytes: &mut [Option<u8>]) {
        let ty = unsafe { LLVMTypeOf(c) };
        let size = self.layout.store_size(ty);
        let set = |bytes: &mut [Option<u8>], image: &dyn Fn(u64) -> Option<u8>| {
            for i in 0..size {
                if let Some(slot) = bytes.get_mut((offset + i) as usize) {
                    *slot = image(i);
                }
            }
        };
        // SAFETY: `c` is a live constant; element accessors follow its type.
        unsafe {
            if let Some((_, value)) = const_int(c) {
                set(bytes, &|i| if i < 16 { Some((value >> (8 * i)) as u8) } else { Some(if value < 0 { 0xff } else { 0 }) });
                return;
            }
            if !LLVMIsAConstantAggregateZero(c).is_null() || !LLVMIsAConstantPointerNull(c).is_null() {
                set(bytes, &|_| Some(0));
                return;
            }
            let aggregate = !LLVMIsAConstantDataSequential(c).is_null()
                || !LLVMIsAConstantArray(c).is_null()
                || !LLVMIsAConstantStruct(c).is_null()
                || !LLVMIsAConstantVector(c).is_null();
            if aggregate {
                match layout::kind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        for i in 0..layout::struct_len(ty) {
                            let field = LLVMGetAggregateElement(c, i);
                            if !field.is_null() {
                                self.write_bytes(field, offset + self.layout.field_offset(ty, i), bytes);
                            }
                        }
                        return;
                    }
                    LLVMTypeKind::LLVMArrayTypeKind => {
                        let elem_size = self.layout.alloc_size(layout::element_type(ty));
                        for i in 0..layout::array_len(ty) {
                            let elem = LLVMGetAggregateElement(c, i as u32);
                            if !elem.is_null() {
                                self.write_bytes(elem, offset + i * elem_size, bytes);
                            }
                        }
                        return;
                    }
                    _ => {}
                }
            }
        }
        set(bytes, &|_| None);
    }
}

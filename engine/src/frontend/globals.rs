//! Translation of global variables: name, size, constness, initial bytes and the globals the
//! initializer points to.

use super::constants::ModuleMaps;
use super::ffi;
use crate::ir::Global;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

pub(super) fn translate_global(g: LLVMValueRef, maps: &ModuleMaps) -> Global {
    // SAFETY: `g` is a live global variable of the module.
    let (value_ty, is_constant) = unsafe { (LLVMGlobalGetValueType(g), LLVMIsGlobalConstant(g) != 0) };
    let size = maps.layout.alloc_size(value_ty);
    Global { name: ffi::value_name(g), size, is_constant, init: maps.global_init(g, size), refs: maps.global_refs(g) }
}

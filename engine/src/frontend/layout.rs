//! Types and the DataLayout: LLVM types as engine `Type`s, store/alloc sizes and struct offsets.

use super::ffi;
use crate::ir::Type;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::*;
use inkwell::llvm_sys::LLVMTypeKind;

/// The module's DataLayout (owned by the module; valid while it lives).
#[derive(Clone, Copy)]
pub(super) struct Layout {
    td: LLVMTargetDataRef,
}

impl Layout {
    pub(super) fn of_module(module: LLVMModuleRef) -> Layout {
        // SAFETY: the module is live; its DataLayout lives as long as the module.
        Layout { td: unsafe { LLVMGetModuleDataLayout(module) } }
    }

    /// Width of an address-space-0 pointer in bits.
    pub(super) fn pointer_bits(&self) -> u32 {
        // SAFETY: `td` is the live module layout.
        unsafe { LLVMPointerSize(self.td) * 8 }
    }

    /// Bytes written by a store of the type (no tail padding).
    pub(super) fn store_size(&self, t: LLVMTypeRef) -> u64 {
        if !is_sized(t) {
            return 0;
        }
        // SAFETY: sized type of the module's context.
        unsafe { LLVMStoreSizeOfType(self.td, t) }
    }

    /// Bytes between consecutive array elements of the type (with tail padding).
    pub(super) fn alloc_size(&self, t: LLVMTypeRef) -> u64 {
        if !is_sized(t) {
            return 0;
        }
        // SAFETY: sized type of the module's context.
        unsafe { LLVMABISizeOfType(self.td, t) }
    }

    /// Byte offset of field `index` of a struct type.
    pub(super) fn field_offset(&self, struct_ty: LLVMTypeRef, index: u32) -> u64 {
        // SAFETY: callers check that `struct_ty` is a sized struct with more than `index` fields.
        unsafe { LLVMOffsetOfElement(self.td, struct_ty, index) }
    }

    /// The engine type of an LLVM type.
    pub(super) fn ty(&self, t: LLVMTypeRef) -> Type {
        match kind(t) {
            LLVMTypeKind::LLVMIntegerTypeKind => Type::Int(int_width(t)),
            LLVMTypeKind::LLVMPointerTypeKind => Type::Ptr,
            LLVMTypeKind::LLVMVoidTypeKind => Type::Void,
            LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => Type::Float(16),
            LLVMTypeKind::LLVMFloatTypeKind => Type::Float(32),
            LLVMTypeKind::LLVMDoubleTypeKind => Type::Float(64),
            LLVMTypeKind::LLVMX86_FP80TypeKind => Type::Float(80),
            LLVMTypeKind::LLVMFP128TypeKind | LLVMTypeKind::LLVMPPC_FP128TypeKind => Type::Float(128),
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind if is_sized(t) => {
                Type::Aggregate { size: self.alloc_size(t) }
            }
            _ => Type::Other(ffi::type_text(t)),
        }
    }

    /// Bit width of a scalar integer or pointer type (`None` for anything else).
    pub(super) fn scalar_bits(&self, t: LLVMTypeRef) -> Option<u32> {
        match kind(t) {
            LLVMTypeKind::LLVMIntegerTypeKind => Some(int_width(t)),
            LLVMTypeKind::LLVMPointerTypeKind => Some(self.pointer_bits()),
            _ => None,
        }
    }
}

pub(super) fn kind(t: LLVMTypeRef) -> LLVMTypeKind {
    // SAFETY: `t` is a live type.
    unsafe { LLVMGetTypeKind(t) }
}

pub(super) fn int_width(t: LLVMTypeRef) -> u32 {
    // SAFETY: callers pass integer types.
    unsafe { LLVMGetIntTypeWidth(t) }
}

pub(super) fn is_int(t: LLVMTypeRef) -> bool {
    kind(t) == LLVMTypeKind::LLVMIntegerTypeKind
}

pub(super) fn is_ptr(t: LLVMTypeRef) -> bool {
    kind(t) == LLVMTypeKind::LLVMPointerTypeKind
}

fn is_sized(t: LLVMTypeRef) -> bool {
    // SAFETY: `t` is a live type.
    unsafe { LLVMTypeIsSized(t) != 0 }
}

/// Element type of an array or vector type.
pub(super) fn element_type(t: LLVMTypeRef) -> LLVMTypeRef {
    // SAFETY: callers pass array or vector types.
    unsafe { LLVMGetElementType(t) }
}

/// Number of fields of a struct type.
pub(super) fn struct_len(t: LLVMTypeRef) -> u32 {
    // SAFETY: callers pass struct types.
    unsafe { LLVMCountStructElementTypes(t) }
}

/// Field type `index` of a struct type.
pub(super) fn struct_field(t: LLVMTypeRef, index: u32) -> LLVMTypeRef {
    // SAFETY: callers check `index < struct_len(t)`.
    unsafe { LLVMStructGetTypeAtIndex(t, index) }
}

/// Number of elements of an array type.
pub(super) fn array_len(t: LLVMTypeRef) -> u64 {
    // SAFETY: callers pass array types.
    unsafe { LLVMGetArrayLength2(t) }
}

pub(super) fn is_void(t: LLVMTypeRef) -> bool {
    kind(t) == LLVMTypeKind::LLVMVoidTypeKind
}

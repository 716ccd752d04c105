//! The Rust source types of a function's parameters, read from rustc's debug info, to know
//! which pointer parameters are references (`ir::RustParam`): rustc at `-C opt-level=0` puts
//! no `noalias`/`dereferenceable` on them, and a slice `&[T]` arrives as two parameters
//! (data pointer, length) whose connection only the source type states.
//!
//! What is read: the subprogram's subroutine type (its argument types in source order), by the
//! generic metadata operands in LLVM 22's layout (`SP_TYPE`, `TYPE_ARRAY`, `BASE_TYPE`,
//! `ELEMENTS`; every node's kind is checked before use, so another layout finds nothing). A source argument is mapped to LLVM parameters only for the shapes whose
//! ABI is fixed: a primitive (one parameter), a reference `&T`/`&mut T` to a sized `T` (one
//! pointer), a slice or `str` reference (pointer and `usize` length), a reference to
//! std's `Vec<T>` of a primitive `T` (one pointer; its layout from `rust_vec_debuginfo`). Any other argument type
//! (aggregates passed by value, trait objects, closures, …), a count that does not match the
//! LLVM parameters (after an `sret` one) or a parameter of an unexpected LLVM type, and the
//! function gets no `RustParam` at all: nothing is assumed. rustc's encoding is recognised by
//! its names: references are `DW_TAG_pointer_type`s named `&T` / `&mut T` (C compilers leave
//! pointer types unnamed), slices `DW_TAG_structure_type`s named `&[T]`/`&str` (`&mut …`)
//! with the members `data_ptr` and `length`; raw pointers (`*const T`) are never references.

use crate::ir::{RustParam, Type};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::*;

/// `DISubprogram`: 0 file, 1 scope, 2 name, 3 linkage name, 4 type.
const SP_TYPE: usize = 4;
/// Every `DIType` starts with 0 file, 1 scope, 2 name, 3 size, 4 offset (LLVM ≥ 21 keeps the
/// size and offset as operands); then `DISubroutineType`: 5 the type array;
/// `DIDerivedType`: 5 the base type; `DICompositeType`: 5 the base type, 6 the elements.
const TYPE_ARRAY: usize = 5;
pub(super) const BASE_TYPE: usize = 5;
pub(super) const ELEMENTS: usize = 6;

pub(super) const DW_TAG_MEMBER: u16 = 0x0d;
const DW_TAG_POINTER_TYPE: u16 = 0x0f;
pub(super) const DW_TAG_STRUCTURE_TYPE: u16 = 0x13;
const DW_TAG_BASE_TYPE: u16 = 0x24;

/// One source argument's shape.
enum Arg {
    /// One LLVM parameter of a non-pointer type.
    Scalar,
    /// A raw pointer (`*const T`, `*mut T`): one pointer parameter, nothing known about it.
    RawPtr,
    Ref { mutable: bool, size: u64, freeze: bool },
    Slice { mutable: bool, elem_size: u64, freeze: bool },
    /// `&Vec<T>` or `&mut Vec<T>` of a primitive `T` (`vec_layout`).
    VecRef(RustParam),
}

/// The `RustParam` of each LLVM parameter of `func` (`params`: their types, `sret`: the size
/// of each one's `sret` type, if it has the attribute); all `None` unless the whole signature
/// is understood. A leading `sret` parameter is the caller's return place: a fresh place of
/// the caller that no argument overlaps (MIR's rule for call destinations), so it is treated
/// like a `&mut` to the returned value.
pub(super) fn rust_params(func: LLVMValueRef, params: &[Type], sret: &[Option<u64>]) -> Vec<Option<RustParam>> {
    let none = vec![None; params.len()];
    let Some(args) = source_args(func) else { return none };
    let mut out = none.clone();
    let mut i = 0;
    if let Some(Some(size)) = sret.first() {
        if params.first() != Some(&Type::Ptr) {
            return none;
        }
        out[0] = Some(RustParam::Ref { mutable: true, size: *size, freeze: false });
        i = 1;
    }
    for arg in args {
        match arg {
            Arg::Scalar => {
                if !matches!(params.get(i), Some(Type::Int(_) | Type::Float(_))) {
                    return none;
                }
                i += 1;
            }
            Arg::RawPtr => {
                if params.get(i) != Some(&Type::Ptr) {
                    return none;
                }
                i += 1;
            }
            Arg::Ref { mutable, size, freeze } => {
                if params.get(i) != Some(&Type::Ptr) {
                    return none;
                }
                out[i] = Some(RustParam::Ref { mutable, size, freeze });
                i += 1;
            }
            Arg::VecRef(param) => {
                if params.get(i) != Some(&Type::Ptr) {
                    return none;
                }
                out[i] = Some(param);
                i += 1;
            }
            Arg::Slice { mutable, elem_size, freeze } => {
                if params.get(i) != Some(&Type::Ptr) || params.get(i + 1) != Some(&Type::Int(64)) {
                    return none;
                }
                out[i] = Some(RustParam::Slice { mutable, elem_size, len_param: (i + 1) as u32, freeze });
                i += 2;
            }
        }
    }
    if i != params.len() {
        return none;
    }
    out
}

/// The shapes of the source arguments, if every one is understood.
fn source_args(func: LLVMValueRef) -> Option<Vec<Arg>> {
    // SAFETY: `func` is a live function; metadata handles come from its own debug info.
    unsafe {
        let sp = LLVMGetSubprogram(func);
        if sp.is_null() || !matches!(LLVMGetMetadataKind(sp), LLVMMetadataKind::LLVMDISubprogramMetadataKind) {
            return None;
        }
        let cx = LLVMGetTypeContext(LLVMTypeOf(func));
        let subroutine = operand(cx, sp, SP_TYPE)?;
        if !matches!(LLVMGetMetadataKind(subroutine), LLVMMetadataKind::LLVMDISubroutineTypeMetadataKind) {
            return None;
        }
        let types = operand(cx, subroutine, TYPE_ARRAY)?;
        if !matches!(LLVMGetMetadataKind(types), LLVMMetadataKind::LLVMMDTupleMetadataKind) {
            return None;
        }
        let all = operands(cx, types)?;
        // the first entry is the return type
        all.into_iter().skip(1).map(|t| arg_shape(cx, t?)).collect()
    }
}

/// Whether `md` is a debug-info type (the only nodes the DIType accessors may be called on).
pub(super) unsafe fn is_type(md: LLVMMetadataRef) -> bool {
    use LLVMMetadataKind::*;
    matches!(LLVMGetMetadataKind(md), LLVMDIBasicTypeMetadataKind | LLVMDIDerivedTypeMetadataKind | LLVMDICompositeTypeMetadataKind)
}

unsafe fn arg_shape(cx: LLVMContextRef, t: LLVMMetadataRef) -> Option<Arg> {
    if !is_type(t) {
        return None;
    }
    let name = type_name(t);
    match LLVMGetDINodeTag(t) {
        DW_TAG_BASE_TYPE => Some(Arg::Scalar),
        DW_TAG_POINTER_TYPE => {
            let mutable = if name.starts_with("&mut ") {
                true
            } else if name.starts_with('&') {
                false
            } else if name.starts_with("*const ") || name.starts_with("*mut ") {
                return Some(Arg::RawPtr);
            } else {
                return None;
            };
            let base = operand(cx, t, BASE_TYPE).filter(|b| is_type(*b))?;
            if let Some(v) = super::rust_vec_debuginfo::vec_layout(cx, base, mutable) {
                return Some(Arg::VecRef(v));
            }
            let size = LLVMDITypeGetSizeInBits(base);
            if !size.is_multiple_of(8) {
                return None;
            }
            Some(Arg::Ref { mutable, size: size / 8, freeze: is_primitive(base) })
        }
        DW_TAG_STRUCTURE_TYPE => {
            let mutable = if name.starts_with("&mut [") || name == "&mut str" {
                true
            } else if name.starts_with("&[") || name == "&str" {
                false
            } else {
                return None;
            };
            let members = operands(cx, operand(cx, t, ELEMENTS)?)?;
            let [Some(data), Some(len)] = members.as_slice() else { return None };
            let (data, len) = (*data, *len);
            if !is_type(data) || !is_type(len) || LLVMGetDINodeTag(data) != DW_TAG_MEMBER || type_name(data) != "data_ptr" || LLVMGetDINodeTag(len) != DW_TAG_MEMBER || type_name(len) != "length" {
                return None;
            }
            // data_ptr: a member whose base type is a pointer to the element type
            let ptr = operand(cx, data, BASE_TYPE).filter(|b| is_type(*b))?;
            if LLVMGetDINodeTag(ptr) != DW_TAG_POINTER_TYPE {
                return None;
            }
            let elem = operand(cx, ptr, BASE_TYPE).filter(|b| is_type(*b))?;
            let size = LLVMDITypeGetSizeInBits(elem);
            if size == 0 || !size.is_multiple_of(8) {
                return None;
            }
            Some(Arg::Slice { mutable, elem_size: size / 8, freeze: is_primitive(elem) })
        }
        _ => None,
    }
}

/// A primitive type (integer, float, bool, char): no `UnsafeCell` inside.
unsafe fn is_primitive(t: LLVMMetadataRef) -> bool {
    LLVMGetDINodeTag(t) == DW_TAG_BASE_TYPE
}

pub(super) unsafe fn type_name(t: LLVMMetadataRef) -> String {
    let mut len = 0usize;
    let p = LLVMDITypeGetName(t, &mut len);
    if p.is_null() {
        return String::new();
    }
    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
}

/// Operand `i` of a metadata node (`None` if absent or null).
pub(super) unsafe fn operand(cx: LLVMContextRef, md: LLVMMetadataRef, i: usize) -> Option<LLVMMetadataRef> {
    operands(cx, md)?.get(i).copied().flatten()
}

/// The operands of a metadata node (null ones as `None`).
pub(super) unsafe fn operands(cx: LLVMContextRef, md: LLVMMetadataRef) -> Option<Vec<Option<LLVMMetadataRef>>> {
    let v = LLVMMetadataAsValue(cx, md);
    if LLVMIsAMDNode(v).is_null() {
        return None;
    }
    let n = LLVMGetMDNodeNumOperands(v) as usize;
    let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
    LLVMGetMDNodeOperands(v, ops.as_mut_ptr());
    Some(ops.into_iter().map(|o| (!o.is_null()).then(|| LLVMValueAsMetadata(o))).collect())
}

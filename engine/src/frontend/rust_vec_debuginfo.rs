//! The layout of std's `Vec<T>` from rustc's debug info, for `&Vec<T>` and `&mut Vec<T>` parameters (`RustParam::VecRef`): where the buffer pointer, the capacity and the length live.
//!
//! Recognised only when every step matches: a structure named `Vec<T, alloc::alloc::Global>`
//! whose scope chain is exactly the namespaces `alloc` → `vec` (std's crate `alloc`; a user's
//! own `Vec` lives under the user's crate), with the members `buf` (a structure with member
//! `inner`, itself with members `ptr` and `cap`) and `len`, pointer, capacity and length 64
//! bits wide, and `T` one of Rust's primitive numeric types (its size is then its alignment,
//! and it has no `UnsafeCell`, so the elements behind a `&Vec<T>` cannot change during the
//! call). Anything else gives `None` and the parameter gets no block (nothing assumed).
//!
//! The facts that follow (symexec's root state) are `Vec`'s documented guarantees: the
//! pointer is non-null and aligned, the buffer holds `cap` elements, `len ≤ cap`, and
//! `cap · size_of::<T>() ≤ isize::MAX`.

use super::rust_debuginfo::{is_type, operand, operands, type_name, BASE_TYPE, DW_TAG_MEMBER, DW_TAG_STRUCTURE_TYPE, ELEMENTS};
use crate::ir::RustParam;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::*;

/// `DINamespace`: 1 scope, 2 name.
const NS_SCOPE: usize = 1;
const NS_NAME: usize = 2;
/// `DICompositeType`/`DIDerivedType`: 1 scope.
const TYPE_SCOPE: usize = 1;

/// The `VecRef` layout of `t` if it is std's `Vec<T>` of a primitive `T` (behind a `&mut`
/// when `mutable`).
///
/// # Safety
/// `cx` is the context of the live module `t` belongs to.
pub(super) unsafe fn vec_layout(cx: LLVMContextRef, t: LLVMMetadataRef, mutable: bool) -> Option<RustParam> {
    if LLVMGetDINodeTag(t) != DW_TAG_STRUCTURE_TYPE {
        return None;
    }
    let name = type_name(t);
    let elem = name.strip_prefix("Vec<")?.strip_suffix(", alloc::alloc::Global>")?;
    let elem_size = primitive_size(elem)?;
    if namespaces(cx, operand(cx, t, TYPE_SCOPE)?)? != ["vec", "alloc"] {
        return None;
    }
    let (buf, buf_off) = member(cx, t, "buf")?;
    let (len, len_off) = member(cx, t, "len")?;
    let (inner, inner_off) = member(cx, buf, "inner")?;
    let (ptr, ptr_off) = member(cx, inner, "ptr")?;
    let (cap, cap_off) = member(cx, inner, "cap")?;
    let size = LLVMDITypeGetSizeInBits(t);
    if [ptr, cap, len].iter().any(|m| LLVMDITypeGetSizeInBits(*m) != 64) || !size.is_multiple_of(8) {
        return None;
    }
    let bytes = |bits: u64| bits.is_multiple_of(8).then_some(bits / 8);
    let ptr_offset = bytes(buf_off + inner_off + ptr_off)?;
    let cap_offset = bytes(buf_off + inner_off + cap_off)?;
    let len_offset = bytes(len_off)?;
    let size = size / 8;
    let mut fields = [ptr_offset, cap_offset, len_offset];
    fields.sort_unstable();
    if fields.windows(2).any(|w| w[0] + 8 > w[1]) || fields[2] + 8 > size {
        return None;
    }
    Some(RustParam::VecRef { mutable, size, elem_size, ptr_offset, cap_offset, len_offset })
}

/// Size in bytes of a Rust primitive numeric type by its name (`None` for anything else).
fn primitive_size(name: &str) -> Option<u64> {
    Some(match name {
        "u8" | "i8" => 1,
        "u16" | "i16" => 2,
        "u32" | "i32" | "f32" => 4,
        "u64" | "i64" | "usize" | "isize" | "f64" => 8,
        "u128" | "i128" => 16,
        _ => return None,
    })
}

/// The base type and the offset in bits of the member `name` of the structure `t`.
unsafe fn member(cx: LLVMContextRef, t: LLVMMetadataRef, name: &str) -> Option<(LLVMMetadataRef, u64)> {
    if !is_type(t) {
        return None;
    }
    let elements = operands(cx, operand(cx, t, ELEMENTS)?)?;
    let m = elements.into_iter().flatten().find(|m| is_type(*m) && LLVMGetDINodeTag(*m) == DW_TAG_MEMBER && type_name(*m) == name)?;
    let base = operand(cx, m, BASE_TYPE).filter(|b| is_type(*b))?;
    Some((base, LLVMDITypeGetOffsetInBits(m)))
}

/// The names of the namespace chain from `scope` outwards, if it consists of namespaces only.
unsafe fn namespaces(cx: LLVMContextRef, scope: LLVMMetadataRef) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = Some(scope);
    while let Some(ns) = cur {
        if !matches!(LLVMGetMetadataKind(ns), LLVMMetadataKind::LLVMDINamespaceMetadataKind) || out.len() > 16 {
            return None;
        }
        let name = operand(cx, ns, NS_NAME)?;
        let mut len = 0u32;
        let p = LLVMGetMDString(LLVMMetadataAsValue(cx, name), &mut len);
        if p.is_null() {
            return None;
        }
        out.push(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize)).into_owned());
        cur = operand(cx, ns, NS_SCOPE);
    }
    Some(out)
}

//! Thin safe wrappers over the few raw LLVM C API calls the translation needs (names, text, debug locations).

use crate::ir::SrcLoc;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use std::ffi::{c_char, CStr};

/// Copies a (pointer, length) string returned by LLVM; `None` for null or empty.
fn owned_str(ptr: *const c_char, len: usize) -> Option<String> {
    if ptr.is_null() || len == 0 {
        return None;
    }
    // SAFETY: LLVM guarantees `len` readable bytes at `ptr`, valid while the value lives.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// The LLVM name of a value (empty for unnamed values).
pub(super) fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: `v` is a live value of the module being translated.
    let ptr = unsafe { LLVMGetValueName2(v, &mut len) };
    owned_str(ptr, len).unwrap_or_default()
}

/// The name of a basic block (empty when unnamed).
pub(super) fn block_name(b: LLVMBasicBlockRef) -> String {
    // SAFETY: `b` is a live block; LLVM returns a NUL-terminated string.
    let ptr = unsafe { LLVMGetBasicBlockName(b) };
    if ptr.is_null() {
        return String::new();
    }
    unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}

/// LLVM's textual form of a value (an instruction prints as its line), trimmed.
pub(super) fn value_text(v: LLVMValueRef) -> String {
    // SAFETY: `v` is live; the returned message is owned by us and disposed below.
    unsafe {
        let ptr = LLVMPrintValueToString(v);
        if ptr.is_null() {
            return String::new();
        }
        let text = CStr::from_ptr(ptr).to_string_lossy().trim().to_string();
        LLVMDisposeMessage(ptr);
        text
    }
}

/// LLVM's textual form of a type.
pub(super) fn type_text(t: LLVMTypeRef) -> String {
    // SAFETY: as `value_text`.
    unsafe {
        let ptr = LLVMPrintTypeToString(t);
        if ptr.is_null() {
            return String::new();
        }
        let text = CStr::from_ptr(ptr).to_string_lossy().into_owned();
        LLVMDisposeMessage(ptr);
        text
    }
}

/// Source location of an instruction, function or global from its debug info, if any.
pub(super) fn debug_loc(v: LLVMValueRef) -> Option<SrcLoc> {
    // SAFETY: these accessors accept instructions, functions and globals and return 0/empty
    // when there is no debug location.
    let (line, col, file) = unsafe {
        let line = LLVMGetDebugLocLine(v);
        let col = if LLVMIsAInstruction(v).is_null() { 0 } else { LLVMGetDebugLocColumn(v) };
        let mut len = 0u32;
        let ptr = LLVMGetDebugLocFilename(v, &mut len);
        (line, col, owned_str(ptr, len as usize))
    };
    if line == 0 && file.is_none() {
        return None;
    }
    Some(SrcLoc { file: file.unwrap_or_default(), line, col })
}

/// A readable source name from an LLVM value name: clang's `x.addr` and the `.N` suffixes
/// that uniquing and mem2reg add (`i.0`, `x.addr.1`) are dropped; empty names give `None`.
pub(super) fn readable_name(llvm_name: &str) -> Option<String> {
    let mut name = llvm_name;
    loop {
        if let Some((head, tail)) = name.rsplit_once('.') {
            if !head.is_empty() && (tail == "addr" || (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()))) {
                name = head;
                continue;
            }
        }
        break;
    }
    if name.is_empty() { None } else { Some(name.to_string()) }
}

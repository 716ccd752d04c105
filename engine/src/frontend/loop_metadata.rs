//! The source location of a loop statement from clang's `llvm.loop` metadata: clang attaches
//! `!llvm.loop !{self, !DILocation(start), !DILocation(end), …}` to every latch's branch
//! (with `-g`), where `start` is the `while`/`for`/`do` keyword. The header's instructions
//! carry other lines (a `for`'s condition, the first phi of a `while`), so the loop is named by
//! this one.

use crate::ir::SrcLoc;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::*;

/// The first `DILocation` of the `llvm.loop` node on `inst` (a terminator), if any.
pub(super) fn loop_start(inst: LLVMValueRef) -> Option<SrcLoc> {
    const KIND: &str = "llvm.loop";
    // SAFETY: `inst` is a live instruction; every node is checked for its kind before the
    // kind-specific accessors are called on it.
    unsafe {
        let cx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let kind = LLVMGetMDKindIDInContext(cx, KIND.as_ptr().cast(), KIND.len() as u32);
        let node = LLVMGetMetadata(inst, kind);
        if node.is_null() || LLVMIsAMDNode(node).is_null() {
            return None;
        }
        let n = LLVMGetMDNodeNumOperands(node) as usize;
        let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
        LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
        for op in ops.into_iter().filter(|o| !o.is_null()) {
            let md = LLVMValueAsMetadata(op);
            if !matches!(LLVMGetMetadataKind(md), LLVMMetadataKind::LLVMDILocationMetadataKind) {
                continue;
            }
            let line = LLVMDILocationGetLine(md);
            let col = LLVMDILocationGetColumn(md);
            let scope = LLVMDILocationGetScope(md);
            let file = if scope.is_null() { std::ptr::null_mut() } else { LLVMDIScopeGetFile(scope) };
            let name = if file.is_null() {
                String::new()
            } else {
                let mut len = 0u32;
                let ptr = LLVMDIFileGetFilename(file, &mut len);
                if ptr.is_null() {
                    String::new()
                } else {
                    String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize)).into_owned()
                }
            };
            return Some(SrcLoc { file: name, line, col });
        }
        None
    }
}

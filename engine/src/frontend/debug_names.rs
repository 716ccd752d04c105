//! Source variable names of LLVM values from debug records: after mem2reg, clang's
//! `#dbg_value(%call, !DILocalVariable(name: "n"))` says that `%call` is the variable `n`,
//! and `#dbg_declare(%buf, …)` names an alloca. These names beat LLVM's own value names
//! (`call`, `add`, `inc`) in proofs and messages; a value that debug info ties to two
//! different variables keeps its LLVM name.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMDbgRecordKind;
use std::collections::{BTreeSet, HashMap};

/// Operand index of a `DILocalVariable`'s name (scope, name, file, type, …).
const VARIABLE_NAME: u32 = 1;

/// The name of a `DILocalVariable` node.
///
/// # Safety
/// `var` must be a live metadata node of the context `cx`.
unsafe fn variable_name(cx: LLVMContextRef, var: LLVMMetadataRef) -> Option<String> {
    if var.is_null() || !matches!(LLVMGetMetadataKind(var), LLVMMetadataKind::LLVMDILocalVariableMetadataKind) {
        return None;
    }
    let v = LLVMMetadataAsValue(cx, var);
    if LLVMIsAMDNode(v).is_null() || LLVMGetMDNodeNumOperands(v) <= VARIABLE_NAME {
        return None;
    }
    let n = LLVMGetMDNodeNumOperands(v) as usize;
    let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n];
    LLVMGetMDNodeOperands(v, ops.as_mut_ptr());
    let name = ops[VARIABLE_NAME as usize];
    if name.is_null() || LLVMIsAMDString(name).is_null() {
        return None;
    }
    let mut len = 0u32;
    let ptr = LLVMGetMDString(name, &mut len);
    if ptr.is_null() || len == 0 {
        return None;
    }
    Some(String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize)).into_owned())
}

/// Per value of `func` that debug records tie to exactly one source variable: that name.
pub(super) fn debug_variable_names(func: LLVMValueRef, blocks: &[LLVMBasicBlockRef]) -> HashMap<LLVMValueRef, String> {
    let mut names: HashMap<LLVMValueRef, BTreeSet<String>> = HashMap::new();
    // SAFETY: `func` and its blocks are live; every record comes from an instruction of them
    // and is checked for its kind before the variable-record accessors are called on it.
    unsafe {
        let cx = LLVMGetTypeContext(LLVMTypeOf(func));
        for &b in blocks {
            let mut inst = LLVMGetFirstInstruction(b);
            while !inst.is_null() {
                let mut rec = LLVMGetFirstDbgRecord(inst);
                while !rec.is_null() {
                    if matches!(LLVMDbgRecordGetKind(rec), LLVMDbgRecordKind::LLVMDbgRecordValue | LLVMDbgRecordKind::LLVMDbgRecordDeclare) {
                        let value = LLVMDbgVariableRecordGetValue(rec, 0);
                        let is_local = !value.is_null() && (!LLVMIsAInstruction(value).is_null() || !LLVMIsAArgument(value).is_null());
                        if let (true, Some(name)) = (is_local, variable_name(cx, LLVMDbgVariableRecordGetVariable(rec))) {
                            names.entry(value).or_default().insert(name);
                        }
                    }
                    rec = LLVMGetNextDbgRecord(rec);
                }
                inst = LLVMGetNextInstruction(inst);
            }
        }
    }
    names.into_iter().filter_map(|(v, s)| (s.len() == 1).then(|| (v, s.into_iter().next().unwrap_or_default()))).collect()
}

//! Loading LLVM modules (text or bitcode), verifying them and running the few semantics-
//! preserving passes the analysis wants (mem2reg only).
//!
//! Pass choice: only `mem2reg`. It neither exploits undefined behaviour nor folds facts about
//! fixed-width ranges (unlike instcombine, simplifycfg, loop-idiom...). SROA is left out: it
//! splits aggregates into odd-width integers and vectors and may introduce poison for
//! partially uninitialised aggregates, which the analysis would then see as undefined
//! behaviour.
//!
//! Uninitialised scalar locals: mem2reg replaces a read of a never-written alloca by `undef`
//! and then feels free to pick a convenient value for it (`phi [undef, 1]` becomes `1`),
//! which narrows the program's behaviours and could turn a non-terminating run into a
//! terminating one. To keep "an arbitrary but fixed value", every promotable scalar alloca
//! first receives `store (freeze poison)` right after its definition; mem2reg then forwards
//! that opaque value instead of undef. Afterwards the leftovers are removed again: unused
//! frozen values, and the initial stores to allocas mem2reg did not promote (their memory
//! is uninitialised, which the analysis models as unknown contents anyway).

use super::ffi;
use crate::error::EngineError;
use inkwell::context::Context;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::transforms::pass_builder::*;
use inkwell::llvm_sys::error::*;
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMOpcode, LLVMTypeKind};
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use std::ffi::{CStr, CString};
use std::path::Path;

/// Which parser to use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum LlvmFormat {
    Text,
    Bitcode,
}

/// Parses and verifies an LLVM module. `shown` is the path reported in errors.
pub(super) fn parse_module<'ctx>(
    context: &'ctx Context,
    path: &Path,
    format: LlvmFormat,
    shown: &str,
) -> Result<Module<'ctx>, EngineError> {
    let bytes = std::fs::read(path).map_err(|e| EngineError::Io { path: shown.to_string(), message: e.to_string() })?;
    let buffer = MemoryBuffer::create_from_memory_range_copy(&bytes, shown);
    let malformed = |message: String| EngineError::MalformedLlvm { path: shown.to_string(), message };
    let module = match format {
        LlvmFormat::Text => context.create_module_from_ir(buffer).map_err(|e| malformed(e.to_string()))?,
        LlvmFormat::Bitcode => Module::parse_bitcode_from_buffer(&buffer, context).map_err(|e| malformed(e.to_string()))?,
    };
    module.verify().map_err(|e| malformed(e.to_string()))?;
    Ok(module)
}

/// Prepares a verified module for translation: removes `optnone`, retypes or drops rustc's
/// byte-array locals (`byte_allocas`), pins uninitialised scalar locals to a frozen value,
/// runs mem2reg.
pub(super) fn prepare_module(module: &Module<'_>) -> Result<(), EngineError> {
    let m = module.as_mut_ptr();
    // SAFETY: `m` is a live, verified module owned by the caller; the builder is disposed here.
    unsafe {
        let optnone = LLVMGetEnumAttributeKindForName(c"optnone".as_ptr(), "optnone".len());
        let builder = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
        let layout = super::layout::Layout::of_module(m);
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
                let (retyped, erased) = super::byte_allocas::simplify(f, layout, builder);
                if retyped + erased > 0 {
                    tracing::trace!("{}: {retyped} byte allocas retyped, {erased} write-only ones erased", ffi::value_name(f));
                }
                freeze_uninitialised_locals(builder, f);
            }
            f = LLVMGetNextFunction(f);
        }
        LLVMDisposeBuilder(builder);
    }
    run_passes(m, "mem2reg")?;
    // SAFETY: as above; instructions are erased only after the iteration moved past them.
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                remove_unneeded_initial_values(f);
            }
            f = LLVMGetNextFunction(f);
        }
    }
    Ok(())
}

/// Suffix of the frozen initial values inserted by `freeze_uninitialised_locals`.
const UNINIT_SUFFIX: &str = ".uninit";

/// Whether `v` is one of the frozen initial values inserted before mem2reg.
unsafe fn is_inserted_initial_value(v: LLVMValueRef) -> bool {
    !LLVMIsAInstruction(v).is_null()
        && LLVMGetInstructionOpcode(v) == LLVMOpcode::LLVMFreeze
        && LLVMIsPoison(LLVMGetOperand(v, 0)) != 0
        && ffi::value_name(v).ends_with(UNINIT_SUFFIX)
}

/// Erases the inserted initial stores that survived mem2reg and the frozen values nobody uses.
unsafe fn remove_unneeded_initial_values(f: LLVMValueRef) {
    let entry = LLVMGetEntryBasicBlock(f);
    let mut inst = LLVMGetFirstInstruction(entry);
    let mut frozen = Vec::new();
    while !inst.is_null() {
        let next = LLVMGetNextInstruction(inst);
        if is_inserted_initial_value(inst) {
            frozen.push(inst);
        } else if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMStore
            && is_inserted_initial_value(LLVMGetOperand(inst, 0))
            && !LLVMIsAAllocaInst(LLVMGetOperand(inst, 1)).is_null()
        {
            LLVMInstructionEraseFromParent(inst);
        }
        inst = next;
    }
    for v in frozen {
        if LLVMGetFirstUse(v).is_null() {
            LLVMInstructionEraseFromParent(v);
        }
    }
}

/// Inserts `store (freeze poison), %a` after every scalar alloca of the entry block.
unsafe fn freeze_uninitialised_locals(builder: LLVMBuilderRef, f: LLVMValueRef) {
    let entry = LLVMGetEntryBasicBlock(f);
    let mut allocas = Vec::new();
    let mut inst = LLVMGetFirstInstruction(entry);
    while !inst.is_null() {
        if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMAlloca {
            let ty = LLVMGetAllocatedType(inst);
            let scalar = matches!(LLVMGetTypeKind(ty), LLVMTypeKind::LLVMIntegerTypeKind | LLVMTypeKind::LLVMPointerTypeKind);
            let count = LLVMGetOperand(inst, 0);
            let single = !LLVMIsAConstantInt(count).is_null() && LLVMConstIntGetZExtValue(count) == 1;
            if scalar && single {
                allocas.push((inst, ty));
            }
        }
        inst = LLVMGetNextInstruction(inst);
    }
    for (alloca, ty) in allocas {
        let next = LLVMGetNextInstruction(alloca);
        if next.is_null() {
            continue;
        }
        LLVMPositionBuilderBefore(builder, next);
        let name = CString::new(format!("{}{UNINIT_SUFFIX}", ffi::value_name(alloca))).unwrap_or_default();
        let frozen = LLVMBuildFreeze(builder, LLVMGetPoison(ty), name.as_ptr());
        LLVMBuildStore(builder, frozen, alloca);
    }
}

/// Runs a new-pass-manager pipeline in-process (no target machine needed for mem2reg).
fn run_passes(m: LLVMModuleRef, passes: &str) -> Result<(), EngineError> {
    let pipeline = CString::new(passes).map_err(|e| EngineError::Toolchain { message: e.to_string() })?;
    // SAFETY: `m` is live; options are created and disposed here; the error is consumed.
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        let error = LLVMRunPasses(m, pipeline.as_ptr(), std::ptr::null_mut(), options);
        LLVMDisposePassBuilderOptions(options);
        if error.is_null() {
            return Ok(());
        }
        let message = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        Err(EngineError::Toolchain { message: format!("LLVM pass pipeline `{passes}` failed: {text}") })
    }
}

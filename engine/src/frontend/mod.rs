//! Front end: C → clang-22 → LLVM → the engine's IR. The only module that touches inkwell or runs clang.
//!
//! Pipeline: `.c`/`.i` files are compiled by clang-22 to bitcode (`toolchain`); `.ll`/`.bc`
//! are parsed and verified (`loading`); rustc's bitcode gets the std definitions it calls from
//! the sysroot (`std_bitcode`); rustc's byte-array locals used as one scalar are
//! retyped and write-only locals (debug spills) erased (`byte_allocas`); mem2reg runs
//! in-process; then every function and
//! global is translated (`function`, `globals`, `constants`) with sizes and offsets resolved
//! from the module's DataLayout (`layout`); rustc's recursive drop glue of `Option<Box<Node>>`
//! lists becomes a loop (`rust_list_drop`).
//!
//! What the translation guarantees beyond the `ir` invariants:
//! - parameters are `ValueId(0..n)`; then instruction results in block order; constant
//!   expressions (a constant GEP or cast of a global) are materialised as extra unnamed
//!   instructions right before their user (for phis: at the end of the predecessor block);
//! - `llvm.dbg.*` and `llvm.lifetime.*` calls are dropped; every other intrinsic stays a
//!   `Call` to its declaration (e.g. `llvm.memset.p0.i64`, `llvm.smax.i32`,
//!   `llvm.sadd.with.overflow.i32` whose struct result is read with `ExtractValue`);
//! - an uninitialised scalar local reads as `Freeze { value: Poison }`: an arbitrary but
//!   fixed value (see `loading` for why not mem2reg's `undef`);
//! - `Op::Unsupported`: floating point arithmetic and casts, vectors, atomics (atomic
//!   load/store, atomicrmw, cmpxchg, fence), volatile loads, va_arg, landing pads,
//!   `ptrtoaddr`, int<->float bitcasts, and instructions with poison flags the IR cannot
//!   carry (`trunc nuw/nsw`, `zext nneg`, `icmp samesign`); `Callee::Unsupported`: inline
//!   assembly; `Terminator::Unsupported`: invoke, callbr, indirectbr, resume, EH pads;
//!   `Operand::Unsupported`: float/vector/aggregate constants, block addresses, ifuncs.
//! - ignored flags: GEP `nuw`/`nusw` (only `inbounds` is kept), fast-math flags, `tail`,
//!   calling conventions, function attributes such as `mustprogress` (no pass here exploits it).

mod annotations;
mod bitcode_check;
mod byte_allocas;
mod constants;
mod debug_names;
mod ffi;
mod function;
mod globals;
mod layout;
pub mod linking;
mod loading;
mod loop_metadata;
mod producer;
mod rust_debuginfo;
mod rust_list_drop;
pub(crate) use rust_list_drop::is_list_drop_loop;
mod rust_vec_debuginfo;
pub mod std_bitcode;
mod toolchain;
mod uses;

pub use toolchain::find_clang;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod rust_tests;
#[cfg(test)]
mod annotation_tests;
#[cfg(test)]
mod byte_alloca_tests;
#[cfg(test)]
mod std_bitcode_tests;
#[cfg(test)]
mod rust_list_drop_tests;

use crate::driver::InputKind;
use crate::error::EngineError;
use crate::ir;
use constants::ModuleMaps;
use inkwell::context::Context;
use inkwell::llvm_sys::core::*;
use layout::Layout;
use loading::LlvmFormat;
use std::collections::HashMap;
use std::path::Path;

/// Loads a `.c`, `.ll` or `.bc` file as an engine IR module.
pub fn load_module(path: &Path, kind: InputKind) -> Result<ir::Module, EngineError> {
    load_module_with_clang_args(path, kind, &[])
}

/// [`load_module`] with extra clang arguments for C inputs (`-I`, `-D`, …; unused for LLVM).
pub fn load_module_with_clang_args(path: &Path, kind: InputKind, clang_args: &[String]) -> Result<ir::Module, EngineError> {
    Ok(load_module_linked(path, kind, clang_args, &std_bitcode::StdBitcodeOptions::default())?.module)
}

/// A loaded module and the names of the Rust standard library's functions linked into it
/// (`std_bitcode`: analysed only as callees).
#[derive(Debug)]
pub struct LoadedModule {
    pub module: ir::Module,
    pub std_functions: Vec<String>,
}

/// [`load_module_with_clang_args`]; rustc's bitcode gets the std definitions it calls from
/// the sysroot (`std`: where extracted members are cached, or not linked at all).
pub fn load_module_linked(path: &Path, kind: InputKind, clang_args: &[String], std: &std_bitcode::StdBitcodeOptions) -> Result<LoadedModule, EngineError> {
    let shown = path.display().to_string();
    let context = Context::create();
    let compiled;
    let mut std_functions = Vec::new();
    let module = match kind {
        InputKind::C => {
            compiled = toolchain::compile_c(path, clang_args)?;
            loading::parse_module(&context, compiled.path(), LlvmFormat::Bitcode, &shown)?
        }
        InputKind::LlvmText => loading::parse_module(&context, path, LlvmFormat::Text, &shown)?,
        InputKind::LlvmBitcode => {
            bitcode_check::check_in_child(path, &shown)?;
            let module = loading::parse_module(&context, path, LlvmFormat::Bitcode, &shown)?;
            let producer = std::fs::read(path).ok().and_then(|bytes| producer::bitcode_producer(&bytes));
            if let Some(producer) = producer.filter(|p| std_bitcode::rust_producer(p).is_some()) {
                std_functions = std_bitcode::link_std(&context, &module, &producer, std)?.functions;
                module.verify().map_err(|e| EngineError::LinkFailed { module: shown.clone(), message: e.to_string() })?;
            }
            module
        }
        InputKind::ItsSmt2 | InputKind::ItsKoat => {
            return Err(EngineError::UnsupportedExtension { path: shown });
        }
    };
    loading::prepare_module(&module)?;
    // Cheap guard against a bug in the preparation: never translate an invalid module.
    module.verify().map_err(|e| EngineError::Toolchain {
        message: format!("internal error: {shown} is invalid after preparation: {e}"),
    })?;
    Ok(LoadedModule { module: translate_module(module.as_mut_ptr(), shown), std_functions })
}

/// Loads program text (C or LLVM assembly) as an engine IR module, through a temporary
/// file; meant for tests and tools that build small programs inline.
pub fn load_source(text: &str, kind: InputKind) -> Result<ir::Module, EngineError> {
    let ext = match kind {
        InputKind::C => "c",
        InputKind::LlvmText => "ll",
        InputKind::LlvmBitcode => "bc",
        InputKind::ItsSmt2 | InputKind::ItsKoat => return Err(EngineError::UnsupportedExtension { path: "<source text>".into() }),
    };
    let io = |e: std::io::Error| EngineError::Io { path: "<temporary file>".into(), message: e.to_string() };
    let mut file = tempfile::Builder::new().prefix("termcheck-").suffix(&format!(".{ext}")).tempfile().map_err(io)?;
    std::io::Write::write_all(&mut file, text.as_bytes()).map_err(io)?;
    load_module(file.path(), kind)
}

/// Translates a prepared LLVM module into the engine IR.
fn translate_module(m: inkwell::llvm_sys::prelude::LLVMModuleRef, source_name: String) -> ir::Module {
    let layout = Layout::of_module(m);
    let raw_annotations = annotations::take_annotations(m);
    let mut llvm_functions = Vec::new();
    let mut llvm_globals = Vec::new();
    // SAFETY: iteration over the live module's function and global lists.
    unsafe {
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            llvm_functions.push(f);
            f = LLVMGetNextFunction(f);
        }
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            llvm_globals.push(g);
            g = LLVMGetNextGlobal(g);
        }
    }
    let maps = ModuleMaps {
        layout,
        functions: llvm_functions.iter().enumerate().map(|(i, &f)| (f, ir::FuncId(i as u32))).collect::<HashMap<_, _>>(),
        globals: llvm_globals.iter().enumerate().map(|(i, &g)| (g, ir::GlobalId(i as u32))).collect::<HashMap<_, _>>(),
    };
    // Unnamed globals and functions (`@0`) are numbered like LLVM prints them (globals
    // first, then functions; aliases, which LLVM counts in between, are rare in C output).
    let globals: Vec<ir::Global> = llvm_globals.iter().map(|&g| globals::translate_global(g, &maps)).collect();
    let mut functions: Vec<ir::Function> = llvm_functions.iter().map(|&f| function::translate_function(f, &maps)).collect();
    let mut globals = globals;
    let mut unnamed = 0;
    for name in globals.iter_mut().map(|g| &mut g.name).chain(functions.iter_mut().map(|f| &mut f.name)) {
        if name.is_empty() {
            *name = unnamed.to_string();
            unnamed += 1;
        }
    }
    let symbols: Vec<(&str, bool)> = functions.iter().map(|f| (f.name.as_str(), !f.is_declaration())).collect();
    let (annotations, malformed_annotations) = annotations::attach(raw_annotations, &symbols);
    let mut module = ir::Module { source_name, pointer_bits: layout.pointer_bits(), functions, globals, annotations, malformed_annotations };
    rust_list_drop::iterate_list_drops(&mut module);
    module
}

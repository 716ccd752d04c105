//! Reads termcheck's source annotations from an LLVM module (docs/annotations.md):
//!
//! - C: `__attribute__((annotate("termcheck:…")))` (`termcheck.h`) puts an entry
//!   `{ ptr @function, ptr @string, ptr @file, i32 line, ptr args }` into the appending global
//!   `llvm.global.annotations`. It is read and then deleted, so that the annotation is not a
//!   use that makes the function's address escape (`uses::address_taken`).
//! - Rust: the `termcheck-annotations` attributes put a `#[used]` static whose bytes are the
//!   text into the link section `.termcheck` (`__DATA,__termcheck` on Apple targets), inside
//!   the annotated function's body. A static inside a function is named by the function's
//!   path (`crate::f::__TERMCHECK_ANNOTATION_…`), so the function is every defined function
//!   whose demangled path is that path without its last segment, or a generic instance of it
//!   (`crate::f::<u8>`).
//!
//! Texts without the `termcheck:` prefix (other tools' annotations) are ignored; texts with it
//! that cannot be read are kept as `ir::annotation::MalformedAnnotation`.

use crate::ir::annotation::{parse_annotation, Annotation, AnnotationSource, MalformedAnnotation};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use std::collections::BTreeMap;
use std::ffi::CStr;

/// The link sections of the Rust attributes' statics.
const RUST_SECTIONS: [&str; 2] = [".termcheck", "__DATA,__termcheck"];

/// Annotation texts found in a module, before they are attached to functions.
#[derive(Default, Debug)]
pub(super) struct RawAnnotations {
    /// `(function symbol, text)` from `llvm.global.annotations`.
    c: Vec<(String, String)>,
    /// `(static symbol, text)` of the `.termcheck` statics.
    rust: Vec<(String, String)>,
}

/// Reads the annotations of `m` and deletes `llvm.global.annotations`. Call before the
/// functions are translated.
pub(super) fn take_annotations(m: LLVMModuleRef) -> RawAnnotations {
    let mut raw = RawAnnotations::default();
    // SAFETY: `m` is a live module; globals, initializers and operands are live values of it,
    // and the annotations global has no users (appending linkage, only read by tools).
    unsafe {
        let table = LLVMGetNamedGlobal(m, c"llvm.global.annotations".as_ptr());
        if !table.is_null() {
            let init = LLVMGetInitializer(table);
            let entries = if init.is_null() { 0 } else { LLVMGetNumOperands(init).max(0) as u32 };
            for i in 0..entries {
                let entry = LLVMGetOperand(init, i);
                if entry.is_null() || LLVMGetNumOperands(entry) < 2 {
                    continue;
                }
                let function = strip_casts(LLVMGetOperand(entry, 0));
                let text = string_of(strip_casts(LLVMGetOperand(entry, 1)));
                if let (Some(function), Some(text)) = (value_name(function), text) {
                    raw.c.push((function, text));
                }
            }
            LLVMDeleteGlobal(table);
        }
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let section = LLVMGetSection(g);
            let in_section = !section.is_null() && RUST_SECTIONS.iter().any(|s| CStr::from_ptr(section).to_bytes() == s.as_bytes());
            if in_section {
                if let (Some(name), Some(text)) = (value_name(g), string_of(g)) {
                    raw.rust.push((name, text));
                }
            }
            g = LLVMGetNextGlobal(g);
        }
    }
    raw
}

/// The per-function annotations of a translated module (`symbols`: its functions' names,
/// `defined`: whether each has a body).
pub(super) fn attach(raw: RawAnnotations, symbols: &[(&str, bool)]) -> (BTreeMap<String, Vec<Annotation>>, Vec<MalformedAnnotation>) {
    let mut attached: BTreeMap<String, Vec<Annotation>> = BTreeMap::new();
    let mut malformed = Vec::new();
    let mut add = |function: &str, text: &str, source: AnnotationSource| match parse_annotation(text, source) {
        None => {}
        Some(Ok(annotation)) => {
            let list = attached.entry(function.to_string()).or_default();
            if !list.contains(&annotation) {
                list.push(annotation);
            }
        }
        Some(Err(problem)) => malformed.push(MalformedAnnotation { function: Some(function.to_string()), text: text.to_string(), problem }),
    };
    for (function, text) in &raw.c {
        add(function, text, AnnotationSource::CAttribute);
    }
    let paths: Vec<(&str, String)> = symbols.iter().filter(|(_, defined)| *defined).map(|(s, _)| (*s, demangled(s))).collect();
    for (anchor, text) in &raw.rust {
        let anchor_path = demangled(anchor);
        let Some((function_path, _)) = anchor_path.rsplit_once("::") else { continue };
        let generic_prefix = format!("{function_path}::<");
        let mut found = false;
        for (symbol, path) in &paths {
            if path == function_path || path.starts_with(&generic_prefix) {
                add(symbol, text, AnnotationSource::RustAttribute);
                found = true;
            }
        }
        if !found {
            // A generic function never instantiated here has nothing to analyse either.
            tracing::debug!(anchor = %anchor_path, "annotation of a function without a definition in this module");
        }
    }
    (attached, malformed)
}

/// A Rust symbol's demangled path without hashes, or the symbol itself.
fn demangled(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(d) => format!("{d:#}"),
        Err(_) => symbol.to_string(),
    }
}

/// `value` without constant-expression casts around it.
///
/// # Safety
/// `value` must be null or a live value.
unsafe fn strip_casts(mut value: LLVMValueRef) -> LLVMValueRef {
    while !value.is_null() && !LLVMIsAConstantExpr(value).is_null() && LLVMGetNumOperands(value) > 0 {
        value = LLVMGetOperand(value, 0);
    }
    value
}

/// The name of a value, if it has one.
///
/// # Safety
/// `value` must be null or a live value.
unsafe fn value_name(value: LLVMValueRef) -> Option<String> {
    if value.is_null() {
        return None;
    }
    let mut len = 0;
    let ptr = LLVMGetValueName2(value, &mut len);
    if ptr.is_null() || len == 0 {
        return None;
    }
    Some(String::from_utf8_lossy(std::slice::from_raw_parts(ptr.cast::<u8>(), len)).into_owned())
}

/// The text of a global variable initialised with a byte string (trailing NULs removed).
///
/// # Safety
/// `global` must be null or a live value.
unsafe fn string_of(global: LLVMValueRef) -> Option<String> {
    if global.is_null() || LLVMIsAGlobalVariable(global).is_null() {
        return None;
    }
    let init = LLVMGetInitializer(global);
    if init.is_null() || LLVMIsAConstantDataSequential(init).is_null() || LLVMIsConstantString(init) == 0 {
        return None;
    }
    let mut len = 0;
    let ptr = LLVMGetAsString(init, &mut len);
    if ptr.is_null() {
        return None;
    }
    let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
}

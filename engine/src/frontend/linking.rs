//! Linking several bitcode (or LLVM text) files into one engine module, in process: the Rust
//! crates and the C objects of one Cargo target become one `ir::Module` whose calls across
//! the FFI boundary are resolved.
//!
//! - Every input's LLVM producer is read first (`producer`): bitcode from an LLVM newer than
//!   the one termcheck is linked with is refused with both versions named (same major and
//!   minor with another patch level is accepted: the bitcode format only changes with new
//!   releases, and rustc 22.1.x bitcode is read by LLVM 22.1.y).
//! - Each defined function is tagged with its input's owner (a string attribute) before
//!   linking, so the owner survives the renaming of colliding internal symbols; duplicate
//!   `linkonce_odr`/`weak_odr` definitions (generic instances emitted by several crates) are
//!   merged by LLVM's linker, which keeps the first one: the owner is that input's.
//! - Target triples that differ only in the vendor (`x86_64-unknown-linux-gnu` from rustc,
//!   `x86_64-pc-linux-gnu` from clang) are unified before linking.
//! - LLVM's linker copies an internal (`static`) function of a later input only when something
//!   references it; the unreferenced ones (dead code) are returned by name in
//!   `LinkedModule::dropped`, so that a caller can say they were not analysed.
//! - With rustc's bitcode among the inputs, `link_files_with_std` then links the definitions
//!   of the Rust standard library the module calls from the sysroot's bitcode (`std_bitcode`).
//! - After linking, the module is prepared and translated exactly like a single input.

use super::std_bitcode::{self, StdBitcodeOptions};
use super::{loading, producer, translate_module};
use crate::error::EngineError;
use crate::ir;
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::llvm_sys::LLVMAttributeFunctionIndex;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::targets::TargetTriple;
use inkwell::values::AsValueRef;
use std::ffi::c_char;
use std::path::{Path, PathBuf};

/// The string attribute that carries a function's owner through the link.
pub(super) const OWNER_ATTRIBUTE: &str = "termcheck-owner";

/// One file to link and the owner its functions are attributed to (a crate name, a C
/// library: chosen by the caller).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BitcodeInput {
    pub path: PathBuf,
    pub owner: String,
}

/// A defined function of the linked module.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LinkedFunction {
    /// Its symbol name in the linked module (as in `ir::Module::functions`).
    pub name: String,
    /// The owner of the input whose definition was kept.
    pub owner: String,
    /// The source file of its debug info (directory joined with the file name), if any.
    pub source_file: Option<PathBuf>,
}

/// A linked, translated module and its defined functions' owners, in module order.
#[derive(Debug)]
pub struct LinkedModule {
    pub module: ir::Module,
    pub functions: Vec<LinkedFunction>,
    /// Internal functions of the inputs that the linker did not copy (nothing referenced
    /// them): `(name, owner)`.
    pub dropped: Vec<(String, String)>,
}

/// The version of the LLVM library termcheck runs with.
pub fn linked_llvm_version() -> (u32, u32, u32) {
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    // SAFETY: plain out-parameters.
    unsafe { LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    (major, minor, patch)
}

/// Refuses bitcode whose producer is a newer LLVM (major, minor) than the linked one.
pub fn check_producer(path: &Path, bytes: &[u8]) -> Result<(), EngineError> {
    let Some(producer) = producer::bitcode_producer(bytes) else { return Ok(()) };
    let Some((major, minor, _)) = producer::producer_llvm_version(&producer) else { return Ok(()) };
    let linked = linked_llvm_version();
    if (major, minor) > (linked.0, linked.1) {
        return Err(EngineError::BitcodeTooNew {
            path: path.display().to_string(),
            producer,
            linked: format!("{}.{}.{}", linked.0, linked.1, linked.2),
        });
    }
    Ok(())
}

/// Loads `inputs` (bitcode or LLVM text, at least one) into one module named `name`, links
/// them in order and translates the result.
pub fn link_files(inputs: &[BitcodeInput], name: &str) -> Result<LinkedModule, EngineError> {
    link_files_with_std(inputs, name, &StdBitcodeOptions { disabled: true, ..Default::default() })
}

/// [`link_files`], then the Rust standard library's definitions the module needs, from the
/// sysroot's bitcode (`std_bitcode`; only when an input was produced by rustc).
pub fn link_files_with_std(inputs: &[BitcodeInput], name: &str, std: &StdBitcodeOptions) -> Result<LinkedModule, EngineError> {
    let context = Context::create();
    let mut modules = Vec::with_capacity(inputs.len());
    let mut internal = Vec::new();
    let mut rust_producer = None;
    for input in inputs {
        let (module, producer) = parse_input(&context, &input.path)?;
        if rust_producer.is_none() {
            rust_producer = producer.filter(|p| std_bitcode::rust_producer(p).is_some());
        }
        tag_owner(&context, &module, &input.owner);
        internal.extend(internal_functions(&module).into_iter().map(|name| (name, input.owner.clone())));
        modules.push(module);
    }
    let mut modules = modules.into_iter();
    let Some(linked) = modules.next() else {
        return Err(EngineError::LinkFailed { module: name.to_string(), message: "no input files".into() });
    };
    for module in modules {
        unify_vendor(&linked, &module);
        linked.link_in_module(module).map_err(|e| EngineError::LinkFailed { module: name.to_string(), message: e.to_string() })?;
    }
    if let Some(producer) = &rust_producer {
        std_bitcode::link_std(&context, &linked, producer, std)?;
    }
    linked.verify().map_err(|e| EngineError::LinkFailed { module: name.to_string(), message: e.to_string() })?;
    loading::prepare_module(&linked)?;
    linked.verify().map_err(|e| EngineError::Toolchain {
        message: format!("internal error: the linked module {name} is invalid after preparation: {e}"),
    })?;
    let functions = take_owners(&linked);
    let dropped = internal.into_iter().filter(|(name, owner)| !functions.iter().any(|f| f.owner == *owner && is_renamed_copy(&f.name, name))).collect();
    let module = translate_module(linked.as_mut_ptr(), name.to_string());
    Ok(LinkedModule { module, functions, dropped })
}

/// The defined functions of `module` with internal or private linkage.
fn internal_functions(module: &Module<'_>) -> Vec<String> {
    use inkwell::module::Linkage;
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0 && matches!(f.get_linkage(), Linkage::Internal | Linkage::Private))
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect()
}

/// Whether `linked` is `original` or the linker's renamed copy of it (`original.N`).
fn is_renamed_copy(linked: &str, original: &str) -> bool {
    linked == original || linked.strip_prefix(original).and_then(|rest| rest.strip_prefix('.')).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads one input: bitcode (after the producer check) or LLVM text, verified; with the
/// bitcode's producer.
fn parse_input<'ctx>(context: &'ctx Context, path: &Path) -> Result<(Module<'ctx>, Option<String>), EngineError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| EngineError::Io { path: shown.clone(), message: e.to_string() })?;
    let malformed = |message: String| EngineError::MalformedLlvm { path: shown.clone(), message };
    let module = if producer::is_bitcode(&bytes) {
        check_producer(path, &bytes)?;
        super::bitcode_check::check_in_child(path, &shown)?;
        let buffer = MemoryBuffer::create_from_memory_range_copy(&bytes, &shown);
        Module::parse_bitcode_from_buffer(&buffer, context).map_err(|e| malformed(e.to_string()))?
    } else {
        let buffer = MemoryBuffer::create_from_memory_range_copy(&bytes, &shown);
        context.create_module_from_ir(buffer).map_err(|e| malformed(e.to_string()))?
    };
    module.verify().map_err(|e| malformed(e.to_string()))?;
    Ok((module, producer::bitcode_producer(&bytes)))
}

/// Marks every defined function of `module` as owned by `owner`.
pub(super) fn tag_owner(context: &Context, module: &Module<'_>, owner: &str) {
    for function in module.get_functions() {
        if function.count_basic_blocks() > 0 {
            function.add_attribute(AttributeLoc::Function, context.create_string_attribute(OWNER_ATTRIBUTE, owner));
        }
    }
}

/// Gives `incoming` the destination's triple when the two differ only in the vendor field.
fn unify_vendor(destination: &Module<'_>, incoming: &Module<'_>) {
    let (to, from) = (destination.get_triple(), incoming.get_triple());
    let (to_text, from_text) = (to.as_str().to_string_lossy(), from.as_str().to_string_lossy());
    let without_vendor = |t: &str| -> Option<(String, String)> {
        let parts: Vec<&str> = t.split('-').collect();
        (parts.len() >= 3).then(|| (parts[0].to_string(), parts[2..].join("-")))
    };
    if to_text != from_text && without_vendor(&to_text).is_some() && without_vendor(&to_text) == without_vendor(&from_text) {
        incoming.set_triple(&TargetTriple::create(&to_text));
    }
}

/// Reads (and removes) the owner tags of the linked module's defined functions, with their
/// debug-info source files.
fn take_owners(module: &Module<'_>) -> Vec<LinkedFunction> {
    let mut functions = Vec::new();
    let key_len = OWNER_ATTRIBUTE.len() as u32;
    for function in module.get_functions() {
        if function.count_basic_blocks() == 0 {
            continue;
        }
        let f = function.as_value_ref();
        let owner = function
            .get_string_attribute(AttributeLoc::Function, OWNER_ATTRIBUTE)
            .and_then(|a| a.get_string_value().to_str().ok().map(str::to_string))
            .unwrap_or_default();
        // SAFETY: `f` is a live function of the module; removing an attribute it may lack is a no-op.
        unsafe { LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, OWNER_ATTRIBUTE.as_ptr().cast(), key_len) };
        functions.push(LinkedFunction {
            name: function.get_name().to_string_lossy().into_owned(),
            owner,
            source_file: source_file(f),
        });
    }
    functions
}

/// The debug-info source file of a function: its directory joined with its file name (an
/// absolute file name stays as it is).
fn source_file(f: LLVMValueRef) -> Option<PathBuf> {
    let text = |ptr: *const c_char, len: u32| -> Option<String> {
        if ptr.is_null() || len == 0 {
            return None;
        }
        // SAFETY: LLVM returns `len` valid bytes owned by the module's metadata.
        let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len as usize) };
        Some(String::from_utf8_lossy(bytes).into_owned())
    };
    let (mut file_len, mut dir_len) = (0u32, 0u32);
    // SAFETY: both accessors accept functions and return null/0 without debug info.
    let (file, dir) = unsafe {
        (text(LLVMGetDebugLocFilename(f, &mut file_len), file_len), text(LLVMGetDebugLocDirectory(f, &mut dir_len), dir_len))
    };
    let file = PathBuf::from(file?);
    Some(match dir {
        Some(dir) if file.is_relative() => Path::new(&dir).join(file),
        _ => file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::File::create(&path).and_then(|mut f| f.write_all(text.as_bytes())).expect("write input");
        path
    }

    const RUST_LIKE: &str = r#"
target triple = "x86_64-unknown-linux-gnu"
declare i32 @c_twice(i32)
define i32 @rust_entry(i32 %x) {
  %r = call i32 @c_twice(i32 %x)
  ret i32 %r
}
define linkonce_odr i32 @generic_instance(i32 %x) {
  ret i32 %x
}
define internal i32 @helper(i32 %x) {
  ret i32 %x
}
"#;

    const C_LIKE: &str = r#"
target triple = "x86_64-pc-linux-gnu"
define i32 @c_twice(i32 %x) {
  %r = add i32 %x, %x
  ret i32 %r
}
define linkonce_odr i32 @generic_instance(i32 %x) {
  ret i32 %x
}
define internal i32 @helper(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}
"#;

    #[test]
    fn links_across_inputs_and_keeps_each_functions_owner() {
        let dir = tempfile::tempdir().unwrap();
        let inputs = [
            BitcodeInput { path: write(dir.path(), "a.ll", RUST_LIKE), owner: "crate_a".into() },
            BitcodeInput { path: write(dir.path(), "c.ll", C_LIKE), owner: "C of a".into() },
        ];
        let linked = link_files(&inputs, "a").expect("links");
        let owner = |name: &str| linked.functions.iter().find(|f| f.name == name).map(|f| f.owner.as_str());
        assert_eq!(owner("rust_entry"), Some("crate_a"));
        assert_eq!(owner("c_twice"), Some("C of a"));
        // The duplicate linkonce_odr instance is merged into one definition, the first input's.
        assert_eq!(linked.functions.iter().filter(|f| f.name == "generic_instance").count(), 1);
        assert_eq!(owner("generic_instance"), Some("crate_a"));
        // The first input's internal function stays; the second's, referenced by nothing, is
        // not copied by the linker and is reported as dropped.
        let helpers: Vec<(&str, &str)> =
            linked.functions.iter().filter(|f| f.name.starts_with("helper")).map(|f| (f.name.as_str(), f.owner.as_str())).collect();
        assert_eq!(helpers, [("helper", "crate_a")]);
        assert_eq!(linked.dropped, [("helper".to_string(), "C of a".to_string())]);
        // The call of the C function resolves to its definition in the linked module.
        let c_twice = linked.module.functions.iter().find(|f| f.name == "c_twice").expect("c_twice");
        assert!(!c_twice.is_declaration());
        assert_eq!(linked.functions.len(), linked.module.functions.iter().filter(|f| !f.is_declaration()).count());
    }

    #[test]
    fn colliding_referenced_internal_functions_are_both_kept_one_renamed() {
        let dir = tempfile::tempdir().unwrap();
        let second = "define internal i32 @helper(i32 %x) {\n  ret i32 %x\n}\ndefine i32 @c_entry(i32 %x) {\n  %r = call i32 @helper(i32 %x)\n  ret i32 %r\n}\n";
        let inputs = [
            BitcodeInput { path: write(dir.path(), "a.ll", RUST_LIKE), owner: "a".into() },
            BitcodeInput { path: write(dir.path(), "b.ll", second), owner: "b".into() },
        ];
        let linked = link_files(&inputs, "both").expect("links");
        let mut helpers: Vec<(String, String)> =
            linked.functions.iter().filter(|f| f.name.starts_with("helper")).map(|f| (f.name.clone(), f.owner.clone())).collect();
        helpers.sort();
        assert_eq!(helpers.len(), 2, "{helpers:?}");
        assert_eq!(helpers[0], ("helper".to_string(), "a".to_string()));
        assert!(is_renamed_copy(&helpers[1].0, "helper") && helpers[1].1 == "b", "{helpers:?}");
        assert!(linked.dropped.is_empty(), "{:?}", linked.dropped);
    }

    #[test]
    fn renamed_copies_are_recognised() {
        assert!(is_renamed_copy("helper", "helper"));
        assert!(is_renamed_copy("helper.12", "helper"));
        assert!(!is_renamed_copy("helper.x", "helper"));
        assert!(!is_renamed_copy("helpers", "helper"));
        assert!(!is_renamed_copy("helper.", "helper"));
    }

    #[test]
    fn two_strong_definitions_are_a_link_error() {
        let dir = tempfile::tempdir().unwrap();
        let strong = "define i32 @same(i32 %x) {\n  ret i32 %x\n}\n";
        let inputs = [
            BitcodeInput { path: write(dir.path(), "a.ll", strong), owner: "a".into() },
            BitcodeInput { path: write(dir.path(), "b.ll", strong), owner: "b".into() },
        ];
        let error = link_files(&inputs, "both").expect_err("duplicate symbol");
        assert!(matches!(&error, EngineError::LinkFailed { message, .. } if message.contains("same")), "{error:?}");
    }

    #[test]
    fn bitcode_from_a_newer_llvm_is_refused_naming_both_versions() {
        let linked = linked_llvm_version();
        let dir = tempfile::tempdir().unwrap();
        let c = write(dir.path(), "x.c", "int f(int x) { return x; }\n");
        let bc = dir.path().join("x.bc");
        let clang = super::super::toolchain::find_clang().expect("clang-22");
        let status = std::process::Command::new(clang).args(["-c", "-emit-llvm", "-o"]).arg(&bc).arg(&c).status().unwrap();
        assert!(status.success());
        let mut bytes = std::fs::read(&bc).unwrap();
        // The real file passes, and names an LLVM of the linked major version.
        let producer = producer::bitcode_producer(&bytes).expect("clang writes an identification block");
        assert_eq!(producer::producer_llvm_version(&producer).map(|v| v.0), Some(linked.0), "{producer}");
        check_producer(&bc, &bytes).expect("same version");
        // The same file claiming a newer major version (same length: one digit changed).
        let text = format!("{}", linked.0);
        let newer = format!("{}", linked.0 + 1);
        assert_eq!(text.len(), newer.len());
        let rewritten = rewrite_char6_producer(&mut bytes, &producer, &producer.replacen(&text, &newer, 1));
        assert!(rewritten, "the producer string is char6-encoded in clang's bitcode");
        let error = check_producer(&bc, &bytes).expect_err("newer producer");
        let message = error.to_string();
        assert!(message.contains(&format!("LLVM{newer}")), "{message}");
        assert!(message.contains(&format!("{}.{}.{}", linked.0, linked.1, linked.2)), "{message}");
    }

    /// Replaces clang's char6-encoded producer string in place (same length), by re-reading
    /// the bits: test helper only.
    fn rewrite_char6_producer(bytes: &mut [u8], old: &str, new: &str) -> bool {
        let encode = |c: u8| -> u8 {
            match c {
                b'a'..=b'z' => c - b'a',
                b'A'..=b'Z' => c - b'A' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'.' => 62,
                _ => 63,
            }
        };
        let read = |bytes: &[u8], bit: usize| -> u8 {
            (0..6).fold(0u8, |v, i| v | (((bytes[(bit + i) / 8] >> ((bit + i) % 8)) & 1) << i))
        };
        let old_codes: Vec<u8> = old.bytes().map(encode).collect();
        let total_bits = bytes.len() * 8;
        for start in 0..total_bits.saturating_sub(6 * old_codes.len()).min(2048) {
            if (0..old_codes.len()).all(|k| read(bytes, start + 6 * k) == old_codes[k]) {
                for (k, c) in new.bytes().map(encode).enumerate() {
                    for i in 0..6 {
                        let bit = start + 6 * k + i;
                        let mask = 1u8 << (bit % 8);
                        if (c >> i) & 1 == 1 {
                            bytes[bit / 8] |= mask;
                        } else {
                            bytes[bit / 8] &= !mask;
                        }
                    }
                }
                return true;
            }
        }
        false
    }
}

//! Rust's standard library linked from the sysroot's own bitcode: the functions a rustc
//! module calls but does not define (e.g. `RawVec::grow_one`, `<Vec<u8> as Drop>::drop`) are
//! looked up by name in the sysroot's rlibs, whose object members embed their LLVM bitcode
//! (section `.llvmbc`), and linked in lazily, as `llvm-link --only-needed` does.
//!
//! - The sysroot is the one of the `rustc` on the path (or `$RUSTC`): `rustc --print
//!   target-libdir` names the host's rlibs. Each rlib is an `ar` archive; its symbol table
//!   says which member defines a name (read with the `object` crate, which also finds the
//!   member's `.llvmbc` section).
//! - The extracted bitcode must come from the same rustc as the module (equal producer
//!   strings, e.g. `LLVM22.1.2-rust-1.95.0-stable`); any other sysroot is not linked and its
//!   functions stay unknown externals (MAYBE, named). The producer is also checked against
//!   the linked LLVM (`linking::check_producer`).
//! - Extracted members are cached as `<cache>/<producer>/<rlib member>.bc` when a cache folder
//!   is given (workspace mode: `target/termcheck/std-bitcode`; `prove`: beside its report cache),
//!   each entry the bitcode followed by its blake3 hash and written atomically (temporary file,
//!   rename); an entry whose hash does not match (truncated, corrupt) is extracted again.
//! - Lazy linking: before a std module is linked, each of its definitions with external
//!   linkage becomes `linkonce_odr`, so LLVM's linker copies exactly the definitions the
//!   destination declares and, transitively, what they reference (internal and `linkonce`
//!   definitions are copied only when referenced). Appending globals (`llvm.used`, ctors) are
//!   removed first: they would pull in unrelated code. Rounds repeat while newly linked code
//!   declares further std functions.
//! - std functions the engine already knows by name (panics, the allocator, the trusted
//!   table of `ir::rust_trusted`: `ir::externals::classify` is not `Unknown`) are never linked:
//!   their bodies are replaced by declarations before linking, so they keep their summaries.
//! - Linked definitions are tagged with the owner [`STD_OWNER`]; they are analysed only as
//!   callees, never reported as the user's functions. LLVM's `icmp samesign` flag (an
//!   optimiser-derived fact in std's optimised code, which the engine's IR cannot carry) is
//!   dropped from them: for code that LLVM proved to compare same-signed operands, the
//!   comparison without the flag gives the same result on every run.

use super::ffi;
use crate::error::EngineError;
use crate::ir::externals::{classify, External};
use inkwell::attributes::AttributeLoc;
use inkwell::context::Context;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMLinkage, LLVMOpcode};
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::values::AsValueRef;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The owner given to every linked std definition (see `linking::OWNER_ATTRIBUTE`).
pub const STD_OWNER: &str = "Rust standard library";

/// How many rounds of lookups a module gets: each round links what the previous one's new
/// code declares (alloc's `grow_one` → alloc's internal `finish_grow` comes in the same
/// round; a second crate, e.g. core, in the next).
const MAX_ROUNDS: usize = 6;

/// Where the std bitcode comes from and where extracted members are kept.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StdBitcodeOptions {
    /// Folder of extracted members (`None`: extracted in memory on every load).
    pub cache_dir: Option<PathBuf>,
    /// Not linked at all (std functions stay unknown externals).
    pub disabled: bool,
}

/// What linking std did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StdLinked {
    /// The names of the linked std definitions (after linking).
    pub functions: Vec<String>,
    /// Why nothing was linked although std functions were declared, if so.
    pub skipped: Option<String>,
}

/// The Rust version part of a bitcode producer (`LLVM22.1.2-rust-1.95.0-stable` →
/// `rust-1.95.0-stable`), `None` for other producers (clang).
pub fn rust_producer(producer: &str) -> Option<&str> {
    producer.find("-rust-").map(|i| &producer[i + 1..])
}

/// Links the std definitions `dest` needs into it (module of the rustc producer `producer`).
pub fn link_std<'ctx>(context: &'ctx Context, dest: &Module<'ctx>, producer: &str, options: &StdBitcodeOptions) -> Result<StdLinked, EngineError> {
    let mut linked = StdLinked::default();
    if options.disabled || rust_producer(producer).is_none() {
        return Ok(linked);
    }
    let mut tried: BTreeSet<String> = BTreeSet::new();
    let mut rlibs: Option<Vec<PathBuf>> = None;
    for _ in 0..MAX_ROUNDS {
        let wanted: BTreeSet<String> = unknown_called_declarations(dest).into_iter().filter(|n| !tried.contains(n)).collect();
        if wanted.is_empty() {
            break;
        }
        tried.extend(wanted.iter().cloned());
        if rlibs.is_none() {
            match sysroot_rlibs() {
                Ok(found) => rlibs = Some(found),
                Err(reason) => {
                    tracing::warn!("std bitcode not linked: {reason}");
                    linked.skipped = Some(reason);
                    break;
                }
            }
        }
        let members = find_definitions(rlibs.as_deref().unwrap_or_default(), &wanted);
        if members.is_empty() {
            break;
        }
        for (rlib, member) in members.keys() {
            let bytes = match member_bitcode(rlib, member, options.cache_dir.as_deref(), producer) {
                Ok(bytes) => bytes,
                Err(reason) => {
                    tracing::warn!("std bitcode of {} not linked: {reason}", rlib.display());
                    linked.skipped = Some(reason);
                    continue;
                }
            };
            let shown = format!("{}({member})", rlib.display());
            super::linking::check_producer(Path::new(&shown), &bytes)?;
            let buffer = MemoryBuffer::create_from_memory_range_copy(&bytes, &shown);
            let module = Module::parse_bitcode_from_buffer(&buffer, context)
                .map_err(|e| EngineError::MalformedLlvm { path: shown.clone(), message: e.to_string() })?;
            prepare_lazy(&module);
            super::linking::tag_owner(context, &module, STD_OWNER);
            dest.link_in_module(module).map_err(|e| EngineError::LinkFailed { module: shown.clone(), message: e.to_string() })?;
        }
    }
    for f in dest.get_functions() {
        let owned = f.get_string_attribute(AttributeLoc::Function, super::linking::OWNER_ATTRIBUTE).is_some_and(|a| a.get_string_value().to_bytes() == STD_OWNER.as_bytes());
        if owned && f.count_basic_blocks() > 0 {
            drop_samesign(f.as_value_ref());
            linked.functions.push(f.get_name().to_string_lossy().into_owned());
        }
    }
    Ok(linked)
}

/// Declared functions of `module` the engine does not know by name and that something other
/// than a function's personality slot uses (a call, a stored address).
fn unknown_called_declarations(module: &Module<'_>) -> Vec<String> {
    module
        .get_functions()
        .filter(|f| f.count_basic_blocks() == 0)
        .map(|f| (f.get_name().to_string_lossy().into_owned(), f.as_value_ref()))
        .filter(|(name, _)| matches!(classify(name), External::Unknown(_)))
        .filter(|(_, f)| used_outside_personality(*f))
        .map(|(name, _)| name)
        .collect()
}

fn used_outside_personality(f: LLVMValueRef) -> bool {
    // SAFETY: walking the use list of a live function.
    unsafe {
        let mut u = LLVMGetFirstUse(f);
        while !u.is_null() {
            if LLVMIsAFunction(LLVMGetUser(u)).is_null() {
                return true;
            }
            u = LLVMGetNextUse(u);
        }
    }
    false
}

/// The host's rlibs of the sysroot (`rustc --print target-libdir`), by file name.
fn sysroot_rlibs() -> Result<Vec<PathBuf>, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(&rustc)
        .args(["--print", "target-libdir"])
        .output()
        .map_err(|e| format!("cannot run `{rustc} --print target-libdir`: {e}"))?;
    if !out.status.success() {
        return Err(format!("`{rustc} --print target-libdir` failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let mut rlibs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rlib"))
        .collect();
    rlibs.sort();
    Ok(rlibs)
}

/// For each wanted name, the first rlib (by file name) whose archive symbol table defines it:
/// `(rlib, member) → names`.
fn find_definitions(rlibs: &[PathBuf], wanted: &BTreeSet<String>) -> BTreeMap<(PathBuf, String), Vec<String>> {
    let mut found: BTreeMap<(PathBuf, String), Vec<String>> = BTreeMap::new();
    let mut left: BTreeSet<&str> = wanted.iter().map(String::as_str).collect();
    for rlib in rlibs {
        if left.is_empty() {
            break;
        }
        let Ok(file) = std::fs::File::open(rlib) else { continue };
        let cache = object::ReadCache::new(file);
        let Ok(archive) = object::read::archive::ArchiveFile::parse(&cache) else { continue };
        let Ok(Some(symbols)) = archive.symbols() else { continue };
        for symbol in symbols.flatten() {
            let Ok(name) = std::str::from_utf8(symbol.name()) else { continue };
            if !left.contains(name) {
                continue;
            }
            let Ok(member) = archive.member(symbol.offset()) else { continue };
            let member = String::from_utf8_lossy(member.name()).into_owned();
            left.remove(name);
            found.entry((rlib.clone(), member)).or_default().push(name.to_string());
        }
    }
    found
}

/// The `.llvmbc` section of `member` of `rlib`, from the cache when it is there; refused when
/// its producer is not `producer`.
fn member_bitcode(rlib: &Path, member: &str, cache_dir: Option<&Path>, producer: &str) -> Result<Vec<u8>, String> {
    let stem = rlib.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let cached = cache_dir.map(|d| d.join(sanitize(producer)).join(format!("{stem}.{}.bc", sanitize(member))));
    if let Some(bytes) = cached.as_ref().and_then(|p| std::fs::read(p).ok()).and_then(checked_entry) {
        if super::producer::bitcode_producer(&bytes).as_deref() == Some(producer) {
            return Ok(bytes);
        }
    }
    let file = std::fs::File::open(rlib).map_err(|e| format!("cannot open {}: {e}", rlib.display()))?;
    let cache = object::ReadCache::new(file);
    let archive = object::read::archive::ArchiveFile::parse(&cache).map_err(|e| format!("{}: not an archive: {e}", rlib.display()))?;
    let data = archive
        .members()
        .flatten()
        .find(|m| m.name() == member.as_bytes())
        .ok_or_else(|| format!("{}: no member {member}", rlib.display()))?
        .data(&cache)
        .map_err(|e| format!("{}({member}): {e}", rlib.display()))?;
    use object::{Object, ObjectSection};
    let object = object::File::parse(data).map_err(|e| format!("{}({member}): not an object file: {e}", rlib.display()))?;
    let section = object.section_by_name(".llvmbc").ok_or_else(|| format!("{}({member}) embeds no bitcode", rlib.display()))?;
    let bytes = section.data().map_err(|e| format!("{}({member}): {e}", rlib.display()))?.to_vec();
    let found = super::producer::bitcode_producer(&bytes).unwrap_or_default();
    if found != producer {
        return Err(format!("{} was built by `{found}`, the program by `{producer}`", rlib.display()));
    }
    if let Some(path) = cached {
        store(&path, &bytes);
    }
    Ok(bytes)
}

/// Length of a cache entry's trailer: the blake3 hash of the bitcode before it.
const TRAILER: usize = blake3::OUT_LEN;

/// The bitcode of a cache entry (`bitcode ‖ blake3(bitcode)`), `None` when the entry is
/// truncated, corrupt or of an older format: the member is then extracted again and the entry
/// rewritten. A damaged entry is never parsed (it would be a load error, not a cache miss).
fn checked_entry(mut entry: Vec<u8>) -> Option<Vec<u8>> {
    let at = entry.len().checked_sub(TRAILER)?;
    let hash: [u8; TRAILER] = entry[at..].try_into().ok()?;
    entry.truncate(at);
    (blake3::hash(&entry) == blake3::Hash::from_bytes(hash)).then_some(entry)
}

/// Writes a cache entry (`bytes ‖ blake3(bytes)`, see [`checked_entry`]) atomically: a
/// temporary file in the same folder renamed into place, so a reader sees a whole entry or
/// none (a failure only costs the next run an extraction).
fn store(path: &Path, bytes: &[u8]) {
    let Some(dir) = path.parent() else { return };
    let written = std::fs::create_dir_all(dir).ok().and_then(|_| tempfile::NamedTempFile::new_in(dir).ok()).and_then(|mut tmp| {
        std::io::Write::write_all(&mut tmp, bytes).ok()?;
        std::io::Write::write_all(&mut tmp, blake3::hash(bytes).as_bytes()).ok()?;
        tmp.persist(path).ok()
    });
    if written.is_none() {
        tracing::debug!("could not cache std bitcode at {}", path.display());
    }
}

fn sanitize(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '_' }).collect()
}

/// Makes `module`'s definitions lazily linked (`linkonce_odr`), removes its appending
/// globals and replaces the bodies of functions the engine knows by name by declarations.
fn prepare_lazy(module: &Module<'_>) {
    let m = module.as_mut_ptr();
    let lazy = |v: LLVMValueRef| {
        // SAFETY: `v` is a live global value of `m`.
        unsafe {
            if LLVMIsDeclaration(v) == 0 && !matches!(LLVMGetLinkage(v), LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage) {
                LLVMSetLinkage(v, LLVMLinkage::LLVMLinkOnceODRLinkage);
            }
        }
    };
    // SAFETY: iteration over and edits of the live, unlinked module `m`, which this function
    // owns for the duration (no other reference to its values exists).
    unsafe {
        let mut g = LLVMGetFirstGlobal(m);
        let mut appending = Vec::new();
        while !g.is_null() {
            if LLVMGetLinkage(g) == LLVMLinkage::LLVMAppendingLinkage {
                appending.push(g);
            } else {
                lazy(g);
            }
            g = LLVMGetNextGlobal(g);
        }
        for g in appending {
            LLVMDeleteGlobal(g);
        }
        let mut a = LLVMGetFirstGlobalAlias(m);
        while !a.is_null() {
            lazy(a);
            a = LLVMGetNextGlobalAlias(a);
        }
        let mut known = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                if matches!(classify(&ffi::value_name(f)), External::Unknown(_)) {
                    lazy(f);
                } else {
                    known.push(f);
                }
            }
            f = LLVMGetNextFunction(f);
        }
        for f in known {
            into_declaration(m, f);
        }
    }
}

/// Replaces the definition `f` of `m` by a declaration of the same name and type.
///
/// # Safety
/// `f` must be a live function of the live module `m`.
unsafe fn into_declaration(m: LLVMModuleRef, f: LLVMValueRef) {
    let name = ffi::value_name(f);
    let Ok(cname) = std::ffi::CString::new(format!("{name}.termcheck.decl")) else { return };
    let ty = LLVMGlobalGetValueType(f);
    let decl = LLVMAddFunction(m, cname.as_ptr(), ty);
    LLVMReplaceAllUsesWith(f, decl);
    LLVMDeleteFunction(f);
    LLVMSetValueName2(decl, name.as_ptr().cast(), name.len());
}

/// Clears the `samesign` flag of every `icmp` of `f` (see the module documentation).
fn drop_samesign(f: LLVMValueRef) {
    // SAFETY: walking and editing the instructions of the live function `f`.
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            let mut i = LLVMGetFirstInstruction(b);
            while !i.is_null() {
                if LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMICmp && LLVMGetICmpSameSign(i) != 0 {
                    LLVMSetICmpSameSign(i, 0);
                }
                i = LLVMGetNextInstruction(i);
            }
            b = LLVMGetNextBasicBlock(b);
        }
    }
}

//! The one classifier from a declared function's name to what it is: an LLVM intrinsic family,
//! a libc function, an SV-COMP `__VERIFIER_*` function, Rust's panic and allocator entry
//! points (by the demangled path, `ir::rust_names`), or unknown.
//!
//! It only names families; each consumer (`symexec::exec`, `interp::externals`,
//! `bitprecise::encode`, `symexec::views`) decides which families it supports and how. An
//! unknown name is `Unknown`: every consumer turns that into MAYBE / `Unsupported`, never a
//! guess. Names are matched as LLVM spells the intrinsics (`llvm.<family>.<overloads>`);
//! a name outside these families (including made-up `llvm.*` names, which LLVM rejects) is
//! `Unknown`.

/// Intrinsics without an effect on the values any analysis tracks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoOp {
    /// `llvm.dbg.*`
    Dbg,
    /// `llvm.lifetime.*`
    Lifetime,
    /// `llvm.experimental.noalias.scope.decl`
    NoAliasScopeDecl,
    /// Any other `llvm.experimental.*` (only symbolic execution treats these as no-ops today).
    OtherExperimental,
    /// `llvm.donothing`
    DoNothing,
    /// `llvm.var.annotation*`
    VarAnnotation,
    /// `llvm.codeview.annotation`
    CodeviewAnnotation,
    /// `llvm.sideeffect`
    SideEffect,
}

/// The operation of an arithmetic intrinsic.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
}

/// Which variant of `llvm.{s,u}{add,sub,mul}.*`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ArithKind {
    /// `.with.overflow.`: `{wrapped result, overflow bit}`.
    WithOverflow,
    /// `.sat.`: clamped to the type's range.
    Saturating,
    /// Anything else (e.g. fixed-point `.fix.`): not supported by any consumer, but its
    /// signedness still counts as evidence for the views.
    Other,
}

/// `llvm.{s,u}{min,max}`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MinMax {
    pub signed: bool,
    pub max: bool,
}

/// `llvm.ctlz`/`cttz`/`ctpop`/`bswap`/`bitreverse`: counting and reordering bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BitOp {
    /// Leading zeros (second argument: whether a zero operand gives poison).
    Ctlz,
    /// Trailing zeros (second argument as `Ctlz`).
    Cttz,
    /// Set bits.
    Ctpop,
    /// Bytes in reverse order (widths that are a multiple of 16).
    Bswap,
    /// Bits in reverse order.
    Bitreverse,
}

/// libc's output functions: they write to a stream, never to the program's memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutputFn {
    /// `putchar(c)`
    Putchar,
    /// `puts(s)`: reads the string `s`.
    Puts,
    /// `printf(format, …)`: reads the format and the strings of its `%s` conversions.
    Printf,
}

/// libc's functions that read memory and return a value computed from it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MemRead {
    /// `memcmp(a, b, n)`
    Memcmp,
    /// `strcmp(a, b)`
    Strcmp,
    /// `strncmp(a, b, n)`
    Strncmp,
    /// `memchr(s, c, n)`
    Memchr,
}

/// What a declared function is, by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum External<'a> {
    NoOp(NoOp),
    /// `llvm.stacksave*`
    StackSave,
    /// `llvm.stackrestore*`
    StackRestore,
    /// `llvm.expect*` (also `.with.probability`): returns its first argument.
    Expect,
    MinMax(MinMax),
    /// `llvm.abs*`
    Abs,
    /// `llvm.{s,u}{add,sub,mul}.*`; `bits` from the last name component (`i32` ⇒ 32), if any.
    Arith { op: ArithOp, signed: bool, kind: ArithKind, bits: Option<u32> },
    /// `llvm.assume`
    Assume,
    /// `llvm.memset*` (`intrinsic`) or libc `memset`.
    MemSet { intrinsic: bool },
    /// `llvm.memcpy*` or libc `memcpy`.
    MemCpy { intrinsic: bool },
    /// `llvm.memmove*` or libc `memmove`.
    MemMove { intrinsic: bool },
    Malloc,
    Calloc,
    Realloc,
    Free,
    Strlen,
    /// `llvm.ctlz*` & co.
    Bits(BitOp),
    /// `putchar`, `puts`, `printf`.
    Output(OutputFn),
    /// `memcmp`, `strcmp`, `strncmp`, `memchr`.
    MemRead(MemRead),
    /// Ends the program: `abort`, `exit`, `_exit`, `_Exit`, `__VERIFIER_error`, `reach_error`,
    /// `__assert_fail`, `__assert_rtn`, `__assert`.
    Exit,
    /// `__VERIFIER_assume`
    VerifierAssume,
    /// `__VERIFIER_nondet_<type_name>`; `unsigned`: the C type the name states is unsigned
    /// (or boolean, `size_t`, a pointer).
    Nondet { type_name: &'a str, unsigned: bool },
    /// A function that never returns normally (ARCHITECTURE.md, "Rust semantics"): Rust's
    /// panic machinery (`core::panicking::*`, `std::panicking::begin_panic`, …), which starts
    /// unwinding (`unwinds`), or an abort (`panic_nounwind*`, `panic_in_cleanup`,
    /// `core::intrinsics::abort`, `std::process::abort`, `llvm.trap`), which ends the program.
    /// Where it is not certain that a function cannot unwind, `unwinds` is true: exploring
    /// cleanup code that never runs only adds runs.
    Panic { unwinds: bool },
    /// Rust's global allocator (`__rust_alloc` & co., also as rustc mangles them today).
    RustAlloc(RustAlloc),
    Unknown(&'a str),
}

/// The entry points of Rust's global allocator (`alloc::alloc`'s shims).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RustAlloc {
    /// `__rust_alloc(size, align) -> ptr` (null on failure; size 0 is undefined behaviour).
    Alloc,
    /// `__rust_alloc_zeroed(size, align) -> ptr`: the block's bytes are zero.
    AllocZeroed,
    /// `__rust_dealloc(ptr, size, align)`: `ptr` must be a live block of exactly `size` bytes.
    Dealloc,
    /// `__rust_realloc(ptr, old_size, align, new_size) -> ptr`: null on failure (the old block
    /// stays), else a new block with the first `min(old, new)` bytes and the old one freed.
    Realloc,
    /// `__rust_no_alloc_shim_is_unstable*()`: a marker call without effect.
    NoAllocShim,
}

impl External<'_> {
    /// Whether the family takes signed (`Some(false)`) or unsigned (`Some(true)`) integer
    /// operands: min/max, abs and the arithmetic intrinsics.
    pub fn signedness_evidence(&self) -> Option<bool> {
        match self {
            External::MinMax(m) => Some(!m.signed),
            External::Arith { signed, .. } => Some(!signed),
            External::Abs => Some(false),
            _ => None,
        }
    }
}

const EXITS: &[&str] = &["abort", "exit", "_exit", "_Exit", "__VERIFIER_error", "reach_error", "__assert_fail", "__assert_rtn", "__assert"];

/// Classifies the name of a declared (external) function.
pub fn classify(name: &str) -> External<'_> {
    if let Some(rest) = name.strip_prefix("llvm.") {
        return intrinsic(name, rest);
    }
    if let Some(type_name) = name.strip_prefix("__VERIFIER_nondet_") {
        return External::Nondet { type_name, unsigned: unsigned_c_type(type_name) };
    }
    if EXITS.contains(&name) {
        return External::Exit;
    }
    if let Some(r) = rust_function(name) {
        return r;
    }
    match name {
        "__VERIFIER_assume" => External::VerifierAssume,
        "malloc" => External::Malloc,
        "calloc" => External::Calloc,
        "realloc" => External::Realloc,
        "free" => External::Free,
        "strlen" => External::Strlen,
        "putchar" => External::Output(OutputFn::Putchar),
        "puts" => External::Output(OutputFn::Puts),
        "printf" => External::Output(OutputFn::Printf),
        "memcmp" => External::MemRead(MemRead::Memcmp),
        "strcmp" => External::MemRead(MemRead::Strcmp),
        "strncmp" => External::MemRead(MemRead::Strncmp),
        "memchr" => External::MemRead(MemRead::Memchr),
        "memset" => External::MemSet { intrinsic: false },
        "memcpy" => External::MemCpy { intrinsic: false },
        "memmove" => External::MemMove { intrinsic: false },
        _ => External::Unknown(name),
    }
}

/// Rust's panic, abort and allocator functions, by their unmangled name or their path.
fn rust_function(name: &str) -> Option<External<'static>> {
    let alloc = |last: &str| match last {
        "__rust_alloc" => Some(External::RustAlloc(RustAlloc::Alloc)),
        "__rust_alloc_zeroed" => Some(External::RustAlloc(RustAlloc::AllocZeroed)),
        "__rust_dealloc" => Some(External::RustAlloc(RustAlloc::Dealloc)),
        "__rust_realloc" => Some(External::RustAlloc(RustAlloc::Realloc)),
        l if l.starts_with("__rust_no_alloc_shim_is_unstable") => Some(External::RustAlloc(RustAlloc::NoAllocShim)),
        // the allocation error handler runs the error hook, which may panic (`-Z oom=panic`)
        "__rust_alloc_error_handler" => Some(External::Panic { unwinds: true }),
        _ => None,
    };
    match name {
        // the panic runtime's entry points (`#[panic_handler]` of std, the unwinder's start)
        "rust_begin_unwind" | "rust_panic" | "__rust_start_panic" | "_Unwind_Resume" => return Some(External::Panic { unwinds: true }),
        _ => {}
    }
    if let Some(a) = alloc(name) {
        return Some(a);
    }
    let path = super::rust_names::demangle_path(name)?;
    let segs: Vec<&str> = path.iter().map(String::as_str).collect();
    match segs.as_slice() {
        // rustc's mangled allocator shims live in the pseudo crate `__rustc`
        ["__rustc", last] => alloc(last),
        // every function of `core::panicking` diverges; the `#[rustc_nounwind]` ones abort
        ["core", "panicking", .., last] => Some(External::Panic { unwinds: !is_nounwind_panic(last) }),
        ["std", "panicking", "begin_panic" | "begin_panic_handler" | "rust_panic_with_hook" | "rust_panic"] => Some(External::Panic { unwinds: true }),
        ["std", "panic", "resume_unwind"] => Some(External::Panic { unwinds: true }),
        ["alloc", "alloc", "handle_alloc_error"] => Some(External::Panic { unwinds: true }),
        ["core", "intrinsics", "abort"] | ["std", "process", "abort"] => Some(External::Panic { unwinds: false }),
        // trusted summaries of std functions outside the crate's bitcode (`ir::rust_trusted`)
        p if super::rust_trusted::diverging(p).is_some() => Some(External::Panic { unwinds: true }),
        _ => None,
    }
}

/// The functions of `core::panicking` that are `#[rustc_nounwind]` (they abort the process).
fn is_nounwind_panic(last: &str) -> bool {
    last.contains("nounwind") || matches!(last, "panic_in_cleanup" | "panic_cannot_unwind" | "panic_misaligned_pointer_dereference" | "panic_null_pointer_dereference")
}

/// Whether `__VERIFIER_nondet_<type_name>` returns a value of an unsigned (or boolean) type.
fn unsigned_c_type(t: &str) -> bool {
    t.starts_with('u') || t.starts_with("bool") || t.starts_with("_Bool") || t == "size_t" || t.starts_with("pointer") || t.starts_with("char_unsigned")
}

fn intrinsic<'a>(name: &'a str, rest: &'a str) -> External<'a> {
    let family = rest.split('.').next().unwrap_or_default();
    match family {
        "dbg" => External::NoOp(NoOp::Dbg),
        "lifetime" => External::NoOp(NoOp::Lifetime),
        "experimental" if rest.starts_with("experimental.noalias.scope.decl") => External::NoOp(NoOp::NoAliasScopeDecl),
        "experimental" => External::NoOp(NoOp::OtherExperimental),
        "donothing" => External::NoOp(NoOp::DoNothing),
        "var" if rest.starts_with("var.annotation") => External::NoOp(NoOp::VarAnnotation),
        "codeview" if rest.starts_with("codeview.annotation") => External::NoOp(NoOp::CodeviewAnnotation),
        "sideeffect" => External::NoOp(NoOp::SideEffect),
        "trap" | "ubsantrap" => External::Panic { unwinds: false },
        "stacksave" => External::StackSave,
        "stackrestore" => External::StackRestore,
        "expect" => External::Expect,
        "assume" => External::Assume,
        "abs" => External::Abs,
        "smax" => External::MinMax(MinMax { signed: true, max: true }),
        "smin" => External::MinMax(MinMax { signed: true, max: false }),
        "umax" => External::MinMax(MinMax { signed: false, max: true }),
        "umin" => External::MinMax(MinMax { signed: false, max: false }),
        "ctlz" => External::Bits(BitOp::Ctlz),
        "cttz" => External::Bits(BitOp::Cttz),
        "ctpop" => External::Bits(BitOp::Ctpop),
        "bswap" => External::Bits(BitOp::Bswap),
        "bitreverse" => External::Bits(BitOp::Bitreverse),
        "memset" => External::MemSet { intrinsic: true },
        "memcpy" => External::MemCpy { intrinsic: true },
        "memmove" => External::MemMove { intrinsic: true },
        "sadd" | "uadd" | "ssub" | "usub" | "smul" | "umul" => {
            let op = match &family[1..] {
                "add" => ArithOp::Add,
                "sub" => ArithOp::Sub,
                _ => ArithOp::Mul,
            };
            let kind = if name.contains(".with.overflow.") {
                ArithKind::WithOverflow
            } else if name.contains(".sat.") {
                ArithKind::Saturating
            } else {
                ArithKind::Other
            };
            let bits = name.rsplit('.').next().and_then(|t| t.strip_prefix('i')).and_then(|t| t.parse::<u32>().ok());
            External::Arith { op, signed: family.starts_with('s'), kind, bits }
        }
        _ => External::Unknown(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intrinsic_families() {
        assert_eq!(classify("llvm.dbg.declare"), External::NoOp(NoOp::Dbg));
        assert_eq!(classify("llvm.lifetime.start.p0"), External::NoOp(NoOp::Lifetime));
        assert_eq!(classify("llvm.experimental.noalias.scope.decl"), External::NoOp(NoOp::NoAliasScopeDecl));
        assert_eq!(classify("llvm.experimental.guard"), External::NoOp(NoOp::OtherExperimental));
        assert_eq!(classify("llvm.var.annotation.p0.p0"), External::NoOp(NoOp::VarAnnotation));
        assert_eq!(classify("llvm.stacksave.p0"), External::StackSave);
        assert_eq!(classify("llvm.stackrestore.p0"), External::StackRestore);
        assert_eq!(classify("llvm.expect.with.probability.i64"), External::Expect);
        assert_eq!(classify("llvm.umin.i32"), External::MinMax(MinMax { signed: false, max: false }));
        assert_eq!(classify("llvm.smax.i64"), External::MinMax(MinMax { signed: true, max: true }));
        assert_eq!(classify("llvm.abs.i32"), External::Abs);
        assert_eq!(classify("llvm.memcpy.p0.p0.i64"), External::MemCpy { intrinsic: true });
        assert_eq!(classify("llvm.memset.inline.p0.i64"), External::MemSet { intrinsic: true });
        assert_eq!(classify("llvm.fshl.i32"), External::Unknown("llvm.fshl.i32"));
        assert_eq!(classify("llvm.ctlz.i32"), External::Bits(BitOp::Ctlz));
        assert_eq!(classify("llvm.cttz.i64"), External::Bits(BitOp::Cttz));
        assert_eq!(classify("llvm.ctpop.i8"), External::Bits(BitOp::Ctpop));
        assert_eq!(classify("llvm.bswap.i16"), External::Bits(BitOp::Bswap));
        assert_eq!(classify("llvm.bitreverse.i32"), External::Bits(BitOp::Bitreverse));
    }

    #[test]
    fn libc_output_and_reading_functions() {
        assert_eq!(classify("putchar"), External::Output(OutputFn::Putchar));
        assert_eq!(classify("puts"), External::Output(OutputFn::Puts));
        assert_eq!(classify("printf"), External::Output(OutputFn::Printf));
        assert_eq!(classify("memcmp"), External::MemRead(MemRead::Memcmp));
        assert_eq!(classify("strcmp"), External::MemRead(MemRead::Strcmp));
        assert_eq!(classify("strncmp"), External::MemRead(MemRead::Strncmp));
        assert_eq!(classify("memchr"), External::MemRead(MemRead::Memchr));
        // writing into memory or to a stream given by pointer: not modelled
        assert_eq!(classify("sprintf"), External::Unknown("sprintf"));
        assert_eq!(classify("fprintf"), External::Unknown("fprintf"));
    }

    #[test]
    fn arithmetic_intrinsics_carry_op_signedness_kind_and_width() {
        let e = classify("llvm.sadd.with.overflow.i32");
        assert_eq!(e, External::Arith { op: ArithOp::Add, signed: true, kind: ArithKind::WithOverflow, bits: Some(32) });
        let e = classify("llvm.usub.sat.i8");
        assert_eq!(e, External::Arith { op: ArithOp::Sub, signed: false, kind: ArithKind::Saturating, bits: Some(8) });
        let e = classify("llvm.umul.with.overflow.v4i32");
        assert_eq!(e, External::Arith { op: ArithOp::Mul, signed: false, kind: ArithKind::WithOverflow, bits: None });
        assert!(matches!(classify("llvm.smul.fix.i32"), External::Arith { kind: ArithKind::Other, .. }));
        assert_eq!(classify("llvm.smul.fix.i32").signedness_evidence(), Some(false));
        assert_eq!(classify("llvm.umin.i32").signedness_evidence(), Some(true));
        assert_eq!(classify("llvm.abs.i32").signedness_evidence(), Some(false));
        assert_eq!(classify("malloc").signedness_evidence(), None);
    }

    #[test]
    fn libc_and_verifier_functions() {
        assert_eq!(classify("malloc"), External::Malloc);
        assert_eq!(classify("calloc"), External::Calloc);
        assert_eq!(classify("free"), External::Free);
        assert_eq!(classify("memmove"), External::MemMove { intrinsic: false });
        for exit in ["abort", "exit", "_Exit", "__assert_fail", "reach_error", "__VERIFIER_error"] {
            assert_eq!(classify(exit), External::Exit, "{exit}");
        }
        assert_eq!(classify("__VERIFIER_assume"), External::VerifierAssume);
        assert_eq!(classify("__VERIFIER_nondet_int"), External::Nondet { type_name: "int", unsigned: false });
        assert_eq!(classify("__VERIFIER_nondet_uint"), External::Nondet { type_name: "uint", unsigned: true });
        assert_eq!(classify("__VERIFIER_nondet_bool"), External::Nondet { type_name: "bool", unsigned: true });
        assert_eq!(classify("__VERIFIER_nondet_ssize_t"), External::Nondet { type_name: "ssize_t", unsigned: false });
        assert_eq!(classify("printf"), External::Output(OutputFn::Printf));
        assert_eq!(classify("malloc.1"), External::Unknown("malloc.1"));
    }

    #[test]
    fn rust_panic_abort_and_allocator_functions() {
        let unwinding = External::Panic { unwinds: true };
        let aborting = External::Panic { unwinds: false };
        let cases = [
            ("_RNvNtNtCsgEmfK2I1SDS_4core9panicking11panic_const24panic_const_add_overflow", unwinding),
            ("_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check", unwinding),
            ("_ZN4core9panicking9panic_fmt17h0123456789abcdefE", unwinding),
            ("_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_nounwind_fmt", aborting),
            ("_RNvNtCsgEmfK2I1SDS_4core9panicking16panic_in_cleanup", aborting),
            ("_RNvNtCsgEmfK2I1SDS_4core9panicking36panic_misaligned_pointer_dereference", aborting),
            ("_RNvNtCslNYArtu3iFV_5alloc5alloc18handle_alloc_error", unwinding),
            ("_ZN3std9panicking11begin_panic17h0123456789abcdefE", unwinding),
            ("_ZN3std7process5abort17h0123456789abcdefE", aborting),
            ("llvm.trap", aborting),
            ("rust_begin_unwind", unwinding),
            ("_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_", unwinding),
            ("_RNvNtCslNYArtu3iFV_5alloc7raw_vec12handle_error", unwinding),
            ("_RNvNtCsgEmfK2I1SDS_4core6option13unwrap_failed", unwinding),
            ("__rust_alloc", External::RustAlloc(RustAlloc::Alloc)),
            ("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc", External::RustAlloc(RustAlloc::Alloc)),
            ("_RNvCsfLfy6EI15iL_7___rustc19___rust_alloc_zeroed", External::RustAlloc(RustAlloc::AllocZeroed)),
            ("_RNvCsfLfy6EI15iL_7___rustc14___rust_dealloc", External::RustAlloc(RustAlloc::Dealloc)),
            ("__rust_realloc", External::RustAlloc(RustAlloc::Realloc)),
            ("_RNvCsfLfy6EI15iL_7___rustc35___rust_no_alloc_shim_is_unstable_v2", External::RustAlloc(RustAlloc::NoAllocShim)),
        ];
        for (name, want) in cases {
            assert_eq!(classify(name), want, "{name}");
        }
        // not panics: other std functions, a panic-like name outside `core::panicking`, the
        // counter of panics, generic or impl paths, `catch_unwind`'s intrinsic
        for name in [
            "_ZN3std9panicking11panic_count8increase17h0123456789abcdefE",
            "_RNvNtCs1_3lib9panicking5panic",
            "_RNvMs4_NtCslNYArtu3iFV_5alloc7raw_vecNtB5_11RawVecInner14grow_amortizedCsduwmD7cSIQq_5gimli",
            "__rust_try",
            "_RNvCsfLfy6EI15iL_7___rustc9___rust_xx",
        ] {
            assert_eq!(classify(name), External::Unknown(name), "{name}");
        }
    }
}

/// docs/externals.md's table of modelled external functions agrees with [`classify`].
#[cfg(test)]
mod docs_table {
    use super::*;

    #[test]
    fn docs_table_matches_the_classifier() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/externals.md");
        let text = std::fs::read_to_string(&path).expect("docs/externals.md exists");
        let mut rows = 0;
        for line in text.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let (name, family) = (cells[1].trim_matches('`'), cells[2].trim_matches('`'));
            let got = format!("{:?}", classify(name));
            assert!(got.starts_with(family), "docs/externals.md: `{name}` is documented as {family}, classify gives {got}");
            assert!(!matches!(classify(name), External::Unknown(_)), "`{name}` is in the table but unknown");
            rows += 1;
        }
        assert!(rows >= 30, "the table has {rows} rows");
        // every family of bit operations and libc reads/outputs has a row
        for family in ["Bits(Ctlz)", "Bits(Cttz)", "Bits(Ctpop)", "Bits(Bswap)", "Bits(Bitreverse)", "Output(Putchar)", "Output(Puts)", "Output(Printf)", "MemRead(Memcmp)", "MemRead(Strcmp)", "MemRead(Strncmp)", "MemRead(Memchr)", "Strlen"] {
            assert!(text.contains(&format!("| `{family}` |")), "docs/externals.md has no row for {family}");
        }
    }
}

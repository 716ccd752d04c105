//! The one classifier from a declared function's name to what it is: an LLVM intrinsic family,
//! a libc function, an SV-COMP `__VERIFIER_*` function, or unknown.
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
    /// Ends the program: `abort`, `exit`, `_exit`, `_Exit`, `__VERIFIER_error`, `reach_error`,
    /// `__assert_fail`, `__assert_rtn`, `__assert`.
    Exit,
    /// `__VERIFIER_assume`
    VerifierAssume,
    /// `__VERIFIER_nondet_<type_name>`; `unsigned`: the C type the name states is unsigned
    /// (or boolean, `size_t`, a pointer).
    Nondet { type_name: &'a str, unsigned: bool },
    Unknown(&'a str),
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
    match name {
        "__VERIFIER_assume" => External::VerifierAssume,
        "malloc" => External::Malloc,
        "calloc" => External::Calloc,
        "realloc" => External::Realloc,
        "free" => External::Free,
        "strlen" => External::Strlen,
        "memset" => External::MemSet { intrinsic: false },
        "memcpy" => External::MemCpy { intrinsic: false },
        "memmove" => External::MemMove { intrinsic: false },
        _ => External::Unknown(name),
    }
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
        "stacksave" => External::StackSave,
        "stackrestore" => External::StackRestore,
        "expect" => External::Expect,
        "assume" => External::Assume,
        "abs" => External::Abs,
        "smax" => External::MinMax(MinMax { signed: true, max: true }),
        "smin" => External::MinMax(MinMax { signed: true, max: false }),
        "umax" => External::MinMax(MinMax { signed: false, max: true }),
        "umin" => External::MinMax(MinMax { signed: false, max: false }),
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
        assert_eq!(classify("printf"), External::Unknown("printf"));
        assert_eq!(classify("malloc.1"), External::Unknown("malloc.1"));
    }
}

//! `prove --emit-harness FILE`: a C file that replays a `NO` or `violated` witness natively.
//! It defines `main`, which builds the witness's initial memory (one `malloc`ed block per
//! pointer parameter, filled with the witness's bytes), calls the entry function with the
//! witness's entry arguments and pointers into those blocks, and
//! every `__VERIFIER_*` function the program declares without defining it:
//! `__VERIFIER_nondet_*` return the witness's inputs in order (then the input cycle forever,
//! or 0 when any further values keep the run going), `__VERIFIER_assume(0)` ends the run with
//! exit code 75 (the run would not be one of the program's), `__VERIFIER_error`/`reach_error`
//! abort. The program's own `main` is renamed by compiling it with
//! `-Dmain=__termcheck_program_main` (the harness undefines the macro). The build command is
//! in the harness's first comment; docs/output-format.md ("Replaying a witness") explains it.

use crate::cli::HarnessOf;
use std::fmt::Write as _;
use termcheck_engine::ir::externals::{classify, External};
use termcheck_engine::ir::{Module, Type};
use termcheck_engine::logic::Int;
use termcheck_engine::verdict::{EntryBlock, MemorySafety, Report, Termination};

/// The name the program's `main` gets in a replay build.
pub const RENAMED_MAIN: &str = "__termcheck_program_main";

/// The witness a harness replays.
struct Replay<'a> {
    what: &'static str,
    entry_args: &'a [(String, Int)],
    memory: &'a [EntryBlock],
    inputs: &'a [(String, Int)],
    cycle: &'a [(String, Int)],
    any_further_inputs: bool,
}

/// Why no harness can be written for a report.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum HarnessError {
    #[error("the verdict has no witness of the kind asked for to replay (only NO and memory-safety violations have one)")]
    NoWitness,
    #[error("the witness cannot be replayed natively: {0}")]
    NotReplayable(String),
}

/// The C text of the replay harness for `report` (entry `entry` of `module`, compiled from
/// `source` with the extra clang arguments `clang_args`), for the witness `of`; without it, a
/// violation is replayed in preference to a NO (it ends the run first).
pub fn harness_text(module: &Module, entry: &str, source: &str, clang_args: &[String], report: &Report, of: Option<HarnessOf>) -> Result<String, HarnessError> {
    let violation = match &report.memory_safety {
        Some(MemorySafety::Violated(v)) if of != Some(HarnessOf::Nontermination) => Some(v),
        _ => None,
    };
    let replay = match (violation, &report.termination) {
        (Some(v), _) => {
            Replay { what: "memory-safety violation", entry_args: &v.entry_args, memory: &v.entry_memory, inputs: &v.inputs, cycle: &[], any_further_inputs: false }
        }
        // An infinite recursion needs an unbounded stack: natively it ends in a stack overflow.
        (None, Termination::No(w)) if of != Some(HarnessOf::Violation) && w.recursion.is_some() => {
            let f = w.recursion.as_deref().unwrap_or_default();
            return Err(HarnessError::NotReplayable(format!("the run recurses forever in `{f}`: a native run ends in a stack overflow, not in the infinite run of the abstract machine")));
        }
        (None, Termination::No(w)) if of != Some(HarnessOf::Violation) => Replay {
            what: "non-terminating run",
            entry_args: &w.entry_args,
            memory: &w.entry_memory,
            inputs: &w.inputs,
            cycle: &w.input_cycle,
            any_further_inputs: w.any_further_inputs,
        },
        _ => return Err(HarnessError::NoWitness),
    };
    render(module, entry, source, clang_args, &replay)
}

/// The C type of a scalar IR type (stdint names; `bits` ≤ 64).
fn c_type(ty: &Type, unsigned: bool) -> Option<String> {
    match ty {
        Type::Void => Some("void".into()),
        Type::Int(1) => Some("_Bool".into()),
        Type::Int(b @ (8 | 16 | 32 | 64)) => Some(format!("{}int{b}_t", if unsigned { "u" } else { "" })),
        Type::Ptr => Some("void *".into()),
        _ => None,
    }
}

/// A C literal of `v` for a value of `bits` bits (wrapped two's complement for signed).
fn literal(v: Int, bits: u32, unsigned: bool) -> String {
    let bits = bits.clamp(1, 64);
    let mask: u128 = if bits == 64 { u64::MAX as u128 } else { (1u128 << bits) - 1 };
    let u = (v as u128) & mask;
    if unsigned || bits == 1 {
        return format!("{u}ULL");
    }
    let signed = if bits < 128 && u >> (bits - 1) & 1 == 1 { u as i128 - (1i128 << bits) } else { u as i128 };
    match signed {
        // the minimum has no literal of its own
        s if s == i128::from(i64::MIN) => "(-9223372036854775807LL - 1)".into(),
        s => format!("{s}LL"),
    }
}

fn render(module: &Module, entry: &str, source: &str, clang_args: &[String], r: &Replay<'_>) -> Result<String, HarnessError> {
    let not = |why: String| Err(HarnessError::NotReplayable(why));
    let Some(f) = module.function_by_name(entry).map(|id| module.function(id)) else {
        return not(format!("no function `{entry}`"));
    };
    if let Some((name, _)) = r.inputs.iter().chain(r.cycle).find(|(n, _)| !n.starts_with("__VERIFIER_nondet_")) {
        return not(format!("the run reads `{name}`, a value no C function call gives"));
    }
    let integers = f.params.iter().filter(|(_, ty)| matches!(ty, Type::Int(_))).count();
    if integers != r.entry_args.len() {
        return not(format!("`{entry}` takes {integers} integer parameters, the witness gives {}", r.entry_args.len()));
    }
    let called = if entry == "main" { RENAMED_MAIN } else { entry };
    let mut out = String::new();
    let flags: String = clang_args.iter().map(|a| format!(" {a}")).collect();
    let _ = writeln!(out, "/* Generated by termcheck: replays the {} of `{entry}` in {source}.", r.what);
    let _ = writeln!(out, " * Build and run (add -fsanitize=address,undefined for a memory-safety violation):");
    let _ = writeln!(out, " *   clang-22 -O0 -fno-finite-loops{flags} -Dmain={RENAMED_MAIN} {source} THIS_FILE -o replay && ./replay");
    let _ = writeln!(out, " */");
    let _ = writeln!(out, "#undef main\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
    // the inputs, as unsigned 64-bit patterns, converted by each nondet function
    let values: Vec<String> = r.inputs.iter().map(|(_, v)| literal(*v, 64, true)).collect();
    let cycle: Vec<String> = r.cycle.iter().map(|(_, v)| literal(*v, 64, true)).collect();
    let _ = writeln!(out, "static const uint64_t termcheck_inputs[] = {{{}}};", if values.is_empty() { "0".into() } else { values.join(", ") });
    let _ = writeln!(out, "static const uint64_t termcheck_cycle[] = {{{}}};", if cycle.is_empty() { "0".into() } else { cycle.join(", ") });
    let _ = writeln!(out, "static unsigned long termcheck_read;");
    let _ = writeln!(out, "static uint64_t termcheck_next(void) {{");
    let _ = writeln!(out, "  unsigned long i = termcheck_read++;");
    let _ = writeln!(out, "  if (i < {}) return termcheck_inputs[i];", values.len());
    if !cycle.is_empty() {
        let _ = writeln!(out, "  return termcheck_cycle[(i - {}) % {}];", values.len(), cycle.len());
    } else if r.any_further_inputs {
        let _ = writeln!(out, "  return 0; /* any further value keeps the run going */");
    } else {
        let _ = writeln!(out, "  fprintf(stderr, \"termcheck-harness: the witness has no further input\\n\");");
        let _ = writeln!(out, "  exit(73);");
    }
    let _ = writeln!(out, "}}\n");
    for g in module.functions.iter().filter(|g| g.is_declaration()) {
        match classify(&g.name) {
            External::Nondet { unsigned, .. } => {
                let Some(t) = c_type(&g.ret, unsigned).filter(|_| matches!(g.ret, Type::Int(_))) else {
                    return not(format!("`{}` returns a {:?}", g.name, g.ret));
                };
                let _ = writeln!(out, "{t} {}(void) {{ return ({t})termcheck_next(); }}", g.name);
            }
            External::VerifierAssume => {
                let _ = writeln!(out, "void {}(int c) {{ if (!c) {{ fprintf(stderr, \"termcheck-harness: assumption failed\\n\"); exit(75); }} }}", g.name);
            }
            External::Exit if g.name == "__VERIFIER_error" || g.name == "reach_error" => {
                let _ = writeln!(out, "void {}(void) {{ abort(); }}", g.name);
            }
            _ => {}
        }
    }
    let mut params = vec![];
    let mut args = vec![];
    let mut blocks = String::new();
    let mut integers = r.entry_args.iter();
    for (index, (_, ty)) in f.params.iter().enumerate() {
        if matches!(ty, Type::Int(_)) {
            let Some((name, v)) = integers.next() else { return not(format!("the witness gives no value for parameter {index} of `{entry}`")) };
            params.push(c_type(ty, false).ok_or_else(|| HarnessError::NotReplayable(format!("parameter `{name}` of `{entry}` is a {ty:?}")))?);
            args.push(format!("/* {name} */ {}", literal(*v, ty.int_bits().unwrap_or(64), false)));
        } else if *ty == Type::Ptr {
            let Some(b) = r.memory.iter().find(|b| b.index == index) else {
                return not(format!("the witness does not give the memory pointer parameter {index} of `{entry}` points to"));
            };
            if b.bytes.len() as u64 != b.size || b.offset > b.size {
                return not(format!("the witness's block of `{}` is inconsistent ({} bytes given for {}, offset {})", b.param, b.bytes.len(), b.size, b.offset));
            }
            let bytes: Vec<String> = b.bytes.iter().map(|x| format!("{x:#04x}")).collect();
            let _ = writeln!(blocks, "  /* the {}-byte block `{}` points to (offset {}) */", b.size, b.param, b.offset);
            let _ = writeln!(blocks, "  static const unsigned char contents{index}[] = {{{}}};", if bytes.is_empty() { "0".into() } else { bytes.join(", ") });
            let _ = writeln!(blocks, "  unsigned char *block{index} = malloc({});", b.size);
            let _ = writeln!(blocks, "  if (!block{index} && {} > 0) {{ fprintf(stderr, \"termcheck-harness: malloc failed\\n\"); return 74; }}", b.size);
            let _ = writeln!(blocks, "  if ({} > 0) memcpy(block{index}, contents{index}, {});", b.size, b.size);
            params.push("void *".into());
            args.push(format!("/* {} */ block{index} + {}", b.param, b.offset));
        } else {
            return not(format!("parameter {index} of `{entry}` is neither an integer nor a pointer"));
        }
    }
    let Some(ret) = c_type(&f.ret, false) else {
        return not(format!("`{entry}` returns a {:?}", f.ret));
    };
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let _ = writeln!(out, "\n{ret} {called}({params});\n");
    let _ = writeln!(out, "int main(void) {{");
    out.push_str(&blocks);
    let _ = writeln!(out, "  {called}({});", args.join(", "));
    let _ = writeln!(out, "  fprintf(stderr, \"termcheck-harness: {entry} returned\\n\");");
    let _ = writeln!(out, "  return 0;\n}}");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_wrap_to_the_width() {
        assert_eq!(literal(-1, 32, false), "-1LL");
        assert_eq!(literal(0xffff_ffff, 32, false), "-1LL");
        assert_eq!(literal(-1, 32, true), "4294967295ULL");
        assert_eq!(literal(i128::from(i64::MIN), 64, false), "(-9223372036854775807LL - 1)");
        assert_eq!(literal(-2147483648, 32, false), "-2147483648LL");
        assert_eq!(literal(1, 1, false), "1ULL");
    }

    #[test]
    fn an_infinite_recursion_gets_no_harness() {
        use termcheck_engine::verdict::NonTerminationWitness;
        let module = termcheck_engine::frontend::load_source("int f(int n) { return f(n); }\nint main(void) { return f(1); }", termcheck_engine::driver::InputKind::C).expect("compiles");
        let report = |recursion: Option<String>| Report {
            termination: Termination::No(NonTerminationWitness { recursion, ..Default::default() }),
            memory_safety: Some(MemorySafety::Proved),
            stats: vec![],
        };
        assert!(matches!(harness_text(&module, "main", "f.c", &[], &report(Some("f".into())), None), Err(HarnessError::NotReplayable(why)) if why.contains("stack overflow")));
        assert!(harness_text(&module, "main", "f.c", &[], &report(None), None).is_ok());
    }

    #[test]
    fn a_witness_without_the_memory_of_a_pointer_parameter_gets_no_harness() {
        use termcheck_engine::verdict::NonTerminationWitness;
        let module = termcheck_engine::frontend::load_source("int f(int *p, int n) { while (*p > n) {} return 0; }", termcheck_engine::driver::InputKind::C).expect("compiles");
        let witness = |entry_memory: Vec<EntryBlock>| Report {
            termination: Termination::No(NonTerminationWitness { entry_args: vec![("n".into(), 0)], entry_memory, ..Default::default() }),
            memory_safety: Some(MemorySafety::Proved),
            stats: vec![],
        };
        let e = harness_text(&module, "f", "f.c", &[], &witness(vec![]), None).expect_err("no block for `p`");
        assert_eq!(e, HarnessError::NotReplayable("the witness does not give the memory pointer parameter 0 of `f` points to".into()));
        let block = EntryBlock { param: "p".into(), index: 0, size: 4, offset: 0, bytes: vec![1, 0, 0, 0], element_size: 4 };
        let text = harness_text(&module, "f", "f.c", &[], &witness(vec![block.clone()]), None).expect("harness");
        assert!(text.contains("static const unsigned char contents0[] = {0x01, 0x00, 0x00, 0x00};"), "{text}");
        assert!(text.contains("f(/* p */ block0 + 0, /* n */ 0LL);"), "{text}");
        let torn = EntryBlock { bytes: vec![1], ..block };
        assert!(matches!(harness_text(&module, "f", "f.c", &[], &witness(vec![torn]), None), Err(HarnessError::NotReplayable(_))));
        assert_eq!(harness_text(&module, "f", "f.c", &[], &witness(vec![]), Some(HarnessOf::Violation)), Err(HarnessError::NoWitness));
    }

    #[test]
    fn types_of_scalars() {
        assert_eq!(c_type(&Type::Int(32), false).as_deref(), Some("int32_t"));
        assert_eq!(c_type(&Type::Int(8), true).as_deref(), Some("uint8_t"));
        assert_eq!(c_type(&Type::Int(24), true), None);
    }
}

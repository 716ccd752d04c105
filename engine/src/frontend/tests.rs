//! Tests of the front end: C and LLVM inputs translated to the engine IR.

use super::{load_module, load_source};
use crate::driver::InputKind;
use crate::error::EngineError;
use crate::ir::*;
use std::path::{Path, PathBuf};

/// Loads program text of the kind given by the extension.
fn load_text(text: &str, ext: &str) -> Result<Module, EngineError> {
    let kind = InputKind::of(Path::new(&format!("x.{ext}"))).expect("known extension");
    load_source(text, kind)
}

fn load_c(text: &str) -> Module {
    load_text(text, "c").expect("C program translates")
}

fn function<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.function(m.function_by_name(name).unwrap_or_else(|| panic!("function {name} missing")))
}

fn ops(f: &Function) -> impl Iterator<Item = &Op> {
    f.blocks.iter().flat_map(|b| b.instrs.iter().map(|i| &i.op))
}

fn has_unsupported(f: &Function) -> bool {
    ops(f).any(|op| matches!(op, Op::Unsupported { .. }))
        || f.blocks.iter().any(|b| matches!(b.terminator, Terminator::Unsupported { .. }))
}

#[test]
fn loop_gets_phis_after_mem2reg() {
    let m = load_c("int f(int n) { int i = 0; while (i < n) { i = i + 1; } return i; }");
    let f = function(&m, "f");
    assert!(!has_unsupported(f));
    assert!(!ops(f).any(|op| matches!(op, Op::Alloca { .. } | Op::Load { .. } | Op::Store { .. })));
    let phi = f
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .find(|i| matches!(i.op, Op::Phi { .. }))
        .expect("a phi for i");
    assert_eq!(f.value_name(phi.result.unwrap()), "i");
    let Op::Phi { ty, incoming } = &phi.op else { unreachable!() };
    assert_eq!(*ty, Type::Int(32));
    assert_eq!(incoming.len(), 2);
    assert!(incoming.contains(&(Operand::Int { bits: 32, value: 0 }, BlockId(0))));
    // Parameters come first, named from the source.
    assert_eq!(f.params, vec![(ValueId(0), Type::Int(32))]);
    assert_eq!(f.value_name(ValueId(0)), "n");
    assert_eq!(f.value_names.len() as u32, f.num_values);
    // The add keeps its nsw flag and a source location.
    let add = f.blocks.iter().flat_map(|b| &b.instrs).find(|i| matches!(i.op, Op::Bin { op: BinOp::Add, .. })).unwrap();
    let Op::Bin { flags, bits: 32, .. } = add.op else { panic!("32-bit add expected") };
    assert!(flags.nsw && !flags.nuw);
    assert_eq!(add.loc.as_ref().map(|l| l.line), Some(1));
    assert!(f.blocks.iter().all(|b| matches!(b.terminator, Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Ret(_))));
}

#[test]
fn uninitialised_local_is_a_frozen_value_not_a_folded_undef() {
    // mem2reg alone would fold `phi [undef, 1]` to 1; the frozen value keeps x arbitrary.
    let m = load_c("int f(int c) { int x; if (c) x = 1; return x; }");
    let f = function(&m, "f");
    assert!(ops(f).any(|op| matches!(op, Op::Freeze { value: Operand::Poison(Type::Int(32)), .. })));
    assert!(ops(f).any(|op| matches!(op, Op::Phi { .. })));
    // Initialised locals leave no frozen value behind, promoted or not.
    let m = load_c("void h(int *p); int g(int c) { int x = c; int y; h(&y); return x + y; }");
    let g = function(&m, "g");
    assert!(!ops(g).any(|op| matches!(op, Op::Freeze { .. })), "{:?}", g.blocks);
    assert_eq!(ops(g).filter(|op| matches!(op, Op::Store { .. })).count(), 0, "{:?}", g.blocks);
}

#[test]
fn struct_and_array_geps_become_byte_offsets() {
    let m = load_c(
        "struct S { char c; int a[3]; long l; };\n\
         long f(struct S *p, int i) { return p->a[i] + p->l + p[1].c; }",
    );
    let f = function(&m, "f");
    let adds: Vec<_> = ops(f)
        .filter_map(|op| match op {
            Op::PtrAdd { offset, indices, .. } => Some((*offset, indices.iter().map(|g| (g.bits, g.scale)).collect::<Vec<_>>())),
            _ => None,
        })
        .collect();
    // p->a at 4, a[i] scaled by 4 (index sign-extended to i64 first), p->l at 16, p[1] at 24.
    assert!(adds.contains(&(4, vec![])), "{adds:?}");
    assert!(adds.contains(&(0, vec![(64, 4)])), "{adds:?}");
    assert!(adds.contains(&(16, vec![])), "{adds:?}");
    assert!(adds.contains(&(24, vec![])), "{adds:?}");
    let loads: Vec<_> = ops(f).filter_map(|op| if let Op::Load { ty, size, .. } = op { Some((ty.clone(), *size)) } else { None }).collect();
    assert!(loads.contains(&(Type::Int(32), 4)) && loads.contains(&(Type::Int(64), 8)) && loads.contains(&(Type::Int(8), 1)));
}

#[test]
fn constant_gep_to_a_global_is_materialised() {
    let m = load_c("int g[5] = {1, 2, 3}; int f(void) { return g[2]; }");
    let f = function(&m, "f");
    let gid = GlobalId(m.globals.iter().position(|g| g.name == "g").unwrap() as u32);
    let ptr = ops(f)
        .find_map(|op| match op {
            Op::PtrAdd { base: Operand::Global(g), offset: 8, indices, .. } if *g == gid && indices.is_empty() => Some(()),
            _ => None,
        });
    assert!(ptr.is_some(), "{:?}", f.blocks);
    assert!(!has_unsupported(f));
}

#[test]
fn alloca_of_arrays_and_address_taken_locals() {
    let m = load_c("void h(int *p); int f(void) { int a[10]; int x = 0; h(&x); h(a); return x; }");
    let f = function(&m, "f");
    let allocas: Vec<_> = ops(f).filter_map(|op| if let Op::Alloca { elem_size, count, count_bits } = op { Some((*elem_size, count.clone(), *count_bits)) } else { None }).collect();
    assert!(allocas.contains(&(40, Operand::Int { bits: 32, value: 1 }, 32)), "{allocas:?}");
    assert!(allocas.contains(&(4, Operand::Int { bits: 32, value: 1 }, 32)), "{allocas:?}");
    let h = m.function_by_name("h").unwrap();
    assert!(m.function(h).is_declaration());
    assert_eq!(ops(f).filter(|op| matches!(op, Op::Call { callee: Callee::Direct(c), .. } if *c == h)).count(), 2);
}

#[test]
fn unsigned_flags_and_exact_division() {
    let text = "define i32 @f(i32 %a, i32 %b) {\n\
        entry:\n  %x = add nuw nsw i32 %a, %b\n  %y = udiv exact i32 %x, 4\n  %z = or disjoint i32 %y, 1\n  %w = shl nuw i32 %z, 1\n  ret i32 %w\n}\n";
    let m = load_text(text, "ll").expect("valid IR");
    let f = function(&m, "f");
    let flags: Vec<_> = ops(f).filter_map(|op| if let Op::Bin { op, flags, .. } = op { Some((*op, *flags)) } else { None }).collect();
    let flag = |nsw, nuw, exact, disjoint| ArithFlags { nsw, nuw, exact, disjoint };
    assert_eq!(
        flags,
        vec![
            (BinOp::Add, flag(true, true, false, false)),
            (BinOp::UDiv, flag(false, false, true, false)),
            (BinOp::Or, flag(false, false, false, true)),
            (BinOp::Shl, flag(false, true, false, false)),
        ]
    );
    assert_eq!(f.value_name(ValueId(2)), "x");
}

#[test]
fn switch_keeps_cases_and_default() {
    let m = load_c("int f(int x) { switch (x) { case 1: return 10; case -2: return 20; default: return 0; } }");
    let f = function(&m, "f");
    let sw = f.blocks.iter().find_map(|b| if let Terminator::Switch { bits, cases, .. } = &b.terminator { Some((*bits, cases.clone())) } else { None });
    let (bits, cases) = sw.unwrap_or_else(|| panic!("a switch: {:?}", f.blocks[0]));
    assert_eq!(bits, 32);
    assert_eq!(cases.iter().map(|c| c.0).collect::<Vec<_>>(), vec![1, -2]);
}

#[test]
fn string_literals_become_constant_global_bytes() {
    let m = load_c("const char *s = \"hi\"; int z[4]; int f(void) { return s[1] + z[0]; }");
    let lit = m.globals.iter().find(|g| g.is_constant && g.size == 3).expect("string literal global");
    assert_eq!(lit.init, GlobalInit::Bytes(vec![Some(b'h'), Some(b'i'), Some(0)]));
    let s = m.globals.iter().find(|g| g.name == "s").unwrap();
    assert_eq!((s.size, s.init.clone()), (8, GlobalInit::Bytes(vec![None; 8])));
    let z = m.globals.iter().find(|g| g.name == "z").unwrap();
    assert_eq!((z.size, z.init.clone()), (16, GlobalInit::Zero));
}

#[test]
fn extern_global_has_unknown_contents() {
    let m = load_c("extern int e; int f(void) { return e; }");
    let e = m.globals.iter().find(|g| g.name == "e").unwrap();
    assert_eq!(e.init, GlobalInit::External);
}

#[test]
fn overflow_intrinsics_and_extractvalue() {
    let m = load_c("int f(int a, int b) { int r; if (__builtin_add_overflow(a, b, &r)) return 0; return r; }");
    let f = function(&m, "f");
    let callee = ops(f).find_map(|op| if let Op::Call { callee: Callee::Direct(c), .. } = op { Some(*c) } else { None });
    assert_eq!(m.function(callee.expect("call")).name, "llvm.sadd.with.overflow.i32");
    assert!(ops(f).any(|op| matches!(op, Op::ExtractValue { indices, ty: Type::Int(1), .. } if indices == &vec![1])));
    assert!(!has_unsupported(f));
}

#[test]
fn floats_and_inline_asm_are_unsupported_not_dropped() {
    let m = load_c("double f(double x) { return x * 2.0; } void g(void) { __asm__(\"nop\"); }");
    assert!(ops(function(&m, "f")).any(|op| matches!(op, Op::Unsupported { text } if text.contains("fmul"))));
    assert!(ops(function(&m, "g")).any(|op| matches!(op, Op::Call { callee: Callee::Unsupported(_), .. })));
}

#[test]
fn indirect_calls_and_function_addresses() {
    let m = load_c("int k(int x) { return x; } int f(int (*p)(int)) { return p(1) + f(k); }");
    let f = function(&m, "f");
    let kid = m.function_by_name("k").unwrap();
    assert!(ops(f).any(|op| matches!(op, Op::Call { callee: Callee::Indirect(Operand::Local(ValueId(0))), .. })));
    assert!(ops(f).any(|op| matches!(op, Op::Call { args, .. } if args == &vec![Operand::Function(kid)])));
}

#[test]
fn implicit_declarations_of_old_c_are_accepted() {
    let m = load_c("int main() { int x = __VERIFIER_nondet_int(); while (x > 0) x--; return 0; }");
    assert!(m.function(m.function_by_name("__VERIFIER_nondet_int").unwrap()).is_declaration());
}

#[test]
fn c_syntax_error_is_a_compile_failure_with_diagnostics() {
    match load_text("int main( { return 0; }", "c") {
        Err(EngineError::CompileFailed { diagnostics, .. }) => assert!(diagnostics.contains("error"), "{diagnostics}"),
        other => panic!("expected CompileFailed, got {other:?}"),
    }
}

#[test]
fn malformed_llvm_text_and_bitcode_are_reported() {
    match load_text("define i32 @f( {", "ll") {
        Err(EngineError::MalformedLlvm { message, .. }) => assert!(!message.is_empty()),
        other => panic!("expected MalformedLlvm, got {other:?}"),
    }
    match load_text("not bitcode at all", "bc") {
        Err(EngineError::MalformedLlvm { .. }) => {}
        other => panic!("expected MalformedLlvm, got {other:?}"),
    }
    // Parses but fails verification: a use that does not dominate.
    let bad = "define i32 @f() {\nentry:\n  %a = add i32 %b, 1\n  %b = add i32 %a, 1\n  ret i32 %a\n}\n";
    match load_text(bad, "ll") {
        Err(EngineError::MalformedLlvm { .. }) => {}
        other => panic!("expected MalformedLlvm, got {other:?}"),
    }
}

#[test]
fn lifetime_markers_are_dropped() {
    let text = "declare void @llvm.lifetime.start.p0(ptr)\ndeclare void @use(ptr)\n\
        define void @f() {\nentry:\n  %a = alloca i32\n  call void @llvm.lifetime.start.p0(ptr %a)\n  call void @use(ptr %a)\n  ret void\n}\n";
    let m = load_text(text, "ll").expect("valid IR");
    let f = function(&m, "f");
    assert_eq!(ops(f).filter(|op| matches!(op, Op::Call { .. })).count(), 1);
}

#[test]
fn wide_integer_constants_are_sign_extended() {
    let text = "define i128 @f() {\nentry:\n  %x = add i128 -170141183460469231731687303715884105728, 1\n  %y = add i8 255, 0\n  ret i128 %x\n}\n";
    let m = load_text(text, "ll").expect("valid IR");
    let f = function(&m, "f");
    let consts: Vec<_> = ops(f).filter_map(|op| if let Op::Bin { lhs, .. } = op { Some(lhs.clone()) } else { None }).collect();
    assert_eq!(consts, vec![Operand::Int { bits: 128, value: i128::MIN }, Operand::Int { bits: 8, value: -1 }]);
}

/// The IR invariants consumers rely on: each value defined once, operands refer to defined
/// values, block references are in range, phis list exactly the predecessors.
fn check_invariants(m: &Module) -> Result<(), String> {
    for f in m.functions.iter().filter(|f| !f.is_declaration()) {
        let mut defined = vec![0u32; f.num_values as usize];
        let results = f.params.iter().map(|p| p.0).chain(f.blocks.iter().flat_map(|b| b.instrs.iter().filter_map(|i| i.result)));
        for v in results {
            *defined.get_mut(v.0 as usize).ok_or(format!("{}: {v:?} out of range", f.name))? += 1;
        }
        if let Some(v) = defined.iter().position(|&n| n != 1) {
            return Err(format!("{}: %{v} defined {} times", f.name, defined[v]));
        }
        if f.value_names.len() as u32 != f.num_values {
            return Err(format!("{}: value_names length", f.name));
        }
        let in_range = |b: &BlockId| (b.0 as usize) < f.blocks.len();
        let local_ok = |o: &Operand| !matches!(o, Operand::Local(v) if v.0 >= f.num_values);
        let mut preds = vec![Vec::new(); f.blocks.len()];
        for (i, b) in f.blocks.iter().enumerate() {
            let succs: Vec<BlockId> = match &b.terminator {
                Terminator::Br(t) => vec![*t],
                Terminator::CondBr { then_block, else_block, .. } => vec![*then_block, *else_block],
                Terminator::Switch { default, cases, .. } => std::iter::once(*default).chain(cases.iter().map(|c| c.1)).collect(),
                _ => vec![],
            };
            if !succs.iter().all(in_range) {
                return Err(format!("{}: successor out of range", f.name));
            }
            for s in succs {
                preds[s.0 as usize].push(BlockId(i as u32));
            }
            if b.instrs.iter().any(|i| !operands_of(&i.op).iter().all(|o| local_ok(o))) {
                return Err(format!("{}: operand out of range", f.name));
            }
        }
        for (i, b) in f.blocks.iter().enumerate() {
            for instr in &b.instrs {
                if let Op::Phi { incoming, .. } = &instr.op {
                    let mut from: Vec<_> = incoming.iter().map(|x| x.1).collect();
                    let mut expected = preds[i].clone();
                    from.sort();
                    from.dedup();
                    expected.sort();
                    expected.dedup();
                    if from != expected {
                        return Err(format!("{}: phi in {} lists {from:?}, predecessors {expected:?}", f.name, b.name));
                    }
                }
            }
        }
    }
    Ok(())
}

fn operands_of(op: &Op) -> Vec<&Operand> {
    match op {
        Op::Alloca { count, .. } => vec![count],
        Op::Load { ptr, .. } => vec![ptr],
        Op::Store { value, ptr, .. } => vec![value, ptr],
        Op::PtrAdd { base, indices, .. } => std::iter::once(base).chain(indices.iter().map(|g| &g.value)).collect(),
        Op::Bin { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } => vec![lhs, rhs],
        Op::Cast { value, .. } | Op::Freeze { value, .. } => vec![value],
        Op::Select { cond, then_value, else_value, .. } => vec![cond, then_value, else_value],
        Op::Phi { incoming, .. } => incoming.iter().map(|x| &x.0).collect(),
        Op::Call { callee, args, .. } => {
            let mut all: Vec<&Operand> = args.iter().collect();
            if let Callee::Indirect(o) = callee {
                all.push(o);
            }
            all
        }
        Op::ExtractValue { agg, .. } => vec![agg],
        Op::InsertValue { agg, value, .. } => vec![agg, value],
        Op::LandingPad { .. } | Op::Unsupported { .. } => vec![],
    }
}

/// `shared/bench` next to the clone (CI) or /work/shared/bench.
fn bench_dir() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    [manifest.join("../../shared/bench"), PathBuf::from("/work/shared/bench")].into_iter().find(|p| p.is_dir())
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            c_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "c") {
            out.push(path);
        }
    }
}

#[test]
#[allow(clippy::print_stderr, reason = "reports a missing shared folder and the translation times of a long test")]
fn every_benchmark_program_translates() {
    let Some(bench) = bench_dir() else {
        eprintln!("benchmark folder not found; nothing to check");
        return;
    };
    let mut files = Vec::new();
    for set in ["tpdb-c", "svcomp-lists", "paper-examples"] {
        c_files(&bench.join(set), &mut files);
    }
    files.sort();
    // Two workers: clang dominates and the machine is shared.
    let results: Vec<(std::time::Duration, Option<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|w| {
                let files = &files;
                scope.spawn(move || {
                    files
                        .iter()
                        .skip(w)
                        .step_by(2)
                        .map(|file| {
                            let start = std::time::Instant::now();
                            let failure = match load_module(file, InputKind::C) {
                                Ok(m) if m.function_by_name("main").is_none() => Some(format!("{}: no main", file.display())),
                                Ok(m) => check_invariants(&m).err().map(|e| format!("{}: {e}", file.display())),
                                Err(e) => Some(format!("{}: {e:?}", file.display())),
                            };
                            (start.elapsed(), failure)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker finished")).collect()
    });
    let mut times: Vec<_> = results.iter().map(|r| r.0).collect();
    let failures: Vec<_> = results.into_iter().filter_map(|r| r.1).collect();
    times.sort();
    let total: std::time::Duration = times.iter().sum();
    eprintln!(
        "translated {} programs in {:.2?} (median {:.1?}, max {:.1?})",
        files.len(),
        total,
        times.get(times.len() / 2).copied().unwrap_or_default(),
        times.last().copied().unwrap_or_default()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}


#[test]
fn poison_flags_of_casts_become_explicit_checks() {
    // `trunc nuw` ⇔ `shl nuw x, 64−32`, `trunc nsw` ⇔ `shl nsw`, `zext nneg` ⇔ `add nuw x, 2^31`
    // before the flag-less cast; `icmp samesign` has no such encoding: unsupported
    let text = "define i1 @f(i32 %a, i64 %b) {\nentry:\n  %t = trunc nuw i64 %b to i32\n  %z = zext nneg i32 %a to i64\n  \
        %c = icmp samesign ult i32 %a, %t\n  %d = trunc i64 %b to i8\n  %e = trunc nsw i64 %b to i16\n  ret i1 %c\n}\n";
    let m = load_text(text, "ll").expect("valid IR");
    let f = function(&m, "f");
    let shape: Vec<String> = ops(f)
        .map(|op| match op {
            Op::Bin { op, flags, bits, rhs: Operand::Int { value, .. }, .. } => format!("{op:?} nuw={} nsw={} i{bits} {value}", flags.nuw, flags.nsw),
            Op::Cast { op, from_bits, to_bits, .. } => format!("{op:?} {from_bits}->{to_bits}"),
            Op::Unsupported { .. } => "unsupported".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shape,
        [
            "Shl nuw=true nsw=false i64 32",
            "Trunc 64->32",
            "Add nuw=true nsw=false i32 -2147483648",
            "ZExt 32->64",
            "unsupported",
            "Trunc 64->8",
            "Shl nuw=false nsw=true i64 48",
            "Trunc 64->16",
        ]
    );
}

#[test]
fn value_types_follow_the_definitions() {
    let m = load_c("struct N { struct N *next; int v; };\nint f(struct N *p, long n) { int c = 0; while (p != 0 && n > 0) { c += p->v; p = p->next; n--; } return c; }");
    let f = function(&m, "f");
    let types = f.value_types();
    assert_eq!(types.len() as u32, f.num_values);
    assert_eq!(types[0], Some(Type::Ptr));
    assert_eq!(types[1], Some(Type::Int(64)));
    assert!(types.iter().all(|t| t.is_some()), "{types:?}");
    // The pointer comparison is a 64-bit icmp whose operand is a pointer-typed local.
    let ptr_cmp = ops(f).any(|op| matches!(op, Op::ICmp { bits: 64, lhs: Operand::Local(v), rhs: Operand::NullPtr, .. } if types[v.0 as usize] == Some(Type::Ptr)));
    assert!(ptr_cmp, "{:?}", f.blocks);
}

#[test]
fn unnamed_globals_and_functions_get_llvm_numbers() {
    let text = "@0 = private constant [2 x i8] c\"a\\00\"\n@g = global i32 0\n\
        define internal i32 @1() {\nentry:\n  %v = load i8, ptr @0\n  ret i32 0\n}\n";
    let m = load_text(text, "ll").expect("valid IR");
    assert_eq!(m.globals.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(), vec!["0", "g"]);
    assert_eq!(m.functions[0].name, "1");
}

#[test]
fn variable_length_arrays_have_a_dynamic_count() {
    let m = load_c("int f(int n) { int a[n]; a[0] = 1; return a[0]; }");
    let f = function(&m, "f");
    let count = ops(f).find_map(|op| if let Op::Alloca { elem_size: 4, count, count_bits: 64 } = op { Some(count.clone()) } else { None });
    assert!(matches!(count, Some(Operand::Local(_))), "{:?}", f.blocks);
}

#[test]
fn assorted_c_constructs_translate_without_unsupported_parts() {
    let m = load_c(
        r#"
        #include <stdlib.h>
        #include <string.h>
        struct P { int x, y; };
        union U { int i; char c[4]; };
        struct B { unsigned a : 3; unsigned b : 5; };
        static int counter;
        int (*table[2])(int);
        int id(int v) { return v; }
        int twice(int v) { return 2 * v; }
        struct P swap(struct P p) { struct P q = p; q.x = p.y; q.y = p.x; return q; }
        unsigned char uc(unsigned char c) { return c >> 1; }
        __int128 wide(__int128 a) { return a * 3 / 2; }
        long long mix(long long a, unsigned int b, short s) { return a % (b | 1) + (s ? a : b); }
        int bits(struct B *b) { b->a = 5; return b->b + b->a; }
        int un(union U *u) { u->i = 0x01020304; return u->c[0]; }
        int loop(int n) {
            static int calls = 0;
            calls++;
            int s = 0, i = 0;
            do { s += i; i++; } while (i < n);
        again:
            if (s > 100) { s -= 7; goto again; }
            for (char c = 'a'; c != 'z'; c++) s ^= c;
            return s + calls;
        }
        int main(void) {
            table[0] = id; table[1] = twice;
            int *p = malloc(10 * sizeof(int));
            if (!p) return 1;
            memset(p, 0, 10 * sizeof(int));
            struct P a = {1, 2}, b = swap(a);
            int arr[4] = {1, 2, 3, 4}, copy[4];
            memcpy(copy, arr, sizeof arr);
            int r = table[counter & 1](b.x) + loop(copy[3]) + uc(200) + (int)wide(7) + (int)mix(-5, 3, 0);
            free(p);
            return r > 0 ? 0 : 1;
        }
        "#,
    );
    check_invariants(&m).expect("IR invariants hold");
    for f in m.functions.iter().filter(|f| !f.is_declaration()) {
        assert!(!has_unsupported(f), "{}: {:?}", f.name, f.blocks);
        let defined: std::collections::HashSet<_> = f
            .params
            .iter()
            .map(|p| p.0)
            .chain(f.blocks.iter().flat_map(|b| b.instrs.iter().filter_map(|i| i.result)))
            .collect();
        assert_eq!(defined.len() as u32, f.num_values, "{}: every value defined once", f.name);
    }
    let names: Vec<_> = m.functions.iter().map(|f| f.name.as_str()).collect();
    assert!(names.contains(&"llvm.memcpy.p0.p0.i64") && names.contains(&"llvm.memset.p0.i64"), "{names:?}");
}

#[test]
fn bitcode_input_translates_like_c() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("p.c");
    std::fs::write(&source, "int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }").unwrap();
    let bitcode = super::toolchain::compile_c(&source, &[]).expect("clang compiles");
    let from_bc = load_module(bitcode.path(), InputKind::LlvmBitcode).expect("bitcode loads");
    let from_c = load_module(&source, InputKind::C).expect("C loads");
    assert_eq!(from_bc.functions, from_c.functions);
}

#[test]
fn optnone_llvm_input_is_still_promoted() {
    let text = "define i32 @f(i32 %n) #0 {\nentry:\n  %x = alloca i32\n  store i32 %n, ptr %x\n  %v = load i32, ptr %x\n  ret i32 %v\n}\n\
        attributes #0 = { noinline optnone }\n";
    let m = load_text(text, "ll").expect("valid IR");
    assert_eq!(function(&m, "f").blocks[0].terminator, Terminator::Ret(Some(Operand::Local(ValueId(0)))));
}

#[test]
fn huge_initialised_globals_have_unknown_contents() {
    let m = load_c("int big[1000000] = {1}; int zero[1000000]; int main(void) { return big[0] + zero[0]; }");
    let big = m.globals.iter().find(|g| g.name == "big").unwrap();
    assert_eq!((big.size, big.init.clone()), (4_000_000, GlobalInit::External));
    let zero = m.globals.iter().find(|g| g.name == "zero").unwrap();
    assert_eq!(zero.init, GlobalInit::Zero);
}

#[test]
fn struct_initialisers_leave_implicit_padding_unknown() {
    // clang spells padding out as zero bytes; LLVM's implicit padding stays unknown.
    let m = load_c("struct { char c; int i; } s = {1, -2}; int main(void) { return s.i; }");
    let s = m.globals.iter().find(|g| g.name == "s").unwrap();
    assert_eq!(s.init, GlobalInit::Bytes(vec![Some(1), Some(0), Some(0), Some(0), Some(0xfe), Some(0xff), Some(0xff), Some(0xff)]));
    let m = load_text("@s = global { i8, i32 } { i8 1, i32 -2 }\n", "ll").expect("valid IR");
    assert_eq!(m.globals[0].init, GlobalInit::Bytes(vec![Some(1), None, None, None, Some(0xfe), Some(0xff), Some(0xff), Some(0xff)]));
}

#[test]
fn linkage_and_parameter_attributes_are_read() {
    let m = load_text(
        r#"
define internal i32 @helper(ptr nonnull noundef dereferenceable(8) align 4 %p, ptr dereferenceable_or_null(16) readonly noalias %q, i32 %n) {
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
define linkonce_odr i32 @inline_fn(i32 noundef %x) {
  ret i32 %x
}
define weak i32 @weak_fn() {
  ret i32 0
}
define i32 @main() {
  %r = call i32 @helper(ptr null, ptr null, i32 1)
  ret i32 %r
}
declare i32 @ext(i32)
"#,
        "ll",
    )
    .expect("valid LLVM");
    let helper = function(&m, "helper");
    assert_eq!(helper.linkage, Linkage::Internal);
    assert_eq!(helper.param_attrs.len(), 3);
    let p = helper.param_attrs[0];
    assert!(p.nonnull && p.noundef && !p.readonly && !p.noalias);
    assert_eq!((p.dereferenceable, p.dereferenceable_or_null, p.align), (Some(8), None, Some(4)));
    let q = helper.param_attrs[1];
    assert!(!q.nonnull && !q.noundef && q.readonly && q.noalias);
    assert_eq!((q.dereferenceable, q.dereferenceable_or_null, q.align), (None, Some(16), None));
    assert_eq!(helper.param_attrs[2], ParamAttrs::default());
    assert_eq!(function(&m, "inline_fn").linkage, Linkage::LinkOnce { odr: true });
    assert!(function(&m, "inline_fn").param_attrs[0].noundef);
    assert_eq!(function(&m, "weak_fn").linkage, Linkage::Weak { odr: false });
    assert_eq!(function(&m, "main").linkage, Linkage::External);
    assert_eq!(function(&m, "ext").linkage, Linkage::External);
    // C `static` functions are internal.
    let c = load_c("static int twice(int x) { return 2 * x; } int main(void) { return twice(1); }");
    assert_eq!(function(&c, "twice").linkage, Linkage::Internal);
}

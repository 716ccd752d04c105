//! Tests of the Rust semantics on rustc's bitcode (compiled at test time): panics and
//! unwinding, aggregate registers, reference parameters, the allocator; each analysed by
//! symbolic execution and the ITS back end, and where a witness matters replayed by the
//! interpreter.

use super::analyze;
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::frontend::rust_tests::load_rust;
use crate::interp::{self, Outcome, RunConfig, SequenceInputs};
use crate::ir::Module;
use crate::verdict::{IntSemantics, MemorySafety, Termination};
use std::time::{Duration, Instant};

struct Result {
    termination: Termination,
    memory_safety: MemorySafety,
    stats: Vec<(String, String)>,
}

fn config() -> Config {
    Config::new(IntSemantics::C, Duration::from_secs(30))
}

/// `entry` of `m` through symbolic execution and the ITS back end.
fn prove(m: &Module, entry: &str) -> Result {
    let deadline = Instant::now() + Duration::from_secs(30);
    let facts = ModuleFacts::new(m);
    let f = m.function_by_name(entry).unwrap_or_else(|| panic!("{entry} missing"));
    let a = analyze(m, &facts, f, &config(), deadline);
    let termination = crate::pipeline::graph_termination(&a.graph, config().termination(), deadline);
    Result { termination, memory_safety: a.memory_safety, stats: a.stats }
}

fn stat<'a>(r: &'a Result, key: &str) -> Option<&'a str> {
    r.stats.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn is_yes(r: &Result) -> bool {
    matches!(r.termination, Termination::Yes(_)) && r.memory_safety == MemorySafety::Proved
}

#[test]
fn an_overflow_panic_ends_the_run_and_is_reported() {
    let m = load_rust("#[no_mangle] pub fn count(mut n: u32) -> u32 { let mut k = 0; while n > 0 { n -= 1; k += 1; } k }\n");
    let r = prove(&m, "count");
    assert!(is_yes(&r), "{:?} {:?}", r.termination, r.memory_safety);
    // `n -= 1` cannot overflow (n > 0); `k += 1` can, in principle
    assert_eq!(stat(&r, "may panic at"), Some("t.rs:1"), "{:?}", r.stats);
}

const CLEANUP: &str = "pub struct D(pub u32);\n\
    impl Drop for D { fn drop(&mut self) { if self.0 == 7 { loop {} } } }\n\
    #[inline(never)] pub fn g(x: u32) -> u32 { x + 1 }\n\
    #[no_mangle] pub fn unw(x: u32) -> u32 { let mut d = D(7); let y = g(x); d.0 = 0; y }\n";

#[test]
fn cleanup_code_runs_when_a_callee_panics() {
    // only the unwinding path (x = u32::MAX: `x + 1` panics in g) drops `D(7)`, which loops
    let m = load_rust(CLEANUP);
    let r = prove(&m, "unw");
    assert!(!matches!(r.termination, Termination::Yes(_)), "the loop in the cleanup code was missed");
    // and the interpreter, the judge of witnesses, unwinds into the same landing pad
    let f = m.function_by_name("unw").expect("unw");
    let facts = ModuleFacts::new(&m);
    let run = |x: i128| interp::run(&m, &facts, f, &[x], &RunConfig::new(IntSemantics::C, config().witnesses().run, 100_000), &mut SequenceInputs::new(vec![], None));
    assert!(matches!(run(u32::MAX as i128).outcome, Outcome::Lasso(_)), "{:?}", run(u32::MAX as i128).outcome);
    assert_eq!(run(3).outcome, Outcome::Returned(Some(4)));
}

#[test]
fn unwinding_out_of_a_summarized_call_is_unknown() {
    // `r(n - 1) * 3` may overflow inside a recursive call: its caller would continue at the
    // call's unwind edge, which return states do not describe
    let m = load_rust("#[no_mangle] pub fn r(n: u32) -> u32 { if n == 0 { 0 } else { r(n - 1) * 3 + 1 } }\n");
    let r = prove(&m, "r");
    match &r.termination {
        Termination::Maybe { reason } => assert!(reason.contains("unwinding out of the summarized function"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn fields_of_a_returned_pair_are_kept() {
    // `a - b` cannot overflow only if the pair's fields keep b = a / 2
    let m = load_rust(
        "#[inline(never)] fn pair(a: u64) -> (u64, u64) { (a, a / 2) }\n\
         #[no_mangle] pub fn agg(n: u64) -> u64 { let (a, b) = pair(n); a - b }\n",
    );
    let r = prove(&m, "agg");
    assert!(is_yes(&r), "{:?} {:?}", r.termination, r.memory_safety);
    assert_eq!(stat(&r, "may panic at"), None, "{:?}", r.stats);
}

#[test]
fn reference_parameters_point_to_their_blocks() {
    let m = load_rust(
        "#[no_mangle] pub fn wm(v: &mut u32) { *v = 1; }\n\
         #[allow(invalid_reference_casting)] #[no_mangle] pub fn w(v: &u32) { unsafe { *(v as *const u32 as *mut u32) = 1; } }\n\
         #[no_mangle] pub fn raw(v: *const u32) -> u32 { unsafe { *v } }\n",
    );
    let r = prove(&m, "wm");
    assert!(is_yes(&r), "a write through `&mut`: {:?} {:?}", r.termination, r.memory_safety);
    // a write through a shared reference, and a raw pointer without any block
    for f in ["w", "raw"] {
        let r = prove(&m, f);
        assert!(matches!(r.memory_safety, MemorySafety::Unknown { .. }), "{f}: {:?}", r.memory_safety);
    }
}

#[test]
fn shared_references_may_alias() {
    // two `&u8` may point to the same byte: the loop runs forever for f(&x, &x)
    let m = load_rust("#[no_mangle] pub fn f(a: &u8, b: &u8) -> u32 { let mut k = 0u32; while std::ptr::eq(a, b) { k = k.wrapping_add(1); } k }\n");
    let r = prove(&m, "f");
    assert!(!matches!(r.termination, Termination::Yes(_)), "assumed that shared references do not alias");
}

#[test]
fn ranking_functions_over_locals_kept_in_memory_use_the_source_names() {
    // issue 13: rustc keeps `n` and `k` in `[4 x i8]` allocas mem2reg cannot promote, so the
    // loop counts with memory cells; the proof names them `n` and `k`, not by the MIR
    // temporaries last stored into them (`_5`, `_6`)
    let vars = ranking_variables("#[no_mangle] pub fn count(mut n: u32) -> u32 { let mut k = 0; while n > 0 { n -= 1; k += 1; } k }\n", "count");
    // (the proof found may also rank by an alloca's end address, which is named after the
    // variable, `&n@3`, never an internal `end_N`; which proof the LP finds varies)
    assert!(vars.iter().any(|v| v == "n" || v == "k") && !vars.iter().any(|v| v.starts_with('_') || v.starts_with("end_")), "{vars:?}");
}

#[test]
fn ranking_functions_over_an_iterator_kept_in_memory_name_its_fields() {
    // issue 13: `for v in values` ranks by the slice iterator's pointers, two fields of the
    // local `iter` (a 16-byte alloca); the proof names them `iter@0`/`iter@8`, not by the MIR
    // temporaries last stored into them (`_3`, `_16`)
    let vars = ranking_variables("#[no_mangle] pub fn sum(values: &[u32]) -> u32 { let mut t = 0u32; for v in values { t = t.wrapping_add(*v); } t }\n", "sum");
    assert!(vars.iter().any(|v| v.starts_with("iter@")) && !vars.iter().any(|v| v.starts_with('_')), "{vars:?}");
}

#[test]
fn the_end_address_of_a_local_kept_in_memory_is_named_after_it() {
    // issue 13: `for i in 0..values.len()` (ffi-basic's sum_indexed) may be ranked with the
    // ends of blocks — the slice's, a global's, a local's — which read `end(values)`,
    // `&iter@15`, never the internal `end_N` (before the names: `end_13`, `end_4`)
    let vars = ranking_variables("#[no_mangle] pub fn sum_indexed(values: &[u32]) -> u32 { let mut t = 0u32; for i in 0..values.len() { t = t.wrapping_add(values[i]); } t }\n", "sum_indexed");
    assert!(!vars.is_empty() && !vars.iter().any(|v| v.starts_with('_') || v.starts_with("end_")), "{vars:?}");
}

/// The variables of the linear ranking functions of the YES proof of `entry` in the Rust
/// `source`, by name.
fn ranking_variables(source: &str, entry: &str) -> std::collections::BTreeSet<String> {
    let m = load_rust(source);
    let r = prove(&m, entry);
    let Termination::Yes(p) = &r.termination else { panic!("{:?}", r.termination) };
    p.components.iter().flat_map(|c| &c.phases).flat_map(|ph| &ph.functions).flat_map(|(_, f)| f.coeffs.keys().map(|v| v.name().to_string())).collect()
}

#[test]
fn a_mut_vecs_buffer_holds_cap_elements_and_may_be_empty() {
    // `&mut Vec<u32>` (symexec::rust_vec): the buffer of `cap` elements behind the pointer,
    // `len ≤ cap`, writable; empty (a dangling pointer) when `cap = 0`
    let m = load_rust(
        "#[no_mangle] pub fn sum(v: &mut Vec<u32>) -> u32 { let mut t = 0u32; let mut k = 0; while k < v.len() { t = t.wrapping_add(v[k]); v[k] = 0; k += 1; } t }\n\
         #[no_mangle] pub fn first_unchecked(v: &mut Vec<u32>) { unsafe { *v.as_mut_ptr() = 1; } }\n\
         #[no_mangle] pub fn first_checked(v: &mut Vec<u32>) { if v.capacity() > 0 { unsafe { *v.as_mut_ptr() = 1; } } }\n",
    );
    let r = prove(&m, "sum");
    assert!(is_yes(&r), "{:?} {:?}", r.termination, r.memory_safety);
    // the buffer may be empty: a write to its first element needs `cap ≥ 1`
    assert_ne!(prove(&m, "first_unchecked").memory_safety, MemorySafety::Proved);
    assert_eq!(prove(&m, "first_checked").memory_safety, MemorySafety::Proved);
}

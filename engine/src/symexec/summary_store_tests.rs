//! Unit tests of the module-wide summary store's rules: the canonical key, a call covered by
//! a stored entry (served, the callee's graph not built, the caller's ITS without the
//! callee's loops) or not covered (built), an unproved callee never stored, and a stored
//! callee that frees the caller's memory (the caller sees the block gone).

use super::facts::{Atom, Fact};
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use super::summary_store::{canonical, entry_hash};
use super::{analyze_summarizing, SummaryStore};
use crate::config::{CalleeSummaries, Config};
use crate::driver::InputKind;
use crate::facts::ModuleFacts;
use crate::ir::{BlockId, FuncId, Module, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use crate::verdict::{IntSemantics, MemorySafety, Report, Termination};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// An entry state over the variables `names` (x, p, start, end, cell) with allocation id `id`
/// and its KB in the given order.
fn entry(names: [&str; 5], id: u32, kb_reversed: bool) -> State {
    let v = |i: usize| Var::new(names[i]);
    let lv: BTreeMap<ValueId, Var> = [(ValueId(0), v(0)), (ValueId(1), v(1))].into_iter().collect();
    let mut kb = vec![
        Fact::Atom(Atom::var_const(&v(0), Rel::Ge, 0)),
        Fact::Atom(Atom::cmp(&LinExpr::var(&v(1)), Rel::Eq, &LinExpr::var(&v(2))).expect("atom")),
        Fact::Atom(Atom::cmp(&LinExpr::var(&v(3)), Rel::Eq, &LinExpr::var(&v(2)).add_scaled(1, &LinExpr::constant(3)).expect("sum")).expect("atom")),
    ];
    if kb_reversed {
        kb.reverse();
    }
    State {
        frames: vec![Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv }],
        kb,
        allocs: vec![Alloc { id, start: v(2), end: v(3), kind: AllocKind::Heap, pristine: None }],
        pt: vec![PtEntry { addr: v(2), size: 4, is_ptr: false, unsigned: false, value: v(4), alloc: id }],
        inputs: vec![],
        inputs_exact: false,
        lists: vec![],
    }
}

#[test]
fn alpha_renamed_entries_have_one_key() {
    let a = canonical(FuncId(0), FuncId(1), &entry(["x_1", "p_2", "s_3", "e_4", "c_5"], 7, false), &[]);
    let b = canonical(FuncId(0), FuncId(1), &entry(["n_90", "q_12", "b_40", "z_41", "m_3"], 2, true), &[]);
    assert_eq!(a.entry, b.entry, "one canonical form");
    assert_eq!(entry_hash(&a.entry), entry_hash(&b.entry));
    // the canonical names do not depend on the original ones, and a different state differs
    assert!(a.entry.all_vars().iter().all(|v| v.name().starts_with("$e")), "{:?}", a.entry);
    let mut other = entry(["x_1", "p_2", "s_3", "e_4", "c_5"], 7, false);
    other.kb[0] = Fact::Atom(Atom::var_const(&Var::new("x_1"), Rel::Ge, 1));
    assert_ne!(entry_hash(&canonical(FuncId(0), FuncId(1), &other, &[]).entry), entry_hash(&a.entry));
}

fn config() -> Config {
    Config::new(IntSemantics::Math, Duration::from_secs(60))
}

fn prove(m: &Module, name: &str, store: &SummaryStore) -> Report {
    let f = m.function_by_name(name).expect("defined");
    let deadline = Instant::now() + Duration::from_secs(60);
    crate::pipeline::prove_function_assuming(m, &ModuleFacts::new(m), f, &config(), deadline, &BTreeSet::new(), Some(store))
}

fn stat(stats: &[(String, String)], key: &str) -> Option<usize> {
    stats.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.parse().ok())
}

const COUNT: &str = "int count(int n) { int i = 0; while (i < n) i++; return i; }\n";

#[test]
fn a_call_covered_by_a_stored_entry_is_served_and_the_caller_proof_has_no_callee_loop() {
    let src = format!("{COUNT} int caller(int a) {{ if (a > 100) return 0; return count(a) + count(a + 1); }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    // the callee first (bottom-up): its own proof for all arguments seeds the store (E_top)
    let own = prove(&m, "count", &store);
    assert!(matches!(own.termination, Termination::Yes(_)), "{own:?}");
    assert_eq!(store.stored(), 1, "{:?}", own.stats);
    let caller = prove(&m, "caller", &store);
    assert!(matches!(&caller.termination, Termination::Yes(_)), "{caller:?}");
    assert_eq!(caller.memory_safety, Some(MemorySafety::Proved));
    assert_eq!(stat(&caller.stats, "callee graphs built"), Some(0), "{:?}", caller.stats);
    assert!(stat(&caller.stats, "calls served from the summary store").is_some_and(|n| n >= 1), "{:?}", caller.stats);
    // the callee's loop is not part of the caller's graph: no cycle is left to prove
    let Termination::Yes(proof) = &caller.termination else { unreachable!() };
    assert!(proof.components.is_empty(), "{proof:?}");
    assert!(store.served() >= 1);
}

#[test]
fn calls_served_by_another_entry_are_not_stored_as_entries_without_returns() {
    // `twice`'s second call of `count` is served by the entry built for its first call (or
    // by the store): such a call abstraction has no runs below it and must never be stored
    // as an entry without return states (that would claim `count` never returns)
    let src = format!("{COUNT} int twice(int a) {{ if (a > 100) return 0; int *p = &a; return count(*p) + count(*p); }}
 int top(int b) {{ return twice(b) + count(b); }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    for f in ["count", "twice", "top"] {
        let r = prove(&m, f, &store);
        assert!(matches!(r.termination, Termination::Yes(_)), "{f}: {r:?}");
    }
    let (count, top) = (m.function_by_name("count").expect("count"), m.function_by_name("top").expect("top"));
    let stored = store.candidates(count, top, None);
    assert!(!stored.is_empty());
    for s in stored {
        assert!(!s.returns.is_empty(), "{s:?}");
    }
}

#[test]
fn a_call_not_covered_by_a_stored_entry_builds_the_callee_graph() {
    // `mid`'s call stores an entry of `count` for n = 5 only; `top` calls `count` with an
    // arbitrary argument, which that entry does not cover
    let src = format!("{COUNT} int mid(void) {{ return count(5); }}\n int top(int a) {{ return mid() + count(a); }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let mid = prove(&m, "mid", &store);
    assert!(matches!(mid.termination, Termination::Yes(_)), "{mid:?}");
    assert_eq!(store.stored(), 1, "{:?}", mid.stats);
    let top = m.function_by_name("top").expect("top");
    let deadline = Instant::now() + Duration::from_secs(60);
    let a = analyze_summarizing(&m, &ModuleFacts::new(&m), top, &config(), deadline, CalleeSummaries::WithLoops, Some(&store));
    assert!(stat(&a.stats, "callee graphs built").is_some_and(|n| n >= 1), "{:?}", a.stats);
    // only `mid`'s own call of `count(5)` (inlined into `top`) is served
    assert_eq!(stat(&a.stats, "calls served from the summary store"), Some(1), "{:?}", a.stats);
}

#[test]
fn an_unproved_callee_is_never_stored() {
    // `spin` does not terminate for odd arguments: neither its own analysis nor the entry
    // built for `user`'s call (n = 3, no ranking function) gives the store anything
    let src = "int spin(int n) { while (n != 0) n = n - 2; return 0; }\n int user(void) { return spin(3); }";
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    // both graphs are complete and safe, so each offers its entry; only a proof stores it
    let deadline = Instant::now() + Duration::from_secs(20);
    let spin = m.function_by_name("spin").expect("spin");
    let user = m.function_by_name("user").expect("user");
    let own = super::analyze_seeding(&m, &ModuleFacts::new(&m), spin, &config(), deadline, Some(&store), super::Imports::Recursive);
    assert_eq!(own.exports.len(), 1, "{:?}", own.stats);
    let a = analyze_summarizing(&m, &ModuleFacts::new(&m), user, &config(), deadline, CalleeSummaries::WithLoops, Some(&store));
    assert_eq!(a.exports.len(), 1, "{:?}", a.stats);
    let short = Config::new(IntSemantics::Math, Duration::from_secs(8));
    for f in [spin, user] {
        let report = crate::pipeline::prove_function_assuming(&m, &ModuleFacts::new(&m), f, &short, Instant::now() + Duration::from_secs(8), &BTreeSet::new(), Some(&store));
        assert!(!matches!(report.termination, Termination::Yes(_)), "{report:?}");
    }
    assert_eq!(store.stored(), 0);
    assert!(store.is_empty());
}

#[test]
fn a_stored_callee_that_frees_caller_memory_leaves_the_block_freed() {
    // `release` walks n cells and frees the block; `mid` stores its entry (a heap block of
    // 4 ints, 0 ≤ n ≤ 4); `user`'s call is an instance, and its read after the call hits
    // the freed block: memory safety is not proved
    let src = "#include <stdlib.h>\n extern int __VERIFIER_nondet_int(void);\n\
        void release(int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; free(p); }\n\
        int mid(void) { int *q = malloc(4 * sizeof(int)); if (!q) return 0; int n = __VERIFIER_nondet_int(); if (n < 0 || n > 4) return 0; release(q, n); return 1; }\n\
        int user(void) { int r = mid(); int *p = malloc(4 * sizeof(int)); if (!p) return 0; p[0] = 1; release(p, 2); return r + p[0]; }";
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let mid = prove(&m, "mid", &store);
    assert!(matches!(mid.termination, Termination::Yes(_)), "{mid:?}");
    assert_eq!(mid.memory_safety, Some(MemorySafety::Proved), "{mid:?}");
    assert!(store.stored() >= 1, "{:?}", mid.stats);
    let user = m.function_by_name("user").expect("user");
    let deadline = Instant::now() + Duration::from_secs(60);
    let a = analyze_summarizing(&m, &ModuleFacts::new(&m), user, &config(), deadline, CalleeSummaries::WithLoops, Some(&store));
    assert!(stat(&a.stats, "calls served from the summary store").is_some_and(|n| n >= 2), "{:?}", a.stats);
    assert!(!matches!(a.memory_safety, MemorySafety::Proved), "{:?}", a.memory_safety);
    // and the whole pipeline agrees (the fallback executes `release` in place)
    let report = prove(&m, "user", &store);
    assert!(!matches!(report.memory_safety, Some(MemorySafety::Proved)), "{report:?}");
}

const DOWN: &str = "int down(int n) { if (n <= 0) return 0; return 1 + down(n - 1); }\n";

#[test]
fn a_recursive_callee_is_stored_by_its_own_proof_and_its_callers_have_no_recursion_cycle() {
    let src = format!("{DOWN} int caller(int a) {{ if (a > 100) return 0; return down(a) + down(a + 1); }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    // the recursive callee first (bottom-up): its own proof, recursion cycles included,
    // stores its `E_top` with the merged return states of its runs
    // (and the entry of its recursive call below the root, proved with its subgraph)
    let own = prove(&m, "down", &store);
    assert!(matches!(own.termination, Termination::Yes(_)), "{own:?}");
    assert!(store.stored() >= 1, "{:?}", own.stats);
    let (down, caller_f) = (m.function_by_name("down").expect("down"), m.function_by_name("caller").expect("caller"));
    let stored = store.candidates(down, caller_f, None);
    assert!(!stored.is_empty());
    assert!(stored.iter().all(|s| !s.returns.is_empty()), "{stored:?}");
    let caller = prove(&m, "caller", &store);
    assert!(matches!(&caller.termination, Termination::Yes(_)), "{caller:?}");
    assert_eq!(caller.memory_safety, Some(MemorySafety::Proved));
    // (the second call once after each of the first call's return states)
    assert!(stat(&caller.stats, "calls of recursive callees served from the summary store").is_some_and(|n| n >= 2), "{:?}", caller.stats);
    assert_eq!(stat(&caller.stats, "callee graphs built"), Some(0), "{:?}", caller.stats);
    // the callee's recursion is not part of the caller's graph: no cycle is left to prove
    let Termination::Yes(proof) = &caller.termination else { unreachable!() };
    assert!(proof.components.is_empty(), "{proof:?}");
}

#[test]
fn a_recursive_callee_is_not_served_to_its_own_recursion_group() {
    // `even` and `odd` are one recursion group: `odd`'s stored `E_top` must not serve
    // `even`'s call (that proof would rest on itself); `even` analyses the recursion itself
    let src = "int odd(int n);\n int even(int n) { if (n <= 0) return 1; return odd(n - 1); }\n int odd(int n) { if (n <= 0) return 0; return even(n - 1); }";
    let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let odd = prove(&m, "odd", &store);
    assert!(matches!(odd.termination, Termination::Yes(_)), "{odd:?}");
    assert!(store.stored() >= 1, "{:?}", odd.stats);
    let even = prove(&m, "even", &store);
    assert!(matches!(even.termination, Termination::Yes(_)), "{even:?}");
    assert_eq!(stat(&even.stats, "calls of recursive callees served from the summary store"), None, "{:?}", even.stats);
    assert_eq!(store.served(), 0);
}

#[test]
fn the_stored_return_states_of_a_recursive_callee_keep_the_result_bound_the_caller_needs() {
    // `loop` terminates only because `down` returns a non-negative value: the stored return
    // states (merged over every run of `down` from arbitrary arguments) keep `r >= 0`
    let src = format!("{DOWN} int loop(int a) {{ if (a < 0 || a > 50) return 0; int k = down(a); while (k != 0) k--; return k; }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let own = prove(&m, "down", &store);
    assert!(matches!(own.termination, Termination::Yes(_)), "{own:?}");
    let with = prove(&m, "loop", &store);
    assert!(matches!(with.termination, Termination::Yes(_)), "{with:?}");
    assert_eq!(stat(&with.stats, "calls of recursive callees served from the summary store"), Some(1), "{:?}", with.stats);
}

#[test]
fn a_caller_not_proved_with_a_stored_recursive_summary_is_analysed_again_without_it() {
    // `stuck` never terminates for a > 0: the attempt that serves `down` from the store is
    // not proved, so the graph is built again with `down`'s recursion analysed here; its
    // graph gives the verdict
    let src = format!("{DOWN} int stuck(int a) {{ int k = down(a); while (a > 0) {{ k++; }} return k; }}");
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let own = prove(&m, "down", &store);
    assert!(matches!(own.termination, Termination::Yes(_)), "{own:?}");
    let short = Config::new(IntSemantics::Math, Duration::from_secs(8));
    let f = m.function_by_name("stuck").expect("stuck");
    let with = crate::pipeline::prove_function_assuming(&m, &ModuleFacts::new(&m), f, &short, Instant::now() + Duration::from_secs(8), &BTreeSet::new(), Some(&store));
    assert!(with.stats.iter().any(|(k, _)| k == "first attempt (recursive callees from the summary store)"), "{:?}", with.stats);
    assert!(!matches!(with.termination, Termination::Yes(_)), "{with:?}");
}

#[test]
fn a_call_no_stored_entry_covers_is_widened_with_one_once_the_bound_is_reached() {
    // with at most one stored entry of `count` per caller's view: `mid` stores the entry for
    // n = 5; `top` reaches `mid` (so it sees that entry: its own `count(5)` is served from
    // it), and its call `count(a)` (0 <= a <= 100) is not an instance of it, so it is widened
    // with it (the merge keeps what both entail) and the widened entry is analysed and
    // offered to the store; `other` reaches `top`, and its call (10 <= b <= 20) is served
    // from the widened entry
    let src = format!(
        "{COUNT} int mid(void) {{ return count(5); }}\n int top(int a) {{ if (a < 0 || a > 100) return 0; return mid() + count(a); }}\n\
         int other(int b) {{ if (b < 10 || b > 20) return 0; return count(b) + top(b); }}"
    );
    let m = crate::frontend::load_source(&src, InputKind::C).expect("compiles");
    let store = SummaryStore::new(&m);
    let base = config();
    let limits = crate::config::SymexecLimits { max_stored_entries_per_function: 1, ..*base.symexec() };
    let config = base.with_symexec(limits).expect("valid limits");
    let facts = ModuleFacts::new(&m);
    let deadline = Instant::now() + Duration::from_secs(60);
    let summarize = |name: &str| {
        let f = m.function_by_name(name).expect("defined");
        let a = analyze_summarizing(&m, &facts, f, &config, deadline, CalleeSummaries::WithLoops, Some(&store));
        let t = crate::pipeline::graph_termination(&a.graph, config.termination(), deadline);
        (a, t)
    };
    let (mid, _) = summarize("mid");
    // (the attempt does not publish: store its export by hand, as the pipeline does once proved)
    for e in mid.exports {
        store.put(e.summary);
    }
    assert_eq!(store.stored(), 1);
    let (top, t) = summarize("top");
    assert!(matches!(t, Termination::Yes(_)), "{t:?}");
    assert_eq!(stat(&top.stats, "calls widened with a stored entry"), Some(1), "{:?}", top.stats);
    assert_eq!(stat(&top.stats, "calls served from the summary store"), Some(1), "{:?}", top.stats);
    let widened: Vec<_> = top.exports.into_iter().filter(|e| e.function == "count").collect();
    assert_eq!(widened.len(), 1, "the widened entry is offered to the store");
    for e in widened {
        store.put(e.summary);
    }
    let (other, t) = summarize("other");
    assert!(matches!(t, Termination::Yes(_)), "{t:?}");
    assert_eq!(stat(&other.stats, "calls widened with a stored entry"), None, "{:?}", other.stats);
    assert_eq!(stat(&other.stats, "callee graphs built"), Some(0), "{:?}", other.stats);
}

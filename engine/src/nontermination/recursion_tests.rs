//! Tests of the tail-call view (`recursion_as_loop`) and of recursion NOs over ℤ
//! (`math_recursion`) and bit-vectors (`recursion_bitvector`): the view's shape, the write-only heap blocks it drops, refusals,
//! terminating recursions that must get no NO, and witnesses that re-check only as found.

use super::math_recursion::{prove_nontermination, recheck_recursion};
use super::math_step::encode_math_loop_step;
use super::recursion_as_loop::{tail_call_view, VIEW_HEADER};
use super::tests::{compile, config, deadline, NONDET};
use crate::facts::ModuleFacts;
use crate::ir::{BlockId, Callee, Module, Op, Operand, Terminator};
use crate::logic::{Formula, Term, Var};
use crate::verdict::{IntSemantics, RecurrentSetWitness};

fn module(src: &str) -> Module {
    compile(&format!("#include <stdlib.h>\n{NONDET}{src}"))
}

fn prove(src: &str, sem: IntSemantics) -> Option<RecurrentSetWitness> {
    let m = module(src);
    let entry = m.function_by_name("main").unwrap();
    prove_nontermination(&m, &ModuleFacts::new(&m), entry, &config(sem), deadline()).map(|w| w.recurrent_set.expect("a recurrent set witness"))
}

fn rechecks(src: &str, w: &RecurrentSetWitness) -> bool {
    let m = module(src);
    let entry = m.function_by_name("main").unwrap();
    recheck_recursion(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::Math), w, deadline())
}

const COUNT_DOWN: &str = "int down(int n) { if (n == 0) return 0; return down(n - 1) + 1; }\n\
                          int main(void) { return down(__VERIFIER_nondet_int()); }";

const BUILD: &str = "struct c { int v; struct c *next; };\n\
                     struct c *build(int n) { if (n == 0) return 0; struct c *x = malloc(sizeof(struct c)); x->v = n; x->next = build(n - 1); return x; }\n\
                     int main(void) { build(__VERIFIER_nondet_int()); return 0; }";

#[test]
fn the_view_of_a_simple_recursion_is_a_loop_through_the_entry() {
    let m = module(COUNT_DOWN);
    let f = m.function_by_name("down").unwrap();
    let view = tail_call_view(&m, f).expect("a view");
    let original = m.function(f);
    let v = &view.function;
    assert_eq!(v.blocks.len(), original.blocks.len() + 1);
    assert_eq!(v.blocks[0].terminator, Terminator::Br(VIEW_HEADER));
    assert_eq!(view.lp.header, VIEW_HEADER);
    // The header's phi is the parameter; the view's own parameter is fresh.
    let param = original.params[0].0;
    let Op::Phi { incoming, .. } = &v.blocks[1].instrs[0].op else { panic!("no header phi: {:?}", v.blocks[1]) };
    assert_eq!(v.blocks[1].instrs[0].result, Some(param));
    assert_eq!(incoming[0], (Operand::Local(v.params[0].0), BlockId(0)));
    assert_ne!(v.params[0].0, param);
    // No call is left: the recursive call became the back edge.
    assert!(v.blocks.iter().flat_map(|b| &b.instrs).all(|i| !matches!(i.op, Op::Call { .. })));
    assert_eq!(view.lp.latches.len(), 1);
    assert_eq!(v.block(view.lp.latches[0]).terminator, Terminator::Br(VIEW_HEADER));
}

#[test]
fn a_parameter_passed_on_unchanged_stays_a_live_in() {
    let m = module("int walk(int *p, int n) { if (n == 0) return 0; return walk(p, n - 1); }\nint main(void) { int a = 0; return walk(&a, __VERIFIER_nondet_int()); }");
    let f = m.function_by_name("walk").unwrap();
    let view = tail_call_view(&m, f).expect("a view");
    let phis = view.function.blocks[1].instrs.iter().filter(|i| matches!(i.op, Op::Phi { .. })).count();
    assert_eq!(phis, 1);
    assert_eq!(view.function.params[0].0, m.function(f).params[0].0);
}

#[test]
fn a_fresh_write_only_heap_block_is_dropped_and_an_escaping_one_kept() {
    let m = module(BUILD);
    let view = tail_call_view(&m, m.function_by_name("build").unwrap()).expect("a view");
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).all(|i| !matches!(i.op, Op::Call { .. } | Op::Store { .. })));
    // The block's address is passed on: it escapes, so malloc stays (and the encoder refuses it).
    let m = module("int *keep(int *p, int n) { if (n == 0) return p; int *q = malloc(sizeof(int)); *q = n; return keep(q, n - 1); }\nint main(void) { keep(0, __VERIFIER_nondet_int()); return 0; }");
    let view = tail_call_view(&m, m.function_by_name("keep").unwrap()).expect("a view");
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).any(|i| matches!(&i.op, Op::Call { callee: Callee::Direct(_), .. })));
    assert!(encode_math_loop_step(&m, &view.function, &view.lp, 16).is_err());
    // A store past the block's end keeps it too.
    let m = module("int f(int n) { if (n == 0) return 0; char *q = malloc(2); q[2] = 1; return f(n - 1); }\nint main(void) { return f(__VERIFIER_nondet_int()); }");
    let view = tail_call_view(&m, m.function_by_name("f").unwrap()).expect("a view");
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).any(|i| matches!(i.op, Op::Store { .. })));
}

#[test]
fn an_argument_into_the_current_frame_is_refused() {
    // Each level passes the address of its own local: the view would share one object across
    // levels, so the `alloca` is refused and no NO is claimed.
    let src = "int f(int *p, int n) { int x = n + *p; if (x == 0) return 0; return f(&x, n); }\nint main(void) { int a = 1; return f(&a, __VERIFIER_nondet_int()); }";
    let m = module(src);
    let view = tail_call_view(&m, m.function_by_name("f").unwrap()).expect("a view");
    assert!(encode_math_loop_step(&m, &view.function, &view.lp, 16).is_err());
    assert!(prove(src, IntSemantics::Math).is_none());
}

#[test]
fn infinite_recursions_get_a_rechecked_no() {
    let w = prove(COUNT_DOWN, IntSemantics::Math).expect("down(n) for n < 0 recurses forever over ℤ");
    assert!(w.recursion);
    assert_eq!(w.function, "down");
    assert!(w.depth >= 2);
    assert!(rechecks(COUNT_DOWN, &w));
    let w = prove(BUILD, IntSemantics::Math).expect("build(n) for n < 0 recurses forever over ℤ");
    assert!(rechecks(BUILD, &w));
    // Two call sites trap the argument between 4 and 5.
    let seek = "int seek(int x) { if (x == 7) return 1; if (x < 5) return seek(x + 1); return seek(x - 1); }\nint main(void) { return seek(__VERIFIER_nondet_int()); }";
    let w = prove(seek, IntSemantics::Math).expect("seek(x) for x <= 6 never returns");
    assert!(rechecks(seek, &w));
}

#[test]
fn terminating_recursions_get_no_no() {
    for src in [
        "int down(int n) { if (n <= 0) return 0; return down(n - 1) + 1; }\nint main(void) { return down(__VERIFIER_nondet_int()); }",
        "int settle(int x) { if (x == 7) return 1; if (x < 7) return settle(x + 1); return settle(x - 1); }\nint main(void) { return settle(__VERIFIER_nondet_int()); }",
        "int half(int n) { if (n < 2) return n; return half(n / 2); }\nint main(void) { return half(__VERIFIER_nondet_int()); }",
    ] {
        assert!(prove(src, IntSemantics::Math).is_none(), "{src}");
    }
}

#[test]
fn only_under_math() {
    // Under `c`, n - 1 overflows at INT_MIN: undefined behaviour, never a NO from this prover.
    assert!(prove(COUNT_DOWN, IntSemantics::C).is_none());
}

#[test]
fn a_tampered_witness_does_not_recheck() {
    let w = prove(COUNT_DOWN, IntSemantics::Math).expect("a NO");
    let n = Term::Var(Var::new(w.set.vars().into_iter().next().expect("a variable").name()));
    // A set the recursion leaves, a set the stem's state is not in, a loop witness, another depth.
    assert!(!rechecks(COUNT_DOWN, &RecurrentSetWitness { set: Formula::True, ..w.clone() }));
    assert!(!rechecks(COUNT_DOWN, &RecurrentSetWitness { set: Formula::ge(n, Term::Const(1)), ..w.clone() }));
    assert!(!rechecks(COUNT_DOWN, &RecurrentSetWitness { recursion: false, ..w.clone() }));
    assert!(!rechecks(COUNT_DOWN, &RecurrentSetWitness { depth: w.depth + 1, ..w.clone() }));
    assert!(!rechecks(COUNT_DOWN, &RecurrentSetWitness { stem_steps: w.stem_steps - 1, ..w.clone() }));
    // The loop re-check refuses it too (no loop has the entry block as header).
    let m = module(COUNT_DOWN);
    let entry = m.function_by_name("main").unwrap();
    assert!(!super::recheck::recheck(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::Math), &RecurrentSetWitness { recursion: false, ..w }, deadline()));
}

#[test]
fn a_null_check_of_a_fresh_block_is_folded() {
    // malloc never fails in the engine's model: `x == 0` is false, and the block stays write-only.
    let src = "struct c { int v; struct c *next; };\n\
               struct c *build(int n) { if (n == 0) return 0; struct c *x = malloc(sizeof(struct c)); if (x == 0) return 0; x->v = n; x->next = build(n > 0 ? n - 1 : n); return x; }\n\
               int main(void) { build(__VERIFIER_nondet_int()); return 0; }";
    let m = module(src);
    let view = tail_call_view(&m, m.function_by_name("build").unwrap()).expect("a view");
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).all(|i| !matches!(i.op, Op::Call { .. } | Op::Store { .. })));
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).any(|i| matches!(&i.op, Op::ICmp { lhs: Operand::Int { value: 1, .. }, rhs: Operand::Int { value: 0, .. }, .. })));
    assert!(prove(src, IntSemantics::Math).is_some());
}

fn prove_bits(src: &str) -> Option<crate::verdict::NonTerminationWitness> {
    let m = module(src);
    let entry = m.function_by_name("main").unwrap();
    super::recursion_bitvector::prove_nontermination(&m, &ModuleFacts::new(&m), entry, &config(IntSemantics::C), deadline())
}

#[test]
fn bit_precise_recursion_sets_under_c() {
    // An argument trapped between 4 and 5, one that stops changing: no overflow on the way.
    let w = prove_bits("int seek(int x) { if (x == 7) return 1; if (x < 5) return seek(x + 1); return seek(x - 1); }\nint main(void) { return seek(__VERIFIER_nondet_int()); }").expect("seek(x) for x <= 6 never returns");
    assert!(w.any_further_inputs && w.description[0].contains("seek"));
    assert!(prove_bits("int f(int x) { if (x <= 0) return 0; if (x % 2 == 0) return f(x - 2); return f(x); }\nint main(void) { return f(__VERIFIER_nondet_int()); }").is_some());
    // n - 1 overflows at INT_MIN under c: undefined behaviour, no NO.
    assert!(prove_bits(COUNT_DOWN).is_none());
    // Terminating.
    assert!(prove_bits("int settle(int x) { if (x == 7) return 1; if (x < 7) return settle(x + 1); return settle(x - 1); }\nint main(void) { return settle(__VERIFIER_nondet_int()); }").is_none());
}

#[test]
fn mutual_recursion_through_one_partner() {
    let ping = "int pong(int x);\nint ping(int x) { if (x == 0) return 0; return pong(x); }\nint pong(int x) { return ping(x); }\nint main(void) { return ping(__VERIFIER_nondet_int()); }";
    let m = module(ping);
    let view = tail_call_view(&m, m.function_by_name("ping").unwrap()).expect("a view");
    // pong's body is inlined: its call of ping is the back edge, and no call is left.
    assert!(view.function.blocks.iter().any(|b| b.name.starts_with("pong.")));
    assert!(view.function.blocks.iter().flat_map(|b| &b.instrs).all(|i| !matches!(i.op, Op::Call { .. })));
    let w = prove(ping, IntSemantics::Math).expect("ping(x) for x != 0 never returns");
    assert!(rechecks(ping, &w));
    assert!(prove_bits(ping).is_some());
    // even/odd counting down to 0 from n >= 0 (main returns on n < 0) terminates: no NO.
    let even = "int odd(int n);\nint even(int n) { if (n == 0) return 1; return odd(n - 1); }\nint odd(int n) { if (n == 0) return 0; return even(n - 1); }\nint main(void) { int n = __VERIFIER_nondet_int(); if (n < 0) return 0; return even(n); }";
    assert!(prove(even, IntSemantics::Math).is_none());
    assert!(prove_bits(even).is_none());
}

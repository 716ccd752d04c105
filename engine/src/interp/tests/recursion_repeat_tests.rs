//! `RunConfig::detect_recursion`: a function entered again, deeper, with equal registers and
//! memory while the first entry still runs is an infinite recursion; anything else is not.

use crate::driver::InputKind;
use crate::interp::{run, Outcome, RunConfig, SequenceInputs};
use crate::verdict::IntSemantics;

fn outcome(src: &str, inputs: Vec<i128>) -> Outcome {
    let m = crate::frontend::load_source(&format!("#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n{src}"), InputKind::C).expect("compiles");
    let cfg = RunConfig { detect_lasso: false, detect_recursion: true, ..RunConfig::new(IntSemantics::C, super::run_limits(), 200_000) };
    let main = m.function_by_name("main").expect("main");
    run(&m, &crate::facts::ModuleFacts::new(&m), main, &[], &cfg, &mut SequenceInputs::new(inputs, None)).outcome
}

#[test]
fn a_walk_around_a_cycle_repeats() {
    let src = "struct n { int v; struct n *next; };\n\
               int length(struct n *x) { if (x == 0) return 0; return 1 + length(x->next); }\n\
               int main(void) { struct n *a = malloc(sizeof *a), *b = malloc(sizeof *b); a->next = b; b->next = a; return length(a); }";
    let Outcome::RecursionLasso(l) = outcome(src, vec![]) else { panic!("no repeat") };
    assert_eq!(l.function, "length");
    // a, b, a: two levels apart.
    assert_eq!(l.depth, l.first_depth + 2);
    assert!(l.inputs_in_cycle.is_empty());
    // The same walk over a list that ends returns.
    let ends = src.replace("b->next = a;", "b->next = 0;");
    assert!(matches!(outcome(&ends, vec![]), Outcome::Returned(_)));
}

#[test]
fn an_entry_after_the_first_frame_returned_is_no_repeat() {
    // h(0) is entered at depth 2, returns, then entered at depth 3 with the same argument and
    // memory: the first frame is gone, so this is not a recursion.
    let src = "int h(int x) { return x; }\nint k(void) { return h(0); }\nint main(void) { h(0); return k(); }";
    assert_eq!(outcome(src, vec![]), Outcome::Returned(Some(0)));
}

#[test]
fn changing_memory_or_arguments_is_no_repeat() {
    // Infinite, but every level allocates: memory never repeats (no concrete claim).
    let grows = "void f(int x) { int *p = malloc(sizeof(int)); *p = x; f(x); }\nint main(void) { f(1); return 0; }";
    assert!(matches!(outcome(grows, vec![]), Outcome::DepthLimit | Outcome::StepLimit));
    let counts = "int f(int x) { if (x == 0) return 0; return f(x - 1); }\nint main(void) { return f(__VERIFIER_nondet_int()); }";
    assert!(matches!(outcome(counts, vec![-5]), Outcome::DepthLimit | Outcome::StepLimit));
    // The same argument again: a repeat one level deeper.
    let stuck = "int f(int x) { if (x == 0) return 0; return f(x); }\nint main(void) { return f(__VERIFIER_nondet_int()); }";
    assert!(matches!(outcome(stuck, vec![3]), Outcome::RecursionLasso(l) if l.depth == l.first_depth + 1));
    assert_eq!(outcome(stuck, vec![0]), Outcome::Returned(Some(0)));
}

//! The interpreter on C snippets compiled by the front end (clang-22 -O0 + mem2reg).

use crate::driver::InputKind;
use crate::interp::{kind, run, search_witness, Outcome, RunConfig, SearchBudget, SequenceInputs, WitnessKind};
use crate::ir::Module;
use crate::verdict::IntSemantics::{self, *};
use std::io::Write;
use std::time::{Duration, Instant};

fn load_c(text: &str) -> Module {
    let mut file = tempfile::Builder::new().suffix(".c").tempfile().expect("temp file");
    file.write_all(text.as_bytes()).expect("write");
    crate::frontend::load_module(file.path(), InputKind::C).expect("C snippet compiles")
}

const PRELUDE: &str = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n";

fn main_of(m: &Module) -> crate::ir::FuncId {
    m.function_by_name("main").expect("main")
}

fn run_c(text: &str, sem: IntSemantics, inputs: Vec<i128>) -> Outcome {
    let m = load_c(&format!("{PRELUDE}{text}"));
    let cfg = RunConfig::new(sem, super::run_limits(), 100_000);
    run(&m, &crate::facts::ModuleFacts::new(&m), main_of(&m), &[], &cfg, &mut SequenceInputs::new(inputs, None)).outcome
}

fn search_c(text: &str, sem: IntSemantics) -> Option<crate::interp::Witness> {
    let m = load_c(&format!("{PRELUDE}{text}"));
    let budget = SearchBudget { deadline: Instant::now() + Duration::from_secs(20), max_runs: 60, max_steps_per_run: 50_000, run: super::run_limits() };
    search_witness(&m, &crate::facts::ModuleFacts::new(&m), main_of(&m), sem, &budget)
}

#[test]
fn c_arithmetic_and_return_values() {
    let src = "int main(void) { int x = __VERIFIER_nondet_int(); unsigned u = x; return (int)(u / 3u) + x % 5; }";
    assert_eq!(run_c(src, C, vec![17]), Outcome::Returned(Some(5 + 2)));
    assert_eq!(run_c(src, C, vec![-1]), Outcome::Returned(Some((u32::MAX / 3) as i128 - 1)));
}

#[test]
fn c_signed_overflow_in_a_loop_condition_is_ub_under_c_only() {
    let src = "int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x = x + 1; return 0; }";
    assert_eq!(violation_kind(&run_c(src, C, vec![2147483000])), Some(kind::UNDEFINED_BEHAVIOUR));
    assert_eq!(run_c(src, Wrap, vec![2147483000]), Outcome::Returned(Some(0)));
    assert!(matches!(run_c(src, Math, vec![1]), Outcome::StepLimit));
}

fn violation_kind(o: &Outcome) -> Option<&str> {
    match o {
        Outcome::Violation { kind, .. } => Some(kind.as_str()),
        _ => None,
    }
}

#[test]
fn c_lasso_with_memory() {
    let src = "int main(void) { int *x = alloca(sizeof(int)); *x = __VERIFIER_nondet_int();
               while (*x != 0) { if (*x > 5) *x = *x - 1; } return 0; }";
    let w = search_c(src, C).expect("lasso");
    assert!(matches!(w.kind, WitnessKind::Lasso(_)), "{w:?}");
    assert!(w.inputs[0].1 > 0 && w.inputs[0].1 <= 5 || w.inputs[0].1 > 5);
}

#[test]
fn c_cyclic_list_search_does_not_terminate() {
    let src = "typedef struct node { int val; struct node *next; } node_t;
        node_t *init_cll(int n) { node_t *curr = malloc(sizeof(node_t)); node_t *head = curr; curr->val = 0;
          for (int i = 1; i < n; i++) { node_t *nn = malloc(sizeof(node_t)); nn->val = i; curr->next = nn; curr = nn; }
          curr->next = head; return head; }
        void search(node_t *head, int i) { node_t *curr = head; while (curr->val != i) curr = curr->next; }
        int main() { int n = __VERIFIER_nondet_int(); node_t *head = init_cll(n); search(head, __VERIFIER_nondet_int()); return 0; }";
    let w = search_c(src, C).expect("lasso");
    assert!(matches!(w.kind, WitnessKind::Lasso(_)), "{w:?}");
}

#[test]
fn c_memory_errors() {
    let df = "int main(void) { int *p = malloc(sizeof(int)); if (!p) return 0; *p = __VERIFIER_nondet_int();
              if (*p > 10) free(p); free(p); return 0; }";
    let w = search_c(df, C).expect("double free");
    assert_eq!(w.to_violation().map(|v| v.kind), Some(kind::DOUBLE_FREE.to_string()));
    let oob = "int main(void) { int a[4]; int i = __VERIFIER_nondet_int(); if (i < 0) return 0; a[i] = 1; return a[0]; }";
    let w = search_c(oob, C).expect("out of bounds");
    assert_eq!(w.to_violation().map(|v| v.kind), Some(kind::INVALID_WRITE.to_string()));
    let safe = "int main(void) { int a[4]; int i = __VERIFIER_nondet_int(); if (i < 0 || i > 3) return 0; a[i] = 1; return a[i]; }";
    assert!(search_c(safe, C).is_none());
}

#[test]
fn c_uninitialised_locals_are_fixed_arbitrary_values() {
    let src = "int main(void) { int x; int y = x; while (x != y) {} return 0; }";
    assert_eq!(run_c(src, C, vec![5]), Outcome::Returned(Some(0)));
}

#[test]
fn c_overflow_builtins() {
    let src = "int main(void) { int x = __VERIFIER_nondet_int(); int r; if (__builtin_add_overflow(x, 1, &r)) return -1; return r; }";
    assert_eq!(run_c(src, C, vec![41]), Outcome::Returned(Some(42)));
    assert_eq!(run_c(src, C, vec![i32::MAX as i128]), Outcome::Returned(Some(-1)));
    let src = "int main(void) { unsigned x = __VERIFIER_nondet_int(); unsigned r; return __builtin_umul_overflow(x, 2u, &r); }";
    assert_eq!(run_c(src, C, vec![1 << 31]), Outcome::Returned(Some(1)));
    assert_eq!(run_c(src, Math, vec![5]), Outcome::Returned(Some(0)));
}

#[test]
fn c_search_uses_the_program_constants() {
    // Only n == 1234 writes out of bounds.
    let src = "int main(void) { int a[4]; int n = __VERIFIER_nondet_int(); if (n != 1234) return 0; a[n % 1000] = 1; return a[0]; }";
    let w = search_c(src, C).expect("violation");
    assert_eq!(w.inputs, vec![("__VERIFIER_nondet_int".to_string(), 1234)]);
    assert_eq!(w.to_violation().map(|v| v.kind), Some(kind::INVALID_WRITE.to_string()));
}

#[test]
fn c_search_for_both_kinds_of_witness() {
    // n < 0: loops forever; n > 100: writes out of bounds.
    let src = "int main(void) { int a[4]; int n = __VERIFIER_nondet_int();
               if (n > 100) { a[n % 8] = 1; return a[1]; } while (n < 0) {} return 0; }";
    let m = load_c(&format!("{PRELUDE}{src}"));
    let budget = SearchBudget { deadline: Instant::now() + Duration::from_secs(20), max_runs: 100, max_steps_per_run: 50_000, run: super::run_limits() };
    let both = crate::interp::search_witnesses(&m, &crate::facts::ModuleFacts::new(&m), main_of(&m), C, &budget);
    assert!(both.lasso.is_some_and(|w| w.inputs[0].1 < 0));
    assert!(both.violation.is_some_and(|w| w.inputs[0].1 > 100 && w.inputs[0].1 % 8 >= 4));
}

#[test]
fn c_heap_violations_name_the_variable_and_the_allocation_site() {
    // issue 13: a heap block reads like an array of the pointer it was stored to, with the
    // `malloc` call's line.
    let src = "int main(void) {\n int *p = malloc(4 * sizeof(int));\n for (int i = 0; i <= 4; i++) p[i] = i;\n return p[0]; }";
    let Outcome::Violation { message, .. } = run_c(src, C, vec![]) else { panic!("no violation") };
    assert!(message.contains("i.e. `p[4]` of the 4-element array `p`"), "{message}");
    assert!(message.contains("(allocated by `malloc` at ") && message.ends_with(":5)"), "{message}");
    let freed = "int main(void) {\n int *q = malloc(sizeof(int));\n free(q);\n return *q; }";
    let Outcome::Violation { kind: k, message, .. } = run_c(freed, C, vec![]) else { panic!("no violation") };
    assert_eq!(k, kind::USE_AFTER_FREE);
    assert!(message.contains(": the object `q` (allocated by `malloc` at "), "{message}");
}

//! Which functions the symbolic execution analyses through summaries (seed 002) instead of
//! inlining: the members of recursive call-graph components whose reachable code never
//! touches memory.
//!
//! Why only memory-free code for now: a summary's entry state is the call state abstracted to
//! its top frame. Its heap would have to carry the caller's allocations and points-to facts
//! and link their contents to the return states (the VI component of seed 002); without that,
//! every load of caller memory would be an error state and give "memory safety unknown".
//! A function that reads no memory (no `alloca`, load, store, global address, memory
//! intrinsic or allocation function, directly or in any function it may call) needs none of
//! it: its entry state is its parameters and their facts, and the caller's heap is unchanged
//! by the call. Recursive functions that do touch memory stay unsupported (MAYBE with that
//! reason) until the heap components are summarized as well.

use crate::facts::liveness::operands;
use crate::ir::callgraph::CallGraph;
use crate::ir::externals::{classify, External};
use crate::ir::{Callee, Function, Module, Op, Operand, Terminator};

/// Per function (by `FuncId`): true iff calls of it are summarized (see the module docs).
pub fn summarized_functions(module: &Module) -> Vec<bool> {
    let cg = CallGraph::new(module);
    let n = module.functions.len();
    let own: Vec<bool> = module.functions.iter().map(|f| !f.is_declaration() && memory_free_body(module, f)).collect();
    // Closed under calls: components bottom-up, so every callee component is decided first.
    let mut free = vec![false; n];
    for scc in &cg.sccs {
        let members_free = scc.iter().all(|f| own[f.0 as usize]);
        let callees_free = scc.iter().all(|f| {
            cg.callees[f.0 as usize].iter().all(|g| scc.contains(g) || free[g.0 as usize])
        });
        let ok = members_free && callees_free;
        for f in scc {
            free[f.0 as usize] = ok;
        }
    }
    let mut out = vec![false; n];
    for (k, scc) in cg.sccs.iter().enumerate() {
        if !cg.is_recursive(k) {
            continue;
        }
        for f in scc {
            out[f.0 as usize] = free[f.0 as usize];
        }
    }
    out
}

/// The body itself (not its callees) reads and writes no memory and names no global.
fn memory_free_body(module: &Module, f: &Function) -> bool {
    let global = |o: &Operand| matches!(o, Operand::Global(_) | Operand::Unsupported(_));
    for block in &f.blocks {
        for instr in &block.instrs {
            match &instr.op {
                Op::Alloca { .. } | Op::Load { .. } | Op::Store { .. } | Op::Unsupported { .. } => return false,
                Op::Phi { incoming, .. } => {
                    if incoming.iter().any(|(o, _)| global(o)) {
                        return false;
                    }
                }
                Op::Call { callee, .. } => match callee {
                    Callee::Direct(g) => {
                        let Some(gf) = module.functions.get(g.0 as usize) else { return false };
                        if gf.is_declaration() && !pure_external(&gf.name) {
                            return false;
                        }
                    }
                    Callee::Indirect(_) | Callee::Unsupported(_) => return false,
                },
                _ => {}
            }
            match operands(&instr.op) {
                Some(ops) => {
                    if ops.into_iter().any(global) {
                        return false;
                    }
                }
                None => return false,
            }
        }
        match &block.terminator {
            Terminator::Ret(Some(o)) | Terminator::CondBr { cond: o, .. } | Terminator::Switch { value: o, .. } => {
                if global(o) {
                    return false;
                }
            }
            Terminator::Unsupported { .. } => return false,
            _ => {}
        }
    }
    true
}

/// Declared functions that neither read nor write memory (their effects are on registers,
/// the nondeterministic input, or end the program).
fn pure_external(name: &str) -> bool {
    matches!(
        classify(name),
        External::NoOp(_)
            | External::Expect
            | External::MinMax(_)
            | External::Abs
            | External::Arith { .. }
            | External::Assume
            | External::VerifierAssume
            | External::Nondet { .. }
            | External::Exit
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;

    fn summarized(src: &str) -> Vec<(String, bool)> {
        let m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
        let s = summarized_functions(&m);
        m.functions.iter().zip(s).filter(|(f, _)| !f.is_declaration()).map(|(f, b)| (f.name.clone(), b)).collect()
    }

    #[test]
    fn recursive_register_functions_are_summarized() {
        let got = summarized(
            "int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }\n\
             int even(int n); int odd(int n) { return n == 0 ? 0 : even(n - 1); }\n\
             int even(int n) { return n == 0 ? 1 : odd(n - 1); }\n\
             int id(int x) { return x; }\n\
             int main(void) { return fact(3) + even(4) + id(1); }",
        );
        assert!(got.contains(&("fact".into(), true)), "{got:?}");
        assert!(got.contains(&("odd".into(), true)), "{got:?}");
        assert!(got.contains(&("even".into(), true)), "{got:?}");
        // not recursive: inlined as before
        assert!(got.contains(&("id".into(), false)), "{got:?}");
        assert!(got.contains(&("main".into(), false)), "{got:?}");
    }

    #[test]
    fn recursion_through_memory_is_not_summarized() {
        let got = summarized(
            "int g;\n\
             int sum(int *p, int n) { if (n <= 0) return 0; return *p + sum(p + 1, n - 1); }\n\
             int glob(int n) { if (n <= 0) return g; return glob(n - 1); }\n\
             int leaf(int *p) { return *p; }\n\
             int calls_leaf(int *p, int n) { if (n <= 0) return leaf(p); return calls_leaf(p, n - 1); }\n\
             int main(void) { int a[2] = {1, 2}; return sum(a, 2) + glob(2) + calls_leaf(a, 1); }",
        );
        assert!(got.contains(&("sum".into(), false)), "{got:?}");
        assert!(got.contains(&("glob".into(), false)), "{got:?}");
        assert!(got.contains(&("calls_leaf".into(), false)), "{got:?}");
    }
}

//! Which functions the symbolic execution analyses through summaries (seed 002) instead of
//! inlining: the members of recursive call-graph components, and how much of the caller's
//! state their entry states carry.
//!
//! A summary's entry state is the call state abstracted to its top frame. For a function whose
//! reachable code never touches memory (no `alloca`, load, store, global address, memory
//! intrinsic or allocation function, directly or in any function it may call) that is its
//! parameters and their facts: the caller's heap is unchanged by the call and stays out of the
//! entry (`Summarized::Registers`), which keeps entries small and general. Every other
//! recursive function gets the caller's whole memory in its entry states
//! (`Summarized::WithMemory`): its allocations (the caller frames' stack memory as foreign
//! memory the callee can neither free nor pop), its points-to facts, and return states that
//! say what the callee left in memory.

use crate::facts::liveness::operands;
use crate::ir::callgraph::CallGraph;
use crate::ir::externals::{classify, External};
use crate::ir::{Callee, Function, Module, Op, Operand, Terminator};

/// How calls of a function are analysed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Summarized {
    /// Inlined: a frame is pushed on the caller's stack (not recursive).
    No,
    /// Through summaries whose entry states hold the parameters only (memory-free code).
    Registers,
    /// Through summaries whose entry states hold the caller's memory as well.
    WithMemory,
}

/// Per function (by `FuncId`): how calls of it are analysed (see the module docs).
pub fn summarized_functions(module: &Module) -> Vec<Summarized> {
    let cg = CallGraph::new(module);
    let n = module.functions.len();
    let free = memory_free_functions(module, &cg);
    let mut out = vec![Summarized::No; n];
    for (k, scc) in cg.sccs.iter().enumerate() {
        if !cg.is_recursive(k) {
            continue;
        }
        for f in scc {
            out[f.0 as usize] = if free[f.0 as usize] { Summarized::Registers } else { Summarized::WithMemory };
        }
    }
    out
}

/// Per function (by `FuncId`): whether its reachable code never touches memory (no `alloca`,
/// load, store, global address, memory intrinsic or allocation function, in its body or in
/// any function it may call). Declarations are `false`.
pub fn memory_free_functions(module: &Module, cg: &CallGraph) -> Vec<bool> {
    let own: Vec<bool> = module.functions.iter().map(|f| !f.is_declaration() && memory_free_body(module, f)).collect();
    // Closed under calls: components bottom-up, so every callee component is decided first.
    let mut free = vec![false; module.functions.len()];
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
    free
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

    fn summarized(src: &str) -> Vec<(String, Summarized)> {
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
        assert!(got.contains(&("fact".into(), Summarized::Registers)), "{got:?}");
        assert!(got.contains(&("odd".into(), Summarized::Registers)), "{got:?}");
        assert!(got.contains(&("even".into(), Summarized::Registers)), "{got:?}");
        // not recursive: inlined as before
        assert!(got.contains(&("id".into(), Summarized::No)), "{got:?}");
        assert!(got.contains(&("main".into(), Summarized::No)), "{got:?}");
    }

    #[test]
    fn recursion_through_memory_carries_the_memory() {
        let got = summarized(
            "int g;\n\
             int sum(int *p, int n) { if (n <= 0) return 0; return *p + sum(p + 1, n - 1); }\n\
             int glob(int n) { if (n <= 0) return g; return glob(n - 1); }\n\
             int leaf(int *p) { return *p; }\n\
             int calls_leaf(int *p, int n) { if (n <= 0) return leaf(p); return calls_leaf(p, n - 1); }\n\
             int main(void) { int a[2] = {1, 2}; return sum(a, 2) + glob(2) + calls_leaf(a, 1); }",
        );
        assert!(got.contains(&("sum".into(), Summarized::WithMemory)), "{got:?}");
        assert!(got.contains(&("glob".into(), Summarized::WithMemory)), "{got:?}");
        assert!(got.contains(&("calls_leaf".into(), Summarized::WithMemory)), "{got:?}");
        assert!(got.contains(&("leaf".into(), Summarized::No)), "{got:?}");
    }
}

//! Static per-function facts, computed once per module and shared by every analysis that
//! needs them (symbolic execution, the interpreter's lasso detection, the bit-vector provers):
//! loop headers, natural loops, liveness, value types, pointer congruences, power-of-two
//! parities, and the module-wide signed/unsigned views.
//!
//! `ModuleFacts` is plain owned data (`Send + Sync`): each function's facts are computed on
//! first use behind a `OnceLock`, so parallel analyses of one module share them. The IR does
//! not change during an analysis, so a fact computed once holds for every later reader.

pub mod congruence;
pub mod liveness;
pub mod loops;
pub mod parity;
pub mod recursion;
pub mod views;

use crate::ir::{BlockId, CastOp, FuncId, Function, Module, Op, Type, ValueId};
use liveness::AggregateOperands;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The facts of one function.
#[derive(Clone, Debug)]
pub struct FunctionFacts {
    /// `loop_headers[b]`: block `b` is the target of a back edge of the DFS from the entry
    /// (symbolic execution generalizes there, the interpreter compares states there).
    pub loop_headers: Vec<bool>,
    /// Natural loops (dominator based) for the bit-vector provers.
    pub loops: loops::LoopForest,
    /// Per block: the values live at its end, phi operands of successors included, with the
    /// operands of `extractvalue`/`insertvalue` *not* counted as uses — the rule symbolic
    /// execution has always used (it keeps aggregates out of LV otherwise); see `live_at`.
    pub live_out: Vec<BTreeSet<ValueId>>,
    /// Per block and value: may the value be read after the block's phis ran (every operand
    /// counted) — the interpreter's rule for comparing states.
    pub live_after_phis: Vec<Vec<bool>>,
    /// The type of every local (`Function::value_types`).
    pub value_types: Vec<Option<Type>>,
    /// `value_types` without the types a definition only derives (results of `bitcast`,
    /// `extractvalue`, `insertvalue`): the types symbolic execution reads (unchanged rule).
    pub stated_types: Vec<Option<Type>>,
    /// Pointer offset congruences per local (`congruence`).
    pub congruences: Vec<congruence::Cong>,
    /// Power-of-two divisibility exponent per local (`parity`).
    pub parity: Vec<u32>,
}

impl FunctionFacts {
    pub fn compute(f: &Function) -> FunctionFacts {
        let value_types = f.value_types();
        let mut stated_types = value_types.clone();
        for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
            let derived = matches!(instr.op, Op::Cast { op: CastOp::BitCast, .. } | Op::ExtractValue { .. } | Op::InsertValue { .. });
            if let (true, Some(r)) = (derived, instr.result) {
                if let Some(slot) = stated_types.get_mut(r.0 as usize) {
                    *slot = None;
                }
            }
        }
        let counted = liveness::live_out(f, AggregateOperands::Counted);
        FunctionFacts {
            loop_headers: liveness::loop_headers(f),
            loops: loops::natural_loops(f),
            live_after_phis: liveness::after_phis(f, &counted),
            live_out: liveness::live_out(f, AggregateOperands::Ignored),
            value_types,
            stated_types,
            congruences: congruence::analyze(f),
            parity: parity::analyze(f),
        }
    }

    pub fn is_loop_header(&self, b: BlockId) -> bool {
        self.loop_headers.get(b.0 as usize).copied().unwrap_or(false)
    }

    /// Values live just before instruction `idx` of block `b` of `f` (phis of `b` count as
    /// already executed: their results are live if used later), by `live_out`'s rule.
    pub fn live_at(&self, f: &Function, b: BlockId, idx: usize) -> BTreeSet<ValueId> {
        let block = f.block(b);
        let mut live = self.live_out.get(b.0 as usize).cloned().unwrap_or_default();
        liveness::terminator_uses(&block.terminator, &mut live);
        for instr in block.instrs[idx.min(block.instrs.len())..].iter().rev() {
            if matches!(instr.op, Op::Phi { .. }) {
                continue;
            }
            if let Some(r) = instr.result {
                live.remove(&r);
            }
            liveness::op_uses(&instr.op, AggregateOperands::Ignored, &mut live);
        }
        live
    }
}

/// The facts of every function of one module, each computed on first use.
#[derive(Debug)]
pub struct ModuleFacts {
    functions: Vec<OnceLock<FunctionFacts>>,
    views: OnceLock<Vec<Vec<views::View>>>,
    summarized: OnceLock<Vec<recursion::Summarized>>,
    memory_free: OnceLock<Vec<bool>>,
    global_reach: OnceLock<Vec<crate::ir::global_reach::Reach>>,
}

impl ModuleFacts {
    /// Empty facts for `module` (nothing is computed yet). Use it only with that module.
    pub fn new(module: &Module) -> ModuleFacts {
        ModuleFacts { functions: module.functions.iter().map(|_| OnceLock::new()).collect(), views: OnceLock::new(), summarized: OnceLock::new(), memory_free: OnceLock::new(), global_reach: OnceLock::new() }
    }

    /// The facts of function `f` of `module` (the module these facts were made for).
    pub fn function(&self, module: &Module, f: FuncId) -> &FunctionFacts {
        debug_assert_eq!(self.functions.len(), module.functions.len(), "facts of another module");
        self.functions[f.0 as usize].get_or_init(|| FunctionFacts::compute(module.function(f)))
    }

    /// The signed/unsigned view of every integer local of every function (module-wide
    /// inference, see `views`).
    pub fn views(&self, module: &Module) -> &[Vec<views::View>] {
        self.views.get_or_init(|| views::infer_module(module))
    }

    /// Whether calls of `f` go through summaries instead of inlining (`recursion`).
    pub fn summarized(&self, module: &Module, f: FuncId) -> recursion::Summarized {
        self.summarized.get_or_init(|| recursion::summarized_functions(module)).get(f.0 as usize).copied().unwrap_or(recursion::Summarized::No)
    }

    /// Whether `f`'s reachable code never touches memory (`recursion::memory_free_functions`).
    pub fn memory_free(&self, module: &Module, f: FuncId) -> bool {
        let free = self.memory_free.get_or_init(|| recursion::memory_free_functions(module, &crate::ir::callgraph::CallGraph::new(module)));
        free.get(f.0 as usize).copied().unwrap_or(false)
    }

    /// The globals a run that starts in `f` can reach (`ir::global_reach`; all of them for a
    /// function the module does not have).
    pub fn reachable_globals(&self, module: &Module, f: FuncId) -> &crate::ir::global_reach::Reach {
        let reach = self.global_reach.get_or_init(|| crate::ir::global_reach::reachable_globals(module, &crate::ir::callgraph::CallGraph::new(module)));
        reach.get(f.0 as usize).unwrap_or(&crate::ir::global_reach::Reach::All)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn facts_are_send_and_sync() {
        assert_send_sync::<ModuleFacts>();
    }
}

//! The call graph of a module: every call site per function, direct call edges between
//! defined functions, their strongly connected components and a bottom-up order (callees
//! before callers) — the order in which a modular analysis summarizes functions.

use super::{BlockId, Callee, FuncId, Module, Op};
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

/// What a call site calls.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CallTarget {
    /// A function of the module with a body.
    Defined(FuncId),
    /// A declaration (library function, intrinsic): see `ir::externals::classify`.
    Declared(FuncId),
    /// A call through a function pointer.
    Indirect,
    /// Inline assembly or another callee the front end did not translate.
    Unsupported,
}

/// One call instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CallSite {
    pub block: BlockId,
    /// Index of the call in the block's instructions.
    pub index: usize,
    pub target: CallTarget,
}

impl CallSite {
    pub fn is_indirect(&self) -> bool {
        self.target == CallTarget::Indirect
    }
    pub fn calls_declaration(&self) -> bool {
        matches!(self.target, CallTarget::Declared(_))
    }
}

/// The call graph of one module (plain owned data).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CallGraph {
    /// Per function (by `FuncId`): its call sites in block and instruction order.
    pub sites: Vec<Vec<CallSite>>,
    /// Per function: the defined functions it calls directly (sorted, without duplicates).
    pub callees: Vec<Vec<FuncId>>,
    /// The strongly connected components of the defined functions, bottom-up: every callee
    /// of a member lies in the same or an earlier component. Members sorted by `FuncId`.
    pub sccs: Vec<Vec<FuncId>>,
    /// Per function: the index of its component in `sccs` (`None` for declarations).
    pub scc_of: Vec<Option<usize>>,
}

impl CallGraph {
    pub fn new(module: &Module) -> CallGraph {
        let n = module.functions.len();
        let defined = |f: FuncId| module.functions.get(f.0 as usize).is_some_and(|g| !g.is_declaration());
        let mut sites = vec![Vec::new(); n];
        let mut callees = vec![Vec::new(); n];
        for (i, func) in module.functions.iter().enumerate() {
            for (b, block) in func.blocks.iter().enumerate() {
                for (index, instr) in block.instrs.iter().enumerate() {
                    let Op::Call { callee, .. } = &instr.op else { continue };
                    let target = match callee {
                        Callee::Direct(g) if defined(*g) => CallTarget::Defined(*g),
                        Callee::Direct(g) if (g.0 as usize) < n => CallTarget::Declared(*g),
                        Callee::Direct(_) | Callee::Unsupported(_) => CallTarget::Unsupported,
                        Callee::Indirect(_) => CallTarget::Indirect,
                    };
                    if let CallTarget::Defined(g) = target {
                        callees[i].push(g);
                    }
                    sites[i].push(CallSite { block: BlockId(b as u32), index, target });
                }
            }
            callees[i].sort();
            callees[i].dedup();
        }
        let mut graph: DiGraph<FuncId, ()> = DiGraph::new();
        let nodes: Vec<Option<NodeIndex>> =
            (0..n as u32).map(FuncId).map(|f| defined(f).then(|| graph.add_node(f))).collect();
        for (i, cs) in callees.iter().enumerate() {
            let Some(from) = nodes[i] else { continue };
            for g in cs {
                if let Some(to) = nodes[g.0 as usize] {
                    graph.add_edge(from, to, ());
                }
            }
        }
        // Tarjan's algorithm yields the components in reverse topological order of the
        // caller → callee edges: callees first.
        let mut sccs: Vec<Vec<FuncId>> = tarjan_scc(&graph).into_iter().map(|c| c.into_iter().map(|x| graph[x]).collect()).collect();
        let mut scc_of = vec![None; n];
        for (k, scc) in sccs.iter_mut().enumerate() {
            scc.sort();
            for f in scc.iter() {
                scc_of[f.0 as usize] = Some(k);
            }
        }
        CallGraph { sites, callees, sccs, scc_of }
    }

    /// The defined functions, callees before callers (members of one component together).
    pub fn bottom_up(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.sccs.iter().flatten().copied()
    }

    /// Whether component `k` is recursive: more than one member, or a member calling itself.
    pub fn is_recursive(&self, k: usize) -> bool {
        match self.sccs.get(k).map(Vec::as_slice) {
            Some([f]) => self.callees[f.0 as usize].contains(f),
            Some(members) => members.len() > 1,
            None => false,
        }
    }

    /// The components the members of component `k` call directly (other than `k`), sorted.
    pub fn callee_sccs(&self, k: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self.sccs[k]
            .iter()
            .flat_map(|f| &self.callees[f.0 as usize])
            .filter_map(|g| self.scc_of[g.0 as usize])
            .filter(|c| *c != k)
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;

    const PROGRAM: &str = r#"
        extern int ext(int);
        int leaf(int x) { return x + 1; }
        int even(int n);
        int odd(int n) { return n == 0 ? 0 : even(n - 1); }
        int even(int n) { return n == 0 ? 1 : odd(n - 1); }
        int self_rec(int n) { return n <= 0 ? 0 : self_rec(n - 1) + leaf(n); }
        int apply(int (*f)(int), int x) { return f(x); }
        int main(void) { return apply(leaf, 1) + even(4) + self_rec(3) + ext(2) + leaf(0); }
    "#;

    fn id(m: &Module, name: &str) -> FuncId {
        m.function_by_name(name).unwrap_or_else(|| panic!("{name}"))
    }

    #[test]
    fn sites_edges_components_and_bottom_up_order() {
        let m = crate::frontend::load_source(PROGRAM, InputKind::C).expect("compiles");
        let cg = CallGraph::new(&m);
        let main = id(&m, "main");
        let (leaf, even, odd, self_rec, apply) = (id(&m, "leaf"), id(&m, "even"), id(&m, "odd"), id(&m, "self_rec"), id(&m, "apply"));
        assert!(cg.sites[apply.0 as usize].iter().any(|s| s.is_indirect()));
        assert!(cg.callees[apply.0 as usize].is_empty());
        let sites = &cg.sites[main.0 as usize];
        assert!(!sites.iter().any(|s| s.is_indirect()));
        assert_eq!(sites.iter().filter(|s| s.calls_declaration()).count(), 1);
        let mut direct = vec![leaf, even, self_rec, apply];
        direct.sort();
        assert_eq!(cg.callees[main.0 as usize], direct);
        // even ⇄ odd is one recursive component, self_rec another, leaf and main trivial.
        let k = cg.scc_of[even.0 as usize].expect("defined");
        assert_eq!(cg.scc_of[odd.0 as usize], Some(k));
        assert!(cg.is_recursive(k));
        assert!(cg.is_recursive(cg.scc_of[self_rec.0 as usize].expect("defined")));
        assert!(!cg.is_recursive(cg.scc_of[leaf.0 as usize].expect("defined")));
        assert_eq!(cg.scc_of[id(&m, "ext").0 as usize], None);
        // Bottom-up: every callee's component comes before its caller's.
        let pos = |f: FuncId| cg.bottom_up().position(|g| g == f).expect("listed");
        for f in cg.bottom_up() {
            for g in &cg.callees[f.0 as usize] {
                assert!(cg.scc_of[g.0 as usize] == cg.scc_of[f.0 as usize] || pos(*g) < pos(f));
            }
        }
        assert_eq!(cg.bottom_up().count(), 6);
        let main_scc = cg.scc_of[main.0 as usize].expect("defined");
        assert_eq!(cg.callee_sccs(main_scc).len(), 4);
    }
}

//! Stable content hashes of functions, the future summary cache's keys.
//!
//! - The *own* hash of a function covers its whole IR (parameters and their attributes,
//!   linkage, blocks, instructions, debug locations, value names) and the module's pointer
//!   width. Other functions and globals are named by *name*, never by their positional
//!   `FuncId`/`GlobalId`: before hashing, the referenced functions and globals are renumbered
//!   in the order the function first mentions them, and that list is hashed with, per entry,
//!   the name; for a declaration also its signature; for a global its size and constness and,
//!   for a constant, its contents. So adding, removing or reordering unrelated functions and
//!   globals leaves the hash alone.
//! - The *deep* hash of a call-graph component (see `callgraph`) covers the own hashes of its
//!   members and the deep hashes of the components they call: changing one function changes
//!   exactly the deep hashes of the components that reach it.

use super::callgraph::CallGraph;
use super::{Callee, FuncId, Function, GlobalId, GlobalInit, Module, Op, Operand, Terminator};
use serde::Serialize;
use std::collections::HashMap;

/// A 256-bit blake3 content hash.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct ContentHash(pub [u8; 32]);

impl std::fmt::Display for ContentHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Own and deep hashes of every function of a module.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ModuleHashes {
    /// Per function (by `FuncId`): the hash of its own IR.
    pub own: Vec<ContentHash>,
    /// Per call-graph component (by index in `CallGraph::sccs`): the deep hash.
    pub deep_scc: Vec<ContentHash>,
    /// Per function: the deep hash of its component (`None` for declarations).
    pub deep: Vec<Option<ContentHash>>,
}

impl ModuleHashes {
    pub fn new(module: &Module, callgraph: &CallGraph) -> ModuleHashes {
        let own: Vec<ContentHash> = (0..module.functions.len() as u32).map(|f| own_hash(module, FuncId(f))).collect();
        let mut deep_scc: Vec<ContentHash> = Vec::with_capacity(callgraph.sccs.len());
        // Components are bottom-up: callee components are hashed before their callers.
        for (k, members) in callgraph.sccs.iter().enumerate() {
            let mut member_hashes: Vec<(&str, ContentHash)> =
                members.iter().map(|f| (module.function(*f).name.as_str(), own[f.0 as usize])).collect();
            member_hashes.sort();
            let mut callee_hashes: Vec<ContentHash> = callgraph.callee_sccs(k).into_iter().map(|c| deep_scc[c]).collect();
            callee_hashes.sort();
            let mut h = blake3::Hasher::new();
            h.update(b"termcheck deep hash v1\0");
            for (_, x) in &member_hashes {
                h.update(&x.0);
            }
            h.update(b"callees\0");
            for x in &callee_hashes {
                h.update(&x.0);
            }
            deep_scc.push(ContentHash(*h.finalize().as_bytes()));
        }
        let deep = callgraph.scc_of.iter().map(|k| k.map(|k| deep_scc[k])).collect();
        ModuleHashes { own, deep_scc, deep }
    }
}

/// What a function refers to, by name (in the order of first mention).
#[derive(Serialize)]
enum Referenced<'a> {
    Defined { name: &'a str },
    Declared { name: &'a str, signature: (&'a [(super::ValueId, super::Type)], &'a super::Type, bool) },
    Missing,
    Global { name: &'a str, size: u64, is_constant: bool, contents: Option<&'a GlobalInit> },
}

/// The hash of one function's own IR, independent of the positions of other functions and
/// globals in the module.
pub fn own_hash(module: &Module, f: FuncId) -> ContentHash {
    let mut func = module.function(f).clone();
    let mut order: Vec<Ref> = Vec::new();
    let mut index: HashMap<Ref, u32> = HashMap::new();
    let mut local = |r: Ref| {
        let next = order.len() as u32;
        *index.entry(r).or_insert_with(|| {
            order.push(r);
            next
        })
    };
    visit_refs(&mut func, &mut |r| match r {
        RefMut::Function(g) => *g = FuncId(local(Ref::Function(*g))),
        RefMut::Global(g) => *g = GlobalId(local(Ref::Global(*g))),
    });
    let referenced: Vec<Referenced<'_>> = order
        .iter()
        .map(|r| match *r {
            Ref::Function(g) => match module.functions.get(g.0 as usize) {
                Some(d) if d.is_declaration() => Referenced::Declared { name: &d.name, signature: (&d.params, &d.ret, d.is_vararg) },
                Some(d) => Referenced::Defined { name: &d.name },
                None => Referenced::Missing,
            },
            Ref::Global(g) => match module.globals.get(g.0 as usize) {
                Some(x) => Referenced::Global { name: &x.name, size: x.size, is_constant: x.is_constant, contents: x.is_constant.then_some(&x.init) },
                None => Referenced::Missing,
            },
        })
        .collect();
    #[derive(Serialize)]
    struct Canonical<'a> {
        version: u32,
        pointer_bits: u32,
        function: &'a Function,
        referenced: Vec<Referenced<'a>>,
    }
    let canonical = Canonical { version: 1, pointer_bits: module.pointer_bits, function: &func, referenced };
    // Serializing owned IR (strings, numbers, enums) cannot fail.
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    ContentHash(*blake3::hash(&bytes).as_bytes())
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Ref {
    Function(FuncId),
    Global(GlobalId),
}

/// A positional reference inside a function's IR.
pub enum RefMut<'a> {
    Function(&'a mut FuncId),
    Global(&'a mut GlobalId),
}

/// Calls `visit` on every reference to another function or a global in `func`, in block and
/// instruction order.
pub fn visit_refs(func: &mut Function, visit: &mut dyn FnMut(RefMut<'_>)) {
    for block in &mut func.blocks {
        for instr in &mut block.instrs {
            visit_op(&mut instr.op, visit);
        }
        match &mut block.terminator {
            Terminator::CondBr { cond: o, .. } | Terminator::Switch { value: o, .. } | Terminator::Ret(Some(o)) | Terminator::Resume(o) => visit_operand(o, visit),
            Terminator::Br(_) | Terminator::Ret(None) | Terminator::Unreachable | Terminator::Invoke { .. } | Terminator::Unsupported { .. } => {}
        }
    }
}

fn visit_operand(o: &mut Operand, visit: &mut dyn FnMut(RefMut<'_>)) {
    match o {
        Operand::Function(g) => visit(RefMut::Function(g)),
        Operand::Global(g) => visit(RefMut::Global(g)),
        Operand::Local(_) | Operand::Int { .. } | Operand::NullPtr | Operand::Undef(_) | Operand::Poison(_) | Operand::Unsupported(_) => {}
    }
}

fn visit_op(op: &mut Op, visit: &mut dyn FnMut(RefMut<'_>)) {
    match op {
        Op::Alloca { count, .. } => visit_operand(count, visit),
        Op::Load { ptr, .. } => visit_operand(ptr, visit),
        Op::Store { value, ptr, .. } => {
            visit_operand(value, visit);
            visit_operand(ptr, visit);
        }
        Op::PtrAdd { base, indices, .. } => {
            visit_operand(base, visit);
            indices.iter_mut().for_each(|i| visit_operand(&mut i.value, visit));
        }
        Op::Bin { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } => {
            visit_operand(lhs, visit);
            visit_operand(rhs, visit);
        }
        Op::Cast { value, .. } | Op::Freeze { value, .. } => visit_operand(value, visit),
        Op::Select { cond, then_value, else_value, .. } => {
            visit_operand(cond, visit);
            visit_operand(then_value, visit);
            visit_operand(else_value, visit);
        }
        Op::Phi { incoming, .. } => incoming.iter_mut().for_each(|(o, _)| visit_operand(o, visit)),
        Op::Call { callee, args, .. } => {
            match callee {
                Callee::Direct(g) => visit(RefMut::Function(g)),
                Callee::Indirect(o) => visit_operand(o, visit),
                Callee::Unsupported(_) => {}
            }
            args.iter_mut().for_each(|a| visit_operand(a, visit));
        }
        Op::ExtractValue { agg, .. } => visit_operand(agg, visit),
        Op::InsertValue { agg, value, .. } => {
            visit_operand(agg, visit);
            visit_operand(value, visit);
        }
        Op::LandingPad { .. } | Op::Unsupported { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;

    const LEAF: &str = "int leaf(int x) { return x + 1; }";
    const LEAF_EDITED: &str = "int leaf(int x) { return x + 2; }";
    const REST: &str = r#"
        const int table[2] = {3, 4};
        int counter;
        int mid(int x) { return leaf(x) + table[x & 1]; }
        int top(int x) { counter++; return mid(x); }
        int other(int x) { return x; }
        int main(void) { return top(1) + other(2); }
    "#;

    /// `src` compiled, with the temporary file's name replaced by a fixed one in every
    /// location (a real program's path is stable; the test's temporary file is not).
    fn load(src: &str) -> Module {
        let mut m = crate::frontend::load_source(src, InputKind::C).expect("compiles");
        for f in &mut m.functions {
            let locs = f.loc.iter_mut().chain(f.blocks.iter_mut().flat_map(|b| b.instrs.iter_mut().filter_map(|i| i.loc.as_mut()).chain(b.term_loc.as_mut())));
            locs.for_each(|l| l.file = "t.c".into());
        }
        m
    }

    fn hashes(src: &str) -> (Module, ModuleHashes) {
        let m = load(src);
        let cg = CallGraph::new(&m);
        let h = ModuleHashes::new(&m, &cg);
        (m, h)
    }

    fn by_name(m: &Module, h: &ModuleHashes, name: &str) -> (ContentHash, Option<ContentHash>) {
        let f = m.function_by_name(name).unwrap_or_else(|| panic!("{name}"));
        (h.own[f.0 as usize], h.deep[f.0 as usize])
    }

    const DEFINED: [&str; 5] = ["leaf", "mid", "top", "other", "main"];

    /// `m` with its functions in reverse order, an unrelated function and a global inserted
    /// first, every reference renumbered.
    fn reordered(m: &Module) -> Module {
        let n = m.functions.len() as u32;
        // old function i goes to n - i (0 is the new function); old global j to j + 1
        let mut functions: Vec<Function> = m.functions.iter().rev().cloned().collect();
        let extra = load("int unrelated(int y) { return y * 3; }");
        functions.insert(0, extra.functions[0].clone());
        for f in &mut functions {
            visit_refs(f, &mut |r| match r {
                RefMut::Function(g) => *g = FuncId(n - g.0),
                RefMut::Global(g) => g.0 += 1,
            });
        }
        let mut globals = m.globals.clone();
        globals.insert(0, crate::ir::Global { name: "pad".into(), size: 4, is_constant: true, init: GlobalInit::Zero, refs: vec![] });
        Module { functions, globals, ..m.clone() }
    }

    #[test]
    fn reordering_functions_and_adding_unrelated_ones_keeps_every_hash() {
        let (m1, h1) = hashes(&format!("{LEAF}\n{REST}"));
        let m2 = reordered(&m1);
        let h2 = ModuleHashes::new(&m2, &CallGraph::new(&m2));
        assert_ne!(m1.function_by_name("leaf"), m2.function_by_name("leaf"), "the positions differ");
        for name in DEFINED {
            assert_eq!(by_name(&m1, &h1, name), by_name(&m2, &h2, name), "{name}");
        }
        // The renumbering itself is seen: a function whose callee changes does change.
        let mut m3 = m2.clone();
        let top = m3.function_by_name("top").expect("top");
        let other = m3.function_by_name("other").expect("other");
        visit_refs(&mut m3.functions[top.0 as usize], &mut |r| {
            if let RefMut::Function(g) = r {
                if m2.function(*g).name == "mid" {
                    *g = other;
                }
            }
        });
        let h3 = ModuleHashes::new(&m3, &CallGraph::new(&m3));
        assert_ne!(by_name(&m2, &h2, "top").0, by_name(&m3, &h3, "top").0);
    }

    #[test]
    fn editing_a_leaf_changes_exactly_it_and_its_transitive_callers() {
        let (m1, h1) = hashes(&format!("{LEAF}\n{REST}"));
        let (m2, h2) = hashes(&format!("{LEAF_EDITED}\n{REST}"));
        for name in DEFINED {
            let (own1, deep1) = by_name(&m1, &h1, name);
            let (own2, deep2) = by_name(&m2, &h2, name);
            assert_eq!(own1 != own2, name == "leaf", "own hash of {name}");
            let reaches_leaf = matches!(name, "leaf" | "mid" | "top" | "main");
            assert_eq!(deep1 != deep2, reaches_leaf, "deep hash of {name}");
        }
    }

    #[test]
    fn constant_global_contents_count_for_their_readers() {
        let (m1, h1) = hashes(&format!("{LEAF}\n{REST}"));
        let (m2, h2) = hashes(&format!("{LEAF}\n{}", REST.replace("{3, 4}", "{3, 5}")));
        assert_ne!(by_name(&m1, &h1, "mid").0, by_name(&m2, &h2, "mid").0);
        assert_eq!(by_name(&m1, &h1, "other"), by_name(&m2, &h2, "other"));
        assert_eq!(by_name(&m1, &h1, "leaf"), by_name(&m2, &h2, "leaf"));
    }
}

//! The globals each function can reach: named by its instructions or a callee's, transitively,
//! and through the addresses held by reachable globals' initializers — what an analysis that
//! starts in the function needs in its initial state (ARCHITECTURE.md, "Globals of an entry").

use super::callgraph::CallGraph;
use super::externals::{classify, External};
use super::fingerprint::{visit_refs, RefMut};
use super::{Callee, GlobalId, Module, Op};
use std::collections::BTreeSet;

/// The globals a function can reach.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Reach {
    /// Every global of the module: the function (or a function it may call) calls through a
    /// pointer, calls code the front end did not translate or an external function whose
    /// effects are unknown, or runs an instruction the front end did not translate — code
    /// that could reach memory through a pointer no instruction names.
    All,
    /// Exactly these globals (sorted, closed under initializer references).
    Some(BTreeSet<GlobalId>),
}

impl Reach {
    /// Whether global `g` is reachable.
    pub fn contains(&self, g: GlobalId) -> bool {
        match self {
            Reach::All => true,
            Reach::Some(s) => s.contains(&g),
        }
    }

    fn extend(&mut self, other: &Reach) {
        match (&mut *self, other) {
            (Reach::All, _) => {}
            (_, Reach::All) => *self = Reach::All,
            (Reach::Some(a), Reach::Some(b)) => a.extend(b.iter().copied()),
        }
    }
}

/// Per function (by `FuncId`) the globals it can reach; declarations reach nothing of their
/// own (a call of an unknown one makes its caller `All`).
pub fn reachable_globals(module: &Module, cg: &CallGraph) -> Vec<Reach> {
    let own: Vec<Reach> = module.functions.iter().map(|f| own_reach(module, f)).collect();
    let mut reach: Vec<Reach> = vec![Reach::Some(BTreeSet::new()); module.functions.len()];
    // Components bottom-up: every callee outside the component is decided first.
    for scc in &cg.sccs {
        let mut r = Reach::Some(BTreeSet::new());
        for f in scc {
            r.extend(&own[f.0 as usize]);
            for g in &cg.callees[f.0 as usize] {
                if !scc.contains(g) {
                    r.extend(&reach[g.0 as usize]);
                }
            }
        }
        let r = close_under_initializers(module, r);
        for f in scc {
            reach[f.0 as usize] = r.clone();
        }
    }
    reach
}

/// The globals `f`'s own instructions name (not its callees').
fn own_reach(module: &Module, f: &super::Function) -> Reach {
    if f.is_declaration() {
        return Reach::Some(BTreeSet::new());
    }
    for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
        let opaque = match &instr.op {
            Op::Unsupported { .. } => true,
            Op::Call { callee: Callee::Indirect(_) | Callee::Unsupported(_), .. } => true,
            Op::Call { callee: Callee::Direct(g), .. } => match module.functions.get(g.0 as usize) {
                Some(d) => d.is_declaration() && matches!(classify(&d.name), External::Unknown(_)),
                None => true,
            },
            _ => false,
        };
        if opaque {
            return Reach::All;
        }
    }
    let mut named = BTreeSet::new();
    visit_refs(&mut f.clone(), &mut |r| {
        if let RefMut::Global(g) = r {
            named.insert(*g);
        }
    });
    Reach::Some(named)
}

/// `r` with every global an initializer of a member points to, transitively.
fn close_under_initializers(module: &Module, r: Reach) -> Reach {
    let Reach::Some(mut set) = r else { return Reach::All };
    let mut todo: Vec<GlobalId> = set.iter().copied().collect();
    while let Some(g) = todo.pop() {
        for &h in module.globals.get(g.0 as usize).map(|x| x.refs.as_slice()).unwrap_or_default() {
            if set.insert(h) {
                todo.push(h);
            }
        }
    }
    Reach::Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;

    fn reach_of(src: &str) -> (Module, Vec<Reach>) {
        let m = crate::frontend::load_source(src, InputKind::C).expect("C compiles");
        let r = reachable_globals(&m, &CallGraph::new(&m));
        (m, r)
    }

    /// The names of the globals `f` reaches (`None`: all of them).
    fn names(m: &Module, r: &[Reach], f: &str) -> Option<Vec<String>> {
        let id = m.function_by_name(f).unwrap_or_else(|| panic!("{f}"));
        match &r[id.0 as usize] {
            Reach::All => None,
            Reach::Some(s) => Some(s.iter().map(|g| m.globals[g.0 as usize].name.clone()).collect()),
        }
    }

    fn strings(v: &[&str]) -> Option<Vec<String>> {
        Some(v.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn a_function_reaches_its_own_and_its_callees_globals_only() {
        let (m, r) = reach_of(
            "int a; int b; int c;\n\
             int leaf(void) { return a; }\n\
             int mid(void) { b = 1; return leaf(); }\n\
             int other(void) { return c; }\n\
             int top(void) { return mid(); }",
        );
        assert_eq!(names(&m, &r, "leaf"), strings(&["a"]));
        assert_eq!(names(&m, &r, "top"), strings(&["a", "b"]));
        assert_eq!(names(&m, &r, "other"), strings(&["c"]));
    }

    #[test]
    fn globals_an_initializer_points_to_are_reachable() {
        let (m, r) = reach_of(
            "int x; int y; int *p = &x; int **pp = &p; int unrelated;\n\
             int f(void) { return **pp; }",
        );
        assert_eq!(names(&m, &r, "f"), strings(&["x", "p", "pp"]));
    }

    #[test]
    fn mutual_recursion_shares_one_set() {
        let (m, r) = reach_of(
            "int a; int b;\n\
             int odd(int n);\n\
             int even(int n) { a = n; return n == 0 ? 1 : odd(n - 1); }\n\
             int odd(int n) { b = n; return n == 0 ? 0 : even(n - 1); }",
        );
        assert_eq!(names(&m, &r, "even"), strings(&["a", "b"]));
        assert_eq!(names(&m, &r, "odd"), strings(&["a", "b"]));
    }

    #[test]
    fn indirect_calls_and_unknown_externals_reach_every_global() {
        let (m, r) = reach_of(
            "int a; int b;\n\
             void ext(int *);\n\
             int known(void) { return a; }\n\
             int through_pointer(int (*f)(void)) { return f(); }\n\
             int unknown(void) { ext(0); return 0; }\n\
             int caller(void) { return unknown(); }",
        );
        assert_eq!(names(&m, &r, "through_pointer"), None);
        assert_eq!(names(&m, &r, "unknown"), None);
        assert_eq!(names(&m, &r, "caller"), None);
        assert_eq!(names(&m, &r, "known"), strings(&["a"]));
    }
}

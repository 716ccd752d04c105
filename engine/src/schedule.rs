//! Bottom-up scheduling of a module's functions over the call graph: a function is analysed
//! once every function in the components it calls is finished, independent ones in parallel.
//!
//! Work items are the selected functions; the order comes from the call graph's strongly
//! connected components (`ir::callgraph`): a component starts when all components its members
//! call directly are finished (a component without selected members finishes at once), and its
//! members run as parallel tasks. Each task sees the results finished before it started in
//! its callee components ([`Finished::get`]); results of its own component are not handed to
//! it, so what a task sees does not depend on timing.

use crate::ir::callgraph::CallGraph;
use crate::ir::FuncId;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// The results finished so far, by function.
pub struct Finished<R> {
    slots: Vec<OnceLock<R>>,
    scc_of: Vec<Option<usize>>,
}

impl<R> Finished<R> {
    /// The result of `f`, if `f` was selected and is finished.
    pub fn get(&self, f: FuncId) -> Option<&R> {
        self.slots.get(f.0 as usize).and_then(OnceLock::get)
    }

    /// The result of `g` as seen by a task analysing `f`: `None` for members of `f`'s own
    /// component (finished or not), so that every task sees the same results in every run.
    pub fn get_for(&self, f: FuncId, g: FuncId) -> Option<&R> {
        let same = self.scc_of.get(f.0 as usize).copied().flatten() == self.scc_of.get(g.0 as usize).copied().flatten();
        if same {
            return None;
        }
        self.get(g)
    }
}

struct Plan<'a, R> {
    /// Per component: the selected members.
    members: Vec<Vec<FuncId>>,
    /// Per component: callee components not finished yet.
    pending: Vec<AtomicUsize>,
    /// Per component: selected members not finished yet.
    running: Vec<AtomicUsize>,
    /// Per component: the components that call into it.
    dependents: Vec<Vec<usize>>,
    finished: Finished<R>,
    analyse: &'a (dyn Fn(FuncId, &Finished<R>) -> R + Sync),
}

/// Runs `analyse` on every function of `targets` (defined functions of the module `cg` was
/// built from, which has `functions` functions), callees' components before callers', on
/// `pool`. Returns every result.
pub fn bottom_up<R: Send + Sync>(
    cg: &CallGraph,
    functions: usize,
    targets: &[FuncId],
    pool: &rayon::ThreadPool,
    analyse: &(dyn Fn(FuncId, &Finished<R>) -> R + Sync),
) -> Finished<R> {
    let k = cg.sccs.len();
    let mut members = vec![Vec::new(); k];
    let mut selected = vec![false; functions];
    for &f in targets {
        if let Some(c) = cg.scc_of.get(f.0 as usize).copied().flatten() {
            if !std::mem::replace(&mut selected[f.0 as usize], true) {
                members[c].push(f);
            }
        }
    }
    let mut dependents = vec![Vec::new(); k];
    let mut pending = Vec::with_capacity(k);
    for c in 0..k {
        let callees = cg.callee_sccs(c);
        pending.push(AtomicUsize::new(callees.len()));
        for d in callees {
            dependents[d].push(c);
        }
    }
    let plan = Plan {
        running: members.iter().map(|m| AtomicUsize::new(m.len())).collect(),
        members,
        pending,
        dependents,
        finished: Finished { slots: (0..functions).map(|_| OnceLock::new()).collect(), scc_of: cg.scc_of.clone() },
        analyse,
    };
    pool.scope(|s| {
        for c in 0..k {
            if plan.pending[c].load(Ordering::Acquire) == 0 {
                let plan = &plan;
                s.spawn(move |s| start(plan, c, s));
            }
        }
    });
    plan.finished
}

/// Starts component `c`: one task per selected member, or finishes it at once.
fn start<'s, R: Send + Sync>(plan: &'s Plan<'s, R>, c: usize, s: &rayon::Scope<'s>) {
    if plan.members[c].is_empty() {
        finish(plan, c, s);
        return;
    }
    for &f in &plan.members[c] {
        s.spawn(move |s| {
            let result = (plan.analyse)(f, &plan.finished);
            // Each selected function is one task, so its slot is empty here.
            let _ = plan.finished.slots[f.0 as usize].set(result);
            if plan.running[c].fetch_sub(1, Ordering::AcqRel) == 1 {
                finish(plan, c, s);
            }
        });
    }
}

/// Component `c` is finished: start every caller component whose callees are all finished.
fn finish<'s, R: Send + Sync>(plan: &'s Plan<'s, R>, c: usize, s: &rayon::Scope<'s>) {
    for &d in &plan.dependents[c] {
        if plan.pending[d].fetch_sub(1, Ordering::AcqRel) == 1 {
            s.spawn(move |s| start(plan, d, s));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;
    use std::sync::Mutex;

    #[test]
    fn callees_finish_before_callers_and_every_target_runs_once() {
        let m = crate::frontend::load_source(
            "int leaf(int x) { return x + 1; }\nint mid(int x) { return leaf(x) * 2; }\nint even(int n);\nint odd(int n) { return n == 0 ? 0 : even(n - 1); }\nint even(int n) { return n == 0 ? 1 : odd(n - 1); }\nint top(int x) { return mid(x) + odd(x); }\nint alone(int x) { return x; }\n",
            InputKind::C,
        )
        .expect("compiles");
        let cg = CallGraph::new(&m);
        let id = |n: &str| m.function_by_name(n).expect("defined");
        let targets: Vec<FuncId> = ["top", "mid", "leaf", "odd", "even", "alone"].iter().map(|n| id(n)).collect();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().expect("pool");
        let order = Mutex::new(Vec::new());
        let seen = Mutex::new(Vec::new());
        let finished = bottom_up(&cg, m.functions.len(), &targets, &pool, &|f, done: &Finished<usize>| {
            // What a task sees: finished callees of other components, never its own component.
            let visible: Vec<FuncId> = targets.iter().copied().filter(|g| done.get_for(f, *g).is_some()).collect();
            seen.lock().expect("lock").push((f, visible));
            order.lock().expect("lock").push(f);
            f.0 as usize
        });
        let order = order.into_inner().expect("lock");
        assert_eq!(order.len(), targets.len(), "every target exactly once");
        let pos = |n: &str| order.iter().position(|f| *f == id(n)).expect("ran");
        assert!(pos("leaf") < pos("mid") && pos("mid") < pos("top"));
        assert!(pos("odd") < pos("top") && pos("even") < pos("top"));
        for (f, visible) in seen.into_inner().expect("lock") {
            if f == id("top") {
                for g in ["mid", "leaf", "odd", "even"] {
                    assert!(visible.contains(&id(g)), "top sees {g}");
                }
            }
            if f == id("odd") {
                assert!(!visible.contains(&id("even")), "odd never sees its own component");
            }
        }
        for f in &targets {
            assert_eq!(finished.get(*f), Some(&(f.0 as usize)));
        }
    }

    #[test]
    fn unselected_components_do_not_block_their_callers() {
        let m = crate::frontend::load_source("int a(int x) { return x; }\nint b(int x) { return a(x) + 1; }\nint c(int x) { return b(x) + 1; }\n", InputKind::C).expect("compiles");
        let cg = CallGraph::new(&m);
        let targets = vec![m.function_by_name("a").expect("a"), m.function_by_name("c").expect("c")];
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("pool");
        let finished = bottom_up(&cg, m.functions.len(), &targets, &pool, &|f, _: &Finished<u32>| f.0);
        assert!(targets.iter().all(|f| finished.get(*f).is_some()));
        assert!(finished.get(m.function_by_name("b").expect("b")).is_none());
    }
}

//! Return states of summarized functions (seed 002, Def. 9 (3) and §2.6): what a return of an
//! entry state says about the returned value and the entry's parameters, when one return
//! state covers another, and the widening that keeps their number finite under recursion.
//!
//! A return summary is the knowledge base of a state at `ret` of the entry's bottom frame,
//! projected onto the returned value `r` and the entry's *ghost variables* (the variables its
//! LV gives the parameters). Symbolic variables are immutable and fresh per definition, and
//! every node on a graph path from the entry keeps the entry's names for the values it did not
//! change (merges rename only what differs), so a fact over ghost names at the return is a
//! fact about the arguments the entry was called with: the link `μ(x) = ν(x)` of the paper's
//! intersection is the renaming of the ghosts by the call's μ.

use super::ctx::Ctx;
use super::facts::{ARel, Atom, Fact};
use super::generalize::{self, apply, project_facts, Mu};
use super::lists::ListInv;
use super::state::{memory_vars, Alloc, Frame, PtEntry, State};
use crate::facts::views::View;
use crate::ir::{BlockId, FuncId, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

/// One return state of an entry, as facts over the entry's ghosts and the returned value.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct ReturnSummary {
    /// The graph node of the entry state whose return this is.
    pub entry: usize,
    /// The block of the `ret` (return states at different returns are not merged).
    pub block: BlockId,
    /// The returned value's variable and the view it is stored in (`None` for `void`).
    pub value: Option<(Var, View)>,
    /// Facts over the ghosts, the value and the memory below.
    pub facts: Vec<Fact>,
    /// The allocations live at the return (the returning frame's stack memory excluded):
    /// those of the entry keep its allocation ids, new ones are the callee's heap blocks.
    pub allocs: Vec<Alloc>,
    /// The points-to facts of those allocations at the return.
    pub pt: Vec<PtEntry>,
    /// The list invariants at the return (seed 001; `lists_calls::fold_at_return`).
    pub lists: Vec<ListInv>,
}

impl ReturnSummary {
    /// The summary of a return with knowledge base `kb` and returned value `value`, for an
    /// entry whose ghost variables are `ghosts` and whose allocations are `entry_allocs`
    /// (those stay concrete; the callee's own cells are folded into list invariants).
    pub fn new(ctx: &mut Ctx<'_>, entry: usize, state: &State, ghosts: &BTreeSet<Var>, entry_allocs: &BTreeSet<u32>, value: Option<(LinExpr, View)>) -> ReturnSummary {
        let block = state.top().block;
        let mut state = state.clone();
        super::lists_calls::fold_at_return(ctx, &mut state, entry_allocs);
        let state = &state;
        let allocs: Vec<Alloc> = state.allocs.iter().filter(|a| !Ctx::owned_by_depth(a.kind, 0)).cloned().collect();
        let live: BTreeSet<u32> = allocs.iter().map(|a| a.id).collect();
        let pt: Vec<PtEntry> = state.pt.iter().filter(|p| live.contains(&p.alloc)).cloned().collect();
        let mut facts = state.kb.clone();
        let mut roots = ghosts.clone();
        memory_vars(&allocs, &pt, &mut roots);
        let mut lists = state.lists.clone();
        roots.extend(lists.iter().flat_map(|l| l.vars()));
        let value = value.map(|(e, view)| {
            let r = ctx.fresh("ret");
            if let Some(a) = Atom::cmp(&LinExpr::var(&r), Rel::Eq, &e) {
                facts.push(Fact::Atom(a));
            }
            roots.insert(r.clone());
            // a list the value points to is named by the value (widenings pair lists by start)
            for l in lists.iter_mut().filter(|l| e.constant == 0 && e.coeffs.len() == 1 && e.coeffs.get(&l.start) == Some(&1) && !ghosts.contains(&l.start)) {
                l.start = r.clone();
            }
            (r, view)
        });
        ReturnSummary { entry, block, value, facts: project_facts(facts, &roots, ctx.projection), allocs, pt, lists }
    }

    /// Whether the summary says anything about memory.
    pub fn has_memory(&self) -> bool {
        !self.allocs.is_empty() || !self.pt.is_empty() || !self.lists.is_empty()
    }

    /// The summary as a one-frame state (of the entry's function `func`) whose LV pins the
    /// ghosts (the same value ids for the same ghosts in every summary of the entry) and the
    /// value, so that `generalize::instance` treats the ghosts as fixed and unifies the rest.
    /// The value ids are not the function's: only `instance`, which reads no per-value facts,
    /// may be given this state.
    fn as_state(&self, func: FuncId, ghosts: &[Var]) -> State {
        let mut lv: BTreeMap<ValueId, Var> = ghosts.iter().enumerate().map(|(i, g)| (ValueId(i as u32), g.clone())).collect();
        if let Some((r, _)) = &self.value {
            lv.insert(ValueId(u32::MAX), r.clone());
        }
        State {
            frames: vec![Frame { func, block: self.block, prev: None, idx: 0, lv }],
            kb: self.facts.clone(),
            allocs: self.allocs.clone(),
            pt: self.pt.clone(),
            inputs: vec![],
            inputs_exact: false,
            lists: self.lists.clone(),
        }
    }

    /// The facts with the returned value renamed to `to` (if both have one).
    fn facts_with_value(&self, to: Option<&Var>) -> Vec<Fact> {
        match (&self.value, to) {
            (Some((r, _)), Some(t)) if r != t => {
                let mu: Mu = [(r.clone(), t.clone())].into_iter().collect();
                self.facts.iter().map(|f| f.rename(&|v| apply(&mu, v))).collect()
            }
            _ => self.facts.clone(),
        }
    }

    /// Whether `self` (a new return state) is an instance of `general`: same return and
    /// view, and `self`'s facts entail `general`'s.
    pub fn covered_by(&self, ctx: &mut Ctx<'_>, general: &ReturnSummary, func: FuncId, ghosts: &[Var]) -> bool {
        if self.entry != general.entry || self.block != general.block {
            return false;
        }
        let to = match (&self.value, &general.value) {
            (Some((_, a)), Some((r, b))) if a == b => Some(r),
            (None, None) => None,
            _ => return false,
        };
        if self.has_memory() || general.has_memory() {
            return generalize::instance(ctx, &general.as_state(func, ghosts), &self.as_state(func, ghosts)).is_some();
        }
        let mine = self.facts_with_value(to);
        let mut atoms = vec![];
        for f in &general.facts {
            match f {
                Fact::Atom(a) => atoms.push(a.clone()),
                g @ Fact::Or(_) => {
                    if !mine.contains(g) {
                        return false;
                    }
                }
            }
        }
        ctx.entails_facts(&mine, &atoms)
    }

    /// The widening of `self` (the older state) by `newer`: the facts of `self` (equations
    /// split into two inequalities) that `newer` entails, plus the template facts relating
    /// the value to the ghosts (`r ≤ g`, `r ≥ g`, `r < g`, `r ≥ 0`, …) that both entail. The
    /// result generalizes both; a chain of widenings only draws on the first state's facts and
    /// the fixed templates, and every step is strictly weaker, so it is finite.
    pub fn widen(&self, ctx: &mut Ctx<'_>, newer: &ReturnSummary, ghosts: &BTreeSet<Var>) -> ReturnSummary {
        if self.has_memory() || newer.has_memory() {
            return self.widen_memory(ctx, newer, ghosts);
        }
        let to = self.value.as_ref().map(|(r, _)| r);
        let theirs = newer.facts_with_value(to);
        let templates = to.map(|r| templates(r, &value_ghosts(ghosts, self, newer))).unwrap_or_default();
        let kept = common_facts(ctx, &self.facts, &theirs, None, templates);
        ReturnSummary { entry: self.entry, block: self.block, value: self.value.clone(), facts: kept, allocs: vec![], pt: vec![], lists: vec![] }
    }

    /// The widening with memory: the allocations both summaries hold alike (same identity
    /// and bounds: the entry's blocks, named by ghosts), the cells both hold at the same
    /// address (differing contents generalized by a fresh variable), and the facts of `self`
    /// (equations split) and the templates that both entail. Dropping an allocation or a
    /// cell only forgets knowledge: an intersection then treats the block as freed and the
    /// contents as unknown, so later uses fail the memory check instead of being trusted.
    fn widen_memory(&self, ctx: &mut Ctx<'_>, newer: &ReturnSummary, ghosts: &BTreeSet<Var>) -> ReturnSummary {
        let allocs: Vec<Alloc> = self
            .allocs
            .iter()
            .filter(|a| newer.allocs.iter().any(|b| b.id == a.id && b.kind == a.kind && b.start == a.start && b.end == a.end))
            .cloned()
            .collect();
        let kept: BTreeSet<u32> = allocs.iter().map(|a| a.id).collect();
        let (mut mine, mut theirs) = (Mu::new(), Mu::new());
        if let (Some((r, _)), Some((q, _))) = (&self.value, &newer.value) {
            theirs.insert(q.clone(), r.clone());
        }
        let mut pt = vec![];
        for p in self.pt.iter().filter(|p| kept.contains(&p.alloc)) {
            let Some(q) = newer.pt.iter().find(|q| q.alloc == p.alloc && q.addr == p.addr && q.size == p.size && q.is_ptr == p.is_ptr && q.unsigned == p.unsigned) else {
                continue;
            };
            let value = if q.value == p.value {
                p.value.clone()
            } else {
                let v = ctx.fresh("mem");
                mine.insert(p.value.clone(), v.clone());
                theirs.insert(q.value.clone(), v.clone());
                v
            };
            pt.push(PtEntry { value, ..p.clone() });
        }
        // seed 001: lists at the same start are widened field by field (or against the
        // empty list where the other side's start is NULL)
        let (mut pad_own, mut pad_other) = (vec![], vec![]);
        let lists = if self.lists.is_empty() && newer.lists.is_empty() {
            vec![]
        } else {
            let own0: Vec<Fact> = self.facts.iter().map(|f| f.rename(&|v| apply(&mine, v))).collect();
            let other0: Vec<Fact> = newer.facts.iter().map(|f| f.rename(&|v| apply(&theirs, v))).collect();
            let a = super::lists_calls::Side { lists: &self.lists, facts: &own0, mu: &mut mine };
            let b = super::lists_calls::Side { lists: &newer.lists, facts: &other0, mu: &mut theirs };
            super::lists_calls::widen(ctx, a, b, &mut pad_own, &mut pad_other)
        };
        let mut roots: BTreeSet<Var> = ghosts.clone();
        roots.extend(self.value.iter().map(|(r, _)| r.clone()));
        memory_vars(&allocs, &pt, &mut roots);
        roots.extend(lists.iter().flat_map(|l| l.vars()));
        let mut own: Vec<Fact> = self.facts.iter().map(|f| f.rename(&|v| apply(&mine, v))).collect();
        let mut other: Vec<Fact> = newer.facts.iter().map(|f| f.rename(&|v| apply(&theirs, v))).collect();
        own.extend(pad_own);
        other.extend(pad_other);
        let vg = value_ghosts(ghosts, self, newer);
        let mut templates = self.value.as_ref().map(|(r, _)| templates(r, &vg)).unwrap_or_default();
        // a list's length against the ghosts (`len = n` for a builder, `len = len₀` for a walk)
        for l in &lists {
            templates.extend(self::templates(&l.len, &vg));
        }
        let facts = common_facts(ctx, &own, &other, Some(&roots), templates);
        ReturnSummary { entry: self.entry, block: self.block, value: self.value.clone(), facts, allocs, pt, lists }
    }

    /// The renaming ν of one intersection: ghosts by the call's `mu` (entry variables ↦ the
    /// call abstraction's variables), the value to `value`, every other variable of the
    /// summary (its memory's bounds and contents) to a fresh one.
    pub fn renaming(&self, ctx: &mut Ctx<'_>, ghosts: &BTreeSet<Var>, mu: &Mu, value: Option<&Var>) -> Mu {
        let mut vars = BTreeSet::new();
        for f in &self.facts {
            f.collect_vars(&mut vars);
        }
        memory_vars(&self.allocs, &self.pt, &mut vars);
        vars.extend(self.lists.iter().flat_map(|l| l.vars()));
        let mut nu = Mu::new();
        for v in vars {
            let to = if ghosts.contains(&v) {
                apply(mu, &v)
            } else if self.value.as_ref().is_some_and(|(r, _)| *r == v) {
                match value {
                    Some(x) => x.clone(),
                    None => ctx.fresh("ret"),
                }
            } else {
                ctx.fresh(v.name().rsplit_once('_').map(|p| p.0).unwrap_or("c"))
            };
            nu.insert(v, to);
        }
        nu
    }

}

/// The facts of a widening: those of `own` (equations split into two inequalities) that
/// `other` entails — only over `roots` if given — then the `templates` both entail.
fn common_facts(ctx: &mut Ctx<'_>, own: &[Fact], other: &[Fact], roots: Option<&BTreeSet<Var>>, templates: Vec<Atom>) -> Vec<Fact> {
    let mut cands: Vec<Atom> = vec![];
    for f in own {
        let Fact::Atom(a) = f else { continue };
        if a.rel == ARel::Eq {
            cands.extend([Rel::Le, Rel::Ge].iter().filter_map(|r| Atom::cmp(&a.e, *r, &LinExpr::constant(0))));
        } else {
            cands.push(a.clone());
        }
    }
    let mut kept: Vec<Fact> = vec![];
    for p in cands {
        let f = Fact::Atom(p.clone());
        if roots.is_none_or(|r| f.vars().is_subset(r)) && !kept.contains(&f) && ctx.entails_facts(other, std::slice::from_ref(&p)) {
            kept.push(f);
        }
    }
    for p in templates {
        let f = Fact::Atom(p.clone());
        if !kept.contains(&f) && ctx.entails_facts(own, std::slice::from_ref(&p)) && ctx.entails_facts(other, std::slice::from_ref(&p)) {
            kept.push(f);
        }
    }
    kept
}

/// Candidate facts relating a returned value `r` to the ghosts: sign and order against each
/// ghost (the shapes recursive functions' results usually have: `f(n) ≤ n`, `f(n) ≥ 0`).
fn templates(r: &Var, ghosts: &BTreeSet<Var>) -> Vec<Atom> {
    let rv = LinExpr::var(r);
    let mut out: Vec<Atom> = [(Rel::Ge, 0), (Rel::Le, 0), (Rel::Ge, 1), (Rel::Le, 1), (Rel::Le, -1), (Rel::Ge, -1)]
        .iter()
        .filter_map(|(rel, k)| Atom::cmp(&rv, *rel, &LinExpr::constant(*k)))
        .collect();
    for g in ghosts {
        let gv = LinExpr::var(g);
        for (rel, k) in [(Rel::Le, 0), (Rel::Ge, 0), (Rel::Le, -1), (Rel::Ge, 1), (Rel::Le, 1), (Rel::Ge, -1)] {
            // r ⋈ g + k
            if let Some(rhs) = gv.add_scaled(1, &LinExpr::constant(k)) {
                out.extend(Atom::cmp(&rv, rel, &rhs));
            }
        }
        // r ⋈ −g (results like |n|)
        if let Some(neg) = gv.scale(-1) {
            out.extend(Atom::cmp(&rv, Rel::Ge, &neg));
        }
    }
    out
}

/// The ghosts that may be integers: not allocation bounds or cell addresses of either
/// summary (templates over addresses only cost entailment checks).
fn value_ghosts(ghosts: &BTreeSet<Var>, a: &ReturnSummary, b: &ReturnSummary) -> BTreeSet<Var> {
    let mut addresses = BTreeSet::new();
    for s in [a, b] {
        for al in &s.allocs {
            addresses.insert(&al.start);
            addresses.insert(&al.end);
        }
        for p in &s.pt {
            addresses.insert(&p.addr);
        }
    }
    ghosts.iter().filter(|g| !addresses.contains(g)).cloned().collect()
}

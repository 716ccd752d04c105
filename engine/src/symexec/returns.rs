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
use super::generalize::{apply, project_facts, Mu};
use crate::facts::views::View;
use crate::ir::BlockId;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// One return state of an entry, as facts over the entry's ghosts and the returned value.
#[derive(Clone, Debug)]
pub struct ReturnSummary {
    /// The graph node of the entry state whose return this is.
    pub entry: usize,
    /// The block of the `ret` (return states at different returns are not merged).
    pub block: BlockId,
    /// The returned value's variable and the view it is stored in (`None` for `void`).
    pub value: Option<(Var, View)>,
    /// Facts over the ghosts and the value.
    pub facts: Vec<Fact>,
}

impl ReturnSummary {
    /// The summary of a return with knowledge base `kb` and returned value `value`, for an
    /// entry whose ghost variables are `ghosts`.
    pub fn new(
        ctx: &mut Ctx<'_>,
        entry: usize,
        block: BlockId,
        kb: &[Fact],
        ghosts: &BTreeSet<Var>,
        value: Option<(LinExpr, View)>,
    ) -> ReturnSummary {
        let mut facts = kb.to_vec();
        let mut roots = ghosts.clone();
        let value = value.map(|(e, view)| {
            let r = ctx.fresh("ret");
            if let Some(a) = Atom::cmp(&LinExpr::var(&r), Rel::Eq, &e) {
                facts.push(Fact::Atom(a));
            }
            roots.insert(r.clone());
            (r, view)
        });
        ReturnSummary { entry, block, value, facts: project_facts(facts, &roots) }
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
    pub fn covered_by(&self, ctx: &mut Ctx<'_>, general: &ReturnSummary) -> bool {
        if self.entry != general.entry || self.block != general.block {
            return false;
        }
        let to = match (&self.value, &general.value) {
            (Some((_, a)), Some((r, b))) if a == b => Some(r),
            (None, None) => None,
            _ => return false,
        };
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
        let to = self.value.as_ref().map(|(r, _)| r);
        let theirs = newer.facts_with_value(to);
        let mut cands: Vec<Atom> = vec![];
        for f in &self.facts {
            let Fact::Atom(a) = f else { continue };
            if a.rel == ARel::Eq {
                cands.extend([Rel::Le, Rel::Ge].iter().filter_map(|r| Atom::cmp(&a.e, *r, &LinExpr::constant(0))));
            } else {
                cands.push(a.clone());
            }
        }
        let templates = to.map(|r| templates(r, ghosts)).unwrap_or_default();
        let mut kept = vec![];
        for p in cands {
            if !kept.contains(&Fact::Atom(p.clone())) && ctx.entails_facts(&theirs, std::slice::from_ref(&p)) {
                kept.push(Fact::Atom(p));
            }
        }
        for p in templates {
            if !kept.contains(&Fact::Atom(p.clone()))
                && ctx.entails_facts(&self.facts, std::slice::from_ref(&p))
                && ctx.entails_facts(&theirs, std::slice::from_ref(&p))
            {
                kept.push(Fact::Atom(p));
            }
        }
        ReturnSummary { entry: self.entry, block: self.block, value: self.value.clone(), facts: kept }
    }

    /// The facts for one intersection: ghosts renamed by the call's `mu` (entry variables ↦
    /// the call abstraction's variables), the value renamed to `value`.
    pub fn instantiate(&self, mu: &Mu, value: Option<&Var>) -> Vec<Fact> {
        let mut m = mu.clone();
        if let (Some((r, _)), Some(v)) = (&self.value, value) {
            m.insert(r.clone(), v.clone());
        }
        self.facts.iter().map(|f| f.rename(&|v| apply(&m, v))).collect()
    }
}

/// Candidate facts relating a returned value `r` to the ghosts: sign and order against each
/// ghost (the shapes recursive functions' results usually have: `f(n) ≤ n`, `f(n) ≥ 0`).
fn templates(r: &Var, ghosts: &BTreeSet<Var>) -> Vec<Atom> {
    let rv = LinExpr::var(r);
    let mut out: Vec<Atom> = [(Rel::Ge, 0), (Rel::Le, 0), (Rel::Ge, 1), (Rel::Le, 1)]
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

//! Field-value relations along a list invariant (issue 10; the per-field relations of
//! AProVE's list invariants, digest-001 §4 note): how an integer field's value changes from
//! one cell to the next — by a constant (`val` = position), never down (sorted ascending) or
//! never up (descending) — with its conjuncts of ⟨s⟩, the relation a materialized first cell
//! keeps to the rest, the check that a folded chain has it, and the merge candidates that
//! relate it to the locals a search compares with.
//!
//! Meaning: `step = Some(r)` on a field of `start ↪^len [...]` says that for every two
//! consecutive cells `k, k + 1` of the invariant `r(v_k, v_{k+1})` holds; for `len ≤ 1` it says
//! nothing, so any relation may be given to such an invariant.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::lists::{ListField, ListInv};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

/// How a field's value changes from one cell to the next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum Step {
    /// `next = this + c`.
    By(i128),
    /// `next ≥ this` (sorted ascending).
    Up,
    /// `next ≤ this` (sorted descending).
    Down,
}

impl Step {
    /// Whether every list that has relation `self` also has `other`.
    pub fn implies(self, other: Step) -> bool {
        match (self, other) {
            (a, b) if a == b => true,
            (Step::By(c), Step::Up) => c >= 0,
            (Step::By(c), Step::Down) => c <= 0,
            _ => false,
        }
    }

    /// `r(x, y)` for a value `x` and the next cell's value `y`.
    pub fn next_atom(self, x: &LinExpr, y: &LinExpr) -> Option<Atom> {
        match self {
            Step::By(c) => Atom::cmp(y, Rel::Eq, &x.add_scaled(1, &LinExpr::constant(c))?),
            Step::Up => Atom::cmp(x, Rel::Le, y),
            Step::Down => Atom::cmp(y, Rel::Le, x),
        }
    }

    /// What `r` says about the first and last values of a list of `len ≥ 1` cells.
    fn span_atom(self, first: &Var, last: &Var, len: &Var) -> Option<Atom> {
        match self {
            // last = first + c·(len − 1)
            Step::By(c) => {
                let rhs = LinExpr::var(first).add_scaled(c, &LinExpr::var(len))?.add_scaled(-c, &LinExpr::constant(1))?;
                Atom::cmp(&LinExpr::var(last), Rel::Eq, &rhs)
            }
            Step::Up => Atom::cmp(&LinExpr::var(first), Rel::Le, &LinExpr::var(last)),
            Step::Down => Atom::cmp(&LinExpr::var(last), Rel::Le, &LinExpr::var(first)),
        }
    }
}

/// The conjuncts of ⟨s⟩ a list's field relations contribute: for a non-empty list, the last
/// value follows from the first (`last = first + c·(len − 1)`, `first ≤ last`, `last ≤ first`).
pub fn facts(l: &ListInv) -> Vec<Fact> {
    let mut out = vec![];
    let empty = Atom::var_const(&l.len, Rel::Le, 0);
    for f in &l.fields {
        let (Some(step), Some(last)) = (f.step, &f.last) else { continue };
        if let Some(a) = step.span_atom(&f.first, last, &l.len) {
            out.push(Fact::Or(vec![empty.clone(), a]));
        }
    }
    out
}

/// The relation between the first value `first` of a materialized cell and the fresh first
/// value `rest_first` of the rest of the list, stated unconditionally: when the rest is
/// empty its first value describes no cell, so constraining the fresh variable changes no
/// meaning, and afterwards `rest_first + c·len_rest` is the value after the list's last cell
/// whether or not the rest is empty (a searched value a walk has not yet passed).
pub fn rest_atom(f: &ListField, first: &Var, rest_first: &Var) -> Option<Atom> {
    f.step?.next_atom(&LinExpr::var(first), &LinExpr::var(rest_first))
}

/// A member of a chain about to be folded, seen through one field: its first and last
/// values, its number of cells (`1` for a concrete cell), its relation (a concrete cell's is
/// irrelevant), and whether it may be empty.
pub struct Member {
    pub first: Var,
    pub last: Var,
    pub len: LinExpr,
    pub len_var: Option<Var>,
    pub step: Option<Step>,
    pub maybe_empty: bool,
}

/// The relation the concatenation of `members` has on one field, if ⟨s⟩ proves one:
/// candidates are the members' own relations, the constant difference a model shows between
/// two neighbours (or between the last member and `hint`, the value of the cell the chain
/// leads to), then sortedness. A candidate holds when every list member has it (or has at
/// most one cell) and every two members that can be neighbours (adjacent, or with only
/// possibly empty members between them) are related by it when both are non-empty.
pub fn chain_step(ctx: &mut Ctx<'_>, s: &State, members: &[Member], hint: Option<&Var>) -> Option<Step> {
    if members.len() > 8 {
        return None;
    }
    let mut cands: Vec<Step> = members.iter().filter_map(|m| m.step).collect();
    for w in members.windows(2) {
        if let Some(m) = ctx.model(s, &[w[0].last.clone(), w[1].first.clone()]) {
            cands.push(Step::By(m[1] - m[0]));
        }
    }
    if let (Some(h), Some(last)) = (hint, members.last()) {
        if let Some(m) = ctx.model(s, &[last.last.clone(), h.clone()]) {
            cands.push(Step::By(m[1] - m[0]));
        }
    }
    cands.extend([Step::Up, Step::Down]);
    let mut tried = vec![];
    for st in cands {
        if matches!(st, Step::By(c) if c.abs() > 1 << 20) || tried.contains(&st) {
            continue;
        }
        tried.push(st);
        if holds(ctx, s, members, st) {
            return Some(st);
        }
    }
    None
}

fn holds(ctx: &mut Ctx<'_>, s: &State, members: &[Member], st: Step) -> bool {
    for m in members {
        let Some(len) = &m.len_var else { continue };
        if !m.step.is_some_and(|x| x.implies(st)) && !ctx.entails(s, &[Atom::var_const(len, Rel::Le, 1)]) {
            return false;
        }
    }
    for i in 0..members.len() {
        for j in i + 1..members.len() {
            let between = &members[i + 1..j];
            if between.iter().any(|m| !m.maybe_empty) {
                break;
            }
            let mut assumed = s.clone();
            for m in [&members[i], &members[j]] {
                if let Some(a) = LinExpr::constant(1).add_scaled(-1, &m.len).map(|e| Atom { e, rel: super::facts::ARel::Le }) {
                    assumed.add_atom(a);
                }
            }
            for m in between {
                assumed.add_atoms([Atom::cmp(&m.len, Rel::Eq, &LinExpr::constant(0))]);
            }
            let Some(rel) = st.next_atom(&LinExpr::var(&members[i].last), &LinExpr::var(&members[j].first)) else { return false };
            if !ctx.entails(&assumed, &[rel]) {
                return false;
            }
        }
    }
    true
}

/// The relation of a merged invariant's field from the two sides' (`a`, `b`): a relation of
/// one side that the other side has too, or that holds there because its list has at most
/// one cell.
pub fn merge_step(ctx: &mut Ctx<'_>, a: &State, fa: &ListField, la: &ListInv, b: &State, fb: &ListField, lb: &ListInv) -> Option<Step> {
    let short = |ctx: &mut Ctx<'_>, s: &State, l: &ListInv| ctx.entails(s, &[Atom::var_const(&l.len, Rel::Le, 1)]);
    for st in [fa.step, fb.step].into_iter().flatten() {
        let in_a = fa.step.is_some_and(|x| x.implies(st)) || short(ctx, a, la);
        if in_a && (fb.step.is_some_and(|x| x.implies(st)) || short(ctx, b, lb)) {
            return Some(st);
        }
    }
    None
}

/// Whether `general`'s relation is implied in the instance (its own relation implies it, or
/// its list has at most one cell). Only syntactic; the caller checks `len ≤ 1` otherwise.
pub fn step_covers(general: Option<Step>, inst: Option<Step>) -> bool {
    match (general, inst) {
        (None, _) => true,
        (Some(g), Some(i)) => i.implies(g),
        (Some(_), None) => false,
    }
}

/// Merge candidates (an extension of ⟪a⟫, each kept only when both states entail it) that
/// relate a list's field values under a relation to integer values `ys` (locals, cell
/// values, other lists' values): a search's target lies between the first value and the
/// value after the last cell (`first ≤ y ≤ first + c·len`), a counter or the cell a segment
/// leads to continues the list (`y = first + c·len + d`), the first value is a constant
/// (`first = m` with `m` from a model of `a`).
pub fn candidates(ctx: &mut Ctx<'_>, a: &State, ys: &[Var]) -> Vec<Atom> {
    let mut out = vec![];
    for l in &a.lists {
        for f in l.fields.iter().filter(|f| !f.is_ptr) {
            let Some(step) = f.step else { continue };
            let first = LinExpr::var(&f.first);
            if let Some(m) = ctx.model(a, std::slice::from_ref(&f.first)) {
                out.extend(Atom::cmp(&first, Rel::Eq, &LinExpr::constant(m[0])));
            }
            let tail = match step {
                Step::By(c) => first.add_scaled(c, &LinExpr::var(&l.len)),
                _ => None,
            };
            for y in ys.iter().filter(|y| **y != f.first && Some(*y) != f.last.as_ref()) {
                let ye = LinExpr::var(y);
                out.extend(Atom::cmp(&first, Rel::Le, &ye));
                out.extend(Atom::cmp(&ye, Rel::Le, &first));
                match &tail {
                    Some(t) => {
                        out.extend(Atom::cmp(&ye, Rel::Le, t));
                        out.extend(Atom::cmp(t, Rel::Le, &ye));
                        // the value of the last cell, `first + c·(len − 1)`, as the bound in the
                        // walk's direction only: a searched value the walk meets before the
                        // list's end (a cycle's wrap-around). (One atom, not both: every
                        // candidate about a counter is one more bound the projection must
                        // combine when the counter's old value dies; both directions made the
                        // counter of held-out append_walk_yes lose its bound.)
                        if let Step::By(c) = step {
                            if let Some(tl) = t.add_scaled(-c, &LinExpr::constant(1)) {
                                out.extend(if c > 0 { Atom::cmp(&ye, Rel::Le, &tl) } else { Atom::cmp(&tl, Rel::Le, &ye) });
                            }
                        }
                        for d in [-1, 1] {
                            out.extend(t.add_scaled(1, &LinExpr::constant(d)).and_then(|td| Atom::cmp(&ye, Rel::Eq, &td)));
                        }
                        // the value before the first cell, `first − c`: the counter a loop
                        // conses the next cell with (values k−1, …, 0 from the first cell)
                        if let Step::By(c) = step {
                            out.extend(first.add_scaled(-c, &LinExpr::constant(1)).and_then(|b| Atom::cmp(&ye, Rel::Eq, &b)));
                        }
                    }
                    None => {
                        if let Some(last) = &f.last {
                            out.extend(Atom::cmp(&LinExpr::var(last), Rel::Le, &ye));
                            out.extend(Atom::cmp(&ye, Rel::Le, &LinExpr::var(last)));
                        }
                    }
                }
            }
        }
    }
    out
}

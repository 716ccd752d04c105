//! Globals a query does not reach: the disjunctions of ⟨s⟩ (pairwise disjointness of blocks,
//! a list's first cell against every block) that mention a global block no atom of the
//! query's slice connects to are left out of that query.
//!
//! Why: every global of the module is a block of the state (a Rust crate's panic messages
//! and locations: a dozen read-only blocks), and the pairwise disjointness facts connect
//! every block to every other, so the slice of any pointer query held all of them — well
//! over a hundred disjunctions per z3 call, ~0.1 s each (the Rust list walk made ~1,800
//! such calls). A global that no atom connects to the query's variables is unrelated to the
//! addresses the query is about, so its disjointness facts are left out of it.
//!
//! Why sound: an entailment from fewer premises holds with all of them (leaving facts out
//! only weakens the premise), so a query proved without them is proved; a query that needed
//! them answers "not entailed", which costs precision, never a wrong verdict.

use super::facts::Fact;
use super::state::{AllocKind, State};
use crate::logic::Var;
use std::collections::BTreeSet;

/// `facts` without the disjunctions that mention a global block outside the atom slice of
/// `focus` (the connectivity slice over `facts`' atoms only).
pub(super) fn without_unreached(s: &State, facts: Vec<Fact>, focus: &BTreeSet<Var>) -> Vec<Fact> {
    let globals: BTreeSet<&Var> = s.allocs.iter().filter(|a| matches!(a.kind, AllocKind::Global(_))).flat_map(|a| [&a.start, &a.end]).collect();
    if globals.is_empty() {
        return facts;
    }
    let atoms: Vec<Fact> = facts.iter().filter(|f| matches!(f, Fact::Atom(_))).cloned().collect();
    let mut reached: BTreeSet<Var> = super::ctx::slice(&atoms, focus).iter().flat_map(|f| f.vars()).collect();
    reached.extend(focus.iter().cloned());
    let unreached = |v: &Var| globals.contains(v) && !reached.contains(v);
    facts.into_iter().filter(|f| !matches!(f, Fact::Or(_)) || !f.vars().iter().any(unreached)).collect()
}

/// The atoms of `facts` (its disjunctions left out): the input of [`globals_apart`], computed
/// once per state by the caller rather than once per pointer asked about.
pub(super) fn atoms_only(facts: &[Fact]) -> Vec<Fact> {
    facts.iter().filter(|f| matches!(f, Fact::Atom(_))).cloned().collect()
}

/// The global blocks (by allocation id) that no atom of `atoms` ([`atoms_only`]) connects to
/// `x`: the connectivity slice of `{x}` over the atoms mentions neither their start nor their
/// end. The merge's candidates placing a pointer inside a block (`generalize::closure`) skip
/// these: a pointer that no atom relates to a global's bounds points elsewhere (its own
/// block's bounds are in its slice), and a bound the disjointness disjunctions alone entail
/// is a candidate the merge may leave out like any other (the merged state keeps a subset of
/// the candidates both states entail; fewer is a weakening).
pub(super) fn globals_apart(s: &State, atoms: &[Fact], x: &Var) -> BTreeSet<u32> {
    let globals: Vec<&super::state::Alloc> = s.allocs.iter().filter(|a| matches!(a.kind, AllocKind::Global(_))).collect();
    if globals.is_empty() {
        return BTreeSet::new();
    }
    let focus: BTreeSet<Var> = std::iter::once(x.clone()).collect();
    let reached: BTreeSet<Var> = super::ctx::slice(atoms, &focus).iter().flat_map(|f| f.vars()).collect();
    globals.into_iter().filter(|a| !reached.contains(&a.start) && !reached.contains(&a.end) && a.start != *x && a.end != *x).map(|a| a.id).collect()
}

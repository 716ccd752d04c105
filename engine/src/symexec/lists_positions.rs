//! One variable per integer field position of the list invariants before a merge (issue 10,
//! searches around cyclic lists): a one-cell invariant folded from a concrete cell has the
//! same variable as its first and last value; the merge renames a state's variables through
//! one map, so pairing that variable at the `last` position with a different one of the other
//! state renamed it everywhere, and every fact of the state about the *first* value (the
//! `val = 0` of a list built from 0 upwards) was checked against the other state's *last*
//! value and lost. Giving each later position its own variable, equal to the first by a KB
//! fact, is an equivalence (the state means what it meant before).

use super::ctx::Ctx;
use super::facts::Atom;
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// Replaces every repeated occurrence of a variable at an integer field position (first or
/// last value) of `s`'s invariants, and a segment's target that is its own start, by a fresh
/// variable stated equal to it. Returns whether anything changed.
pub fn separate(ctx: &mut Ctx<'_>, s: &mut State) -> bool {
    let mut seen: BTreeSet<Var> = BTreeSet::new();
    let mut eqs = vec![];
    for l in &mut s.lists {
        // a whole cycle's target is its own start (`lists_cyclic`): one name per position
        let rec = l.rec;
        if l.fields[rec].last.as_ref() == Some(&l.start) {
            let v = ctx.fresh("end");
            eqs.push((v.clone(), l.start.clone()));
            l.fields[rec].last = Some(v);
        }
        for f in l.fields.iter_mut().filter(|f| !f.is_ptr) {
            if !seen.insert(f.first.clone()) {
                let v = ctx.fresh("first");
                eqs.push((v.clone(), f.first.clone()));
                f.first = v;
            }
            if let Some(last) = &f.last {
                if !seen.insert(last.clone()) {
                    let v = ctx.fresh("last");
                    eqs.push((v.clone(), last.clone()));
                    f.last = Some(v);
                }
            }
        }
    }
    let changed = !eqs.is_empty();
    for (v, x) in eqs {
        s.add_atoms([Atom::cmp(&LinExpr::var(&v), Rel::Eq, &LinExpr::var(&x))]);
    }
    changed
}

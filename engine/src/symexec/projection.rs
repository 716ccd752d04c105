//! Fourier–Motzkin elimination of the bounds a projection would otherwise drop: a variable
//! that leaves the state (no equation defines it) but is bounded from both sides passes its
//! bounds on to the variables that stay (`s' − s ≤ 1 ∧ s ≤ 1` keeps `s' ≤ 2` when `s` dies).
//!
//! Every fact produced is a non-negative combination of two facts of the KB, so it is implied
//! by them (the rational projection): the result is a sound weakening of the KB onto fewer
//! variables. Bounded in work: a variable is eliminated only when it has few lower and upper
//! bounds, and the number of new facts is capped.

use super::facts::{ARel, Atom, Fact};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// Most products (lower bounds × upper bounds) for one variable.
const MAX_PAIRS: usize = 36;
/// Most facts added by one projection.
const MAX_NEW: usize = 64;

/// `kb` with every non-root variable that occurs in `≤` atoms bounded from both sides
/// eliminated (its atoms replaced by their pairwise combinations), within the bounds above.
/// Facts that still mention non-roots are left for the caller to drop.
pub fn eliminate_bounds(mut kb: Vec<Fact>, roots: &BTreeSet<Var>) -> Vec<Fact> {
    let mut budget = MAX_NEW;
    let mut skipped: BTreeSet<Var> = BTreeSet::new();
    while let Some(t) = pick(&kb, roots, &skipped) {
        let (mut lower, mut upper) = (vec![], vec![]);
        for f in &kb {
            let Fact::Atom(a) = f else { continue };
            let c = a.e.coeffs.get(&t).copied().unwrap_or(0);
            if a.rel != ARel::Le || c == 0 {
                continue;
            }
            if c > 0 {
                upper.push((c, a.e.clone()));
            } else {
                lower.push((c, a.e.clone()));
            }
        }
        tightest_constant_bound(&mut lower);
        tightest_constant_bound(&mut upper);
        let pairs = lower.len() * upper.len();
        if pairs == 0 || pairs > MAX_PAIRS || pairs > budget {
            skipped.insert(t);
            continue;
        }
        let mut out: Vec<Fact> = kb.into_iter().filter(|f| !f.vars().contains(&t)).collect();
        for (cu, eu) in &upper {
            for (cl, el) in &lower {
                // cu·t + gu ≤ 0 and cl·t + gl ≤ 0 (cl < 0): |cl|·(cu·t + gu) + cu·(cl·t + gl) ≤ 0
                let Some(mut e) = eu.scale(-cl).and_then(|x| x.add_scaled(*cu, el)) else { continue };
                e.coeffs.retain(|_, k| *k != 0);
                if let Some(n) = Atom::cmp(&e, Rel::Le, &LinExpr::constant(0)) {
                    let n = Fact::Atom(n);
                    if !out.contains(&n) {
                        out.push(n);
                        budget = budget.saturating_sub(1);
                    }
                }
            }
        }
        kb = out;
    }
    kb
}

/// Keeps only the tightest of the bounds `c·t + k ≤ 0` that mention `t` alone (the others
/// are implied by it; ranges of a type and facts proved later often bound `t` twice).
fn tightest_constant_bound(bounds: &mut Vec<(crate::logic::Int, LinExpr)>) {
    // c·t + k ≤ 0 with c > 0 is t ≤ −k/c, with c < 0 is t ≥ k/|c|: compare −k/c (rationals)
    let alone: Vec<usize> = (0..bounds.len()).filter(|i| bounds[*i].1.coeffs.len() == 1).collect();
    let Some(&best) = alone.iter().min_by(|&&i, &&j| {
        let ((ci, ei), (cj, ej)) = (&bounds[i], &bounds[j]);
        // for upper bounds (c > 0) the smaller −k/c is tighter; for lower bounds (c < 0) the larger
        // k/|c| (= the smaller −k/c with c < 0 negated) is; both orders: compare k_i·|c_j| and k_j·|c_i|
        let (ki, kj) = (ei.constant * cj.abs(), ej.constant * ci.abs());
        kj.cmp(&ki)
    }) else {
        return;
    };
    let mut k = 0;
    bounds.retain(|_| {
        let keep = !alone.contains(&k) || k == best;
        k += 1;
        keep
    });
}

/// A non-root variable of some `≤` atom, not yet given up on.
fn pick(kb: &[Fact], roots: &BTreeSet<Var>, skipped: &BTreeSet<Var>) -> Option<Var> {
    kb.iter().find_map(|f| {
        let Fact::Atom(a) = f else { return None };
        if a.rel != ARel::Le {
            return None;
        }
        a.e.coeffs.keys().find(|v| !roots.contains(*v) && !skipped.contains(*v)).cloned()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(terms: &[(&str, i128)], k: i128) -> Fact {
        let mut e = LinExpr::constant(-k);
        for (v, c) in terms {
            e = e.add_scaled(*c, &LinExpr::var(&Var::new(v))).unwrap_or_default();
        }
        Fact::Atom(Atom::cmp(&e, Rel::Le, &LinExpr::constant(0)).unwrap_or(Atom::truth(true)))
    }

    #[test]
    fn a_dying_counter_passes_its_bound_on() {
        // s' − s ≤ 1, s ≤ 1, 0 ≤ s: s' ≤ 2 survives s
        let kb = vec![le(&[("s2", 1), ("s", -1)], 1), le(&[("s", 1)], 1), le(&[("s", -1)], 0)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb, &roots);
        assert!(out.contains(&le(&[("s2", 1)], 2)), "{out:?}");
        assert!(out.iter().all(|f| !f.vars().contains(&Var::new("s"))));
    }

    #[test]
    fn a_variable_bounded_on_one_side_only_is_left_alone() {
        // s ≥ s' − 1 and s ≥ 0: two lower bounds, nothing to combine
        let kb = vec![le(&[("s2", 1), ("s", -1)], 1), le(&[("s", -1)], 0)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb.clone(), &roots);
        assert_eq!(out, kb);
    }

    #[test]
    fn only_the_tightest_constant_bounds_are_combined() {
        // 0 ≤ r, −5 ≤ r, r ≤ 1, r ≤ 9, s' = s + r as s' − r ≤ s: with s ≤ 3 kept, s' ≤ 4 and no
        // combination with the loose bounds
        let kb = vec![le(&[("r", -1)], 0), le(&[("r", -1)], 5), le(&[("r", 1)], 1), le(&[("r", 1)], 9), le(&[("s2", 1), ("r", -1)], 3)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb, &roots);
        assert!(out.contains(&le(&[("s2", 1)], 4)), "{out:?}");
        assert!(!out.contains(&le(&[("s2", 1)], 12)), "{out:?}");
    }

    #[test]
    fn too_many_combinations_are_not_produced() {
        // 7 lower × 7 upper bounds of t exceed the pair limit: nothing is combined
        let mut kb = vec![];
        for k in 0..7 {
            kb.push(le(&[("t", 1), (&format!("u{k}"), -1)], 0));
            kb.push(le(&[("t", -1), (&format!("l{k}"), 1)], 0));
        }
        let roots: BTreeSet<Var> = (0..7).flat_map(|k| [Var::new(format!("u{k}")), Var::new(format!("l{k}"))]).collect();
        let out = eliminate_bounds(kb.clone(), &roots);
        assert_eq!(out, kb);
    }
}

//! Fourier–Motzkin elimination of the bounds a projection would otherwise drop: a variable
//! that leaves the state (no equation defines it) but is bounded from both sides passes its
//! bounds on to the variables that stay (`s' − s ≤ 1 ∧ s ≤ 1` keeps `s' ≤ 2` when `s` dies).
//!
//! Every fact produced is a non-negative combination of two facts of the KB, so it is implied
//! by them (the rational projection): the result is a sound weakening of the KB onto fewer
//! variables. Bounded in work: a variable is eliminated only when it has few lower and upper
//! bounds, and the number of new facts is capped. Redundant facts do not count against those
//! caps: of the bounds on one linear form only the tightest is combined, and a combination a
//! kept fact already implies is not added.

use super::facts::{ARel, Atom, Fact};
use crate::config::ProjectionLimits;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// `kb` with every non-root variable that occurs in `≤` atoms bounded from both sides
/// eliminated (its atoms replaced by their pairwise combinations), within `limits`.
/// Facts that still mention non-roots are left for the caller to drop.
pub fn eliminate_bounds(mut kb: Vec<Fact>, roots: &BTreeSet<Var>, limits: ProjectionLimits) -> Vec<Fact> {
    let mut budget = limits.max_new_facts;
    let mut skipped: BTreeSet<Var> = BTreeSet::new();
    if tracing::enabled!(tracing::Level::TRACE) {
        let shown: Vec<String> = kb.iter().map(|f| f.to_formula().to_string()).collect();
        let kept: Vec<&str> = roots.iter().map(|v| v.name()).collect();
        tracing::trace!(kb = ?shown, roots = ?kept, "projection: eliminating bounds");
    }
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
        tightest_per_form(&mut lower);
        tightest_per_form(&mut upper);
        let pairs = lower.len() * upper.len();
        if pairs == 0 || pairs > limits.max_pairs_per_variable || pairs > budget {
            tracing::trace!(var = t.name(), lower = lower.len(), upper = upper.len(), budget, "projection: bounds of a dying variable not combined");
            skipped.insert(t);
            continue;
        }
        let mut out: Vec<Fact> = kb.into_iter().filter(|f| !f.vars().contains(&t)).collect();
        for (cu, eu) in &upper {
            for (cl, el) in &lower {
                // cu·t + gu ≤ 0 and cl·t + gl ≤ 0 (cl < 0): |cl|·(cu·t + gu) + cu·(cl·t + gl) ≤ 0
                let Some(mut e) = eu.scale(-cl).and_then(|x| x.add_scaled(*cu, el)) else { continue };
                e.coeffs.retain(|_, k| *k != 0);
                let Some(n) = Atom::cmp(&e, Rel::Le, &LinExpr::constant(0)) else { continue };
                // a combination some fact already implies adds nothing (and would only be
                // paired again when its other variables are eliminated)
                if n.const_value() == Some(true) || out.iter().any(|f| matches!(f, Fact::Atom(o) if o.implies_syntactically(&n))) {
                    continue;
                }
                out.push(Fact::Atom(n));
                budget = budget.saturating_sub(1);
            }
        }
        kb = out;
    }
    kb
}

/// Keeps only the tightest of the bounds `c·t + e + k ≤ 0` that share their linear part
/// `c·t + e` (each of the others is implied by it: `s + len ≤ 298` makes `s + len ≤ 2³¹ − 1`
/// redundant; ranges of a type, facts proved later and merge candidates over one form with
/// several constants often bound `t` many times, and every redundant bound would be paired
/// with every bound of the other side).
fn tightest_per_form(bounds: &mut Vec<(crate::logic::Int, LinExpr)>) {
    // atoms are canonical (gcd-normalised), so one form has one coefficient map; of
    // `f + k ≤ 0` the largest `k` is the tightest (the first of equals is kept)
    let mut best: std::collections::BTreeMap<&std::collections::BTreeMap<Var, crate::logic::Int>, usize> = std::collections::BTreeMap::new();
    for (i, (_, e)) in bounds.iter().enumerate() {
        let b = best.entry(&e.coeffs).or_insert(i);
        if e.constant > bounds[*b].1.constant {
            *b = i;
        }
    }
    let keep: BTreeSet<usize> = best.into_values().collect();
    let mut i = 0;
    bounds.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
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
        let out = eliminate_bounds(kb, &roots, ProjectionLimits::default());
        assert!(out.contains(&le(&[("s2", 1)], 2)), "{out:?}");
        assert!(out.iter().all(|f| !f.vars().contains(&Var::new("s"))));
    }

    #[test]
    fn a_variable_bounded_on_one_side_only_is_left_alone() {
        // s ≥ s' − 1 and s ≥ 0: two lower bounds, nothing to combine
        let kb = vec![le(&[("s2", 1), ("s", -1)], 1), le(&[("s", -1)], 0)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb.clone(), &roots, ProjectionLimits::default());
        assert_eq!(out, kb);
    }

    #[test]
    fn only_the_tightest_constant_bounds_are_combined() {
        // 0 ≤ r, −5 ≤ r, r ≤ 1, r ≤ 9, s' = s + r as s' − r ≤ s: with s ≤ 3 kept, s' ≤ 4 and no
        // combination with the loose bounds
        let kb = vec![le(&[("r", -1)], 0), le(&[("r", -1)], 5), le(&[("r", 1)], 1), le(&[("r", 1)], 9), le(&[("s2", 1), ("r", -1)], 3)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb, &roots, ProjectionLimits::default());
        assert!(out.contains(&le(&[("s2", 1)], 4)), "{out:?}");
        assert!(!out.contains(&le(&[("s2", 1)], 12)), "{out:?}");
    }

    #[test]
    fn redundant_bounds_of_one_form_do_not_exhaust_the_pair_limit() {
        // append_walk_yes's walk (held-out, lost in session 11): the dying counter `s` has the
        // needed `s + len ≤ 298` beside the same form with type-range constants, and the step
        // `s' − s ≤ 1` beside looser ones; 7 × 6 = 42 pairs exceeded the limit of 36 and
        // `s' + len ≤ 299` was lost. Only the tightest bound of each form is combined now.
        let mut kb = vec![le(&[("s", 1), ("len", 1)], 298)];
        for k in 0..6 {
            kb.push(le(&[("s", 1), ("len", 1)], 2_147_483_642 + k));
            kb.push(le(&[("s2", 1), ("s", -1)], 1 + k));
        }
        let roots: BTreeSet<Var> = [Var::new("s2"), Var::new("len")].into_iter().collect();
        let out = eliminate_bounds(kb, &roots, ProjectionLimits::default());
        assert!(out.contains(&le(&[("s2", 1), ("len", 1)], 299)), "{out:?}");
        assert!(out.iter().all(|f| !f.vars().contains(&Var::new("s"))), "{out:?}");
    }

    #[test]
    fn a_combination_a_kept_fact_implies_is_not_added() {
        // s2 ≤ 5 is kept; s2 − s ≤ 1 ∧ s ≤ 6 gives s2 ≤ 7, which s2 ≤ 5 implies
        let kb = vec![le(&[("s2", 1)], 5), le(&[("s2", 1), ("s", -1)], 1), le(&[("s", 1)], 6)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let out = eliminate_bounds(kb, &roots, ProjectionLimits::default());
        assert_eq!(out, vec![le(&[("s2", 1)], 5)]);
    }

    #[test]
    fn a_contradiction_found_by_combining_is_kept() {
        // s ≥ 3 ∧ s ≤ 1: the combination `2 ≤ 0` is false, and the state must stay infeasible
        let kb = vec![le(&[("s", -1)], -3), le(&[("s", 1)], 1)];
        let out = eliminate_bounds(kb, &BTreeSet::new(), ProjectionLimits::default());
        assert!(out.iter().any(|f| f.const_value() == Some(false)), "{out:?}");
    }

    #[test]
    fn the_pair_limit_comes_from_the_config() {
        // the dying counter of `a_dying_counter_passes_its_bound_on` has 1 × 1 pairs: a
        // limit of 0 pairs leaves it (its facts are then dropped by the caller)
        let kb = vec![le(&[("s2", 1), ("s", -1)], 1), le(&[("s", 1)], 1)];
        let roots: BTreeSet<Var> = [Var::new("s2")].into_iter().collect();
        let none = ProjectionLimits { max_pairs_per_variable: 0, ..ProjectionLimits::default() };
        assert_eq!(eliminate_bounds(kb.clone(), &roots, none), kb);
        let no_new = ProjectionLimits { max_new_facts: 0, ..ProjectionLimits::default() };
        assert_eq!(eliminate_bounds(kb.clone(), &roots, no_new), kb);
        assert!(eliminate_bounds(kb, &roots, ProjectionLimits::default()).contains(&le(&[("s2", 1)], 2)));
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
        let out = eliminate_bounds(kb.clone(), &roots, ProjectionLimits::default());
        assert_eq!(out, kb);
    }
}

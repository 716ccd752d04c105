//! Farkas' lemma: turning "∀x. (∧ gᵢ(x) ≥ 0) ⇒ E(x) ≥ δ" into existential linear constraints.
//!
//! `E` has unknown (real) coefficients, so the result is a formula over the unknowns and
//! fresh non-negative multipliers λᵢ: `E ≡ Σ λᵢ·gᵢ + μ` with `μ ≥ δ`. Over the rationals this
//! is sound (any solution proves the implication for all real, hence all integer, x) and
//! complete for satisfiable guards.

use crate::logic::{Formula, Int, LinExpr, Term, Var};
use std::collections::{BTreeMap, BTreeSet};

/// A linear expression over program variables whose coefficients are linear expressions
/// over unknowns.
#[derive(Clone, Debug, Default)]
pub struct Template {
    pub coeffs: BTreeMap<Var, LinExpr>,
    pub constant: LinExpr,
}

impl Template {
    /// `self + k·other`; `None` on overflow.
    pub fn add_scaled(&self, k: Int, other: &Template) -> Option<Template> {
        let mut out = self.clone();
        for (v, c) in &other.coeffs {
            let e = out.coeffs.entry(v.clone()).or_default();
            *e = e.add_scaled(k, c)?;
        }
        out.constant = out.constant.add_scaled(k, &other.constant)?;
        Some(out)
    }

    /// Substitutes program variables by linear expressions: `Σ cᵥ·σ(v) + c₀`.
    pub fn compose(&self, sigma: &BTreeMap<Var, LinExpr>) -> Option<Template> {
        let mut out = Template { coeffs: BTreeMap::new(), constant: self.constant.clone() };
        for (v, c) in &self.coeffs {
            let Some(image) = sigma.get(v) else {
                let e = out.coeffs.entry(v.clone()).or_default();
                *e = e.add_scaled(1, c)?;
                continue;
            };
            for (w, k) in &image.coeffs {
                let e = out.coeffs.entry(w.clone()).or_default();
                *e = e.add_scaled(*k, c)?;
            }
            out.constant = out.constant.add_scaled(image.constant, c)?;
        }
        Some(out)
    }
}

/// Constraints over the unknowns (and fresh multipliers named `{prefix}λi`, added to `reals`)
/// that imply `∀x. (∧ guard ≥ 0) ⇒ e(x) ≥ delta` (`delta` a constant or an unknown).
pub fn farkas(guard: &[LinExpr], e: &Template, delta: Term, prefix: &str, reals: &mut BTreeSet<Var>) -> Formula {
    let lambdas: Vec<Var> = (0..guard.len()).map(|i| Var::new(format!("{prefix}λ{i}"))).collect();
    reals.extend(lambdas.iter().cloned());
    let mut parts: Vec<Formula> = lambdas.iter().map(|l| Formula::ge(Term::var(l), Term::Const(0))).collect();
    let mut vars: BTreeSet<&Var> = e.coeffs.keys().collect();
    for g in guard {
        vars.extend(g.coeffs.keys());
    }
    let combination = |coef: &dyn Fn(&LinExpr) -> Int| -> Vec<Term> {
        guard
            .iter()
            .zip(&lambdas)
            .filter_map(|(g, l)| {
                let k = coef(g);
                (k != 0).then(|| Term::Neg(Box::new(Term::scale(k, Term::var(l)))))
            })
            .collect()
    };
    for w in vars {
        let lhs = e.coeffs.get(w).cloned().unwrap_or_default();
        let mut sum = vec![lhs.to_term()];
        sum.extend(combination(&|g: &LinExpr| g.coeff(w)));
        parts.push(Formula::eq(Term::Add(sum), Term::Const(0)));
    }
    let mut sum = vec![e.constant.to_term()];
    sum.extend(combination(&|g: &LinExpr| g.constant));
    parts.push(Formula::ge(Term::Add(sum), delta));
    Formula::and(parts)
}

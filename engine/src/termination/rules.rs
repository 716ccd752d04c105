//! Rule-level helpers: temporaries, renaming, atom normalization, and the linear
//! over-approximation (`LinRule`) that the ranking-function synthesis works on.
//!
//! `linearize` is an over-approximation: non-linear subterms become fresh temporaries
//! (unknown values), atoms it cannot express (negated quantifiers, boolean variables,
//! disjunctions left after a too-large DNF, `≠`) are dropped. A ranking argument for the
//! over-approximation is one for the rule itself; non-termination is never concluded from it.

use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, Int, LinExpr, Rel, Term, Var};
use std::collections::BTreeSet;

/// Temporaries of a rule: its variables that are not ITS variables.
pub fn temps_of(its: &Its, rule: &Transition) -> BTreeSet<Var> {
    let mut vs = rule.guard.vars();
    for u in &rule.update {
        u.collect_vars(&mut vs);
    }
    for v in &its.vars {
        vs.remove(v);
    }
    vs
}

/// Renames the rule's temporaries by appending `#suffix`.
pub fn rename_temps(its: &Its, rule: &Transition, suffix: &str) -> Transition {
    let temps = temps_of(its, rule);
    if temps.is_empty() {
        return rule.clone();
    }
    let sub = |v: &Var| if temps.contains(v) { Some(Term::Var(Var::new(format!("{}#{suffix}", v.name())))) } else { None };
    Transition {
        from: rule.from,
        to: rule.to,
        guard: rule.guard.substitute(&sub),
        update: rule.update.iter().map(|u| u.substitute(&sub)).collect(),
        origin: rule.origin.clone(),
    }
}

/// `a rel b` with linear sides becomes `lin rel c` (variables left, constant right), or
/// `True`/`False` when no variable remains.
pub fn normalize_atom(f: &Formula) -> Formula {
    let Formula::Cmp(rel, a, b) = f else { return f.clone() };
    let Some(mut lin) = LinExpr::from_term(&Term::sub(a.clone(), b.clone())) else { return f.clone() };
    let c = lin.constant;
    lin.constant = 0;
    if lin.is_constant() {
        return if rel.holds(c, 0) { Formula::True } else { Formula::False };
    }
    let Some(rhs) = c.checked_neg() else { return f.clone() };
    Formula::Cmp(*rel, lin.to_term(), Term::Const(rhs))
}

/// A rule in linear form: `guard` is a conjunction of `e ≥ 0`.
#[derive(Clone, Debug)]
pub struct LinRule {
    pub from: LocId,
    pub to: LocId,
    pub guard: Vec<LinExpr>,
    pub update: Vec<LinExpr>,
}

/// The linear over-approximation of a rule (see the module doc).
pub fn linearize(its: &Its, rule: &Transition) -> LinRule {
    let mut st = Linearizer { side: Vec::new(), fresh: 0 };
    let mut guard = Vec::new();
    for c in rule.guard.conjuncts() {
        if let Formula::Cmp(rel, a, b) = &c {
            let (Some(la), Some(lb)) = (st.term(a), st.term(b)) else { continue };
            let Some(d) = la.add_scaled(-1, &lb) else { continue };
            // d = a - b
            let parts: Vec<Option<LinExpr>> = match rel {
                Rel::Ge => vec![Some(d)],
                Rel::Gt => vec![d.add_scaled(1, &LinExpr::constant(-1))],
                Rel::Le => vec![d.scale(-1)],
                Rel::Lt => vec![d.scale(-1).and_then(|e| e.add_scaled(1, &LinExpr::constant(-1)))],
                Rel::Eq => vec![Some(d.clone()), d.scale(-1)],
                Rel::Ne => vec![],
            };
            guard.extend(parts.into_iter().flatten());
        }
    }
    let mut update = Vec::new();
    for (u, v) in rule.update.iter().zip(&its.vars) {
        update.push(st.term(u).unwrap_or_else(|| {
            st.fresh += 1;
            LinExpr::var(&Var::new(format!("{}#nlu{}", v.name(), st.fresh)))
        }));
    }
    guard.extend(st.side);
    guard.retain(|e| !(e.is_constant() && e.constant >= 0));
    LinRule { from: rule.from, to: rule.to, guard, update }
}

struct Linearizer {
    side: Vec<LinExpr>,
    fresh: usize,
}

impl Linearizer {
    fn fresh_var(&mut self) -> LinExpr {
        self.fresh += 1;
        LinExpr::var(&Var::new(format!("nl#{}", self.fresh)))
    }

    /// Linear form of a term; non-linear parts become fresh temporaries (with exact side
    /// constraints for `div`/`mod` by a positive constant). `None` only on constant overflow.
    fn term(&mut self, t: &Term) -> Option<LinExpr> {
        if let Some(l) = LinExpr::from_term(t) {
            return Some(l);
        }
        match t {
            Term::Add(ts) => {
                let mut acc = LinExpr::constant(0);
                for t in ts {
                    let l = self.term(t)?;
                    acc = acc.add_scaled(1, &l)?;
                }
                Some(acc)
            }
            Term::Neg(t) => self.term(t)?.scale(-1),
            Term::Mul(ts) => {
                let parts: Vec<LinExpr> = ts.iter().map(|t| self.term(t)).collect::<Option<_>>()?;
                let non_const: Vec<&LinExpr> = parts.iter().filter(|p| !p.is_constant()).collect();
                if non_const.len() <= 1 {
                    let k: Int = parts.iter().filter(|p| p.is_constant()).try_fold(1 as Int, |a, p| a.checked_mul(p.constant))?;
                    return match non_const.first() {
                        Some(e) => e.scale(k),
                        None => Some(LinExpr::constant(k)),
                    };
                }
                Some(self.fresh_var())
            }
            Term::Div(a, b) | Term::Mod(a, b) => {
                let la = self.term(a)?;
                let q = self.fresh_var();
                if let Some(c) = LinExpr::from_term(b).filter(|l| l.is_constant() && l.constant > 0).map(|l| l.constant) {
                    // a = c·q + r, 0 ≤ r ≤ c - 1
                    let r = la.add_scaled(-c, &q)?;
                    self.side.push(r.clone());
                    self.side.push(LinExpr::constant(c - 1).add_scaled(-1, &r)?);
                    return Some(if matches!(t, Term::Div(..)) { q } else { r });
                }
                Some(q)
            }
            _ => Some(self.fresh_var()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linearize_abstracts_products_and_encodes_div() {
        let (x, y) = (Var::new("x"), Var::new("y"));
        let mut its = Its { vars: vec![x.clone(), y.clone()], ..Its::default() };
        let l = its.location("l");
        let rule = Transition {
            from: l,
            to: l,
            guard: Formula::and([Formula::gt(Term::mul(Term::var(&x), Term::var(&y)), Term::Const(0)), Formula::gt(Term::var(&x), Term::Const(0))]),
            update: vec![Term::Div(Box::new(Term::var(&x)), Box::new(Term::Const(2))), Term::var(&y)],
            origin: None,
        };
        let lr = linearize(&its, &rule);
        // x*y > 0 → nl > 0 ; x > 0 ; plus 2 side constraints for x div 2
        assert_eq!(lr.guard.len(), 4);
        assert_eq!(lr.update[1], LinExpr::var(&y));
        assert!(!lr.update[0].coeffs.contains_key(&x));
    }
}

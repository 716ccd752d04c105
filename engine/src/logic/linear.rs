//! Linear integer expressions `c + Σ aᵢ·xᵢ` in normal form (sorted, no zero coefficients).

use super::{Int, Term, Var};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A linear expression in normal form: coefficients are non-zero, keyed by variable.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize, Deserialize)]
pub struct LinExpr {
    pub coeffs: BTreeMap<Var, Int>,
    pub constant: Int,
}

impl LinExpr {
    pub fn constant(c: Int) -> LinExpr {
        LinExpr { coeffs: BTreeMap::new(), constant: c }
    }
    pub fn var(v: &Var) -> LinExpr {
        let mut coeffs = BTreeMap::new();
        coeffs.insert(v.clone(), 1);
        LinExpr { coeffs, constant: 0 }
    }
    pub fn is_constant(&self) -> bool {
        self.coeffs.is_empty()
    }
    pub fn coeff(&self, v: &Var) -> Int {
        self.coeffs.get(v).copied().unwrap_or(0)
    }
    /// `self + k·other`, `None` on constant overflow.
    pub fn add_scaled(&self, k: Int, other: &LinExpr) -> Option<LinExpr> {
        let mut out = self.clone();
        for (v, c) in &other.coeffs {
            let add = c.checked_mul(k)?;
            let entry = out.coeffs.entry(v.clone()).or_insert(0);
            *entry = entry.checked_add(add)?;
            if *entry == 0 {
                out.coeffs.remove(v);
            }
        }
        out.constant = out.constant.checked_add(other.constant.checked_mul(k)?)?;
        Some(out)
    }
    pub fn scale(&self, k: Int) -> Option<LinExpr> {
        LinExpr::constant(0).add_scaled(k, self)
    }
    /// Converts a term into linear form; `None` if it is not linear or a constant overflows.
    pub fn from_term(t: &Term) -> Option<LinExpr> {
        match t {
            Term::Const(c) => Some(LinExpr::constant(*c)),
            Term::Var(v) => Some(LinExpr::var(v)),
            Term::Add(ts) => {
                let mut acc = LinExpr::constant(0);
                for t in ts {
                    acc = acc.add_scaled(1, &LinExpr::from_term(t)?)?;
                }
                Some(acc)
            }
            Term::Neg(t) => LinExpr::from_term(t)?.scale(-1),
            Term::Mul(ts) => {
                let mut acc = LinExpr::constant(1);
                for t in ts {
                    let e = LinExpr::from_term(t)?;
                    acc = if acc.is_constant() {
                        e.scale(acc.constant)?
                    } else if e.is_constant() {
                        acc.scale(e.constant)?
                    } else {
                        return None;
                    };
                }
                Some(acc)
            }
            Term::Div(..) | Term::Mod(..) | Term::Ite(..) => None,
        }
    }
    pub fn to_term(&self) -> Term {
        let mut parts: Vec<Term> = self
            .coeffs
            .iter()
            .map(|(v, c)| if *c == 1 { Term::Var(v.clone()) } else { Term::Mul(vec![Term::Const(*c), Term::Var(v.clone())]) })
            .collect();
        if self.constant != 0 || parts.is_empty() {
            parts.push(Term::Const(self.constant));
        }
        if parts.len() == 1 {
            parts.pop().unwrap_or(Term::Const(0))
        } else {
            Term::Add(parts)
        }
    }
    /// Evaluates under an assignment; `None` if a variable is unassigned or on overflow.
    pub fn eval(&self, val: &dyn Fn(&Var) -> Option<Int>) -> Option<Int> {
        let mut acc = self.constant;
        for (v, c) in &self.coeffs {
            acc = acc.checked_add(c.checked_mul(val(v)?)?)?;
        }
        Some(acc)
    }
}

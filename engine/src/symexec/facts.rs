//! Linear facts of a knowledge base in canonical form: `e ≤ 0`, `e = 0`, `e ≠ 0` (and
//! disjunctions of such atoms, used for allocation disjointness).
//!
//! Canonical form makes syntactic membership tests (cheap entailment pre-checks, the
//! generalization conditions, merging) meaningful: strict inequalities are tightened over the
//! integers (`e < 0` ⇔ `e + 1 ≤ 0`), coefficients are divided by their gcd, and (dis)equalities
//! have a positive leading coefficient.

use crate::logic::{Formula, Int, LinExpr, Rel, Term, Var};
use std::collections::BTreeSet;

/// The relation of an atom against zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize)]
pub enum ARel {
    Le,
    Eq,
    Ne,
}

/// `e rel 0` in canonical form.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize)]
pub struct Atom {
    pub e: LinExpr,
    pub rel: ARel,
}

/// A knowledge-base fact.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize)]
pub enum Fact {
    Atom(Atom),
    Or(Vec<Atom>),
}

fn gcd(a: Int, b: Int) -> Int {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Atom {
    /// `a rel b`, canonicalised; `None` if a constant overflows (callers drop the fact or
    /// treat the conclusion as not entailed — both sound).
    pub fn cmp(a: &LinExpr, rel: Rel, b: &LinExpr) -> Option<Atom> {
        let d = a.add_scaled(-1, b)?;
        let (e, r) = match rel {
            Rel::Le => (d, ARel::Le),
            Rel::Lt => (d.add_scaled(1, &LinExpr::constant(1))?, ARel::Le),
            Rel::Ge => (d.scale(-1)?, ARel::Le),
            Rel::Gt => (d.scale(-1)?.add_scaled(1, &LinExpr::constant(1))?, ARel::Le),
            Rel::Eq => (d, ARel::Eq),
            Rel::Ne => (d, ARel::Ne),
        };
        Some(Atom::normalize(e, r))
    }

    /// `a rel c` for a variable and a constant.
    pub fn var_const(v: &Var, rel: Rel, c: Int) -> Atom {
        Atom::cmp(&LinExpr::var(v), rel, &LinExpr::constant(c)).unwrap_or(Atom::truth(true))
    }

    /// A constant atom with the given truth value.
    pub fn truth(t: bool) -> Atom {
        Atom { e: LinExpr::constant(0), rel: if t { ARel::Eq } else { ARel::Ne } }
    }

    fn normalize(mut e: LinExpr, rel: ARel) -> Atom {
        if e.coeffs.is_empty() {
            let t = match rel {
                ARel::Le => e.constant <= 0,
                ARel::Eq => e.constant == 0,
                ARel::Ne => e.constant != 0,
            };
            return Atom::truth(t);
        }
        if rel != ARel::Le {
            if let Some((_, c)) = e.coeffs.iter().next() {
                if *c < 0 {
                    if let Some(n) = e.scale(-1) {
                        e = n;
                    }
                }
            }
        }
        let g = e.coeffs.values().fold(0, |g, c| gcd(g, *c));
        if g > 1 {
            match rel {
                ARel::Le => {
                    // Σa·x + c ≤ 0  ⇔  Σ(a/g)·x + ⌈c/g⌉ ≤ 0
                    let c = e.constant;
                    let q = c.div_euclid(g) + if c.rem_euclid(g) != 0 { 1 } else { 0 };
                    e.coeffs.values_mut().for_each(|a| *a /= g);
                    e.constant = q;
                }
                ARel::Eq | ARel::Ne => {
                    if e.constant % g != 0 {
                        return Atom::truth(rel == ARel::Ne);
                    }
                    e.coeffs.values_mut().for_each(|a| *a /= g);
                    e.constant /= g;
                }
            }
        }
        Atom { e, rel }
    }

    /// `Some(truth)` for variable-free atoms.
    pub fn const_value(&self) -> Option<bool> {
        if !self.e.coeffs.is_empty() {
            return None;
        }
        Some(match self.rel {
            ARel::Le => self.e.constant <= 0,
            ARel::Eq => self.e.constant == 0,
            ARel::Ne => self.e.constant != 0,
        })
    }

    pub fn negate(&self) -> Option<Atom> {
        match self.rel {
            ARel::Le => {
                let e = self.e.scale(-1)?.add_scaled(1, &LinExpr::constant(1))?;
                Some(Atom::normalize(e, ARel::Le))
            }
            ARel::Eq => Some(Atom { e: self.e.clone(), rel: ARel::Ne }),
            ARel::Ne => Some(Atom { e: self.e.clone(), rel: ARel::Eq }),
        }
    }

    pub fn to_formula(&self) -> Formula {
        let rel = match self.rel {
            ARel::Le => Rel::Le,
            ARel::Eq => Rel::Eq,
            ARel::Ne => Rel::Ne,
        };
        Formula::Cmp(rel, self.e.to_term(), Term::Const(0))
    }

    pub fn substitute(&self, f: &dyn Fn(&Var) -> Option<LinExpr>) -> Option<Atom> {
        let mut out = LinExpr::constant(self.e.constant);
        for (v, c) in &self.e.coeffs {
            let r = f(v).unwrap_or_else(|| LinExpr::var(v));
            out = out.add_scaled(*c, &r)?;
        }
        Some(Atom::normalize(out, self.rel))
    }

    pub fn rename(&self, f: &dyn Fn(&Var) -> Var) -> Atom {
        self.substitute(&|v| Some(LinExpr::var(&f(v)))).unwrap_or_else(|| self.clone())
    }

    pub fn collect_vars(&self, out: &mut BTreeSet<Var>) {
        out.extend(self.e.coeffs.keys().cloned());
    }

    /// Cheap syntactic entailment: `self ⇒ other` (same linear part, weaker constant).
    pub fn implies_syntactically(&self, other: &Atom) -> bool {
        if self == other {
            return true;
        }
        if self.e.coeffs != other.e.coeffs {
            return false;
        }
        match (self.rel, other.rel) {
            // e + c1 ≤ 0 ⇒ e + c2 ≤ 0 when c2 ≤ c1
            (ARel::Le, ARel::Le) => other.e.constant <= self.e.constant,
            (ARel::Eq, ARel::Ne) => self.e.constant != other.e.constant,
            _ => false,
        }
    }
}

impl Fact {
    pub fn to_formula(&self) -> Formula {
        match self {
            Fact::Atom(a) => a.to_formula(),
            Fact::Or(atoms) => Formula::or(atoms.iter().map(Atom::to_formula)),
        }
    }
    pub fn collect_vars(&self, out: &mut BTreeSet<Var>) {
        match self {
            Fact::Atom(a) => a.collect_vars(out),
            Fact::Or(atoms) => atoms.iter().for_each(|a| a.collect_vars(out)),
        }
    }
    pub fn vars(&self) -> BTreeSet<Var> {
        let mut s = BTreeSet::new();
        self.collect_vars(&mut s);
        s
    }
    pub fn substitute(&self, f: &dyn Fn(&Var) -> Option<LinExpr>) -> Option<Fact> {
        match self {
            Fact::Atom(a) => Some(Fact::Atom(a.substitute(f)?)),
            Fact::Or(atoms) => {
                let mut out = Vec::new();
                for a in atoms {
                    out.push(a.substitute(f)?);
                }
                Some(Fact::Or(out))
            }
        }
    }
    pub fn rename(&self, f: &dyn Fn(&Var) -> Var) -> Fact {
        match self {
            Fact::Atom(a) => Fact::Atom(a.rename(f)),
            Fact::Or(atoms) => Fact::Or(atoms.iter().map(|a| a.rename(f)).collect()),
        }
    }
    /// `Some(truth)` if the fact has no variables.
    pub fn const_value(&self) -> Option<bool> {
        match self {
            Fact::Atom(a) => a.const_value(),
            Fact::Or(atoms) => {
                let mut all_false = true;
                for a in atoms {
                    match a.const_value() {
                        Some(true) => return Some(true),
                        Some(false) => {}
                        None => all_false = false,
                    }
                }
                if all_false {
                    Some(false)
                } else {
                    None
                }
            }
        }
    }
}

/// Conjunction of facts as a formula.
pub fn conj(facts: &[Fact]) -> Formula {
    Formula::and(facts.iter().map(Fact::to_formula))
}

//! Solver-independent integer terms and formulas: plain owned data shared by the symbolic executor, the ITS and the provers.
//!
//! Only `crate::smt` translates these into z3. Everything here is `Send + Sync + Hash`
//! so that summaries can be cached and functions analysed in parallel.

pub mod bv;
mod display;
mod linear;

pub use linear::LinExpr;

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;

/// A symbolic integer variable, identified by name. Names are unique within one problem
/// (one abstract state graph, one ITS). Cloning is cheap (shared string).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct Var(pub Arc<str>);

impl Var {
    pub fn new(name: impl AsRef<str>) -> Var {
        Var(Arc::from(name.as_ref()))
    }
    pub fn name(&self) -> &str {
        &self.0
    }
}

/// Integer constants. i128 covers every value of a 64-bit type in both views and
/// the products of small coefficients; arithmetic on constants is checked, and an
/// overflow makes the caller give up on the term (never wrap silently).
pub type Int = i128;

/// An integer term (mathematical integers).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum Term {
    Const(Int),
    Var(Var),
    /// Sum of the terms.
    Add(Vec<Term>),
    /// Product of the terms (non-linear when two or more contain variables).
    Mul(Vec<Term>),
    Neg(Box<Term>),
    /// Euclidean division as in SMT-LIB `div` (remainder is non-negative).
    Div(Box<Term>, Box<Term>),
    /// Euclidean remainder as in SMT-LIB `mod` (always in `0..|d|`).
    Mod(Box<Term>, Box<Term>),
    Ite(Box<Formula>, Box<Term>, Box<Term>),
}

/// Comparison of two terms.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum Rel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// A quantifier-free formula over integer terms (plus `Exists`, as the T2 ITS format uses it).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum Formula {
    True,
    False,
    Cmp(Rel, Term, Term),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    Not(Box<Formula>),
    /// Boolean variable (rare; e.g. boolean arguments in ITS inputs).
    BoolVar(Var),
    Exists(Vec<Var>, Box<Formula>),
}

impl Term {
    pub fn var(v: &Var) -> Term {
        Term::Var(v.clone())
    }
    pub fn constant(c: Int) -> Term {
        Term::Const(c)
    }
    pub fn add(a: Term, b: Term) -> Term {
        Term::Add(vec![a, b])
    }
    pub fn sub(a: Term, b: Term) -> Term {
        Term::Add(vec![a, Term::Neg(Box::new(b))])
    }
    pub fn mul(a: Term, b: Term) -> Term {
        Term::Mul(vec![a, b])
    }
    pub fn scale(c: Int, t: Term) -> Term {
        Term::Mul(vec![Term::Const(c), t])
    }
    /// Collects the free variables of the term into `out`.
    pub fn collect_vars(&self, out: &mut BTreeSet<Var>) {
        match self {
            Term::Const(_) => {}
            Term::Var(v) => {
                out.insert(v.clone());
            }
            Term::Add(ts) | Term::Mul(ts) => ts.iter().for_each(|t| t.collect_vars(out)),
            Term::Neg(t) => t.collect_vars(out),
            Term::Div(a, b) | Term::Mod(a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
            Term::Ite(c, a, b) => {
                c.collect_vars(out);
                a.collect_vars(out);
                b.collect_vars(out);
            }
        }
    }
    /// Replaces variables by terms (capture-free: terms have no binders).
    pub fn substitute(&self, f: &dyn Fn(&Var) -> Option<Term>) -> Term {
        match self {
            Term::Const(_) => self.clone(),
            Term::Var(v) => f(v).unwrap_or_else(|| self.clone()),
            Term::Add(ts) => Term::Add(ts.iter().map(|t| t.substitute(f)).collect()),
            Term::Mul(ts) => Term::Mul(ts.iter().map(|t| t.substitute(f)).collect()),
            Term::Neg(t) => Term::Neg(Box::new(t.substitute(f))),
            Term::Div(a, b) => Term::Div(Box::new(a.substitute(f)), Box::new(b.substitute(f))),
            Term::Mod(a, b) => Term::Mod(Box::new(a.substitute(f)), Box::new(b.substitute(f))),
            Term::Ite(c, a, b) => Term::Ite(
                Box::new(c.substitute(f)),
                Box::new(a.substitute(f)),
                Box::new(b.substitute(f)),
            ),
        }
    }
    /// The linear form of the term, if it is linear (constant products, no div/mod/ite).
    pub fn as_linear(&self) -> Option<LinExpr> {
        LinExpr::from_term(self)
    }
}

impl Formula {
    pub fn cmp(rel: Rel, a: Term, b: Term) -> Formula {
        Formula::Cmp(rel, a, b)
    }
    pub fn eq(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Eq, a, b)
    }
    pub fn le(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Le, a, b)
    }
    pub fn lt(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Lt, a, b)
    }
    pub fn ge(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Ge, a, b)
    }
    pub fn gt(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Gt, a, b)
    }
    pub fn ne(a: Term, b: Term) -> Formula {
        Formula::Cmp(Rel::Ne, a, b)
    }
    /// Conjunction with flattening and trivial simplification.
    pub fn and(parts: impl IntoIterator<Item = Formula>) -> Formula {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Formula::True => {}
                Formula::False => return Formula::False,
                Formula::And(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        match out.len() {
            0 => Formula::True,
            1 => out.pop().unwrap_or(Formula::True),
            _ => Formula::And(out),
        }
    }
    /// Disjunction with flattening and trivial simplification.
    pub fn or(parts: impl IntoIterator<Item = Formula>) -> Formula {
        let mut out = Vec::new();
        for p in parts {
            match p {
                Formula::False => {}
                Formula::True => return Formula::True,
                Formula::Or(inner) => out.extend(inner),
                other => out.push(other),
            }
        }
        match out.len() {
            0 => Formula::False,
            1 => out.pop().unwrap_or(Formula::False),
            _ => Formula::Or(out),
        }
    }
    pub fn not(f: Formula) -> Formula {
        match f {
            Formula::True => Formula::False,
            Formula::False => Formula::True,
            Formula::Not(inner) => *inner,
            Formula::Cmp(rel, a, b) => Formula::Cmp(rel.negate(), a, b),
            other => Formula::Not(Box::new(other)),
        }
    }
    pub fn implies(a: Formula, b: Formula) -> Formula {
        Formula::or([Formula::not(a), b])
    }
    /// Collects the free variables into `out`.
    pub fn collect_vars(&self, out: &mut BTreeSet<Var>) {
        match self {
            Formula::True | Formula::False => {}
            Formula::Cmp(_, a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
            Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| f.collect_vars(out)),
            Formula::Not(f) => f.collect_vars(out),
            Formula::BoolVar(v) => {
                out.insert(v.clone());
            }
            Formula::Exists(bound, body) => {
                let mut inner = BTreeSet::new();
                body.collect_vars(&mut inner);
                for v in inner {
                    if !bound.contains(&v) {
                        out.insert(v);
                    }
                }
            }
        }
    }
    pub fn vars(&self) -> BTreeSet<Var> {
        let mut out = BTreeSet::new();
        self.collect_vars(&mut out);
        out
    }
    /// Replaces free variables by terms. Bound variables of `Exists` are never replaced;
    /// callers must keep substituted terms free of bound names (fresh names guarantee it).
    pub fn substitute(&self, f: &dyn Fn(&Var) -> Option<Term>) -> Formula {
        match self {
            Formula::True | Formula::False | Formula::BoolVar(_) => self.clone(),
            Formula::Cmp(r, a, b) => Formula::Cmp(*r, a.substitute(f), b.substitute(f)),
            Formula::And(fs) => Formula::And(fs.iter().map(|x| x.substitute(f)).collect()),
            Formula::Or(fs) => Formula::Or(fs.iter().map(|x| x.substitute(f)).collect()),
            Formula::Not(x) => Formula::Not(Box::new(x.substitute(f))),
            Formula::Exists(bound, body) => {
                let g = |v: &Var| if bound.contains(v) { None } else { f(v) };
                Formula::Exists(bound.clone(), Box::new(body.substitute(&g)))
            }
        }
    }
    /// The top-level conjuncts of the formula.
    pub fn conjuncts(&self) -> Vec<Formula> {
        match self {
            Formula::True => vec![],
            Formula::And(fs) => fs.iter().flat_map(|f| f.conjuncts()).collect(),
            other => vec![other.clone()],
        }
    }
}

impl Rel {
    pub fn negate(self) -> Rel {
        match self {
            Rel::Eq => Rel::Ne,
            Rel::Ne => Rel::Eq,
            Rel::Lt => Rel::Ge,
            Rel::Le => Rel::Gt,
            Rel::Gt => Rel::Le,
            Rel::Ge => Rel::Lt,
        }
    }
    /// The relation with its operands swapped (`a < b` iff `b > a`).
    pub fn flip(self) -> Rel {
        match self {
            Rel::Eq => Rel::Eq,
            Rel::Ne => Rel::Ne,
            Rel::Lt => Rel::Gt,
            Rel::Le => Rel::Ge,
            Rel::Gt => Rel::Lt,
            Rel::Ge => Rel::Le,
        }
    }
    pub fn holds(self, a: Int, b: Int) -> bool {
        match self {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Lt => a < b,
            Rel::Le => a <= b,
            Rel::Gt => a > b,
            Rel::Ge => a >= b,
        }
    }
}

#[cfg(test)]
mod tests;

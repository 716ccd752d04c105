//! Translation of `logic` terms and formulas into z3 ASTs, and of z3 models back.

use super::{Model, Query, SatResult, Value};
use crate::logic::{Formula, Rel, Term, Var};
use std::collections::HashMap;
use z3::ast::{Ast, Bool, Int, Real};

/// z3 numeric AST of either sort.
#[derive(Clone)]
enum Num {
    I(Int),
    R(Real),
}

impl Num {
    fn to_real(&self) -> Real {
        match self {
            Num::I(i) => i.to_real(),
            Num::R(r) => r.clone(),
        }
    }
}

struct Translator<'q> {
    query: &'q Query<'q>,
    consts: HashMap<Var, Num>,
    bools: HashMap<Var, Bool>,
    bound: Vec<HashMap<Var, Int>>,
}

impl Translator<'_> {
    fn var(&mut self, v: &Var) -> Num {
        for scope in self.bound.iter().rev() {
            if let Some(i) = scope.get(v) {
                return Num::I(i.clone());
            }
        }
        if let Some(n) = self.consts.get(v) {
            return n.clone();
        }
        let n = if self.query.real_vars.contains(v) {
            Num::R(Real::new_const(v.name()))
        } else {
            Num::I(Int::new_const(v.name()))
        };
        self.consts.insert(v.clone(), n.clone());
        n
    }

    fn term(&mut self, t: &Term) -> Num {
        match t {
            Term::Const(c) => Num::I(Int::from_i128(*c)),
            Term::Var(v) => self.var(v),
            Term::Add(ts) | Term::Mul(ts) => {
                let parts: Vec<Num> = ts.iter().map(|t| self.term(t)).collect();
                let is_add = matches!(t, Term::Add(_));
                if parts.is_empty() {
                    return Num::I(Int::from_i64(if is_add { 0 } else { 1 }));
                }
                if parts.iter().all(|p| matches!(p, Num::I(_))) {
                    let ints: Vec<Int> = parts
                        .into_iter()
                        .map(|p| match p {
                            Num::I(i) => i,
                            Num::R(_) => unreachable!("checked all-int above"),
                        })
                        .collect();
                    Num::I(if is_add { Int::add(&ints) } else { Int::mul(&ints) })
                } else {
                    let reals: Vec<Real> = parts.iter().map(Num::to_real).collect();
                    Num::R(if is_add { Real::add(&reals) } else { Real::mul(&reals) })
                }
            }
            Term::Neg(t) => match self.term(t) {
                Num::I(i) => Num::I(i.unary_minus()),
                Num::R(r) => Num::R(r.unary_minus()),
            },
            Term::Div(a, b) => match (self.term(a), self.term(b)) {
                (Num::I(a), Num::I(b)) => Num::I(a.div(&b)),
                (a, b) => Num::R(a.to_real().div(&b.to_real())),
            },
            Term::Mod(a, b) => match (self.term(a), self.term(b)) {
                (Num::I(a), Num::I(b)) => Num::I(a.modulo(&b)),
                // `mod` on reals has no meaning; the parser never builds it.
                (a, _) => a,
            },
            Term::Ite(c, a, b) => {
                let c = self.formula(c);
                match (self.term(a), self.term(b)) {
                    (Num::I(a), Num::I(b)) => Num::I(c.ite(&a, &b)),
                    (a, b) => Num::R(c.ite(&a.to_real(), &b.to_real())),
                }
            }
        }
    }

    fn formula(&mut self, f: &Formula) -> Bool {
        match f {
            Formula::True => Bool::from_bool(true),
            Formula::False => Bool::from_bool(false),
            Formula::Cmp(rel, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                match (a, b) {
                    (Num::I(a), Num::I(b)) => match rel {
                        Rel::Eq => a.eq(&b),
                        Rel::Ne => a.eq(&b).not(),
                        Rel::Lt => a.lt(&b),
                        Rel::Le => a.le(&b),
                        Rel::Gt => a.gt(&b),
                        Rel::Ge => a.ge(&b),
                    },
                    (a, b) => {
                        let (a, b) = (a.to_real(), b.to_real());
                        match rel {
                            Rel::Eq => a.eq(&b),
                            Rel::Ne => a.eq(&b).not(),
                            Rel::Lt => a.lt(&b),
                            Rel::Le => a.le(&b),
                            Rel::Gt => a.gt(&b),
                            Rel::Ge => a.ge(&b),
                        }
                    }
                }
            }
            Formula::And(fs) => {
                let parts: Vec<Bool> = fs.iter().map(|f| self.formula(f)).collect();
                Bool::and(&parts)
            }
            Formula::Or(fs) => {
                let parts: Vec<Bool> = fs.iter().map(|f| self.formula(f)).collect();
                Bool::or(&parts)
            }
            Formula::Not(f) => self.formula(f).not(),
            Formula::BoolVar(v) => {
                if let Some(b) = self.bools.get(v) {
                    return b.clone();
                }
                let b = Bool::new_const(format!("b!{}", v.name()));
                self.bools.insert(v.clone(), b.clone());
                b
            }
            Formula::Exists(vars, body) => {
                let scope: HashMap<Var, Int> = vars.iter().map(|v| (v.clone(), Int::fresh_const(v.name()))).collect();
                let bound: Vec<Int> = scope.values().cloned().collect();
                self.bound.push(scope);
                let inner = self.formula(body);
                self.bound.pop();
                let bound_refs: Vec<&dyn Ast> = bound.iter().map(|b| b as &dyn Ast).collect();
                z3::ast::exists_const(&bound_refs, &[], &inner)
            }
        }
    }
}

/// Decides `query` and reads the model of `model_vars` when `Sat`: on `reused` when the query
/// fits it (`reuse::fits`), else on a fresh solver with z3's default tactics.
pub(super) fn solve(query: &Query<'_>, model_vars: &[Var], reused: &mut super::reuse::ReusedSolver) -> (SatResult, Option<Model>) {
    let mut tr = Translator { query, consts: HashMap::new(), bools: HashMap::new(), bound: Vec::new() };
    let assertion = tr.formula(query.formula);
    if super::reuse::fits(query.formula, !query.real_vars.is_empty()) {
        return reused.check(&assertion, query.timeout, |solver, result| read_model(&mut tr, solver, result, model_vars));
    }
    let (result, solver) = super::run_solver(&assertion, query.timeout);
    read_model(&mut tr, &solver, result, model_vars)
}

/// The answer, with the model of `model_vars` read from `solver` when `Sat`.
fn read_model(tr: &mut Translator<'_>, solver: &z3::Solver, result: SatResult, model_vars: &[Var]) -> (SatResult, Option<Model>) {
    if result != SatResult::Sat || model_vars.is_empty() {
        return (result, None);
    }
    let Some(z3_model) = solver.get_model() else { return (SatResult::Unknown, None) };
    let mut model = Model::new();
    for v in model_vars {
        let value = match tr.var(v) {
            Num::I(i) => z3_model.eval(&i, true).and_then(|x| x.as_i128()).map(Value::Int),
            Num::R(r) => z3_model.eval(&r, true).and_then(|x| {
                let (n, d) = x.as_rational()?;
                Some(Value::Rat(n as i128, d as i128))
            }),
        };
        match value {
            Some(val) => {
                model.insert(v.clone(), val);
            }
            // A value we cannot represent exactly: the model is not usable as evidence.
            None => return (SatResult::Unknown, None),
        }
    }
    (result, Some(model))
}

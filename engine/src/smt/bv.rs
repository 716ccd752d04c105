//! Translation of `logic::bv` terms and formulas into z3 bit-vectors, and bit-vector
//! satisfiability with models. z3 `unknown` (timeouts included) is `SatResult::Unknown`,
//! never `Unsat`.

use super::SatResult;
use crate::logic::bv::{BvBinOp, BvFormula, BvPred, BvTerm};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;
use z3::ast::{Bool, BV};

/// A model of a bit-vector formula: variable name → bit pattern (within its width).
pub type BvModel = BTreeMap<String, u128>;

/// Translator with memoisation by node address: terms share subterms through `Arc`, and
/// translating each shared node once keeps the z3 AST linear in the term DAG.
#[derive(Default)]
struct BvTranslator {
    terms: HashMap<*const BvTerm, BV>,
    formulas: HashMap<*const BvFormula, Bool>,
    vars: BTreeMap<String, BV>,
}

fn constant(width: u32, value: u128) -> BV {
    if width <= 64 {
        BV::from_u64(value as u64, width)
    } else {
        let hi = BV::from_u64((value >> 64) as u64, width - 64);
        let lo = BV::from_u64(value as u64, 64);
        hi.concat(&lo)
    }
}

impl BvTranslator {
    fn term(&mut self, t: &BvTerm) -> BV {
        let key = t as *const BvTerm;
        if let Some(b) = self.terms.get(&key) {
            return b.clone();
        }
        let out = match t {
            BvTerm::Var { name, width } => {
                let v = self.vars.entry(name.to_string()).or_insert_with(|| BV::new_const(name.as_ref(), *width));
                v.clone()
            }
            BvTerm::Const { width, value } => constant(*width, *value),
            BvTerm::Bin { op, lhs, rhs, .. } => {
                let (a, b) = (self.term(lhs), self.term(rhs));
                match op {
                    BvBinOp::Add => a.bvadd(&b),
                    BvBinOp::Sub => a.bvsub(&b),
                    BvBinOp::Mul => a.bvmul(&b),
                    BvBinOp::UDiv => a.bvudiv(&b),
                    BvBinOp::URem => a.bvurem(&b),
                    BvBinOp::SDiv => a.bvsdiv(&b),
                    BvBinOp::SRem => a.bvsrem(&b),
                    BvBinOp::Shl => a.bvshl(&b),
                    BvBinOp::LShr => a.bvlshr(&b),
                    BvBinOp::AShr => a.bvashr(&b),
                    BvBinOp::And => a.bvand(&b),
                    BvBinOp::Or => a.bvor(&b),
                    BvBinOp::Xor => a.bvxor(&b),
                }
            }
            BvTerm::Not(a) => self.term(a).bvnot(),
            BvTerm::Neg(a) => self.term(a).bvneg(),
            BvTerm::Extract { high, low, arg } => self.term(arg).extract(*high, *low),
            BvTerm::ZExt { width, arg } => self.term(arg).zero_ext(width - arg.width()),
            BvTerm::SExt { width, arg } => self.term(arg).sign_ext(width - arg.width()),
            BvTerm::Concat(hi, lo) => {
                let h = self.term(hi);
                h.concat(&self.term(lo))
            }
            BvTerm::Ite(c, a, b) => {
                let c = self.formula(c);
                let (a, b) = (self.term(a), self.term(b));
                c.ite(&a, &b)
            }
        };
        self.terms.insert(key, out.clone());
        out
    }

    fn formula(&mut self, f: &BvFormula) -> Bool {
        let key = f as *const BvFormula;
        if let Some(b) = self.formulas.get(&key) {
            return b.clone();
        }
        let out = match f {
            BvFormula::True => Bool::from_bool(true),
            BvFormula::False => Bool::from_bool(false),
            BvFormula::Cmp(p, a, b) => {
                let (a, b) = (self.term(a), self.term(b));
                match p {
                    BvPred::Eq => a.eq(&b),
                    BvPred::Ult => a.bvult(&b),
                    BvPred::Ule => a.bvule(&b),
                    BvPred::Slt => a.bvslt(&b),
                    BvPred::Sle => a.bvsle(&b),
                }
            }
            BvFormula::Not(x) => self.formula(x).not(),
            BvFormula::And(fs) => {
                let parts: Vec<Bool> = fs.iter().map(|x| self.formula(x)).collect();
                Bool::and(&parts)
            }
            BvFormula::Or(fs) => {
                let parts: Vec<Bool> = fs.iter().map(|x| self.formula(x)).collect();
                Bool::or(&parts)
            }
        };
        self.formulas.insert(key, out.clone());
        out
    }
}

fn model_value(model: &z3::Model, v: &BV) -> Option<u128> {
    let w = v.get_size();
    if w <= 64 {
        return model.eval(v, true)?.as_u64().map(u128::from);
    }
    let lo = model.eval(&v.extract(63, 0), true)?.as_u64()?;
    let hi = model.eval(&v.extract(w - 1, 64), true)?.as_u64()?;
    Some((u128::from(hi) << 64) | u128::from(lo))
}

/// Satisfiability of a bit-vector formula within `timeout` (`None` = no limit); when `Sat`,
/// the model assigns every variable of the formula. A model that cannot be read back makes
/// the result `Unknown`.
pub(super) fn check_bv_here(formula: &BvFormula, timeout: Option<Duration>) -> (SatResult, Option<BvModel>) {
    let mut tr = BvTranslator::default();
    let assertion = tr.formula(formula);
    let (result, solver) = super::run_solver(&assertion, timeout);
    if result != SatResult::Sat {
        return (result, None);
    }
    let Some(z3_model) = solver.get_model() else { return (SatResult::Unknown, None) };
    let mut model = BvModel::new();
    for (name, v) in &tr.vars {
        match model_value(&z3_model, v) {
            Some(x) => {
                model.insert(name.clone(), x);
            }
            None => return (SatResult::Unknown, None),
        }
    }
    (result, Some(model))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::bv::{BvEnv, BvTerm};
    use crate::smt::check_bv;

    fn c(w: u32, v: u128) -> BvTerm {
        BvTerm::constant(w, v).unwrap()
    }

    #[test]
    fn models_satisfy_the_formula() {
        let x = BvTerm::var("x", 32).unwrap();
        // x + 1 == 0 (unsigned wrap) has the single model x = 2^32 - 1.
        let f = BvFormula::eq(BvTerm::add(x.clone(), c(32, 1)).unwrap(), c(32, 0)).unwrap();
        let (r, m) = check_bv(&f, Some(Duration::from_secs(5)));
        assert_eq!(r, SatResult::Sat);
        let m = m.unwrap();
        assert_eq!(m["x"], 0xffff_ffff);
        assert!(f.eval(&m).unwrap());
    }

    #[test]
    fn wide_values_round_trip() {
        let y = BvTerm::var("y", 128).unwrap();
        let v = (0xdead_beefu128 << 80) | 7;
        let f = BvFormula::eq(y, c(128, v)).unwrap();
        let (r, m) = check_bv(&f, None);
        assert_eq!(r, SatResult::Sat);
        assert_eq!(m.unwrap()["y"], v);
    }

    #[test]
    fn unsat_is_unsat() {
        let x = BvTerm::var("x", 8).unwrap();
        let f = BvFormula::and([
            BvFormula::ult(x.clone(), c(8, 3)).unwrap(),
            BvFormula::ult(c(8, 5), x.clone()).unwrap(),
        ]);
        assert_eq!(check_bv(&f, Some(Duration::from_secs(5))).0, SatResult::Unsat);
    }

    /// z3 agrees with the evaluator on every operation for boundary values.
    #[test]
    fn z3_agrees_with_evaluator() {
        let ops = [
            BvBinOp::Add,
            BvBinOp::Sub,
            BvBinOp::Mul,
            BvBinOp::UDiv,
            BvBinOp::URem,
            BvBinOp::SDiv,
            BvBinOp::SRem,
            BvBinOp::Shl,
            BvBinOp::LShr,
            BvBinOp::AShr,
            BvBinOp::And,
            BvBinOp::Or,
            BvBinOp::Xor,
        ];
        for w in [1u32, 8, 64] {
            let m = crate::logic::bv::mask(w);
            let vals = [0u128, 1, m, m >> 1, (m >> 1) + 1, 3 & m];
            let mut parts = Vec::new();
            let env = BvEnv::new();
            for op in ops {
                for &a in &vals {
                    for &b in &vals {
                        let t = BvTerm::bin(op, c(w, a), c(w, b)).unwrap();
                        let expected = t.eval(&env).unwrap();
                        parts.push(BvFormula::Cmp(BvPred::Eq, std::sync::Arc::new(t), std::sync::Arc::new(c(w, expected))));
                    }
                }
            }
            // All equalities hold together: the conjunction is valid, its negation unsat.
            let f = BvFormula::not(BvFormula::and(parts));
            assert_eq!(check_bv(&f, Some(Duration::from_secs(20))).0, SatResult::Unsat, "width {w}");
        }
    }
}

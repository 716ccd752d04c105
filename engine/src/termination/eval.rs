//! Concrete evaluation of terms and formulas under an integer assignment (for replaying witnesses).
//!
//! Every operation is checked: an overflow, a division by zero or an unassigned variable gives
//! `None`, and callers then refuse the witness (never guess).

use crate::logic::{Formula, Int, Term, Var};
use std::collections::BTreeMap;

/// An assignment of integer values to variables.
pub type Valuation = BTreeMap<Var, Int>;

/// Evaluates a term; `None` if undefined (unassigned variable, overflow, division by zero).
pub fn eval_term(t: &Term, val: &Valuation) -> Option<Int> {
    match t {
        Term::Const(c) => Some(*c),
        Term::Var(v) => val.get(v).copied(),
        Term::Add(ts) => ts.iter().try_fold(0 as Int, |acc, t| acc.checked_add(eval_term(t, val)?)),
        Term::Mul(ts) => ts.iter().try_fold(1 as Int, |acc, t| acc.checked_mul(eval_term(t, val)?)),
        Term::Neg(t) => eval_term(t, val)?.checked_neg(),
        Term::Div(a, b) => {
            let (a, b) = (eval_term(a, val)?, eval_term(b, val)?);
            // SMT-LIB div: a = b·q + r with 0 ≤ r < |b|.
            if b == 0 {
                return None;
            }
            let r = a.checked_rem_euclid(b)?;
            (a.checked_sub(r)?).checked_div(b)
        }
        Term::Mod(a, b) => {
            let (a, b) = (eval_term(a, val)?, eval_term(b, val)?);
            if b == 0 {
                return None;
            }
            a.checked_rem_euclid(b)
        }
        Term::Ite(c, a, b) => {
            if eval_formula(c, val)? {
                eval_term(a, val)
            } else {
                eval_term(b, val)
            }
        }
    }
}

/// Evaluates a quantifier-free formula; `None` if undefined or if it contains a quantifier or a boolean variable.
pub fn eval_formula(f: &Formula, val: &Valuation) -> Option<bool> {
    match f {
        Formula::True => Some(true),
        Formula::False => Some(false),
        Formula::Cmp(r, a, b) => Some(r.holds(eval_term(a, val)?, eval_term(b, val)?)),
        Formula::And(fs) => {
            let mut all = true;
            for f in fs {
                all &= eval_formula(f, val)?;
            }
            Some(all)
        }
        Formula::Or(fs) => {
            let mut any = false;
            for f in fs {
                any |= eval_formula(f, val)?;
            }
            Some(any)
        }
        Formula::Not(f) => Some(!eval_formula(f, val)?),
        Formula::BoolVar(_) | Formula::Exists(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euclidean_division_and_undefined_cases() {
        let x = Var::new("x");
        let val: Valuation = [(x.clone(), -7)].into_iter().collect();
        let div = Term::Div(Box::new(Term::var(&x)), Box::new(Term::Const(2)));
        let rem = Term::Mod(Box::new(Term::var(&x)), Box::new(Term::Const(2)));
        assert_eq!(eval_term(&div, &val), Some(-4));
        assert_eq!(eval_term(&rem, &val), Some(1));
        assert_eq!(eval_term(&Term::Div(Box::new(Term::Const(1)), Box::new(Term::Const(0))), &val), None);
        assert_eq!(eval_term(&Term::var(&Var::new("y")), &val), None);
    }
}

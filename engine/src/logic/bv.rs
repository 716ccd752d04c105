//! Bit-vector terms and formulas (fixed-width, two's complement, SMT-LIB `QF_BV` semantics):
//! plain owned data for bit-precise reasoning, with a concrete evaluator that is the reference
//! for the z3 translation in `crate::smt::bv` and for certificate re-checks.
//!
//! Widths are 1..=128 bits; values are `u128` bit patterns (bits above the width are zero).
//! Constructors check widths and return `BvWidthError` on a mismatch, never panic. Division
//! and shifts follow SMT-LIB exactly (`x udiv 0 = all ones`, `x urem 0 = x`, shifts by ≥ the
//! width give 0 or the sign fill), so the evaluator and z3 agree on every input; whether such
//! an operation is undefined behaviour in the program is the encoder's business, not the term's.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// Widest bit-vector supported.
pub const MAX_BV_WIDTH: u32 = 128;

/// A width mismatch or an out-of-range width/extract in a constructor.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("bit-vector width error: {0}")]
pub struct BvWidthError(pub String);

/// Binary bit-vector operations (both operands and the result have one width).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum BvBinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    URem,
    SDiv,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// A bit-vector term. Children are shared (`Arc`), so cloning is cheap and symbolic
/// execution does not copy subterms.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum BvTerm {
    Var { name: Arc<str>, width: u32 },
    Const { width: u32, value: u128 },
    Bin { op: BvBinOp, width: u32, lhs: Arc<BvTerm>, rhs: Arc<BvTerm> },
    Not(Arc<BvTerm>),
    Neg(Arc<BvTerm>),
    /// Bits `high..=low`.
    Extract { high: u32, low: u32, arg: Arc<BvTerm> },
    ZExt { width: u32, arg: Arc<BvTerm> },
    SExt { width: u32, arg: Arc<BvTerm> },
    /// `hi ++ lo` (hi in the upper bits).
    Concat(Arc<BvTerm>, Arc<BvTerm>),
    Ite(Arc<BvFormula>, Arc<BvTerm>, Arc<BvTerm>),
}

/// Comparison predicates of bit-vector formulas.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum BvPred {
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

/// A quantifier-free bit-vector formula.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub enum BvFormula {
    True,
    False,
    Cmp(BvPred, Arc<BvTerm>, Arc<BvTerm>),
    Not(Arc<BvFormula>),
    And(Vec<BvFormula>),
    Or(Vec<BvFormula>),
}

/// Assignment of variables (by name) to bit patterns, for `eval`.
pub type BvEnv = BTreeMap<String, u128>;

/// Why a term could not be evaluated.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum BvEvalError {
    #[error("variable {0} has no value")]
    Unbound(String),
}

/// Mask of the low `width` bits.
pub fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The bit pattern as a signed integer of `width` bits (`width <= 128`).
pub fn to_signed(value: u128, width: u32) -> i128 {
    if width >= 128 {
        return value as i128;
    }
    let shift = 128 - width;
    ((value << shift) as i128) >> shift
}

/// The `width`-bit pattern of a (possibly negative) integer.
pub fn from_signed(value: i128, width: u32) -> u128 {
    (value as u128) & mask(width)
}

fn check_width(width: u32) -> Result<(), BvWidthError> {
    if width == 0 || width > MAX_BV_WIDTH {
        return Err(BvWidthError(format!("width {width} not in 1..={MAX_BV_WIDTH}")));
    }
    Ok(())
}

fn same_width(a: &BvTerm, b: &BvTerm, what: &str) -> Result<u32, BvWidthError> {
    if a.width() != b.width() {
        return Err(BvWidthError(format!("{what}: operands of widths {} and {}", a.width(), b.width())));
    }
    Ok(a.width())
}

impl BvTerm {
    pub fn var(name: impl AsRef<str>, width: u32) -> Result<BvTerm, BvWidthError> {
        check_width(width)?;
        Ok(BvTerm::Var { name: Arc::from(name.as_ref()), width })
    }
    /// The constant `value mod 2^width`.
    pub fn constant(width: u32, value: u128) -> Result<BvTerm, BvWidthError> {
        check_width(width)?;
        Ok(BvTerm::Const { width, value: value & mask(width) })
    }
    /// The constant with the bit pattern of the signed integer `value`.
    pub fn signed_constant(width: u32, value: i128) -> Result<BvTerm, BvWidthError> {
        BvTerm::constant(width, from_signed(value, width))
    }
    pub fn bin(op: BvBinOp, lhs: BvTerm, rhs: BvTerm) -> Result<BvTerm, BvWidthError> {
        let width = same_width(&lhs, &rhs, &format!("{op:?}"))?;
        Ok(BvTerm::Bin { op, width, lhs: Arc::new(lhs), rhs: Arc::new(rhs) })
    }
    pub fn add(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Add, a, b)
    }
    pub fn sub(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Sub, a, b)
    }
    pub fn mul(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Mul, a, b)
    }
    pub fn udiv(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::UDiv, a, b)
    }
    pub fn urem(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::URem, a, b)
    }
    pub fn sdiv(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::SDiv, a, b)
    }
    pub fn srem(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::SRem, a, b)
    }
    pub fn shl(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Shl, a, b)
    }
    pub fn lshr(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::LShr, a, b)
    }
    pub fn ashr(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::AShr, a, b)
    }
    pub fn and(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::And, a, b)
    }
    pub fn or(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Or, a, b)
    }
    pub fn xor(a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        BvTerm::bin(BvBinOp::Xor, a, b)
    }
    #[allow(clippy::should_implement_trait)]
    pub fn not(a: BvTerm) -> BvTerm {
        BvTerm::Not(Arc::new(a))
    }
    #[allow(clippy::should_implement_trait)]
    pub fn neg(a: BvTerm) -> BvTerm {
        BvTerm::Neg(Arc::new(a))
    }
    /// Bits `high..=low` (requires `low <= high < width`).
    pub fn extract(high: u32, low: u32, a: BvTerm) -> Result<BvTerm, BvWidthError> {
        if low > high || high >= a.width() {
            return Err(BvWidthError(format!("extract {high}..{low} of a {}-bit term", a.width())));
        }
        Ok(BvTerm::Extract { high, low, arg: Arc::new(a) })
    }
    /// Zero extension to `width` (≥ the term's width; equal width is the identity).
    pub fn zext(width: u32, a: BvTerm) -> Result<BvTerm, BvWidthError> {
        check_width(width)?;
        if width < a.width() {
            return Err(BvWidthError(format!("zext of a {}-bit term to {width} bits", a.width())));
        }
        if width == a.width() {
            return Ok(a);
        }
        Ok(BvTerm::ZExt { width, arg: Arc::new(a) })
    }
    /// Sign extension to `width` (≥ the term's width; equal width is the identity).
    pub fn sext(width: u32, a: BvTerm) -> Result<BvTerm, BvWidthError> {
        check_width(width)?;
        if width < a.width() {
            return Err(BvWidthError(format!("sext of a {}-bit term to {width} bits", a.width())));
        }
        if width == a.width() {
            return Ok(a);
        }
        Ok(BvTerm::SExt { width, arg: Arc::new(a) })
    }
    /// Truncation to the low `width` bits (equal width is the identity).
    pub fn trunc(width: u32, a: BvTerm) -> Result<BvTerm, BvWidthError> {
        if width == a.width() {
            return Ok(a);
        }
        if width == 0 {
            return Err(BvWidthError("trunc to 0 bits".into()));
        }
        BvTerm::extract(width - 1, 0, a)
    }
    pub fn concat(hi: BvTerm, lo: BvTerm) -> Result<BvTerm, BvWidthError> {
        check_width(hi.width() + lo.width())?;
        Ok(BvTerm::Concat(Arc::new(hi), Arc::new(lo)))
    }
    pub fn ite(c: BvFormula, a: BvTerm, b: BvTerm) -> Result<BvTerm, BvWidthError> {
        same_width(&a, &b, "ite")?;
        match c {
            BvFormula::True => Ok(a),
            BvFormula::False => Ok(b),
            c => Ok(BvTerm::Ite(Arc::new(c), Arc::new(a), Arc::new(b))),
        }
    }
    /// The 1-bit term that is 1 iff `f` holds (LLVM's `i1` view of a condition).
    pub fn from_bool(f: BvFormula) -> BvTerm {
        let one = BvTerm::Const { width: 1, value: 1 };
        let zero = BvTerm::Const { width: 1, value: 0 };
        match f {
            BvFormula::True => one,
            BvFormula::False => zero,
            f => BvTerm::Ite(Arc::new(f), Arc::new(one), Arc::new(zero)),
        }
    }

    pub fn width(&self) -> u32 {
        match self {
            BvTerm::Var { width, .. } | BvTerm::Const { width, .. } | BvTerm::Bin { width, .. } => *width,
            BvTerm::Not(a) | BvTerm::Neg(a) => a.width(),
            BvTerm::Extract { high, low, .. } => high - low + 1,
            BvTerm::ZExt { width, .. } | BvTerm::SExt { width, .. } => *width,
            BvTerm::Concat(a, b) => a.width() + b.width(),
            BvTerm::Ite(_, a, _) => a.width(),
        }
    }

    /// The constant's value, if the term is a constant.
    pub fn as_const(&self) -> Option<u128> {
        match self {
            BvTerm::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// Evaluates the term under `env` (SMT-LIB semantics).
    pub fn eval(&self, env: &BvEnv) -> Result<u128, BvEvalError> {
        let w = self.width();
        let m = mask(w);
        Ok(match self {
            BvTerm::Var { name, .. } => env.get(name.as_ref()).copied().ok_or_else(|| BvEvalError::Unbound(name.to_string()))? & m,
            BvTerm::Const { value, .. } => *value & m,
            BvTerm::Bin { op, lhs, rhs, .. } => {
                let (a, b) = (lhs.eval(env)?, rhs.eval(env)?);
                eval_bin(*op, w, a, b)
            }
            BvTerm::Not(a) => !a.eval(env)? & m,
            BvTerm::Neg(a) => a.eval(env)?.wrapping_neg() & m,
            BvTerm::Extract { high, low, arg } => (arg.eval(env)? >> low) & mask(high - low + 1),
            BvTerm::ZExt { arg, .. } => arg.eval(env)?,
            BvTerm::SExt { arg, .. } => from_signed(to_signed(arg.eval(env)?, arg.width()), w),
            BvTerm::Concat(hi, lo) => {
                let l = lo.eval(env)?;
                let h = hi.eval(env)?;
                if lo.width() >= 128 {
                    l
                } else {
                    ((h << lo.width()) | l) & m
                }
            }
            BvTerm::Ite(c, a, b) => {
                if c.eval(env)? {
                    a.eval(env)?
                } else {
                    b.eval(env)?
                }
            }
        })
    }

    /// Collects the variables (name, width) of the term.
    pub fn collect_vars(&self, out: &mut BTreeMap<String, u32>) {
        match self {
            BvTerm::Var { name, width } => {
                out.insert(name.to_string(), *width);
            }
            BvTerm::Const { .. } => {}
            BvTerm::Bin { lhs, rhs, .. } | BvTerm::Concat(lhs, rhs) => {
                lhs.collect_vars(out);
                rhs.collect_vars(out);
            }
            BvTerm::Not(a) | BvTerm::Neg(a) => a.collect_vars(out),
            BvTerm::Extract { arg, .. } | BvTerm::ZExt { arg, .. } | BvTerm::SExt { arg, .. } => arg.collect_vars(out),
            BvTerm::Ite(c, a, b) => {
                c.collect_vars(out);
                a.collect_vars(out);
                b.collect_vars(out);
            }
        }
    }

    /// Replaces variables (by name) with terms of the same width; a replacement of another
    /// width is an error.
    pub fn substitute(&self, f: &dyn Fn(&str) -> Option<BvTerm>) -> Result<BvTerm, BvWidthError> {
        Ok(match self {
            BvTerm::Var { name, width } => match f(name) {
                Some(t) if t.width() == *width => t,
                Some(t) => return Err(BvWidthError(format!("substituting a {}-bit term for {name} ({width} bits)", t.width()))),
                None => self.clone(),
            },
            BvTerm::Const { .. } => self.clone(),
            BvTerm::Bin { op, width, lhs, rhs } => {
                BvTerm::Bin { op: *op, width: *width, lhs: Arc::new(lhs.substitute(f)?), rhs: Arc::new(rhs.substitute(f)?) }
            }
            BvTerm::Not(a) => BvTerm::Not(Arc::new(a.substitute(f)?)),
            BvTerm::Neg(a) => BvTerm::Neg(Arc::new(a.substitute(f)?)),
            BvTerm::Extract { high, low, arg } => BvTerm::Extract { high: *high, low: *low, arg: Arc::new(arg.substitute(f)?) },
            BvTerm::ZExt { width, arg } => BvTerm::ZExt { width: *width, arg: Arc::new(arg.substitute(f)?) },
            BvTerm::SExt { width, arg } => BvTerm::SExt { width: *width, arg: Arc::new(arg.substitute(f)?) },
            BvTerm::Concat(a, b) => BvTerm::Concat(Arc::new(a.substitute(f)?), Arc::new(b.substitute(f)?)),
            BvTerm::Ite(c, a, b) => BvTerm::Ite(Arc::new(c.substitute(f)?), Arc::new(a.substitute(f)?), Arc::new(b.substitute(f)?)),
        })
    }
}

/// One binary operation on `w`-bit patterns, SMT-LIB semantics.
pub fn eval_bin(op: BvBinOp, w: u32, a: u128, b: u128) -> u128 {
    let m = mask(w);
    let (a, b) = (a & m, b & m);
    let (sa, sb) = (to_signed(a, w), to_signed(b, w));
    let r = match op {
        BvBinOp::Add => a.wrapping_add(b),
        BvBinOp::Sub => a.wrapping_sub(b),
        BvBinOp::Mul => a.wrapping_mul(b),
        BvBinOp::UDiv => {
            if b == 0 {
                m
            } else {
                a / b
            }
        }
        BvBinOp::URem => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        BvBinOp::SDiv => {
            // bvsdiv: sign-magnitude division with bvudiv's division-by-zero result.
            let (ma, mb) = (if sa < 0 { a.wrapping_neg() & m } else { a }, if sb < 0 { b.wrapping_neg() & m } else { b });
            let q = if mb == 0 { m } else { ma / mb };
            if (sa < 0) != (sb < 0) {
                q.wrapping_neg()
            } else {
                q
            }
        }
        BvBinOp::SRem => {
            let (ma, mb) = (if sa < 0 { a.wrapping_neg() & m } else { a }, if sb < 0 { b.wrapping_neg() & m } else { b });
            let r = if mb == 0 { ma } else { ma % mb };
            if sa < 0 {
                r.wrapping_neg()
            } else {
                r
            }
        }
        BvBinOp::Shl => {
            if b >= w as u128 {
                0
            } else {
                a << b
            }
        }
        BvBinOp::LShr => {
            if b >= w as u128 {
                0
            } else {
                a >> b
            }
        }
        BvBinOp::AShr => {
            if b >= w as u128 {
                if sa < 0 {
                    m
                } else {
                    0
                }
            } else {
                from_signed(sa >> b, w)
            }
        }
        BvBinOp::And => a & b,
        BvBinOp::Or => a | b,
        BvBinOp::Xor => a ^ b,
    };
    r & m
}

impl BvFormula {
    pub fn cmp(pred: BvPred, a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        same_width(&a, &b, &format!("{pred:?}"))?;
        if let (Some(x), Some(y)) = (a.as_const(), b.as_const()) {
            return Ok(if eval_pred(pred, a.width(), x, y) { BvFormula::True } else { BvFormula::False });
        }
        Ok(BvFormula::Cmp(pred, Arc::new(a), Arc::new(b)))
    }
    pub fn eq(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        BvFormula::cmp(BvPred::Eq, a, b)
    }
    pub fn ne(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        Ok(BvFormula::not(BvFormula::eq(a, b)?))
    }
    pub fn ult(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        BvFormula::cmp(BvPred::Ult, a, b)
    }
    pub fn ule(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        BvFormula::cmp(BvPred::Ule, a, b)
    }
    pub fn slt(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        BvFormula::cmp(BvPred::Slt, a, b)
    }
    pub fn sle(a: BvTerm, b: BvTerm) -> Result<BvFormula, BvWidthError> {
        BvFormula::cmp(BvPred::Sle, a, b)
    }
    /// The condition "the 1-bit term is 1".
    pub fn is_true(bit: BvTerm) -> Result<BvFormula, BvWidthError> {
        if bit.width() != 1 {
            return Err(BvWidthError(format!("condition of width {}", bit.width())));
        }
        if let BvTerm::Ite(c, a, b) = &bit {
            if a.as_const() == Some(1) && b.as_const() == Some(0) {
                return Ok((**c).clone());
            }
        }
        BvFormula::eq(bit, BvTerm::Const { width: 1, value: 1 })
    }
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: BvFormula) -> BvFormula {
        match f {
            BvFormula::True => BvFormula::False,
            BvFormula::False => BvFormula::True,
            BvFormula::Not(inner) => (*inner).clone(),
            f => BvFormula::Not(Arc::new(f)),
        }
    }
    /// Conjunction with flattening and trivial simplification.
    pub fn and(parts: impl IntoIterator<Item = BvFormula>) -> BvFormula {
        let mut out = Vec::new();
        for p in parts {
            match p {
                BvFormula::True => {}
                BvFormula::False => return BvFormula::False,
                BvFormula::And(inner) => out.extend(inner),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => BvFormula::True,
            1 => out.pop().unwrap_or(BvFormula::True),
            _ => BvFormula::And(out),
        }
    }
    /// Disjunction with flattening and trivial simplification.
    pub fn or(parts: impl IntoIterator<Item = BvFormula>) -> BvFormula {
        let mut out = Vec::new();
        for p in parts {
            match p {
                BvFormula::False => {}
                BvFormula::True => return BvFormula::True,
                BvFormula::Or(inner) => out.extend(inner),
                p => out.push(p),
            }
        }
        match out.len() {
            0 => BvFormula::False,
            1 => out.pop().unwrap_or(BvFormula::False),
            _ => BvFormula::Or(out),
        }
    }
    pub fn implies(a: BvFormula, b: BvFormula) -> BvFormula {
        BvFormula::or([BvFormula::not(a), b])
    }

    /// Evaluates the formula under `env`.
    pub fn eval(&self, env: &BvEnv) -> Result<bool, BvEvalError> {
        Ok(match self {
            BvFormula::True => true,
            BvFormula::False => false,
            BvFormula::Cmp(p, a, b) => eval_pred(*p, a.width(), a.eval(env)?, b.eval(env)?),
            BvFormula::Not(f) => !f.eval(env)?,
            BvFormula::And(fs) => {
                for f in fs {
                    if !f.eval(env)? {
                        return Ok(false);
                    }
                }
                true
            }
            BvFormula::Or(fs) => {
                for f in fs {
                    if f.eval(env)? {
                        return Ok(true);
                    }
                }
                false
            }
        })
    }

    pub fn collect_vars(&self, out: &mut BTreeMap<String, u32>) {
        match self {
            BvFormula::True | BvFormula::False => {}
            BvFormula::Cmp(_, a, b) => {
                a.collect_vars(out);
                b.collect_vars(out);
            }
            BvFormula::Not(f) => f.collect_vars(out),
            BvFormula::And(fs) | BvFormula::Or(fs) => fs.iter().for_each(|f| f.collect_vars(out)),
        }
    }
    /// The variables (name → width) of the formula.
    pub fn vars(&self) -> BTreeMap<String, u32> {
        let mut out = BTreeMap::new();
        self.collect_vars(&mut out);
        out
    }

    pub fn substitute(&self, f: &dyn Fn(&str) -> Option<BvTerm>) -> Result<BvFormula, BvWidthError> {
        Ok(match self {
            BvFormula::True | BvFormula::False => self.clone(),
            BvFormula::Cmp(p, a, b) => BvFormula::Cmp(*p, Arc::new(a.substitute(f)?), Arc::new(b.substitute(f)?)),
            BvFormula::Not(x) => BvFormula::not(x.substitute(f)?),
            BvFormula::And(fs) => BvFormula::and(fs.iter().map(|x| x.substitute(f)).collect::<Result<Vec<_>, _>>()?),
            BvFormula::Or(fs) => BvFormula::or(fs.iter().map(|x| x.substitute(f)).collect::<Result<Vec<_>, _>>()?),
        })
    }

    /// The top-level conjuncts.
    pub fn conjuncts(&self) -> Vec<BvFormula> {
        match self {
            BvFormula::True => vec![],
            BvFormula::And(fs) => fs.clone(),
            f => vec![f.clone()],
        }
    }
}

/// A comparison of two `w`-bit patterns.
pub fn eval_pred(p: BvPred, w: u32, a: u128, b: u128) -> bool {
    match p {
        BvPred::Eq => a == b,
        BvPred::Ult => a < b,
        BvPred::Ule => a <= b,
        BvPred::Slt => to_signed(a, w) < to_signed(b, w),
        BvPred::Sle => to_signed(a, w) <= to_signed(b, w),
    }
}

impl fmt::Display for BvTerm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BvTerm::Var { name, .. } => write!(f, "{name}"),
            BvTerm::Const { value, .. } => {
                if *value <= 0xffff {
                    write!(f, "{value}")
                } else {
                    write!(f, "{value:#x}")
                }
            }
            BvTerm::Bin { op, lhs, rhs, .. } => {
                let sym = match op {
                    BvBinOp::Add => "+",
                    BvBinOp::Sub => "-",
                    BvBinOp::Mul => "*",
                    BvBinOp::UDiv => "/u",
                    BvBinOp::URem => "%u",
                    BvBinOp::SDiv => "/s",
                    BvBinOp::SRem => "%s",
                    BvBinOp::Shl => "<<",
                    BvBinOp::LShr => ">>u",
                    BvBinOp::AShr => ">>s",
                    BvBinOp::And => "&",
                    BvBinOp::Or => "|",
                    BvBinOp::Xor => "^",
                };
                write!(f, "({lhs} {sym} {rhs})")
            }
            BvTerm::Not(a) => write!(f, "~{a}"),
            BvTerm::Neg(a) => write!(f, "-{a}"),
            BvTerm::Extract { high, low, arg } => write!(f, "{arg}[{high}:{low}]"),
            BvTerm::ZExt { width, arg } => write!(f, "zext{width}({arg})"),
            BvTerm::SExt { width, arg } => write!(f, "sext{width}({arg})"),
            BvTerm::Concat(a, b) => write!(f, "({a} ++ {b})"),
            BvTerm::Ite(c, a, b) => write!(f, "(if {c} then {a} else {b})"),
        }
    }
}

impl fmt::Display for BvFormula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BvFormula::True => write!(f, "true"),
            BvFormula::False => write!(f, "false"),
            BvFormula::Cmp(p, a, b) => {
                let sym = match p {
                    BvPred::Eq => "==",
                    BvPred::Ult => "<u",
                    BvPred::Ule => "<=u",
                    BvPred::Slt => "<s",
                    BvPred::Sle => "<=s",
                };
                write!(f, "{a} {sym} {b}")
            }
            BvFormula::Not(x) => match &**x {
                BvFormula::Cmp(BvPred::Eq, a, b) => write!(f, "{a} != {b}"),
                x => write!(f, "!({x})"),
            },
            BvFormula::And(fs) | BvFormula::Or(fs) => {
                let sep = if matches!(self, BvFormula::And(_)) { " && " } else { " || " };
                write!(f, "(")?;
                for (i, x) in fs.iter().enumerate() {
                    if i > 0 {
                        write!(f, "{sep}")?;
                    }
                    write!(f, "{x}")?;
                }
                write!(f, ")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(w: u32, v: u128) -> BvTerm {
        BvTerm::constant(w, v).unwrap()
    }

    #[test]
    fn widths_are_checked() {
        assert!(BvTerm::add(c(8, 1), c(16, 1)).is_err());
        assert!(BvTerm::var("x", 0).is_err());
        assert!(BvTerm::var("x", 129).is_err());
        assert!(BvTerm::extract(8, 0, c(8, 1)).is_err());
        assert!(BvTerm::zext(4, c(8, 1)).is_err());
        assert_eq!(BvTerm::concat(c(8, 1), c(8, 2)).unwrap().width(), 16);
    }

    #[test]
    fn smt_lib_division_and_shift_conventions() {
        let env = BvEnv::new();
        assert_eq!(BvTerm::udiv(c(8, 7), c(8, 0)).unwrap().eval(&env).unwrap(), 255);
        assert_eq!(BvTerm::urem(c(8, 7), c(8, 0)).unwrap().eval(&env).unwrap(), 7);
        assert_eq!(BvTerm::sdiv(c(8, 0xf9), c(8, 0)).unwrap().eval(&env).unwrap(), 1); // -7 / 0 = 1
        assert_eq!(BvTerm::srem(c(8, 0xf9), c(8, 2)).unwrap().eval(&env).unwrap(), 0xff); // -7 % 2 = -1
        assert_eq!(BvTerm::sdiv(c(8, 0x80), c(8, 0xff)).unwrap().eval(&env).unwrap(), 0x80);
        assert_eq!(BvTerm::shl(c(8, 1), c(8, 8)).unwrap().eval(&env).unwrap(), 0);
        assert_eq!(BvTerm::ashr(c(8, 0x80), c(8, 9)).unwrap().eval(&env).unwrap(), 0xff);
        assert_eq!(BvTerm::ashr(c(8, 0x80), c(8, 1)).unwrap().eval(&env).unwrap(), 0xc0);
        assert_eq!(BvTerm::sext(16, c(8, 0x80)).unwrap().eval(&env).unwrap(), 0xff80);
        assert_eq!(BvTerm::concat(c(64, 1), c(64, 2)).unwrap().eval(&env).unwrap(), (1u128 << 64) | 2);
        assert_eq!(BvTerm::mul(c(128, u128::MAX), c(128, 2)).unwrap().eval(&env).unwrap(), u128::MAX - 1);
    }

    #[test]
    fn formulas_evaluate_and_simplify() {
        let x = BvTerm::var("x", 8).unwrap();
        let f = BvFormula::slt(x.clone(), c(8, 0)).unwrap();
        let mut env = BvEnv::new();
        env.insert("x".into(), 0x90);
        assert!(f.eval(&env).unwrap());
        assert!(!BvFormula::ult(x.clone(), c(8, 0x10)).unwrap().eval(&env).unwrap());
        assert_eq!(BvFormula::eq(c(8, 3), c(8, 3)).unwrap(), BvFormula::True);
        assert_eq!(BvFormula::and([BvFormula::True, f.clone()]), f);
        assert!(BvFormula::eval(&BvFormula::is_true(BvTerm::from_bool(f.clone())).unwrap(), &env).unwrap());
        assert!(x.eval(&BvEnv::new()).is_err());
        let g = f.substitute(&|n| (n == "x").then(|| c(8, 5))).unwrap();
        assert!(!g.eval(&BvEnv::new()).unwrap());
    }

    #[test]
    fn serde_round_trip() {
        let f = BvFormula::ule(BvTerm::var("x", 32).unwrap(), c(32, 9)).unwrap();
        let s = serde_json::to_string(&f).unwrap();
        let back: BvFormula = serde_json::from_str(&s).unwrap();
        assert_eq!(back, f);
    }
}

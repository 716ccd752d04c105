//! Bit-vector ranking functions and invariants as C-like text over source variable names.
//!
//! Names: the prover's `name#17` (value 17, source name `name`) is shown as `name`, unless
//! two different values of one expression share the source name (then both keep `#17`);
//! `x@0` (the value of `x` when the loop was entered) as `\at(x, LoopEntry)` (ACSL's
//! notation); the ghost iteration counter `@it` as `\iterations` (iterations done since the
//! loop was entered). Invariants are simplified without a solver: every comparison of one
//! variable with a constant, signed or unsigned, is folded into one signed range per
//! variable (`lo <= x && x <= hi`), an unsigned comparison of variables known to be
//! non-negative is shown as the plain comparison, and repeated conjuncts are dropped. Only
//! conjuncts that the kept ones imply are dropped, so the text states the same invariant
//! (the prover's own conjuncts stay in the JSON as `internal`).

use crate::logic::bv::{to_signed, BvBinOp, BvFormula, BvPred, BvTerm};
use std::collections::{BTreeMap, BTreeSet};

/// How variables of one expression are shown.
pub struct Names {
    shown: BTreeMap<String, String>,
}

/// The source name of an internal variable name, with `#k` kept when `keep_number`.
fn base_name(internal: &str, keep_number: bool) -> String {
    if internal == "@it" {
        return "\\iterations".into();
    }
    if let Some(x) = internal.strip_suffix("@0") {
        return format!("\\at({}, LoopEntry)", base_name(x, keep_number));
    }
    match internal.rsplit_once('#') {
        Some((name, num)) if !keep_number && !name.is_empty() && num.chars().all(|c| c.is_ascii_digit()) => name.to_string(),
        _ => internal.to_string(),
    }
}

fn collect_term(t: &BvTerm, out: &mut BTreeSet<String>) {
    match t {
        BvTerm::Var { name, .. } => {
            out.insert(name.to_string());
        }
        BvTerm::Const { .. } => {}
        BvTerm::Bin { lhs, rhs, .. } | BvTerm::Concat(lhs, rhs) => {
            collect_term(lhs, out);
            collect_term(rhs, out);
        }
        BvTerm::Not(a) | BvTerm::Neg(a) | BvTerm::Extract { arg: a, .. } | BvTerm::ZExt { arg: a, .. } | BvTerm::SExt { arg: a, .. } => collect_term(a, out),
        BvTerm::Ite(c, a, b) => {
            collect_formula(c, out);
            collect_term(a, out);
            collect_term(b, out);
        }
    }
}

fn collect_formula(f: &BvFormula, out: &mut BTreeSet<String>) {
    match f {
        BvFormula::True | BvFormula::False => {}
        BvFormula::Cmp(_, a, b) => {
            collect_term(a, out);
            collect_term(b, out);
        }
        BvFormula::Not(x) => collect_formula(x, out),
        BvFormula::And(xs) | BvFormula::Or(xs) => xs.iter().for_each(|x| collect_formula(x, out)),
    }
}

impl Names {
    /// Names for the variables of `terms` and `formulas`, shown together.
    pub fn of(terms: &[&BvTerm], formulas: &[&BvFormula]) -> Names {
        let mut vars = BTreeSet::new();
        terms.iter().for_each(|t| collect_term(t, &mut vars));
        formulas.iter().for_each(|f| collect_formula(f, &mut vars));
        let mut by_base: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for v in &vars {
            let plain = v.strip_suffix("@0").unwrap_or(v);
            by_base.entry(base_name(plain, false)).or_default().insert(plain.to_string());
        }
        let shown = vars
            .iter()
            .map(|v| {
                let plain = v.strip_suffix("@0").unwrap_or(v);
                let clash = by_base.get(&base_name(plain, false)).is_some_and(|s| s.len() > 1);
                (v.clone(), base_name(v, clash))
            })
            .collect();
        Names { shown }
    }

    fn get(&self, internal: &str) -> String {
        self.shown.get(internal).cloned().unwrap_or_else(|| base_name(internal, true))
    }

    /// `t` as C-like text.
    pub fn term(&self, t: &BvTerm) -> String {
        match t {
            BvTerm::Var { name, .. } => self.get(name),
            BvTerm::Const { width, value } => constant(*value, *width),
            BvTerm::Bin { op, lhs, rhs, .. } => {
                let (l, r) = (self.term(lhs), self.term(rhs));
                let unsigned = |x: String| format!("(unsigned){x}");
                match op {
                    BvBinOp::Add => format!("({l} + {r})"),
                    BvBinOp::Sub => format!("({l} - {r})"),
                    BvBinOp::Mul => format!("({l} * {r})"),
                    BvBinOp::UDiv => format!("({} / {})", unsigned(l), unsigned(r)),
                    BvBinOp::URem => format!("({} % {})", unsigned(l), unsigned(r)),
                    BvBinOp::SDiv => format!("({l} / {r})"),
                    BvBinOp::SRem => format!("({l} % {r})"),
                    BvBinOp::Shl => format!("({l} << {r})"),
                    BvBinOp::LShr => format!("({} >> {r})", unsigned(l)),
                    BvBinOp::AShr => format!("({l} >> {r})"),
                    BvBinOp::And => format!("({l} & {r})"),
                    BvBinOp::Or => format!("({l} | {r})"),
                    BvBinOp::Xor => format!("({l} ^ {r})"),
                }
            }
            BvTerm::Not(a) => format!("~{}", self.term(a)),
            BvTerm::Neg(a) => format!("-{}", self.term(a)),
            BvTerm::Extract { high, low, arg } => {
                let bits = high - low + 1;
                let inner = if *low == 0 { self.term(arg) } else { format!("({} >> {low})", self.term(arg)) };
                if matches!(bits, 8 | 16 | 32 | 64) {
                    format!("(uint{bits}_t){inner}")
                } else {
                    format!("({inner} & {})", constant(crate::logic::bv::mask(bits), 128))
                }
            }
            // the widened value: the unsigned resp. signed value of the narrower term
            BvTerm::ZExt { arg, .. } => format!("(unsigned){}", self.term(arg)),
            BvTerm::SExt { arg, .. } => self.term(arg),
            BvTerm::Concat(hi, lo) => format!("({} << {} | {})", self.term(hi), lo.width(), self.term(lo)),
            BvTerm::Ite(c, a, b) => format!("({} ? {} : {})", self.formula(c), self.term(a), self.term(b)),
        }
    }

    /// `f` as C-like text (unsigned comparisons cast both sides to `unsigned`).
    pub fn formula(&self, f: &BvFormula) -> String {
        match f {
            BvFormula::True => "true".into(),
            BvFormula::False => "false".into(),
            // a - b == 0 is a == b
            BvFormula::Cmp(BvPred::Eq, d, z) if matches!(&**z, BvTerm::Const { value: 0, .. }) && matches!(&**d, BvTerm::Bin { op: BvBinOp::Sub, .. }) => {
                let BvTerm::Bin { lhs, rhs, .. } = &**d else { return self.term(d) };
                format!("{} == {}", self.term(lhs), self.term(rhs))
            }
            BvFormula::Cmp(p, a, b) => {
                let (l, r) = (self.term(a), self.term(b));
                match p {
                    BvPred::Eq => format!("{l} == {r}"),
                    BvPred::Slt => format!("{l} < {r}"),
                    BvPred::Sle => format!("{l} <= {r}"),
                    BvPred::Ult => format!("{} < {}", self.unsigned_side(a), self.unsigned_side(b)),
                    BvPred::Ule => format!("{} <= {}", self.unsigned_side(a), self.unsigned_side(b)),
                }
            }
            BvFormula::Not(x) => match &**x {
                BvFormula::Cmp(BvPred::Eq, a, b) => format!("{} != {}", self.term(a), self.term(b)),
                x => format!("!({})", self.formula(x)),
            },
            BvFormula::And(xs) | BvFormula::Or(xs) => {
                let sep = if matches!(f, BvFormula::And(_)) { " && " } else { " || " };
                format!("({})", xs.iter().map(|x| self.formula(x)).collect::<Vec<_>>().join(sep))
            }
        }
    }

    fn unsigned_side(&self, t: &BvTerm) -> String {
        match t {
            BvTerm::Const { value, .. } => value.to_string(),
            _ => format!("(unsigned){}", self.term(t)),
        }
    }
}

/// A constant: its signed value when that is negative and small (`-1`, `-2`), else its
/// unsigned value (hexadecimal from 2^16 on).
fn constant(value: u128, width: u32) -> String {
    let signed = to_signed(value, width);
    if width > 1 && signed < 0 && signed > -0x10000 {
        signed.to_string()
    } else if value <= 0xffff {
        value.to_string()
    } else {
        format!("{value:#x}")
    }
}

/// The range of one variable so far: signed bounds and unsigned bounds of its bit pattern.
#[derive(Clone, Copy)]
struct Range {
    width: u32,
    slo: i128,
    shi: i128,
    ulo: u128,
    uhi: u128,
}

impl Range {
    fn full(width: u32) -> Range {
        let max = crate::logic::bv::mask(width);
        Range { width, slo: to_signed(1u128 << (width - 1), width), shi: to_signed(max >> 1, width), ulo: 0, uhi: max }
    }
    /// Folds the unsigned bounds into the signed ones when the values allowed by both form
    /// one signed interval (its negative and non-negative parts are intersected with the
    /// unsigned bounds separately); an empty intersection leaves an empty signed range.
    fn settle(&mut self) {
        let m = 1i128.checked_shl(self.width).filter(|_| self.width < 127);
        let Some(m) = m else { return };
        let (ulo, uhi) = (self.ulo as i128, self.uhi as i128);
        // bit patterns of the negative part, back as signed values
        let neg = (self.slo < 0).then(|| (((m + self.slo).max(ulo)) - m, ((m + self.shi.min(-1)).min(uhi)) - m)).filter(|(a, b)| a <= b);
        let nonneg = (self.shi >= 0).then(|| (self.slo.max(0).max(ulo), self.shi.min(uhi))).filter(|(a, b)| a <= b);
        let joined = match (neg, nonneg) {
            (None, None) => Some((1, 0)),
            (Some(p), None) | (None, Some(p)) => Some(p),
            (Some((a, -1)), Some((0, b))) => Some((a, b)),
            _ => None,
        };
        if let Some((lo, hi)) = joined {
            (self.slo, self.shi) = (lo, hi);
            (self.ulo, self.uhi) = (0, crate::logic::bv::mask(self.width));
        }
    }
    fn nonnegative(&self) -> bool {
        self.slo >= 0
    }
}

/// The conjuncts of an invariant, simplified as the module documentation says, as C-like text.
pub fn invariant_text(conjuncts: &[BvFormula]) -> String {
    let refs: Vec<&BvFormula> = conjuncts.iter().collect();
    let names = Names::of(&[], &refs);
    let mut ranges: BTreeMap<String, Range> = BTreeMap::new();
    let mut rest: Vec<&BvFormula> = Vec::new();
    for c in conjuncts {
        if !bound(c, &mut ranges) {
            rest.push(c);
        }
    }
    ranges.values_mut().for_each(Range::settle);
    let mut parts: Vec<String> = Vec::new();
    for (var, r) in &ranges {
        let full = Range::full(r.width);
        let name = names.get(var);
        if r.slo > r.shi || r.ulo > r.uhi {
            parts.push("false".into());
            continue;
        } else if r.slo == r.shi {
            parts.push(format!("{name} == {}", r.slo));
        } else {
            match (r.slo > full.slo, r.shi < full.shi) {
                (true, true) => parts.push(format!("{} <= {name} && {name} <= {}", r.slo, r.shi)),
                (true, false) => parts.push(format!("{} <= {name}", r.slo)),
                (false, true) => parts.push(format!("{name} <= {}", r.shi)),
                (false, false) => {}
            }
        }
        if r.ulo > 0 {
            parts.push(format!("{} <= (unsigned){name}", r.ulo));
        }
        if r.uhi < full.uhi {
            parts.push(format!("(unsigned){name} <= {}", r.uhi));
        }
    }
    let mut seen = BTreeSet::new();
    for c in rest {
        let text = match c {
            // x <=u y with both non-negative is x <= y
            BvFormula::Cmp(p @ (BvPred::Ule | BvPred::Ult), a, b) if [a, b].iter().all(|t| known_nonnegative(t, &ranges)) => {
                let sym = if *p == BvPred::Ule { "<=" } else { "<" };
                format!("{} {sym} {}", names.term(a), names.term(b))
            }
            BvFormula::Cmp(BvPred::Sle | BvPred::Ule, a, b) if a == b => continue,
            _ => names.formula(c),
        };
        if seen.insert(text.clone()) {
            parts.push(text);
        }
    }
    if parts.is_empty() {
        "true".into()
    } else {
        parts.join(" && ")
    }
}

fn known_nonnegative(t: &BvTerm, ranges: &BTreeMap<String, Range>) -> bool {
    match t {
        BvTerm::Var { name, .. } => ranges.get(name.as_ref()).is_some_and(Range::nonnegative),
        BvTerm::Const { value, width } => to_signed(*value, *width) >= 0,
        _ => false,
    }
}

/// Records `c` in `ranges` when it compares one variable with a constant.
fn bound(c: &BvFormula, ranges: &mut BTreeMap<String, Range>) -> bool {
    let BvFormula::Cmp(p, a, b) = c else { return false };
    let (var, width, konst, var_left) = match (&**a, &**b) {
        (BvTerm::Var { name, width }, BvTerm::Const { value, .. }) => (name, *width, *value, true),
        (BvTerm::Const { value, .. }, BvTerm::Var { name, width }) => (name, *width, *value, false),
        _ => return false,
    };
    if width < 2 {
        return false;
    }
    let r = ranges.entry(var.to_string()).or_insert_with(|| Range::full(width));
    let sk = to_signed(konst, width);
    match (p, var_left) {
        (BvPred::Eq, _) => {
            r.slo = r.slo.max(sk);
            r.shi = r.shi.min(sk);
        }
        (BvPred::Sle, true) => r.shi = r.shi.min(sk),
        (BvPred::Slt, true) => r.shi = r.shi.min(sk - 1),
        (BvPred::Sle, false) => r.slo = r.slo.max(sk),
        (BvPred::Slt, false) => r.slo = r.slo.max(sk + 1),
        (BvPred::Ule, true) => r.uhi = r.uhi.min(konst),
        (BvPred::Ult, true) if konst > 0 => r.uhi = r.uhi.min(konst - 1),
        // x <u 0 holds for no x: an empty range, shown as `false`
        (BvPred::Ult, true) => (r.ulo, r.uhi) = (1, 0),
        (BvPred::Ule, false) => r.ulo = r.ulo.max(konst),
        (BvPred::Ult, false) => r.ulo = r.ulo.max(konst.saturating_add(1)),
    }
    true
}

/// A ranking function (compared unsigned) as C-like text.
pub fn ranking_text(t: &BvTerm) -> String {
    let names = Names::of(&[t], &[]);
    let mut s = names.term(t);
    if s.starts_with('(') && s.ends_with(')') && balanced_inside(&s) {
        s = s[1..s.len() - 1].to_string();
    }
    s
}

/// Whether the outer parentheses of `s` enclose all of it.
fn balanced_inside(s: &str) -> bool {
    let mut depth = 0i32;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 && i < s.len() - 1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn var(n: &str) -> BvTerm {
        BvTerm::Var { name: n.into(), width: 32 }
    }
    fn k(v: i128) -> BvTerm {
        BvTerm::Const { width: 32, value: (v as u128) & 0xffff_ffff }
    }
    fn cmp(p: BvPred, a: BvTerm, b: BvTerm) -> BvFormula {
        BvFormula::Cmp(p, Arc::new(a), Arc::new(b))
    }

    #[test]
    fn names_drop_value_numbers_unless_they_clash() {
        assert_eq!(ranking_text(&BvTerm::Not(Arc::new(var("i#1")))), "~i");
        let t = BvTerm::Bin { op: BvBinOp::Sub, width: 32, lhs: Arc::new(var("i#1")), rhs: Arc::new(var("i#7")) };
        assert_eq!(ranking_text(&t), "i#1 - i#7");
        let t = BvTerm::Bin { op: BvBinOp::Sub, width: 32, lhs: Arc::new(var("n#3@0")), rhs: Arc::new(var("@it")) };
        assert_eq!(ranking_text(&t), "\\at(n, LoopEntry) - \\iterations");
    }

    #[test]
    fn constant_bounds_fold_into_one_range_per_variable() {
        let inv = vec![
            cmp(BvPred::Sle, k(0), var("sum#2")),
            cmp(BvPred::Ule, var("sum#2"), k(1000)),
            cmp(BvPred::Sle, var("sum#2"), k(1001)),
            cmp(BvPred::Sle, k(-2), var("sum#2")),
            cmp(BvPred::Ule, var("sum#2"), k(-2)),
        ];
        assert_eq!(invariant_text(&inv), "0 <= sum && sum <= 1000");
    }

    #[test]
    fn unsigned_comparison_of_non_negative_variables_is_plain() {
        let inv = vec![
            cmp(BvPred::Sle, k(0), var("i#1")),
            cmp(BvPred::Sle, k(0), var("n#0")),
            cmp(BvPred::Ule, var("i#1"), var("n#0")),
            cmp(BvPred::Sle, var("i#1"), var("n#0")),
            cmp(BvPred::Sle, var("i#1"), var("i#1")),
        ];
        assert_eq!(invariant_text(&inv), "0 <= i && 0 <= n && i <= n");
    }

    #[test]
    fn signed_and_unsigned_bounds_meet_in_one_range() {
        let inv = vec![cmp(BvPred::Sle, k(-1), var("i#1")), cmp(BvPred::Ule, var("i#1"), k(-2))];
        assert_eq!(invariant_text(&inv), "0 <= i");
        let inv = vec![cmp(BvPred::Ule, k(-5), var("x#1")), cmp(BvPred::Sle, var("x#1"), k(3))];
        assert_eq!(invariant_text(&inv), "-5 <= x && x <= -1");
        assert_eq!(invariant_text(&[cmp(BvPred::Ult, var("x#1"), k(0))]), "false");
    }

    #[test]
    fn unsigned_bounds_of_possibly_negative_values_stay_unsigned() {
        let inv = vec![cmp(BvPred::Ule, k(5), var("x#1")), cmp(BvPred::Sle, var("x#1"), k(10)), cmp(BvPred::Sle, k(-3), var("x#1"))];
        assert_eq!(invariant_text(&inv), "-3 <= x && x <= 10 && 5 <= (unsigned)x");
        let inv = vec![cmp(BvPred::Ule, k(5), var("x#1")), cmp(BvPred::Sle, var("x#1"), k(3))];
        assert_eq!(invariant_text(&inv), "x <= -1");
        assert_eq!(invariant_text(&[]), "true");
        assert_eq!(invariant_text(&[cmp(BvPred::Eq, var("x#1"), k(-1))]), "x == -1");
    }
}

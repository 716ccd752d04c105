//! Range facts for wrapped results without disjunctions: seed 004's `inBounds` (Thm. 6).
//!
//! When the mathematical result `e` of a wrapping operation lies in `[lb, ub]` with
//! `ub − lb + 1 < 2^w`, the wrapped value `r` lies in the reduction of that interval: one
//! interval `[lb', ub']` when it does not wrap, else the union `[min, ub'] ∪ [lb', max]`,
//! which the knowledge base (a conjunction) cannot state directly. Thm. 6:
//! `t ∈ [min, u] ∪ [ℓ, max]  ⇔  ((t − ℓ) mod 2^w) + ℓ ≤ 2^w + u` for `t ∈ [min, max]` and
//! `min ≤ u < ℓ ≤ max`; the `mod` is eliminated by fresh integers `q`, `d` with
//! `d = t − ℓ − 2^w·q` and `0 ≤ d < 2^w` (the digest's correction of the paper's bound).

use super::bv::{bounds, normalize};
use super::ctx::Ctx;
use super::facts::Atom;
use super::ints::modulus;
use super::state::State;
use crate::facts::views::View;
use crate::logic::{Int, LinExpr, Rel, Var};

/// The atoms of `inBounds(t, min, u, ℓ, max)` over the fresh `q` and `d` (see module doc).
pub fn in_bounds_atoms(t: &LinExpr, q: &Var, d: &Var, u: Int, l: Int, m: Int) -> Vec<Option<Atom>> {
    let dv = LinExpr::var(d);
    // d = t − ℓ − m·q
    let rhs = t.add_scaled(1, &LinExpr::constant(-l)).and_then(|x| x.add_scaled(-m, &LinExpr::var(q)));
    vec![
        rhs.and_then(|r| Atom::cmp(&dv, Rel::Eq, &r)),
        Atom::cmp(&dv, Rel::Ge, &LinExpr::constant(0)),
        Atom::cmp(&dv, Rel::Le, &LinExpr::constant(m - 1)),
        // d + ℓ ≤ m + u
        m.checked_add(u).and_then(|c| c.checked_sub(l)).and_then(|c| Atom::cmp(&dv, Rel::Le, &LinExpr::constant(c))),
    ]
}

/// Adds to `s` the range of the wrapped value `r` (width `bits`, stored in `view`) of a
/// mathematical result known to lie in `[lb, ub]`: an interval, or `inBounds` when the
/// reduced interval wraps around; nothing when the interval covers every value.
pub fn add_wrapped_range(ctx: &mut Ctx<'_>, s: &mut State, r: &LinExpr, lb: Int, ub: Int, bits: u32, view: View) {
    let (Some(m), Some(_)) = (modulus(bits), bounds(bits, view)) else { return };
    let Some(width) = ub.checked_sub(lb).and_then(|x| x.checked_add(1)) else { return };
    if width >= m || width <= 0 {
        return;
    }
    let (l, u) = (normalize(lb, bits, view), normalize(ub, bits, view));
    if l <= u {
        s.add_atoms([Atom::cmp(r, Rel::Ge, &LinExpr::constant(l)), Atom::cmp(r, Rel::Le, &LinExpr::constant(u))]);
        return;
    }
    let q = ctx.fresh("inb_q");
    let d = ctx.fresh("inb_d");
    s.add_atoms(in_bounds_atoms(r, &q, &d, u, l, m));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over 4-bit values: the atoms are satisfiable (for some integer q) exactly
    /// for the values in [min, u] ∪ [ℓ, max], in both views.
    #[test]
    fn in_bounds_is_the_union_of_two_intervals() {
        let m = 16;
        let (q, d) = (Var::new("q"), Var::new("d"));
        for (min, max) in [(0, 15), (-8, 7)] {
            for u in min..max {
                for l in (u + 1)..=max {
                    for t in min..=max {
                        let expected = t <= u || t >= l;
                        let sat = (-2..=2).any(|qv| {
                            let dv = t - l - m * qv;
                            in_bounds_atoms(&LinExpr::constant(t), &q, &d, u, l, m).iter().all(|a| {
                                let a = a.as_ref().expect("atom");
                                let val = |v: &Var| if *v == q { Some(qv) } else if *v == d { Some(dv) } else { None };
                                let x = a.e.eval(&val).expect("closed");
                                match a.rel {
                                    super::super::facts::ARel::Le => x <= 0,
                                    super::super::facts::ARel::Eq => x == 0,
                                    super::super::facts::ARel::Ne => x != 0,
                                }
                            })
                        });
                        assert_eq!(sat, expected, "t={t} u={u} l={l} range=[{min},{max}]");
                    }
                }
            }
        }
    }
}

//! Pointer alignment of symbolic values (`x ≡ 0 (mod g)`), kept across merges: what a cursor
//! kept in memory (a Rust slice iterator's `ptr`) needs so that `ptr ≠ end` gives
//! `ptr + size ≤ end`, which linear facts lose at every merge.
//!
//! # Meaning and why it is sound
//! `Ctx::aligned[x] = g` states: in every state of the analysis in which the variable `x`
//! occurs, its value is a multiple of `g`. Variables are never reassigned (every definition,
//! merge and instantiation makes a fresh one), so a property of a variable holds wherever it
//! is used. It is set only by these rules:
//! - **Root parameters** with rustc's `align(N)` attribute that are Rust references or slices
//!   (debug info): a reference is aligned to its type by Rust's validity rules, also when the
//!   slice is empty (a dangling but aligned pointer), the same assumption as the reference's
//!   block (`symexec::rust_param_block`).
//! - **Definitions** (`exec::define`, so every `PtrAdd` and copy, and aggregate fields) over
//!   an aligned variable: `w = Σc·x + c₀` is a multiple of `gcd(c·align(x) …, c₀)` (a `PtrAdd`
//!   `base + offset + Σ scale·index` of `gcd(align(base), offset, scale …)`). Definitions
//!   without an aligned variable (constants, integer arithmetic of C programs) get none: the
//!   rule would hold for them too, but each failed entailment over an aligned variable is
//!   retried with the alignments, so a program without Rust reference parameters pays nothing.
//! - **Merges** (`merge`): the merged variable of `x_a`, `x_b` gets `g` when both states entail
//!   `x_a ≡ 0` and `x_b ≡ 0 (mod g)` (checked by z3 over their own facts and alignments), so
//!   the merged state generalizes both.
//! - **Instances** (`instance_holds`): a state is an instance of a general one only if every
//!   aligned general variable is mapped to a value with the same alignment, so the general
//!   state keeps over-approximating what it covers.
//!
//! The facts reach the solver as `x = g·k` with an integer `k` named after `x` (a name
//! `Ctx::fresh` never produces): existential on the premise side of every entailment, so an
//! alignment can only exclude concrete states that do not exist. `Ctx::entails` adds them
//! only when an entailment fails without them (divisibility makes integer queries harder).

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// The largest power of two dividing `c` (0 for 0: no constraint).
fn pow2_part(c: i128) -> u64 {
    if c == 0 {
        0
    } else {
        1u64 << c.unsigned_abs().trailing_zeros().min(62)
    }
}

/// The known alignment of `x` (1: nothing known).
pub fn of(ctx: &Ctx<'_>, x: &Var) -> u64 {
    ctx.aligned.get(x).copied().unwrap_or(1)
}

/// The largest alignment kept (larger ones are recorded as this, a weaker fact): alignments
/// of memory objects, not the huge powers of two of shifted flags.
const MAX_ALIGN: u64 = 4096;

/// Records that `x` is a multiple of `g` (only powers of two ≥ 2 are kept).
pub fn set(ctx: &mut Ctx<'_>, x: &Var, g: u64) {
    let g = g.min(MAX_ALIGN);
    if g >= 2 && g.is_power_of_two() {
        let e = ctx.aligned.entry(x.clone()).or_insert(1);
        *e = (*e).max(g);
    }
}

/// The alignment of the value of `e = Σ c·x + c₀`: the gcd of every `c·align(x)` and `c₀`
/// (powers of two only; 0 for the constant 0, which every alignment divides).
pub fn of_expr(ctx: &Ctx<'_>, e: &LinExpr) -> u64 {
    expr_alignment(e, &|x| of(ctx, x))
}

/// [`of_expr`] with the variables' alignments given by `align`.
fn expr_alignment(e: &LinExpr, align: &dyn Fn(&Var) -> u64) -> u64 {
    let mut g = pow2_part(e.constant);
    for (x, c) in &e.coeffs {
        let term = pow2_part(*c).saturating_mul(align(x)).min(1 << 62);
        g = gcd(g, term);
    }
    g
}

/// Records the alignment of a fresh variable `w` defined as `w = e` (every `PtrAdd`, copy and
/// offset computation goes through `exec::define`).
pub fn define(ctx: &mut Ctx<'_>, w: &Var, e: &LinExpr) {
    if ctx.aligned.is_empty() || !e.coeffs.keys().any(|x| of(ctx, x) >= 2) {
        return;
    }
    let g = of_expr(ctx, e);
    set(ctx, w, g);
}

/// `x = g·k` for every aligned variable of `vars` (the solver's view of the alignments).
pub fn facts(ctx: &Ctx<'_>, vars: &BTreeSet<Var>) -> Vec<Fact> {
    if ctx.aligned.is_empty() {
        return vec![];
    }
    vars.iter()
        .filter_map(|x| {
            let g = *ctx.aligned.get(x)?;
            let k = Var::new(format!("k#align#{}", x.name()));
            let m = LinExpr::var(&k).scale(i128::from(g))?;
            Atom::cmp(&LinExpr::var(x), Rel::Eq, &m).map(Fact::Atom)
        })
        .collect()
}

/// `x = g·k` for every aligned variable of `facts` and `focus`.
pub fn facts_of(ctx: &Ctx<'_>, facts: &[Fact], focus: &BTreeSet<Var>) -> Vec<Fact> {
    if ctx.aligned.is_empty() {
        return vec![];
    }
    let mut vars = focus.clone();
    facts.iter().for_each(|f| f.collect_vars(&mut vars));
    self::facts(ctx, &vars)
}

/// Whether ⟨s⟩ (with its alignments) entails `x ≡ 0 (mod g)`: no model has
/// `x = g·q + r` with `1 ≤ r ≤ g − 1`.
fn entailed(ctx: &mut Ctx<'_>, s: &State, x: &Var, g: u64) -> bool {
    if g < 2 {
        return true;
    }
    if of(ctx, x) % g == 0 {
        return true;
    }
    let q = Var::new("q#align");
    let r = Var::new("r#align");
    let gi = i128::from(g);
    let focus = BTreeSet::from([x.clone()]);
    let mut premise = ctx.state_facts(s, &focus);
    let align = facts_of(ctx, &premise, &focus);
    premise.extend(align);
    let split = LinExpr::var(&q).scale(gi).and_then(|m| m.add_scaled(1, &LinExpr::var(&r)));
    let Some(def) = split.and_then(|m| Atom::cmp(&LinExpr::var(x), Rel::Eq, &m)) else { return false };
    premise.push(Fact::Atom(def));
    premise.push(Fact::Atom(Atom::var_const(&r, Rel::Ge, 1)));
    // r ≥ g under these premises means r ∈ [1, g−1] is impossible
    ctx.entails_facts(&premise, &[Atom::var_const(&r, Rel::Ge, gi)])
}

/// The alignment the merged variables of `a` and `b` keep. `pairs`: merged variable ↦ its
/// variables in `a` and in `b`. A candidate is the larger of the two known alignments, halved
/// until both states entail it.
pub fn merge(ctx: &mut Ctx<'_>, a: &State, b: &State, pairs: &BTreeMap<Var, (Var, Var)>) {
    for (m, (xa, xb)) in pairs {
        let mut g = of(ctx, xa).max(of(ctx, xb));
        while g >= 2 && !(entailed(ctx, a, xa, g) && entailed(ctx, b, xb, g)) {
            g /= 2;
        }
        tracing::trace!("alignment of merged {m:?} ({xa:?}: {}, {xb:?}: {}): {g}", of(ctx, xa), of(ctx, xb));
        set(ctx, m, g);
    }
}

/// Whether every aligned variable of the general state is mapped by `mu` to a value with
/// (at least) the same alignment in `inst`.
pub fn instance_holds(ctx: &mut Ctx<'_>, inst: &State, mu: &BTreeMap<Var, Var>) -> bool {
    let need: Vec<(Var, u64)> = mu.iter().filter_map(|(x, y)| ctx.aligned.get(x).map(|g| (y.clone(), *g))).collect();
    need.iter().all(|(y, g)| entailed(ctx, inst, y, *g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(n: &str) -> LinExpr {
        LinExpr::var(&Var::new(n))
    }

    /// `p` is 4-aligned, every other variable unknown.
    fn align(x: &Var) -> u64 {
        if x.name() == "p" {
            4
        } else {
            1
        }
    }

    #[test]
    fn an_offset_keeps_the_gcd_of_the_base_and_the_constant() {
        let e = var("p").add_scaled(1, &LinExpr::constant(8)).unwrap();
        assert_eq!(expr_alignment(&e, &align), 4);
        let e = var("p").add_scaled(1, &LinExpr::constant(2)).unwrap();
        assert_eq!(expr_alignment(&e, &align), 2);
        let e = var("p").add_scaled(1, &LinExpr::constant(1)).unwrap();
        assert_eq!(expr_alignment(&e, &align), 1);
    }

    #[test]
    fn a_scaled_index_contributes_its_scale() {
        // p + 4·i (a `u32` element pointer) stays 4-aligned; p + 2·i only 2-aligned
        let e = var("p").add_scaled(4, &var("i")).unwrap();
        assert_eq!(expr_alignment(&e, &align), 4);
        let e = var("p").add_scaled(2, &var("i")).unwrap();
        assert_eq!(expr_alignment(&e, &align), 2);
        // an unknown variable with coefficient 1 knows nothing
        let e = var("p").add_scaled(1, &var("i")).unwrap();
        assert_eq!(expr_alignment(&e, &align), 1);
    }

    #[test]
    fn a_copy_keeps_the_alignment_and_a_constant_zero_constrains_nothing() {
        assert_eq!(expr_alignment(&var("p"), &align), 4);
        assert_eq!(expr_alignment(&LinExpr::constant(0), &align), 0);
        assert_eq!(expr_alignment(&LinExpr::constant(12), &align), 4);
    }

    #[test]
    fn negative_coefficients_and_constants_count_by_their_magnitude() {
        let e = var("p").add_scaled(-8, &var("i")).unwrap().add_scaled(1, &LinExpr::constant(-4)).unwrap();
        assert_eq!(expr_alignment(&e, &align), 4);
    }
}

//! Invariant candidates for string and buffer loops (issue 11 part 3), offered to the merge
//! (Def. 3's `⟪a⟫`, extended by consequences of `⟨a⟩`): the relations between a walking
//! pointer, the allocation it walks, a second walking pointer, a counter, and the known
//! cells (a string's terminator) of its block.
//!
//! Every candidate is kept only when `⟨a⟩` entails it here and the merge keeps it only when
//! `⟨b⟩` entails it too, so the merged state still generalizes both states (soundness does
//! not depend on which candidates are offered; they only decide what survives the merge).
//! The shapes, for pointers `x` in block `A = [sA, eA]` and `y` in block `B = [sB, eB]`
//! (`A ≠ B`), integer locals `i`, and a cell `c ↪ v` of `A`:
//! - `x − y ≤ eA − eB` (room: what is left of `A` behind `x` is at least what is left of
//!   `B` behind `y`; a copy loop `*x++ = *y++` whose source stays inside `B` then stays
//!   inside `A`), and `x − sA = y − sB` (both walked the same distance from their starts);
//! - `x + i ≤ eA + k` for `k ∈ {0, 1, 2}` (a count of bytes still to be written or read at
//!   `x`, or an index into the block at `x`, bounded by the room behind `x`; the slack `k`
//!   covers counters tested after their decrement);
//! - `x ≤ c` (the walk has not passed a known cell, e.g. the 0 that terminates a string that
//!   ends before its block: seed 000's `s < v_end` invariant, for a terminator not at the end).
//!
//! A pointer's block is the one that provably contains it or ends right before it
//! (`sA ≤ x ≤ eA + 1`); pointers of no such block, or of a block whose size the KB states
//! as a constant (a scalar, a fixed array), get no candidate.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

/// At most this many pointers and integers take part (the candidates grow with their
/// product; the merge's other candidates are limited in the same way).
const MAX_POINTERS: usize = 6;
const MAX_INTEGERS: usize = 6;
/// At most this many known cells per block are offered as walk limits.
const MAX_CELLS_PER_BLOCK: usize = 3;
/// `x + i ≤ eA + k` is offered for `k` up to this: a counter tested after its decrement
/// (`while (--n != 0) *d++ = 0;`) is one more than the bytes left at the loop header, and
/// one more again when the pointer was advanced before the loop.
const MAX_COUNT_SLACK: i128 = 2;

/// The candidates of the module doc that `facts` (the facts of `a`) entail. `locals` are the
/// state's values with their kind (`None`: pointer, `Some(bits)`: integer), in the merge's
/// order of preference (top frame first).
pub fn entailed_candidates(ctx: &mut Ctx<'_>, a: &State, facts: &[Fact], locals: &[(Var, Option<u32>)]) -> Vec<Atom> {
    let mut out = vec![];
    if a.allocs.is_empty() {
        return out;
    }
    let ints: Vec<&Var> = locals.iter().filter(|(_, k)| k.is_some()).map(|(v, _)| v).take(MAX_INTEGERS).collect();
    // each pointer with its block
    let mut ptrs: Vec<(&Var, usize)> = vec![];
    for (x, _) in locals.iter().filter(|(_, k)| k.is_none()) {
        if ptrs.len() >= MAX_POINTERS {
            break;
        }
        if let Some(i) = home_block(ctx, a, facts, x).filter(|i| !fixed_size(a, &a.allocs[*i])) {
            ptrs.push((x, i));
        }
    }
    let mut cands: Vec<Atom> = vec![];
    for (k, &(x, ia)) in ptrs.iter().enumerate() {
        let blk_a = &a.allocs[ia];
        let xe = LinExpr::var(x);
        let (sa, ea) = (LinExpr::var(&blk_a.start), LinExpr::var(&blk_a.end));
        for &(y, ib) in &ptrs[k + 1..] {
            if ib == ia {
                continue;
            }
            let blk_b = &a.allocs[ib];
            let ye = LinExpr::var(y);
            let (sb, eb) = (LinExpr::var(&blk_b.start), LinExpr::var(&blk_b.end));
            // x − y ≤ eA − eB and its mirror y − x ≤ eB − eA
            cands.extend(diff(&xe, &ye).zip(diff(&ea, &eb)).and_then(|(l, r)| Atom::cmp(&l, Rel::Le, &r)));
            cands.extend(diff(&ye, &xe).zip(diff(&eb, &ea)).and_then(|(l, r)| Atom::cmp(&l, Rel::Le, &r)));
            // x − sA = y − sB
            cands.extend(diff(&xe, &sa).zip(diff(&ye, &sb)).and_then(|(l, r)| Atom::cmp(&l, Rel::Eq, &r)));
        }
        for i in &ints {
            let Some(sum) = xe.add_scaled(1, &LinExpr::var(i)) else { continue };
            // weakest first: a stronger one is only entailed when the weaker one is
            let bounds = (0..=MAX_COUNT_SLACK).rev().filter_map(|k| ea.add_scaled(1, &LinExpr::constant(k)).and_then(|ek| Atom::cmp(&sum, Rel::Le, &ek)));
            for b in bounds {
                if !ctx.entails_facts(facts, std::slice::from_ref(&b)) {
                    break;
                }
                out.push(b);
            }
        }
        let cells = a.pt.iter().filter(|p| p.alloc == blk_a.id && !p.is_ptr && p.addr != *x && p.addr != blk_a.end);
        for c in cells.take(MAX_CELLS_PER_BLOCK) {
            cands.extend(Atom::cmp(&xe, Rel::Le, &LinExpr::var(&c.addr)));
        }
    }
    for c in cands {
        if !out.contains(&c) && ctx.entails_facts(facts, std::slice::from_ref(&c)) {
            out.push(c);
        }
    }
    tracing::trace!("buffer relations of {:?} over cells {:?}: {:?}", ptrs, a.pt, out);
    out
}

fn diff(a: &LinExpr, b: &LinExpr) -> Option<LinExpr> {
    a.add_scaled(-1, b)
}

/// Whether the KB states the block's size as a constant (`end − start = c`): scalars and
/// fixed arrays, whose bounds the merge's other candidates already give; skipping them keeps
/// the candidates (and their entailment checks) to buffers of a symbolic size.
fn fixed_size(a: &State, blk: &super::state::Alloc) -> bool {
    a.kb.iter().any(|f| match f {
        Fact::Atom(x) => {
            x.rel == super::facts::ARel::Eq
                && x.e.coeffs.len() == 2
                && x.e.coeffs.get(&blk.start).is_some_and(|c| c.abs() == 1)
                && x.e.coeffs.get(&blk.end).is_some_and(|c| c.abs() == 1)
        }
        Fact::Or(_) => false,
    })
}

/// The index of the block `A` with `sA ≤ x ≤ eA + 1` under `facts`, if one is proved.
fn home_block(ctx: &mut Ctx<'_>, a: &State, facts: &[Fact], x: &Var) -> Option<usize> {
    let xe = LinExpr::var(x);
    a.allocs.iter().position(|blk| {
        let lo = Atom::cmp(&LinExpr::var(&blk.start), Rel::Le, &xe);
        let hi = LinExpr::var(&blk.end).add_scaled(1, &LinExpr::constant(1)).and_then(|e1| Atom::cmp(&xe, Rel::Le, &e1));
        match (lo, hi) {
            (Some(lo), Some(hi)) => ctx.entails_facts(facts, &[lo, hi]),
            _ => false,
        }
    })
}

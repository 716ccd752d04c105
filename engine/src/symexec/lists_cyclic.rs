//! A cyclic list folded whole (issue 10, searches around cyclic lists: svcomp `cll_search`):
//! when a chain of members runs from a pinned member (the cursor of a walk) around a cycle
//! back to it, and the values of an integer field rise or fall by a proved relation along the
//! chain (`lists_values`), the whole cycle becomes ONE segment from the cursor whose target
//! is its own start, instead of the cursor's member plus a segment of the rest (whose
//! relation would be broken by the wrap-around step from the last cell back to the first).
//!
//! Meaning (unchanged from any segment, see `lists`): `len` disjoint cells, the first at
//! `start`, each `next` the following cell's start, the last one's `next` the target — here
//! `start` itself, so the cells form the cycle. The field relation is claimed only between
//! consecutive cells of the segment (cell `k` and `k + 1` for `k < len − 1`), never for the
//! wrap-around pair (last, first): `chain_step` proves it for neighbouring members of the
//! chain only. Materializing the first cell leaves the rest as a segment ending at that
//! (now concrete) cell, which is exact. A search for a value `y` with
//! `first ≤ y ≤ first + c·(len − 1)` then ranks by the length of the rest: the ITS sees
//! the walk shorten the segment from the cursor by one cell per step and never reach the
//! target, because the value is met before (the candidates of `lists_values` keep
//! `y ≤ first + c·(len − 1)` at the merge; they are kept only where both states entail them).

use super::ctx::Ctx;
use super::lists::{build, Chains, End, Node};
use super::state::State;

/// The state with the cycle `chain` (its first member pinned, its last member linking back
/// to the first) folded into one segment from the first member's start back to it, if the
/// folded segment has a field relation on some integer field; `None` otherwise (then the
/// caller folds the rest of the cycle behind the pinned member as before).
pub(super) fn whole_cycle(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node]) -> Option<State> {
    let head = *chain.first()?;
    if chain.len() < 2 {
        return None;
    }
    let st = build(ctx, ch, chain, End::At(head))?;
    let l = st.lists.last()?;
    if !l.fields.iter().any(|f| !f.is_ptr && f.step.is_some()) {
        return None;
    }
    tracing::debug!("lists: folded the whole cycle {:?} into {:?}", chain, l);
    Some(st)
}

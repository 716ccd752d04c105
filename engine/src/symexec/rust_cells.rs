//! Canonical addresses of memory cells at a constant offset from their block's start, so that
//! merges (which match cells by their address's name) keep them.
//!
//! rustc keeps a `Vec` (capacity at offset 0, pointer at 8, length at 16) and other structs in
//! memory, and every method writes a field through a pointer computed afresh (`&mut self.len`
//! inside an inlined `push`): each store names its cell by a new address variable, and the
//! next merge drops the cell because the two states name it differently. A store whose
//! address is `start + k` by a chain of equations of the knowledge base (each `x = y + c`,
//! found syntactically, so exact) is recorded at the address variable `cell.<block>.<k>`
//! instead, with the fact `cell.<block>.<k> = start + k`. The name depends only on the block
//! and the offset: the same cell gets the same name in every state, and a merge keeps it (the
//! fact holds in both states, so the merged state keeps it too). Offset 0 keeps the start's
//! own name (exec's convention).

use super::facts::{ARel, Atom, Fact};
use super::state::{AllocKind, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, VecDeque};

/// How many equations a chain from an address to its block's start may have.
const MAX_CHAIN: usize = 8;

/// The canonical address of a cell at `addr` of block `alloc` when the block is a stack block
/// or behind a `&mut` (where Rust keeps structs whose fields are rewritten in loops).
pub(super) fn field_address(s: &mut State, alloc: u32, addr: &Var) -> Option<Var> {
    let block = s.alloc_by_id(alloc)?;
    if !matches!(block.kind, AllocKind::Stack(_) | AllocKind::RefParam { mutable: true, .. }) {
        return None;
    }
    let start = block.start.clone();
    canonical_address(s, alloc, &start, addr)
}

/// The canonical address of the cell at `addr` in block `alloc` (starting at `start`), with
/// its defining fact added to `s`; `None` when `addr` is not `start + k` by a chain of
/// equations, or is `start` itself.
pub(super) fn canonical_address(s: &mut State, alloc: u32, start: &Var, addr: &Var) -> Option<Var> {
    if addr == start || addr.name().starts_with("cell.") {
        return None;
    }
    let k = offset_from(s, addr, start)?;
    if k == 0 {
        return None;
    }
    let cell = Var::new(format!("cell.{alloc}.{k}"));
    let fact = Atom::cmp(&LinExpr::var(&cell), Rel::Eq, &LinExpr::var(start).add_scaled(1, &LinExpr::constant(k))?)?;
    s.add_atom(fact);
    Some(cell)
}

/// The constant `v` equals by a chain of equations `x − y = c` ending in `z = c` (an inlined
/// callee's parameter bound to its caller's `size_of::<T>()`), if any.
pub(super) fn constant_value(s: &State, v: &Var) -> Option<i128> {
    let (next, constants) = equations(s);
    search(&next, v, |x, k| constants.get(x).and_then(|c| c.checked_add(k)))
}

/// The offsets between variables that the knowledge base's equations `x = y + c` fix, for
/// the memory checks that otherwise ask z3 at every access (`exec::find_alloc_in`,
/// `exec::invalidate`; a `Vec`'s fields and a stack block's cells are all such offsets).
/// Exact: the equations are conjuncts of ⟨s⟩, so what follows from them is entailed; and an
/// offset that refutes a check makes it fail for a satisfiable ⟨s⟩ (an unsatisfiable one
/// then only loses precision: a check answered "not entailed" is always sound).
pub(super) struct Offsets<'s>(Adjacency<'s>);

impl<'s> Offsets<'s> {
    pub(super) fn of(s: &'s State) -> Offsets<'s> {
        Offsets(equations(s).0)
    }

    /// `k` with `x = y + k`, if the equations fix it.
    fn between(&self, x: &Var, y: &Var) -> Option<i128> {
        search(&self.0, x, |z, k| (z == y).then_some(k))
    }

    /// Whether `[addr, addr + size − 1] ⊆ [start, end]`: `Some(answer)` when the equations
    /// fix both `addr − start` and `end − start`.
    pub(super) fn inside(&self, addr: &Var, size: u64, start: &Var, end: &Var) -> Option<bool> {
        let k = self.between(addr, start)?;
        let m = self.between(end, start)?;
        let last = k.checked_add(i128::from(size) - 1)?;
        Some(k >= 0 && last <= m)
    }

    /// `d` with `addr = cell + d`, when `addr` is a variable plus a constant and the
    /// equations fix that variable's offset from `cell`.
    pub(super) fn offset_of(&self, addr: &LinExpr, cell: &Var) -> Option<i128> {
        let mut vars = addr.coeffs.iter();
        let (v, 1) = vars.next()? else { return None };
        if vars.next().is_some() {
            return None;
        }
        self.between(v, cell)?.checked_add(addr.constant)
    }
}

/// Breadth-first along the equations from `from` (each reached `x` with `from = x + k`, at
/// most [`MAX_CHAIN`] steps): the first `found(x, k)` that is `Some`.
fn search(next: &Adjacency<'_>, from: &Var, found: impl Fn(&Var, i128) -> Option<i128>) -> Option<i128> {
    let mut seen: BTreeMap<&Var, i128> = BTreeMap::new();
    let mut queue: VecDeque<(&Var, i128, usize)> = VecDeque::from([(from, 0, 0)]);
    seen.insert(from, 0);
    while let Some((x, k, depth)) = queue.pop_front() {
        if let Some(result) = found(x, k) {
            return Some(result);
        }
        if depth == MAX_CHAIN {
            continue;
        }
        for &(w, c) in next.get(x).map(Vec::as_slice).unwrap_or_default() {
            if !seen.contains_key(w) {
                let kw = k.checked_add(c)?;
                seen.insert(w, kw);
                queue.push_back((w, kw, depth + 1));
            }
        }
    }
    None
}

/// `x ↦ [(y, c)]`: the equation `x = y + c`.
type Adjacency<'s> = BTreeMap<&'s Var, Vec<(&'s Var, i128)>>;

/// The knowledge base's equations `x = y + c` (both directions) and `z = c`.
type Equations<'s> = (Adjacency<'s>, BTreeMap<&'s Var, i128>);

fn equations(s: &State) -> Equations<'_> {
    let mut next: BTreeMap<&Var, Vec<(&Var, i128)>> = BTreeMap::new();
    let mut constants: BTreeMap<&Var, i128> = BTreeMap::new();
    for f in &s.kb {
        let Fact::Atom(Atom { e, rel: ARel::Eq }) = f else { continue };
        if e.coeffs.len() == 1 {
            match e.coeffs.iter().next() {
                Some((z, 1)) => constants.insert(z, -e.constant),
                Some((z, -1)) => constants.insert(z, e.constant),
                _ => None,
            };
            continue;
        }
        if e.coeffs.len() != 2 {
            continue;
        }
        let mut it = e.coeffs.iter();
        let (Some((x, &cx)), Some((y, &cy))) = (it.next(), it.next()) else { continue };
        // cx·x + cy·y + c0 = 0 with {cx, cy} = {1, −1}
        match (cx, cy) {
            (1, -1) => {
                // x = y − c0
                next.entry(x).or_default().push((y, -e.constant));
                next.entry(y).or_default().push((x, e.constant));
            }
            (-1, 1) => {
                next.entry(y).or_default().push((x, -e.constant));
                next.entry(x).or_default().push((y, e.constant));
            }
            _ => {}
        }
    }
    (next, constants)
}

/// `k` with `addr = start + k` by a chain of equations `x − y = c` of the knowledge base.
pub(super) fn offset_from(s: &State, addr: &Var, start: &Var) -> Option<i128> {
    let (next, _) = equations(s);
    search(&next, addr, |x, k| (x == start).then_some(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(x: &str, y: &str, c: i128) -> Fact {
        // x = y + c
        let e = LinExpr::var(&Var::new(x)).add_scaled(-1, &LinExpr::var(&Var::new(y))).and_then(|e| e.add_scaled(1, &LinExpr::constant(-c))).unwrap();
        Fact::Atom(Atom { e, rel: ARel::Eq })
    }

    #[test]
    fn an_address_reached_by_equations_gets_the_blocks_offset_name() {
        let mut s = State { kb: vec![eq("p_1", "start_0", 0), eq("q_2", "p_1", 8), eq("r_3", "q_2", 8)], ..State::default() };
        let start = Var::new("start_0");
        let cell = canonical_address(&mut s, 3, &start, &Var::new("r_3")).expect("r = start + 16");
        assert_eq!(cell.name(), "cell.3.16");
        assert!(s.kb.len() == 4, "the defining fact is added");
        // the same cell from another chain gets the same name
        s.kb.push(eq("t_4", "start_0", 16));
        assert_eq!(canonical_address(&mut s, 3, &start, &Var::new("t_4")), Some(cell));
        // the start itself and unrelated addresses keep their names
        assert_eq!(canonical_address(&mut s, 3, &start, &Var::new("p_1")), None);
        assert_eq!(canonical_address(&mut s, 3, &start, &Var::new("u_5")), None);
    }

    #[test]
    fn a_constant_is_found_through_copies() {
        let five = Fact::Atom(Atom { e: LinExpr::var(&Var::new("c_0")).add_scaled(1, &LinExpr::constant(-5)).unwrap(), rel: ARel::Eq });
        let s = State { kb: vec![five, eq("p_1", "c_0", 0), eq("q_2", "p_1", 3)], ..State::default() };
        assert_eq!(constant_value(&s, &Var::new("q_2")), Some(8));
        assert_eq!(constant_value(&s, &Var::new("c_0")), Some(5));
        assert_eq!(constant_value(&s, &Var::new("r_3")), None);
    }

    #[test]
    fn inequalities_and_scaled_equations_are_not_followed() {
        let le = Fact::Atom(Atom { e: LinExpr::var(&Var::new("q_2")).add_scaled(-1, &LinExpr::var(&Var::new("start_0"))).unwrap(), rel: ARel::Le });
        let twice = Fact::Atom(Atom { e: LinExpr::var(&Var::new("r_3")).add_scaled(-2, &LinExpr::var(&Var::new("start_0"))).unwrap(), rel: ARel::Eq });
        let mut s = State { kb: vec![le, twice], ..State::default() };
        let start = Var::new("start_0");
        assert_eq!(canonical_address(&mut s, 1, &start, &Var::new("q_2")), None);
        assert_eq!(canonical_address(&mut s, 1, &start, &Var::new("r_3")), None);
    }

    #[test]
    fn offsets_fixed_by_equations_decide_containment_and_overlap() {
        // block [b, b + 15]; a = b + 8; c = a + 4
        let s = State { kb: vec![eq("e_1", "b_0", 15), eq("a_2", "b_0", 8), eq("c_3", "a_2", 4)], ..State::default() };
        let offsets = Offsets::of(&s);
        let (b, e) = (Var::new("b_0"), Var::new("e_1"));
        assert_eq!(offsets.inside(&Var::new("a_2"), 8, &b, &e), Some(true), "b + 8 .. b + 15");
        assert_eq!(offsets.inside(&Var::new("c_3"), 4, &b, &e), Some(true), "b + 12 .. b + 15");
        assert_eq!(offsets.inside(&Var::new("c_3"), 8, &b, &e), Some(false), "b + 12 .. b + 19 runs past the end");
        assert_eq!(offsets.inside(&Var::new("x_9"), 1, &b, &e), None, "an unrelated address is left to z3");
        // c + 0 is 4 bytes after a: an 8-byte cell at a overlaps, a 4-byte one does not
        let c = LinExpr::var(&Var::new("c_3"));
        assert_eq!(offsets.offset_of(&c, &Var::new("a_2")), Some(4));
        assert_eq!(offsets.offset_of(&c.add_scaled(1, &LinExpr::constant(-12)).unwrap(), &b), Some(0));
        assert_eq!(offsets.offset_of(&c.scale(2).unwrap(), &b), None, "a scaled address is left to z3");
    }
}

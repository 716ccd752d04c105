//! Generalization (Def. 3, Thm. 4): the instance check (conditions (b)–(e)), merging of two
//! states at the same position, and the state clean-up done at every generalization point
//! (dropping dead locals, projecting the KB onto the state's variables).

use super::ctx::Ctx;
use super::facts::{ARel, Atom, Fact};
use super::state::{AllocKind, PtEntry, State};
use crate::ir::Type;
use crate::logic::{LinExpr, Var};
use std::collections::{BTreeMap, BTreeSet};

/// An instantiation μ: variables of the general state ↦ variables of the instance
/// (identity on variables not listed).
pub type Mu = BTreeMap<Var, Var>;

pub fn apply(mu: &Mu, v: &Var) -> Var {
    mu.get(v).cloned().unwrap_or_else(|| v.clone())
}

/// Drops dead locals from LV (liveness at the current position of every frame) and projects
/// the KB onto the remaining variables: equations `t = …` with a unit coefficient eliminate a
/// non-root `t` by substitution, then facts still mentioning non-root variables are dropped
/// (a sound weakening).
pub fn cleanup(ctx: &mut Ctx<'_>, s: &mut State) {
    for fr in &mut s.frames {
        let live = ctx.live_at(fr.func, fr.block, fr.idx);
        fr.lv.retain(|v, _| live.contains(v));
    }
    project_kb(s, ctx.projection);
}

pub fn project_kb(s: &mut State, limits: crate::config::ProjectionLimits) {
    let roots = s.root_vars();
    let kb = std::mem::take(&mut s.kb);
    s.kb = project_facts(kb, &roots, limits);
}

/// Projects `kb` onto `roots` (see `cleanup`): the result is implied by `kb` and mentions
/// only variables of `roots`.
pub fn project_facts(mut kb: Vec<Fact>, roots: &BTreeSet<Var>, limits: crate::config::ProjectionLimits) -> Vec<Fact> {
    loop {
        let mut pick = None;
        'outer: for (i, f) in kb.iter().enumerate() {
            if let Fact::Atom(a) = f {
                if a.rel == ARel::Eq {
                    for (v, c) in &a.e.coeffs {
                        if (*c == 1 || *c == -1) && !roots.contains(v) {
                            pick = Some((i, v.clone(), *c));
                            break 'outer;
                        }
                    }
                }
            }
        }
        let Some((i, t, c)) = pick.or_else(|| non_unit_pick(&kb, roots)) else { break };
        if c != 1 && c != -1 {
            // c·t + r = 0 with |c| > 1: each fact d·t + g ⋈ 0 becomes |c|·g − d·sgn(c)·r ⋈ 0
            // (= |c|·(d·t + g) − d·sgn(c)·(c·t + r), a positive multiple of the fact under the
            // equation): the rational projection, implied by the original facts — a sound
            // weakening that keeps e.g. `x' = 2·x ∧ 1 ≤ x` as `2 ≤ x'`.
            let Fact::Atom(eq) = kb.remove(i) else { break };
            let mut out = Vec::with_capacity(kb.len());
            for f in kb {
                if !f.vars().contains(&t) {
                    out.push(f);
                    continue;
                }
                let Fact::Atom(a) = &f else { continue };
                let d = a.e.coeffs.get(&t).copied().unwrap_or(0);
                let e = a.e.scale(c.abs()).and_then(|x| x.add_scaled(-d * c.signum(), &eq.e));
                if let Some(mut e) = e {
                    e.coeffs.retain(|_, k| *k != 0);
                    let rel = match a.rel {
                        ARel::Le => crate::logic::Rel::Le,
                        ARel::Eq => crate::logic::Rel::Eq,
                        ARel::Ne => crate::logic::Rel::Ne,
                    };
                    if !e.coeffs.contains_key(&t) {
                        if let Some(n) = Atom::cmp(&e, rel, &LinExpr::constant(0)) {
                            out.push(Fact::Atom(n));
                        }
                    }
                }
            }
            kb = out;
            continue;
        }
        let Fact::Atom(eq) = kb.remove(i) else { break };
        // c·t + rest = 0  ⇒  t = −c·rest  (c = ±1)
        let mut rest = eq.e.clone();
        rest.coeffs.remove(&t);
        let Some(sol) = rest.scale(-c) else { continue };
        let mut out = Vec::with_capacity(kb.len());
        for f in kb {
            if f.vars().contains(&t) {
                if let Some(g) = f.substitute(&|v| if *v == t { Some(sol.clone()) } else { None }) {
                    out.push(g);
                }
            } else {
                out.push(f);
            }
        }
        kb = out;
    }
    kb = super::projection::eliminate_bounds(kb, roots, limits);
    let mut seen = BTreeSet::new();
    kb.retain(|f| f.const_value() != Some(true) && f.vars().iter().all(|v| roots.contains(v)) && seen.insert(f.clone()));
    kb
}

/// An equation `c·t + r = 0` with a non-root `t` (any coefficient).
fn non_unit_pick(kb: &[Fact], roots: &BTreeSet<Var>) -> Option<(usize, Var, crate::logic::Int)> {
    for (i, f) in kb.iter().enumerate() {
        if let Fact::Atom(a) = f {
            if a.rel == ARel::Eq {
                for (v, c) in &a.e.coeffs {
                    if *c != 0 && !roots.contains(v) {
                        return Some((i, v.clone(), *c));
                    }
                }
            }
        }
    }
    None
}

/// Whether `general` generalizes `inst` (conditions (b)–(e) of the generalization rule);
/// returns μ with `μ(general) ⊑ inst`.
pub fn instance(ctx: &mut Ctx<'_>, general: &State, inst: &State) -> Option<Mu> {
    instance_from(ctx, general, inst, Mu::new())
}

/// [`instance`], with μ starting from `seed` (a pairing of some of `general`'s variables the
/// caller chose; every binding is still checked by (c)).
pub fn instance_from(ctx: &mut Ctx<'_>, general: &State, inst: &State, seed: Mu) -> Option<Mu> {
    if general.frames.len() != inst.frames.len() {
        return None;
    }
    let mut mu = seed;
    let mut used_targets: BTreeMap<Var, Var> = BTreeMap::new();
    let bind = |mu: &mut Mu, used: &mut BTreeMap<Var, Var>, a: &Var, b: &Var| -> bool {
        if let Some(x) = mu.get(a) {
            return x == b;
        }
        if let Some(src) = used.get(b) {
            // two general variables may map to the same instance variable
            let _ = src;
        }
        mu.insert(a.clone(), b.clone());
        used.insert(b.clone(), a.clone());
        true
    };
    // (b) LV
    for (fa, fb) in general.frames.iter().zip(&inst.frames) {
        if (fa.func, fa.block, fa.prev, fa.idx) != (fb.func, fb.block, fb.prev, fb.idx) {
            return None;
        }
        for (x, va) in &fa.lv {
            let vb = fb.lv.get(x)?;
            if !bind(&mut mu, &mut used_targets, va, vb) {
                return None;
            }
        }
    }
    // (d) AL (with unification of unmapped variables)
    let mut idmap: BTreeMap<u32, u32> = BTreeMap::new();
    let mut used_allocs = BTreeSet::new();
    for a in &general.allocs {
        let exp_s = apply(&mu, &a.start);
        let exp_e = apply(&mu, &a.end);
        // kinds as the merge pairs them (a `&mut Vec`'s buffer generalizes a heap block)
        let kind_fits = |b: &super::state::Alloc| super::rust_owned_vec::kind_generalizes(a.kind, b.kind);
        let mut found = inst.allocs.iter().find(|b| kind_fits(b) && !used_allocs.contains(&b.id) && b.start == exp_s && b.end == exp_e);
        for b in inst.allocs.iter().filter(|_| found.is_none()) {
            if !kind_fits(b) || used_allocs.contains(&b.id) {
                continue;
            }
            let ok_s = mu.get(&a.start).map_or(true, |x| *x == b.start);
            let ok_e = mu.get(&a.end).map_or(true, |x| *x == b.end);
            if ok_s && ok_e {
                found = Some(b);
                break;
            }
        }
        let b = found?;
        // a general state claiming the initializer is still intact needs the same of the instance
        if a.pristine.is_some() && a.pristine != b.pristine {
            return None;
        }
        bind(&mut mu, &mut used_targets, &a.start, &b.start);
        bind(&mut mu, &mut used_targets, &a.end, &b.end);
        used_allocs.insert(b.id);
        idmap.insert(a.id, b.id);
    }
    // (e) PT; a cell of the instance not yet matched is preferred (cells of one block are
    // then paired in order instead of all onto the first fitting one; any choice is checked
    // by (c) below)
    let mut used_cells: BTreeSet<usize> = BTreeSet::new();
    for p in &general.pt {
        let target_alloc = *idmap.get(&p.alloc)?;
        let exact = PtEntry { addr: apply(&mu, &p.addr), value: apply(&mu, &p.value), alloc: target_alloc, ..p.clone() };
        let fits = |q: &PtEntry| {
            q.size == p.size
                && q.is_ptr == p.is_ptr
                && q.unsigned == p.unsigned
                && q.alloc == target_alloc
                && mu.get(&p.addr).map_or(true, |x| *x == q.addr)
                && mu.get(&p.value).map_or(true, |x| *x == q.value)
        };
        let k = inst.pt.iter().position(|q| *q == exact)
            .or_else(|| inst.pt.iter().enumerate().position(|(i, q)| !used_cells.contains(&i) && fits(q)))
            .or_else(|| inst.pt.iter().position(fits))?;
        used_cells.insert(k);
        let q: PtEntry = inst.pt[k].clone();
        bind(&mut mu, &mut used_targets, &p.addr, &q.addr);
        bind(&mut mu, &mut used_targets, &p.value, &q.value);
    }
    // (g6) list invariants
    if !super::lists::instance(ctx, general, inst, &mut mu) {
        return None;
    }
    // (c) ⟨inst⟩ ⇒ μ(KB_general)
    let mut atoms = vec![];
    for f in &general.kb {
        match f.rename(&|v| apply(&mu, v)) {
            Fact::Atom(a) => atoms.push(a),
            g @ Fact::Or(_) => {
                if !inst.kb.contains(&g) {
                    return None;
                }
            }
        }
    }
    if !ctx.entails(inst, &atoms) {
        return None;
    }
    if !super::alignment::instance_holds(ctx, inst, &mu) {
        return None;
    }
    Some(mu)
}

/// Result of merging `a` (the ancestor) with `b`.
pub struct Merged {
    pub state: State,
    /// μ_a: merged-state variables ↦ variables of `a`.
    pub mu_a: Mu,
    /// The shapes ([`shape`]) of the candidate forms over two or more variables that `⟨b⟩`
    /// refuted: the families that drifted in this merge.
    pub refuted: BTreeSet<Shape>,
}

/// A linear form (`linear_form`) with its variables named by their hints (the name without
/// its numeric suffix: `i_235` ↦ `i`), so that the forms of two merges at one loop header,
/// whose merged states have fresh variables, compare equal. Only a heuristic choosing which
/// families to widen (`merge_widening`); any choice is sound.
pub type Shape = Vec<(String, crate::logic::Int)>;

pub fn shape(form: &[(Var, crate::logic::Int)]) -> Shape {
    let mut out: Shape = form
        .iter()
        .map(|(v, c)| {
            let n = v.name();
            let hint = match n.rsplit_once('_') {
                Some((h, d)) if !h.is_empty() && !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) => h,
                _ => n,
            };
            (hint.to_string(), *c)
        })
        .collect();
    out.sort();
    out
}

/// Def. 3: the merged state `c` with `c ⊒ a` (via μ_a) and `c ⊒ b` (via μ_b).
pub fn merge(ctx: &mut Ctx<'_>, a: &State, b: &State) -> Merged {
    merge_widening(ctx, a, b, false, &BTreeSet::new())
}

/// `merge`, and with `widen` a widening by families: when `⟨b⟩` refutes a candidate
/// `e ≤ k` (or `e = k`), every kept atom over the same linear form `e` (any constant) is
/// dropped too. A counter that keeps growing past one bound of a family (`x + i ≤ end + k`
/// for several slacks `k`, `i ≤ 0` then `i ≤ 2³¹ − 1` under `math`) then costs one merge
/// instead of one per bound. Sound for the same reason as the merge: the merged state keeps
/// a subset of the atoms `⟨b⟩` entails, so it still generalizes `a` and `b`; only precision
/// is given up, which is why the graph widens only after some merges at one position.
///
/// Before that, a family over two or more variables whose shape is in `drifting` (refuted
/// by an earlier merge at the same position: `x + len ≤ 2³¹`, then `x + len ≤ 2³² − 2`, …, a
/// counter and a list that grow together) is widened the same way when `⟨b⟩` refutes one of
/// its atoms again. Families of one variable (a counter's type range beside its drifting
/// bound) wait for `widen`.
pub fn merge_widening(ctx: &mut Ctx<'_>, a: &State, b: &State, widen: bool, drifting: &BTreeSet<Shape>) -> Merged {
    // a `&mut Vec`'s buffer a push left empty is no block (`rust_owned_vec`)
    let pruned = super::rust_owned_vec::drop_empty_buffers(ctx, a, b);
    let (a, b) = pruned.as_ref().map_or((a, b), |(x, y)| (x, y));
    let mut mu_a = Mu::new();
    let mut inv_a: BTreeMap<Var, Var> = BTreeMap::new();
    let mut inv_b: BTreeMap<Var, Var> = BTreeMap::new();
    let mut c = a.clone();
    // (a's value, b's value, merged value) of every local both have (`lists_prev`)
    let mut locals = vec![];
    for (i, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        let mut lv = BTreeMap::new();
        for (x, va) in &fa.lv {
            let Some(vb) = fb.lv.get(x) else { continue };
            let hint = va.name().rsplit_once('_').map(|p| p.0).unwrap_or("m").to_string();
            let v = ctx.fresh(&hint);
            locals.push((va.clone(), vb.clone(), v.clone()));
            mu_a.insert(v.clone(), va.clone());
            inv_a.insert(va.clone(), v.clone());
            inv_b.insert(vb.clone(), v.clone());
            lv.insert(*x, v);
        }
        c.frames[i].lv = lv;
    }
    // AL: syntactic intersection after renaming
    {
        let ra = |v: &Var| inv_a.get(v).cloned().unwrap_or_else(|| v.clone());
        let rb = |v: &Var| inv_b.get(v).cloned().unwrap_or_else(|| v.clone());
        c.allocs = a
            .allocs
            .iter()
            .filter_map(|x| {
                let (s, e) = (ra(&x.start), ra(&x.end));
                b.allocs.iter().find(|y| y.id == x.id && y.kind == x.kind && rb(&y.start) == s && rb(&y.end) == e).map(|y| {
                    let mut z = x.clone();
                    z.start = s;
                    z.end = e;
                    if y.pristine.is_none() {
                        z.pristine = None;
                    }
                    z
                })
            })
            .collect();
    }
    // an owned `Vec`'s buffer: the blocks one pointer cell points to (`rust_owned_vec`)
    let renumbered = super::rust_owned_vec::match_buffers(ctx, a, b, &mut c, &mut inv_a, &mut inv_b, &mut mu_a);
    let b = renumbered.as_ref().unwrap_or(b);
    // heap blocks that are different allocations but that the same local points to in both
    // states (the cell at the end of a list built by appending), paired as one block with a
    // fresh end variable (its size is a KB candidate like any other fact); b's id ↦ a's
    let mut same_block: BTreeMap<u32, u32> = b.allocs.iter().filter(|y| c.allocs.iter().any(|z| z.id == y.id)).map(|y| (y.id, y.id)).collect();
    let paired: BTreeSet<u32> = c.allocs.iter().map(|z| z.id).collect();
    // (merged start, a's start, b's start) of blocks paired so; their size (both states
    // prove it) is stated directly, since a start that several locals share in one state
    // is renamed to only one of them
    let mut moved: BTreeMap<u32, (Var, Var, Var)> = BTreeMap::new();
    let mut late = vec![];
    for x in a.allocs.iter().filter(|x| x.kind == AllocKind::Heap && !paired.contains(&x.id)) {
        let found = a.frames.iter().zip(&b.frames).zip(&c.frames).find_map(|((fa, fb), fc)| {
            fa.lv.iter().filter(|(_, va)| **va == x.start).find_map(|(l, _)| {
                let vb = fb.lv.get(l)?;
                let y = b.allocs.iter().find(|y| y.kind == x.kind && y.start == *vb && !same_block.contains_key(&y.id))?;
                Some((y, fc.lv.get(l)?.clone()))
            })
        });
        let Some((y, s)) = found else { continue };
        if a.allocs.iter().any(|z| z.id == y.id) || inv_a.contains_key(&x.end) || inv_b.contains_key(&y.end) {
            continue;
        }
        let (Some(ka), Some(kb)) = (super::lists::block_size(a, x), super::lists::block_size(b, y)) else { continue };
        if ka != kb {
            continue;
        }
        let e = ctx.fresh("end");
        inv_a.insert(x.end.clone(), e.clone());
        inv_b.insert(y.end.clone(), e.clone());
        mu_a.insert(e.clone(), x.end.clone());
        same_block.insert(y.id, x.id);
        late.extend(Atom::cmp(&LinExpr::var(&e), crate::logic::Rel::Eq, &LinExpr::var(&s).add_scaled(1, &LinExpr::constant(ka as i128 - 1)).unwrap_or_else(|| LinExpr::var(&s))));
        moved.insert(x.id, (s.clone(), x.start.clone(), y.start.clone()));
        let mut z = x.clone();
        z.start = s;
        z.end = e;
        if y.pristine.is_none() {
            z.pristine = None;
        }
        c.allocs.push(z);
    }
    // PT: entries at the same address (after renaming) are kept; differing values are
    // generalized by a fresh variable (an extension of Def. 3 that abstracts memory contents
    // the way LV abstracts locals; c still generalizes a and b through the extended μ).
    let kept: BTreeSet<u32> = c.allocs.iter().map(|x| x.id).collect();
    let mut pt = vec![];
    let mut extra = vec![];
    for p in &a.pt {
        if !kept.contains(&p.alloc) {
            continue;
        }
        let addr = match moved.get(&p.alloc) {
            Some((m, sa, _)) if *sa == p.addr => m.clone(),
            _ => inv_a.get(&p.addr).cloned().unwrap_or_else(|| p.addr.clone()),
        };
        let addr_b = |q: &PtEntry| match moved.get(&p.alloc) {
            Some((m, _, sb)) if *sb == q.addr => m.clone(),
            _ => inv_b.get(&q.addr).cloned().unwrap_or_else(|| q.addr.clone()),
        };
        let Some(q) = b.pt.iter().find(|q| {
            same_block.get(&q.alloc) == Some(&p.alloc) && q.size == p.size && q.is_ptr == p.is_ptr && q.unsigned == p.unsigned && addr_b(q) == addr
        }) else {
            continue;
        };
        let value = match (inv_a.get(&p.value).cloned(), inv_b.get(&q.value).cloned()) {
            (Some(x), Some(y)) if x == y => x,
            (None, None) if p.value == q.value => p.value.clone(),
            (None, None) => {
                let hint = p.value.name().rsplit_once('_').map(|x| x.0).unwrap_or("mem").to_string();
                let v = ctx.fresh(&hint);
                inv_a.insert(p.value.clone(), v.clone());
                inv_b.insert(q.value.clone(), v.clone());
                mu_a.insert(v.clone(), p.value.clone());
                extra.push(p.value.clone());
                v
            }
            _ => continue,
        };
        let entry = PtEntry { addr, value, ..p.clone() };
        if !pt.contains(&entry) {
            pt.push(entry);
        }
    }
    c.pt = pt;
    let (lists, list_vars) = super::lists::merge(ctx, (a, b), &locals, &mut inv_a, &mut inv_b, &mut mu_a, widen);
    c.lists = lists;
    extra.extend(list_vars);
    super::alignment::merge(ctx, a, b, &merged_pairs(&inv_a, &inv_b));
    let ra = |v: &Var| inv_a.get(v).cloned().unwrap_or_else(|| v.clone());
    let rb = |v: &Var| inv_b.get(v).cloned().unwrap_or_else(|| v.clone());
    let b_ren = b.rename(&rb);
    // KB_c = { φ ∈ μ_a⁻¹(⟪a⟫) | ⊨ μ_b⁻¹(⟨b⟩) ⇒ φ }
    let mut cands: Vec<Atom> = closure(ctx, a, &extra).into_iter().map(|x| x.rename(&ra)).collect();
    let from_b = bounds_of_b(ctx, a, &b_ren, &mu_a, &inv_b, &cands);
    cands.extend(from_b.iter().cloned());
    let mut kb = vec![];
    let mut seen = BTreeSet::new();
    let mut refuted: BTreeSet<Vec<(Var, crate::logic::Int)>> = BTreeSet::new();
    for x in cands {
        if x.const_value().is_some() || !seen.insert(x.clone()) {
            continue;
        }
        if ctx.entails(&b_ren, std::slice::from_ref(&x)) {
            kb.push(x);
        } else {
            refuted.insert(linear_form(&x));
        }
    }
    let refuted_shapes: BTreeSet<Shape> = refuted.iter().filter(|f| f.len() >= 2).map(|f| shape(f)).collect();
    // (the atoms dropped are those of the refuted form itself: two lists' lengths share a
    // shape, and `sum + 100·len_rest ≤ K` may be stable beside a drifting `sum + 100·len_prefix`)
    refuted.retain(|f| widen || (f.len() >= 2 && drifting.contains(&shape(f))));
    if !refuted.is_empty() {
        let before = kb.len();
        let dropped = |x: &Atom| refuted.contains(&linear_form(x));
        // a `Vec`'s `len ≤ cap` survives the widening (`rust_owned_vec`)
        // a bound of `b` at a threshold survives too (`bounds_of_b`: widening with thresholds)
        kb.retain(|x| !dropped(x) || super::rust_owned_vec::length_within_capacity(&c, x) || from_b.contains(x));
        tracing::debug!("merge widened by families: {} atoms of {} refuted forms dropped (widen: {widen})", before - kb.len(), refuted.len());
    }
    kb.extend(late);
    c.kb = kb.into_iter().map(Fact::Atom).collect();
    c.inputs = vec![];
    c.inputs_exact = false;
    project_kb(&mut c, ctx.projection);
    Merged { state: c, mu_a, refuted: refuted_shapes }
}

/// Constant bounds at a threshold (`is_threshold`: `x ≤ 2^k − 1`, `x ≥ −2^k`) that `b`'s own
/// KB states of one merged variable `x` and that ⟨a⟩ entails too (checked here through μ_a),
/// as further merge candidates beside ⟪a⟫.
/// ⟪a⟫ alone misses a bound that appears only after the first iteration (a checksum
/// `s ^= v` is `0` in `a` and `≤ 511` in `b`: `s ≤ 511` is no consequence ⟪a⟫ lists), and the
/// merged state would then forget it. Sound: the merge keeps an atom only when both ⟨a⟩
/// (here) and ⟨b⟩ (the caller's check) entail it, so the merged state still generalizes both.
fn bounds_of_b(ctx: &mut Ctx<'_>, a: &State, b_ren: &State, mu_a: &Mu, inv_b: &BTreeMap<Var, Var>, known: &[Atom]) -> Vec<Atom> {
    let merged: BTreeSet<&Var> = inv_b.values().collect();
    let mut out = vec![];
    for f in &b_ren.kb {
        let Fact::Atom(x) = f else { continue };
        if x.rel != ARel::Le || x.e.coeffs.len() != 1 {
            continue;
        }
        // (`is_threshold` also requires the coefficient ±1)
        let Some((v, _)) = x.e.coeffs.iter().next() else { continue };
        if !is_threshold(x) || !merged.contains(v) || !mu_a.contains_key(v) || out.contains(x) || known.contains(x) || out.len() >= 8 {
            continue;
        }
        let in_a = x.rename(&|w: &Var| apply(mu_a, w));
        if ctx.entails(a, std::slice::from_ref(&in_a)) {
            out.push(x.clone());
        }
    }
    out
}

/// Whether a one-variable bound is at a threshold: `x ≤ 2^k − 1` or `x ≥ −2^k` (`k ≥ 2`), the
/// ends of a value range of `k` bits. Only such bounds of `b` are merge candidates
/// (`bounds_of_b`), and they survive the widening by families: the thresholds are sparse, so
/// a counter that drifts by a constant (`x ≤ 1`, `x ≤ 2`, …) meets a non-threshold bound at
/// the next merge and loses it as before (at most one more merge), and widening with a
/// finite set of thresholds still terminates; a value whose range is a power of two (a
/// checksum `s ^= v` over values below 512) keeps its bound.
fn is_threshold(x: &Atom) -> bool {
    let Some((_, coef)) = x.e.coeffs.iter().next() else { return false };
    let c = x.e.constant;
    match *coef {
        // x + c ≤ 0: x ≤ −c
        1 => c < -2 && (c.unsigned_abs() + 1).is_power_of_two(),
        // −x + c ≤ 0: x ≥ c
        -1 => c < -3 && c.unsigned_abs().is_power_of_two(),
        _ => false,
    }
}

/// The linear form of an atom without its constant (`e ≤ k` and `e = k` for every `k` are
/// one family; a lower bound `−e ≤ k` is another).
fn linear_form(x: &Atom) -> Vec<(Var, crate::logic::Int)> {
    x.e.coeffs.iter().map(|(v, c)| (v.clone(), *c)).collect()
}

/// Merged variable ↦ (its variable in `a`, its variable in `b`), from the two renamings.
fn merged_pairs(inv_a: &BTreeMap<Var, Var>, inv_b: &BTreeMap<Var, Var>) -> BTreeMap<Var, (Var, Var)> {
    let from_b: BTreeMap<&Var, &Var> = inv_b.iter().map(|(vb, m)| (m, vb)).collect();
    inv_a.iter().filter_map(|(va, m)| from_b.get(m).map(|vb| (m.clone(), (va.clone(), (*vb).clone())))).collect()
}

/// ⟪a⟫ (atoms only): ⟨a⟩, equations split into two inequalities, disequalities
/// strengthened to the strict inequality ⟨a⟩ entails.
fn closure(ctx: &mut Ctx<'_>, a: &State, extra: &[Var]) -> Vec<Atom> {
    let all: BTreeSet<Var> = a.all_vars();
    let facts = ctx.state_facts(a, &all);
    let mut out = vec![];
    for f in &facts {
        let Fact::Atom(x) = f else { continue };
        match x.rel {
            ARel::Le => out.push(x.clone()),
            ARel::Eq => {
                out.push(x.clone());
                out.push(Atom { e: x.e.clone(), rel: ARel::Le });
                if let Some(n) = x.e.scale(-1) {
                    out.push(Atom { e: n, rel: ARel::Le });
                }
            }
            ARel::Ne => {
                out.push(x.clone());
                // e ≠ 0 strengthened to e < 0 or e > 0
                let lt = x.e.add_scaled(1, &LinExpr::constant(1)).map(|e| Atom { e, rel: ARel::Le });
                let gt = x.e.scale(-1).and_then(|e| e.add_scaled(1, &LinExpr::constant(1))).map(|e| Atom { e, rel: ARel::Le });
                for s in [lt, gt].into_iter().flatten() {
                    if ctx.entails_facts(&facts, std::slice::from_ref(&s)) {
                        out.push(s);
                    }
                }
            }
        }
    }
    // Derived invariant candidates (an extension of ⟪a⟫ by further consequences of ⟨a⟩, which
    // keeps `c ⊒ a`): position of each local relative to each allocation, and the order
    // between locals. These give the bounds `s ≤ end` of pointer loops whose header has not
    // yet loaded `*s` (clang -O0 does not rotate loops) and relational bounds like `i ≤ n`.
    // (variable, kind): kind = Some(bits) for integers, None for pointers; relations are only
    // tried between values of the same kind, allocation bounds only for pointers.
    let mut lvs: Vec<(Var, Option<u32>)> = vec![];
    let mut derived = vec![];
    for v in extra.iter().take(8) {
        let cell = a.pt.iter().find(|p| p.value == *v);
        let kind = cell.and_then(|p| if p.is_ptr { None } else { Some(p.size as u32 * 8) });
        // a merged integer cell keeps its view's range (a Rust `Vec`'s capacity and length)
        if let (Some(p), Some(bits)) = (cell, kind) {
            let view = if p.unsigned { crate::facts::views::View::Unsigned } else { crate::facts::views::View::Signed };
            derived.extend(super::bv::range_atoms(&LinExpr::var(v), bits, view));
        }
        lvs.push((v.clone(), kind));
    }
    // pointers kept in memory unchanged by the merge (an iterator's end next to its moving
    // position): `ptr ≤ end` is then a candidate like between two locals
    for p in a.pt.iter().filter(|p| p.is_ptr && !extra.contains(&p.value)).take(4) {
        if !lvs.iter().any(|(v, _)| *v == p.value) {
            lvs.push((p.value.clone(), None));
        }
    }
    // integers kept unchanged beside a changing one of the same struct (`rust_owned_vec`: a
    // `Vec`'s capacity while its length grows gives `len ≤ cap`)
    for (v, bits) in super::rust_owned_vec::unchanged_fields(a, extra) {
        if !lvs.iter().any(|(w, _)| *w == v) {
            lvs.push((v, Some(bits)));
        }
    }
    for fr in a.frames.iter().rev() {
        for (x, v) in &fr.lv {
            let kind = match ctx.value_type(fr.func, *x) {
                Some(Type::Int(bits)) => {
                    let view = ctx.view(fr.func, *x);
                    derived.extend(super::bv::range_atoms(&LinExpr::var(v), bits, view));
                    Some(bits)
                }
                Some(Type::Ptr) => None,
                _ => continue,
            };
            if lvs.len() < 20 {
                lvs.push((v.clone(), kind));
            }
        }
    }
    // list lengths (seed 001 (A)/(B)): bounds, and their order against integer locals
    // (`len = k` of a loop that conses one cell per iteration)
    // and, for a counter that rises while the list shrinks, `x + len ≤ K` with K among the
    // largest constants of ⟨a⟩ (e.g. the bound on the length the list was built with)
    let mut bounds: Vec<crate::logic::Int> = facts
        .iter()
        .filter_map(|f| if let Fact::Atom(x) = f { Some(x.e.constant.abs()) } else { None })
        .filter(|k| *k > 1 && *k < (1 << 40))
        .collect();
    bounds.sort_unstable();
    bounds.dedup();
    let bounds: Vec<crate::logic::Int> = bounds.into_iter().rev().take(3).collect();
    for l in &a.lists {
        let le = LinExpr::var(&l.len);
        derived.extend(Atom::cmp(&le, crate::logic::Rel::Ge, &LinExpr::constant(1)));
        // the list's own length bound is a K too (a counter that rises by at most one per
        // cell a walk passes: `s + len ≤ 300` where the KB's largest constants are ranges)
        let own = super::lists::length_bound(ctx, a, &l.len).map(|b| -b.e.constant);
        for (y, ky) in &lvs {
            if ky.is_some() {
                derived.extend(Atom::cmp(&le, crate::logic::Rel::Le, &LinExpr::var(y)));
                derived.extend(Atom::cmp(&LinExpr::var(y), crate::logic::Rel::Le, &le));
                for k in bounds.iter().chain(own.iter().filter(|k| !bounds.contains(k))) {
                    let sum = le.add_scaled(1, &LinExpr::var(y));
                    derived.extend(sum.and_then(|e| Atom::cmp(&e, crate::logic::Rel::Le, &LinExpr::constant(*k))));
                }
            }
        }
    }
    // field-value relations along lists (`lists_values`): a search's target between the
    // first value and the value after the last cell, the cell a segment leads to continuing it
    if a.lists.iter().any(|l| l.fields.iter().any(|f| f.step.is_some())) {
        let mut ys: Vec<Var> = lvs.iter().filter(|(_, k)| k.is_some()).map(|(v, _)| v.clone()).collect();
        ys.extend(a.pt.iter().filter(|p| !p.is_ptr).map(|p| p.value.clone()).take(6));
        ys.extend(a.lists.iter().flat_map(|l| l.fields.iter().filter(|f| !f.is_ptr).map(|f| f.first.clone())));
        ys.dedup();
        derived.extend(super::lists_values::candidates(ctx, a, &ys));
    }
    // an accumulator beside a list whose cells' values lie in a range (`lists_ranges`)
    if a.lists.iter().any(|l| l.fields.iter().any(|f| f.range.is_some())) {
        let ys: Vec<Var> = lvs.iter().filter(|(_, k)| k.is_some()).map(|(v, _)| v.clone()).collect();
        derived.extend(super::lists_ranges::candidates(ctx, a, &ys));
    }
    // a backward walk: the part not yet walked and the walked cells (`lists_backward`)
    derived.extend(super::lists_backward::candidates(ctx, a));
    // two lists that exchange cells (reversal, moving between lists): `len_a + len_b ≤ K`
    for (i, l) in a.lists.iter().enumerate() {
        for m in &a.lists[i + 1..] {
            for k in &bounds {
                let sum = LinExpr::var(&l.len).add_scaled(1, &LinExpr::var(&m.len));
                derived.extend(sum.and_then(|e| Atom::cmp(&e, crate::logic::Rel::Le, &LinExpr::constant(*k))));
            }
            // a walk's prefix segment and the rest of one list: `len_a + len_b = y` for the
            // counter `y` the list was built with (a sorted insertion's cursor)
            let sum = LinExpr::var(&l.len).add_scaled(1, &LinExpr::var(&m.len));
            for (y, _) in lvs.iter().filter(|(_, ky)| ky.is_some()) {
                derived.extend(sum.clone().and_then(|e| Atom::cmp(&e, crate::logic::Rel::Le, &LinExpr::var(y))));
                derived.extend(sum.clone().and_then(|e| Atom::cmp(&LinExpr::var(y), crate::logic::Rel::Le, &e)));
            }
        }
    }
    // integers of list invariants among the merged variables have no cell, so no kind above:
    // they are no pointers (no allocation bounds, no order against pointers, which holds only
    // while a counter is smaller than an address and costs a merge when it stops holding)
    let list_ints: BTreeSet<&Var> = a.lists.iter().flat_map(|l| std::iter::once(&l.len).chain(l.fields.iter().filter(|f| !f.is_ptr).flat_map(|f| std::iter::once(&f.first).chain(f.last.as_ref())))).collect();
    let mut atoms: Option<Vec<Fact>> = None;
    for (x, kx) in &lvs {
        let xe = LinExpr::var(x);
        derived.extend(Atom::cmp(&xe, crate::logic::Rel::Ge, &LinExpr::constant(0)));
        if kx.is_some() {
            derived.extend(Atom::cmp(&xe, crate::logic::Rel::Ge, &LinExpr::constant(1)));
        } else if !list_ints.contains(x) {
            // (not the globals no atom relates `x` to: a Rust crate's dozen panic messages
            // and locations, three queries each per pointer; `unreached_globals`)
            let apart = super::unreached_globals::globals_apart(a, atoms.get_or_insert_with(|| super::unreached_globals::atoms_only(&facts)), x);
            for al in a.allocs.iter().filter(|al| !apart.contains(&al.id)) {
                let (st, en) = (LinExpr::var(&al.start), LinExpr::var(&al.end));
                derived.extend(Atom::cmp(&st, crate::logic::Rel::Le, &xe));
                derived.extend(Atom::cmp(&xe, crate::logic::Rel::Le, &en));
                derived.extend(en.add_scaled(1, &LinExpr::constant(1)).and_then(|e1| Atom::cmp(&xe, crate::logic::Rel::Le, &e1)));
            }
        }
        for (y, ky) in &lvs {
            if x != y && kx == ky && (kx.is_some() || list_ints.contains(x) == list_ints.contains(y)) {
                let ye = LinExpr::var(y);
                derived.extend(Atom::cmp(&xe, crate::logic::Rel::Le, &ye));
                derived.extend(Atom::cmp(&xe, crate::logic::Rel::Lt, &ye));
            }
        }
    }
    // an owned `Vec`'s buffer against its capacity (`rust_owned_vec`)
    derived.extend(super::rust_owned_vec::buffer_candidates(a));
    // `Ctx::entails` retries with the variables' alignments (`symexec::alignment`): a pointer
    // stepped by 4 from an aligned start is ≤ the aligned end only modulo 4 once the slice's
    // length is projected away
    for d in derived {
        if !out.contains(&d) && ctx.entails(a, std::slice::from_ref(&d)) {
            out.push(d);
        }
    }
    // string and buffer walks: room, counters and terminators (`symexec::buffer_relations`)
    for d in super::buffer_relations::entailed_candidates(ctx, a, &facts, &lvs) {
        if !out.contains(&d) {
            out.push(d);
        }
    }
    out
}

//! Unit tests of the widening of drifting families (`generalize::merge_widening`'s
//! `drifting`, `generalize::shape`): a family over two or more variables that an earlier merge
//! at the same loop header refuted loses the rest of its refuted form when the next merge
//! refutes it again; families refuted for the first time, forms of one variable and other
//! forms of the same shape keep their entailed atoms.

use super::facts::{Atom, Fact};
use super::generalize::{self, Shape};
use super::lists_tests::{ctx, module};
use super::state::{Frame, State};
use crate::ir::{BlockId, FuncId, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

fn v(n: &str) -> Var {
    Var::new(n)
}

/// `e ≤ k` for `e = Σ c·x`.
fn le(terms: &[(&str, i128)], k: i128) -> Atom {
    let mut e = LinExpr::constant(0);
    for (x, c) in terms {
        e = e.add_scaled(*c, &LinExpr::var(&v(x))).expect("no overflow");
    }
    Atom::cmp(&e, Rel::Le, &LinExpr::constant(k)).expect("atom")
}

/// A state with locals 0..3 holding `i`, `len`, `m` (names `{name}_{n}`) and the atoms `kb`.
fn state(n: u32, kb: &[Atom]) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    let lv: BTreeMap<ValueId, Var> = ["i", "len", "m"].iter().enumerate().map(|(k, x)| (ValueId(k as u32), v(&format!("{x}_{n}")))).collect();
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    kb.iter().for_each(|a| s.add_atom(a.clone()));
    s
}

fn shape_of(terms: &[(&str, i128)]) -> Shape {
    let mut s: Shape = terms.iter().map(|(x, c)| (x.to_string(), *c)).collect();
    s.sort();
    s
}

/// Whether the merged KB holds `e ≤ k` over the merged locals (local `k` of `terms` by name).
fn holds(kb: &[Fact], merged: &State, terms: &[(&str, i128)], k: i128) -> bool {
    let names: BTreeMap<&str, Var> = ["i", "len", "m"].iter().enumerate().map(|(j, x)| (*x, merged.frames[0].lv[&ValueId(j as u32)].clone())).collect();
    let renamed: Vec<(String, i128)> = terms.iter().map(|(x, c)| (names[x].name().to_string(), *c)).collect();
    let want = le(&renamed.iter().map(|(x, c)| (x.as_str(), *c)).collect::<Vec<_>>(), k);
    kb.contains(&Fact::Atom(want))
}

#[test]
fn shapes_name_variables_by_their_hints() {
    let form = vec![(v("len_237"), 1), (v("i_235"), 1)];
    assert_eq!(generalize::shape(&form), shape_of(&[("i", 1), ("len", 1)]));
    // a name without a numeric suffix stays whole; only the last suffix goes
    assert_eq!(generalize::shape(&[(v("cell.14.8"), 1), (v("_10_234"), -1)]), shape_of(&[("_10", -1), ("cell.14.8", 1)]));
}

#[test]
fn a_family_refuted_again_loses_its_other_bounds_and_others_keep_theirs() {
    let m = module();
    // ⟨a⟩: the family `i + len ≤ k` at two slacks, `i + m ≤ 100` (same hints, other form:
    // not the same family), and `i ≤ 5`, `i ≤ 9` (one variable)
    let kb_a = [le(&[("i_1", 1), ("len_1", 1)], 10), le(&[("i_1", 1), ("len_1", 1)], 20), le(&[("i_1", 1), ("m_1", 1)], 100), le(&[("i_1", 1)], 5), le(&[("i_1", 1)], 9)];
    // ⟨b⟩: `i + len = 15` refutes `≤ 10` and keeps `≤ 20`; `i = 7` refutes `i ≤ 5`
    let eq = |terms: &[(&str, i128)], k: i128| [le(terms, k), le(&terms.iter().map(|(x, c)| (*x, -c)).collect::<Vec<_>>(), -k)];
    let mut kb_b = vec![];
    kb_b.extend(eq(&[("i_2", 1), ("len_2", 1)], 15));
    kb_b.extend(eq(&[("i_2", 1)], 7));
    kb_b.push(le(&[("i_2", 1), ("m_2", 1)], 50));
    let (a, b) = (state(1, &kb_a), state(2, &kb_b));
    let families = |drifting: &BTreeSet<Shape>| {
        let mut cx = ctx(&m);
        let merged = generalize::merge_widening(&mut cx, &a, &b, false, drifting);
        let kb = merged.state.kb.clone();
        (merged, kb)
    };
    // first refutation: only the refuted atom goes, and its shape is reported
    let (first, kb) = families(&BTreeSet::new());
    assert!(!holds(&kb, &first.state, &[("i", 1), ("len", 1)], 10));
    assert!(holds(&kb, &first.state, &[("i", 1), ("len", 1)], 20), "{kb:?}");
    assert!(first.refuted.contains(&shape_of(&[("i", 1), ("len", 1)])), "{:?}", first.refuted);
    assert!(!first.refuted.iter().any(|s| s.len() < 2), "one-variable forms are not reported: {:?}", first.refuted);
    // refuted again at the same header: the rest of the form goes too; `i + m ≤ 100` (another
    // form) and `i ≤ 9` (one variable) stay
    let drifting: BTreeSet<Shape> = [shape_of(&[("i", 1), ("len", 1)]), shape_of(&[("i", 1)])].into_iter().collect();
    let (again, kb) = families(&drifting);
    assert!(!holds(&kb, &again.state, &[("i", 1), ("len", 1)], 20), "{kb:?}");
    assert!(holds(&kb, &again.state, &[("i", 1), ("m", 1)], 100), "{kb:?}");
    assert!(holds(&kb, &again.state, &[("i", 1)], 9), "{kb:?}");
}

//! Source names of local variables that stay in memory (issue 13): rustc keeps every local in
//! an `[N x i8]` alloca mem2reg cannot promote, and clang keeps address-taken locals in memory,
//! so the value a loop counts with is a memory cell, not an SSA value. A cell covering a whole
//! fixed-size alloca *is* that variable: its content is shown as `n`, the alloca's address
//! as `&n` (names from `#dbg_declare`, else LLVM's name of the alloca); a cell inside it at a
//! known constant offset `k` (a field) as `n@k`, and the address of the alloca's last byte
//! (the allocation's `end`, which a ranking function may use as a bound) as `&n@(size-1)`;
//! the end of any other block as `end(p)`, `p` the name of its start (a pointer parameter,
//! a global): the address of the block's last byte.

use super::state::State;
use crate::ir::{Module, Op, Operand, ValueId};
use crate::logic::Var;
use std::collections::BTreeMap;

/// Names of the cells of `s` that cover a whole fixed-size alloca of one of its frames, and
/// of those allocas' addresses. Cells of part of an alloca (a field, an array element) are
/// left unnamed: their content is not the variable.
pub(super) fn local_cell_names(module: &Module, s: &State) -> BTreeMap<Var, String> {
    let mut out = BTreeMap::new();
    for fr in &s.frames {
        let func = module.function(fr.func);
        let sizes: BTreeMap<ValueId, u64> = func
            .blocks
            .iter()
            .flat_map(|b| &b.instrs)
            .filter_map(|i| match (&i.result, &i.op) {
                (Some(r), Op::Alloca { elem_size, count: Operand::Int { value, .. }, .. }) => u64::try_from(*value).ok().and_then(|c| c.checked_mul(*elem_size)).map(|n| (*r, n)),
                _ => None,
            })
            .collect();
        for (x, v) in &fr.lv {
            let (Some(&size), Some(Some(name))) = (sizes.get(x), func.value_names.get(x.0 as usize)) else { continue };
            // the address of its last byte: `&name@k`, as the address of the field at k
            if let (Some(a), Some(last)) = (s.allocs.iter().find(|a| a.start == *v), size.checked_sub(1)) {
                out.entry(a.end.clone()).or_insert_with(|| format!("&{name}@{last}"));
            }
            for e in s.pt.iter().filter(|e| e.addr == *v && e.size == size) {
                out.insert(e.value.clone(), name.clone());
                out.insert(v.clone(), format!("&{name}"));
            }
            // a part of it (a field of a struct kept in memory, e.g. a Rust iterator's
            // pointers): `name@k`, the bytes at offset k of the variable's storage
            for e in s.pt.iter().filter(|e| e.size < size) {
                let Some(k) = offset_from(s, &e.addr, v).filter(|k| (0..size as i128).contains(k)) else { continue };
                out.entry(e.value.clone()).or_insert_with(|| format!("{name}@{k}"));
            }
        }
    }
    out
}

/// The constant `k` with `addr = base + k` when the knowledge base states it as an equation
/// (`addr` itself: 0).
fn offset_from(s: &State, addr: &Var, base: &Var) -> Option<i128> {
    if addr == base {
        return Some(0);
    }
    s.kb.iter().find_map(|f| {
        let super::facts::Fact::Atom(a) = f else { return None };
        if a.rel != super::facts::ARel::Eq || a.e.coeffs.len() != 2 {
            return None;
        }
        // c·addr − c·base + d = 0
        let (ca, cb) = (a.e.coeff(addr), a.e.coeff(base));
        (ca != 0 && ca == -cb && a.e.constant % ca == 0).then(|| -a.e.constant / ca)
    })
}

/// Names of the ends of the blocks of `s` left unnamed by `names`: `end(p)` for a block
/// starting at the value named `p` (a parameter's block, a global), the address of its last
/// byte. Ranking functions may bound a pointer by such an end.
pub(super) fn block_end_names(s: &State, names: &BTreeMap<Var, String>) -> BTreeMap<Var, String> {
    s.allocs
        .iter()
        .filter(|a| !names.contains_key(&a.end))
        .map(|a| (a.end.clone(), format!("end({})", names.get(&a.start).map_or(a.start.name(), String::as_str))))
        .collect()
}

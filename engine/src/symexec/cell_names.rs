//! Source names of local variables that stay in memory (issue 13): rustc keeps every local in
//! an `[N x i8]` alloca mem2reg cannot promote, and clang keeps address-taken locals in memory,
//! so the value a loop counts with is a memory cell, not an SSA value. A cell covering a whole
//! fixed-size alloca *is* that variable: its content is shown as `n`, the alloca's address
//! as `&n` (names from `#dbg_declare`, else LLVM's name of the alloca).

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
            for e in s.pt.iter().filter(|e| e.addr == *v && e.size == size) {
                out.insert(e.value.clone(), name.clone());
                out.insert(v.clone(), format!("&{name}"));
            }
        }
    }
    out
}

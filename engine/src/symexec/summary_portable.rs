//! The portable form of a stored summary, for the summary cache on disk (docs/design/modular.md
//! "Summaries on disk"): positional ids that name other parts of the module (the entry
//! frame's `FuncId`, the `GlobalId` of a global's allocation) are written as NAMES and mapped
//! back to the loading module's ids by name; block and value ids stay (they are positions
//! inside the summarized function, whose IR the function key pins).
//!
//! An entry's key is the blake3 hash of the function key (`cache::ModuleKeys::summary_key`:
//! the function's deep content hash — its IR and its callees' —, the module-wide facts it is
//! analysed with, the globals, the engine build and every result-affecting option) and of the
//! portable entry state (names, not ids). Decoding re-encodes what it decoded against the
//! loading module and accepts the entry only if the key comes out the same, so an entry whose
//! names do not resolve, that belongs to another function or whose bytes were tampered with
//! is rejected (recomputed), never used. Pure code: the I/O is `cache::summaries`.

use super::returns::ReturnSummary;
use super::state::{AllocKind, State};
use super::summary_store::StoredSummary;
use crate::ir::{FuncId, GlobalId, Module};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Version of the portable payload and of the entry key derivation; bump it when either
/// changes (entries of another version then never match a key).
pub const SUMMARY_FORMAT: u32 = 1;

/// The names the portable form uses, and the shape of every function (to reject entries whose
/// positions do not fit the function, instead of panicking later).
#[derive(Clone, Debug)]
pub struct ModuleNames {
    functions: Vec<String>,
    globals: Vec<String>,
    function_ids: HashMap<String, FuncId>,
    global_ids: HashMap<String, GlobalId>,
    /// Per function: (number of blocks, number of values).
    shapes: Vec<(usize, u32)>,
}

impl ModuleNames {
    pub fn new(module: &Module) -> ModuleNames {
        let functions: Vec<String> = module.functions.iter().map(|f| f.name.clone()).collect();
        let globals: Vec<String> = module.globals.iter().map(|g| g.name.clone()).collect();
        let function_ids = functions.iter().enumerate().map(|(i, n)| (n.clone(), FuncId(i as u32))).collect();
        let global_ids = globals.iter().enumerate().map(|(i, n)| (n.clone(), GlobalId(i as u32))).collect();
        let shapes = module.functions.iter().map(|f| (f.blocks.len(), f.num_values)).collect();
        ModuleNames { functions, globals, function_ids, global_ids, shapes }
    }
}

/// A summary with module positions replaced by indices into its own name tables.
#[derive(Serialize, Deserialize)]
struct Portable {
    /// The summarized function.
    function: String,
    /// `FuncId(i)` in `entry`'s frames is `functions[i]`.
    functions: Vec<String>,
    /// `AllocKind::Global(GlobalId(i))` in the entry and the return states is `globals[i]`.
    globals: Vec<String>,
    entry: State,
    returns: Vec<ReturnSummary>,
}

/// Maps every `FuncId` and `GlobalId` of a state through `f` and `g` (`None` when one does not
/// map).
fn map_state(s: &State, f: &mut dyn FnMut(FuncId) -> Option<FuncId>, g: &mut dyn FnMut(GlobalId) -> Option<GlobalId>) -> Option<State> {
    let mut out = s.clone();
    for fr in &mut out.frames {
        fr.func = f(fr.func)?;
    }
    for a in &mut out.allocs {
        if let AllocKind::Global(id) = a.kind {
            a.kind = AllocKind::Global(g(id)?);
        }
    }
    Some(out)
}

fn map_returns(rs: &[ReturnSummary], g: &mut dyn FnMut(GlobalId) -> Option<GlobalId>) -> Option<Vec<ReturnSummary>> {
    rs.iter()
        .map(|r| {
            let mut r = r.clone();
            for a in &mut r.allocs {
                if let AllocKind::Global(id) = a.kind {
                    a.kind = AllocKind::Global(g(id)?);
                }
            }
            Some(r)
        })
        .collect()
}

/// Index of `name` in `table`, appended when new.
fn intern(table: &mut Vec<String>, name: &str) -> u32 {
    match table.iter().position(|n| n == name) {
        Some(i) => i as u32,
        None => {
            table.push(name.to_string());
            (table.len() - 1) as u32
        }
    }
}

/// The key of a portable entry: the function key and the entry part of the portable form
/// (its function, frame names, the first `entry_globals` global names and the entry state).
fn entry_key(function_key: &[u8; 32], p: &Portable, entry_globals: usize) -> Option<[u8; 32]> {
    let entry = postcard::to_stdvec(&(&p.function, &p.functions, p.globals.get(..entry_globals)?, &p.entry)).ok()?;
    let mut h = blake3::Hasher::new();
    h.update(b"termcheck summary entry\0");
    h.update(&SUMMARY_FORMAT.to_le_bytes());
    h.update(function_key);
    h.update(&(entry.len() as u64).to_le_bytes());
    h.update(&entry);
    Some(*h.finalize().as_bytes())
}

/// The portable form of `s` and how many of its global names the entry uses (the entry's
/// names come first, so its key does not depend on the return states).
fn portable(names: &ModuleNames, s: &StoredSummary) -> Option<(Portable, usize)> {
    let function = names.functions.get(s.func.0 as usize)?.clone();
    let (mut functions, mut globals) = (vec![], vec![]);
    let entry = map_state(
        &s.entry,
        &mut |f| names.functions.get(f.0 as usize).map(|n| FuncId(intern(&mut functions, n))),
        &mut |g| names.globals.get(g.0 as usize).map(|n| GlobalId(intern(&mut globals, n))),
    )?;
    let entry_globals = globals.len();
    let returns = map_returns(&s.returns, &mut |g| names.globals.get(g.0 as usize).map(|n| GlobalId(intern(&mut globals, n))))?;
    Some((Portable { function, functions, globals, entry, returns }, entry_globals))
}

/// The entry key and payload of a summary of the module `names` describes (`None` if a
/// position does not name anything of the module, or the summary does not serialize).
pub fn encode(names: &ModuleNames, function_key: &[u8; 32], s: &StoredSummary) -> Option<([u8; 32], Vec<u8>)> {
    let (p, entry_globals) = portable(names, s)?;
    Some((entry_key(function_key, &p, entry_globals)?, postcard::to_stdvec(&p).ok()?))
}

/// The summary of `func` stored under `entry_key` with `payload`, in the ids of the module
/// `names` describes, if the payload decodes completely, every name resolves, the positions
/// fit the function and re-encoding gives `entry_key` again. `None` means: recompute.
pub fn decode(names: &ModuleNames, function_key: &[u8; 32], func: FuncId, entry_key: &[u8; 32], payload: &[u8]) -> Option<StoredSummary> {
    let p: Portable = match postcard::take_from_bytes::<Portable>(payload) {
        Ok((p, [])) => p,
        _ => return None,
    };
    if names.function_ids.get(&p.function) != Some(&func) {
        return None;
    }
    let entry = map_state(
        &p.entry,
        &mut |f| p.functions.get(f.0 as usize).and_then(|n| names.function_ids.get(n)).copied(),
        &mut |g| p.globals.get(g.0 as usize).and_then(|n| names.global_ids.get(n)).copied(),
    )?;
    let returns = map_returns(&p.returns, &mut |g| p.globals.get(g.0 as usize).and_then(|n| names.global_ids.get(n)).copied())?;
    let (blocks, values) = names.shapes.get(func.0 as usize).copied()?;
    let fits_frame = entry.frames.len() == 1
        && entry.frames.iter().all(|fr| fr.func == func && (fr.block.0 as usize) < blocks && fr.prev.is_none_or(|b| (b.0 as usize) < blocks) && fr.lv.keys().all(|v| v.0 < values));
    let fits_returns = returns.iter().all(|r| (r.block.0 as usize) < blocks);
    if !(fits_frame && fits_returns) {
        return None;
    }
    let summary = StoredSummary { func, producer: func, entry, returns, from_disk: true };
    // The names must give back exactly this entry's key (another function's entry, a renamed
    // global or a changed name table do not).
    let (again, _) = encode(names, function_key, &summary)?;
    (again == *entry_key).then_some(summary)
}

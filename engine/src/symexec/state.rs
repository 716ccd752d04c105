//! Abstract states (Def. 1, extended to call stacks and heap/global memory): frames with
//! LV, the knowledge base KB, the allocation list AL, the points-to set PT and the
//! nondeterministic inputs consumed so far.

use super::facts::{Atom, Fact};
use crate::ir::{BlockId, FuncId, GlobalId, ValueId};
use crate::logic::Var;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// One activation of a function.
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// The previously executed block (the paper's `b_prev`), `None` at function entry.
    pub prev: Option<BlockId>,
    /// Index of the next instruction; `block.instrs.len()` = the terminator. In a caller
    /// frame it is the index of the pending call instruction.
    pub idx: usize,
    /// LV: the symbolic variable of every defined local value (injective over all frames).
    pub lv: BTreeMap<ValueId, Var>,
}

/// What kind of memory an allocation is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum AllocKind {
    /// `alloca` of the frame at this depth (freed when that frame returns).
    Stack(usize),
    /// An `alloca` that may have been executed after an `llvm.stacksave` of the frame at this
    /// depth (a VLA, an `alloca()` outside the entry block): freed by every
    /// `llvm.stackrestore` of that frame as well as by its return. Freeing more than LLVM
    /// does only adds error states, never hides one.
    StackDynamic(usize),
    Heap,
    Global(GlobalId),
    /// Memory of a caller's frame seen from a summarized callee's entry state (seed 002's
    /// call abstraction folds the dropped frames' stack allocations into the heap): readable
    /// and writable, but neither freed by `free` nor by the callee's return. The caller's own
    /// kind is restored when the callee's return state is intersected with the call.
    Foreign,
    /// The memory a root's Rust reference parameter points to (`symexec::param_block`,
    /// ARCHITECTURE.md "Rust semantics"): owned by the caller like `Foreign`. Behind a shared
    /// reference (`!mutable`) it is read-only (a write is an error state) and may overlap
    /// other shared references' blocks and globals (no disjointness is assumed between them);
    /// a slice's block may be empty (`start = end + 1`).
    RefParam { mutable: bool, may_be_empty: bool },
    /// The buffer of a `Vec` behind a root's `&mut Vec<T>` parameter (`symexec::rust_vec`):
    /// owned by that `Vec`, so no other pointer reaches it (disjoint from every block), and
    /// empty when the capacity is 0 (the pointer then dangles: no allocation); a non-empty one
    /// is a heap block of the global allocator (std's contract for `Vec<T, Global>`), which
    /// `__rust_realloc`/`__rust_dealloc` may take (`rust_alloc`). A merge keeps the buffer a
    /// pointer cell points to in this kind when one side has it (`rust_owned_vec`).
    VecBuffer,
}

impl AllocKind {
    /// Whether writes into the block are errors.
    pub fn read_only(self) -> bool {
        matches!(self, AllocKind::RefParam { mutable: false, .. })
    }

    /// Whether the block may be empty (its `end` is `start − 1` then).
    pub fn may_be_empty(self) -> bool {
        matches!(self, AllocKind::RefParam { may_be_empty: true, .. } | AllocKind::VecBuffer)
    }

    /// Whether two blocks of these kinds may overlap: memory behind shared references may
    /// also be reached through other shared references or be a global's.
    pub fn may_overlap(self, other: AllocKind) -> bool {
        let shared = |k: AllocKind| matches!(k, AllocKind::RefParam { mutable: false, .. });
        let global = |k: AllocKind| matches!(k, AllocKind::Global(_));
        (shared(self) && (shared(other) || global(other))) || (shared(other) && global(self))
    }
}

/// `alloc(start, end)`: addresses `start..=end` are allocated (inclusive end, digest §0.3).
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Alloc {
    /// Identity of the allocation inside one graph (kept by merging and generalization).
    pub id: u32,
    pub start: Var,
    pub end: Var,
    pub kind: AllocKind,
    /// Initial contents of a global that has not been written yet (constant globals stay
    /// pristine forever); loads at a provably constant offset read from it.
    pub pristine: Option<Arc<Vec<Option<u8>>>>,
}

/// `addr ↪ value`: `size` bytes at `addr` hold `value` (a pointer if `is_ptr`), inside
/// allocation `alloc` (the access was proved to lie in it).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize, serde::Deserialize)]
pub struct PtEntry {
    pub addr: Var,
    pub size: u64,
    pub is_ptr: bool,
    /// The integer value is stored in its unsigned view (seed 004 `↪_{ty,u}`); else signed.
    pub unsigned: bool,
    pub value: Var,
    pub alloc: u32,
}

/// An abstract state.
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct State {
    pub frames: Vec<Frame>,
    pub kb: Vec<Fact>,
    pub allocs: Vec<Alloc>,
    pub pt: Vec<PtEntry>,
    /// Nondeterministic inputs consumed since the last merge, in order: (function, variable).
    pub inputs: Vec<(String, Var)>,
    /// False once the state went through a merge: `inputs` then misses the earlier prefix.
    pub inputs_exact: bool,
    /// LI: list invariants (seed 001, `symexec::lists`).
    pub lists: Vec<super::lists::ListInv>,
}

/// Adds the variables of blocks (bounds) and cells (addresses, contents) to `out`.
pub fn memory_vars(allocs: &[Alloc], pt: &[PtEntry], out: &mut BTreeSet<Var>) {
    for a in allocs {
        out.insert(a.start.clone());
        out.insert(a.end.clone());
    }
    for p in pt {
        out.insert(p.addr.clone());
        out.insert(p.value.clone());
    }
}

/// A program position: every frame's (function, block, previous block, index).
pub type Position = Vec<(FuncId, BlockId, Option<BlockId>, usize)>;

impl State {
    pub fn top(&self) -> &Frame {
        &self.frames[self.frames.len() - 1]
    }
    pub fn top_mut(&mut self) -> &mut Frame {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }
    pub fn position(&self) -> Position {
        self.frames.iter().map(|f| (f.func, f.block, f.prev, f.idx)).collect()
    }
    pub fn add_atom(&mut self, a: Atom) {
        if a.const_value() == Some(true) {
            return;
        }
        let f = Fact::Atom(a);
        if !self.kb.contains(&f) {
            self.kb.push(f);
        }
    }
    /// Adds the atoms that could be built (a `None` is a constant overflow: dropping it only
    /// weakens the state).
    pub fn add_atoms(&mut self, atoms: impl IntoIterator<Item = Option<Atom>>) {
        for a in atoms.into_iter().flatten() {
            self.add_atom(a);
        }
    }

    pub fn add_fact(&mut self, f: Fact) {
        if f.const_value() == Some(true) {
            return;
        }
        if !self.kb.contains(&f) {
            self.kb.push(f);
        }
    }
    pub fn alloc_by_id(&self, id: u32) -> Option<&Alloc> {
        self.allocs.iter().find(|a| a.id == id)
    }
    /// All LV variables of all frames.
    pub fn lv_vars(&self) -> BTreeSet<Var> {
        self.frames.iter().flat_map(|f| f.lv.values().cloned()).collect()
    }
    /// The variables the state talks about (LV, AL, PT, inputs); KB facts over other
    /// variables can be projected away.
    pub fn root_vars(&self) -> BTreeSet<Var> {
        let mut r = self.lv_vars();
        memory_vars(&self.allocs, &self.pt, &mut r);
        r.extend(self.lists.iter().flat_map(|l| l.vars()));
        for (_, v) in &self.inputs {
            r.insert(v.clone());
        }
        r
    }
    /// Every variable of the state (𝒱(a) of Def. 6).
    pub fn all_vars(&self) -> BTreeSet<Var> {
        let mut r = self.root_vars();
        for f in &self.kb {
            f.collect_vars(&mut r);
        }
        r
    }
    /// Applies a variable renaming everywhere (used for instantiations μ).
    pub fn rename(&self, f: &dyn Fn(&Var) -> Var) -> State {
        let mut s = self.clone();
        for fr in &mut s.frames {
            for v in fr.lv.values_mut() {
                *v = f(v);
            }
        }
        s.kb = self.kb.iter().map(|x| x.rename(f)).collect();
        for a in &mut s.allocs {
            a.start = f(&a.start);
            a.end = f(&a.end);
        }
        for p in &mut s.pt {
            p.addr = f(&p.addr);
            p.value = f(&p.value);
        }
        for (_, v) in &mut s.inputs {
            *v = f(v);
        }
        s.lists = self.lists.iter().map(|l| l.rename(f)).collect();
        s
    }
}

impl State {
    /// A compact text of the state for trace logs: locals, non-global blocks, cells, lists and
    /// the KB's facts over non-global variables.
    pub fn brief(&self) -> String {
        use std::fmt::Write;
        let mut o = String::new();
        let globals: BTreeSet<Var> = self.allocs.iter().filter(|a| matches!(a.kind, AllocKind::Global(_))).flat_map(|a| [a.start.clone(), a.end.clone()]).collect();
        for f in &self.frames {
            let _ = write!(o, "frame {:?}@{:?}: ", f.func, f.block);
            for (k, v) in &f.lv {
                let _ = write!(o, "%{}={} ", k.0, v.0);
            }
            o.push('\n');
        }
        for a in self.allocs.iter().filter(|a| !matches!(a.kind, AllocKind::Global(_))) {
            let _ = writeln!(o, "block #{} [{}, {}] {:?}", a.id, a.start.0, a.end.0, a.kind);
        }
        for p in &self.pt {
            let _ = writeln!(o, "cell {} ->{}{} {} (#{})", p.addr.0, p.size, if p.is_ptr { "p" } else if p.unsigned { "u" } else { "s" }, p.value.0, p.alloc);
        }
        for l in &self.lists {
            let _ = write!(o, "list {} len {} size {} rec {}:", l.start.0, l.len.0, l.size, l.rec);
            for f in &l.fields {
                let _ = write!(o, " ({} {}{} {}..{:?} {:?})", f.off, f.size, if f.is_ptr { "p" } else { "" }, f.first.0, f.last.as_ref().map(|v| &v.0), f.step);
            }
            if let Some(t) = &l.tail {
                let _ = write!(o, " tail {}", t.0);
            }
            o.push('\n');
        }
        for k in &self.kb {
            let mut vs = BTreeSet::new();
            k.collect_vars(&mut vs);
            if vs.iter().any(|v| globals.contains(v)) {
                continue;
            }
            let _ = writeln!(o, "  {}", k.to_formula());
        }
        o
    }
}

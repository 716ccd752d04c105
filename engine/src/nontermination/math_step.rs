//! One iteration of an innermost natural loop over mathematical integers
//! (`--int-semantics math`), encoded exactly from the IR: from the header's integer phis
//! (`state`) and the loop's live-ins to the phis after a back edge (`post`), or out of the
//! loop (`exit`), or into undefined behaviour or poison (`ub`), with the iteration's
//! nondeterministic values as free variables.
//!
//! Every instruction result that is not a variable or a constant is named by an auxiliary
//! variable with a defining equation in `definitions` (a total function of the iteration's
//! inputs), so the formulas stay small; `definitions` is a hypothesis of every query. The
//! loop may call nothing but `__VERIFIER_nondet_*`, `__VERIFIER_assume`, program exits and
//! pure integer intrinsics (min/max/abs). Memory is in scope only as fixed cells (`cells`):
//! integer loads and stores whose address is a pointer defined before the loop or a global,
//! plus a constant offset. Each cell is one more state variable (loads read it, stores
//! update it); any other memory operation, pointer value or call is refused, never skipped,
//! so the header state and the cells are all an iteration depends on and all it changes.
//! An access with a variable index into an array of known size (a constant-size `alloca` or
//! a global, addressed from its start) reads or writes one of the array's cells, all of which
//! are state variables: the value is a case split on the byte offset, and an offset outside
//! the array is undefined behaviour (`ub`), so it never happens inside a recurrent set.

use super::math_ops::{self, bool_value, low_bit, pow2, NotEncodable};
use crate::bitprecise::encode::topological;
use crate::bitprecise::step::{read_from_outside, var_name, LoopVar};
use crate::facts::loops::Loop;
use crate::interp::{CellBase, CellSpec};
use crate::ir::externals::{classify, External, NoOp};
use crate::ir::{BlockId, Callee, Function, Module, Op, Operand, Terminator, Type, ValueId};
use crate::logic::{Formula, Int, Term, Var};
use std::collections::BTreeMap;

/// One loop iteration over mathematical integers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MathLoopStep {
    pub header: BlockId,
    /// The integer phis of the header (the loop state).
    pub state: Vec<LoopVar>,
    /// Integer values defined before the loop and used in it (constant during the loop).
    pub live_ins: Vec<LoopVar>,
    /// A back edge to the header is taken.
    pub stay: Formula,
    /// Value of each state phi after the back edge (meaningful where `stay` holds).
    pub post: BTreeMap<ValueId, Term>,
    /// The iteration leaves the loop (exit edge, return, program exit, blocked assume).
    pub exit: Formula,
    /// Undefined behaviour or poison creation in the iteration.
    pub ub: Formula,
    /// Nondeterministic values of the iteration (name, width).
    pub inputs: Vec<(String, u32)>,
    /// Where each of `inputs` comes from, as the interpreter names its draws (the called
    /// function's name, `undef`, `freeze`, `poison`).
    pub input_origins: Vec<String>,
    /// Defining equations of the auxiliary variables.
    pub definitions: Vec<Formula>,
    /// Branch conditions of the iteration over the state, live-ins and inputs only
    /// (auxiliary variables inlined): candidate atoms of recurrent sets.
    pub conditions: Vec<Formula>,
    /// The memory cells the loop loads or stores (state variables kept in memory).
    pub cells: Vec<MemCell>,
    /// Value of each cell after the back edge (meaningful where `stay` holds), in `cells` order.
    pub cell_post: Vec<Term>,
}

/// A memory cell at a fixed address during the loop: `base + offset`, where `base` is a
/// pointer defined before the loop or a global; every access of the loop to it is a
/// `bits`-bit integer of `size` bytes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MemCell {
    pub spec: CellSpec,
    /// Variable name of its contents at the header.
    pub name: String,
}

/// The term of a loop variable.
pub fn var_term(x: &LoopVar) -> Term {
    Term::Var(Var::new(&x.name))
}

impl MathLoopStep {
    /// Every state variable and live-in.
    pub fn variables(&self) -> impl Iterator<Item = &LoopVar> {
        self.state.iter().chain(&self.live_ins)
    }

    /// The names of every state variable, live-in and memory cell (the variables of
    /// recurrent sets).
    pub fn variable_names(&self) -> Vec<String> {
        self.variables().map(|x| x.name.clone()).chain(self.cells.iter().map(|c| c.name.clone())).collect()
    }

    /// What observers must read at header entries: the cells' specifications.
    pub fn cell_specs(&self) -> Vec<CellSpec> {
        self.cells.iter().map(|c| c.spec.clone()).collect()
    }

    /// `f` with every state variable and cell replaced by its value after the back edge.
    pub fn after_iteration(&self, f: &Formula) -> Formula {
        substitute_post(&self.state, &self.post, &self.cells, &self.cell_post, f)
    }

    /// The nondeterministic values the closure ranges over. `None`: every value lies in
    /// `[signed min, unsigned max]` of its width (the interpreter draws signed or unsigned
    /// values of the type; a superset is the safe side). `Some(c)`: every value is `c`, which
    /// must be a value every input's type holds unchanged (`fixed_input_fits`).
    pub fn input_values(&self, fixed: Option<Int>) -> Formula {
        input_values(&self.inputs, fixed)
    }

    /// Whether the interpreter, asked for an input of any width of this loop by a source that
    /// answers `c`, draws exactly `c` (signed and unsigned readings agree: `0 ≤ c < 2^(w−1)`).
    pub fn fixed_input_fits(&self, c: Int) -> bool {
        fixed_input_fits(&self.inputs, c)
    }

    /// A state in `set` that can leave the loop, hit undefined behaviour, or take a back edge
    /// to a state outside `set`, for some nondeterministic values (all equal to `fixed` if
    /// given): `set` is closed iff this is unsatisfiable.
    pub fn closure_violation(&self, set: &Formula, fixed: Option<Int>) -> Formula {
        Formula::and(
            [set.clone(), self.input_values(fixed)]
                .into_iter()
                .chain(self.definitions.iter().cloned())
                .chain([Formula::or([self.exit.clone(), self.ub.clone(), Formula::and([self.stay.clone(), Formula::not(self.after_iteration(set))])])]),
        )
    }
}

/// The nondeterministic values `inputs` range over (see `MathLoopStep::input_values`).
pub fn input_values(inputs: &[(String, u32)], fixed: Option<Int>) -> Formula {
    Formula::and(inputs.iter().map(|(n, w)| {
        let x = Term::Var(Var::new(n));
        match fixed {
            Some(c) => Formula::eq(x, Term::Const(c)),
            None => Formula::and([Formula::ge(x.clone(), Term::Const(-pow2(w - 1))), Formula::le(x, Term::Const(pow2(*w) - 1))]),
        }
    }))
}

/// Whether every input of `inputs` (at least one) draws `c` unchanged (see
/// `MathLoopStep::fixed_input_fits`).
pub fn fixed_input_fits(inputs: &[(String, u32)], c: Int) -> bool {
    !inputs.is_empty() && inputs.iter().all(|(_, w)| (0..pow2(w - 1)).contains(&c))
}

/// A symbolic value: an integer term, a boolean (an `i1` from a comparison), a fixed
/// address (a base that does not change during the loop plus a constant byte offset), or an
/// indexed address `base + constant + var` where `var` (a sum of index · scale terms) is
/// always a multiple of `stride`; aggregates are not supported.
#[derive(Clone, Debug)]
enum Sym {
    Int(Term),
    Bool(Formula),
    Addr(CellBase, i128),
    Indexed { base: CellBase, constant: i128, var: Term, stride: i128 },
}

impl Sym {
    fn into_int(self) -> Result<Term, NotEncodable> {
        match self {
            Sym::Int(t) => Ok(t),
            Sym::Bool(f) => Ok(bool_value(f)),
            Sym::Addr(..) | Sym::Indexed { .. } => Err(NotEncodable("a pointer used as an integer".into())),
        }
    }
}

/// Contents of the cells the iteration wrote so far on one path (by index into
/// `Encoder::cells`); a cell not in the map still holds its value at the header.
type CellValues = BTreeMap<usize, Term>;

struct Encoder<'a> {
    module: &'a Module,
    f: &'a Function,
    prefix: String,
    values: BTreeMap<ValueId, Sym>,
    ub: Vec<Formula>,
    inputs: Vec<(String, u32)>,
    input_origins: Vec<String>,
    definitions: Vec<Formula>,
    /// Auxiliary variable → its defining term (for inlining into conditions).
    defined: BTreeMap<Var, Term>,
    conditions: Vec<Formula>,
    fresh: usize,
    cells: Vec<MemCell>,
    /// Size in bytes of the object each fixed base points to the start of, where known (a
    /// constant-size `alloca` defined before the loop, a global): the arrays that
    /// variable-index accesses may address.
    object_sizes: BTreeMap<CellBase, u64>,
    /// Most cells one array access may range over (`BitPreciseLimits::max_array_cells`).
    max_array_cells: usize,
}

fn int_width(ty: &Type) -> Result<u32, NotEncodable> {
    match ty {
        Type::Int(b) if (1..=64).contains(b) => Ok(*b),
        other => Err(NotEncodable(format!("value of type {other:?}"))),
    }
}

impl Encoder<'_> {
    fn fresh_name(&mut self, what: &str) -> String {
        let name = format!("{}{}{}", self.prefix, what, self.fresh);
        self.fresh += 1;
        name
    }

    fn fresh_input(&mut self, what: &str, width: u32) -> Term {
        let name = self.fresh_name(what);
        self.inputs.push((name.clone(), width));
        self.input_origins.push(what.to_string());
        Term::Var(Var::new(name))
    }

    /// Names a compound term by an auxiliary variable.
    fn define(&mut self, t: Term) -> Term {
        if matches!(t, Term::Var(_) | Term::Const(_)) {
            return t;
        }
        let v = Var::new(self.fresh_name("v"));
        self.definitions.push(Formula::eq(Term::Var(v.clone()), t.clone()));
        self.defined.insert(v.clone(), t);
        Term::Var(v)
    }

    /// `f` with the auxiliary variables replaced by their definitions (recursively).
    fn inline(&self, f: &Formula) -> Formula {
        let mut cur = f.clone();
        for _ in 0..=self.defined.len() {
            if !cur.vars().iter().any(|v| self.defined.contains_key(v)) {
                return cur;
            }
            cur = cur.substitute(&|v: &Var| self.defined.get(v).cloned());
        }
        cur
    }

    fn operand(&mut self, o: &Operand, reach: &Formula) -> Result<Sym, NotEncodable> {
        Ok(match o {
            Operand::Local(v) => self.values.get(v).cloned().ok_or_else(|| NotEncodable(format!("value {} is not an available integer", self.f.value_name(*v))))?,
            Operand::Int { bits, value } => {
                if !(1..=64).contains(bits) {
                    return Err(NotEncodable(format!("{bits}-bit constant")));
                }
                Sym::Int(Term::Const(*value))
            }
            Operand::Undef(ty) => {
                let w = int_width(ty)?;
                Sym::Int(self.fresh_input("undef", w))
            }
            Operand::Poison(ty) => {
                let w = int_width(ty)?;
                self.ub.push(reach.clone());
                Sym::Int(self.fresh_input("poison", w))
            }
            Operand::Global(g) => Sym::Addr(CellBase::Global(*g), 0),
            other => return Err(NotEncodable(format!("operand {other:?}"))),
        })
    }

    fn int(&mut self, o: &Operand, reach: &Formula) -> Result<Term, NotEncodable> {
        self.operand(o, reach)?.into_int()
    }

    fn cond(&mut self, o: &Operand, reach: &Formula) -> Result<Formula, NotEncodable> {
        Ok(match self.operand(o, reach)? {
            Sym::Bool(f) => f,
            other => low_bit(other.into_int()?),
        })
    }

    /// The index of the cell at `addr` accessed as a `bits`-bit integer of `size` bytes
    /// (added on first use). A different access to an overlapping range of the same base is
    /// refused; overlaps between different bases are excluded where the addresses are known
    /// (the observation, see `recheck::observation`).
    fn cell(&mut self, addr: Sym, ty: &Type, size: u64, written: bool) -> Result<usize, NotEncodable> {
        let Sym::Addr(base, offset) = addr else { return Err(NotEncodable("memory access through an address that may change during the loop".into())) };
        let bits = int_width(ty)?;
        if size == 0 || size > 8 || size * 8 < bits as u64 {
            return Err(NotEncodable(format!("{bits}-bit access of {size} bytes")));
        }
        for (i, c) in self.cells.iter_mut().enumerate() {
            let s = &mut c.spec;
            if s.base != base || offset >= s.offset + s.size as i128 || s.offset >= offset + size as i128 {
                continue;
            }
            if s.offset != offset || s.size != size || s.bits != bits {
                return Err(NotEncodable("overlapping memory accesses of different sizes or types".into()));
            }
            s.written |= written;
            return Ok(i);
        }
        let name = self.cell_name(base, offset);
        self.cells.push(MemCell { spec: CellSpec { base, offset, size, bits, written }, name });
        Ok(self.cells.len() - 1)
    }

    /// The variable name of the cell at `base + offset`: `*x#3`, `*x#3+4`, `*@g` (unique:
    /// register names carry their value number, offsets within one base differ).
    fn cell_name(&self, base: CellBase, offset: i128) -> String {
        let at = match base {
            CellBase::Reg(v) => var_name(self.f, v),
            CellBase::Global(g) => format!("@{}", self.module.globals.get(g.0 as usize).map_or_else(|| g.0.to_string(), |x| x.name.clone())),
        };
        if offset == 0 {
            format!("*{at}")
        } else {
            format!("*{at}{offset:+}")
        }
    }

    /// The current contents of cell `i` on a path whose writes are `mem`.
    fn cell_value(&self, mem: &CellValues, i: usize) -> Term {
        mem.get(&i).cloned().unwrap_or_else(|| Term::Var(Var::new(&self.cells[i].name)))
    }

    /// The cell contents at the entry of a block reached by the given (mutually exclusive)
    /// paths, each with its condition and its writes.
    fn merge_cells(&mut self, paths: Vec<(Formula, &CellValues)>) -> CellValues {
        let touched: std::collections::BTreeSet<usize> = paths.iter().flat_map(|(_, m)| m.keys().copied()).collect();
        let mut out = CellValues::new();
        for i in touched {
            let arms: Vec<(Formula, Sym)> = paths.iter().map(|(c, m)| (c.clone(), Sym::Int(self.cell_value(m, i)))).collect();
            if let Some(Sym::Int(t)) = merge(arms) {
                let t = self.define(t);
                out.insert(i, t);
            }
        }
        out
    }

    fn note_condition(&mut self, f: &Formula) {
        let g = self.inline(f);
        if !self.conditions.contains(&g) {
            self.conditions.push(g);
        }
    }

    /// Encodes a call of the declared function `name`; `Ok(None)` for a call without result.
    fn call(&mut self, name: &str, args: &[Operand], ret: &Type, reach: &Formula) -> Result<Option<Sym>, NotEncodable> {
        let arg = |e: &mut Self, i: usize| -> Result<Term, NotEncodable> {
            let o = args.get(i).ok_or_else(|| NotEncodable(format!("{name}: missing argument")))?;
            e.int(o, reach)
        };
        match classify(name) {
            External::NoOp(NoOp::Dbg | NoOp::DoNothing | NoOp::SideEffect | NoOp::NoAliasScopeDecl) => Ok(None),
            External::Nondet { .. } => {
                let w = int_width(ret)?;
                Ok(Some(Sym::Int(self.fresh_input(name, w))))
            }
            External::MinMax(mm) => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let w = int_width(ret)?;
                let (x, y) = if mm.signed { (a.clone(), b.clone()) } else { (math_ops::unsigned_reading(a.clone(), w), math_ops::unsigned_reading(b.clone(), w)) };
                let pick_a = if mm.max { Formula::ge(x, y) } else { Formula::le(x, y) };
                Ok(Some(Sym::Int(Term::Ite(Box::new(pick_a), Box::new(a), Box::new(b)))))
            }
            External::Abs => {
                let a = arg(self, 0)?;
                Ok(Some(Sym::Int(Term::Ite(Box::new(Formula::ge(a.clone(), Term::Const(0))), Box::new(a.clone()), Box::new(Term::Neg(Box::new(a)))))))
            }
            _ => Err(NotEncodable(format!("call to {name}"))),
        }
    }
}

/// Where a way out of the region goes.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Target {
    Block(BlockId),
    Leaves,
}

/// Where segments of a loop start and end: the loop's header, or the header of an innermost
/// loop nested in it, with the values that make up the state there.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CutPoint {
    pub block: BlockId,
    /// The block's integer phis, then the integer values defined in the loop outside this
    /// cut point's reach (see `carried_values`) and read inside it: constant while the run
    /// goes from this cut point to the loop's header.
    pub state: Vec<LoopVar>,
}

/// One way a segment ends at a cut point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Arrival {
    /// Index of the cut point reached (in the cut points the segment was encoded with).
    pub to: usize,
    /// The segment ends there.
    pub reach: Formula,
    /// Value of each state variable of the cut point reached (meaningful where `reach` holds).
    pub post: BTreeMap<ValueId, Term>,
    /// Value of each cell on arrival, in the order of the cells known when the segment was
    /// encoded (later cells are untouched by it).
    pub cell_post: Vec<Term>,
}

/// The acyclic paths of a loop from one cut point to the next ones (or out of the loop, or
/// into undefined behaviour), over mathematical integers.
/// `f` over the variables `state` and `cells` name, with each replaced by its value `post` /
/// `cell_post` gives (after a back edge, or on arrival at a cut point); a variable without a
/// value stays as it is.
pub(super) fn substitute_post(state: &[LoopVar], post: &BTreeMap<ValueId, Term>, cells: &[MemCell], cell_post: &[Term], f: &Formula) -> Formula {
    let by_name: BTreeMap<&str, &Term> = state
        .iter()
        .filter_map(|x| post.get(&x.value).map(|t| (x.name.as_str(), t)))
        .chain(cells.iter().zip(cell_post).map(|(c, t)| (c.name.as_str(), t)))
        .collect();
    f.substitute(&|v: &Var| by_name.get(v.name()).map(|t| (*t).clone()))
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MathSegment {
    pub from: usize,
    pub arrivals: Vec<Arrival>,
    pub exit: Formula,
    pub ub: Formula,
    pub inputs: Vec<(String, u32)>,
    pub input_origins: Vec<String>,
    pub definitions: Vec<Formula>,
    pub conditions: Vec<Formula>,
}

/// What every segment of one loop shares: the loop's live-ins and fixed pointers.
pub struct LoopContext<'a> {
    pub module: &'a Module,
    pub f: &'a Function,
    pub blocks: &'a std::collections::BTreeSet<BlockId>,
    pub live_ins: Vec<LoopVar>,
    pub pointers: Vec<ValueId>,
    pub max_array_cells: usize,
}

/// The integer width of value `v` of `f`, or why it is not an integer.
pub fn value_width(f: &Function, types: &[Option<Type>], v: ValueId) -> Result<u32, NotEncodable> {
    match types.get(v.0 as usize).cloned().flatten() {
        Some(ty) => int_width(&ty).map_err(|_| NotEncodable(format!("loop value {} of type {ty:?}", f.value_name(v)))),
        None => Err(NotEncodable(format!("loop value {} without a type", f.value_name(v)))),
    }
}

/// The live-ins of `lp` split into integers (state constants) and pointers (cell bases).
pub fn loop_context<'a>(module: &'a Module, f: &'a Function, lp: &'a Loop, max_array_cells: usize) -> Result<LoopContext<'a>, NotEncodable> {
    let types = f.value_types();
    let mut live_ins = Vec::new();
    let mut pointers = Vec::new();
    for v in read_from_outside(f, lp) {
        if matches!(types.get(v.0 as usize), Some(Some(Type::Ptr))) {
            // Fixed during the loop: usable as the base of memory cells, nothing else.
            pointers.push(v);
        } else {
            live_ins.push(LoopVar { value: v, name: var_name(f, v), width: value_width(f, &types, v)? });
        }
    }
    Ok(LoopContext { module, f, blocks: &lp.blocks, live_ins, pointers, max_array_cells })
}

/// The integer phis of `block` (a cut point's own state).
pub fn phi_state(f: &Function, block: BlockId) -> Result<Vec<LoopVar>, NotEncodable> {
    let types = f.value_types();
    let mut state = Vec::new();
    for instr in &f.block(block).instrs {
        if let (Op::Phi { .. }, Some(r)) = (&instr.op, instr.result) {
            state.push(LoopVar { value: r, name: var_name(f, r), width: value_width(f, &types, r)? });
        }
    }
    Ok(state)
}

/// The integer values that `lp` computes outside the reach of its block `h` (the blocks `h`
/// reaches inside the loop before the loop's header) and reads inside it: the state that an
/// inner loop headed by `h` carries besides its phis. A value computed inside the reach is
/// recomputed on every path that reads it there, so it is not state.
pub fn carried_values(f: &Function, lp: &Loop, h: BlockId) -> Result<Vec<LoopVar>, NotEncodable> {
    let mut reach: std::collections::BTreeSet<BlockId> = std::collections::BTreeSet::new();
    let mut todo = vec![h];
    while let Some(b) = todo.pop() {
        if reach.insert(b) {
            todo.extend(f.block(b).terminator.successors().into_iter().filter(|s| *s != lp.header && lp.blocks.contains(s)));
        }
    }
    let outside: BTreeMap<ValueId, ()> =
        lp.blocks.iter().filter(|b| !reach.contains(b)).flat_map(|b| f.block(*b).instrs.iter().filter_map(|i| i.result)).map(|v| (v, ())).collect();
    let mut used: std::collections::BTreeSet<ValueId> = std::collections::BTreeSet::new();
    let mut note = |o: &Operand| {
        if let Operand::Local(v) = o {
            if outside.contains_key(v) {
                used.insert(*v);
            }
        }
    };
    for &b in lp.blocks.iter().filter(|b| reach.contains(b) || **b == lp.header) {
        let block = f.block(b);
        for instr in &block.instrs {
            match &instr.op {
                // A phi reads its operand at the end of the incoming edge's source.
                Op::Phi { incoming, .. } => incoming.iter().filter(|(_, p)| reach.contains(p)).for_each(|(o, _)| note(o)),
                _ if b == lp.header && !reach.contains(&b) => {}
                op => crate::bitprecise::step::operands(op).into_iter().for_each(&mut note),
            }
        }
        if reach.contains(&b) {
            match &block.terminator {
                Terminator::CondBr { cond, .. } => note(cond),
                Terminator::Switch { value, .. } => note(value),
                Terminator::Ret(Some(o)) => note(o),
                _ => {}
            }
        }
    }
    let types = f.value_types();
    used.into_iter().map(|v| Ok(LoopVar { value: v, name: var_name(f, v), width: value_width(f, &types, v)? })).collect()
}

/// Encodes one iteration of the innermost loop `lp` of `f` (see the module doc).
pub fn encode_math_loop_step(module: &Module, f: &Function, lp: &Loop, max_array_cells: usize) -> Result<MathLoopStep, NotEncodable> {
    if !lp.innermost {
        return Err(NotEncodable("the loop contains an inner loop".into()));
    }
    let ctx = loop_context(module, f, lp, max_array_cells)?;
    let cuts = [CutPoint { block: lp.header, state: phi_state(f, lp.header)? }];
    let mut cells = Vec::new();
    let seg = encode_segment(&ctx, &cuts, 0, &mut cells)?;
    let Some(back) = seg.arrivals.into_iter().next() else { return Err(NotEncodable("no back edge reaches the header".into())) };
    let [cut] = cuts;
    Ok(MathLoopStep {
        header: lp.header,
        state: cut.state,
        live_ins: ctx.live_ins,
        stay: back.reach,
        post: back.post,
        exit: seg.exit,
        ub: seg.ub,
        inputs: seg.inputs,
        input_origins: seg.input_origins,
        definitions: seg.definitions,
        conditions: seg.conditions,
        cells,
        cell_post: back.cell_post,
    })
}

/// Encodes the paths of the loop of `ctx` from the cut point `cuts[from]` until they reach a
/// cut point (an arrival), leave the loop (`exit`) or hit undefined behaviour (`ub`). The
/// paths must be acyclic: every cycle of the loop passes a cut point. `cells` are the memory
/// cells known so far; the segment adds the ones it accesses.
pub fn encode_segment(ctx: &LoopContext<'_>, cuts: &[CutPoint], from: usize, cells: &mut Vec<MemCell>) -> Result<MathSegment, NotEncodable> {
    let (module, f) = (ctx.module, ctx.f);
    let start = cuts[from].block;
    let is_cut = |b: BlockId| cuts.iter().any(|c| c.block == b);
    let walk: std::collections::BTreeSet<BlockId> = ctx.blocks.iter().copied().filter(|b| *b == start || !is_cut(*b)).collect();
    let order = topological(f, start, &walk).map_err(|e| NotEncodable(e.0))?;
    let mut e = Encoder {
        module,
        f,
        prefix: format!("m{}_", start.0),
        values: cuts[from]
            .state
            .iter()
            .chain(&ctx.live_ins)
            .map(|x| (x.value, Sym::Int(var_term(x))))
            .chain(ctx.pointers.iter().map(|p| (*p, Sym::Addr(CellBase::Reg(*p), 0))))
            .collect(),
        ub: Vec::new(),
        inputs: Vec::new(),
        input_origins: Vec::new(),
        definitions: Vec::new(),
        defined: BTreeMap::new(),
        conditions: Vec::new(),
        fresh: 0,
        cells: std::mem::take(cells),
        object_sizes: object_sizes(module, f, &ctx.pointers),
        max_array_cells: ctx.max_array_cells,
    };
    let (ends, mem_out) = walk_segment(&mut e, &order, &walk, start)?;
    let mut exit_parts = Vec::new();
    let mut by_cut: BTreeMap<usize, Vec<(BlockId, Formula)>> = BTreeMap::new();
    for (pred, to, cond) in ends {
        match to {
            Target::Block(t) if cuts.iter().any(|c| c.block == t) => {
                let k = cuts.iter().position(|c| c.block == t).unwrap_or(from);
                by_cut.entry(k).or_default().push((pred, cond));
            }
            _ => exit_parts.push(cond),
        }
    }
    let mut arrivals = Vec::new();
    for (k, paths) in by_cut {
        let target = f.block(cuts[k].block);
        let mut post = BTreeMap::new();
        for x in &cuts[k].state {
            let phi = target.instrs.iter().find_map(|i| match (&i.op, i.result) {
                (Op::Phi { incoming, .. }, Some(r)) if r == x.value => Some(incoming),
                _ => None,
            });
            let mut arms: Vec<(Formula, Sym)> = Vec::new();
            for (pred, cond) in &paths {
                let o = match phi {
                    Some(incoming) => incoming.iter().find(|(_, p)| p == pred).map(|(o, _)| o.clone()).ok_or_else(|| NotEncodable("cut point phi without this edge".into()))?,
                    None => Operand::Local(x.value),
                };
                arms.push((cond.clone(), e.operand(&o, cond)?));
            }
            let t = merge(arms).ok_or_else(|| NotEncodable(format!("no value for {} on arrival", x.name)))?.into_int()?;
            post.insert(x.value, t);
        }
        let no_writes = CellValues::new();
        let mem_paths: Vec<(Formula, &CellValues)> = paths.iter().map(|(pred, c)| (c.clone(), mem_out.get(pred).unwrap_or(&no_writes))).collect();
        let after = e.merge_cells(mem_paths);
        let cell_post: Vec<Term> = (0..e.cells.len()).map(|i| e.cell_value(&after, i)).collect();
        arrivals.push(Arrival { to: k, reach: Formula::or(paths.into_iter().map(|(_, c)| c)), post, cell_post });
    }
    *cells = std::mem::take(&mut e.cells);
    Ok(MathSegment {
        from,
        arrivals,
        exit: Formula::or(exit_parts),
        ub: Formula::or(e.ub),
        inputs: e.inputs,
        input_origins: e.input_origins,
        definitions: e.definitions,
        conditions: e.conditions,
    })
}

/// The ways out of a walked region (source block, target, condition) and each block's
/// cell writes at its end.
type WalkEnds = (Vec<(BlockId, Target, Formula)>, BTreeMap<BlockId, CellValues>);

/// Symbolically executes the blocks of `order` (a topological order of `walk` from `start`).
fn walk_segment(e: &mut Encoder<'_>, order: &[BlockId], walk: &std::collections::BTreeSet<BlockId>, start: BlockId) -> Result<WalkEnds, NotEncodable> {
    let (module, f) = (e.module, e.f);
    // Cell contents written by the iteration at the end of each block.
    let mut mem_out: BTreeMap<BlockId, CellValues> = BTreeMap::new();
    let mut edge_conds: BTreeMap<(BlockId, BlockId), Formula> = BTreeMap::new();
    let mut ends: Vec<(BlockId, Target, Formula)> = Vec::new();
    for &b in order {
        let block = f.block(b);
        let mut reach = if b == start {
            Formula::True
        } else {
            Formula::or(edge_conds.iter().filter(|((_, to), _)| *to == b).map(|(_, c)| c.clone()))
        };
        if reach == Formula::False {
            continue;
        }
        let mut mem = if b == start {
            CellValues::new()
        } else {
            let paths: Vec<(Formula, &CellValues)> =
                edge_conds.iter().filter(|((p, to), c)| *to == b && **c != Formula::False && mem_out.contains_key(p)).map(|((p, _), c)| (c.clone(), &mem_out[p])).collect();
            e.merge_cells(paths)
        };
        for instr in &block.instrs {
            let result: Option<Sym> = match &instr.op {
                Op::Phi { .. } if b == start => continue,
                Op::Phi { ty, incoming } => {
                    int_width(ty)?;
                    let mut arms: Vec<(Formula, Sym)> = Vec::new();
                    for (o, pred) in incoming {
                        let Some(cond) = edge_conds.get(&(*pred, b)).cloned() else { continue };
                        if cond != Formula::False {
                            arms.push((cond.clone(), e.operand(o, &cond)?));
                        }
                    }
                    Some(merge(arms).ok_or_else(|| NotEncodable("phi without an incoming edge from the region".into()))?)
                }
                Op::Bin { op, flags, bits, lhs, rhs } => {
                    let (a, bb) = (e.operand(lhs, &reach)?, e.operand(rhs, &reach)?);
                    match (a, bb) {
                        (Sym::Bool(x), Sym::Bool(y)) if *bits == 1 => Some(Sym::Bool(match op {
                            crate::ir::BinOp::And => Formula::and([x, y]),
                            crate::ir::BinOp::Or => Formula::or([x, y]),
                            crate::ir::BinOp::Xor => Formula::or([Formula::and([x.clone(), Formula::not(y.clone())]), Formula::and([Formula::not(x), y])]),
                            other => return Err(NotEncodable(format!("i1 {other:?}"))),
                        })),
                        (Sym::Bool(x), Sym::Int(Term::Const(k))) | (Sym::Int(Term::Const(k)), Sym::Bool(x)) if *bits == 1 && *op == crate::ir::BinOp::Xor => {
                            Some(Sym::Bool(if k & 1 == 1 { Formula::not(x) } else { x }))
                        }
                        (a, bb) => {
                            let (t, bad) = math_ops::binary(*op, *flags, *bits, a.into_int()?, bb.into_int()?)?;
                            if bad != Formula::False {
                                e.ub.push(Formula::and([reach.clone(), bad]));
                            }
                            Some(Sym::Int(e.define(t)))
                        }
                    }
                }
                Op::ICmp { pred, bits, lhs, rhs } => {
                    let (a, bb) = (e.int(lhs, &reach)?, e.int(rhs, &reach)?);
                    Some(Sym::Bool(math_ops::compare(*pred, *bits, a, bb)))
                }
                Op::Cast { op, from_bits, to_bits, value } => {
                    if !(1..=64).contains(to_bits) || !(1..=64).contains(from_bits) {
                        return Err(NotEncodable(format!("cast from {from_bits} to {to_bits} bits")));
                    }
                    match (e.operand(value, &reach)?, op) {
                        (Sym::Bool(x), crate::ir::CastOp::ZExt) if *from_bits == 1 => Some(Sym::Int(Term::Ite(Box::new(x), Box::new(Term::Const(1)), Box::new(Term::Const(0))))),
                        (Sym::Bool(x), crate::ir::CastOp::SExt) if *from_bits == 1 => Some(Sym::Int(bool_value(x))),
                        (Sym::Bool(x), crate::ir::CastOp::Trunc | crate::ir::CastOp::BitCast) if *to_bits == 1 => Some(Sym::Bool(x)),
                        (a @ Sym::Addr(..), crate::ir::CastOp::BitCast) => Some(a),
                        (s, _) => {
                            let r = math_ops::cast(*op, *from_bits, *to_bits, s.into_int()?)?;
                            Some(Sym::Int(e.define(r)))
                        }
                    }
                }
                Op::Select { cond, then_value, else_value, ty } => {
                    int_width(ty)?;
                    let cnd = e.cond(cond, &reach)?;
                    let (x, y) = (e.operand(then_value, &reach)?, e.operand(else_value, &reach)?);
                    merge(vec![(cnd.clone(), x), (Formula::not(cnd), y)])
                }
                Op::Freeze { ty, value } => {
                    let w = int_width(ty)?;
                    Some(match value {
                        Operand::Poison(_) | Operand::Undef(_) => Sym::Int(e.fresh_input("freeze", w)),
                        other => e.operand(other, &reach)?,
                    })
                }
                Op::Call { callee: Callee::Direct(fid), args, ret } => {
                    let callee = module.function(*fid);
                    if !callee.is_declaration() {
                        return Err(NotEncodable(format!("call to defined function {}", callee.name)));
                    }
                    let name = callee.name.as_str();
                    match classify(name) {
                        External::Exit => {
                            ends.push((b, Target::Leaves, reach.clone()));
                            reach = Formula::False;
                            break;
                        }
                        External::VerifierAssume => {
                            let holds = e.cond_nonzero(args.first(), &reach)?;
                            ends.push((b, Target::Leaves, Formula::and([reach.clone(), Formula::not(holds.clone())])));
                            reach = Formula::and([reach, holds]);
                            if instr.result.is_some() {
                                return Err(NotEncodable("the result of __VERIFIER_assume is used".into()));
                            }
                            None
                        }
                        _ => e.call(name, args, ret, &reach)?,
                    }
                }
                Op::PtrAdd { base, offset, indices, .. } => {
                    let b = e.operand(base, &reach)?;
                    Some(e.ptr_add(b, *offset, indices, &reach)?)
                }
                Op::Load { ty, ptr, size } => {
                    let addr = e.operand(ptr, &reach)?;
                    let v = match addr {
                        Sym::Indexed { .. } => {
                            let arms = e.array_access(addr, ty, *size, false, &reach)?;
                            let mut arms: Vec<(Formula, Sym)> = arms.into_iter().map(|(hit, i)| (hit, Sym::Int(e.cell_value(&mem, i)))).collect();
                            // The last cell is the default: the offset is in the array (else UB).
                            arms.last_mut().ok_or_else(|| NotEncodable("an array access without cells".into()))?.0 = Formula::True;
                            let t = merge(arms).ok_or_else(|| NotEncodable("array read".into()))?.into_int()?;
                            e.define(t)
                        }
                        fixed => {
                            let i = e.cell(fixed, ty, *size, false)?;
                            e.cell_value(&mem, i)
                        }
                    };
                    Some(Sym::Int(v))
                }
                Op::Store { ty, value, ptr, size } => {
                    let addr = e.operand(ptr, &reach)?;
                    let v = e.int(value, &reach)?;
                    let v = e.define(v);
                    match addr {
                        Sym::Indexed { .. } => {
                            for (hit, i) in e.array_access(addr, ty, *size, true, &reach)? {
                                let old = e.cell_value(&mem, i);
                                let new = e.define(Term::Ite(Box::new(hit), Box::new(v.clone()), Box::new(old)));
                                mem.insert(i, new);
                            }
                        }
                        fixed => {
                            let i = e.cell(fixed, ty, *size, true)?;
                            mem.insert(i, v);
                        }
                    }
                    None
                }
                other => return Err(NotEncodable(format!("instruction {}", short(other)))),
            };
            if let (Some(r), Some(v)) = (instr.result, result) {
                e.values.insert(r, v);
            }
        }
        mem_out.insert(b, mem);
        if reach == Formula::False {
            continue;
        }
        let mut succ: Vec<(BlockId, Formula)> = Vec::new();
        match &block.terminator {
            Terminator::Br(t) => succ.push((*t, reach.clone())),
            Terminator::CondBr { cond, then_block, else_block } => {
                let cnd = e.cond(cond, &reach)?;
                e.note_condition(&cnd);
                succ.push((*then_block, Formula::and([reach.clone(), cnd.clone()])));
                succ.push((*else_block, Formula::and([reach.clone(), Formula::not(cnd)])));
            }
            Terminator::Switch { value, default, cases, .. } => {
                let v = e.int(value, &reach)?;
                let mut none = Vec::new();
                for (k, t) in cases {
                    let hit = Formula::eq(v.clone(), Term::Const(*k));
                    e.note_condition(&hit);
                    none.push(Formula::not(hit.clone()));
                    succ.push((*t, Formula::and([reach.clone(), hit])));
                }
                succ.push((*default, Formula::and(std::iter::once(reach.clone()).chain(none))));
            }
            Terminator::Ret(_) => ends.push((b, Target::Leaves, reach.clone())),
            Terminator::Unreachable => e.ub.push(reach.clone()),
            Terminator::Unsupported { text } => return Err(NotEncodable(format!("terminator {text}"))),
            // Calls with an unwind edge (Rust): refused, as every call with effects is.
            Terminator::Invoke { .. } | Terminator::Resume(_) => return Err(NotEncodable("invoke/resume (unwinding)".into())),
        }
        for (t, cnd) in succ {
            if t != start && walk.contains(&t) {
                let slot = edge_conds.entry((b, t)).or_insert(Formula::False);
                *slot = Formula::or([slot.clone(), cnd]);
            } else {
                ends.push((b, Target::Block(t), cnd));
            }
        }
    }
    Ok((ends, mem_out))
}

/// The sizes of the objects that the fixed pointers `pointers` (live-ins of the loop) and the
/// globals point to the start of, where known: a live-in defined by an `alloca` of a
/// constant count, and every global.
fn object_sizes(module: &Module, f: &Function, pointers: &[ValueId]) -> BTreeMap<CellBase, u64> {
    let mut out: BTreeMap<CellBase, u64> = module.globals.iter().enumerate().map(|(i, g)| (CellBase::Global(crate::ir::GlobalId(i as u32)), g.size)).collect();
    for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
        let (Op::Alloca { elem_size, count: Operand::Int { value, .. }, .. }, Some(r)) = (&instr.op, instr.result) else { continue };
        if pointers.contains(&r) {
            if let Some(size) = u64::try_from(*value).ok().and_then(|n| n.checked_mul(*elem_size)) {
                out.insert(CellBase::Reg(r), size);
            }
        }
    }
    out
}

impl Encoder<'_> {
    /// `base + offset + Σ index · scale` for a fixed or indexed `base`: fixed while every
    /// index is a constant, indexed otherwise.
    fn ptr_add(&mut self, base: Sym, offset: i128, indices: &[crate::ir::GepIndex], reach: &Formula) -> Result<Sym, NotEncodable> {
        let overflow = || NotEncodable("offset overflow".into());
        let (root, mut constant, mut var, mut stride) = match base {
            Sym::Addr(root, off) => (root, off, Vec::new(), 0),
            Sym::Indexed { base, constant, var, stride } => (base, constant, vec![var], stride),
            _ => return Err(NotEncodable("address arithmetic on a non-fixed pointer".into())),
        };
        constant = constant.checked_add(offset).ok_or_else(overflow)?;
        for ix in indices {
            if let Operand::Int { value, .. } = ix.value {
                constant = value.checked_mul(ix.scale).and_then(|d| constant.checked_add(d)).ok_or_else(overflow)?;
                continue;
            }
            if ix.scale == 0 {
                continue;
            }
            let i = self.int(&ix.value, reach)?;
            var.push(Term::scale(ix.scale, i));
            stride = gcd(stride, ix.scale);
        }
        Ok(match var.len() {
            0 => Sym::Addr(root, constant),
            1 => Sym::Indexed { base: root, constant, var: var.remove(0), stride },
            _ => Sym::Indexed { base: root, constant, var: self.define(Term::Add(var)), stride },
        })
    }

    /// The cells a variable-index access of a `bits`-bit integer of `size` bytes at `addr` may
    /// touch, each with the condition that it is the one: the cells of the array at
    /// `constant mod size + k·size` (every offset the access can have, as the variable part
    /// is a multiple of the stride and the stride of `size`). An offset outside the array is
    /// undefined behaviour on `reach`.
    fn array_access(&mut self, addr: Sym, ty: &Type, size: u64, written: bool, reach: &Formula) -> Result<Vec<(Formula, usize)>, NotEncodable> {
        let Sym::Indexed { base, constant, var, stride } = addr else { return Err(NotEncodable("not an indexed address".into())) };
        let Some(&object) = self.object_sizes.get(&base) else { return Err(NotEncodable("variable index into an object of unknown size".into())) };
        let size_i = i128::from(size);
        if size == 0 || stride % size_i != 0 {
            return Err(NotEncodable("variable index whose scale is not a multiple of the access size".into()));
        }
        let first = constant.rem_euclid(size_i);
        let last = i128::from(object) - size_i;
        let count = if last < first { 0 } else { (last - first) / size_i + 1 };
        if count == 0 || count > self.max_array_cells as i128 {
            return Err(NotEncodable(format!("variable index into an array of {count} cells")));
        }
        let at = self.define(Term::Add(vec![Term::Const(constant), var]));
        let outside = Formula::or([Formula::lt(at.clone(), Term::Const(first)), Formula::gt(at.clone(), Term::Const(last))]);
        self.ub.push(Formula::and([reach.clone(), outside]));
        let mut arms = Vec::new();
        let mut off = first;
        while off <= last {
            let i = self.cell(Sym::Addr(base, off), ty, size, written)?;
            arms.push((Formula::eq(at.clone(), Term::Const(off)), i));
            off += size_i;
        }
        Ok(arms)
    }

    /// `arg ≠ 0` for `__VERIFIER_assume(arg)`.
    fn cond_nonzero(&mut self, arg: Option<&Operand>, reach: &Formula) -> Result<Formula, NotEncodable> {
        let o = arg.ok_or_else(|| NotEncodable("assume without argument".into()))?;
        Ok(match self.operand(o, reach)? {
            Sym::Bool(f) => f,
            other => Formula::ne(other.into_int()?, Term::Const(0)),
        })
    }
}

/// The value chosen by mutually exclusive conditions (the last arm is the default).
fn merge(mut arms: Vec<(Formula, Sym)>) -> Option<Sym> {
    if arms.iter().any(|(_, s)| matches!(s, Sym::Addr(..) | Sym::Indexed { .. })) {
        return None;
    }
    let (_, last) = arms.pop()?;
    let all_bool = matches!(last, Sym::Bool(_)) && arms.iter().all(|(_, s)| matches!(s, Sym::Bool(_)));
    if all_bool {
        let Sym::Bool(mut acc) = last else { return None };
        for (c, s) in arms.into_iter().rev() {
            let Sym::Bool(f) = s else { return None };
            acc = Formula::or([Formula::and([c.clone(), f]), Formula::and([Formula::not(c), acc])]);
        }
        return Some(Sym::Bool(acc));
    }
    let mut acc = last.into_int().ok()?;
    for (c, s) in arms.into_iter().rev() {
        acc = Term::Ite(Box::new(c), Box::new(s.into_int().ok()?), Box::new(acc));
    }
    Some(Sym::Int(acc))
}

fn short(op: &Op) -> String {
    let s = format!("{op:?}");
    s.split([' ', '{', '(']).next().unwrap_or("?").to_string()
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

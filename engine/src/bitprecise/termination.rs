//! YES proofs for register-only functions by bit-vector reasoning: every loop gets an
//! inductive invariant (Houdini over templates), a proof that no iteration has undefined
//! behaviour, and a termination argument (a bit-vector ranking function, a lexicographic pair
//! of them, or an iteration bound shown by unrolling); the code between loops is checked for
//! undefined behaviour along every path.
//!
//! Scope: the entry function must be encodable by `encode` as a whole (integer registers,
//! nondeterministic inputs and integer intrinsics only: no memory, no calls to defined
//! functions), and have reducible control flow. Loops containing loops are
//! composed per entry: the inner loops are proved for every outer state, and their results
//! become fresh per-iteration variables of the outer loop. Anything else is
//! `Failure::Unsupported`. With no memory operation at all, memory safety holds trivially.
//!
//! Soundness argument (the "first undefined behaviour" induction). The encoder's values are
//! the two's-complement results of every operation, and `ub` says where LLVM would be
//! undefined or create poison. Take any run and its first UB, if any. Before it, the run
//! follows the encoder's semantics exactly, so every header state it visits satisfies the
//! loop's invariant `I` (initiation + consecution, both checked under `¬ub`), and (with a
//! bound) fewer than `N + 1` consecutive iterations happen, so the ghost counter `it` is at
//! most `N`. The UB check `I ∧ it ≤ N ∧ ub` is unsatisfiable, so the first UB cannot lie in
//! a loop; the region checks exclude it elsewhere. Hence no run has UB, every run follows
//! the encoder's semantics, and the ranking function (decreasing in the unsigned order of a
//! finite domain on every iteration under `I ∧ ¬ub`) or the bound ends every loop visit.
//! z3 `unknown` or a timeout makes a check fail: never a proof.

use super::encode::{encode_region, EdgeEncoding, Env, RegionBudget, RegionEncoding, RegionTarget, Unsupported};
use crate::facts::loops::{Loop, LoopForest};
use crate::facts::ModuleFacts;
use super::step::{encode_loop_step, var_name, LoopStep, LoopVar};
use crate::ir::{BlockId, Callee, FuncId, Function, Module, Op, Operand, ValueId};
use crate::logic::bv::{mask, BvFormula, BvTerm, BvWidthError};
use crate::smt::{check_bv, BvModel, SatResult};
use crate::verdict::IntSemantics;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// Name of the ghost iteration counter of a loop (completed iterations since the loop was
/// entered); 64 bits wide, so it does not wrap within any feasible bound.
const IT: &str = "@it";
const IT_WIDTH: u32 = 64;
/// Largest iteration bound tried by unrolling.
const MAX_BOUND: u32 = 128;
/// Most loop entries (paths into loops) analysed before giving up.
const MAX_CONTEXTS: usize = 32;
/// Lexicographic pairs are tried only among this many non-increasing templates.
const MAX_LEX_TEMPLATES: usize = 24;
/// Why no proof was produced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Failure {
    /// The function is outside the scope of the bit-vector prover.
    Unsupported(String),
    /// In scope, but a check failed (or z3 answered unknown / ran out of time).
    NotProved(String),
}

impl From<Unsupported> for Failure {
    fn from(u: Unsupported) -> Failure {
        Failure::Unsupported(u.0)
    }
}

impl From<BvWidthError> for Failure {
    fn from(e: BvWidthError) -> Failure {
        Failure::Unsupported(e.to_string())
    }
}

/// How one loop entry terminates.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LoopTermination {
    /// Lexicographic ranking functions (1 or 2), each compared unsigned.
    Ranking(Vec<BvTerm>),
    /// At most this many consecutive iterations from any state satisfying the invariant.
    Bound(u32),
}

/// The argument for one entry into one loop.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoopArgument {
    pub header: BlockId,
    /// "function:block (line N)".
    pub location: String,
    /// Conjuncts of the inductive invariant at the header (over the header's phis, the loop's
    /// live-ins, the values before the loop and the ghost counter `@it`).
    pub invariant: Vec<BvFormula>,
    pub termination: LoopTermination,
}

/// A complete bit-vector termination and UB-freedom argument for a function and the
/// functions it calls (callees first).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BvProof {
    /// Per function (callees before callers): its loop arguments in walk order.
    pub functions: Vec<(FuncId, Vec<LoopArgument>)>,
    /// Number of z3 queries used.
    pub queries: usize,
}

impl BvProof {
    /// The report's proof: one component per loop argument (its source loop, the ranking
    /// functions and the invariant as C-like text over source names, the prover's own form
    /// kept as `internal`), and a note that no run has undefined behaviour.
    /// Each invariant is shown without the conjuncts the shown ones imply
    /// ([`shown_invariant`], one query of at most `query_limit` per conjunct).
    pub fn termination_proof(&self, module: &Module, query_limit: Duration) -> crate::verdict::TerminationProof {
        use crate::verdict::{ComponentProof, RankingPhase, SourceExpr};
        let mut notes = vec!["bit-vector proof: no run has undefined behaviour or accesses memory".to_string()];
        let mut components = Vec::new();
        for (f, loops) in &self.functions {
            let func = module.function(*f);
            if loops.is_empty() {
                notes.push(format!("{}: no loops", func.name));
                continue;
            }
            let forest = crate::facts::loops::natural_loops(func);
            for l in loops {
                let location = format!("{}:{}", func.name, func.block(l.header).name);
                let expr = |text: String, internal: String| SourceExpr { location: location.clone(), text, internal };
                let (kind, expressions) = match &l.termination {
                    LoopTermination::Ranking(r) => ("bit-vector", r.iter().map(|t| expr(super::source_text::ranking_text(t), t.to_string())).collect::<Vec<_>>()),
                    LoopTermination::Bound(n) => ("bound", vec![expr(format!("at most {n} iterations"), format!("at most {n} iterations"))]),
                };
                let internal: Vec<String> = l.invariant.iter().map(|f| f.to_string()).collect();
                components.push(ComponentProof {
                    locations: vec![location.clone()],
                    phases: vec![RankingPhase { functions: vec![], kind: kind.into(), depth: expressions.len(), removes: vec![], expressions }],
                    loops: vec![forest.source_loop(func, l.header)],
                    invariants: vec![expr(super::source_text::invariant_text(&shown_invariant(&l.invariant, query_limit)), if internal.is_empty() { "true".into() } else { internal.join(" ∧ ") })],
                });
            }
        }
        crate::verdict::TerminationProof { components, notes }
    }
}

/// How readily a conjunct is dropped from the shown invariant (lower first): unsigned
/// comparisons, then those about entry values or the iteration counter, then the rest;
/// 3 for comparisons of one variable with a constant (kept: the text folds them into ranges).
fn drop_order(c: &BvFormula) -> u8 {
    let text = c.to_string();
    let constant_bound = matches!(c, BvFormula::Cmp(_, a, b) if matches!((&**a, &**b), (BvTerm::Var { .. }, BvTerm::Const { .. }) | (BvTerm::Const { .. }, BvTerm::Var { .. })));
    if constant_bound {
        3
    } else if text.contains("<=u") || text.contains("<u") {
        0
    } else if text.contains("@0") || text.contains(IT) {
        1
    } else {
        2
    }
}

/// The conjuncts of `invariant` without those the kept ones imply: the shown invariant is
/// equivalent to the proved one. A conjunct is dropped only when z3 shows the implication
/// (`Unsat`) within `query_limit`; repeated conjuncts go first.
fn shown_invariant(invariant: &[BvFormula], query_limit: Duration) -> Vec<BvFormula> {
    let mut kept: Vec<BvFormula> = Vec::new();
    for c in invariant {
        if !kept.contains(c) && *c != BvFormula::True {
            kept.push(c.clone());
        }
    }
    // bounds of one variable by a constant are folded into ranges by the text, not dropped
    let mut candidates: Vec<BvFormula> = kept.iter().filter(|c| drop_order(c) < 3).cloned().collect();
    candidates.sort_by_key(drop_order);
    for c in candidates {
        let rest: Vec<BvFormula> = kept.iter().filter(|k| **k != c).cloned().collect();
        let query = BvFormula::and(rest.iter().cloned().chain(std::iter::once(BvFormula::not(c.clone()))));
        if check_bv(&query, Some(query_limit)).0 == SatResult::Unsat {
            kept = rest;
        }
    }
    kept
}

/// Searches a proof for function `entry` (and, first, every function it calls) and re-checks
/// each function's proof with fresh queries before using it.
/// Each z3 query is limited to `query_limit` (`Config::bitprecise`).
pub fn prove_function(module: &Module, facts: &ModuleFacts, entry: FuncId, sem: IntSemantics, query_limit: Duration, max_region_nodes: usize, deadline: Instant) -> Result<BvProof, Failure> {
    let budget = RegionBudget { deadline, max_nodes: max_region_nodes };
    let mut proof = BvProof::default();
    for f in callees_first(module, entry)? {
        let summarized = summarize_calls(module, f);
        // Summarizing calls keeps the control flow, so the original function's loops hold.
        let forest = &facts.function(module, f).loops;
        let mut search = Walker::new(&summarized, f, forest, sem, query_limit, budget, Mode::Search)?;
        search.run()?;
        let found = std::mem::take(&mut search.found);
        let mut check = Walker::new(&summarized, f, forest, sem, query_limit, budget, Mode::Check(found.clone()))?;
        check.run()?;
        proof.queries += search.queries + check.queries;
        proof.functions.push((f, found));
    }
    Ok(proof)
}

/// Re-checks a proof: every obligation is derived again from the IR and discharged by z3.
pub fn check_proof(module: &Module, facts: &ModuleFacts, entry: FuncId, sem: IntSemantics, proof: &BvProof, query_limit: Duration, max_region_nodes: usize, deadline: Instant) -> Result<(), Failure> {
    let budget = RegionBudget { deadline, max_nodes: max_region_nodes };
    let order = callees_first(module, entry)?;
    if order.len() != proof.functions.len() || order.iter().zip(&proof.functions).any(|(a, (b, _))| a != b) {
        return Err(Failure::NotProved("the proof does not cover exactly the called functions".into()));
    }
    for (f, loops) in &proof.functions {
        let summarized = summarize_calls(module, *f);
        let forest = &facts.function(module, *f).loops;
        Walker::new(&summarized, *f, forest, sem, query_limit, budget, Mode::Check(loops.clone()))?.run()?;
    }
    Ok(())
}

/// The defined functions reachable from `entry` by direct calls, callees before callers;
/// recursion and calls through pointers are out of scope.
fn callees_first(module: &Module, entry: FuncId) -> Result<Vec<FuncId>, Failure> {
    fn visit(module: &Module, f: FuncId, stack: &mut Vec<FuncId>, out: &mut Vec<FuncId>) -> Result<(), Failure> {
        if out.contains(&f) {
            return Ok(());
        }
        if stack.contains(&f) {
            return Err(Failure::Unsupported("recursion".into()));
        }
        stack.push(f);
        for i in module.function(f).blocks.iter().flat_map(|b| &b.instrs) {
            match &i.op {
                Op::Call { callee: Callee::Direct(g), .. } if !module.function(*g).is_declaration() => visit(module, *g, stack, out)?,
                Op::Call { callee: Callee::Direct(_), .. } => {}
                Op::Call { .. } => return Err(Failure::Unsupported("indirect call".into())),
                _ => {}
            }
        }
        stack.pop();
        out.push(f);
        Ok(())
    }
    let mut out = vec![];
    visit(module, entry, &mut vec![], &mut out)?;
    Ok(out)
}

/// A copy of the module in which `f`'s calls to defined functions return an arbitrary value.
/// Sound once every callee is proved (before `f`, see `callees_first`) to terminate without
/// undefined behaviour for all arguments: a register-only callee has no other effect, and a
/// callee that ends the program only removes runs.
fn summarize_calls(module: &Module, f: FuncId) -> Module {
    let mut m = module.clone();
    let defined: BTreeSet<FuncId> = (0..module.functions.len() as u32).map(FuncId).filter(|g| !module.function(*g).is_declaration()).collect();
    for b in &mut m.functions[f.0 as usize].blocks {
        b.instrs.retain(|i| !matches!(&i.op, Op::Call { callee: Callee::Direct(g), ret: crate::ir::Type::Void, .. } if defined.contains(g)));
        for i in &mut b.instrs {
            if let Op::Call { callee: Callee::Direct(g), ret, .. } = &i.op {
                if defined.contains(g) {
                    i.op = Op::Freeze { ty: ret.clone(), value: Operand::Undef(ret.clone()) };
                }
            }
        }
    }
    m
}

enum Mode {
    Search,
    /// Arguments to check, in the order the walk meets the loop entries.
    Check(Vec<LoopArgument>),
}

/// A path into a block: the values known there and the facts about the variables.
struct Context {
    start: BlockId,
    env: Env,
    pc: BvFormula,
}

/// The part of the function a walk covers.
struct Scope {
    blocks: BTreeSet<BlockId>,
    /// The header of the loop whose iteration is walked (edges back to it end the walk).
    home: Option<BlockId>,
    child_headers: BTreeSet<BlockId>,
    child_blocks: BTreeSet<BlockId>,
    /// Prove every region UB-free now (top level) instead of returning its UB condition.
    check_ub: bool,
}

impl Scope {
    fn new(loops: &[Loop], blocks: BTreeSet<BlockId>, home: Option<BlockId>, children: &[usize], check_ub: bool) -> Scope {
        let child_headers = children.iter().map(|c| loops[*c].header).collect();
        let child_blocks = children.iter().flat_map(|c| loops[*c].blocks.iter().copied()).collect();
        Scope { blocks, home, child_headers, child_blocks, check_ub }
    }
}

/// A way out of a walk with its complete path condition and the values on it.
struct Leaf {
    to: RegionTarget,
    cond: BvFormula,
    values: Env,
}

struct Walked {
    leaves: Vec<Leaf>,
    /// Path condition ∧ UB of every region (only when the scope does not check UB itself).
    ub: Vec<BvFormula>,
}

struct Walker<'a> {
    module: &'a Module,
    f: &'a Function,
    sem: IntSemantics,
    /// Upper limit for one z3 query.
    query_limit: Duration,
    deadline: Instant,
    /// Deadline and size bound of every region encoding.
    budget: RegionBudget,
    mode: Mode,
    loops: Vec<Loop>,
    /// Encoded iterations of the innermost loops (outer loops are composed per entry).
    steps: BTreeMap<BlockId, LoopStep>,
    found: Vec<LoopArgument>,
    /// Inside a provisional composition (see `search_composed`): nothing is recorded.
    provisional: bool,
    queries: usize,
    fresh: usize,
}

impl<'a> Walker<'a> {
    fn new(module: &'a Module, entry: FuncId, forest: &LoopForest, sem: IntSemantics, query_limit: Duration, budget: RegionBudget, mode: Mode) -> Result<Walker<'a>, Failure> {
        let deadline = budget.deadline;
        if sem == IntSemantics::Math {
            return Err(Failure::Unsupported("mathematical integers are not bit-precise".into()));
        }
        let f = module.function(entry);
        if f.is_declaration() {
            return Err(Failure::Unsupported("declaration".into()));
        }
        if forest.irreducible {
            return Err(Failure::Unsupported("irreducible control flow".into()));
        }
        let mut steps = BTreeMap::new();
        for l in forest.loops.iter().filter(|l| l.innermost) {
            steps.insert(l.header, encode_loop_step(module, f, l, sem, &budget)?);
        }
        Ok(Walker { module, f, sem, query_limit, deadline, budget, mode, loops: forest.loops.clone(), steps, found: vec![], provisional: false, queries: 0, fresh: 0 })
    }

    fn sat(&mut self, q: &BvFormula) -> (SatResult, Option<BvModel>) {
        let now = Instant::now();
        if crate::cancel::requested() || now >= self.deadline {
            return (SatResult::Unknown, None);
        }
        self.queries += 1;
        check_bv(q, Some((self.deadline - now).min(self.query_limit)))
    }

    /// `f` holds for every assignment (its negation is unsatisfiable).
    fn valid(&mut self, f: BvFormula) -> bool {
        self.sat(&BvFormula::not(f)).0 == SatResult::Unsat
    }

    fn run(&mut self) -> Result<(), Failure> {
        let mut env = Env::new();
        for (v, ty) in &self.f.params {
            let crate::ir::Type::Int(w) = ty else { return Err(Failure::Unsupported("non-integer parameter".into())) };
            env.insert(*v, BvTerm::var(format!("arg{}", v.0), *w)?);
        }
        let top: Vec<usize> = (0..self.loops.len()).filter(|i| self.loops[*i].depth == 1).collect();
        let scope = Scope::new(&self.loops, (0..self.f.blocks.len() as u32).map(BlockId).collect(), None, &top, true);
        let walked = self.walk(Context { start: BlockId(0), env, pc: BvFormula::True }, &scope)?;
        if let Some(l) = walked.leaves.iter().find(|l| matches!(l.to, RegionTarget::Block(_))) {
            return Err(Failure::Unsupported(format!("a path leaves the function body at {:?}", l.to)));
        }
        if let Mode::Check(rest) = &self.mode {
            if !rest.is_empty() {
                return Err(Failure::NotProved("the proof has more loop arguments than the program has loop entries".into()));
            }
        }
        Ok(())
    }

    /// Walks every path from `init` through `scope`: regions outside the scope's child loops
    /// are encoded, child loops are entered (and proved) and left by their exits. Returns the
    /// ways out (back to `scope.home`, out of the scope, returns, program exits) with their
    /// complete path conditions; with `scope.check_ub` every region must be UB-free under its
    /// path condition, otherwise the regions' UB conditions are returned.
    fn walk(&mut self, init: Context, scope: &Scope) -> Result<Walked, Failure> {
        let mut work = vec![init];
        let mut out = Walked { leaves: vec![], ub: vec![] };
        let mut contexts = 0usize;
        while let Some(ctx) = work.pop() {
            contexts += 1;
            if contexts > MAX_CONTEXTS {
                return Err(Failure::NotProved("too many paths into loops".into()));
            }
            if crate::cancel::past(self.deadline) {
                return Err(Failure::NotProved("out of time".into()));
            }
            if scope.child_headers.contains(&ctx.start) {
                work.extend(self.enter_loop(ctx)?);
                continue;
            }
            let mut blocks: BTreeSet<BlockId> = scope.blocks.difference(&scope.child_blocks).copied().collect();
            if let Some(h) = scope.home {
                blocks.remove(&h);
            }
            blocks.insert(ctx.start);
            let prefix = self.fresh_name("r");
            let region = encode_region(self.module, self.f, ctx.start, &ctx.env, &blocks, self.sem, &prefix, &self.budget)?;
            if scope.check_ub {
                if !self.valid(BvFormula::implies(ctx.pc.clone(), BvFormula::not(region.ub.clone()))) {
                    return Err(Failure::NotProved(format!("possible undefined behaviour after block {}", self.f.block(ctx.start).name)));
                }
            } else {
                out.ub.push(BvFormula::and([ctx.pc.clone(), region.ub.clone()]));
            }
            let no_ub = BvFormula::not(region.ub.clone());
            for e in region.edges {
                let pc = BvFormula::and([ctx.pc.clone(), no_ub.clone(), e.cond.clone()]);
                match e.to {
                    RegionTarget::Block(t) if scope.child_headers.contains(&t) => work.push(Context { start: t, env: e.values, pc }),
                    RegionTarget::Block(t) if Some(t) != scope.home && scope.blocks.contains(&t) => {
                        return Err(Failure::Unsupported(format!("edge into the middle of a loop at block {}", self.f.block(t).name)));
                    }
                    to => out.leaves.push(Leaf { to, cond: pc, values: e.values }),
                }
            }
        }
        Ok(out)
    }

    /// One iteration of a loop that contains loops, as a `LoopStep`: the walk from the header
    /// through the body, entering (and proving) the inner loops for all values of the outer
    /// state; the inner loops' results are fresh per-iteration variables constrained by their
    /// invariants and exit conditions.
    fn compose_step(&mut self, li: usize, assume: &[BvFormula]) -> Result<LoopStep, Failure> {
        let lp = self.loops[li].clone();
        let types = self.f.value_types();
        let var = |v: ValueId| -> Result<LoopVar, Failure> {
            match types.get(v.0 as usize).cloned().flatten() {
                Some(crate::ir::Type::Int(w)) if (1..=64).contains(&w) => Ok(LoopVar { value: v, name: var_name(self.f, v), width: w }),
                other => Err(Failure::Unsupported(format!("loop value {} of type {other:?}", self.f.value_name(v)))),
            }
        };
        let header = self.f.block(lp.header);
        let mut state = vec![];
        for i in &header.instrs {
            if let (Op::Phi { .. }, Some(r)) = (&i.op, i.result) {
                state.push(var(r)?);
            }
        }
        let used = super::step::read_from_outside(self.f, &lp);
        let live_ins: Vec<LoopVar> = used.into_iter().map(var).collect::<Result<_, _>>()?;
        let env: Env = state.iter().chain(&live_ins).map(|x| (x.value, x.term())).collect();
        let scope = Scope::new(&self.loops, lp.blocks.clone(), Some(lp.header), &lp.children, false);
        // The assumed invariant at the header, without the conjuncts about the ghost counter
        // (inside the walk `@it` names the inner loops' counters).
        let assumed = BvFormula::and(assume.iter().filter(|c| {
            let mut v = BTreeMap::new();
            c.collect_vars(&mut v);
            !v.contains_key(IT)
        }).cloned());
        let walked = self.walk(Context { start: lp.header, env, pc: assumed }, &scope)?;
        let (mut stay, mut exit) = (vec![], vec![]);
        let mut post: BTreeMap<ValueId, BvTerm> = BTreeMap::new();
        let mut edges = vec![];
        for l in &walked.leaves {
            if l.to == RegionTarget::Block(lp.header) {
                stay.push(l.cond.clone());
                for x in &state {
                    let v = l.values.get(&x.value).cloned().ok_or_else(|| Failure::Unsupported(format!("no value for {} on a back edge", x.name)))?;
                    let merged = match post.remove(&x.value) {
                        None => v,
                        Some(rest) => BvTerm::ite(l.cond.clone(), v, rest)?,
                    };
                    post.insert(x.value, merged);
                }
            } else {
                exit.push(l.cond.clone());
            }
            edges.push(EdgeEncoding { from: lp.header, to: l.to.clone(), cond: l.cond.clone(), values: l.values.clone() });
        }
        if stay.is_empty() {
            return Err(Failure::Unsupported("no back edge reaches the header".into()));
        }
        let (stay, exit, ub) = (BvFormula::or(stay), BvFormula::or(exit), BvFormula::or(walked.ub));
        let region = RegionEncoding { edges, ub: ub.clone(), inputs: vec![] };
        let mut step = LoopStep { header: lp.header, state, live_ins, stay, post, exit, ub, inputs: vec![], region };
        // Everything that is neither state nor live-in is new in each iteration.
        let fixed: BTreeSet<String> = step.state.iter().chain(&step.live_ins).map(|x| x.name.clone()).chain(step.state.iter().map(|x| initial_name(&x.name))).collect();
        step.inputs = variables_of(&step).into_iter().filter(|(n, _)| !fixed.contains(n)).collect();
        step.region.inputs = step.inputs.clone();
        Ok(step)
    }

    fn fresh_name(&mut self, hint: &str) -> String {
        self.fresh += 1;
        format!("{hint}{}_", self.fresh)
    }

    /// The loop as the source names it: `FILE:LINE:COL` of its statement (`ir::Function::
    /// loop_statement`), with the function and header block as a fallback without debug info.
    fn location(&self, header: BlockId) -> String {
        let blocks = self.loops.iter().find(|l| l.header == header).map(|l| l.blocks.iter().copied().collect::<Vec<_>>()).unwrap_or_default();
        match self.f.loop_statement(header, blocks) {
            Some(l) => format!("{}:{}:{} in {}", l.file, l.line, l.col, self.f.name),
            None => format!("{}:{}", self.f.name, self.f.block(header).name),
        }
    }

    /// Analyses one entry into a loop and returns the contexts after its exits.
    fn enter_loop(&mut self, ctx: Context) -> Result<Vec<Context>, Failure> {
        let li = self.loops.iter().position(|l| l.header == ctx.start).ok_or_else(|| Failure::Unsupported("not a loop header".into()))?;
        // In check mode this entry's argument comes before those of its inner loops; in
        // search mode its slot is reserved so the order is the same.
        let given = match &mut self.mode {
            _ if self.provisional => None,
            Mode::Search => None,
            Mode::Check(args) if args.is_empty() => {
                return Err(Failure::NotProved("the proof lacks an argument for a loop entry".into()));
            }
            Mode::Check(args) => Some(args.remove(0)),
        };
        if given.as_ref().is_some_and(|a| a.header != ctx.start) {
            return Err(Failure::NotProved("the proof's loop arguments do not match the program's loops".into()));
        }
        let reserved = if matches!(self.mode, Mode::Search) && !self.provisional {
            self.found.push(LoopArgument { header: ctx.start, location: String::new(), invariant: vec![], termination: LoopTermination::Bound(0) });
            Some(self.found.len() - 1)
        } else {
            None
        };
        let (step, arg) = match (self.steps.get(&ctx.start).cloned(), given) {
            (Some(step), Some(arg)) => {
                self.check_loop(&LoopCtx::new(&ctx, &step)?, &arg)?;
                (step, arg)
            }
            (Some(step), None) => {
                let lc = LoopCtx::new(&ctx, &step)?;
                let cands = candidates(self.f, &self.loops, &step)?;
                let arg = if self.provisional {
                    // Only the invariant matters in a provisional walk.
                    self.houdini_tiered(&lc, &cands).map(|invariant| LoopArgument { header: ctx.start, location: String::new(), invariant, termination: LoopTermination::Ranking(vec![]) })
                } else {
                    let first = self.houdini_tiered(&lc, &cands);
                    let retry = cands.bounds.len() > 1;
                    match first.clone().and_then(|inv| self.search_loop(&lc, inv, !retry)) {
                        // a counter or an accumulator may overflow unless the iterations are
                        // bounded: again with the iteration-bound candidates, then (as before
                        // them) by unrolling under the first invariant, which is slow and so
                        // left for last
                        Err(Failure::NotProved(why)) if why.starts_with("possible undefined behaviour") && retry => self
                            .houdini(&lc, cands.with_bounds())
                            .and_then(|inv| self.search_loop(&lc, inv, true))
                            // the accumulator candidates only then: their wide terms can make
                            // z3 give up on the loops the bounds alone prove
                            .or_else(|_| self.houdini(&lc, cands.with_accumulators()).and_then(|inv| self.search_loop(&lc, inv, true)))
                            .or_else(|_| first.and_then(|inv| self.search_loop(&lc, inv, true)))
                            .map_err(|_| Failure::NotProved(why)),
                        other => other,
                    }
                };
                (step, self.settle(arg, &ctx)?)
            }
            (None, Some(arg)) => {
                let step = self.compose_step(li, &arg.invariant)?;
                self.check_loop(&LoopCtx::new(&ctx, &step)?, &arg)?;
                (step, arg)
            }
            (None, None) => {
                let found = self.search_composed(li, &ctx);
                match found {
                    Ok(x) => x,
                    Err(e) if !self.provisional => return Err(e),
                    Err(e) => {
                        let step = self.compose_step(li, &[]);
                        match step {
                            Ok(step) => (step, self.settle(Err(e), &ctx)?),
                            Err(_) => return Err(e),
                        }
                    }
                }
            }
        };
        if let Some(i) = reserved {
            self.found[i] = arg.clone();
        }

        // Continue after every exit edge, with renamed copies of the loop's variables.
        let suffix = self.fresh_name("x");
        let mut rename: BTreeMap<String, BvTerm> = BTreeMap::new();
        let mut widths = variables_of(&step);
        for s in &step.state {
            widths.insert(s.name.clone(), s.width);
        }
        widths.insert(IT.into(), IT_WIDTH);
        let mut live: BTreeMap<String, BvTerm> = step.live_ins.iter().map(|l| (l.name.clone(), ctx.env[&l.value].clone())).collect();
        for s in &step.state {
            if let Some(v) = ctx.env.get(&s.value) {
                live.insert(initial_name(&s.name), v.clone());
                widths.insert(initial_name(&s.name), s.width);
            }
        }
        for (n, w) in &widths {
            if let Some(t) = live.get(n) {
                rename.insert(n.clone(), t.clone());
            } else {
                rename.insert(n.clone(), BvTerm::var(format!("{n}@{suffix}"), *w)?);
            }
        }
        let ren_f = |f: &BvFormula| f.substitute(&|n| rename.get(n).cloned());
        let ren_t = |t: &BvTerm| t.substitute(&|n| rename.get(n).cloned());
        let mut facts = vec![ctx.pc.clone()];
        for c in &arg.invariant {
            facts.push(ren_f(c)?);
        }
        if let LoopTermination::Bound(n) = arg.termination {
            facts.push(ren_f(&BvFormula::ule(BvTerm::var(IT, IT_WIDTH)?, BvTerm::constant(IT_WIDTH, u128::from(n))?)?)?);
        }
        facts.push(ren_f(&BvFormula::not(step.ub.clone()))?);
        let mut out = vec![];
        for e in &step.region.edges {
            let t = match e.to {
                RegionTarget::Block(t) if t == step.header => continue,
                RegionTarget::Block(t) => t,
                _ => continue,
            };
            let mut env = ctx.env.clone();
            for (v, term) in &e.values {
                env.insert(*v, ren_t(term)?);
            }
            let mut pc = facts.clone();
            pc.push(ren_f(&e.cond)?);
            out.push(Context { start: t, env, pc: BvFormula::and(pc) });
        }
        Ok(out)
    }

    /// A provisional walk (only used to find candidate invariants) goes on after a failed
    /// loop proof with an empty invariant; a real one fails.
    fn settle(&self, arg: Result<LoopArgument, Failure>, ctx: &Context) -> Result<LoopArgument, Failure> {
        match arg {
            Ok(a) => Ok(a),
            Err(_) if self.provisional => Ok(LoopArgument { header: ctx.start, location: String::new(), invariant: vec![], termination: LoopTermination::Ranking(vec![]) }),
            Err(e) => Err(e),
        }
    }

    /// Search for a loop that contains loops: a provisional composition (inner loops proved
    /// for every outer state, failures tolerated) proposes an invariant; the real composition
    /// assumes it at the header (so inner loops are proved under it) and must keep it
    /// inductive, else it is weakened and the composition redone.
    fn search_composed(&mut self, li: usize, ctx: &Context) -> Result<(LoopStep, LoopArgument), Failure> {
        // Greatest fixpoint over provisional compositions: start from every candidate that
        // holds on entry, compose under it, keep the inductive part, repeat until stable.
        let saved = self.provisional;
        self.provisional = true;
        let provisional = self.provisional_invariant(li, ctx);
        self.provisional = saved;
        let (first, mut inv) = provisional?;
        if self.provisional {
            let arg = LoopArgument { header: ctx.start, location: String::new(), invariant: inv, termination: LoopTermination::Ranking(vec![]) };
            return Ok((first, arg));
        }
        let mark = self.found.len();
        for _ in 0..4 {
            self.found.truncate(mark);
            let step = self.compose_step(li, &inv)?;
            let lc = LoopCtx::new(ctx, &step)?;
            let kept = self.houdini(&lc, inv.clone())?;
            if kept.len() == inv.len() {
                let arg = self.search_loop(&lc, kept, true)?;
                return Ok((step, arg));
            }
            inv = kept;
        }
        Err(Failure::NotProved("the invariant of a loop containing loops did not stabilize".into()))
    }

    fn provisional_invariant(&mut self, li: usize, ctx: &Context) -> Result<(LoopStep, Vec<BvFormula>), Failure> {
        let base = self.compose_step(li, &[])?;
        let cands = candidates(self.f, &self.loops, &base)?.all();
        let mut inv = self.hold_on_entry(&LoopCtx::new(ctx, &base)?, cands)?;
        let mut step = base;
        for _ in 0..6 {
            step = self.compose_step(li, &inv)?;
            let kept = self.inductive_subset(&LoopCtx::new(ctx, &step)?, inv.clone())?;
            if kept.len() == inv.len() {
                break;
            }
            inv = kept;
        }
        Ok((step, inv))
    }

    /// Termination and UB-freedom of a loop entry, given its inductive invariant. Without
    /// `unroll`, a loop whose iterations may have UB under the invariant fails at once (no
    /// search for an iteration bound that would exclude it).
    fn search_loop(&mut self, lc: &LoopCtx<'_>, invariant: Vec<BvFormula>, unroll: bool) -> Result<LoopArgument, Failure> {
        let step = lc.step;
        let inv = BvFormula::and(invariant.clone());
        let base = BvFormula::and([lc.outer.clone(), inv.clone()]);
        let ub_free = self.valid(BvFormula::implies(base.clone(), BvFormula::not(step.ub.clone())));
        let location = self.location(step.header);
        if ub_free {
            if let Some(r) = self.find_ranking(lc, &inv)? {
                return Ok(LoopArgument { header: step.header, location, invariant, termination: LoopTermination::Ranking(r) });
            }
        }
        if !ub_free && !unroll {
            return Err(Failure::NotProved(format!("possible undefined behaviour in the loop {location}")));
        }
        // An iteration bound both ends the loop and bounds the ghost counter.
        let mut n = 1;
        while n <= MAX_BOUND && Instant::now() < self.deadline {
            if self.bound_holds(lc, &inv, n)? {
                let with_bound = BvFormula::and([base.clone(), BvFormula::ule(BvTerm::var(IT, IT_WIDTH)?, BvTerm::constant(IT_WIDTH, u128::from(n))?)?]);
                if ub_free || self.valid(BvFormula::implies(with_bound, BvFormula::not(step.ub.clone()))) {
                    return Ok(LoopArgument { header: step.header, location, invariant, termination: LoopTermination::Bound(n) });
                }
                return Err(Failure::NotProved(format!("possible undefined behaviour in the loop {location}")));
            }
            n *= 2;
        }
        if !ub_free {
            return Err(Failure::NotProved(format!("possible undefined behaviour in the loop {location}")));
        }
        Err(Failure::NotProved(format!("no bit-vector ranking function or iteration bound for the loop {location}")))
    }

    fn check_loop(&mut self, lc: &LoopCtx<'_>, arg: &LoopArgument) -> Result<(), Failure> {
        let step = lc.step;
        let inv = BvFormula::and(arg.invariant.clone());
        let fail = |what: &str| Err(Failure::NotProved(format!("proof check failed at {}: {what}", arg.location)));
        if !self.valid(BvFormula::implies(BvFormula::and([lc.outer.clone(), lc.init.clone()]), inv.clone())) {
            return fail("invariant does not hold on entry");
        }
        let cons = BvFormula::implies(BvFormula::and([lc.outer.clone(), inv.clone(), step.stay.clone(), BvFormula::not(step.ub.clone())]), lc.at_post(&inv)?);
        if !self.valid(cons) {
            return fail("invariant is not inductive");
        }
        let mut base = vec![lc.outer.clone(), inv.clone()];
        match &arg.termination {
            LoopTermination::Ranking(r) => {
                if r.is_empty() || r.len() > 2 || !self.decreases(lc, &inv, r)? {
                    return fail("ranking functions do not decrease");
                }
            }
            LoopTermination::Bound(n) => {
                if !self.bound_holds(lc, &inv, *n)? {
                    return fail("iteration bound does not hold");
                }
                base.push(BvFormula::ule(BvTerm::var(IT, IT_WIDTH)?, BvTerm::constant(IT_WIDTH, u128::from(*n))?)?);
            }
        }
        if !self.valid(BvFormula::implies(BvFormula::and(base), BvFormula::not(step.ub.clone()))) {
            return fail("an iteration may have undefined behaviour");
        }
        Ok(())
    }

    /// Houdini: the largest subset of `cands` that holds on entry and is inductive (under
    /// `¬ub`), found by dropping the conjuncts a counter-model falsifies.
    /// Houdini on all candidates; if z3 cannot answer, on the single-variable ones alone.
    fn houdini_tiered(&mut self, lc: &LoopCtx<'_>, cands: &Candidates) -> Result<Vec<BvFormula>, Failure> {
        match self.houdini(lc, cands.all()) {
            Ok(inv) => Ok(inv),
            Err(_) if !cands.relational.is_empty() => self.houdini(lc, cands.basic.clone()),
            Err(e) => Err(e),
        }
    }

    fn houdini(&mut self, lc: &LoopCtx<'_>, cands: Vec<BvFormula>) -> Result<Vec<BvFormula>, Failure> {
        let cands = self.hold_on_entry(lc, cands)?;
        self.inductive_subset(lc, cands)
    }

    /// The candidates that hold whenever the loop is entered.
    fn hold_on_entry(&mut self, lc: &LoopCtx<'_>, mut cands: Vec<BvFormula>) -> Result<Vec<BvFormula>, Failure> {
        let entry = BvFormula::and([lc.outer.clone(), lc.init.clone()]);
        loop {
            if cands.is_empty() {
                return Ok(cands);
            }
            let q = BvFormula::and([entry.clone(), BvFormula::not(BvFormula::and(cands.clone()))]);
            match self.sat(&q) {
                (SatResult::Unsat, _) => break,
                (SatResult::Sat, Some(m)) => {
                    let before = cands.len();
                    cands.retain(|c| c.eval(&m).unwrap_or(false));
                    if cands.len() == before {
                        return Err(Failure::NotProved("invariant search: counter-model falsifies no candidate".into()));
                    }
                }
                _ => return Err(Failure::NotProved("invariant search: z3 gave no answer".into())),
            }
        }
        Ok(cands)
    }

    /// The largest inductive subset (under `¬ub`) of candidates that hold on entry.
    fn inductive_subset(&mut self, lc: &LoopCtx<'_>, mut cands: Vec<BvFormula>) -> Result<Vec<BvFormula>, Failure> {
        let step = lc.step;
        loop {
            if cands.is_empty() {
                return Ok(cands);
            }
            let posts: Vec<BvFormula> = cands.iter().map(|c| lc.at_post(c)).collect::<Result<_, _>>()?;
            let q = BvFormula::and([
                lc.outer.clone(),
                BvFormula::and(cands.clone()),
                step.stay.clone(),
                BvFormula::not(step.ub.clone()),
                BvFormula::not(BvFormula::and(posts.clone())),
            ]);
            match self.sat(&q) {
                (SatResult::Unsat, _) => return Ok(cands),
                (SatResult::Sat, Some(m)) => {
                    let keep: Vec<bool> = posts.iter().map(|p| p.eval(&m).unwrap_or(false)).collect();
                    if keep.iter().all(|k| *k) {
                        return Err(Failure::NotProved("invariant search: counter-model falsifies no candidate".into()));
                    }
                    cands = cands.into_iter().zip(keep).filter(|(_, k)| *k).map(|(c, _)| c).collect();
                }
                _ => return Err(Failure::NotProved("invariant search: z3 gave no answer".into())),
            }
        }
    }

    /// Premise of every ranking check: a state in the invariant takes a UB-free back edge.
    fn step_premise(lc: &LoopCtx<'_>, inv: &BvFormula) -> BvFormula {
        BvFormula::and([lc.outer.clone(), inv.clone(), lc.step.stay.clone(), BvFormula::not(lc.step.ub.clone())])
    }

    fn post_term(lc: &LoopCtx<'_>, t: &BvTerm) -> Result<BvTerm, BvWidthError> {
        t.substitute(&|n| lc.step.state.iter().find(|s| s.name == n).map(|s| lc.step.post[&s.value].clone()))
    }

    /// `r` (1 or 2 terms) decreases lexicographically (unsigned) on every iteration.
    fn decreases(&mut self, lc: &LoopCtx<'_>, inv: &BvFormula, r: &[BvTerm]) -> Result<bool, Failure> {
        let prem = Self::step_premise(lc, inv);
        let r0 = &r[0];
        let p0 = Self::post_term(lc, r0)?;
        let mut goal = BvFormula::ult(p0.clone(), r0.clone())?;
        if let Some(r1) = r.get(1) {
            let p1 = Self::post_term(lc, r1)?;
            goal = BvFormula::or([goal, BvFormula::and([BvFormula::eq(p0, r0.clone())?, BvFormula::ult(p1, r1.clone())?])]);
        }
        Ok(self.valid(BvFormula::implies(prem, goal)))
    }

    fn find_ranking(&mut self, lc: &LoopCtx<'_>, inv: &BvFormula) -> Result<Option<Vec<BvTerm>>, Failure> {
        let templates = ranking_templates(lc.step)?;
        let prem = Self::step_premise(lc, inv);
        let mut non_increasing = vec![];
        for t in &templates {
            if crate::cancel::past(self.deadline) {
                return Ok(None);
            }
            if self.decreases(lc, inv, std::slice::from_ref(t))? {
                return Ok(Some(vec![t.clone()]));
            }
            let p = Self::post_term(lc, t)?;
            if non_increasing.len() < MAX_LEX_TEMPLATES && self.valid(BvFormula::implies(prem.clone(), BvFormula::ule(p, t.clone())?)) {
                non_increasing.push(t.clone());
            }
        }
        for a in &non_increasing {
            for b in &templates {
                if a == b {
                    continue;
                }
                if crate::cancel::past(self.deadline) {
                    return Ok(None);
                }
                let pair = vec![a.clone(), b.clone()];
                if self.decreases(lc, inv, &pair)? {
                    return Ok(Some(pair));
                }
            }
        }
        Ok(None)
    }

    /// No `n + 1` consecutive UB-free iterations start from a state satisfying the invariant.
    fn bound_holds(&mut self, lc: &LoopCtx<'_>, inv: &BvFormula, n: u32) -> Result<bool, Failure> {
        let step = lc.step;
        let per_iter = &step.inputs;
        let mut parts = vec![lc.outer.clone(), inv.clone()];
        // Copy j of the state: the original names for j = 0, fresh ones after.
        let mut cur: BTreeMap<String, BvTerm> = BTreeMap::new();
        for j in 0..=n {
            let mut map = cur.clone();
            for (name, w) in per_iter {
                map.insert(name.clone(), BvTerm::var(format!("{name}@u{j}"), *w)?);
            }
            let sub = |f: &BvFormula| f.substitute(&|x| map.get(x).cloned());
            parts.push(sub(&step.stay)?);
            parts.push(BvFormula::not(sub(&step.ub)?));
            let mut next = BTreeMap::new();
            for s in &step.state {
                let v = BvTerm::var(format!("{}@u{}", s.name, j + 1), s.width)?;
                let post = step.post[&s.value].substitute(&|x| map.get(x).cloned())?;
                parts.push(BvFormula::eq(v.clone(), post)?);
                next.insert(s.name.clone(), v);
            }
            cur = next;
        }
        Ok(self.sat(&BvFormula::and(parts)).0 == SatResult::Unsat)
    }
}

struct LoopCtx<'s> {
    /// State variables and `@it` ↦ their values after a back edge.
    post_map: BTreeMap<String, BvTerm>,
    /// Path condition into the loop plus `live-in = its value`.
    outer: BvFormula,
    /// Header phis equal their initial values; `@it = 0`.
    init: BvFormula,
    step: &'s LoopStep,
}

impl<'s> LoopCtx<'s> {
    /// The facts of entering the loop in `ctx` with iteration `step`.
    fn new(ctx: &Context, step: &'s LoopStep) -> Result<LoopCtx<'s>, Failure> {
        let it = BvTerm::var(IT, IT_WIDTH)?;
        let mut outer = vec![ctx.pc.clone()];
        for l in &step.live_ins {
            let v = ctx.env.get(&l.value).cloned().ok_or_else(|| Failure::Unsupported(format!("live-in {} unknown on entry", l.name)))?;
            outer.push(BvFormula::eq(l.term(), v)?);
        }
        let mut init = vec![BvFormula::eq(it.clone(), BvTerm::constant(IT_WIDTH, 0)?)?];
        let mut post_map: BTreeMap<String, BvTerm> = BTreeMap::new();
        for s in &step.state {
            let v = ctx.env.get(&s.value).cloned().ok_or_else(|| Failure::Unsupported(format!("phi {} has no initial value", s.name)))?;
            init.push(BvFormula::eq(s.term(), v.clone())?);
            outer.push(BvFormula::eq(BvTerm::var(initial_name(&s.name), s.width)?, v)?);
            post_map.insert(s.name.clone(), step.post[&s.value].clone());
        }
        post_map.insert(IT.into(), BvTerm::add(it, BvTerm::constant(IT_WIDTH, 1)?)?);
        Ok(LoopCtx { post_map, outer: BvFormula::and(outer), init: BvFormula::and(init), step })
    }

    /// `f` after one iteration (state variables and `@it` replaced by their next values).
    fn at_post(&self, f: &BvFormula) -> Result<BvFormula, BvWidthError> {
        f.substitute(&|n| self.post_map.get(n).cloned())
    }
}

/// Every variable (name, width) the formulas and values of a loop iteration mention.
fn variables_of(step: &LoopStep) -> BTreeMap<String, u32> {
    let mut vars = BTreeMap::new();
    step.stay.collect_vars(&mut vars);
    step.exit.collect_vars(&mut vars);
    step.ub.collect_vars(&mut vars);
    for e in &step.region.edges {
        e.cond.collect_vars(&mut vars);
        e.values.values().for_each(|t| t.collect_vars(&mut vars));
    }
    vars
}

/// The variable holding a state variable's value at loop entry (constant during the loop), so
/// invariants can relate the state to where it started with names that are the same in every
/// walk (the entry values themselves are terms over walk-specific input names).
fn initial_name(state_var: &str) -> String {
    format!("{state_var}@0")
}

/// Integer constants of width `w` that occur in the loop (comparison bounds, steps).
fn loop_constants(f: &Function, lp: &Loop) -> BTreeSet<(u32, u128)> {
    let mut out = BTreeSet::new();
    let mut note = |o: &Operand| {
        if let Operand::Int { bits, value } = o {
            if (2..=64).contains(bits) {
                let m = mask(*bits);
                let v = (*value as u128) & m;
                for d in [v, v.wrapping_add(1) & m, v.wrapping_sub(1) & m] {
                    out.insert((*bits, d));
                }
            }
        }
    };
    for b in &lp.blocks {
        for i in &f.block(*b).instrs {
            match &i.op {
                Op::ICmp { lhs, rhs, .. } | Op::Bin { lhs, rhs, .. } => {
                    note(lhs);
                    note(rhs);
                }
                Op::Phi { incoming, .. } => incoming.iter().for_each(|(o, _)| note(o)),
                Op::Select { then_value, else_value, .. } => {
                    note(then_value);
                    note(else_value);
                }
                _ => {}
            }
        }
    }
    out
}

/// Invariant candidates over the loop's state, live-ins and ghost counter.
/// Invariant candidates in two tiers: single-variable facts first, then relations between
/// variables (orders, entry-value relations), which make the queries harder.
struct Candidates {
    basic: Vec<BvFormula>,
    relational: Vec<BvFormula>,
    /// Iteration bounds and counters with steps ≥ 2 (`iteration_bounds`): tried only when
    /// the loop is not proved without them (wide terms make z3 slower on every loop).
    bounds: Vec<BvFormula>,
    /// Growth bounds of accumulators (`accumulator_bounds`): tried last, with the bounds.
    accumulators: Vec<BvFormula>,
}

impl Candidates {
    fn all(&self) -> Vec<BvFormula> {
        self.basic.iter().chain(&self.relational).cloned().collect()
    }

    fn with_bounds(&self) -> Vec<BvFormula> {
        self.basic.iter().chain(&self.relational).chain(&self.bounds).cloned().collect()
    }

    fn with_accumulators(&self) -> Vec<BvFormula> {
        self.with_bounds().into_iter().chain(self.accumulators.iter().cloned()).collect()
    }
}

fn candidates(f: &Function, loops: &[Loop], step: &LoopStep) -> Result<Candidates, Failure> {
    let lp = loops.iter().find(|l| l.header == step.header).ok_or_else(|| Failure::Unsupported("loop vanished".into()))?;
    let consts = loop_constants(f, lp);
    let it = BvTerm::var(IT, IT_WIDTH)?;
    let mut out = vec![];
    let mut rel = vec![];
    let mut bounds = vec![BvFormula::sle(BvTerm::constant(IT_WIDTH, 0)?, it.clone())?];
    let mut accumulators = vec![];
    let others: Vec<_> = step.state.iter().chain(&step.live_ins).collect();
    for s in &step.state {
        let x = s.term();
        let w = s.width;
        if w == 1 {
            out.push(BvFormula::eq(x.clone(), BvTerm::constant(1, 0)?)?);
            out.push(BvFormula::eq(x.clone(), BvTerm::constant(1, 1)?)?);
            continue;
        }
        let zero = BvTerm::constant(w, 0)?;
        out.push(BvFormula::ne(x.clone(), zero.clone())?);
        // Counters: x = c + s·it for the constants c of the loop and unit steps, as relations
        // with the initial value are expressed through `x − s·it` being constant.
        let it_w = if w < IT_WIDTH { BvTerm::trunc(w, it.clone())? } else { it.clone() };
        let mut ks: BTreeSet<u128> = consts.iter().filter(|(b, _)| *b == w).map(|(_, v)| *v).collect();
        ks.insert(0);
        ks.insert(1);
        let (umax, smin_v) = (mask(w), 1u128 << (w - 1));
        for k in &ks {
            let kc = BvTerm::constant(w, *k)?;
            // (bounds every value satisfies are left out: they say nothing)
            if *k != umax {
                out.push(BvFormula::ule(x.clone(), kc.clone())?);
            }
            if *k != 0 {
                out.push(BvFormula::ule(kc.clone(), x.clone())?);
            }
            if *k != smin_v - 1 {
                out.push(BvFormula::sle(x.clone(), kc.clone())?);
            }
            if *k != smin_v {
                out.push(BvFormula::sle(kc.clone(), x.clone())?);
            }
            out.push(BvFormula::eq(BvTerm::sub(x.clone(), it_w.clone())?, kc.clone())?);
            out.push(BvFormula::eq(BvTerm::add(x.clone(), it_w.clone())?, kc.clone())?);
            // counters that move by a constant k ≥ 2 per iteration: x ∓ k·it = x0
            if (2..=16).contains(k) {
                let x0 = BvTerm::var(initial_name(&s.name), w)?;
                let k_it = BvTerm::mul(kc.clone(), it_w.clone())?;
                bounds.push(BvFormula::eq(BvTerm::sub(x.clone(), k_it.clone())?, x0.clone())?);
                bounds.push(BvFormula::eq(BvTerm::add(x.clone(), k_it)?, x0)?);
            }
        }
        // Monotone variables and invariant sums/differences, relative to the entry values.
        let x0 = BvTerm::var(initial_name(&s.name), w)?;
        let steps: BTreeSet<u128> = consts.iter().filter(|(b, v)| *b == w && (1..=16).contains(v)).map(|(_, v)| *v).chain([1]).collect();
        bounds.extend(iteration_bounds(&it, &x, &x0, &steps)?);
        // the largest positive constant bounds most increments (a larger K is weaker but
        // inductive whenever a smaller one is), 1 the counters; each more costs z3 time
        let largest = consts.iter().filter(|(b, v)| *b == w && *v >= 1 && *v < smin_v).map(|(_, v)| *v).max();
        let increments: BTreeSet<u128> = largest.into_iter().chain([1]).collect();
        accumulators.extend(accumulator_bounds(&it, &x, &x0, &increments)?);
        rel.push(BvFormula::sle(x.clone(), x0.clone())?);
        rel.push(BvFormula::sle(x0.clone(), x.clone())?);
        rel.push(BvFormula::ule(x.clone(), x0.clone())?);
        rel.push(BvFormula::ule(x0.clone(), x.clone())?);
        for y in &step.state {
            if y.name <= s.name || y.width != w {
                continue;
            }
            let y0 = BvTerm::var(initial_name(&y.name), w)?;
            rel.push(BvFormula::eq(BvTerm::add(x.clone(), y.term())?, BvTerm::add(x0.clone(), y0.clone())?)?);
            rel.push(BvFormula::eq(BvTerm::sub(x.clone(), y.term())?, BvTerm::sub(x0.clone(), y0)?)?);
        }
        // Low-bit congruences.
        for k in 0..2u128 {
            out.push(BvFormula::eq(BvTerm::extract(0, 0, x.clone())?, BvTerm::constant(1, k)?)?);
        }
        if w >= 2 {
            for k in 0..4u128 {
                out.push(BvFormula::eq(BvTerm::extract(1, 0, x.clone())?, BvTerm::constant(2, k)?)?);
            }
        }
        // Order relations with the other variables of the same width.
        for y in &others {
            if y.name == s.name || y.width != w {
                continue;
            }
            let yt = y.term();
            rel.push(BvFormula::ule(x.clone(), yt.clone())?);
            rel.push(BvFormula::ult(x.clone(), yt.clone())?);
            rel.push(BvFormula::ule(yt.clone(), x.clone())?);
            rel.push(BvFormula::sle(x.clone(), yt.clone())?);
            rel.push(BvFormula::sle(yt.clone(), x.clone())?);
            rel.push(BvFormula::ne(x.clone(), yt.clone())?);
        }
    }
    Ok(Candidates { basic: out, relational: rel, bounds, accumulators })
}

/// Iteration bounds from a variable that moves by at least `k` per iteration (issue 13:
/// counters bounded by the loop's ranking argument): `k·@it ≤ x0 − x` and `k·@it ≤ x − x0`
/// for `k` = 1 and the loop's small constants, computed on the signed and on the unsigned
/// reading of `x` in `IT_WIDTH + 2`… bits wide enough that nothing wraps, with `0 ≤ @it`.
/// With a loop guard bounding `x` they bound the iterations so far, and with `c − s·@it = k`
/// every counter `c` that moves by `s` per iteration: `c++` cannot overflow. Only
/// candidates: Houdini keeps those that are inductive.
fn iteration_bounds(it: &BvTerm, x: &BvTerm, x0: &BvTerm, steps: &BTreeSet<u128>) -> Result<Vec<BvFormula>, Failure> {
    let w = x.width();
    // x0 − x needs w + 1 bits, k·@it with k ≤ 16 needs IT_WIDTH + 4: one more for the sign
    let wide_w = (w + 1).max(IT_WIDTH + 4) + 1;
    let it_wide = BvTerm::zext(wide_w, it.clone())?;
    let mut out = vec![];
    for ext in [BvTerm::sext as fn(u32, BvTerm) -> Result<BvTerm, BvWidthError>, BvTerm::zext] {
        let (wide, wide0) = (ext(wide_w, x.clone())?, ext(wide_w, x0.clone())?);
        for k in steps {
            let k_it = BvTerm::mul(BvTerm::constant(wide_w, *k)?, it_wide.clone())?;
            out.push(BvFormula::sle(k_it.clone(), BvTerm::sub(wide0.clone(), wide.clone())?)?);
            out.push(BvFormula::sle(k_it, BvTerm::sub(wide.clone(), wide0.clone())?)?);
        }
    }
    Ok(out)
}

/// Growth bounds of an accumulator (issue 13: `s += i` with `0 ≤ i ≤ K` in a loop that runs
/// at most N times keeps `s − s0 ≤ K·N`): `x − x0 ≤ K·@it` and `x0 − x ≤ K·@it` for the
/// `K` given (1 and the loop's largest positive signed constant), on the signed reading of `x`, in
/// `IT_WIDTH + w` bits so that neither side wraps (`K < 2^(w−1)` and `@it < 2^64` give
/// `K·@it < 2^(w+63)`; `|x − x0| < 2^w`); none for variables wider than 64 bits (the
/// terms would exceed the 128 bits bit-vector terms allow).
/// Together with an iteration bound (`iteration_bounds`, or a counter beside a loop guard)
/// they bound the accumulator, so `s += i` cannot overflow. Only candidates: Houdini keeps
/// those that are inductive (the increment's own bound must be part of the invariant).
fn accumulator_bounds(it: &BvTerm, x: &BvTerm, x0: &BvTerm, increments: &BTreeSet<u128>) -> Result<Vec<BvFormula>, Failure> {
    let wide_w = IT_WIDTH + x.width();
    if wide_w > 128 {
        return Ok(vec![]);
    }
    let it_wide = BvTerm::zext(wide_w, it.clone())?;
    let (wide, wide0) = (BvTerm::sext(wide_w, x.clone())?, BvTerm::sext(wide_w, x0.clone())?);
    let mut out = vec![];
    for k in increments {
        let k_it = BvTerm::mul(BvTerm::constant(wide_w, *k)?, it_wide.clone())?;
        out.push(BvFormula::sle(BvTerm::sub(wide.clone(), wide0.clone())?, k_it.clone())?);
        out.push(BvFormula::sle(BvTerm::sub(wide0.clone(), wide.clone())?, k_it)?);
    }
    Ok(out)
}

/// Ranking templates: each state variable in the unsigned and the signed order, both
/// directions, and differences and (widened) sums with the other variables.
fn ranking_templates(step: &LoopStep) -> Result<Vec<BvTerm>, Failure> {
    let mut out = vec![];
    let others: Vec<_> = step.state.iter().chain(&step.live_ins).collect();
    for s in &step.state {
        let w = s.width;
        if w < 2 {
            continue;
        }
        let x = s.term();
        let flip = BvTerm::constant(w, 1u128 << (w - 1))?;
        out.push(x.clone());
        out.push(BvTerm::not(x.clone()));
        out.push(BvTerm::neg(x.clone()));
        out.push(BvTerm::xor(x.clone(), flip.clone())?);
        out.push(BvTerm::not(BvTerm::xor(x.clone(), flip)?));
        // Steps of a constant c = 2^t·odd: the number of steps left until x is 0 is
        // ((−x) >> t) · odd⁻¹ mod 2^(w−t), which decreases by one per step (odd numbers are
        // invertible modulo 2^w). Only a guess: the decrease is checked like every template.
        if let Some(r) = steps_to_zero(step, s)? {
            out.push(r);
        }
        // The low bytes / halves alone (loops on a truncated copy of a wider variable).
        for n in [8u32, 16, 32] {
            if n < w {
                let low = BvTerm::trunc(n, x.clone())?;
                out.push(BvTerm::neg(low.clone()));
                out.push(BvTerm::not(low.clone()));
                out.push(low);
            }
        }
        for y in &others {
            if y.name == s.name || y.width != w {
                continue;
            }
            let yt = y.term();
            out.push(BvTerm::sub(yt.clone(), x.clone())?);
            out.push(BvTerm::sub(x.clone(), yt.clone())?);
            if step.state.iter().any(|z| z.name == y.name) && w < 64 {
                out.push(BvTerm::add(BvTerm::zext(w + 1, x.clone())?, BvTerm::zext(w + 1, yt.clone())?)?);
            }
        }
    }
    out.dedup();
    Ok(out)
}

/// The "steps left until 0" template for a state variable that changes by a constant `c`
/// per iteration (`c` read off the post term by evaluating it at 0 and 1), if any.
fn steps_to_zero(step: &LoopStep, s: &LoopVar) -> Result<Option<BvTerm>, Failure> {
    let w = s.width;
    let Some(post) = step.post.get(&s.value) else { return Ok(None) };
    let mut vars = BTreeMap::new();
    post.collect_vars(&mut vars);
    let mut env: crate::logic::bv::BvEnv = vars.keys().map(|n| (n.clone(), 0u128)).collect();
    let (Ok(at0), true) = (post.eval(&env), env.contains_key(&s.name)) else { return Ok(None) };
    env.insert(s.name.clone(), 1);
    let Ok(at1) = post.eval(&env) else { return Ok(None) };
    let m = mask(w);
    let c = at0 & m;
    if at1.wrapping_sub(at0) & m != 1 || c == 0 {
        return Ok(None);
    }
    let t = c.trailing_zeros();
    let odd = c >> t;
    // Newton's iteration for the inverse modulo 2^w: each round doubles the correct bits.
    let mut inv = odd;
    for _ in 0..7 {
        inv = inv.wrapping_mul(2u128.wrapping_sub(odd.wrapping_mul(inv))) & m;
    }
    if odd.wrapping_mul(inv) & m != 1 || t >= w {
        return Ok(None);
    }
    let shifted = BvTerm::lshr(BvTerm::neg(s.term()), BvTerm::constant(w, u128::from(t))?)?;
    let r = BvTerm::mul(shifted, BvTerm::constant(w, inv)?)?;
    Ok(Some(if t == 0 { r } else { BvTerm::extract(w - t - 1, 0, r)? }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitprecise::tests::compile;

    #[test]
    fn loops_that_reach_zero_by_an_invertible_step_are_proved() {
        // s += 3 on 16 bits: 3 is invertible modulo 2^16, so s hits 0 within 2^16 steps.
        let src = "extern unsigned short __VERIFIER_nondet_ushort(void);\n int main(void) { unsigned short s = __VERIFIER_nondet_ushort(); unsigned steps = 0; while (s != 0) { s += 3; steps++; } return (int)(steps & 1); }";
        prove(src, IntSemantics::C).unwrap();
        // x even, x -= 6: ((−x) >> 1)·(−3)⁻¹ counts the steps modulo 2^31.
        let even = format!("{NONDET} int main(void) {{ unsigned i = __VERIFIER_nondet_uint(); if (i & 1u) i++; while (i != 0) i -= 6; return 0; }}");
        prove(&even, IntSemantics::C).unwrap();
        // x odd never reaches 0 by steps of 2: the template exists but does not decrease.
        let odd = format!("{NONDET} int main(void) {{ unsigned i = __VERIFIER_nondet_uint() | 1u; while (i != 0) i -= 6; return 0; }}");
        assert!(matches!(prove(&odd, IntSemantics::C), Err(Failure::NotProved(_))));
    }

    fn prove(src: &str, sem: IntSemantics) -> Result<BvProof, Failure> {
        let m = compile(src);
        let main = m.function_by_name("main").expect("main");
        let r = prove_function(&m, &ModuleFacts::new(&m), main, sem, Duration::from_secs(5), 100_000, Instant::now() + Duration::from_secs(60));
        if let Ok(p) = &r {
            check_proof(&m, &ModuleFacts::new(&m), main, sem, p, Duration::from_secs(5), 100_000, Instant::now() + Duration::from_secs(60)).expect("a found proof re-checks");
        }
        r
    }

    const NONDET: &str = "extern unsigned int __VERIFIER_nondet_uint(void); extern int __VERIFIER_nondet_int(void);\n";

    #[test]
    fn unsigned_counter_to_bound_has_a_difference_ranking_function() {
        let p = prove(&format!("{NONDET} int main(void) {{ unsigned n = __VERIFIER_nondet_uint(); for (unsigned j = 0; j < n; j++) {{}} return 0; }}"), IntSemantics::C).unwrap();
        assert!(matches!(p.functions[0].1[0].termination, LoopTermination::Ranking(_)));
    }

    #[test]
    fn loop_ending_only_by_wrap_around_is_proved() {
        prove(&format!("{NONDET} int main(void) {{ unsigned j = __VERIFIER_nondet_uint(); while (j > 0) j++; return 0; }}"), IntSemantics::C).unwrap();
    }

    #[test]
    fn signed_counter_is_bounded_by_the_iteration_bound() {
        // n++ cannot overflow because x becomes 0 after at most 32 doublings.
        let p = prove(&format!("{NONDET} int main(void) {{ unsigned x = __VERIFIER_nondet_uint(); int n = 0; while (x != 0) {{ x *= 2; n++; }} return n; }}"), IntSemantics::C).unwrap();
        assert!(matches!(p.functions[0].1[0].termination, LoopTermination::Bound(_)));
    }

    #[test]
    fn non_terminating_loops_are_not_proved() {
        // x odd never reaches 0 by steps of 2; j <= UINT_MAX always holds.
        for body in ["unsigned x = __VERIFIER_nondet_uint(); while (x != 0) x -= 2;", "unsigned n = __VERIFIER_nondet_uint(); for (unsigned j = 0; j <= n; j++) {}"] {
            let r = prove(&format!("{NONDET} int main(void) {{ {body} return 0; }}"), IntSemantics::C);
            assert!(matches!(r, Err(Failure::NotProved(_))), "{body}: {r:?}");
        }
    }

    #[test]
    fn counters_are_bounded_by_relations_with_entry_values_and_real_overflow_blocks_the_proof() {
        let src = format!("{NONDET} int main(void) {{ int x = __VERIFIER_nondet_int(); int n = 0; while (x > 0) {{ x--; n++; }} return n; }}");
        // n++ cannot overflow: n + x stays the initial x and x only decreases (relational
        // candidates with the entry values), so n < x0 ≤ INT_MAX inside the loop.
        assert!(prove(&src, IntSemantics::Wrap).is_ok());
        assert!(prove(&src, IntSemantics::C).is_ok());
        let unbounded = format!("{NONDET} int main(void) {{ int x = __VERIFIER_nondet_int(); while (x != 0) x++; return 0; }}");
        assert!(matches!(prove(&unbounded, IntSemantics::C), Err(Failure::NotProved(_))));
    }

    #[test]
    fn accumulators_are_bounded_by_their_increment_times_the_iterations() {
        // s += i with 0 ≤ i < 1000 over at most 1000 iterations: s ≤ 1000·@it ≤ 10^6, so
        // neither s += i nor the s + c after the loop can overflow.
        let sum = "int main(void) { int s = 0, c = 0; for (int i = 0; i < 1000; i++) { s += i; c++; } return s + c; }";
        prove(sum, IntSemantics::C).unwrap();
        // 100000 iterations of s += i reach about 5·10^9 > INT_MAX: a real overflow, no proof.
        let big = "int main(void) { int s = 0; for (int i = 0; i < 100000; i++) { s += i; } return s; }";
        assert!(matches!(prove(big, IntSemantics::C), Err(Failure::NotProved(_))));
        // 64-bit accumulators get the candidates in 128 bits (the widest term there is)
        let long = "int main(void) { long s = 0; for (long i = 0; i < 1000; i++) { s += i; } return (int)(s & 1); }";
        prove(long, IntSemantics::C).unwrap();
    }

    #[test]
    fn callees_are_proved_first_and_summarized() {
        let p = prove(&format!("{NONDET} void g(unsigned j) {{ while (j > 0) j--; }} int main(void) {{ g(__VERIFIER_nondet_uint()); return 0; }}"), IntSemantics::C).unwrap();
        assert_eq!(p.functions.len(), 2);
    }

    #[test]
    fn memory_and_math_semantics_are_out_of_scope() {
        let r = prove("int main(void) { volatile int x = 3; while (x > 0) x--; return 0; }", IntSemantics::C);
        assert!(matches!(r, Err(Failure::Unsupported(_))), "{r:?}");
        let r = prove("int main(void) { int x = 3; while (x > 0) x--; return 0; }", IntSemantics::Math);
        assert!(matches!(r, Err(Failure::Unsupported(_))), "{r:?}");
    }

    #[test]
    fn tampered_proofs_are_rejected() {
        let src = format!("{NONDET} int main(void) {{ unsigned n = __VERIFIER_nondet_uint(); for (unsigned j = 0; j < n; j++) {{}} return 0; }}");
        let m = compile(&src);
        let main = m.function_by_name("main").unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut p = prove_function(&m, &ModuleFacts::new(&m), main, IntSemantics::C, Duration::from_secs(5), 100_000, deadline).unwrap();
        let arg = &mut p.functions[0].1[0];
        let j = arg.invariant.iter().find_map(|f| { let mut v = BTreeMap::new(); f.collect_vars(&mut v); v.into_iter().find(|(n, _)| n.starts_with("j")) });
        let (name, w) = j.expect("an invariant mentions j");
        arg.termination = LoopTermination::Ranking(vec![BvTerm::var(name, w).unwrap()]);
        assert!(check_proof(&m, &ModuleFacts::new(&m), main, IntSemantics::C, &p, Duration::from_secs(5), 100_000, deadline).is_err());
        p.functions[0].1.clear();
        assert!(check_proof(&m, &ModuleFacts::new(&m), main, IntSemantics::C, &p, Duration::from_secs(5), 100_000, deadline).is_err());
    }
}

#[cfg(test)]
mod nested_tests {
    use super::*;
    use crate::bitprecise::tests::compile;

    #[test]
    fn nested_loops_are_composed_and_both_proved() {
        let src = "extern unsigned char __VERIFIER_nondet_uchar(void);\n int main(void) { unsigned char rows = __VERIFIER_nondet_uchar(); unsigned char n = __VERIFIER_nondet_uchar(); unsigned total = 0; for (unsigned char r = 0; r < rows; r++) for (unsigned char j = r; j < n; j++) total += j; return (int)(total & 1); }";
        let m = compile(src);
        let main = m.function_by_name("main").unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let p = prove_function(&m, &ModuleFacts::new(&m), main, IntSemantics::C, Duration::from_secs(5), 100_000, deadline).unwrap();
        assert_eq!(p.functions[0].1.len(), 2, "one argument per loop");
        check_proof(&m, &ModuleFacts::new(&m), main, IntSemantics::C, &p, Duration::from_secs(5), 100_000, deadline).unwrap();
    }

    #[test]
    fn non_terminating_inner_loop_is_not_proved() {
        // The inner loop resets the outer counter: i cycles 0..5 for n > 5.
        let src = "extern unsigned __VERIFIER_nondet_uint(void);\n int main(void) { unsigned n = __VERIFIER_nondet_uint(); for (unsigned i = 0; i < n; i++) for (unsigned j = 0; j <= i; j++) { if (i == 5) i = 0; } return 0; }";
        let m = compile(src);
        let main = m.function_by_name("main").unwrap();
        let r = prove_function(&m, &ModuleFacts::new(&m), main, IntSemantics::C, Duration::from_secs(5), 100_000, Instant::now() + Duration::from_secs(60));
        assert!(matches!(r, Err(Failure::NotProved(_))), "{r:?}");
    }
}

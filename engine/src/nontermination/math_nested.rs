//! Recurrent sets over mathematical integers for a loop whose body contains inner loops
//! (`--int-semantics math`): one set per cut point — the loop's header and the header of each
//! inner loop — closed under every segment between cut points.
//!
//! The loop is cut at its header `H` and at the headers `h₁ … hₙ` of the loops nested in it
//! (each innermost: deeper nesting is refused). Every cycle of the loop passes a cut point, so
//! the paths from one cut point to the next are acyclic (a segment, `math_step::encode_segment`).
//! The state at `H` is its phis; at an inner header `h` it is `h`'s phis plus the values the
//! loop computed before `h` and reads from `h` on (`carried_values`: the outer counter that
//! bounds the inner loop, say), with the loop's live-ins and memory cells everywhere.
//!
//! A family `R_H, R_h₁ … R_hₙ` is closed when from every state of `R_c` every segment, for
//! every nondeterministic value, is free of UB and poison, stays in the loop and arrives at a
//! cut point `c'` in a state of `R_c'` (z3 over the exact encoding, one query per segment).
//! Why a NO is sound: the stem is a real `math` run that enters `H` in `R_H`; from there each
//! segment is a finite piece of run (acyclic paths) that lands in the set of the next cut
//! point, so the run passes cut points forever and never leaves the loop. Whether it stays
//! in an inner loop forever or goes round the outer loop does not matter (both are infinite
//! runs), so no ranking function of the inner loop is needed. The memory argument is the one
//! of `math_recurrent` for the whole loop: the encoder refuses every call with effects,
//! allocation and access other than fixed cells in all segments.
//!
//! Candidates per cut point come from the observed run's visits of that cut point (the atoms
//! of `math_recurrent::candidates` over its variables and the conditions of its segment),
//! Houdini drops the atoms a counterexample's arrival falsifies at the cut point it reaches.

use super::header_visits::{CutVisits, HeaderVisits};
use super::math_ops::NotEncodable;
use super::math_step::{carried_values, encode_segment, substitute_post, fixed_input_fits, input_values, loop_context, phi_state, CutPoint, MathSegment, MemCell};
use super::math_step::Arrival;
use super::recheck::observe;
use crate::bitprecise::step::LoopVar;
use crate::config::{BitPreciseLimits, Config};
use crate::facts::loops::LoopForest;
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, CellSpec, RunConfig, SequenceInputs};
use crate::ir::{FuncId, Function, Module};
use crate::logic::{Formula, Int, Term, Var};
use crate::smt::{Budget, SatResult};
use crate::termination::eval::{eval_formula, Valuation};
use crate::verdict::{InnerRecurrentSet, IntSemantics, NonTerminationWitness, RecurrentSetWitness};
use std::time::Instant;

/// Houdini rounds at most.
const MAX_ROUNDS: usize = 64;

/// A loop with inner loops, cut at its header (`cuts[0]`) and its inner loops' headers.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MathNestedLoop {
    pub cuts: Vec<CutPoint>,
    pub live_ins: Vec<LoopVar>,
    pub cells: Vec<MemCell>,
    /// `segments[k]` starts at `cuts[k]`.
    pub segments: Vec<MathSegment>,
}

/// Encodes the loop `forest.loops[index]` of `f`: not innermost, every loop nested in it
/// innermost.
pub fn encode_nested_loop(module: &Module, f: &Function, forest: &LoopForest, index: usize, max_array_cells: usize) -> Result<MathNestedLoop, NotEncodable> {
    let lp = forest.loops.get(index).ok_or_else(|| NotEncodable("no such loop".into()))?;
    if lp.innermost || lp.children.is_empty() {
        return Err(NotEncodable("the loop has no inner loop".into()));
    }
    if lp.children.iter().any(|c| !forest.loops.get(*c).is_some_and(|l| l.innermost)) {
        return Err(NotEncodable("loops nested more than two deep".into()));
    }
    let ctx = loop_context(module, f, lp, max_array_cells)?;
    let mut cuts = vec![CutPoint { block: lp.header, state: phi_state(f, lp.header)? }];
    for c in &lp.children {
        let h = forest.loops[*c].header;
        let mut state = phi_state(f, h)?;
        state.extend(carried_values(f, lp, h)?);
        cuts.push(CutPoint { block: h, state });
    }
    let mut cells = Vec::new();
    let mut segments = Vec::new();
    for k in 0..cuts.len() {
        segments.push(encode_segment(&ctx, &cuts, k, &mut cells)?);
    }
    // Cells a segment does not know are cells it does not touch.
    for seg in &mut segments {
        for a in &mut seg.arrivals {
            for c in &cells[a.cell_post.len()..] {
                a.cell_post.push(Term::Var(Var::new(&c.name)));
            }
        }
    }
    Ok(MathNestedLoop { cuts, live_ins: ctx.live_ins, cells, segments })
}

impl MathNestedLoop {
    /// The variables of the set at cut point `k`.
    pub fn variables(&self, k: usize) -> impl Iterator<Item = &LoopVar> {
        self.cuts[k].state.iter().chain(&self.live_ins)
    }

    /// Names of the variables and cells of cut point `k`.
    pub fn variable_names(&self, k: usize) -> Vec<String> {
        self.variables(k).map(|x| x.name.clone()).chain(self.cells.iter().map(|c| c.name.clone())).collect()
    }

    /// What observers read at cut points: the cells.
    pub fn cell_specs(&self) -> Vec<CellSpec> {
        self.cells.iter().map(|c| c.spec.clone()).collect()
    }

    /// `f` (over the variables of the cut point `a` reaches) in the terms of the segment's
    /// start: every state variable and cell replaced by its value on arrival.
    pub fn on_arrival(&self, a: &Arrival, f: &Formula) -> Formula {
        substitute_post(&self.cuts[a.to].state, &a.post, &self.cells, &a.cell_post, f)
    }

    /// A state of `sets[k]` from which segment `k`, for some nondeterministic values (all
    /// `fixed` if given), leaves the loop, hits UB, or arrives at a cut point `c` outside
    /// `sets[c]`: the family is closed iff this is unsatisfiable for every `k`.
    pub fn closure_violation(&self, k: usize, sets: &[Formula], fixed: Option<Int>) -> Formula {
        let seg = &self.segments[k];
        let escapes = seg.arrivals.iter().map(|a| Formula::and([a.reach.clone(), Formula::not(self.on_arrival(a, &sets[a.to]))]));
        Formula::and(
            [sets[k].clone(), input_values(&seg.inputs, fixed)]
                .into_iter()
                .chain(seg.definitions.iter().cloned())
                .chain([Formula::or([seg.exit.clone(), seg.ub.clone()].into_iter().chain(escapes))]),
        )
    }

    /// Whether every input of every segment draws `c` unchanged.
    pub fn fixed_input_fits(&self, c: Int) -> bool {
        let inputs: Vec<(String, u32)> = self.segments.iter().flat_map(|s| s.inputs.iter().cloned()).collect();
        fixed_input_fits(&inputs, c)
    }

    /// Whether the family is closed: every segment's violation `Unsat` (fresh queries).
    pub fn closed(&self, sets: &[Formula], fixed: Option<Int>, limits: &BitPreciseLimits, deadline: Instant) -> bool {
        sets.len() == self.cuts.len()
            && (0..self.segments.len()).all(|k| {
                let budget = Budget::until(deadline, limits.recurrent_query_limit);
                crate::smt::check_sat(&self.closure_violation(k, sets, fixed), &budget) == SatResult::Unsat
            })
    }
}

/// A segment's counterexample: the model, and the arrival it takes.
struct Escape {
    env: Valuation,
    arrival: usize,
    segment: usize,
}

/// Houdini over atoms tagged by cut point: the largest closed family, or `None` when a state
/// of some set can leave the loop or hit UB, or z3 does not answer.
pub fn houdini(nested: &MathNestedLoop, fixed: Option<Int>, atoms: Vec<(usize, Formula)>, limits: &BitPreciseLimits, deadline: Instant) -> Option<Vec<Formula>> {
    use crate::houdini::{largest_closed_subset, Closure};
    let n = nested.cuts.len();
    let family = |cs: &[(usize, Formula)]| -> Vec<Formula> { (0..n).map(|k| Formula::and(cs.iter().filter(|(c, _)| *c == k).map(|(_, f)| f.clone()))).collect() };
    let check = |cs: &[(usize, Formula)]| {
        let sets = family(cs);
        for (k, seg) in nested.segments.iter().enumerate() {
            let query = nested.closure_violation(k, &sets, fixed);
            let vars: Vec<Var> = query.vars().into_iter().collect();
            let budget = Budget::until(deadline, limits.recurrent_query_limit);
            let model = match crate::smt::model(&query, &vars, &budget) {
                (SatResult::Unsat, _) => continue,
                (SatResult::Sat, Some(model)) => model,
                _ => return Closure::Unknown,
            };
            let Some(env) = super::math_recurrent::ints(&model) else { return Closure::Unknown };
            match (eval_formula(&seg.exit, &env), eval_formula(&seg.ub, &env)) {
                (Some(false), Some(false)) => {}
                (Some(_), Some(_)) => {
                    tracing::debug!("nested recurrent set: a state can leave the loop or hit UB");
                    return Closure::Escapes;
                }
                _ => return Closure::Unknown,
            }
            let taken = seg.arrivals.iter().position(|a| eval_formula(&a.reach, &env) == Some(true) && eval_formula(&nested.on_arrival(a, &sets[a.to]), &env) == Some(false));
            return match taken {
                Some(arrival) => Closure::Counterexample(Escape { env, arrival, segment: k }),
                None => Closure::Unknown,
            };
        }
        Closure::Closed
    };
    let holds_after = |(c, f): &(usize, Formula), m: &Escape| {
        let a = &nested.segments[m.segment].arrivals[m.arrival];
        if *c != a.to {
            return Some(true);
        }
        eval_formula(&nested.on_arrival(a, f), &m.env)
    };
    let kept = largest_closed_subset(atoms, MAX_ROUNDS, check, holds_after)?;
    Some(family(&kept))
}

/// Drops conjuncts of a closed family, one at a time, while every segment stays closed (a
/// readable witness that still holds at the observed states); relations between variables
/// first, bounds by constants last.
pub fn minimize(nested: &MathNestedLoop, fixed: Option<Int>, sets: Vec<Formula>, limits: &BitPreciseLimits, deadline: Instant) -> Vec<Formula> {
    let mut kept: Vec<Vec<Formula>> = sets.iter().map(|s| s.conjuncts()).collect();
    let mut order: Vec<(usize, Formula)> = kept.iter().enumerate().flat_map(|(k, cs)| cs.iter().map(move |c| (k, c.clone()))).collect();
    order.sort_by_key(|(_, c)| matches!(c, Formula::Cmp(_, Term::Var(_), Term::Const(_))));
    let quick = BitPreciseLimits { recurrent_query_limit: limits.recurrent_minimize_query_limit, ..*limits };
    for (k, c) in order {
        if crate::cancel::past(deadline) {
            break;
        }
        let mut trial = kept.clone();
        trial[k].retain(|x| *x != c);
        let family: Vec<Formula> = trial.iter().map(|cs| Formula::and(cs.clone())).collect();
        if nested.closed(&family, fixed, &quick, deadline) {
            kept = trial;
        }
    }
    kept.into_iter().map(Formula::and).collect()
}

/// The candidate atoms at every cut point from the visits of each (`visits[k]` at `cuts[k]`),
/// over that cut point's variables and its segment's conditions.
pub fn candidates(nested: &MathNestedLoop, visits: &[Vec<BlockEntry>]) -> Option<Vec<(usize, Formula)>> {
    let mut out = Vec::new();
    for (k, seen) in visits.iter().enumerate() {
        let observations: Vec<Valuation> = seen.iter().map(|v| observe(nested.variables(k), &nested.cells, v)).collect::<Option<_>>()?;
        if observations.is_empty() {
            return None;
        }
        let seg = &nested.segments[k];
        let atoms = super::math_recurrent::candidate_atoms(&nested.variable_names(k), &seg.conditions, &seg.inputs, &observations);
        out.extend(atoms.into_iter().map(|f| (k, f)));
    }
    Some(out)
}

/// Visits per cut point (the first and the last `window` of each) of a replay of `inputs` up
/// to `steps` steps, at frame depth `depth` of `func`.
#[allow(clippy::too_many_arguments)]
pub fn cut_visits(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, nested: &MathNestedLoop, func: FuncId, depth: usize, inputs: &[(String, Int)], steps: u64, window: usize, deadline: Instant) -> (Vec<Vec<BlockEntry>>, Vec<Vec<BlockEntry>>) {
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, steps) };
    let values: Vec<i128> = inputs.iter().map(|(_, v)| *v).collect();
    let mut observer = CutVisits { blocks: nested.cuts.iter().map(|c| HeaderVisits::new(func, c.block, depth, nested.cell_specs(), window, window)).collect() };
    run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut observer);
    let first = observer.blocks.iter().map(|h| h.first.clone()).collect();
    let last = observer.blocks.iter().map(|h| h.last.iter().cloned().collect()).collect();
    (first, last)
}

/// The inner sets of a witness for `nested` with the sets `sets` (`sets[0]` at the header).
pub fn inner_sets(f: &Function, nested: &MathNestedLoop, sets: &[Formula]) -> Vec<InnerRecurrentSet> {
    nested.cuts.iter().zip(sets).skip(1).map(|(c, s)| InnerRecurrentSet { header: f.block(c.block).name.clone(), set: s.clone() }).collect()
}

/// Re-checks a witness with inner sets from the witness alone: re-encode the loop and its
/// cut points from the IR, match every inner header to one set, replay the stem (exactly its
/// inputs, no UB, no poison) to the header entry, evaluate the header's set there, and prove
/// every segment closed with fresh queries.
pub fn recheck_nested(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, w: &RecurrentSetWitness, deadline: Instant) -> bool {
    if config.int_semantics() != IntSemantics::Math || w.inner_sets.is_empty() {
        return false;
    }
    let Some(func) = module.functions.iter().position(|f| f.name == w.function).map(|i| FuncId(i as u32)) else { return false };
    let f = module.function(func);
    let Some(header) = f.blocks.iter().position(|b| b.name == w.header) else { return false };
    let forest = &facts.function(module, func).loops;
    let Some(index) = forest.loops.iter().position(|l| l.header.0 as usize == header) else { return false };
    let Ok(nested) = encode_nested_loop(module, f, forest, index, config.bitprecise().max_array_cells) else { return false };
    if w.fixed_input.is_some_and(|c| !nested.fixed_input_fits(c)) || w.inner_sets.len() + 1 != nested.cuts.len() {
        return false;
    }
    let mut sets = vec![w.set.clone()];
    for c in &nested.cuts[1..] {
        let name = &f.block(c.block).name;
        let mut named = w.inner_sets.iter().filter(|s| &s.header == name);
        match (named.next(), named.next()) {
            (Some(s), None) => sets.push(s.set.clone()),
            _ => return false,
        }
    }
    for (k, s) in sets.iter().enumerate() {
        let known: Vec<Var> = nested.variable_names(k).iter().map(Var::new).collect();
        if !s.vars().iter().all(|v| known.contains(v)) {
            return false;
        }
    }
    let Some(at) = super::recheck::replay_stem(module, facts, entry, config, w, func, nested.cuts[0].block, nested.cell_specs(), deadline) else { return false };
    let Some(env) = observe(nested.variables(0), &nested.cells, &at) else { return false };
    if eval_formula(&sets[0], &env) != Some(true) {
        return false;
    }
    nested.closed(&sets, w.fixed_input, config.bitprecise(), deadline)
}

/// Visits of each cut point kept per window.
const OBSERVED_VISITS: usize = 64;

/// The witness of a closed family for a loop with inner loops that encloses the block where
/// the observed run (`inputs`, ending at `end`) stopped, re-checked. The enclosing loops are
/// tried from the innermost outwards.
#[allow(clippy::too_many_arguments)]
pub fn from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, inputs: &[(String, Int)], end: &BlockEntry, constant_input: Option<Int>, deadline: Instant) -> Option<NonTerminationWitness> {
    let limits = config.bitprecise();
    let func = end.func;
    let f = module.function(func);
    let forest = &facts.function(module, func).loops;
    let mut enclosing = Vec::new();
    let mut at = forest.innermost_containing(end.block);
    while let Some(i) = at {
        enclosing.push(i);
        at = forest.loops[i].parent;
    }
    for index in enclosing.into_iter().filter(|i| !forest.loops[*i].innermost) {
        if crate::cancel::past(deadline) {
            return None;
        }
        let nested = match encode_nested_loop(module, f, forest, index, limits.max_array_cells) {
            Ok(n) => n,
            Err(e) => {
                tracing::debug!(reason = %e.0, "nested recurrent set: loop not encodable");
                continue;
            }
        };
        let (first, last) = cut_visits(module, facts, entry, config, &nested, func, end.depth, inputs, end.steps, OBSERVED_VISITS, deadline);
        if first[0].len() < 2 {
            continue;
        }
        let policies: Vec<Option<Int>> = std::iter::once(None).chain(constant_input.filter(|c| nested.fixed_input_fits(*c)).map(Some)).collect();
        let windows = if first == last { vec![first] } else { vec![first, last] };
        let found = windows.iter().find_map(|window| {
            let atoms = candidates(&nested, window)?;
            policies.iter().find_map(|fixed| Some((*fixed, houdini(&nested, *fixed, atoms.clone(), limits, deadline)?)))
        });
        let Some((fixed, sets)) = found else { continue };
        let sets = minimize(&nested, fixed, sets, limits, deadline);
        // The stem: the earliest observed header visit in the header's set.
        let visits = windows.iter().flat_map(|w| &w[0]);
        let Some(at) = visits.into_iter().find(|v| observe(nested.variables(0), &nested.cells, v).is_some_and(|env| eval_formula(&sets[0], &env) == Some(true))) else { continue };
        let w = RecurrentSetWitness {
            function: f.name.clone(),
            header: f.block(nested.cuts[0].block).name.clone(),
            depth: at.depth,
            stem_inputs: inputs.get(..at.inputs_consumed)?.to_vec(),
            stem_steps: at.steps,
            fixed_input: fixed,
            set: sets[0].clone(),
            inner_sets: inner_sets(f, &nested, &sets),
            recursion: false,
        };
        if !recheck_nested(module, facts, entry, config, &w, deadline) {
            tracing::debug!("nested recurrent set: the re-check rejected the witness");
            continue;
        }
        let origin = nested.segments.iter().flat_map(|s| s.input_origins.first()).next().cloned().unwrap_or_default();
        return Some(super::math_recurrent::witness(module, func, nested.cuts[0].block, &origin, w));
    }
    None
}

//! The analysis context: fresh variables, the state formula ⟨s⟩ (digest §3.3) and cached,
//! sliced entailment checks.
//!
//! Entailment `⊨ ⟨s⟩ ⇒ φ` is decided on a *slice* of ⟨s⟩: the facts connected to the variables
//! of φ through shared variables. Dropping conjuncts of the premise only makes the check weaker
//! (it may fail, never wrongly succeed); for a satisfiable ⟨s⟩ the connectivity slice is even
//! exact, because the dropped facts do not share variables with the rest. z3 `unknown` and
//! timeouts count as "not entailed".

use super::facts::{conj, Atom, Fact};
use super::state::{AllocKind, State};
use crate::facts::congruence::Cong;
use crate::facts::views::{self, View};
use crate::facts::ModuleFacts;
use crate::ir::{BlockId, FuncId, Module, Type, ValueId};
use crate::logic::{Formula, LinExpr, Var};
use crate::smt::{self, Budget, SatResult};
use crate::verdict::IntSemantics;
use std::collections::{BTreeSet, HashMap};

/// One known field of an aggregate register value.
#[derive(Clone, Debug)]
pub struct AggPart {
    pub path: Vec<u32>,
    pub value: LinExpr,
    pub view: View,
}

/// Shared context of one analysis.
pub struct Ctx<'m> {
    pub module: &'m Module,
    pub sem: IntSemantics,
    pub budget: Budget,
    next_var: u64,
    next_alloc: u32,
    cache: HashMap<(Vec<Fact>, Vec<Atom>), bool>,
    pub z3_calls: u64,
    pub cache_hits: u64,
    pub model_hits: u64,
    models: Vec<HashMap<Var, i128>>,
    pub z3_time: std::time::Duration,
    pub slowest: (std::time::Duration, String),
    /// Static facts of the module's functions (shared, computed once).
    pub facts: &'m ModuleFacts,
    /// The known fields of aggregate register values (`with.overflow` results, `insertvalue`
    /// chains, pairs returned by functions), by the aggregate's variable: the field's index
    /// path, its value (over fresh non-root variables or constants) and the view it is kept
    /// in. A field not listed is unknown (a fresh value when extracted). See `symexec::aggregate`.
    pub agg_parts: HashMap<Var, Vec<AggPart>>,
    /// Callees whose calls are not executed: each is proved to terminate and to be memory
    /// safe for all arguments and touches no memory, so a call only yields an arbitrary
    /// result of its type (`exec::call`; `pipeline::prove_function_assuming`).
    pub proved_callees: std::collections::BTreeSet<FuncId>,
    /// Calls of `proved_callees` met (a statistic, and whether the attempt used any).
    pub assumed_calls: u64,
    /// Which non-recursive callees go through summaries in this analysis (`Off` unless the
    /// pipeline's first attempt asks for them; see `Ctx::summarized`).
    pub callee_summaries: crate::config::CalleeSummaries,
    /// Calls of non-recursive callees that went through summaries (a statistic, and whether
    /// the attempt differs from executing every callee in place).
    pub callee_summary_calls: u64,
    /// Calls of non-recursive callees whose call abstraction was an instance of an entry
    /// already built for another call (its graph reused, not rebuilt).
    pub reused_entries: u64,
    /// The run's module-wide summary store (`summary_store`), if the analysis may use one:
    /// a call abstraction of a summarized non-recursive callee that is an instance of a
    /// stored entry is served from it (`graph::Builder::import_entry`).
    pub store: Option<&'m super::summary_store::SummaryStore>,
    /// Calls served from the summary store (their callee's graph not built).
    pub store_served: u64,
    /// Entries of summarized non-recursive callees whose graph was built in this analysis.
    pub entries_built: u64,
    /// Whether a first call of a *recursive* callee (outside the analysed function's own
    /// recursion group) may be served from the store (`graph::Builder::import_entry`).
    pub import_recursive: bool,
    /// Calls of recursive callees served from the summary store (their recursion not
    /// analysed again here; counted in `store_served` as well).
    pub recursive_served: u64,
    /// Calls no stored entry covered that were widened with a stored entry of their callee
    /// (`graph::Builder::widen_against_store`): the widened entry is analysed here.
    pub widened_entries: u64,
    /// Whether the returns of the analysed function itself are recorded as return states of
    /// its root (its `E_top`), to seed the summary store.
    pub root_entry: bool,
    /// Known alignments of variables (`x ≡ 0 (mod g)`), see `symexec::alignment`.
    pub aligned: HashMap<Var, u64>,
    /// Whether folded list invariants get per-cell value ranges (`symexec::lists_ranges`;
    /// `config::ListValueRanges`).
    pub list_value_ranges: bool,
    /// Integer fields of chains considered for folding into list invariants (a statistic,
    /// and whether an attempt with value ranges could differ).
    pub list_int_fields: u64,
    /// Work bounds of every projection's Fourier–Motzkin step (`config::SymexecLimits`).
    pub projection: crate::config::ProjectionLimits,
}

impl<'m> Ctx<'m> {
    pub fn new(module: &'m Module, facts: &'m ModuleFacts, sem: IntSemantics, budget: Budget) -> Ctx<'m> {
        Ctx {
            module,
            facts,
            sem,
            budget,
            next_var: 0,
            next_alloc: 0,
            cache: HashMap::new(),
            z3_calls: 0,
            cache_hits: 0,
            model_hits: 0,
            models: vec![],
            z3_time: std::time::Duration::ZERO,
            slowest: (std::time::Duration::ZERO, String::new()),
            agg_parts: HashMap::new(),
            proved_callees: std::collections::BTreeSet::new(),
            assumed_calls: 0,
            callee_summaries: crate::config::CalleeSummaries::Off,
            callee_summary_calls: 0,
            reused_entries: 0,
            store: None,
            store_served: 0,
            entries_built: 0,
            import_recursive: true,
            recursive_served: 0,
            widened_entries: 0,
            root_entry: false,
            aligned: HashMap::new(),
            list_value_ranges: false,
            list_int_fields: 0,
            projection: crate::config::ProjectionLimits::default(),
        }
    }

    /// A fresh symbolic variable; `hint` keeps names readable (`x_12`).
    pub fn fresh(&mut self, hint: &str) -> Var {
        self.next_var += 1;
        let clean: String = hint
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' })
            .take(24)
            .collect();
        let clean = if clean.is_empty() { "v".to_string() } else { clean };
        Var::new(format!("{clean}_{}", self.next_var))
    }

    pub fn fresh_alloc_id(&mut self) -> u32 {
        self.next_alloc += 1;
        self.next_alloc
    }

    /// ⟨s⟩ restricted to the slice relevant for `focus` (KB, allocation bounds and pairwise
    /// disjointness, and the PT-derived disequalities of §3.3, computed in one pass).
    pub fn state_facts(&mut self, s: &State, focus: &BTreeSet<Var>) -> Vec<Fact> {
        let mut facts: Vec<Fact> = s.kb.clone();
        let empty = |a: &super::state::Alloc| Atom::cmp(&LinExpr::var(&a.end), crate::logic::Rel::Lt, &LinExpr::var(&a.start));
        for a in &s.allocs {
            // start ≤ end, or start ≤ end + 1 for a block that may be empty
            let end = LinExpr::var(&a.end).add_scaled(1, &LinExpr::constant(i128::from(a.kind.may_be_empty())));
            if let Some(x) = end.and_then(|e| Atom::cmp(&LinExpr::var(&a.start), crate::logic::Rel::Le, &e)) {
                facts.push(Fact::Atom(x));
            }
            facts.push(Fact::Atom(Atom::var_const(&a.start, crate::logic::Rel::Ge, 1)));
        }
        for (i, a) in s.allocs.iter().enumerate() {
            for b in &s.allocs[i + 1..] {
                if a.kind.may_overlap(b.kind) {
                    continue;
                }
                let x = Atom::cmp(&LinExpr::var(&a.end), crate::logic::Rel::Lt, &LinExpr::var(&b.start));
                let y = Atom::cmp(&LinExpr::var(&b.end), crate::logic::Rel::Lt, &LinExpr::var(&a.start));
                if let (Some(x), Some(y)) = (x, y) {
                    // an empty block is disjoint from everything (its pointer may dangle anywhere)
                    let mut cases = vec![x, y];
                    for blk in [a, b] {
                        if blk.kind.may_be_empty() {
                            cases.extend(empty(blk));
                        }
                    }
                    facts.push(Fact::Or(cases));
                }
            }
        }
        facts.extend(super::lists::state_facts(s));
        let all = facts;
        let mut facts = super::unreached_globals::without_unreached(s, all.clone(), focus);
        let mut sliced = slice(&facts, focus);
        // PT disequalities: same-kind entries holding provably different values are at
        // different addresses. Only pairs touching the slice matter.
        let slice_vars: BTreeSet<Var> = sliced.iter().flat_map(|f| f.vars()).chain(focus.iter().cloned()).collect();
        let mut extra = Vec::new();
        for (i, p) in s.pt.iter().enumerate() {
            for q in &s.pt[i + 1..] {
                if p.size != q.size || p.is_ptr != q.is_ptr || p.unsigned != q.unsigned || p.addr == q.addr {
                    continue;
                }
                if !slice_vars.contains(&p.addr) && !slice_vars.contains(&q.addr) {
                    continue;
                }
                let Some(diff) = Atom::cmp(&LinExpr::var(&p.value), crate::logic::Rel::Ne, &LinExpr::var(&q.value)) else {
                    continue;
                };
                // (the premise leaves out the globals the *pair* does not reach, not those the
                // query does not: the same pair of one state is then the same cached query
                // whatever the focus; `unreached_globals` for why leaving them out is sound)
                let pair: BTreeSet<Var> = [p.value.clone(), q.value.clone()].into_iter().collect();
                let premise = super::unreached_globals::without_unreached(s, all.clone(), &pair);
                if self.entails_facts(&premise, &[diff]) {
                    if let Some(a) = Atom::cmp(&LinExpr::var(&p.addr), crate::logic::Rel::Ne, &LinExpr::var(&q.addr)) {
                        extra.push(Fact::Atom(a));
                    }
                }
            }
        }
        if !extra.is_empty() {
            facts.extend(extra);
            sliced = slice(&facts, focus);
        }
        sliced
    }

    /// `⊨ ⟨s⟩ ⇒ ⋀ concl`.
    pub fn entails(&mut self, s: &State, concl: &[Atom]) -> bool {
        if concl.iter().all(|a| a.const_value() == Some(true)) {
            return true;
        }
        let focus: BTreeSet<Var> = concl.iter().flat_map(|a| a.e.coeffs.keys().cloned()).collect();
        let mut facts = self.state_facts(s, &focus);
        if self.entails_facts(&facts, concl) {
            return true;
        }
        // retried with the alignments of the variables involved (`symexec::alignment`), which
        // only matter for congruence reasoning and make the integer queries harder
        let align = super::alignment::facts_of(self, &facts, &focus);
        if align.is_empty() {
            return false;
        }
        facts.extend(align);
        self.entails_facts(&facts, concl)
    }

    /// `⊨ ⋀ premise ⇒ ⋀ concl`, sliced, cached, with syntactic pre-checks.
    pub fn entails_facts(&mut self, premise: &[Fact], concl: &[Atom]) -> bool {
        let concl: Vec<Atom> = concl.iter().filter(|a| a.const_value() != Some(true)).cloned().collect();
        if concl.is_empty() {
            return true;
        }
        let mut focus = BTreeSet::new();
        concl.iter().for_each(|a| a.collect_vars(&mut focus));
        let mut sl = slice(premise, &focus);
        if sl.iter().any(|f| f.const_value() == Some(false)) {
            return true;
        }
        if concl.iter().all(|c| {
            sl.iter().any(|f| matches!(f, Fact::Atom(a) if a.implies_syntactically(c)))
        }) {
            return true;
        }
        sl.sort();
        sl.dedup();
        let key = (sl, concl);
        if let Some(r) = self.cache.get(&key) {
            self.cache_hits += 1;
            return *r;
        }
        // A stored model of the premise that falsifies the conclusion refutes entailment
        // without z3 (models come from earlier non-entailed queries, extended through
        // definitional equations).
        if self.refuted_by_model(&key.0, &key.1) {
            self.model_hits += 1;
            return false;
        }
        self.z3_calls += 1;
        let negated = Formula::not(Formula::and(key.1.iter().map(Atom::to_formula)));
        let f = Formula::and([conj(&key.0), negated]);
        let t0 = std::time::Instant::now();
        let mut vars = BTreeSet::new();
        key.0.iter().for_each(|x| x.collect_vars(&mut vars));
        focus.iter().for_each(|v| {
            vars.insert(v.clone());
        });
        let vars: Vec<Var> = vars.into_iter().collect();
        let (res, model) = smt::model(&f, &vars, &self.budget);
        let r = res == SatResult::Unsat;
        if let Some(m) = model {
            let m: HashMap<Var, i128> = m.into_iter().filter_map(|(v, x)| if let smt::Value::Int(i) = x { Some((v, i)) } else { None }).collect();
            self.models.push(m);
            if self.models.len() > 6 {
                self.models.remove(0);
            }
        }
        let dt = t0.elapsed();
        self.z3_time += dt;
        if dt > self.slowest.0 {
            self.slowest = (dt, f.to_string().chars().take(3000).collect());
        }
        self.cache.insert(key, r);
        r
    }

    fn refuted_by_model(&self, premise: &[Fact], concl: &[Atom]) -> bool {
        'models: for m in self.models.iter().rev() {
            let mut ext: HashMap<Var, i128> = HashMap::new();
            let get = |ext: &HashMap<Var, i128>, v: &Var| m.get(v).or_else(|| ext.get(v)).copied();
            // extend through equations with one unknown of unit coefficient
            loop {
                let mut progress = false;
                for f in premise {
                    let Fact::Atom(a) = f else { continue };
                    if a.rel != super::facts::ARel::Eq {
                        continue;
                    }
                    let unknown: Vec<(&Var, &i128)> = a.e.coeffs.iter().filter(|(v, _)| get(&ext, v).is_none()).collect();
                    if unknown.len() != 1 || (*unknown[0].1 != 1 && *unknown[0].1 != -1) {
                        continue;
                    }
                    let (u, c) = (unknown[0].0.clone(), *unknown[0].1);
                    let mut rest = a.e.clone();
                    rest.coeffs.remove(&u);
                    let Some(val) = rest.eval(&|v| get(&ext, v)) else { continue };
                    let Some(x) = val.checked_mul(-c) else { continue };
                    ext.insert(u, x);
                    progress = true;
                }
                if !progress {
                    break;
                }
            }
            let eval_atom = |a: &Atom| -> Option<bool> {
                let x = a.e.eval(&|v| get(&ext, v))?;
                Some(match a.rel {
                    super::facts::ARel::Le => x <= 0,
                    super::facts::ARel::Eq => x == 0,
                    super::facts::ARel::Ne => x != 0,
                })
            };
            for f in premise {
                let ok = match f {
                    Fact::Atom(a) => eval_atom(a),
                    Fact::Or(atoms) => {
                        let vals: Vec<Option<bool>> = atoms.iter().map(eval_atom).collect();
                        if vals.contains(&Some(true)) {
                            Some(true)
                        } else if vals.iter().all(|x| *x == Some(false)) {
                            Some(false)
                        } else {
                            None
                        }
                    }
                };
                if ok != Some(true) {
                    continue 'models;
                }
            }
            // premise holds: the conclusion (a conjunction) must fail somewhere
            if concl.iter().any(|a| eval_atom(a) == Some(false)) {
                return true;
            }
        }
        false
    }

    /// A model of the state's facts for `vars` (for candidate error inputs).
    pub fn model(&mut self, s: &State, vars: &[Var]) -> Option<Vec<i128>> {
        let mut facts = s.kb.clone();
        for a in &s.allocs {
            if let Some(x) = Atom::cmp(&LinExpr::var(&a.start), crate::logic::Rel::Le, &LinExpr::var(&a.end)) {
                facts.push(Fact::Atom(x));
            }
        }
        let (r, m) = smt::model(&conj(&facts), vars, &self.budget);
        if r != SatResult::Sat {
            return None;
        }
        let m = m?;
        vars.iter()
            .map(|v| match m.get(v) {
                Some(smt::Value::Int(i)) => Some(*i),
                _ => None,
            })
            .collect()
    }

    /// Targets of CFG back edges (DFS from the entry) of a function.
    pub fn is_loop_header(&self, f: FuncId, b: BlockId) -> bool {
        self.facts.function(self.module, f).is_loop_header(b)
    }

    /// Values live just before instruction `idx` of `block` (phis of `block` count as
    /// already executed: their results are live if used later).
    pub fn live_at(&self, f: FuncId, b: BlockId, idx: usize) -> BTreeSet<ValueId> {
        self.facts.function(self.module, f).live_at(self.module.function(f), b, idx)
    }

    /// The type of a local value as its definition states it (see `FunctionFacts::stated_types`).
    pub fn value_type(&self, f: FuncId, v: ValueId) -> Option<Type> {
        self.facts.function(self.module, f).stated_types.get(v.0 as usize).cloned().flatten()
    }

    /// The static power-of-two divisibility exponent of local `v` of `f` (see `facts::parity`).
    pub fn parity(&self, f: FuncId, v: ValueId) -> u32 {
        self.facts.function(self.module, f).parity.get(v.0 as usize).copied().unwrap_or(0)
    }

    /// The view (signed/unsigned) in which local `v` of `f` is stored (see `facts::views`);
    /// always signed under `IntSemantics::Math`.
    pub fn view(&self, f: FuncId, v: ValueId) -> View {
        if self.sem == IntSemantics::Math {
            return View::Signed;
        }
        self.facts.views(self.module).get(f.0 as usize).map_or(View::Signed, |vs| views::of(vs, v))
    }

    /// The static offset congruence of pointer local `v` of function `f` (see
    /// `facts::congruence`).
    pub fn congruence(&self, f: FuncId, v: ValueId) -> Cong {
        self.facts.function(self.module, f).congruences.get(v.0 as usize).copied().unwrap_or(Cong::Top)
    }

    /// Whether calls of `f` go through summaries (`facts::recursion`) instead of inlining:
    /// recursive functions always; non-recursive ones as `callee_summaries` says (with their
    /// callers' memory unless their reachable code touches none).
    pub fn summarized(&self, f: FuncId) -> crate::facts::recursion::Summarized {
        use crate::facts::recursion::Summarized;
        let own = self.facts.summarized(self.module, f);
        if own != Summarized::No || !self.summarizes_non_recursive(f) {
            return own;
        }
        if self.facts.memory_free(self.module, f) {
            Summarized::Registers
        } else {
            Summarized::WithMemory
        }
    }

    /// Whether `f` is a member of a recursive call-graph component (always summarized).
    pub fn is_recursive(&self, f: FuncId) -> bool {
        self.facts.summarized(self.module, f) != crate::facts::recursion::Summarized::No
    }

    /// Whether `f` is a non-recursive callee that this analysis summarizes (`callee_summaries`).
    pub fn summarizes_non_recursive(&self, f: FuncId) -> bool {
        summarizes_non_recursive(self.module, self.facts, self.callee_summaries, f)
    }

    /// Whether the allocation kind belongs to frame depth `d` or deeper.
    pub fn owned_by_depth(kind: AllocKind, d: usize) -> bool {
        matches!(kind, AllocKind::Stack(x) | AllocKind::StackDynamic(x) if x >= d)
    }
}

/// Whether `mode` sends calls of `f` (defined, not recursive, more than one block) through
/// summaries. A Rust list's drop glue always runs in place (`lists_rust::always_in_place`).
pub fn summarizes_non_recursive(module: &Module, facts: &ModuleFacts, mode: crate::config::CalleeSummaries, f: FuncId) -> bool {
    use crate::config::CalleeSummaries;
    let func = module.function(f);
    if func.is_declaration() || func.blocks.len() < 2 || facts.summarized(module, f) != crate::facts::recursion::Summarized::No || super::lists_rust::always_in_place(func) {
        return false;
    }
    match mode {
        CalleeSummaries::Off => false,
        CalleeSummaries::Branching => true,
        CalleeSummaries::WithLoops => facts.function(module, f).loop_headers.iter().any(|h| *h),
    }
}

/// The connectivity slice of `facts` for `focus`.
pub fn slice(facts: &[Fact], focus: &BTreeSet<Var>) -> Vec<Fact> {
    let mut vars = focus.clone();
    let fvars: Vec<BTreeSet<Var>> = facts.iter().map(|f| f.vars()).collect();
    let mut taken = vec![false; facts.len()];
    loop {
        let mut changed = false;
        for (i, fv) in fvars.iter().enumerate() {
            if taken[i] {
                continue;
            }
            if fv.is_empty() || fv.iter().any(|v| vars.contains(v)) {
                taken[i] = true;
                changed = true;
                vars.extend(fv.iter().cloned());
            }
        }
        if !changed {
            break;
        }
    }
    facts.iter().zip(taken).filter(|(_, t)| *t).map(|(f, _)| f.clone()).collect()
}

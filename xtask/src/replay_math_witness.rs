//! A program's NO witness (the JSON `termination` object of `prove --format json`) replayed
//! in the replay interpreter (`replay_math.rs`): the entry is called with the witness's
//! `entry_args` and `entry_memory`, its inputs are fed in order (nondeterministic values and
//! the engine's choices for uninitialised values alike: each must be asked for by a draw of
//! the same name), then `input_cycle` over and over, or 0 when `any_further_inputs`.
//!
//! The run is *replayed* when it neither ends nor has undefined behaviour within its step
//! budget (the criterion of the native harness, which runs for `--run-limit` seconds) and,
//! for a witness with a recurrent set, when it enters the set at the loop's header after the
//! stem's inputs and is in it at every later visit of that header (and in the inner loops'
//! sets at theirs). It **disagrees** when the run ends, has undefined behaviour, is blocked
//! by an assumption, asks for an input the witness does not give, leaves the set after
//! entering it, or never enters it within the budget. Once the run has read the witness's
//! given inputs it is deterministic (the cycle's inputs in their order, or 0): a state it
//! comes back to (Brent's cycle detection on the whole state, at block entries) proves it
//! never ends — replayed as an exact lasso before the budget. Anything the interpreter does not
//! execute makes it *not replayed* with the reason.

use crate::its_replay::{formula, Env};
use crate::replay_math::{EntryArg, Inputs, Machine, Snapshot, Stop};
use crate::replay_math_ops::Num;
use serde_json::Value;
use termcheck_engine::ir::{FuncId, Module, Op, Operand, Type, ValueId};
use termcheck_engine::logic::Formula;
use termcheck_engine::verdict::IntSemantics;

/// Steps a replayed run must go on for (the run also stops, as replayed, when a value passes
/// `replay_math::MAX_VALUE_BITS` or calls nest too deep).
pub const STEP_BUDGET: u64 = 1_000_000;

/// The result of one replay.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Replayed(String),
    NotReplayed(String),
    Disagrees(String),
}

/// A witness value: a JSON number, or a decimal string beyond 64 bits.
fn number(v: &Value) -> Option<Num> {
    match v {
        Value::Number(n) => n.as_i64().map(Num::from).or_else(|| n.as_u64().map(Num::from)),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

fn named_values(v: &Value) -> Result<Vec<(String, Num)>, String> {
    v.as_array()
        .map(|a| a.as_slice())
        .unwrap_or_default()
        .iter()
        .map(|e| Ok((e["name"].as_str().unwrap_or_default().to_string(), number(&e["value"]).ok_or_else(|| format!("the witness value {e} is not an integer"))?)))
        .collect()
}

/// The witness's inputs, fed in order.
struct Feed {
    given: Vec<(String, Num)>,
    cycle: Vec<(String, Num)>,
    any_further: bool,
    next: usize,
}

impl Inputs for Feed {
    fn next(&mut self, name: &str, _bits: u32) -> Result<Num, Stop> {
        let k = self.next;
        self.next += 1;
        let (given, value) = if let Some(g) = self.given.get(k) {
            g
        } else if !self.cycle.is_empty() {
            &self.cycle[(k - self.given.len()) % self.cycle.len()]
        } else if self.any_further {
            return Ok(Num::from(0));
        } else {
            return Err(Stop::Inputs(format!("the run reads input {} (`{name}`), the witness gives {}", k + 1, self.given.len())));
        };
        if given != name {
            return Err(Stop::Inputs(format!("input {} is `{name}` in the run, `{given}` in the witness", k + 1)));
        }
        Ok(value.clone())
    }
}

/// A recurrent set to check at a loop header.
struct SetCheck {
    function: String,
    header: String,
    depth: usize,
    stem_inputs: usize,
    set: Formula,
    inner: Vec<(String, Formula)>,
}

fn set_check(rs: &Value) -> Result<Option<SetCheck>, String> {
    if rs.is_null() {
        return Ok(None);
    }
    let parse = |v: &Value| serde_json::from_value::<Formula>(v.clone()).map_err(|_| "the witness's recurrent set has no `set_formula` (a binary before it was added)".to_string());
    let inner = rs["inner_sets"].as_array().map(|a| a.as_slice()).unwrap_or_default().iter().map(|s| Ok((s["header"].as_str().unwrap_or_default().to_string(), parse(&s["set_formula"])?))).collect::<Result<_, String>>()?;
    Ok(Some(SetCheck {
        function: rs["function"].as_str().unwrap_or_default().to_string(),
        header: rs["header"].as_str().unwrap_or_default().to_string(),
        depth: rs["depth"].as_u64().unwrap_or(1) as usize,
        stem_inputs: rs["stem_inputs"].as_array().map_or(0, Vec::len),
        set: parse(&rs["set_formula"])?,
        inner,
    }))
}

/// The entry's arguments: integer parameters take `entry_args` in order, pointer parameters
/// their `entry_memory` block.
fn entry_args(module: &Module, entry: &str, w: &Value) -> Result<Vec<EntryArg>, String> {
    let f = module.function_by_name(entry).ok_or_else(|| format!("no function `{entry}`"))?;
    let mut ints = named_values(&w["entry_args"])?.into_iter();
    let blocks = w["entry_memory"].as_array().map(|a| a.as_slice()).unwrap_or_default();
    let mut args = Vec::new();
    for (i, (_, ty)) in module.function(f).params.iter().enumerate() {
        args.push(match ty {
            Type::Int(_) => EntryArg::Int(ints.next().ok_or_else(|| format!("the witness gives no value for parameter {}", i + 1))?.1),
            Type::Ptr => {
                let b = blocks.iter().find(|b| b["index"].as_u64() == Some(i as u64)).ok_or_else(|| format!("the witness gives no block for parameter {}", i + 1))?;
                let bytes = b["bytes"].as_array().map(|a| a.as_slice()).unwrap_or_default().iter().map(|x| x.as_u64().and_then(|x| u8::try_from(x).ok())).collect::<Option<Vec<u8>>>().ok_or("a block byte is not a byte")?;
                EntryArg::Block { bytes, offset: b["offset"].as_u64().unwrap_or(0) }
            }
            other => return Err(format!("a parameter of type {other:?}")),
        });
    }
    Ok(args)
}

/// The value of a set variable in the run's top frame: a register (`name#N`, `%N`) or the
/// cell at a register's or a global's address plus an offset (`*x#3`, `*x#3+4`, `*@g`),
/// read in the size and width the function accesses it with.
fn variable(m: &Machine, module: &Module, func: FuncId, name: &str) -> Option<Num> {
    let register = |n: &str| -> Option<ValueId> {
        let id = n.strip_prefix('%').or_else(|| n.rsplit_once('#').map(|(_, id)| id))?;
        id.parse().ok().map(ValueId)
    };
    let Some(cell) = name.strip_prefix('*') else { return m.register(register(name)?) };
    let (base, offset) = match cell.rfind(['+', '-']).filter(|i| *i > 0 && cell[*i + 1..].chars().all(|c| c.is_ascii_digit())) {
        Some(i) => (&cell[..i], cell[i..].trim_start_matches('+').parse::<i64>().ok()?),
        None => (cell, 0),
    };
    let base_operand = match base.strip_prefix('@') {
        Some(g) => Operand::Global(termcheck_engine::ir::GlobalId(module.globals.iter().position(|x| x.name == g)? as u32)),
        None => Operand::Local(register(base)?),
    };
    let address = match &base_operand {
        Operand::Global(g) => m.global(g.0 as usize)?,
        Operand::Local(v) => m.register(*v)?,
        _ => return None,
    } + Num::from(offset);
    let (size, bits) = access_of(module, func, &base_operand, offset)?;
    m.peek(&address, size, bits)
}

/// The size and width of a load or store of `func` at `base + offset`.
fn access_of(module: &Module, func: FuncId, base: &Operand, offset: i64) -> Option<(u64, u32)> {
    let f = module.function(func);
    let instrs: Vec<_> = f.blocks.iter().flat_map(|b| &b.instrs).collect();
    let at = |ptr: &Operand| -> bool {
        if offset == 0 && ptr == base {
            return true;
        }
        let Operand::Local(p) = ptr else { return false };
        instrs.iter().any(|i| i.result == Some(*p) && matches!(&i.op, Op::PtrAdd { base: b, offset: o, indices, .. } if b == base && *o == i128::from(offset) && indices.is_empty()))
    };
    instrs.iter().find_map(|i| match &i.op {
        Op::Load { ty, ptr, size } | Op::Store { ty, ptr, size, .. } if at(ptr) => Some((*size, ty.int_bits().unwrap_or(module.pointer_bits))),
        _ => None,
    })
}

/// Whether the run's top frame satisfies `set` (`Err`: a variable has no value, or a value is
/// beyond the evaluator's bound).
fn holds(m: &Machine, module: &Module, func: FuncId, set: &Formula) -> Result<bool, String> {
    let mut env = Env::new();
    for v in set.vars() {
        let value = variable(m, module, func, v.name()).ok_or_else(|| format!("the set's variable `{}` has no value in the run", v.name()))?;
        env.insert(v.name().to_string(), value);
    }
    formula(set, &env).ok_or_else(|| "the set's values are beyond the evaluator's bound".into())
}

/// Replays the NO witness `w` (the JSON `termination` object) of `module`'s `entry` under `sem`.
pub fn replay_no(module: &Module, entry: &str, sem: IntSemantics, w: &Value, budget: u64) -> Outcome {
    let prepared = (|| -> Result<_, String> {
        let feed = Feed { given: named_values(&w["inputs"])?, cycle: named_values(&w["input_cycle"])?, any_further: w["any_further_inputs"].as_bool().unwrap_or(false), next: 0 };
        Ok((feed, entry_args(module, entry, w)?, set_check(&w["recurrent_set"])?))
    })();
    let (mut feed, args, check) = match prepared {
        Ok(p) => p,
        Err(e) => return Outcome::NotReplayed(e),
    };
    // past the given inputs the run is deterministic (the cycle's inputs in their phase, or 0)
    let (given, cycle) = (feed.given.len(), feed.cycle.len());
    let phase = move |drawn: usize| (drawn >= given).then(|| if cycle == 0 { 0 } else { (drawn - given) % cycle });
    let mut m = match Machine::start(module, entry, args, sem, &mut feed) {
        Ok(m) => m,
        Err(stop) => return stopped(stop, 0),
    };
    // the set check: the step the run entered the set, the visits in it, and whether the
    // values still fit the evaluator
    let mut entered: Option<u64> = None;
    let mut visits = 0u64;
    let mut checking = true;
    let mut budget_note = String::new();
    // Brent's cycle detection on the deterministic part: a state saved at doubling steps,
    // compared at every block entry
    let mut saved: Option<(Snapshot, usize, u64)> = None;
    let mut next_save = 1u64;
    let mut lasso: Option<(u64, u64)> = None;
    while m.steps < budget {
        if let Err(stop) = m.step() {
            match stop {
                Stop::Budget(what) => {
                    budget_note = format!(" (stopped at {what})");
                    break;
                }
                other => return stopped(other, m.steps),
            }
        }
        if let Some(p) = phase(m.inputs_drawn).filter(|_| m.entered_block) {
            if let Some((_, _, at)) = saved.as_ref().filter(|(s, q, _)| *q == p && m.is_in(s)) {
                lasso = Some((*at, m.steps));
            } else if m.steps >= next_save {
                saved = Some((m.snapshot(), p, m.steps));
                next_save = m.steps * 2;
            }
        }
        let Some(check) = check.as_ref().filter(|_| m.entered_block && checking) else {
            if lasso.is_some() {
                break;
            }
            continue;
        };
        let Some((func, block, depth)) = m.position() else { continue };
        let f = module.function(func);
        if f.name != check.function || depth < check.depth || m.inputs_drawn < check.stem_inputs {
            continue;
        }
        let name = &f.blocks[block.0 as usize].name;
        let set = if depth == check.depth && *name == check.header {
            &check.set
        } else if let Some((_, s)) = check.inner.iter().find(|(h, _)| h == name).filter(|_| entered.is_some() && depth == check.depth) {
            s
        } else {
            continue;
        };
        match holds(&m, module, func, set) {
            Ok(true) => {
                entered.get_or_insert(m.steps);
                visits += 1;
            }
            Ok(false) if entered.is_some() => return Outcome::Disagrees(format!("the run leaves the recurrent set at block {name} after {} steps", m.steps)),
            Ok(false) => {}
            Err(e) if entered.is_some() => {
                checking = false;
                budget_note.push_str(&format!(" (set checked until step {}: {e})", m.steps));
            }
            Err(e) => return Outcome::NotReplayed(e),
        }
        if lasso.is_some() {
            break;
        }
    }
    if let (Some(check), None) = (&check, entered) {
        let how_long = if lasso.is_some() { "ever (its state recurs)".to_string() } else { format!("within {} steps", m.steps) };
        return Outcome::Disagrees(format!("the run does not enter the recurrent set at {} {how_long}", check.header));
    }
    let set = match entered {
        Some(step) => format!(", in the recurrent set from step {step} on ({visits} visits)"),
        None => String::new(),
    };
    if let Some((first, again)) = lasso {
        return Outcome::Replayed(format!("the state of step {first} recurs at step {again}: a lasso, the run never ends{set}"));
    }
    Outcome::Replayed(format!("{} steps without ending, values up to {} bits{set}{budget_note}", m.steps, m.widest))
}

/// Replays the violation witness `w` (the JSON `memory` object, `result: violated`): the run
/// fed the witness's inputs must reach undefined behaviour of the witness's `kind` within
/// `budget` steps. A run that ends, asks for another input, or faults with another kind
/// disagrees; one still running after the budget is not replayed.
pub fn replay_violation(module: &Module, entry: &str, sem: IntSemantics, w: &Value, budget: u64) -> Outcome {
    let prepared = (|| -> Result<_, String> { Ok((Feed { given: named_values(&w["inputs"])?, cycle: Vec::new(), any_further: false, next: 0 }, entry_args(module, entry, w)?)) })();
    let (mut feed, args) = match prepared {
        Ok(p) => p,
        Err(e) => return Outcome::NotReplayed(e),
    };
    let expected = w["kind"].as_str().unwrap_or_default();
    let mut m = match Machine::start(module, entry, args, sem, &mut feed) {
        Ok(m) => m,
        Err(stop) => return violation_stopped(stop, 0, expected),
    };
    while m.steps < budget {
        if let Err(stop) = m.step() {
            return violation_stopped(stop, m.steps, expected);
        }
    }
    Outcome::NotReplayed(format!("no violation within {budget} steps"))
}

fn violation_stopped(stop: Stop, steps: u64, expected: &str) -> Outcome {
    match stop {
        Stop::Undefined { kind, what } if kind == expected => Outcome::Replayed(format!("{kind} after {steps} steps: {what}")),
        Stop::Undefined { kind, what } => Outcome::Disagrees(format!("{kind}, not {expected}, after {steps} steps: {what}")),
        Stop::Budget(what) => Outcome::NotReplayed(format!("no violation before {what}")),
        other => stopped(other, steps),
    }
}

fn stopped(stop: Stop, steps: u64) -> Outcome {
    match stop {
        Stop::Ended(what) => Outcome::Disagrees(format!("the run ends after {steps} steps: {what}")),
        Stop::Undefined { kind, what } => Outcome::Disagrees(format!("{kind} after {steps} steps: {what}")),
        Stop::Blocked(what) => Outcome::Disagrees(format!("the run is blocked after {steps} steps: {what}")),
        Stop::Inputs(what) => Outcome::Disagrees(format!("after {steps} steps {what}")),
        Stop::Unsupported(what) => Outcome::NotReplayed(format!("unsupported: {what}")),
        Stop::Budget(what) => Outcome::Replayed(format!("{steps} steps without ending (stopped at {what})")),
    }
}

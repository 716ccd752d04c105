//! Unit tests of the symbolic execution on hand-built IR: single rules, refinement,
//! generalization/merging (strlen, digest §5) and the shape of the ITS.

use super::ctx::Ctx;
use super::facts::Atom;
use super::graph::{self, Edge, End};
use super::*;
use crate::ir::*;
use crate::logic::{Formula, LinExpr, Rel, Term};
use crate::facts::ModuleFacts;
use crate::smt::{self, SatResult};
use crate::verdict::{IntSemantics, Termination};
use std::time::Duration;

fn l(v: u32) -> Operand {
    Operand::Local(ValueId(v))
}
fn c(bits: u32, v: i128) -> Operand {
    Operand::Int { bits, value: v }
}
fn ins(result: Option<u32>, op: Op) -> Instr {
    Instr { result: result.map(ValueId), op, loc: Some(SrcLoc { file: "t.c".into(), line: 7, col: 1 }) }
}
fn block(name: &str, instrs: Vec<Instr>, terminator: Terminator) -> Block {
    Block { name: name.into(), instrs, terminator, term_loc: None, loop_loc: None }
}
fn call(result: Option<u32>, f: u32, args: Vec<Operand>, ret: Type) -> Instr {
    ins(result, Op::Call { callee: Callee::Direct(FuncId(f)), args, ret })
}
fn decl(name: &str, ret: Type) -> Function {
    Function { name: name.into(), params: vec![], ret, blocks: vec![], num_values: 0, value_names: vec![], is_vararg: false, param_attrs: vec![], linkage: Linkage::External, address_taken: false, loc: None }
}
fn func(name: &str, params: Vec<(ValueId, Type)>, blocks: Vec<Block>, names: &[(u32, &str)]) -> Function {
    let n = 64;
    let mut value_names = vec![None; n];
    for (i, s) in names {
        value_names[*i as usize] = Some(s.to_string());
    }
    Function { name: name.into(), params, ret: Type::Int(32), blocks, num_values: n as u32, value_names, is_vararg: false, param_attrs: vec![], linkage: Linkage::External, address_taken: false, loc: None }
}
/// Module with `main` = function 0 and the declarations nondet_int (1), free (2), malloc (3), assume (4).
fn module(main: Function, extra: Vec<Function>) -> Module {
    let mut functions = vec![
        main,
        decl("__VERIFIER_nondet_int", Type::Int(32)),
        decl("free", Type::Void),
        decl("malloc", Type::Ptr),
        decl("__VERIFIER_assume", Type::Void),
    ];
    functions.extend(extra);
    Module { source_name: "t.c".into(), pointer_bits: 64, functions, globals: vec![], annotations: Default::default(), malformed_annotations: vec![] }
}
pub(super) fn config(sem: IntSemantics) -> crate::config::Config {
    crate::config::Config::new(sem, Duration::from_secs(30))
}
/// An analysis of `main` with the termination verdict the pipeline derives from its graph.
pub(super) struct Proved {
    pub analysis: Analysis,
    pub termination: Termination,
}

impl std::ops::Deref for Proved {
    type Target = Analysis;
    fn deref(&self) -> &Analysis {
        &self.analysis
    }
}

/// `main` of `m` analysed within `secs` seconds, its graph's ITS proved by the back end.
pub(super) fn prove(m: &Module, sem: IntSemantics, secs: u64) -> Proved {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let analysis = analyze(m, &ModuleFacts::new(m), m.function_by_name("main").expect("main"), &config(sem), deadline);
    let termination = crate::pipeline::graph_termination(&analysis.graph, config(sem).termination(), deadline);
    Proved { analysis, termination }
}

fn run(m: &Module, sem: IntSemantics) -> Proved {
    prove(m, sem, 30)
}
fn graph_of(m: &Module, sem: IntSemantics) -> (graph::Graph, Ctx<'_>) {
    let budget = Budget::until(Instant::now() + Duration::from_secs(30), Duration::from_secs(10));
    let facts = Box::leak(Box::new(ModuleFacts::new(m)));
    let mut ctx = Ctx::new(m, facts, sem, budget);
    let entry = m.function_by_name("main").expect("main");
    let init = initial_state(&mut ctx, m, entry, sem);
    let g = graph::build(&mut ctx, init, Instant::now() + Duration::from_secs(30), config(sem).symexec());
    (g, ctx)
}
fn icmp(r: u32, pred: IntPred, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::ICmp { pred, bits: 32, lhs: a, rhs: b })
}
fn bin(r: u32, op: BinOp, nsw: bool, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::Bin { op, flags: ArithFlags { nsw, ..Default::default() }, bits: 32, lhs: a, rhs: b })
}
fn phi(r: u32, ty: Type, inc: Vec<(Operand, u32)>) -> Instr {
    ins(Some(r), Op::Phi { ty, incoming: inc.into_iter().map(|(o, b)| (o, BlockId(b))).collect() })
}
fn condbr(cond: Operand, t: u32, e: u32) -> Terminator {
    Terminator::CondBr { cond, then_block: BlockId(t), else_block: BlockId(e) }
}
fn br(b: u32) -> Terminator {
    Terminator::Br(BlockId(b))
}
fn ret0() -> Terminator {
    Terminator::Ret(Some(c(32, 0)))
}

/// `x = nondet(); while (x > 0) x = x - 1;`
fn countdown() -> Module {
    let main = func(
        "main",
        vec![],
        vec![
            block("entry", vec![call(Some(0), 1, vec![], Type::Int(32))], br(1)),
            block("loop", vec![phi(1, Type::Int(32), vec![(l(0), 0), (l(3), 2)]), icmp(2, IntPred::Sgt, l(1), c(32, 0))], condbr(l(2), 2, 3)),
            block("body", vec![bin(3, BinOp::Sub, true, l(1), c(32, 1))], br(1)),
            block("exit", vec![], ret0()),
        ],
        &[(1, "x")],
    );
    module(main, vec![])
}

/// The ITS's cycle transitions (from a location to itself).
fn self_loops(b: &its_build::BuiltIts) -> Vec<&crate::its::Transition> {
    b.its.transitions.iter().filter(|t| t.from == t.to).collect()
}

fn built(g: &graph::Graph) -> its_build::BuiltIts {
    its_build::build_its(g, &|n| format!("n{n}"), 1000).expect("its").expect("has cycles")
}

/// Position of the variable that LV maps `x` (value id) to in the location of node `n`.
fn pos_of(g: &graph::Graph, b: &its_build::BuiltIts, loc: usize, value: u32) -> usize {
    let node = b.loc_nodes[loc];
    let v = g.nodes[node].state.top().lv.get(&ValueId(value)).expect("lv").clone();
    b.loc_vars[loc].iter().position(|x| *x == v).expect("position")
}

#[test]
fn countdown_graph_and_its() {
    let m = countdown();
    let (g, _ctx) = graph_of(&m, IntSemantics::C);
    assert!(g.incomplete.is_none(), "{:?}", g.incomplete);
    let errors: Vec<_> = g.errors().into_iter().map(|e| (&g.nodes[e].end, &g.nodes[e].state.kb)).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let b = built(&g);
    let loops = self_loops(&b);
    assert!(!loops.is_empty());
    // x decreases and is bounded on every cycle transition: guard ⇒ x > 0 ∧ x' = x − 1
    for t in loops {
        let loc = t.from.0 as usize;
        let p = pos_of(&g, &b, loc, 1);
        let x = Term::var(&its_build::position_var(p));
        let x1 = t.update[p].clone();
        let claim = Formula::and([Formula::gt(x.clone(), Term::Const(0)), Formula::eq(x1, Term::sub(x, Term::Const(1)))]);
        assert!(smt::entails(&t.guard, &claim, &Budget::unlimited(std::time::Duration::from_secs(10))), "guard {} ", t.guard);
    }
    let a = run(&m, IntSemantics::C);
    assert_eq!(a.memory_safety, MemorySafety::Proved);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

#[test]
fn straight_line_program_has_no_loops() {
    let main = func("main", vec![], vec![block("entry", vec![call(Some(0), 1, vec![], Type::Int(32))], ret0())], &[]);
    let a = run(&module(main, vec![]), IntSemantics::C);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
    assert_eq!(a.memory_safety, MemorySafety::Proved);
}

/// `n = nondet(); if (n > 0) { buf = alloca(n); [buf[n-1] = 0;] s = buf; while (*s) s++; }`
fn strlen_program(terminated: bool) -> Module {
    let mut b1 = vec![
        ins(Some(2), Op::Cast { op: CastOp::SExt, from_bits: 32, to_bits: 64, value: l(0) }),
        ins(Some(3), Op::Alloca { elem_size: 1, count: l(2), count_bits: 64 }),
        ins(Some(4), Op::PtrAdd { base: l(3), offset: -1, indices: vec![GepIndex { value: l(2), bits: 64, scale: 1 }], inbounds: true }),
    ];
    if terminated {
        b1.push(ins(None, Op::Store { ty: Type::Int(8), value: c(8, 0), ptr: l(4), size: 1 }));
    }
    let main = func(
        "main",
        vec![],
        vec![
            block("entry", vec![call(Some(0), 1, vec![], Type::Int(32)), icmp(1, IntPred::Sgt, l(0), c(32, 0))], condbr(l(1), 1, 4)),
            block("b1", b1, br(2)),
            block(
                "loop",
                vec![
                    phi(5, Type::Ptr, vec![(l(3), 1), (l(8), 3)]),
                    ins(Some(6), Op::Load { ty: Type::Int(8), ptr: l(5), size: 1 }),
                    ins(Some(7), Op::ICmp { pred: IntPred::Ne, bits: 8, lhs: l(6), rhs: c(8, 0) }),
                ],
                condbr(l(7), 3, 4),
            ),
            block("body", vec![ins(Some(8), Op::PtrAdd { base: l(5), offset: 1, indices: vec![], inbounds: true })], br(2)),
            block("exit", vec![], ret0()),
        ],
        &[(5, "s"), (3, "buf")],
    );
    module(main, vec![])
}

#[test]
fn strlen_terminated_is_memory_safe_and_merged_state_bounds_s() {
    let m = strlen_program(true);
    let (g, mut ctx) = graph_of(&m, IntSemantics::C);
    assert!(g.incomplete.is_none(), "{:?}", g.incomplete);
    assert!(g.errors().is_empty(), "errors: {:?}", g.errors().iter().map(|e| g.nodes[*e].end.clone()).collect::<Vec<_>>());
    assert!(g.merges >= 1);
    // the merged loop state knows start ≤ s ≤ end of the buffer
    let merged: Vec<usize> = (0..g.nodes.len())
        .filter(|i| g.nodes[*i].alive && g.nodes.iter().any(|n| n.alive && n.out.iter().any(|e| matches!(e, Edge::Back(t, _) if t == i))))
        .collect();
    assert!(!merged.is_empty());
    for &n in &merged {
        let st = &g.nodes[n].state;
        let s = st.top().lv.get(&ValueId(5)).expect("s live").clone();
        let al = st.allocs.iter().find(|a| matches!(a.kind, state::AllocKind::Stack(_) | state::AllocKind::StackDynamic(_))).expect("buffer");
        let le_end = Atom::cmp(&LinExpr::var(&s), Rel::Le, &LinExpr::var(&al.end)).expect("atom");
        let ge_start = Atom::cmp(&LinExpr::var(&s), Rel::Ge, &LinExpr::var(&al.start)).expect("atom");
        assert!(ctx.entails(st, &[le_end, ge_start]));
    }
    let b = built(&g);
    for t in self_loops(&b) {
        let loc = t.from.0 as usize;
        let p = pos_of(&g, &b, loc, 5);
        let s = Term::var(&its_build::position_var(p));
        // s strictly increases on the cycle
        let claim = Formula::gt(t.update[p].clone(), s);
        assert!(smt::entails(&t.guard, &claim, &Budget::unlimited(std::time::Duration::from_secs(10))));
    }
    let a = run(&m, IntSemantics::C);
    assert_eq!(a.memory_safety, MemorySafety::Proved);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

#[test]
fn strlen_unterminated_reaches_error_state() {
    let m = strlen_program(false);
    let a = run(&m, IntSemantics::C);
    assert!(matches!(a.memory_safety, MemorySafety::Unknown { .. }), "{:?}", a.memory_safety);
    assert!(matches!(a.termination, Termination::Maybe { .. }));
    assert!(!a.error_inputs.is_empty());
    assert_eq!(a.error_inputs[0].len(), 1);
    assert!(a.error_inputs[0][0].1 > 0);
}

/// `unsigned x = nondet(); unsigned j = 0; while (j <= x) j++;` (wrapping `add`, `icmp ule`)
fn unsigned_le() -> Module {
    let main = func(
        "main",
        vec![],
        vec![
            block("entry", vec![call(Some(0), 1, vec![], Type::Int(32))], br(1)),
            block("loop", vec![phi(1, Type::Int(32), vec![(c(32, 0), 0), (l(3), 2)]), icmp(2, IntPred::Ule, l(1), l(0))], condbr(l(2), 2, 3)),
            block("body", vec![bin(3, BinOp::Add, false, l(1), c(32, 1))], br(1)),
            block("exit", vec![], ret0()),
        ],
        &[(1, "j"), (0, "x")],
    );
    module(main, vec![])
}

#[test]
fn unsigned_wraparound_is_kept_in_the_its() {
    for sem in [IntSemantics::C, IntSemantics::Wrap, IntSemantics::Math] {
        let m = unsigned_le();
        let (g, _ctx) = graph_of(&m, sem);
        assert!(g.incomplete.is_none(), "{:?}", g.incomplete);
        assert!(g.errors().is_empty());
        let b = built(&g);
        // some cycle transition lets j drop (the wrap from UINT_MAX to 0): never a valid
        // ranking argument on j alone.
        let mut can_drop = false;
        for t in self_loops(&b) {
            let loc = t.from.0 as usize;
            let p = pos_of(&g, &b, loc, 1);
            let j = Term::var(&its_build::position_var(p));
            let f = Formula::and([t.guard.clone(), Formula::lt(t.update[p].clone(), j)]);
            if smt::check_sat(&f, &Budget::unlimited(std::time::Duration::from_secs(10))) == SatResult::Sat {
                can_drop = true;
            }
        }
        assert!(can_drop, "{sem:?}: the wrap-around run is lost");
        let quick = prove(&m, sem, 3);
        assert!(!matches!(quick.termination, Termination::Yes(_)));
    }
}

fn single_block(instrs: Vec<Instr>) -> Module {
    module(func("main", vec![], vec![block("entry", instrs, ret0())], &[]), vec![])
}

#[test]
fn signed_overflow_is_an_error_in_c_mode_only() {
    let m = single_block(vec![call(Some(0), 1, vec![], Type::Int(32)), bin(1, BinOp::Add, true, l(0), c(32, 1))]);
    let a = run(&m, IntSemantics::C);
    assert!(matches!(&a.memory_safety, MemorySafety::Unknown { reason } if reason.contains("overflow")), "{:?}", a.memory_safety);
    assert_eq!(a.error_inputs, vec![vec![("__VERIFIER_nondet_int".to_string(), i32::MAX as i128)]]);
    assert_eq!(run(&m, IntSemantics::Math).memory_safety, MemorySafety::Proved);
    assert_eq!(run(&m, IntSemantics::Wrap).memory_safety, MemorySafety::Proved);
}

#[test]
fn division_by_possible_zero_is_an_error() {
    let m = single_block(vec![call(Some(0), 1, vec![], Type::Int(32)), bin(1, BinOp::SDiv, false, c(32, 10), l(0))]);
    assert!(matches!(run(&m, IntSemantics::Math).memory_safety, MemorySafety::Unknown { .. }));
    let m = single_block(vec![bin(1, BinOp::SDiv, false, c(32, -7), c(32, 2))]);
    assert_eq!(run(&m, IntSemantics::C).memory_safety, MemorySafety::Proved);
}

/// Found by the differential check (generated program gen_1076.c: `a = nondet() % -1` was
/// YES / memory safety proved; a native run with INT_MIN traps under UBSan). INT_MIN % -1
/// and INT_MIN / -1 are undefined behaviour in `c` and `wrap`, as in the interpreter.
#[test]
fn remainder_and_division_by_minus_one_may_overflow() {
    for op in [BinOp::SRem, BinOp::SDiv] {
        let m = single_block(vec![call(Some(0), 1, vec![], Type::Int(32)), bin(1, op, false, l(0), c(32, -1))]);
        for sem in [IntSemantics::C, IntSemantics::Wrap] {
            let a = run(&m, sem);
            assert!(matches!(&a.memory_safety, MemorySafety::Unknown { reason } if reason.contains("overflow")), "{op:?} {sem:?}: {:?}", a.memory_safety);
        }
        assert_eq!(run(&m, IntSemantics::Math).memory_safety, MemorySafety::Proved, "{op:?}");
        // A dividend known to be above INT_MIN cannot overflow.
        let m = single_block(vec![bin(1, op, false, c(32, -7), c(32, -1))]);
        assert_eq!(run(&m, IntSemantics::C).memory_safety, MemorySafety::Proved, "{op:?}");
    }
}

#[test]
fn alloca_load_store_in_and_out_of_bounds() {
    let ok = single_block(vec![
        ins(Some(0), Op::Alloca { elem_size: 4, count: c(32, 2), count_bits: 32 }),
        ins(Some(1), Op::PtrAdd { base: l(0), offset: 4, indices: vec![], inbounds: true }),
        ins(None, Op::Store { ty: Type::Int(32), value: c(32, 5), ptr: l(1), size: 4 }),
        ins(Some(2), Op::Load { ty: Type::Int(32), ptr: l(1), size: 4 }),
        icmp(3, IntPred::Eq, l(2), c(32, 5)),
        ins(None, Op::Call { callee: Callee::Direct(FuncId(4)), args: vec![l(3)], ret: Type::Void }),
    ]);
    let (g, _) = graph_of(&ok, IntSemantics::C);
    assert!(g.errors().is_empty());
    // the load returns the stored value: the comparison is decided, no refinement
    assert_eq!(g.nodes.iter().filter(|n| n.alive).count(), 2);
    let bad = single_block(vec![
        ins(Some(0), Op::Alloca { elem_size: 4, count: c(32, 2), count_bits: 32 }),
        ins(Some(1), Op::PtrAdd { base: l(0), offset: 6, indices: vec![], inbounds: true }),
        ins(Some(2), Op::Load { ty: Type::Int(32), ptr: l(1), size: 4 }),
    ]);
    let a = run(&bad, IntSemantics::C);
    assert!(matches!(&a.memory_safety, MemorySafety::Unknown { reason } if reason.contains("load") && reason.contains("t.c:7")), "{:?}", a.memory_safety);
}

#[test]
fn null_and_nonpositive_alloca_are_errors() {
    let null = single_block(vec![ins(Some(0), Op::Load { ty: Type::Int(32), ptr: Operand::NullPtr, size: 4 })]);
    assert!(matches!(run(&null, IntSemantics::C).memory_safety, MemorySafety::Unknown { .. }));
    let zero = single_block(vec![call(Some(0), 1, vec![], Type::Int(32)), ins(Some(1), Op::Alloca { elem_size: 4, count: l(0), count_bits: 32 })]);
    assert!(matches!(run(&zero, IntSemantics::C).memory_safety, MemorySafety::Unknown { .. }));
}

#[test]
fn malloc_free_and_double_free() {
    let once = single_block(vec![
        call(Some(0), 3, vec![c(64, 8)], Type::Ptr),
        ins(None, Op::Store { ty: Type::Int(32), value: c(32, 1), ptr: l(0), size: 4 }),
        call(None, 2, vec![l(0)], Type::Void),
    ]);
    assert_eq!(run(&once, IntSemantics::C).memory_safety, MemorySafety::Proved);
    let twice = single_block(vec![call(Some(0), 3, vec![c(64, 8)], Type::Ptr), call(None, 2, vec![l(0)], Type::Void), call(None, 2, vec![l(0)], Type::Void)]);
    assert!(matches!(&run(&twice, IntSemantics::C).memory_safety, MemorySafety::Unknown { reason } if reason.contains("free")));
    let use_after_free = single_block(vec![
        call(Some(0), 3, vec![c(64, 8)], Type::Ptr),
        call(None, 2, vec![l(0)], Type::Void),
        ins(Some(1), Op::Load { ty: Type::Int(32), ptr: l(0), size: 4 }),
    ]);
    assert!(matches!(run(&use_after_free, IntSemantics::C).memory_safety, MemorySafety::Unknown { .. }));
}

#[test]
fn refinement_splits_undecided_comparisons_only() {
    let m = single_block(vec![
        call(Some(0), 1, vec![], Type::Int(32)),
        icmp(1, IntPred::Slt, l(0), c(32, 10)),
        icmp(2, IntPred::Slt, c(32, 3), c(32, 10)),
    ]);
    let (g, _) = graph_of(&m, IntSemantics::C);
    // root, two refinement children, two leaves
    assert_eq!(g.nodes.iter().filter(|n| n.alive).count(), 5);
    assert_eq!(g.nodes.iter().filter(|n| matches!(n.end, End::Leaf)).count(), 2);
}

#[test]
fn assume_prunes_contradictory_paths() {
    let m = single_block(vec![
        call(Some(0), 1, vec![], Type::Int(32)),
        icmp(1, IntPred::Sgt, l(0), c(32, 0)),
        ins(Some(2), Op::Cast { op: CastOp::ZExt, from_bits: 1, to_bits: 32, value: l(1) }),
        call(None, 4, vec![l(2)], Type::Void),
        // after assume(x > 0), x + 1 cannot overflow only if x < MAX: still an error in C…
        icmp(3, IntPred::Sgt, l(0), c(32, 0)),
    ]);
    let (g, _) = graph_of(&m, IntSemantics::C);
    // the x ≤ 0 branch ends at the assume: exactly one leaf
    assert_eq!(g.nodes.iter().filter(|n| n.alive && matches!(n.end, End::Leaf)).count(), 1);
}

#[test]
fn unsupported_constructs_give_precise_maybe() {
    let m = single_block(vec![ins(Some(0), Op::Unsupported { text: "fadd double %a, %b".into() })]);
    let a = run(&m, IntSemantics::C);
    assert!(matches!(&a.termination, Termination::Maybe { reason } if reason.contains("fadd") && reason.contains("t.c:7")));
    let mut m = single_block(vec![call(Some(0), 5, vec![], Type::Int(32))]);
    m.functions.push(decl("mystery", Type::Int(32)));
    let a = run(&m, IntSemantics::C);
    assert!(matches!(&a.termination, Termination::Maybe { reason } if reason.contains("mystery")));
}

#[test]
fn infinite_recursion_is_not_proved_and_calls_are_inlined() {
    // f(x) = f(x): summarized (recursive, memory-free); its ITS cycles through the entry
    // without a decrease, so nothing is proved
    let f = func("f", vec![(ValueId(0), Type::Int(32))], vec![block("entry", vec![call(Some(1), 5, vec![l(0)], Type::Int(32))], Terminator::Ret(Some(l(1))))], &[]);
    let main = func("main", vec![], vec![block("entry", vec![call(Some(0), 5, vec![c(32, 1)], Type::Int(32))], ret0())], &[]);
    let a = run(&module(main, vec![f]), IntSemantics::C);
    assert!(matches!(&a.termination, Termination::Maybe { reason } if reason.contains("non-terminating run")), "{:?}", a.termination);
    // g(p) = *p, called with an alloca: the callee's access is checked in the caller's memory
    let g = func(
        "g",
        vec![(ValueId(0), Type::Ptr)],
        vec![block("entry", vec![ins(Some(1), Op::Load { ty: Type::Int(32), ptr: l(0), size: 4 })], Terminator::Ret(Some(l(1))))],
        &[],
    );
    let main = func(
        "main",
        vec![],
        vec![block(
            "entry",
            vec![
                ins(Some(0), Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 }),
                ins(None, Op::Store { ty: Type::Int(32), value: c(32, 3), ptr: l(0), size: 4 }),
                call(Some(1), 5, vec![l(0)], Type::Int(32)),
                icmp(2, IntPred::Eq, l(1), c(32, 3)),
            ],
            ret0(),
        )],
        &[],
    );
    let m = module(main, vec![g]);
    let (gr, _) = graph_of(&m, IntSemantics::C);
    assert!(gr.errors().is_empty());
    assert_eq!(gr.nodes.iter().filter(|n| n.alive).count(), 2, "returned value known: no split");
}

/// `p = alloca(4); *p = nondet(); while (*p > 0) *p = *p - 1;` — the loop variable lives in
/// memory: merging generalizes the PT value, the ITS sees `*p` decrease.
#[test]
fn memory_resident_counter_is_generalized() {
    let main = func(
        "main",
        vec![],
        vec![
            block(
                "entry",
                vec![
                    ins(Some(0), Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 }),
                    call(Some(1), 1, vec![], Type::Int(32)),
                    ins(None, Op::Store { ty: Type::Int(32), value: l(1), ptr: l(0), size: 4 }),
                ],
                br(1),
            ),
            block(
                "loop",
                vec![ins(Some(2), Op::Load { ty: Type::Int(32), ptr: l(0), size: 4 }), icmp(3, IntPred::Sgt, l(2), c(32, 0))],
                condbr(l(3), 2, 3),
            ),
            block(
                "body",
                vec![
                    ins(Some(4), Op::Load { ty: Type::Int(32), ptr: l(0), size: 4 }),
                    bin(5, BinOp::Sub, true, l(4), c(32, 1)),
                    ins(None, Op::Store { ty: Type::Int(32), value: l(5), ptr: l(0), size: 4 }),
                ],
                br(1),
            ),
            block("exit", vec![], ret0()),
        ],
        &[],
    );
    let m = module(main, vec![]);
    let (g, _) = graph_of(&m, IntSemantics::Math);
    assert!(g.incomplete.is_none() && g.errors().is_empty());
    // the generalized loop state still knows the cell of p (with a generalized value)
    let merged = g.nodes.iter().filter(|n| n.alive && n.out.is_empty()).count();
    let _ = merged;
    assert!(g.nodes.iter().any(|n| n.alive && n.gen_point && n.state.pt.len() == 1));
    let a = run(&m, IntSemantics::Math);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

/// `x = nondet(); while (x > 1 && x < 100) x = x * x;` needs the square's facts.
#[test]
fn squares_get_linear_facts() {
    let main = func(
        "main",
        vec![],
        vec![
            block("entry", vec![call(Some(0), 1, vec![], Type::Int(32))], br(1)),
            block("loop", vec![phi(1, Type::Int(32), vec![(l(0), 0), (l(4), 3)]), icmp(2, IntPred::Sgt, l(1), c(32, 1))], condbr(l(2), 2, 4)),
            block("check", vec![icmp(3, IntPred::Slt, l(1), c(32, 100))], condbr(l(3), 3, 4)),
            block("body", vec![bin(4, BinOp::Mul, true, l(1), l(1))], br(1)),
            block("exit", vec![], ret0()),
        ],
        &[(1, "x")],
    );
    let m = module(main, vec![]);
    for sem in [IntSemantics::Math, IntSemantics::C] {
        let a = run(&m, sem);
        assert_eq!(a.memory_safety, MemorySafety::Proved, "{sem:?}");
        assert!(matches!(a.termination, Termination::Yes(_)), "{sem:?}: {:?}", a.termination);
    }
}

#[test]
fn math_mode_inputs_are_unbounded() {
    // x = nondet_int(); y = x + 1 (nsw): no overflow in Math, and x may exceed INT_MAX − 1
    let m = single_block(vec![call(Some(0), 1, vec![], Type::Int(32)), icmp(1, IntPred::Sgt, l(0), c(32, i32::MAX as i128))]);
    let (g, _) = graph_of(&m, IntSemantics::Math);
    assert_eq!(g.nodes.iter().filter(|n| n.alive && matches!(n.end, End::Leaf)).count(), 2, "both outcomes possible");
    let (g, _) = graph_of(&m, IntSemantics::C);
    assert_eq!(g.nodes.iter().filter(|n| n.alive && matches!(n.end, End::Leaf)).count(), 1, "decided by the range");
}

/// A VLA in an inner scope is freed by the `llvm.stackrestore` at the scope's end; reading it
/// through a pointer kept past the scope is a use after scope (proved safe before the fix).
#[test]
fn use_after_stackrestore_is_not_proved_safe() {
    let src = r#"
        int main(void) {
            int *keep;
            {
                int n = 4;
                int vla[n];
                vla[0] = 1;
                keep = vla;
            }
            return *keep;
        }
    "#;
    let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
    let a = run(&m, IntSemantics::Math);
    let MemorySafety::Unknown { reason } = &a.memory_safety else { panic!("use after stackrestore must not be proved safe: {:?}", a.memory_safety) };
    assert!(reason.contains("load"), "the stale load is the problem: {reason}");
}

/// The same VLA loop without the stale pointer stays provable.
#[test]
fn vla_in_loop_without_stale_pointer_is_safe() {
    let src = r#"
        int main(void) {
            int s = 0;
            for (int i = 0; i < 3; i++) {
                int n = 4;
                int vla[n];
                vla[0] = i;
                s += vla[0];
            }
            return s;
        }
    "#;
    let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
    let a = run(&m, IntSemantics::Math);
    assert_eq!(a.memory_safety, MemorySafety::Proved);
}

/// `array_sum.c` of the paper examples (inline copy): the loop pointer `p` loses `p ≡ a
/// (mod 4)` at the merge; the static congruence of `p` restores it for the alloc check.
const ARRAY_SUM: &str = r#"
    #include <stdlib.h>
    extern int __VERIFIER_nondet_int(void);
    unsigned sum(int *a, int n) {
      unsigned s = 0;
      for (int *p = a; p BOUND a + n; p STEP) s += (unsigned)*p;
      return s;
    }
    int main(void) {
      int n = __VERIFIER_nondet_int();
      if (n < 1 || n > 1000000) return 0;
      int *a = malloc(sizeof(int) * n);
      if (a == NULL) return 0;
      for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
      unsigned s = sum(a, n);
      free(a);
      return (int)(s & 0xff);
    }
"#;

fn array_sum(bound: &str, step: &str) -> Proved {
    let src = ARRAY_SUM.replace("BOUND", bound).replace("STEP", step);
    let m = crate::frontend::load_source(&src, crate::driver::InputKind::C).expect("compiles");
    run(&m, IntSemantics::C)
}

#[test]
fn array_sum_moving_pointer_is_safe_and_terminates() {
    let a = array_sum("<", "++");
    assert_eq!(a.memory_safety, MemorySafety::Proved);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

#[test]
fn array_sum_off_by_one_is_not_proved_safe() {
    let a = array_sum("<=", "++");
    let MemorySafety::Unknown { reason } = &a.memory_safety else { panic!("`p <= a + n` reads past the end: {:?}", a.memory_safety) };
    assert!(reason.contains("load"), "the last load is the problem: {reason}");
}

/// Stepping by 2 bytes only gives `p ≡ a (mod 2)`: the 4-byte load at `a + 4n − 2` crosses
/// the end, so the congruence must not make it provable.
#[test]
fn array_sum_half_step_is_not_proved_safe() {
    let a = array_sum("<", "= (int *)((char *)p + 2)");
    let MemorySafety::Unknown { reason } = &a.memory_safety else { panic!("a 2-byte step reads past the end: {:?}", a.memory_safety) };
    assert!(reason.contains("load"), "the last load is the problem: {reason}");
}

// ----- `Math` conversions between signed and unsigned values (SEMANTICS.md, issue 11) -----

fn op64(r: u32, op: BinOp, nsw: bool, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::Bin { op, flags: ArithFlags { nsw, ..Default::default() }, bits: 64, lhs: a, rhs: b })
}
fn icmp_w(r: u32, pred: IntPred, bits: u32, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::ICmp { pred, bits, lhs: a, rhs: b })
}
fn cast(r: u32, op: CastOp, from_bits: u32, to_bits: u32, v: Operand) -> Instr {
    ins(Some(r), Op::Cast { op, from_bits, to_bits, value: v })
}

/// `x = nondet_int()` as local 0 (unbounded under `Math`), then `assume(lo ≤ x ≤ hi)` (locals
/// 60–63), then `body`; `bad` (an i1 local of `body`) leads to a null dereference. Memory safety
/// is proved iff the symbolic execution shows that `bad` is always false.
fn bad_is_unreachable(lo: Option<i128>, hi: Option<i128>, body: Vec<Instr>, bad: u32, sem: IntSemantics) -> bool {
    let mut instrs = vec![call(Some(0), 1, vec![], Type::Int(32))];
    if let Some(lo) = lo {
        instrs.push(icmp(60, IntPred::Sge, l(0), c(32, lo)));
        instrs.push(call(None, 4, vec![l(60)], Type::Void));
    }
    if let Some(hi) = hi {
        instrs.push(icmp(61, IntPred::Sle, l(0), c(32, hi)));
        instrs.push(call(None, 4, vec![l(61)], Type::Void));
    }
    instrs.extend(body);
    let blocks = vec![
        block("entry", instrs, condbr(l(bad), 1, 2)),
        block("bad", vec![ins(Some(62), Op::Load { ty: Type::Int(32), ptr: Operand::NullPtr, size: 4 })], ret0()),
        block("ok", vec![], ret0()),
    ];
    let m = module(func("main", vec![], blocks, &[]), vec![]);
    run(&m, sem).memory_safety == MemorySafety::Proved
}

#[test]
fn math_flagless_product_of_a_positive_int_keeps_its_unsigned_reading() {
    // size_t s = (size_t)x * 4 with x ≥ 1: s's unsigned reading is 4x ≥ 4 (C would wrap for
    // x ≥ 2^62, but C's x is an int; under Math it is unbounded)
    let body = vec![cast(1, CastOp::SExt, 32, 64, l(0)), op64(2, BinOp::Mul, false, l(1), c(64, 4)), icmp_w(3, IntPred::Ult, 64, l(2), c(64, 4))];
    assert!(bad_is_unreachable(Some(1), None, body.clone(), 3, IntSemantics::Math));
    // the product kept beyond 2^64 is not wrapped to a small or negative value
    let body = vec![
        cast(1, CastOp::SExt, 32, 64, l(0)),
        op64(2, BinOp::Mul, true, l(1), c(64, 1 << 62)),
        op64(3, BinOp::Mul, false, l(2), c(64, 4)),
        icmp_w(4, IntPred::Slt, 64, l(3), c(64, 0)),
    ];
    assert!(bad_is_unreachable(Some(1), None, body, 4, IntSemantics::Math));
}

#[test]
fn math_unsigned_decrement_below_zero_wraps() {
    // unsigned y = x − 1 with x = 0: y = −1, whose unsigned reading is 2^32 − 1
    let body = vec![bin(1, BinOp::Add, false, l(0), c(32, -1)), icmp(2, IntPred::Ne, l(1), c(32, -1))];
    assert!(bad_is_unreachable(Some(0), Some(0), body, 2, IntSemantics::Math));
    let body = vec![bin(1, BinOp::Add, false, l(0), c(32, -1)), icmp(2, IntPred::Ult, l(1), c(32, i32::MAX as i128))];
    assert!(bad_is_unreachable(Some(0), Some(0), body, 2, IntSemantics::Math));
    // and from 1 it is exactly 0
    let body = vec![bin(1, BinOp::Add, false, l(0), c(32, -1)), icmp(2, IntPred::Ne, l(1), c(32, 0))];
    assert!(bad_is_unreachable(Some(1), Some(1), body, 2, IntSemantics::Math));
}

#[test]
fn math_unsigned_division_and_shift_read_unsigned() {
    // z = x · 2^30 (nsw, ≥ 2^30 and unbounded); z / 2 and z >> 1 read back as ≥ 2^29
    for op in [BinOp::UDiv, BinOp::LShr] {
        let k = if op == BinOp::UDiv { 2 } else { 1 };
        let body = vec![bin(1, BinOp::Mul, true, l(0), c(32, 1 << 30)), bin(2, op, false, l(1), c(32, k)), icmp(3, IntPred::Ult, l(2), c(32, 1 << 29))];
        assert!(bad_is_unreachable(Some(1), None, body, 3, IntSemantics::Math), "{op:?}");
    }
    let body = vec![bin(1, BinOp::URem, false, l(0), c(32, 10)), icmp(2, IntPred::Sgt, l(1), c(32, 9))];
    assert!(bad_is_unreachable(None, None, body, 2, IntSemantics::Math));
}

#[test]
fn math_signed_to_unsigned_conversion_of_a_negative_value() {
    // −1000 < x < 0: (size_t)x = sext x reads unsigned as 2^64 + x, never below 1000
    let body = vec![cast(1, CastOp::SExt, 32, 64, l(0)), icmp_w(2, IntPred::Ult, 64, l(1), c(64, 1000))];
    assert!(bad_is_unreachable(Some(-999), Some(-1), body.clone(), 2, IntSemantics::Math));
    assert!(!bad_is_unreachable(Some(-999), Some(1), body, 2, IntSemantics::Math), "x ≥ 0 may be small");
    // (unsigned long)(unsigned)x = zext x is 2^32 + x
    let body = vec![cast(1, CastOp::ZExt, 32, 64, l(0)), icmp_w(2, IntPred::Slt, 64, l(1), c(64, (1 << 32) - 999))];
    assert!(bad_is_unreachable(Some(-999), Some(-1), body, 2, IntSemantics::Math));
}

/// `alloca(n * sizeof(int))` with an unbounded `int n ≥ 1` (issue 11): the size's unsigned
/// reading is `4n`, so the allocation is positive and the first element is in bounds.
#[test]
fn math_alloca_of_n_times_sizeof_is_positive() {
    let m = single_block(vec![
        call(Some(0), 1, vec![], Type::Int(32)),
        icmp(1, IntPred::Sge, l(0), c(32, 1)),
        call(None, 4, vec![l(1)], Type::Void),
        cast(2, CastOp::SExt, 32, 64, l(0)),
        op64(3, BinOp::Mul, false, l(2), c(64, 4)),
        ins(Some(4), Op::Alloca { elem_size: 1, count: l(3), count_bits: 64 }),
        ins(None, Op::Store { ty: Type::Int(32), value: c(32, 7), ptr: l(4), size: 4 }),
        // a[n − 1]: the size must stay the linear 4n (exact wrap cases, no fresh multiple)
        bin(5, BinOp::Sub, true, l(0), c(32, 1)),
        cast(6, CastOp::SExt, 32, 64, l(5)),
        ins(Some(7), Op::PtrAdd { base: l(4), offset: 0, indices: vec![GepIndex { value: l(6), bits: 64, scale: 4 }], inbounds: true }),
        ins(None, Op::Store { ty: Type::Int(32), value: c(32, 7), ptr: l(7), size: 4 }),
    ]);
    assert_eq!(run(&m, IntSemantics::Math).memory_safety, MemorySafety::Proved);
    assert_eq!(run(&m, IntSemantics::C).memory_safety, MemorySafety::Proved);
}

const COUNTDOWN_U: &str = "extern int __VERIFIER_nondet_int(void);\n\
    int main(void) { int n = __VERIFIER_nondet_int(); int s = 0;\n\
    for (unsigned i = n; i >= 0; i--) { s = 1 - s; }\n\
    return s; }";

/// The unsigned countdown stays non-terminating under `Math` (0 − 1 wraps), also for a small
/// `n ≥ 0`, while the same loop with `i > 0` terminates.
#[test]
fn math_unsigned_countdown_is_not_proved_terminating() {
    let m = crate::frontend::load_source(COUNTDOWN_U, crate::driver::InputKind::C).expect("compiles");
    let p = run(&m, IntSemantics::Math);
    assert!(!matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    let bounded = COUNTDOWN_U.replace("int s = 0;", "int s = 0; if (n < 0 || n > 1000) return 0;");
    let m = crate::frontend::load_source(&bounded, crate::driver::InputKind::C).expect("compiles");
    let p = run(&m, IntSemantics::Math);
    assert!(!matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
    let m = crate::frontend::load_source(&bounded.replace("i >= 0", "i > 0"), crate::driver::InputKind::C).expect("compiles");
    let p = run(&m, IntSemantics::Math);
    assert!(matches!(p.termination, Termination::Yes(_)), "{:?}", p.termination);
}

#[test]
fn graph_location_strips_the_termination_refinements() {
    assert_eq!(graph_location("main:while.cond#40"), "main:while.cond#40");
    assert_eq!(graph_location("main:while.cond#40@12"), "main:while.cond#40");
    assert_eq!(graph_location("main:while.cond#40[+-+]"), "main:while.cond#40");
    assert_eq!(graph_location("main:while.cond#40[+-]@7"), "main:while.cond#40");
    assert_eq!(graph_location("main:a[i]"), "main:a[i]");
}

/// The initial state has a block for each global a run from the entry can reach, and for no
/// other (`ir::global_reach`, ARCHITECTURE.md "Globals of an entry").
#[test]
fn initial_state_holds_only_the_entrys_reachable_globals() {
    let src = "int a; int b; int unused; int *p = &a;\n\
               static int get(void) { return p == 0 ? 0 : a; }\n\
               int main(void) { b = 1; return get(); }";
    let m = crate::frontend::load_source(src, crate::driver::InputKind::C).expect("compiles");
    let facts = ModuleFacts::new(&m);
    let budget = Budget::until(Instant::now() + Duration::from_secs(30), Duration::from_secs(10));
    let mut ctx = Ctx::new(&m, &facts, IntSemantics::Math, budget);
    let main = m.function_by_name("main").expect("main");
    let init = initial_state(&mut ctx, &m, main, IntSemantics::Math);
    let mut names: Vec<&str> = init
        .allocs
        .iter()
        .filter_map(|a| match a.kind {
            AllocKind::Global(g) => Some(m.globals[g.0 as usize].name.as_str()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["a", "b", "p"]);
    // the analysis itself still proves it (no global it names is missing; a load through
    // `p` would not be: its initial value is a pointer, an unknown value in the state)
    let proved = run(&m, IntSemantics::Math);
    assert!(matches!(proved.termination, Termination::Yes(_)), "{:?}", proved.termination);
}

/// `x = nondet(); i = 0; while (i < x) i++; j = 0; while (j < i) j++;`
fn two_loops_in_a_row() -> Module {
    let main = func(
        "main",
        vec![],
        vec![
            block("entry", vec![call(Some(0), 1, vec![], Type::Int(32))], br(1)),
            block("fill", vec![phi(1, Type::Int(32), vec![(c(32, 0), 0), (l(3), 2)]), icmp(2, IntPred::Slt, l(1), l(0))], condbr(l(2), 2, 3)),
            block("fill.body", vec![bin(3, BinOp::Add, true, l(1), c(32, 1))], br(1)),
            block("read", vec![phi(4, Type::Int(32), vec![(c(32, 0), 1), (l(6), 4)]), icmp(5, IntPred::Slt, l(4), l(1))], condbr(l(5), 4, 5)),
            block("read.body", vec![bin(6, BinOp::Add, true, l(4), c(32, 1))], br(3)),
            block("exit", vec![], ret0()),
        ],
        &[(0, "x"), (1, "i"), (4, "j")],
    );
    module(main, vec![])
}

/// Session 12 (`graph::Builder::schedule`): the second loop is entered only once the first
/// has converged, so no arrival at the second loop's header that a merge at the first loop's
/// header discards was ever expanded (it waited, and was dropped unexplored; before, the
/// second loop was explored from every intermediate state of that header and thrown away
/// with it); the answer is unchanged.
#[test]
fn the_loop_after_a_loop_is_explored_from_its_converged_header_only() {
    let m = two_loops_in_a_row();
    let (g, _ctx) = graph_of(&m, IntSemantics::C);
    assert!(g.incomplete.is_none(), "{:?}", g.incomplete);
    assert!(g.merges > 0, "the first loop's header is merged");
    let entered = |n: &&graph::Node| n.state.frames.len() == 1 && n.state.top().block == BlockId(3) && n.state.top().prev == Some(BlockId(1));
    let arrivals: Vec<&graph::Node> = g.nodes.iter().filter(entered).collect();
    assert!(!arrivals.is_empty(), "the second loop is reached");
    let wasted = arrivals.iter().filter(|n| !n.alive && !n.out.is_empty()).count();
    assert_eq!(wasted, 0, "{wasted} of the {} arrivals at the second loop were explored and discarded", arrivals.len());
    let a = run(&m, IntSemantics::C);
    assert_eq!(a.memory_safety, MemorySafety::Proved);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

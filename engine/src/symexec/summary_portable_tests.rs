//! Unit tests of the portable form of stored summaries: a round trip, positions remapped by
//! name in a module where they moved, and every mismatch (another function, a missing global,
//! another function key, flipped or truncated bytes) rejected rather than used.

use super::facts::{Atom, Fact};
use super::returns::ReturnSummary;
use super::state::{Alloc, AllocKind, Frame, State};
use super::summary_portable::{decode, encode, ModuleNames};
use super::summary_store::{canonical, StoredSummary};
use crate::driver::InputKind;
use crate::facts::views::View;
use crate::ir::{BlockId, FuncId, GlobalId, Module, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use std::sync::Arc;

const KEY: [u8; 32] = [3; 32];

fn module(src: &str) -> Module {
    crate::frontend::load_source(src, InputKind::C).expect("compiles")
}

fn func(m: &Module, name: &str) -> FuncId {
    m.function_by_name(name).expect("defined")
}

fn global(m: &Module, name: &str) -> GlobalId {
    GlobalId(m.globals.iter().position(|g| g.name == name).expect("global") as u32)
}

/// A summary of `f` whose entry and return state hold the global `g`: x >= 0 ⇒ result = x.
fn summary(m: &Module) -> StoredSummary {
    let (f, g) = (func(m, "f"), global(m, "g"));
    let v = |n: &str| Var::new(n);
    let alloc = Alloc { id: 7, start: v("gs"), end: v("ge"), kind: AllocKind::Global(g), pristine: Some(Arc::new(vec![Some(1), Some(0), Some(0), Some(0)])) };
    let entry = State {
        frames: vec![Frame { func: f, block: BlockId(0), prev: None, idx: 0, lv: [(ValueId(0), v("x"))].into_iter().collect() }],
        kb: vec![Fact::Atom(Atom::var_const(&v("x"), Rel::Ge, 0))],
        allocs: vec![alloc.clone()],
        ..State::default()
    };
    let ret = ReturnSummary {
        entry: 0,
        block: BlockId(0),
        value: Some((v("r"), View::Signed)),
        facts: vec![Fact::Atom(Atom::cmp(&LinExpr::var(&v("r")), Rel::Eq, &LinExpr::var(&v("x"))).expect("atom"))],
        allocs: vec![alloc],
        pt: vec![],
        lists: vec![],
    };
    canonical(f, f, &entry, &[ret])
}

const SRC: &str = "int g = 1;\nint f(int x) { return x + g; }\n";

#[test]
fn a_summary_round_trips_and_is_marked_as_loaded_from_disk() {
    let m = module(SRC);
    let names = ModuleNames::new(&m);
    let s = summary(&m);
    let (key, payload) = encode(&names, &KEY, &s).expect("encodes");
    let back = decode(&names, &KEY, func(&m, "f"), &key, &payload).expect("decodes");
    assert!(back.from_disk);
    assert_eq!(format!("{:?}", (&back.entry, &back.returns)), format!("{:?}", (&s.entry, &s.returns)));
    // Encoding is deterministic: the same summary, the same key and bytes.
    assert_eq!(encode(&names, &KEY, &s), Some((key, payload)));
}

#[test]
fn positions_are_remapped_by_name_in_a_module_where_they_moved() {
    let m = module(SRC);
    let (key, payload) = encode(&ModuleNames::new(&m), &KEY, &summary(&m)).expect("encodes");
    // Another function and another global before them: every position moved.
    let moved = module(&format!("int h0 = 5;\nint before(void) {{ return 0; }}\n{SRC}"));
    assert_ne!(func(&moved, "f"), func(&m, "f"));
    assert_ne!(global(&moved, "g"), global(&m, "g"));
    let back = decode(&ModuleNames::new(&moved), &KEY, func(&moved, "f"), &key, &payload).expect("decodes in the moved module");
    assert_eq!(back.func, func(&moved, "f"));
    assert_eq!(back.entry.frames[0].func, func(&moved, "f"));
    assert_eq!(back.entry.allocs[0].kind, AllocKind::Global(global(&moved, "g")));
    assert_eq!(back.returns[0].allocs[0].kind, AllocKind::Global(global(&moved, "g")));
}

#[test]
fn mismatches_and_damaged_payloads_are_rejected() {
    let m = module(SRC);
    let names = ModuleNames::new(&m);
    let f = func(&m, "f");
    let (key, payload) = encode(&names, &KEY, &summary(&m)).expect("encodes");
    // Asked for another function, under another function key or entry key.
    let other = module("int g = 1;\nint e(int y) { return y; }\nint f(int x) { return x + g; }\n");
    assert!(decode(&ModuleNames::new(&other), &KEY, func(&other, "e"), &key, &payload).is_none());
    assert!(decode(&names, &[4; 32], f, &key, &payload).is_none());
    assert!(decode(&names, &KEY, f, &[0; 32], &payload).is_none());
    // The global the entry names is gone (renamed).
    let renamed = module("int g2 = 1;\nint f(int x) { return x + g2; }\n");
    assert!(decode(&ModuleNames::new(&renamed), &KEY, func(&renamed, "f"), &key, &payload).is_none());
    // Every truncation, and trailing bytes.
    for n in 0..payload.len() {
        assert!(decode(&names, &KEY, f, &key, &payload[..n]).is_none(), "truncated to {n}");
    }
    let mut longer = payload.clone();
    longer.push(0);
    assert!(decode(&names, &KEY, f, &key, &longer).is_none());
    // A flipped byte is either rejected or decodes to a summary whose key differs, which is
    // rejected as well (decoding re-derives the key): never a different summary under `key`.
    for i in 0..payload.len() {
        let mut bad = payload.clone();
        bad[i] ^= 0x01;
        if let Some(s) = decode(&names, &KEY, f, &key, &bad) {
            // Only bytes outside the entry (the return states) can change without changing
            // the key; the envelope's checksum rejects those on disk (cache tests).
            assert_eq!(format!("{:?}", s.entry), format!("{:?}", summary(&m).entry), "byte {i}");
        }
    }
}

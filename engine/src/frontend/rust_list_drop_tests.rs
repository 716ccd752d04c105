//! Tests of `rust_list_drop`: the drop glue of `Option<Box<Node>>` lists becomes a loop, and
//! glue of any other shape is kept.

use super::rust_tests::load_rust;
use crate::ir::*;

/// The `drop_in_place` instances of `m` whose body was replaced (their blocks carry the
/// loop's names).
fn iterated(m: &Module) -> Vec<&Function> {
    m.functions.iter().filter(|f| f.blocks.iter().any(|b| b.name == "list.head")).collect()
}

/// The functions of `m` that `is_list_drop_loop` recognises.
fn recognised(m: &Module) -> Vec<&Function> {
    m.functions.iter().filter(|f| super::is_list_drop_loop(f)).collect()
}

#[test]
fn list_drop_glue_becomes_a_loop_over_the_next_field() {
    let m = load_rust(
        "pub struct Node { pub val: u32, pub next: Option<Box<Node>> }\n\
         #[no_mangle] pub fn two(n: u32) -> u32 { let a = Some(Box::new(Node { val: n, next: None })); let b = Some(Box::new(Node { val: 1, next: a })); b.map_or(0, |x| x.val) }\n",
    );
    let loops = iterated(&m);
    assert_eq!(loops.len(), 1, "{:?}", m.functions.iter().map(|f| &f.name).collect::<Vec<_>>());
    let f = loops[0];
    assert!(f.name.contains("drop_in_place") && f.name.contains("Option"), "{}", f.name);
    // the rewritten glue, and only it, is recognised (symbolic execution runs it in place)
    assert_eq!(recognised(&m).iter().map(|g| &g.name).collect::<Vec<_>>(), [&f.name]);
    // the next field is at offset 0 (rustc puts the pointer first), read before the cell's drop
    let body = &f.blocks[2];
    assert!(matches!(body.instrs[0].op, Op::PtrAdd { offset: 0, .. }));
    assert!(matches!(body.instrs[1].op, Op::Load { ty: Type::Ptr, .. }));
    let Op::Call { callee: Callee::Direct(d), .. } = &body.instrs[3].op else { panic!("{:?}", body.instrs[3]) };
    assert!(m.function(*d).name.contains("Drop4drop"), "{}", m.function(*d).name);
}

#[test]
fn glue_of_nodes_with_more_to_drop_is_kept() {
    // a node that owns a Vec besides its next pointer: its glue drops two fields
    let m = load_rust(
        "pub struct Node { pub data: Vec<u8>, pub next: Option<Box<Node>> }\n\
         #[no_mangle] pub fn one(n: u8) -> usize { let a = Some(Box::new(Node { data: vec![n], next: None })); a.map_or(0, |x| x.data.len()) }\n\
         pub struct Loud { pub next: Option<Box<Loud>> }\n\
         impl Drop for Loud { fn drop(&mut self) { self.next = None; } }\n\
         #[no_mangle] pub fn loud() -> bool { let a = Some(Box::new(Loud { next: None })); a.is_some() }\n",
    );
    assert!(iterated(&m).is_empty(), "{:?}", iterated(&m).iter().map(|f| &f.name).collect::<Vec<_>>());
    // glue left as rustc wrote it is no list drop loop
    assert!(recognised(&m).is_empty());
}

//! Tests of the front end on rustc's bitcode (compiled at test time with the documented
//! flags): unwinding constructs and the Rust types of parameters from debug info.

use super::load_module;
use crate::driver::InputKind;
use crate::ir::*;
use std::path::Path;

/// Compiles `source` as a Rust library with termcheck's flags and loads its bitcode.
pub(crate) fn load_rust(source: &str) -> Module {
    let dir = tempfile::tempdir().expect("temporary folder");
    let rs = dir.path().join("t.rs");
    let bc = dir.path().join("t.bc");
    std::fs::write(&rs, source).expect("write the source");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args(["--crate-type=lib", "--emit=llvm-bc", "-C", "codegen-units=1", "-C", "symbol-mangling-version=v0", "-g"])
        .arg("t.rs")
        .arg("-o")
        .arg(&bc)
        .current_dir(dir.path())
        .output()
        .expect("rustc runs");
    assert!(out.status.success(), "rustc failed: {}", String::from_utf8_lossy(&out.stderr));
    load_module(&bc, InputKind::of(Path::new("t.bc")).expect("bitcode")).expect("bitcode loads")
}

fn function<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.function(m.function_by_name(name).unwrap_or_else(|| panic!("function {name} missing")))
}

#[test]
fn reference_parameters_get_their_rust_types() {
    let m = load_rust(
        "use std::cell::Cell;\n\
         #[no_mangle] pub fn s(v: &[u32], x: u8) -> u32 { v.len() as u32 + x as u32 }\n\
         #[no_mangle] pub fn m(a: &mut u64, b: &u16, c: &Cell<u32>, d: *const u8, e: &mut [i16]) { *a += *b as u64 + c.get() as u64 + d as u64 + e.len() as u64 }\n\
         #[no_mangle] pub fn t(s: &str) -> usize { s.len() }\n\
         #[no_mangle] pub fn big(x: u64) -> [u64; 4] { [x; 4] }\n",
    );
    let rust = |f: &str| function(&m, f).param_attrs.iter().map(|a| a.rust).collect::<Vec<_>>();
    assert_eq!(rust("s"), [Some(RustParam::Slice { mutable: false, elem_size: 4, len_param: 1, freeze: true }), None, None]);
    assert_eq!(
        rust("m"),
        [
            Some(RustParam::Ref { mutable: true, size: 8, freeze: true }),
            Some(RustParam::Ref { mutable: false, size: 2, freeze: true }),
            // `Cell` contains an `UnsafeCell`: not a primitive
            Some(RustParam::Ref { mutable: false, size: 4, freeze: false }),
            // a raw pointer is never a reference
            None,
            Some(RustParam::Slice { mutable: true, elem_size: 2, len_param: 5, freeze: true }),
            None,
        ]
    );
    assert_eq!(rust("t"), [Some(RustParam::Slice { mutable: false, elem_size: 1, len_param: 1, freeze: true }), None]);
    // the return place of a large result (`sret`)
    assert_eq!(rust("big"), [Some(RustParam::Ref { mutable: true, size: 32, freeze: false }), None]);
}

#[test]
fn references_to_std_vecs_of_primitives_get_the_vec_layout() {
    let m = load_rust(
        "#[no_mangle] pub fn v(x: &Vec<u64>, y: &Vec<u8>) -> usize { x.len() + y.len() }\n\
         #[no_mangle] pub fn w(x: &mut Vec<u32>, y: &Vec<String>) -> usize { x.len() + y.len() }\n",
    );
    let rust = |f: &str| function(&m, f).param_attrs.iter().map(|a| a.rust).collect::<Vec<_>>();
    // std's layout today (rustc 1.95): capacity, pointer, length (read from debug info)
    let vec = |mutable, elem_size| Some(RustParam::VecRef { mutable, size: 24, elem_size, ptr_offset: 8, cap_offset: 0, len_offset: 16 });
    assert_eq!(rust("v"), [vec(false, 8), vec(false, 1)]);
    // a `&mut Vec<u32>` gets the layout too (its buffer may be empty and may be moved:
    // `symexec::rust_vec`); a `Vec<String>`'s elements are not primitives: a plain
    // reference without a block
    assert_eq!(rust("w"), [vec(true, 4), Some(RustParam::Ref { mutable: false, size: 24, freeze: false })]);
}

#[test]
fn unwinding_is_translated() {
    let m = load_rust(
        "pub struct D(pub u32);\n\
         impl Drop for D { fn drop(&mut self) { self.0 = 0; } }\n\
         #[inline(never)] pub fn g(x: u32) -> u32 { x + 1 }\n\
         #[no_mangle] pub fn f(x: u32) -> u32 { let d = D(x); g(d.0) }\n",
    );
    let f = function(&m, "f");
    let invoke = f.blocks.iter().find(|b| matches!(b.terminator, Terminator::Invoke { .. })).expect("an invoke");
    assert!(matches!(invoke.instrs.last().map(|i| &i.op), Some(Op::Call { .. })), "the invoked call ends its block");
    let Terminator::Invoke { unwind, .. } = invoke.terminator else { unreachable!() };
    assert!(matches!(f.block(unwind).instrs.first().map(|i| &i.op), Some(Op::LandingPad { .. })));
    assert!(f.blocks.iter().any(|b| matches!(b.terminator, Terminator::Resume(_))));
    assert!(!f.blocks.iter().any(|b| matches!(b.terminator, Terminator::Unsupported { .. })));
}

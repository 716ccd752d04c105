//! Compiles the C half of the example with the `cc` crate (the path termcheck intercepts).

fn main() {
    cc::Build::new().file("csrc/ops.c").compile("ops");
    println!("cargo:rerun-if-changed=csrc/ops.c");
}

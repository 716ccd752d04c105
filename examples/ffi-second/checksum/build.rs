//! Compiles the library's C code with the `cc` crate (the path termcheck intercepts).

fn main() {
    cc::Build::new().include("../../../annotations/include").file("csrc/mix.c").file("csrc/wait.c").compile("mix");
    println!("cargo:rerun-if-changed=csrc");
}

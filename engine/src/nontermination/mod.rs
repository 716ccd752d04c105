//! Program-level non-termination beyond concrete lassos: recurrent sets over mathematical
//! integers for `--int-semantics math` (`math_recurrent`), over an exact integer encoding of
//! one loop iteration (`math_step`, operations in `math_ops`; loops with inner loops cut at every header in
//! `math_nested`; infinite recursions as the loop of their tail-call view in `recursion_as_loop`,
//! searched in `math_recursion` and, bit-precisely under `c`/`wrap`, `recursion_bitvector`;
//! recursions that repeat a concrete state deeper in the stack in `recursion_concrete`), each NO re-checked
//! independently from its witness (`recheck`). The bit-vector counterpart for `c`/`wrap` is
//! `bitprecise::recurrent`.

pub mod header_visits;
pub mod math_nested;
pub mod math_ops;
pub mod math_recursion;
pub mod math_recurrent;
pub mod math_step;
pub mod recheck;
pub mod recursion_as_loop;
pub mod recursion_bitvector;
pub mod recursion_concrete;

pub use math_recurrent::prove_nontermination;
pub use recheck::recheck;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod nested_tests;
#[cfg(test)]
mod recursion_tests;

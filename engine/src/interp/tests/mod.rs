//! Tests of the interpreter on hand-built IR (and, via the front end, on C snippets).

mod arith_tests;
pub(crate) mod builder;
mod c_programs;
mod call_tests;
mod lasso_tests;
mod memory_tests;
mod search_tests;

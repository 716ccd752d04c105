//! Tests of the interpreter on hand-built IR (and, via the front end, on C snippets).

mod arith_tests;
pub(crate) mod builder;
mod c_programs;
mod call_tests;
mod lasso_tests;
mod memory_tests;
mod recursion_repeat_tests;
mod search_tests;

/// The configured run limits (call depth, allocation and stored-state caps).
pub(crate) fn run_limits() -> crate::config::RunLimits {
    crate::config::Config::new(crate::verdict::IntSemantics::C, std::time::Duration::from_secs(60)).witnesses().run
}

//! The process exit codes of `cargo termcheck` (README, "Exit codes").

/// Every finding is within the policy (warnings included).
pub const POLICY_MET: i32 = 0;
/// At least one finding at level `deny`.
pub const POLICY_VIOLATED: i32 = 1;
/// Bad arguments or a bad termcheck.toml: no analysis result.
pub const USAGE_OR_CONFIG_ERROR: i32 = 2;
/// The workspace did not build, or termcheck failed internally (cargo's failure code).
pub const BUILD_OR_INTERNAL_FAILURE: i32 = 101;

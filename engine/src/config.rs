//! The one configuration of an analysis run: the integer semantics, every time limit and time
//! share, and every hard limit of the provers, validated where it is set.
//!
//! Rules (see ARCHITECTURE.md, "Config"):
//! - no prover holds a `Duration` literal, a time share or a resource limit of its own: it gets
//!   what it needs from here (or a budget derived from here) as an argument;
//! - a `Config` is built explicitly ([`Config::new`] documents the defaults) and passed
//!   explicitly; there is no `Default` and no global;
//! - [`Config::fingerprint`] hashes every field that can change a result, for the future
//!   summary cache.

use crate::ir::fingerprint::ContentHash;
use crate::verdict::IntSemantics;
use serde::Serialize;
use std::num::NonZeroUsize;
use std::time::Duration;

/// A setting out of its valid range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("invalid setting `{setting}`: {reason}")]
#[diagnostic(code(termcheck::config::invalid))]
pub struct ConfigError {
    pub setting: &'static str,
    pub reason: String,
}

/// Stack of each worker thread of a whole-module run (as the CLI's analysis thread has for
/// one function): symbolic execution and the provers recurse over deep programs, and 2 MiB,
/// rayon's default, is not enough. Reserved, not committed, until used.
pub const WORKER_STACK_BYTES: usize = 256 << 20;

/// A fraction of the time left, in (0, 1].
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct Share(f64);

impl Share {
    pub fn new(fraction: f64) -> Result<Share, ConfigError> {
        if fraction > 0.0 && fraction <= 1.0 {
            Ok(Share(fraction))
        } else {
            Err(ConfigError { setting: "share", reason: format!("{fraction} is not in (0, 1]") })
        }
    }
    pub fn fraction(self) -> f64 {
        self.0
    }
    /// `self` of `d`.
    pub fn of(self, d: Duration) -> Duration {
        d.mul_f64(self.0)
    }
}

/// How the pipeline splits the time of one function between its provers.
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct TimeShares {
    /// The bit-vector prover runs first with this share (it gives up at once outside its
    /// scope: memory, recursion, irreducible loops).
    pub bit_precise: Share,
    /// Symbolic execution (graph and its ITS proof): this share of what is left.
    pub symexec: Share,
    /// The lasso search's share of the witness-search time; the rest is for the recurrent-set
    /// NO (bit-vector under `c`/`wrap`, over mathematical integers under `math`).
    pub lasso_search: Share,
    /// Whole-module runs: the share of a function's budget for the first attempt, in which
    /// calls of callees already proved for all arguments are not executed (see
    /// `pipeline::prove_function_assuming`); the rest, if it does not prove the function,
    /// is for the attempt that executes them in place.
    pub assumed_callees: Share,
    /// The share of symbolic execution's time for the attempt in which non-recursive callees
    /// go through summaries (`SymexecLimits::callee_summaries`); if that attempt does not
    /// prove the function, the rest is for the attempt that executes them in place.
    pub summarized_callees: Share,
    /// The share of the symbolic-execution time left after a first attempt that did not
    /// prove the function for the second attempt with per-cell value ranges of list
    /// invariants (`SymexecLimits::list_value_ranges`, `ListValueRanges::Retry`).
    pub list_value_ranges: Share,
}

/// Which non-recursive defined callees symbolic execution analyses through summaries
/// (seed 002: call abstraction, entry, return states, intersection) instead of executing
/// them in place. Recursive callees always go through summaries; single-block callees are
/// always executed in place (the paper's footnote 5).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum CalleeSummaries {
    /// Every non-recursive callee is executed in place.
    Off,
    /// Callees with a loop of their own go through summaries.
    WithLoops,
    /// Every callee with more than one block goes through summaries.
    Branching,
}

/// Whether list invariants carry per-cell value ranges (`symexec::lists_ranges`: every
/// cell's value of an integer field lies in constant bounds). Ranges make a walk that sums
/// the cells' values provably free of overflow, but a range that differs between the states
/// of a loop costs merges; so by default they are tried only when the attempt without them
/// does not prove the function.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub enum ListValueRanges {
    /// Never.
    Off,
    /// In the only attempt.
    On,
    /// A second attempt with ranges when the first, without them, is not proved and its
    /// graph folded a list with an integer field (`pipeline::with_list_value_ranges`).
    Retry,
}

/// Limits of symbolic execution (graph construction and graph → ITS).
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct SymexecLimits {
    /// Per-query z3 limit during graph construction (entailment, models).
    pub query_limit: Duration,
    /// Graph nodes at most.
    pub max_nodes: usize,
    /// Merges at one call-stack position at most (generalization that does not converge).
    pub max_merges_per_position: usize,
    /// From this many merges at one position on, a merge widens by families: when the new
    /// state refutes one bound of a linear form, every bound of that form is dropped
    /// (`generalize::merge_widening`), instead of one bound per merge.
    pub widen_families_after_merges: usize,
    /// Symbolic execution steps at most.
    pub max_steps: usize,
    /// Construction stops after this many error states.
    pub max_errors: usize,
    /// Transitions of the ITS built from the graph at most.
    pub max_its_transitions: usize,
    /// Which non-recursive callees go through summaries (first attempt, see
    /// `TimeShares::summarized_callees`).
    pub callee_summaries: CalleeSummaries,
    /// Stored entries of one function (module-wide summary store) a caller may see before a
    /// call that none of them covers is widened with the newest of them instead of getting
    /// an entry of its own (seed 002 §2.4(c), `graph::Builder::widen_against_store`).
    pub max_stored_entries_per_function: usize,
    /// Per-cell value ranges of list invariants (see [`ListValueRanges`]).
    pub list_value_ranges: ListValueRanges,
    /// Work bounds of the Fourier–Motzkin step of every projection (see [`ProjectionLimits`]).
    pub projection: ProjectionLimits,
}

/// Work bounds of the Fourier–Motzkin elimination at every projection of a KB
/// (`symexec::projection::eliminate_bounds`): a dying variable is eliminated only when the
/// products of its lower and upper bounds (after redundant ones are removed) are at most
/// `max_pairs_per_variable`, and one projection adds at most `max_new_facts` facts. Facts
/// not passed on are dropped, a sound weakening: the bounds trade precision for work.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct ProjectionLimits {
    pub max_pairs_per_variable: usize,
    pub max_new_facts: usize,
}

impl Default for ProjectionLimits {
    /// 36 pairs (6 × 6 bounds) per variable, 64 new facts per projection (session 9's caps).
    fn default() -> ProjectionLimits {
        ProjectionLimits { max_pairs_per_variable: 36, max_new_facts: 64 }
    }
}

/// Shares of the ITS termination portfolio (`termination::analyse`), each of the time left
/// when the step starts.
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct PortfolioShares {
    /// Linear rank-and-remove on the prepared ITS.
    pub linear_ranking: Share,
    /// Lasso search for a non-terminating run.
    pub lasso: Share,
    /// Multiphase rank-and-remove on the prepared ITS.
    pub multiphase_ranking: Share,
    /// Rank-and-remove on the ITS strengthened by invariants.
    pub strengthened_ranking: Share,
    /// Rank-and-remove on the ITS whose stuck SCC is split by guard predicates.
    pub split_ranking: Share,
}

/// Limits of the ITS termination back end.
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct TerminationLimits {
    /// Per-query z3 limit.
    pub query_limit: Duration,
    pub shares: PortfolioShares,
}

/// Limits of the bit-vector provers (`bitprecise`).
#[derive(Clone, Copy, PartialEq, Debug, Serialize)]
pub struct BitPreciseLimits {
    /// Per-query z3 limit of the YES prover (`bitprecise::termination`).
    pub query_limit: Duration,
    /// Per-query z3 limit of the recurrent-set Houdini rounds and closure re-check
    /// (`bitprecise::recurrent`).
    pub recurrent_query_limit: Duration,
    /// Per-query z3 limit of one attempt to drop a conjunct of a closed recurrent set.
    pub recurrent_minimize_query_limit: Duration,
    /// Interpreter steps of the observation run that finds the loop a run is stuck in.
    pub observation_steps: u64,
    /// Largest path condition or value (nodes, counted as a tree) the bit-vector region
    /// encoder builds before it gives the region up as unsupported (`bitprecise::encode`).
    pub max_region_nodes: usize,
    /// Most cells of one array that a variable-index access of a loop may range over in the
    /// math recurrent-set encoding (`nontermination::math_step`); each is a state variable.
    pub max_array_cells: usize,
}

/// Limits of one concrete interpreter run (`interp::RunConfig`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct RunLimits {
    /// Frames on the call stack before `DepthLimit`.
    pub max_call_depth: usize,
    /// Largest single allocation simulated (bigger ones stop with `Unsupported`).
    pub max_alloc_bytes: u64,
    /// Caps on the states kept for lasso detection (beyond them, no new states are stored).
    pub max_stored_states: usize,
    pub max_stored_bytes: usize,
}

/// Limits of the witness search and replays (`interp`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
pub struct WitnessLimits {
    /// Error-state input candidates of symbolic execution replayed at most.
    pub max_replayed_candidates: usize,
    /// Runs of the input-strategy portfolio at most.
    pub search_runs: usize,
    /// Steps of one search run.
    pub search_steps_per_run: u64,
    /// Steps of the replay of one candidate input sequence.
    pub replay_steps: u64,
    pub run: RunLimits,
}

/// Everything an analysis run may be told: semantics, time, limits.
#[derive(Clone, PartialEq, Debug)]
pub struct Config {
    int_semantics: IntSemantics,
    timeout: Duration,
    function_timeout: Duration,
    /// Per-function overrides of `function_timeout`, by symbol (a policy's `[[timeout]]`).
    function_timeouts: std::collections::BTreeMap<String, Duration>,
    jobs: NonZeroUsize,
    shares: TimeShares,
    symexec: SymexecLimits,
    termination: TerminationLimits,
    bitprecise: BitPreciseLimits,
    witnesses: WitnessLimits,
    /// Extra clang arguments for C inputs (`prove -I/-D/--clang-arg`): they change the
    /// program, so they are part of the fingerprint.
    clang_args: Vec<String>,
    /// Where rustc bitcode's std definitions are cached once extracted from the sysroot
    /// (`frontend::std_bitcode`; `None`: extracted in memory). Never changes a result (the
    /// linked code is part of every caller's fingerprint), so not part of the fingerprint.
    std_bitcode_cache: Option<std::path::PathBuf>,
    /// Set by a caller that gives up on the analysis (its timeout or memory limit fired):
    /// the analysis then stops at its next deadline check (`crate::cancel`). Never changes a
    /// result, so not part of the fingerprint.
    cancel: crate::cancel::CancelToken,
}

/// Fingerprint format; bump when the meaning of a fingerprinted field changes.
const FINGERPRINT_VERSION: u32 = 1;

impl Config {
    /// The configuration with today's defaults for `int_semantics` and a wall-clock `timeout`
    /// for the whole run:
    /// - `function_timeout` = `timeout` (one function may use the whole run), `jobs` = 1;
    /// - time shares: bit-vector prover 30%, then symbolic execution 75% of the rest, the
    ///   lasso search 60% of the witness time (rest: recurrent sets);
    /// - symbolic execution: 2 s per z3 query, 20 000 nodes, 12 merges per position,
    ///   2 000 000 steps, stop after 3 error states, ITS of at most 5 000 transitions;
    ///   non-recursive callees with a loop of their own through summaries in a first attempt
    ///   with 50% of symbolic execution's time (then executed in place in the rest); list
    ///   value ranges in a second attempt with 60% of the time the first one left;
    /// - ITS back end: 10 s per query; portfolio shares 50% linear ranking, 50% lasso search,
    ///   40% multiphase ranking, 60% ranking with invariants;
    /// - bit-vector provers: 5 s per query (YES), 10 s / 2 s (recurrent-set Houdini and
    ///   re-check / minimization), observation runs of 200 000 steps, arrays of at most 16
    ///   cells behind variable indices in math recurrent sets;
    /// - witnesses: 32 replayed error candidates, 200 search runs of 200 000 steps, replays of
    ///   1 000 000 steps; runs with 10 000 frames, 1 MiB per allocation, 200 000 stored
    ///   states and 256 MiB of stored state.
    pub fn new(int_semantics: IntSemantics, timeout: Duration) -> Config {
        Config {
            int_semantics,
            timeout,
            function_timeout: timeout,
            function_timeouts: std::collections::BTreeMap::new(),
            jobs: NonZeroUsize::MIN,
            shares: TimeShares { bit_precise: Share(0.3), symexec: Share(0.75), lasso_search: Share(0.6), assumed_callees: Share(0.3), summarized_callees: Share(0.5), list_value_ranges: Share(0.6) },
            symexec: SymexecLimits {
                query_limit: Duration::from_secs(2),
                max_nodes: 20_000,
                max_merges_per_position: 12,
                widen_families_after_merges: 8,
                max_steps: 2_000_000,
                max_errors: 3,
                max_its_transitions: 5000,
                callee_summaries: CalleeSummaries::WithLoops,
                max_stored_entries_per_function: 4,
                list_value_ranges: ListValueRanges::Retry,
                projection: ProjectionLimits::default(),
            },
            termination: TerminationLimits {
                query_limit: Duration::from_secs(10),
                shares: PortfolioShares {
                    linear_ranking: Share(0.5),
                    lasso: Share(0.5),
                    multiphase_ranking: Share(0.4),
                    strengthened_ranking: Share(0.6),
                    split_ranking: Share(0.5),
                },
            },
            bitprecise: BitPreciseLimits {
                query_limit: Duration::from_secs(5),
                recurrent_query_limit: Duration::from_secs(10),
                recurrent_minimize_query_limit: Duration::from_secs(2),
                observation_steps: 200_000,
                max_region_nodes: 100_000,
                max_array_cells: 16,
            },
            witnesses: WitnessLimits {
                max_replayed_candidates: 32,
                search_runs: 200,
                search_steps_per_run: 200_000,
                replay_steps: 1_000_000,
                run: RunLimits { max_call_depth: 10_000, max_alloc_bytes: 1 << 20, max_stored_states: 200_000, max_stored_bytes: 256 << 20 },
            },
            clang_args: Vec::new(),
            std_bitcode_cache: None,
            cancel: crate::cancel::CancelToken::new(),
        }
    }

    /// The token that stops this analysis: the caller keeps a clone and cancels it when it
    /// gives up on the analysis (timeout, memory limit).
    pub fn with_cancel(mut self, token: crate::cancel::CancelToken) -> Config {
        self.cancel = token;
        self
    }

    pub fn cancel_token(&self) -> &crate::cancel::CancelToken {
        &self.cancel
    }

    /// Extra arguments passed to clang when a C input is compiled (after termcheck's own
    /// flags, before the file): `-I DIR`, `-D NAME[=VAL]`, any `--clang-arg`.
    pub fn with_clang_args(mut self, args: Vec<String>) -> Config {
        self.clang_args = args;
        self
    }

    /// Where extracted std bitcode is cached (`frontend::std_bitcode`).
    pub fn with_std_bitcode_cache(mut self, dir: Option<std::path::PathBuf>) -> Config {
        self.std_bitcode_cache = dir;
        self
    }

    pub fn std_bitcode_cache(&self) -> Option<&std::path::Path> {
        self.std_bitcode_cache.as_deref()
    }

    /// Wall-clock budget of one function (at most the whole run's).
    pub fn with_function_timeout(mut self, function_timeout: Duration) -> Result<Config, ConfigError> {
        if function_timeout.is_zero() {
            return Err(ConfigError { setting: "function_timeout", reason: "must be positive".into() });
        }
        self.function_timeout = function_timeout;
        Ok(self)
    }

    /// Wall-clock budget of the function named `symbol`, overriding `function_timeout` for it
    /// (may be longer or shorter; still at most the whole run's).
    pub fn with_function_timeout_for(mut self, symbol: &str, function_timeout: Duration) -> Result<Config, ConfigError> {
        if function_timeout.is_zero() {
            return Err(ConfigError { setting: "function_timeouts", reason: format!("the limit of `{symbol}` must be positive") });
        }
        self.function_timeouts.insert(symbol.to_string(), function_timeout);
        Ok(self)
    }

    /// Worker threads of a whole-module run.
    pub fn with_jobs(mut self, jobs: NonZeroUsize) -> Config {
        self.jobs = jobs;
        self
    }

    pub fn with_shares(mut self, shares: TimeShares) -> Config {
        self.shares = shares;
        self
    }

    pub fn with_symexec(mut self, limits: SymexecLimits) -> Result<Config, ConfigError> {
        positive("symexec.query_limit", limits.query_limit)?;
        at_least_one("symexec.max_nodes", limits.max_nodes)?;
        at_least_one("symexec.max_steps", limits.max_steps)?;
        at_least_one("symexec.max_errors", limits.max_errors)?;
        self.symexec = limits;
        Ok(self)
    }

    pub fn with_termination(mut self, limits: TerminationLimits) -> Result<Config, ConfigError> {
        positive("termination.query_limit", limits.query_limit)?;
        self.termination = limits;
        Ok(self)
    }

    pub fn with_bitprecise(mut self, limits: BitPreciseLimits) -> Result<Config, ConfigError> {
        positive("bitprecise.query_limit", limits.query_limit)?;
        positive("bitprecise.recurrent_query_limit", limits.recurrent_query_limit)?;
        positive("bitprecise.recurrent_minimize_query_limit", limits.recurrent_minimize_query_limit)?;
        if limits.max_region_nodes == 0 {
            return Err(ConfigError { setting: "bitprecise.max_region_nodes", reason: "must be positive".into() });
        }
        if limits.max_array_cells == 0 {
            return Err(ConfigError { setting: "bitprecise.max_array_cells", reason: "must be positive".into() });
        }
        self.bitprecise = limits;
        Ok(self)
    }

    pub fn with_witnesses(mut self, limits: WitnessLimits) -> Result<Config, ConfigError> {
        at_least_one("witnesses.run.max_call_depth", limits.run.max_call_depth)?;
        self.witnesses = limits;
        Ok(self)
    }

    pub fn int_semantics(&self) -> IntSemantics {
        self.int_semantics
    }
    /// Wall-clock limit of the whole run.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
    /// Wall-clock limit of one function.
    pub fn function_timeout(&self) -> Duration {
        self.function_timeout
    }
    /// Wall-clock limit of the function named `symbol`: its override, else `function_timeout`.
    pub fn function_timeout_of(&self, symbol: &str) -> Duration {
        self.function_timeouts.get(symbol).copied().unwrap_or(self.function_timeout)
    }
    pub fn jobs(&self) -> NonZeroUsize {
        self.jobs
    }
    pub fn shares(&self) -> &TimeShares {
        &self.shares
    }
    pub fn symexec(&self) -> &SymexecLimits {
        &self.symexec
    }
    pub fn termination(&self) -> &TerminationLimits {
        &self.termination
    }
    pub fn bitprecise(&self) -> &BitPreciseLimits {
        &self.bitprecise
    }
    pub fn witnesses(&self) -> &WitnessLimits {
        &self.witnesses
    }
    pub fn clang_args(&self) -> &[String] {
        &self.clang_args
    }

    /// The fingerprint of everything that shapes one function's analysis: as
    /// [`Config::fingerprint`] without the whole run's wall-clock limit, which only decides
    /// whether a function is reached in time (a function analysed to the end within its own
    /// budget gets the same report whatever the run's limit was). The report cache's key.
    pub fn function_fingerprint(&self) -> ContentHash {
        let mut c = self.clone();
        c.timeout = Duration::ZERO;
        c.fingerprint()
    }

    /// [`Config::function_fingerprint`] for the function named `symbol`: its own time limit
    /// (override or default) instead of the whole table of per-function overrides, so that
    /// changing one function's limit in termcheck.toml keeps every other function's cache
    /// entries. Without overrides it equals `function_fingerprint()`.
    pub fn function_fingerprint_of(&self, symbol: &str) -> ContentHash {
        let mut c = self.clone();
        c.timeout = Duration::ZERO;
        c.function_timeout = self.function_timeout_of(symbol);
        c.function_timeouts.clear();
        c.fingerprint()
    }

    /// A stable content hash of every field that can change a result: semantics, time
    /// limits, shares and limits. `jobs` is left out (it changes only how fast).
    pub fn fingerprint(&self) -> ContentHash {
        // Destructured so that a new field cannot be forgotten here.
        let Config { int_semantics, timeout, function_timeout, function_timeouts, jobs: _, shares, symexec, termination, bitprecise, witnesses, clang_args, std_bitcode_cache: _, cancel: _ } = self;
        #[derive(Serialize)]
        struct Canonical<'a> {
            version: u32,
            int_semantics: &'a IntSemantics,
            timeout: &'a Duration,
            function_timeout: &'a Duration,
            // Left out when empty, so that configurations without overrides keep their
            // fingerprints (and the report cache its entries).
            #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
            function_timeouts: &'a std::collections::BTreeMap<String, Duration>,
            shares: &'a TimeShares,
            symexec: &'a SymexecLimits,
            termination: &'a TerminationLimits,
            bitprecise: &'a BitPreciseLimits,
            witnesses: &'a WitnessLimits,
            // left out when empty, so that the default configuration keeps its fingerprint
            #[serde(skip_serializing_if = "<[String]>::is_empty")]
            clang_args: &'a [String],
        }
        let canonical = Canonical {
            version: FINGERPRINT_VERSION,
            int_semantics,
            timeout,
            function_timeout,
            function_timeouts,
            shares,
            symexec,
            termination,
            bitprecise,
            witnesses,
            clang_args,
        };
        // Serializing plain structs of numbers and unit enums cannot fail.
        let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
        ContentHash(*blake3::hash(&bytes).as_bytes())
    }
}

fn positive(setting: &'static str, d: Duration) -> Result<(), ConfigError> {
    if d.is_zero() {
        return Err(ConfigError { setting, reason: "must be positive".into() });
    }
    Ok(())
}

fn at_least_one(setting: &'static str, n: usize) -> Result<(), ConfigError> {
    if n == 0 {
        return Err(ConfigError { setting, reason: "must be at least 1".into() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Config {
        Config::new(IntSemantics::C, Duration::from_secs(60))
    }

    #[test]
    fn per_function_timeouts_override_one_function_and_enter_the_fingerprint() {
        let config = base().with_function_timeout(Duration::from_secs(5)).expect("positive");
        let with = config.clone().with_function_timeout_for("slow", Duration::from_secs(300)).expect("positive");
        assert_eq!(with.function_timeout_of("slow"), Duration::from_secs(300));
        assert_eq!(with.function_timeout_of("other"), Duration::from_secs(5));
        assert_ne!(with.fingerprint(), config.fingerprint());
        assert!(config.with_function_timeout_for("slow", Duration::ZERO).is_err());
    }

    #[test]
    fn a_function_timeout_override_changes_only_that_functions_fingerprint() {
        let config = base().with_function_timeout(Duration::from_secs(5)).expect("positive");
        let with = config.clone().with_function_timeout_for("slow", Duration::from_secs(300)).expect("positive");
        assert_eq!(with.function_fingerprint_of("other"), config.function_fingerprint_of("other"));
        assert_eq!(config.function_fingerprint_of("other"), config.function_fingerprint());
        assert_ne!(with.function_fingerprint_of("slow"), config.function_fingerprint_of("slow"));
        // the override is the same as that default for everyone
        let everyone = base().with_function_timeout(Duration::from_secs(300)).expect("positive");
        assert_eq!(with.function_fingerprint_of("slow"), everyone.function_fingerprint_of("slow"));
    }

    #[test]
    fn function_timeout_defaults_to_the_whole_run() {
        assert_eq!(base().function_timeout(), Duration::from_secs(60));
        assert_eq!(base().jobs().get(), 1);
    }

    #[test]
    fn fingerprint_is_stable_and_ignores_jobs() {
        let a = base();
        assert_eq!(a.fingerprint(), base().fingerprint());
        assert_eq!(a.fingerprint().to_string().len(), 64);
        let more_jobs = base().with_jobs(NonZeroUsize::new(4).expect("4 > 0"));
        assert_eq!(a.fingerprint(), more_jobs.fingerprint());
    }

    #[test]
    fn fingerprint_changes_with_every_result_relevant_field() {
        let a = base().fingerprint();
        assert_ne!(a, Config::new(IntSemantics::Math, Duration::from_secs(60)).fingerprint());
        assert_ne!(a, Config::new(IntSemantics::C, Duration::from_secs(61)).fingerprint());
        assert_ne!(a, base().with_function_timeout(Duration::from_secs(5)).expect("positive").fingerprint());
        let limits = SymexecLimits { max_nodes: 7, ..*base().symexec() };
        assert_ne!(a, base().with_symexec(limits).expect("valid").fingerprint());
        let shares = TimeShares { symexec: Share::new(0.5).expect("in range"), ..*base().shares() };
        assert_ne!(a, base().with_shares(shares).fingerprint());
        assert_ne!(a, base().with_clang_args(vec!["-DN=3".into()]).fingerprint());
        assert_eq!(a, base().with_clang_args(vec![]).fingerprint());
    }

    #[test]
    fn out_of_range_settings_are_refused() {
        assert!(Share::new(0.0).is_err());
        assert!(Share::new(1.5).is_err());
        assert!(Share::new(f64::NAN).is_err());
        assert!(Share::new(1.0).is_ok());
        assert!(base().with_function_timeout(Duration::ZERO).is_err());
        let limits = SymexecLimits { max_nodes: 0, ..*base().symexec() };
        assert!(base().with_symexec(limits).is_err());
    }
}

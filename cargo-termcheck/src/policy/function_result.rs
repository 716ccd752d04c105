//! What the workspace command hands to the policy: one engine report per function, the code it
//! could not analyse, and optionally who calls whom.

use std::collections::BTreeMap;
use termcheck_engine::analysis::FunctionReport;

/// Where a function is defined, as the command resolved it (workspace-relative when possible).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct SourceLocation {
    pub file: String,
    pub line: u32,
}

/// The engine's verdicts of one function together with the names the policy matches on.
#[derive(Clone, Debug)]
pub struct FunctionResult {
    /// The workspace crate that owns the function (`None`: unknown, e.g. a C file of no crate).
    pub crate_name: Option<String>,
    /// The symbol in the linked module (the key of the call graph).
    pub symbol: String,
    /// The demangled path (`my_crate::module::func` for v0-mangled Rust, the plain name for C).
    pub path: String,
    pub location: Option<SourceLocation>,
    pub report: FunctionReport,
}

/// Code that got no verdict at all, by name (e.g. C built outside the cc crate, an external
/// function nothing summarises).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NotAnalysed {
    /// What was not analysed: a function name, a library, a file.
    pub what: String,
    /// Why, in words (shown to the user).
    pub reason: String,
    /// The crate it belongs to, when known (crate scopes apply to it).
    pub crate_name: Option<String>,
}

/// Direct calls between functions, by symbol (`caller -> callees`). Used only for the
/// allowed-callee rule (docs/policy.md): it never changes a verdict, it adds the assumptions a
/// caller's proof rests on.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct CallGraph {
    callees: BTreeMap<String, Vec<String>>,
}

impl CallGraph {
    pub fn new() -> CallGraph {
        CallGraph::default()
    }

    /// Records that `caller` calls `callee` directly.
    pub fn add_call(&mut self, caller: impl Into<String>, callee: impl Into<String>) {
        let callees = self.callees.entry(caller.into()).or_default();
        let callee = callee.into();
        if !callees.contains(&callee) {
            callees.push(callee);
        }
    }

    /// The direct callees of `caller` (empty if it calls nothing or is unknown).
    pub fn callees_of(&self, caller: &str) -> &[String] {
        self.callees.get(caller).map_or(&[], Vec::as_slice)
    }
}

impl<C: Into<String>, I: IntoIterator<Item = C>> FromIterator<(C, I)> for CallGraph {
    fn from_iter<T: IntoIterator<Item = (C, I)>>(edges: T) -> CallGraph {
        let mut graph = CallGraph::new();
        for (caller, callees) in edges {
            let caller = caller.into();
            for callee in callees {
                graph.add_call(caller.clone(), callee);
            }
        }
        graph
    }
}

//! Workspace mode, the bare `cargo termcheck`: build the selected members to bitcode (Rust
//! through the rustc wrapper, C through the `cc` shim), link one module per library or binary
//! target, run the engine on every function of the members' own code, print a verdict per
//! function grouped by crate, and exit by the gate (`policy_met`).
//!
//! Exit codes: 0 every reported function terminates and is memory safe; 1 not; 2 usage error
//! (clap); 101 the build failed, a tool is missing, a module could not be linked or the
//! engine failed.

pub mod args;
mod c_bitcode;
mod cargo_build;
mod error;
mod metadata;
mod render;
mod rust_bitcode;
mod units;
mod verdicts;

use args::WorkspaceArgs;
use c_bitcode::NotAnalysed;
use cargo_build::BuildSetup;
use error::WorkspaceError;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use verdicts::{AnalysisOptions, FunctionVerdict, UnitOutcome};

/// Exit code: every reported function is proved.
const EXIT_MET: i32 = 0;
/// Exit code: some reported function is not proved.
const EXIT_NOT_MET: i32 = 1;
/// Exit code: build, toolchain, link or internal failure.
const EXIT_FAILURE: i32 = 101;

/// The default gate: every reported function terminates (YES) and is memory safe (proved).
/// The place where the termcheck.toml policy plugs in.
pub fn policy_met(functions: &[&FunctionVerdict]) -> bool {
    functions.iter().all(|f| render::is_proved(f))
}

/// Runs workspace mode and returns the exit code.
pub fn run(args: WorkspaceArgs) -> i32 {
    match check_workspace(&args) {
        Ok(code) => code,
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        Err(error) => {
            eprintln!("{:?}", miette::Report::new(error));
            EXIT_FAILURE
        }
    }
}

#[allow(clippy::print_stderr, reason = "the CLI reports its progress on stderr, like cargo")]
fn progress(text: &str) {
    eprintln!("   termcheck {text}");
}

fn check_workspace(args: &WorkspaceArgs) -> Result<i32, WorkspaceError> {
    let started = Instant::now();
    let clang = termcheck_engine::frontend::find_clang()
        .map_err(|e| WorkspaceError::MissingTool { tool: "clang-22".into(), detail: e.to_string() })?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = metadata::read_workspace(args, &cargo)?;
    let setup = BuildSetup {
        cargo,
        termcheck_dir: workspace.target_dir.join("termcheck"),
        host: cargo_build::host_triple()?,
        clang,
        member_dirs: workspace.members.iter().map(|m| m.manifest_dir.clone()).collect(),
    };
    let output = cargo_build::run_build(args, &setup)?;

    let is_member = |id: &cargo_metadata::PackageId| workspace.member(id).is_some();
    let mut crates = Vec::new();
    for artifact in output.artifacts.iter().filter(|a| is_member(&a.package_id)) {
        crates.extend(rust_bitcode::crate_bitcode(artifact, &setup.termcheck_dir)?);
    }
    let mut c_bitcode: BTreeMap<cargo_metadata::PackageId, Vec<PathBuf>> = BTreeMap::new();
    let mut not_analysed: Vec<NotAnalysed> = Vec::new();
    for script in output.build_scripts.iter().filter(|s| is_member(&s.package_id)) {
        let name = workspace.member(&script.package_id).map(|m| m.name.clone()).unwrap_or_default();
        let found = c_bitcode::collect(script);
        c_bitcode.entry(script.package_id.clone()).or_default().extend(found.bitcode);
        not_analysed.extend(found.not_analysed.into_iter().map(|n| NotAnalysed { what: format!("{} (package {name})", n.what), why: n.why }));
    }
    for member in workspace.selected.iter().filter_map(|id| workspace.member(id)) {
        for dependency in &member.external_dependencies {
            not_analysed.push(NotAnalysed {
                what: format!("crate `{dependency}` (dependency of {})", member.name),
                why: "outside the workspace: no bitcode, calls into it are unknown".into(),
            });
        }
    }
    not_analysed.sort();
    not_analysed.dedup();

    let units = units::plan(&workspace, &crates, &c_bitcode);
    progress(&format!("built in {:.1} s; checking {} target(s)", started.elapsed().as_secs_f64(), units.len()));
    let analysis_started = Instant::now();
    let options = AnalysisOptions {
        args,
        workspace_root: &workspace.root,
        deadline: analysis_started + Duration::from_secs_f64(args.analysis_timeout),
    };
    let mut seen = HashSet::new();
    let mut outcomes: Vec<UnitOutcome> = Vec::new();
    for unit in &units {
        progress(&format!("checking {}", unit.label));
        let store = crate::cache_choice::store_from(args.without_cache, args.report_cache_dir.clone(), args.report_cache_mode);
        outcomes.push(verdicts::analyse_unit(unit, &options, store, &mut seen));
    }

    let text = render::workspace_text(&outcomes, &not_analysed, started.elapsed().as_secs_f64());
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if outcomes.iter().any(|u| u.failure.is_some()) {
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        for failure in outcomes.iter().filter_map(|u| u.failure.as_deref()) {
            eprintln!("{failure}");
        }
        return Ok(EXIT_FAILURE);
    }
    let functions: Vec<&FunctionVerdict> = outcomes.iter().flat_map(|u| &u.functions).collect();
    Ok(if policy_met(&functions) { EXIT_MET } else { EXIT_NOT_MET })
}

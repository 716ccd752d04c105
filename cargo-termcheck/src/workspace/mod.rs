//! Workspace mode, the bare `cargo termcheck`: build the selected members to bitcode (Rust
//! through the rustc wrapper, C through the `cc` shim), link one module per library or binary
//! target, run the engine on every function of the members' own code, print a verdict per
//! function grouped by crate, and exit by the termcheck.toml policy (`crate::policy`, `gate`).
//!
//! Exit codes: 0 the policy is met; 1 it is violated; 2 usage or configuration error (clap,
//! termcheck.toml); 101 the build failed, a tool is missing, a module could not be linked,
//! the engine failed or the SARIF file could not be written.

pub mod args;
mod c_bitcode;
mod cargo_build;
mod error;
mod metadata;
mod progress;
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
use verdicts::{AnalysisOptions, UnitOutcome};

/// Exit code: build, toolchain, link or internal failure.
const EXIT_FAILURE: i32 = 101;

/// Runs workspace mode and returns the exit code.
pub fn run(args: WorkspaceArgs) -> i32 {
    crate::supervise::set_memory_limit(args.memory_limit);
    match check_workspace(&args) {
        Ok(code) => code,
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        Err(error) => {
            // names, paths and tool output from the input: terminal-safe (`terminal_safe`)
            eprintln!("{}", crate::terminal_safe::report(error));
            EXIT_FAILURE
        }
    }
}

fn check_workspace(args: &WorkspaceArgs) -> Result<i32, WorkspaceError> {
    let started = Instant::now();
    let clang = termcheck_engine::frontend::find_clang()
        .map_err(|e| WorkspaceError::MissingTool { tool: "clang-22".into(), detail: e.to_string() })?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = metadata::read_workspace(args, &cargo)?;
    // The policy is read before the build: a configuration error costs no build time.
    let cwd = std::env::current_dir().unwrap_or_else(|_| workspace.root.clone());
    let explicit = crate::policy::explicit_policy_path(args.policy_path.as_deref(), |k| std::env::var(k).ok());
    let policy = match crate::policy::find_policy(&cwd, &workspace.root, explicit.as_deref()) {
        Ok(policy) => policy,
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        Err(error) => {
            eprintln!("{:?}", miette::Report::new(error));
            return Ok(crate::policy::exit_code::USAGE_OR_CONFIG_ERROR);
        }
    };
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
    let bar = progress::Progress::new(progress::bar_wanted(
        args.message_format == args::MessageFormat::Human,
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
    ));
    bar.line(&format!("built in {:.1} s; checking {} target(s)", started.elapsed().as_secs_f64(), units.len()));
    let analysis_started = Instant::now();
    let options = AnalysisOptions {
        args,
        workspace_root: &workspace.root,
        deadline: analysis_started + Duration::from_secs_f64(args.analysis_timeout),
        policy: &policy,
        std_bitcode_dir: setup.termcheck_dir.join("std-bitcode"),
    };
    let mut seen = HashSet::new();
    let mut outcomes: Vec<UnitOutcome> = Vec::new();
    for unit in &units {
        // After the memory limit stopped a target, its analysis thread still runs and holds
        // the memory: no further target is started, so the run ends (and the thread with it).
        if let Some(megabytes) = crate::supervise::memory_limit_reached() {
            not_analysed.push(NotAnalysed {
                what: format!("target {}", unit.label),
                why: format!("not started: an earlier target's analysis reached the {}", crate::supervise::memory_limit_reason(megabytes).replace(" reached", "")),
            });
            continue;
        }
        bar.line(&format!("checking {}", unit.label));
        let store = crate::cache_choice::store_from(args.without_cache, args.report_cache_dir.clone(), args.report_cache_mode);
        outcomes.push(verdicts::analyse_unit(unit, &options, store, &mut seen, &bar));
    }
    bar.finish();

    if outcomes.iter().any(|u| u.failure.is_some()) {
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        for failure in outcomes.iter().filter_map(|u| u.failure.as_deref()) {
            eprintln!("{}", crate::terminal_safe::escaped(failure));
        }
        return Ok(EXIT_FAILURE);
    }
    Ok(gate(args, &policy, &outcomes, &not_analysed, started.elapsed().as_secs_f64()))
}

/// Applies the termcheck.toml policy (`crate::policy`) to the verdicts, prints them in the
/// chosen format (and SARIF when asked), and returns the exit code: 0 met, 1 violated, 101 when
/// the SARIF file cannot be written.
fn gate(args: &WorkspaceArgs, policy: &crate::policy::Policy, outcomes: &[UnitOutcome], not_analysed: &[NotAnalysed], seconds: f64) -> i32 {
    use crate::policy::{CallGraph, FunctionResult, SourceLocation};
    let policy = match policy_with_annotations(policy, outcomes) {
        Ok(policy) => policy,
        #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
        Err(error) => {
            // the annotation's text and function name come from the input
            eprintln!("{}", crate::terminal_safe::report(error));
            return crate::policy::exit_code::USAGE_OR_CONFIG_ERROR;
        }
    };
    let policy = &policy;
    let results: Vec<FunctionResult> = outcomes
        .iter()
        .flat_map(|u| &u.functions)
        .map(|f| FunctionResult {
            crate_name: f.owner.split_whitespace().next().map(str::to_string),
            symbol: f.report.name.clone(),
            path: f.display_name.clone(),
            location: f.location.as_deref().and_then(|l| {
                let (file, line) = l.rsplit_once(':')?;
                Some(SourceLocation { file: file.to_string(), line: line.parse().ok()? })
            }),
            report: f.report.clone(),
        })
        .collect();
    let unanalysed: Vec<crate::policy::NotAnalysed> =
        not_analysed.iter().map(|n| crate::policy::NotAnalysed { what: n.what.clone(), reason: n.why.clone(), crate_name: None }).collect();
    let calls: CallGraph = outcomes.iter().flat_map(|u| u.calls.iter().cloned()).collect();
    let evaluation = crate::policy::evaluate(policy, &results, &unanalysed, Some(&calls));
    let text = match args.message_format {
        args::MessageFormat::Json => crate::report::render_json_lines(&evaluation),
        args::MessageFormat::Human => {
            let flag = args.color.map(|c| match c {
                args::ColorArg::Auto => crate::report::ColorChoice::Auto,
                args::ColorArg::Always => crate::report::ColorChoice::Always,
                args::ColorArg::Never => crate::report::ColorChoice::Never,
            });
            let color = crate::report::use_color(flag, |k| std::env::var(k).ok(), std::io::IsTerminal::is_terminal(&std::io::stdout()));
            // plain text: every name and path of the input in it is made terminal-safe at once
            let verdicts = crate::terminal_safe::escaped(&render::workspace_text(outcomes, not_analysed, seconds));
            format!("{verdicts}\n{}", crate::report::render_human(&evaluation, color))
        }
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
    if let Some(path) = &args.sarif_path {
        if let Err(error) = std::fs::write(path, crate::report::render_sarif(&evaluation)) {
            #[allow(clippy::print_stderr, reason = "the CLI renders its errors on stderr")]
            {
                eprintln!("error: cannot write the SARIF file {}", crate::terminal_safe::escaped(&format!("{}: {error}", path.display())));
            }
            return EXIT_FAILURE;
        }
    }
    evaluation.exit_code()
}

/// The policy with the source annotations of every unit appended as allow entries (each
/// function's once); an annotation that cannot be read is a configuration error.
fn policy_with_annotations(policy: &crate::policy::Policy, outcomes: &[UnitOutcome]) -> Result<crate::policy::Policy, crate::policy::annotations::AnnotationError> {
    if let Some(bad) = outcomes.iter().flat_map(|u| &u.malformed_annotations).next() {
        return Err(crate::policy::annotations::AnnotationError {
            function: bad.function.as_deref().map(verdicts::display_name).unwrap_or_else(|| "?".into()),
            text: bad.text.clone(),
            problem: bad.problem.clone(),
        });
    }
    let mut annotations: Vec<crate::policy::annotations::SourceAnnotation> = Vec::new();
    for annotation in outcomes.iter().flat_map(|u| &u.annotations) {
        if !annotations.contains(annotation) {
            annotations.push(annotation.clone());
        }
    }
    crate::policy::annotations::with_annotations(policy, &annotations)
}

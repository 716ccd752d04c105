//! `prove FILE --all-functions` beyond the data-driven cases: the reasons printed when the
//! engine gives no report, and the JSON `reason` field.

use std::path::{Path, PathBuf};
use std::time::Duration;
use termcheck_tests::{all_functions, run_binary, Run};

fn cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/all-functions")
}

fn run(extra: &[&str]) -> Run {
    let mut args: Vec<String> = ["prove", "four-functions.c", "--all-functions"].iter().map(|s| s.to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &cases(), &args, Duration::from_secs(60))
}

#[test]
fn without_time_left_every_function_is_maybe_with_the_timeout_as_reason() {
    // Compiling alone takes longer than 10 ms, so no function gets analysed.
    let human = run(&["--timeout", "0.01"]);
    assert_eq!(human.code, Some(0), "{human:?}");
    all_functions::check_contract(&human).unwrap_or_else(|e| panic!("{e}: {human:?}"));
    let (blocks, summary) = all_functions::parse(&human.stdout).expect("the format");
    assert_eq!(blocks.len(), 4, "{human:?}");
    for b in &blocks {
        assert_eq!(b.verdict, "MAYBE");
        assert_eq!(b.evidence.first().map(String::as_str), Some("reason: timeout after 0.01 s"), "{b:?}");
    }
    assert!(summary.starts_with("4 functions: 0 YES, 0 NO, 4 MAYBE;"), "{summary}");

    let json = run(&["--timeout", "0.01", "--format", "json"]);
    assert_eq!(json.code, Some(0), "{json:?}");
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim_end()).expect("one JSON object");
    assert_eq!(v["reason"], "timeout after 0.01 s");
    assert_eq!(v["analysed"], 0);
    assert_eq!(v["functions"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["functions"][0]["termination"]["reason"], "timeout after 0.01 s");
}

#[test]
fn a_finished_run_has_no_reason_and_counts_the_analysed_functions() {
    // Without the cache: the shared test cache of an earlier run would serve every report.
    let json = run(&["--format", "json", "--timeout", "30", "--function-timeout", "10", "--jobs", "2", "--no-cache"]);
    assert_eq!(json.code, Some(0), "{json:?}");
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim_end()).expect("one JSON object");
    assert!(v["reason"].is_null(), "{v}");
    assert_eq!(v["analysed"], 4);
    assert_eq!(v["reused"], 0);
    let names: Vec<&str> = v["functions"].as_array().expect("functions").iter().filter_map(|f| f["name"].as_str()).collect();
    assert_eq!(names, ["countdown", "spin", "deref", "main"]);
}

#[test]
fn a_caller_is_proved_through_stored_callee_summaries() {
    // `stored-summaries.c`: `fill_and_sum`'s own proof and the entry of `sum` built for its
    // call enter the run's summary store; `main`'s calls of both are served from it
    let args: Vec<String> = ["prove", "stored-summaries.c", "--all-functions", "--int-semantics", "math", "--jobs", "2", "--no-cache", "--format", "json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let json = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &cases(), &args, Duration::from_secs(60));
    assert_eq!(json.code, Some(0), "{json:?}");
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim_end()).expect("one JSON object");
    assert!(v["summaries_stored"].as_u64().is_some_and(|n| n >= 2), "{v}");
    assert!(v["calls_served_from_summaries"].as_u64().is_some_and(|n| n >= 2), "{v}");
    let main = v["functions"].as_array().expect("functions").iter().find(|f| f["name"] == "main").expect("main");
    assert_eq!(main["verdict"], "YES", "{main}");
    assert_eq!(main["memory_safety"], "proved", "{main}");
    assert_eq!(main["stats"]["calls served from the summary store"], "2", "{main}");
    assert_eq!(main["stats"]["callee graphs built"], "0", "{main}");
    // the human format prints the counts on stderr
    let human = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &cases(), &args[..args.len() - 2], Duration::from_secs(60));
    assert!(human.stderr.contains("calls served from them"), "{}", human.stderr);
}

/// `prove FILE --all-functions --int-semantics math --jobs 2 --no-cache --format json` on a
/// case of the folder: the run's JSON object (the run must succeed).
fn json_run(file: &str) -> serde_json::Value {
    let args: Vec<String> = ["prove", file, "--all-functions", "--int-semantics", "math", "--jobs", "2", "--no-cache", "--format", "json"].iter().map(|s| s.to_string()).collect();
    let json = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &cases(), &args, Duration::from_secs(60));
    assert_eq!(json.code, Some(0), "{json:?}");
    serde_json::from_str(json.stdout.trim_end()).expect("one JSON object")
}

#[test]
fn a_caller_is_proved_through_a_stored_recursive_callee_summary() {
    // `stored-recursive-summaries.c`: `depth`'s own proof (its recursion
    // included) enters the run's summary store; `walk`'s call of `depth` is served from it,
    // and `walk`'s loop is proved from the stored return states (result >= 0)
    let v = json_run("stored-recursive-summaries.c");
    assert!(v["summaries_stored"].as_u64().is_some_and(|n| n >= 2), "{v}");
    let walk = v["functions"].as_array().expect("functions").iter().find(|f| f["name"] == "walk").expect("walk");
    assert_eq!(walk["verdict"], "YES", "{walk}");
    assert_eq!(walk["stats"]["calls of recursive callees served from the summary store"], "1", "{walk}");
    assert_eq!(walk["stats"]["callee graphs built"], "0", "{walk}");
    assert!(walk["stats"].get("summarized calls").is_some_and(|n| n == "1"), "{walk}");
}

#[test]
fn a_recursive_callee_entry_built_in_one_caller_serves_another() {
    // `recursive-entry-from-a-caller.c`: `sum_rec`'s own analysis stores nothing (a C
    // pointer); the entry built for `fill`'s call, its recursion proved with its subgraph, is
    // stored and serves `main`'s call
    let v = json_run("recursive-entry-from-a-caller.c");
    let main = v["functions"].as_array().expect("functions").iter().find(|f| f["name"] == "main").expect("main");
    assert_eq!(main["verdict"], "YES", "{main}");
    assert_eq!(main["memory_safety"], "proved", "{main}");
    assert_eq!(main["stats"]["calls of recursive callees served from the summary store"], "1", "{main}");
}

//! `--format json`: for every case that runs `prove`, the JSON run exits like the human run and,
//! when it gives a verdict, prints one object of the documented schema (docs/output-format.md)
//! with the same verdicts as the human output.

use std::path::Path;
use std::time::Duration;
use termcheck_tests::{cases_dir, discover_cases, json_shape, run_binary};

const KILL_AFTER: Duration = Duration::from_secs(90);

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
}

#[test]
fn json_output_agrees_with_human_output() {
    let mut failures = Vec::new();
    let mut verdicts = 0;
    let cases = discover_cases(&cases_dir());
    for case in cases.iter().filter(|c| c.args.first().is_some_and(|a| a == "prove")) {
        let human = run_binary(binary(), &case.dir, &case.args, KILL_AFTER);
        let mut args = case.args.clone();
        args.extend(["--format".to_string(), "json".to_string()]);
        let json = run_binary(binary(), &case.dir, &args, KILL_AFTER);
        if json.code != human.code {
            failures.push(format!("{}: exit code {:?} with JSON, {:?} without", case.name, json.code, human.code));
            continue;
        }
        match json.code {
            Some(0) => {
                verdicts += 1;
                if let Err(problem) = json_shape::check_json_output(&json.stdout, &human.stdout) {
                    failures.push(format!("{}: {problem}\n  json: {}", case.name, json.stdout));
                }
            }
            // Bad input: the diagnostic goes to stderr in both formats, stdout stays empty.
            _ if !json.stdout.is_empty() => failures.push(format!("{}: stdout on error: {:?}", case.name, json.stdout)),
            _ => {}
        }
    }
    // Until the engine's front end and ITS parser land, every case is rejected before a verdict
    // (exit 2), so the schema check runs on no case; the renderer's own unit tests cover the
    // schema meanwhile. Report the count so the gap is visible in the test log.
    eprintln!("JSON checked on {verdicts} verdicts");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

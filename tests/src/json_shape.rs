//! Validation of the `--format json` object against docs/output-format.md and against the
//! human output of the same run (both renderings must tell the same verdicts).

use serde_json::Value;

fn expect(cond: bool, what: &str) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(what.to_string())
    }
}

fn check_named_values(v: &Value, what: &str) -> Result<(), String> {
    let items = v.as_array().ok_or(format!("{what} is not an array"))?;
    for item in items {
        expect(item["name"].is_string(), &format!("{what}: entry without a string `name`"))?;
        expect(item["value"].is_i64() || item["value"].is_u64() || item["value"].is_string(), &format!("{what}: bad `value`"))?;
    }
    Ok(())
}

fn check_termination(t: &Value, verdict: &str) -> Result<(), String> {
    expect(t["result"] == verdict, "termination.result differs from verdict")?;
    match verdict {
        "YES" => {
            let components = t["components"].as_array().ok_or("termination.components is not an array")?;
            for c in components {
                let locations = c["locations"].as_array().ok_or("component without locations")?;
                let loops = c["loops"].as_array().ok_or("component without loops")?;
                expect(loops.is_empty() || loops.len() == locations.len(), "component.loops is neither empty (ITS input) nor one entry per location")?;
                for p in c["phases"].as_array().ok_or("component without phases")? {
                    expect(["linear", "multiphase", "bit-vector", "bound"].contains(&p["kind"].as_str().unwrap_or("")), "phase kind is not one of the documented kinds")?;
                    for f in p["functions"].as_array().ok_or("phase without functions")? {
                        expect(f["location"].is_string() && f["function"].is_string(), "ranking function without location/function")?;
                        expect(f["coefficients"].is_object(), "ranking function without coefficients")?;
                    }
                }
            }
            expect(t["notes"].is_array(), "termination.notes is not an array")
        }
        "NO" => {
            check_named_values(&t["inputs"], "termination.inputs")?;
            expect(t["description"].is_array(), "termination.description is not an array")
        }
        _ => expect(t["reason"].as_str().is_some_and(|r| !r.is_empty()), "MAYBE without termination.reason"),
    }
}

fn check_memory(m: &Value, word: &Value) -> Result<(), String> {
    if word.is_null() {
        return expect(m.is_null(), "memory must be null when memory_safety is null");
    }
    expect(m["result"] == *word, "memory.result differs from memory_safety")?;
    match word.as_str() {
        Some("proved") => Ok(()),
        Some("violated") => {
            expect(m["kind"].is_string() && m["message"].is_string(), "violation without kind/message")?;
            expect(m["location"].is_string() || m["location"].is_null(), "violation location is not string/null")?;
            check_named_values(&m["inputs"], "memory.inputs")
        }
        Some("unknown") => expect(m["reason"].is_string(), "unknown memory safety without reason"),
        _ => Err(format!("bad memory_safety {word}")),
    }
}

/// The whole stdout as one line holding one JSON object with exactly the keys `keys` (sorted).
fn single_line_object(stdout: &str, keys: &[&str]) -> Result<Value, String> {
    let trimmed = stdout.trim_end();
    expect(!trimmed.contains('\n'), "JSON output is not a single line")?;
    let v: Value = serde_json::from_str(trimmed).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or("not a JSON object")?;
    let mut got: Vec<&str> = obj.keys().map(String::as_str).collect();
    got.sort_unstable();
    expect(got == keys, &format!("unexpected keys {got:?}"))?;
    Ok(v)
}

/// Checks one JSON output (the whole stdout) against the schema and the human output's header.
pub fn check_json_output(stdout: &str, human_stdout: &str) -> Result<(), String> {
    let v = single_line_object(stdout, &["format_version", "memory", "memory_safety", "stats", "termination", "time_ms", "verdict"])?;
    let verdict = v["verdict"].as_str().ok_or("verdict is not a string")?;
    expect(["YES", "NO", "MAYBE"].contains(&verdict), "verdict is not YES/NO/MAYBE")?;
    let mut human = human_stdout.lines();
    expect(human.next() == Some(verdict), "JSON verdict differs from the human verdict line")?;
    let memory_word = &v["memory_safety"];
    let human_memory = human.next().and_then(|l| l.strip_prefix("memory-safety: "));
    expect(
        memory_word.as_str() == human_memory,
        &format!("JSON memory_safety {memory_word} differs from the human line {human_memory:?}"),
    )?;
    check_termination(&v["termination"], verdict)?;
    check_memory(&v["memory"], memory_word)?;
    expect(v["stats"].is_object(), "stats is not an object")?;
    expect(v["time_ms"].is_u64(), "time_ms is not a non-negative integer")?;
    expect(v["format_version"] == 1, "format_version is not 1")?;
    check_against_schema(&v)
}

/// Validates a `prove` report against the versioned JSON schema of its `format_version`
/// (docs/schema/prove-report-vN.json).
pub fn check_against_schema(v: &Value) -> Result<(), String> {
    let version = v["format_version"].as_u64().ok_or("format_version is not a number")?;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../docs/schema/prove-report-v{version}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("no schema for format_version {version}: {e}"))?;
    let schema: Value = serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let validator = jsonschema::validator_for(&schema).map_err(|e| format!("{} does not compile: {e}", path.display()))?;
    let errors: Vec<String> = validator.iter_errors(v).map(|e| format!("{e} at {}", e.instance_path())).collect();
    expect(errors.is_empty(), &format!("the report does not match {}: {}", path.display(), errors.join("; ")))
}

/// Checks the JSON output of an `--all-functions` run against the schema and against the human
/// output of the same input: the same functions in the same order with the same verdicts.
pub fn check_all_functions_json(stdout: &str, human_stdout: &str) -> Result<(), String> {
    let v = single_line_object(stdout, &["analysed", "calls_served_from_disk", "calls_served_from_summaries", "format_version", "functions", "reason", "reused", "seconds", "summaries_loaded_from_disk", "summaries_stored", "time_ms"])?;
    let (blocks, _) = crate::all_functions::parse(human_stdout)?;
    let functions = v["functions"].as_array().ok_or("functions is not an array")?;
    expect(functions.len() == blocks.len(), &format!("{} functions in JSON, {} blocks in the human output", functions.len(), blocks.len()))?;
    for (f, b) in functions.iter().zip(&blocks) {
        let fkeys: Vec<&str> = f.as_object().ok_or("function is not an object")?.keys().map(String::as_str).collect();
        let mut fkeys = fkeys;
        fkeys.sort_unstable();
        expect(
            fkeys == ["location", "memory", "memory_safety", "name", "seconds", "stats", "termination", "verdict"],
            &format!("unexpected function keys {fkeys:?}"),
        )?;
        let name = f["name"].as_str().ok_or("function without a string name")?;
        let header = match &f["location"] {
            Value::Null => format!("{name} (unknown location)"),
            loc => {
                expect(loc["file"].is_string() && loc["line"].is_u64() && loc["column"].is_u64(), "location is not {file, line, column}")?;
                format!("{name} ({}:{})", loc["file"].as_str().unwrap_or(""), loc["line"])
            }
        };
        expect(header == b.header, &format!("JSON function `{header}` differs from the human block `{}`", b.header))?;
        let verdict = f["verdict"].as_str().ok_or("verdict is not a string")?;
        expect(verdict == b.verdict, &format!("{name}: JSON verdict {verdict} differs from the human {}", b.verdict))?;
        expect(f["memory_safety"].as_str() == Some(b.memory.as_str()), &format!("{name}: memory_safety differs from the human output"))?;
        check_termination(&f["termination"], verdict).map_err(|e| format!("{name}: {e}"))?;
        check_memory(&f["memory"], &f["memory_safety"]).map_err(|e| format!("{name}: {e}"))?;
        expect(f["seconds"].is_number(), "function seconds is not a number")?;
        expect(f["stats"].is_object(), "function stats is not an object")?;
    }
    expect(v["analysed"].is_u64() && v["reused"].is_u64(), "analysed/reused are not counts")?;
    expect(v["summaries_stored"].is_u64() && v["calls_served_from_summaries"].is_u64(), "summary store counts are not counts")?;
    expect(v["summaries_loaded_from_disk"].is_u64() && v["calls_served_from_disk"].is_u64(), "summary cache counts are not counts")?;
    expect(v["seconds"].is_number(), "seconds is not a number")?;
    expect(v["reason"].is_null() || v["reason"].is_string(), "reason is not null or a string")?;
    expect(v["time_ms"].is_u64(), "time_ms is not a non-negative integer")?;
    expect(v["format_version"] == 1, "format_version is not 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_consistent_object_passes() {
        let json = r#"{"verdict":"MAYBE","memory_safety":"unknown","termination":{"result":"MAYBE","reason":"r"},"memory":{"result":"unknown","reason":"m"},"stats":{},"time_ms":3,"format_version":1}"#;
        assert_eq!(check_json_output(json, "MAYBE\nmemory-safety: unknown\nreason: r\n"), Ok(()));
        let its = r#"{"verdict":"NO","memory_safety":null,"termination":{"result":"NO","entry_args":[],"entry_memory":[],"inputs":[{"name":"x","value":1}],"input_cycle":[],"any_further_inputs":false,"description":[],"recurrent_set":null,"its_lasso":null},"memory":null,"stats":{},"time_ms":0,"format_version":1}"#;
        assert_eq!(check_json_output(its, "NO\nnon-termination witness:\n"), Ok(()));
    }

    #[test]
    fn disagreement_and_missing_fields_fail() {
        let json = r#"{"verdict":"YES","memory_safety":"proved","termination":{"result":"YES","components":[],"notes":[]},"memory":{"result":"proved"},"stats":{},"time_ms":3,"format_version":1}"#;
        assert!(check_json_output(json, "MAYBE\nmemory-safety: proved\n").is_err());
        assert!(check_json_output(json, "YES\nmemory-safety: unknown\n").is_err());
        assert!(check_json_output(json, "YES\nmemory-safety: proved\n").is_ok());
        let missing = r#"{"verdict":"MAYBE","memory_safety":null,"termination":{"result":"MAYBE"},"memory":null,"stats":{},"time_ms":3,"format_version":1}"#;
        assert!(check_json_output(missing, "MAYBE\n").is_err());
        assert!(check_json_output("{\"verdict\":\"YES\"}", "YES\n").is_err());
        assert!(check_json_output("YES", "YES\n").is_err());
    }

    const HUMAN: &str = "f (a.c:3)\ntermination: MAYBE\nmemory-safety: unknown\nreason: r\nmemory-safety reason: m\n\n\
                         1 function: 0 YES, 0 NO, 1 MAYBE; memory safety proved for 0, violated for 0, unknown for 1\n";
    const JSON: &str = r#"{"functions":[{"name":"f","location":{"file":"a.c","line":3,"column":0},"verdict":"MAYBE","memory_safety":"unknown","termination":{"result":"MAYBE","reason":"r"},"memory":{"result":"unknown","reason":"m"},"seconds":0.5,"stats":{}}],"analysed":1,"reused":0,"summaries_stored":0,"calls_served_from_summaries":0,"summaries_loaded_from_disk":0,"calls_served_from_disk":0,"seconds":0.5,"reason":null,"time_ms":600,"format_version":1}"#;

    #[test]
    fn all_functions_json_agrees_with_the_blocks() {
        assert_eq!(check_all_functions_json(JSON, HUMAN), Ok(()));
        assert!(check_all_functions_json(&JSON.replace("\"line\":3", "\"line\":4"), HUMAN).is_err());
        assert!(check_all_functions_json(&JSON.replace("\"verdict\":\"MAYBE\"", "\"verdict\":\"YES\""), HUMAN).is_err());
        assert!(check_all_functions_json(&JSON.replace(",\"reused\":0", ""), HUMAN).is_err());
        assert!(check_all_functions_json(&JSON.replace("\"reason\":\"m\"", "\"why\":\"m\""), HUMAN).is_err());
        assert!(check_all_functions_json(r#"{"functions":[],"analysed":0,"reused":0,"seconds":0,"reason":null,"time_ms":0,"format_version":1}"#, HUMAN).is_err());
    }
}

//! termcheck's JSON answer (docs/output-format.md) reduced to what a native run can check:
//! the verdict, the NO witness as a [`Feed`], and a memory-safety violation with its inputs.

use super::feed::{After, Feed, FeedValue};
use serde_json::Value;

/// A claimed memory-safety violation.
#[derive(Clone, Debug)]
pub struct Violation {
    pub kind: String,
    pub inputs: Feed,
}

/// The parts of one `--format json` answer that execution can check.
#[derive(Clone, Debug)]
pub struct Answer {
    /// `YES`, `NO` or `MAYBE`.
    pub verdict: String,
    /// The input sequence of a NO (inputs, then the cycle forever, then any values or none).
    pub no_witness: Option<Feed>,
    pub violation: Option<Violation>,
    /// `memory_safety` (`proved`, `violated`, `unknown`).
    pub memory_safety: String,
    /// MAYBE's reason, for the log.
    pub reason: Option<String>,
}

/// `__VERIFIER_nondet_uint` or `__VERIFIER_nondet_uint#3` → `uint`; other names → no type.
fn nondet_type(name: &str) -> Option<String> {
    let base = name.split('#').next().unwrap_or(name);
    base.strip_prefix("__VERIFIER_nondet_").map(str::to_string)
}

fn values(list: Option<&Value>) -> Result<Vec<FeedValue>, String> {
    let Some(list) = list else { return Ok(Vec::new()) };
    let list = list.as_array().ok_or("inputs is not an array")?;
    list.iter()
        .map(|item| {
            let name = item.get("name").and_then(Value::as_str).ok_or("input without a name")?;
            let decimal = match item.get("value") {
                Some(Value::Number(n)) => n.to_string(),
                Some(Value::String(s)) if s.parse::<i128>().is_ok() => s.clone(),
                other => return Err(format!("input {name} has no integer value: {other:?}")),
            };
            Ok(FeedValue { ty: nondet_type(name), decimal })
        })
        .collect()
}

impl Answer {
    /// Parses one line of `--format json` output.
    pub fn parse(json: &str) -> Result<Self, String> {
        let v: Value = serde_json::from_str(json.trim()).map_err(|e| format!("not JSON ({e}): {json}"))?;
        let verdict = v.get("verdict").and_then(Value::as_str).ok_or("no verdict")?.to_string();
        let termination = v.get("termination").ok_or("no termination")?;
        let no_witness = if verdict == "NO" {
            let any = termination.get("any_further_inputs").and_then(Value::as_bool).unwrap_or(false);
            Some(Feed {
                stem: values(termination.get("inputs"))?,
                cycle: values(termination.get("input_cycle"))?,
                // "any values may follow": the check feeds one arbitrary sequence (seeded).
                after: if any { After::Random(1) } else { After::Stop },
            })
        } else {
            None
        };
        let memory_safety = v.get("memory_safety").and_then(Value::as_str).unwrap_or("none").to_string();
        let violation = match v.get("memory") {
            Some(m) if m.get("result").and_then(Value::as_str) == Some("violated") => Some(Violation {
                kind: m.get("kind").and_then(Value::as_str).unwrap_or("").to_string(),
                inputs: Feed { stem: values(m.get("inputs"))?, cycle: Vec::new(), after: After::Stop },
            }),
            _ => None,
        };
        let reason = termination.get("reason").and_then(Value::as_str).map(str::to_string);
        Ok(Answer { verdict, no_witness, violation, memory_safety, reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_answer_becomes_a_typed_feed() {
        let json = r#"{"verdict":"NO","memory_safety":"proved","termination":{"result":"NO","any_further_inputs":false,
            "inputs":[{"name":"__VERIFIER_nondet_uint","value":4294967295},{"name":"__VERIFIER_nondet_int#2","value":"-5"}],
            "input_cycle":[{"name":"__VERIFIER_nondet_int#3","value":-1}],"description":[]},"memory":{"result":"proved"}}"#;
        let a = Answer::parse(json).unwrap();
        let feed = a.no_witness.unwrap();
        assert_eq!(feed.stem[0], FeedValue { ty: Some("uint".into()), decimal: "4294967295".into() });
        assert_eq!(feed.stem[1], FeedValue { ty: Some("int".into()), decimal: "-5".into() });
        assert_eq!(feed.cycle.len(), 1);
        assert_eq!(feed.after, After::Stop);
        assert!(a.violation.is_none());
    }

    #[test]
    fn violation_keeps_its_inputs() {
        let json = r#"{"verdict":"MAYBE","memory_safety":"violated","termination":{"result":"MAYBE","reason":"r"},
            "memory":{"result":"violated","kind":"out-of-bounds store","message":"m","location":null,
            "inputs":[{"name":"__VERIFIER_nondet_int","value":16}]}}"#;
        let a = Answer::parse(json).unwrap();
        assert_eq!(a.violation.unwrap().inputs.stem[0].decimal, "16");
        assert_eq!(a.reason.as_deref(), Some("r"));
    }
}

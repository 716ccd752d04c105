//! Validation of SARIF output against the SARIF 2.1.0 schema (`tests/data/sarif-2.1.0.json`).

/// The SARIF 2.1.0 schema (`tests/data/sarif-2.1.0.json`, the OASIS file) as a validator that
/// also checks formats (URIs, regexes). The published file has one malformed pattern, for the
/// language tags of `run` and `toolComponent` (`…[a-zA-Z]{2}]?$`, a stray `]`), which a
/// format-checking validator rejects as a schema; it is replaced here, in memory, by the
/// intended `^[a-zA-Z]{2}(-[a-zA-Z]{2})?$`.
pub fn sarif_validator() -> jsonschema::Validator {
    const MALFORMED: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    fn fix(value: &mut serde_json::Value, fixed: &mut usize) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map.iter_mut() {
                    if key == "pattern" && inner.as_str() == Some(MALFORMED) {
                        *inner = serde_json::json!("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
                        *fixed += 1;
                    } else {
                        fix(inner, fixed);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| fix(v, fixed)),
            _ => {}
        }
    }
    let schema_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/sarif-2.1.0.json");
    let mut schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(schema_path).expect("schema")).expect("schema is JSON");
    let mut fixed = 0;
    fix(&mut schema, &mut fixed);
    assert_eq!(fixed, 2, "the schema's erratum changed: revisit this fix");
    jsonschema::options().should_validate_formats(true).build(&schema).expect("schema compiles")
}

//! Context values checked against the template's schema: each context's
//! `values.yaml` and each test case's `values`, as a render would see
//! them (over the schema's defaults).

use super::super::merge::deep_merge;
use super::super::project::{TEMPLATE, files_under};
use super::super::scope::schema_defaults;
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;

/// One violation: the file, the YAML path of the value, the message.
pub struct Violation {
    /// The file, relative to the project.
    pub file: String,
    /// Where in it.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// The schema as a validator, or why it is not one.
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, String> {
    let json: serde_json::Value = serde_json::from_str(&schema.to_json()).map_err(|e| e.to_string())?;
    jsonschema::validator_for(&json).map_err(|e| e.to_string())
}

/// Every violation of `values` (found at YAML path `at` of `file`).
pub fn check(
    validator: &jsonschema::Validator,
    schema: &Value,
    values: &Value,
    file: &str,
    at: &str,
    out: &mut Vec<Violation>,
) {
    let mut effective = schema_defaults(schema);
    deep_merge(&mut effective, values.clone());
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&effective.to_json()) else {
        return;
    };
    for e in validator.iter_errors(&json) {
        let inner = yaml_path(e.instance_path().as_str());
        // A key the schema does not allow is reported at the key.
        if let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } = e.kind() {
            for key in unexpected {
                let place = if inner.is_empty() {
                    key.clone()
                } else {
                    format!("{inner}.{key}")
                };
                out.push(Violation {
                    file: file.to_string(),
                    path: join(at, &place),
                    message: format!("{place}: the schema allows no property {key:?} here"),
                });
            }
            continue;
        }
        let path = join(at, &inner);
        let place = if inner.is_empty() {
            "the values".to_string()
        } else {
            inner
        };
        out.push(Violation {
            file: file.to_string(),
            path,
            message: format!("{place}: {e}"),
        });
    }
}

/// Every context's `values.yaml`, and every test case's `values`.
pub fn all(root: &Root, contexts: &[String], schema: &Value) -> Result<Vec<Violation>, String> {
    let validator = validator(schema)?;
    let mut out = Vec::new();
    for name in contexts {
        let file = format!("contexts/{name}/values.yaml");
        if let Ok(Some(v)) = super::super::project::read_yaml(root, &file) {
            check(&validator, schema, &v, &file, "", &mut out);
        }
    }
    let mut files = Vec::new();
    files_under(
        root,
        &format!("{TEMPLATE}/tests"),
        &[".test.yaml", ".test.yml"],
        &mut files,
    )
    .map_err(|e| e.to_string())?;
    for file in files {
        let Ok(Some(doc)) = super::super::project::read_yaml(root, &file) else {
            continue;
        };
        let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
            continue;
        };
        for (i, case) in cases.iter().enumerate() {
            let Some(Value::Map(values)) = case.as_map().and_then(|m| m.get("values")) else {
                continue;
            };
            // The runner's own keys, not context values.
            let mut values = values.clone();
            values.remove("_testName");
            values.remove("context");
            check(
                &validator,
                schema,
                &Value::Map(values),
                &file,
                &format!("cases[{i}].values"),
                &mut out,
            );
        }
    }
    Ok(out)
}

/// `inner` (a YAML path) under `at`.
fn join(at: &str, inner: &str) -> String {
    match (at.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (false, true) => at.to_string(),
        (false, false) if inner.starts_with('[') => format!("{at}{inner}"),
        (false, false) => format!("{at}.{inner}"),
    }
}

/// A JSON pointer (`/cluster/workers/0`) as a YAML path (`cluster.workers[0]`).
fn yaml_path(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_yaml_paths() {
        assert_eq!(yaml_path(""), "");
        assert_eq!(yaml_path("/cluster/workers/0/name"), "cluster.workers[0].name");
        assert_eq!(yaml_path("/a~1b"), "a/b");
    }

    #[test]
    fn a_violation_names_its_place() {
        let schema = Value::from_yaml("type: object\nproperties: {ha: {type: boolean, default: false}}\n").unwrap();
        let v = validator(&schema).unwrap();
        let mut out = Vec::new();
        check(
            &v,
            &schema,
            &Value::from_yaml("ha: 'yes'").unwrap(),
            "f.yaml",
            "cases[0].values",
            &mut out,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].path, "cases[0].values.ha");
        assert_eq!(out[0].message, "ha: \"yes\" is not of type \"boolean\"");
    }
}

//! Context values checked against the template's schema: each context's
//! `values.yaml` and each test case's `values`, as a render would see
//! them (over the schema's defaults).

use crate::context::scope::schema_defaults;
use crate::load::project::{TEMPLATE, files_under};
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;

/// One violation: the file, the YAML path of the value, the message.
#[derive(Debug)]
pub struct Violation {
    /// The file, relative to the project.
    pub file: String,
    /// Where in it.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

/// The schema as a validator, or why it is not one.
pub fn validator(schema: &Value) -> Result<jsonschema::Validator, Violation> {
    let file = format!("{TEMPLATE}/schema.yaml");
    let json = serde_json::to_value(schema).map_err(|e| Violation {
        file: file.clone(),
        path: String::new(),
        message: e.to_string(),
    })?;
    jsonschema::validator_for(&json).map_err(|e| {
        // Where in the schema, as the meta-schema sees it.
        let path = yaml_path(e.instance_path().as_str());
        let place = if path.is_empty() {
            "the schema".to_string()
        } else {
            path.clone()
        };
        Violation {
            file,
            path,
            message: format!("{place}: {e}"),
        }
    })
}

/// Values to check: where they are, and what they are.
pub struct Given {
    /// The file, relative to the project.
    pub file: String,
    /// Their YAML path in it (empty: the whole file).
    pub at: String,
    /// The values.
    pub values: Value,
}

/// Each context's `values.yaml`.
pub fn contexts(root: &Root, contexts: &[String]) -> Vec<Given> {
    contexts
        .iter()
        .filter_map(|name| {
            let file = format!("contexts/{name}/values.yaml");
            let values = crate::load::project::read_yaml(root, &file).ok()??;
            Some(Given {
                file,
                at: String::new(),
                values,
            })
        })
        .collect()
}

/// Each test case's `values` (the runner's own keys left out).
pub fn tests(root: &Root) -> Vec<Given> {
    let mut files = Vec::new();
    let _ = files_under(
        root,
        &format!("{TEMPLATE}/tests"),
        &[".test.yaml", ".test.yml"],
        &mut files,
    );
    let mut out = Vec::new();
    for file in files {
        let Ok(Some(doc)) = crate::load::project::read_yaml(root, &file) else {
            continue;
        };
        let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
            continue;
        };
        for (i, case) in cases.iter().enumerate() {
            let Some(Value::Map(values)) = case.as_map().and_then(|m| m.get("values")) else {
                continue;
            };
            let mut values = values.clone();
            values.remove("_testName");
            values.remove("context");
            out.push(Given {
                file: file.clone(),
                at: format!("cases[{i}].values"),
                values: Value::Map(values),
            });
        }
    }
    out
}

/// A schema ready to check values with: the validator and the schema's
/// defaults, both made once.
pub struct Checker {
    validator: jsonschema::Validator,
    defaults: serde_json::Value,
}

impl Checker {
    /// The checker of `schema`, or where and why it is not a JSON Schema.
    pub fn new(schema: &Value) -> Result<Checker, Violation> {
        Ok(Checker {
            validator: validator(schema)?,
            defaults: serde_json::to_value(schema_defaults(schema)).unwrap_or_default(),
        })
    }

    /// Every violation of `given`, as a render would see the values: over
    /// the schema's defaults.
    pub fn check(&self, given: &Given, out: &mut Vec<Violation>) {
        let Ok(values) = serde_json::to_value(&given.values) else {
            return;
        };
        let mut effective = self.defaults.clone();
        merge(&mut effective, values);
        for e in self.validator.iter_errors(&effective) {
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
                        file: given.file.clone(),
                        path: join(&given.at, &place),
                        message: format!("{place}: the schema allows no property {key:?} here"),
                    });
                }
                continue;
            }
            let place = if inner.is_empty() {
                "the values".to_string()
            } else {
                inner.clone()
            };
            out.push(Violation {
                file: given.file.clone(),
                path: join(&given.at, &inner),
                message: format!("{place}: {e}"),
            });
        }
    }
}

/// Deep merge as Windsor merges a context over the schema's defaults:
/// maps key by key, the given value wins anything else.
fn merge(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(b), serde_json::Value::Object(g)) => {
            for (k, v) in g {
                match b.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, g) => *slot = g,
    }
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
        let given = Given {
            file: "f.yaml".into(),
            at: "cases[0].values".into(),
            values: Value::from_yaml("ha: 'yes'\nother: 1").unwrap(),
        };
        let mut out = Vec::new();
        Checker::new(&schema).unwrap().check(&given, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].path, "cases[0].values.ha");
        assert_eq!(out[0].message, "ha: \"yes\" is not of type \"boolean\"");
        // An unknown key is reported at the key.
        let schema =
            Value::from_yaml("type: object\nadditionalProperties: false\nproperties: {ha: {type: boolean}}\n").unwrap();
        let mut out = Vec::new();
        Checker::new(&schema).unwrap().check(&given, &mut out);
        let found: Vec<(&str, &str)> = out.iter().map(|v| (v.path.as_str(), v.message.as_str())).collect();
        assert_eq!(
            found[1],
            (
                "cases[0].values.other",
                "other: the schema allows no property \"other\" here"
            )
        );
    }
}

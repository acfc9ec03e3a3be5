//! What a case may say, and what it must say to be read.

use bpvm_runtime::{Map, Value};

/// The fields a case may have.
const CASE_FIELDS: &[&str] = &[
    "name",
    "from",
    "seed_wins",
    "note",
    "files",
    "dir",
    "blueprint",
    "vars",
    "datasources",
    "state",
    "show_secrets",
    "cwd",
    "root",
    "seed",
    "now",
    "output",
    "expect",
    "error",
    "deferred",
];

/// What is wrong with a case as written (not with what it renders); `stem`
/// is its file's name without `.yaml`.
pub fn malformed(case: &Map, stem: &str, reference: bool) -> Option<String> {
    if let Some((k, _)) = case.iter().find(|(k, _)| !CASE_FIELDS.contains(&k.as_str())) {
        return Some(format!("unknown case field {:?}", k.as_str()));
    }
    for key in ["from", "seed_wins", "note"] {
        if case
            .get(key)
            .is_some_and(|v| v.as_str().is_none_or(|s| s.trim().is_empty()))
        {
            return Some(format!("{key} is a non-empty string"));
        }
    }
    let from = case.get("from").and_then(Value::as_str);
    match (reference, from) {
        (true, None) => Some("a reference case names its test: from: \"<file>_test.go: <TestName>\"".into()),
        (true, Some(f)) if !f.starts_with(&format!("{stem}_test.go: Test")) => {
            Some(format!("from {f:?} is not a test of {stem}_test.go"))
        }
        (false, Some(_)) => Some("`from` names a reference test; such cases go in tests/blueprints/reference".into()),
        _ => None,
    }
}

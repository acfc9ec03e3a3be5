//! The values `bpvm check` checks against the template's schema besides
//! each context's (which `context::validate` finds): each test case's
//! `values`, as written.

use crate::context::validate::Source;
use crate::load::project::{TEMPLATE, files_under};
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;

/// Each test case's `values` (the runner's own keys left out).
pub fn tests(root: &Root) -> Vec<Source> {
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
            out.push(Source {
                file: file.clone(),
                at: format!("cases[{i}].values"),
                values: Value::Map(values),
                unknown_keys: true,
            });
        }
    }
    out
}

//! The values `bpvm check` checks against the template's schema besides
//! each context's (which `context::validate` finds): each test case's
//! `values`, as written. A values or test file that does not read as
//! YAML is an error here too: the render or test that reads it fails.

use crate::context::validate::Source;
use crate::error::Error;
use crate::load::project::{Project, TEMPLATE, files_under, read_yaml};
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;

/// Each context's `windsor.yaml` and `values.yaml` that does not read.
pub fn unreadable_contexts(project: &Project) -> Vec<Error> {
    let files = ["windsor.yaml", "values.yaml"];
    let names = project.contexts();
    let paths = names
        .iter()
        .flat_map(|name| files.map(|f| format!("contexts/{name}/{f}")));
    paths.filter_map(|file| read_yaml(&project.root, &file).err()).collect()
}

/// Each test case's `values` (the runner's own keys left out), and each
/// test file that does not read.
pub fn tests(root: &Root) -> (Vec<Source>, Vec<Error>) {
    let mut files = Vec::new();
    let _ = files_under(
        root,
        &format!("{TEMPLATE}/tests"),
        &[".test.yaml", ".test.yml"],
        &mut files,
    );
    let (mut out, mut unreadable) = (Vec::new(), Vec::new());
    for file in files {
        let doc = match read_yaml(root, &file) {
            Ok(Some(doc)) => doc,
            Ok(None) => continue,
            Err(e) => {
                unreadable.push(e);
                continue;
            }
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
    (out, unreadable)
}

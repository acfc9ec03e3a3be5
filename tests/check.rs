//! Table-driven cases of `bpvm check`: each file under `tests/check/<language>/`
//! is one rule's cases — the files of a template, and exactly the findings
//! it must give (`file:line:column: severity[rule]: message`).

use bpvm_runtime::Value;
use std::path::Path;

#[test]
fn every_rule_finds_what_its_cases_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check");
    let mut failures = Vec::new();
    let mut count = 0;
    for language in ["windsor", "bluelink"] {
        let Ok(entries) = std::fs::read_dir(root.join(language)) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
            let doc = Value::from_yaml(&std::fs::read_to_string(file).unwrap()).unwrap();
            let rule = field(&doc, "rule").and_then(Value::as_str).unwrap().to_string();
            let shared = field(&doc, "files").cloned().unwrap_or(Value::Null);
            let Some(Value::List(cases)) = field(&doc, "cases") else {
                panic!("{}: no cases", file.display())
            };
            let mut triggered = false;
            let mut clean = false;
            for case in cases {
                count += 1;
                let name = field(case, "name").and_then(Value::as_str).unwrap_or("?");
                let dir = tempfile::tempdir().unwrap();
                for files in [&shared, field(case, "files").unwrap_or(&Value::Null)] {
                    for (path, text) in files.as_map().into_iter().flat_map(|m| m.iter()) {
                        let at = dir.path().join(path.as_str());
                        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
                        std::fs::write(&at, text.as_str().unwrap()).unwrap();
                    }
                }
                let expected: Vec<String> = match field(case, "findings") {
                    Some(Value::List(items)) => items.iter().map(|i| i.as_str().unwrap().to_string()).collect(),
                    _ => Vec::new(),
                };
                let target = if language == "bluelink" {
                    dir.path().join("blueprint.yaml")
                } else {
                    dir.path().to_path_buf()
                };
                let got: Vec<String> = match bpvm::check::check(&[&target]) {
                    Ok(report) => report
                        .templates
                        .iter()
                        .flat_map(|t| &t.findings)
                        .map(|f| f.to_string())
                        .collect(),
                    Err(e) => vec![format!("cannot check: {e}")],
                };
                if got != expected {
                    failures.push(format!(
                        "{} / {name}:\n  expected:\n    {}\n  got:\n    {}",
                        file.display(),
                        expected.join("\n    "),
                        got.join("\n    ")
                    ));
                }
                triggered |= expected.iter().any(|f| f.contains(&format!("[{rule}]")));
                clean |= !expected.iter().any(|f| f.contains(&format!("[{rule}]")));
            }
            assert!(
                triggered && clean,
                "{}: needs a case that triggers {rule} and one that does not",
                file.display()
            );
        }
    }
    assert!(count > 0, "no cases found");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn field<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.as_map()?.get(key)
}

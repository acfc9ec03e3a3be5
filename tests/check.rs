//! Table-driven cases of `bpvm check`: each file under `tests/check/<language>/`
//! is one rule's cases — the files of a template, and exactly the findings
//! it must give (`file:line:column: severity[rule]: message`).

#[path = "support/shared.rs"]
mod shared;

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
    for rule in bpvm::check::rules() {
        let file = |language: &str| root.join(language).join(format!("{}.yaml", rule.id));
        assert!(
            file("windsor").is_file() || file("bluelink").is_file(),
            "rule {} has no cases",
            rule.id
        );
    }
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

/// The corpus templates' findings are exactly those listed in
/// `tests/check/corpus/<template>.txt` (each is explained in the README's
/// "bpvm check" section): a change to what the checker finds on real
/// templates is seen, and reviewed, here.
#[test]
fn the_corpus_templates_give_the_findings_listed() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["windsor-core-aae5e79e", "windsor-core-v0.7.0"] {
        let dir = repo.join("../shared/corpus").join(name);
        if !shared::present(&dir) {
            return;
        }
        let listed = std::fs::read_to_string(repo.join(format!("tests/check/corpus/{name}.txt"))).unwrap();
        let report = bpvm::check::check(&[&dir]).unwrap();
        let got: Vec<String> = report.templates[0].findings.iter().map(|f| f.to_string()).collect();
        let listed: Vec<&str> = listed.lines().collect();
        assert_eq!(got, listed, "{name}");
        assert_eq!(
            report.count(bpvm::check::Severity::Error),
            listed.iter().filter(|l| l.contains(": error[")).count()
        );
    }
}

/// What ships is clean: the examples have no finding at all.
#[test]
fn the_shipped_examples_have_no_findings() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let report = bpvm::check::check(&[&examples]).unwrap();
    assert!(
        report.templates.len() >= 2,
        "{:?}",
        report.templates.iter().map(|t| &t.folder).collect::<Vec<_>>()
    );
    let found: Vec<String> = report.findings().map(|(path, f)| format!("{path}: {f}")).collect();
    assert!(found.is_empty(), "{found:#?}");
}

/// Every rule is in the README's table, with its severity and summary.
#[test]
fn the_readme_lists_every_rule() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for rule in bpvm::check::rules() {
        let row = format!("| `{}` | {} | {} |", rule.id, rule.severity.name(), rule.summary);
        assert!(readme.contains(&row), "the README has no row\n{row}");
    }
}

/// Many templates are checked on every core, and the report keeps the
/// order they were found in, run after run.
#[test]
fn many_templates_report_in_the_order_found() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..12 {
        let template = dir.path().join(format!("p{i:02}/contexts/_template"));
        std::fs::create_dir_all(template.join("facets")).unwrap();
        std::fs::write(dir.path().join(format!("p{i:02}/windsor.yaml")), "version: v1alpha1\n").unwrap();
        let facet =
            format!("kind: Facet\nmetadata: {{name: f}}\nterraform:\n  - name: a\n    dependsOn: [missing{i}]\n");
        std::fs::write(template.join("facets/f.yaml"), facet).unwrap();
    }
    let seen: Vec<String> = (0..3)
        .map(|_| {
            let report = bpvm::check::check(&[dir.path()]).unwrap();
            report
                .findings()
                .map(|(path, f)| format!("{path}: {}", f.message))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert!(
        seen[0].lines().count() == 12 && seen.iter().all(|s| *s == seen[0]),
        "{seen:#?}"
    );
    let first = seen[0].lines().next().unwrap();
    assert!(
        first.ends_with(
            "p00/contexts/_template/facets/f.yaml: \"missing0\" names no terraform component of the template"
        ),
        "{first}"
    );
}

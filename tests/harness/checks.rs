//! `bpvm check`'s rules, table-driven: each file under
//! `tests/check/<language>/` is one rule's cases — the files of a template
//! (the file's `files:` under each case's own) and exactly the findings it
//! must give (`file:line:column: severity[rule]: message`). Each case is
//! the test `check::<language>::<rule>::<case>`.
//!
//! Every rule has a file, and each file a case that finds its rule and one
//! that does not. Blessing writes `findings`.

use bpvm::Value;
use bpvm_harness::{Case, Difference, Failure, Fix, Suite};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const LANGUAGES: &[&str] = &["windsor", "bluelink"];

pub fn add(suite: &mut Suite) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check");
    let mut count = 0;
    let mut rule_files = Vec::new();
    for &language in LANGUAGES {
        let run = Arc::new(move |case: &Case| run(case, language));
        for (prefix, path) in suite.files(&format!("check::{language}"), &root.join(language), false) {
            let Some(file) = suite.file(&prefix, &path) else {
                continue;
            };
            count += suite.cases(&prefix, &file, "cases", &run);
            rule_files.push((path, file.doc.clone()));
        }
    }
    suite.check("check::every_rule_has_cases", move || {
        every_rule_has_cases(&root, count)
    });
    suite.check(
        "check::every_rule_has_a_case_that_finds_it_and_one_that_does_not",
        move || {
            let lacking: Vec<String> = rule_files
                .iter()
                .filter_map(|(path, doc)| lacks_a_side(path, doc))
                .collect();
            lacking.is_empty().then_some(()).ok_or(lacking.join("\n"))
        },
    );
}

fn every_rule_has_cases(root: &Path, count: usize) -> Result<(), String> {
    if count == 0 {
        return Err("no cases found".into());
    }
    let without: Vec<String> = bpvm::check::rules()
        .into_iter()
        .filter(|rule| {
            !LANGUAGES
                .iter()
                .any(|l| root.join(l).join(format!("{}.yaml", rule.id)).is_file())
        })
        .map(|rule| format!("rule {} has no cases", rule.id))
        .collect();
    without.is_empty().then_some(()).ok_or(without.join("\n"))
}

/// What a rule's file lacks: a case that finds its rule, or one that does
/// not (its findings as written, not as found).
fn lacks_a_side(path: &Path, doc: &Value) -> Option<String> {
    let Some(rule) = field(doc, "rule").and_then(Value::as_str) else {
        return Some(format!("{}: no `rule:`", path.display()));
    };
    let tag = format!("[{rule}]");
    let finds = |case: &Value| expected(case).is_ok_and(|f| f.iter().any(|f| f.contains(&tag)));
    let cases = match field(doc, "cases") {
        Some(Value::List(cases)) => cases.as_slice(),
        _ => &[],
    };
    let (triggered, clean) = (cases.iter().any(finds), cases.iter().any(|c| !finds(c)));
    (!(triggered && clean)).then(|| {
        format!(
            "{}: needs a case that triggers {rule} and one that does not",
            path.display()
        )
    })
}

fn field<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    v.as_map()?.get(key)
}

/// A case's `findings` (none when it has none).
fn expected(case: &Value) -> Result<Vec<String>, String> {
    match field(case, "findings") {
        Some(Value::List(items)) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_string)
                    .ok_or(format!("a finding is text: {}", i.to_json()))
            })
            .collect(),
        _ => Ok(Vec::new()),
    }
}

fn run(case: &Case, language: &str) -> Result<(), Failure> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let shared = case.file.get("files").cloned().unwrap_or(Value::Null);
    for files in [&shared, case.get("files").unwrap_or(&Value::Null)] {
        for (path, text) in files.as_map().into_iter().flat_map(|m| m.iter()) {
            let text = text.as_str().ok_or(format!("{} is text", path.as_str()))?;
            let at = dir.path().join(path.as_str());
            std::fs::create_dir_all(at.parent().unwrap()).map_err(|e| e.to_string())?;
            std::fs::write(&at, text).map_err(|e| e.to_string())?;
        }
    }
    let expected = expected(&Value::Map(case.fields.clone()))?;
    // A Bluelink case checks its `blueprint.bp` when it has one.
    let target: PathBuf = if language == "bluelink" {
        let bp = dir.path().join("blueprint.bp");
        if bp.exists() {
            bp
        } else {
            dir.path().join("blueprint.yaml")
        }
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
    if got == expected {
        return Ok(());
    }
    let written = Value::List(got.iter().map(|f| Value::from(f.as_str())).collect());
    Err(Failure {
        problems: Vec::new(),
        differences: vec![Difference {
            what: "findings".into(),
            expected: expected.join("\n"),
            actual: got.join("\n"),
            fix: Some(Fix::Field("findings".into(), written)),
        }],
    })
}

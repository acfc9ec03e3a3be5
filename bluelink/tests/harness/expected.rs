//! What a case expects of its render — a document and deferred
//! references, or error lines — and that what renders has no findings.

use crate::rendered::{Rendered, blueprint_name};
use bpvm_bluelink::check::check;
use bpvm_harness::{Case, CaseFile, Difference, Failure, Fix, pretty};
use bpvm_runtime::text::to_yaml;
use bpvm_runtime::{Map, Value};
use std::path::{Path, PathBuf};

/// Whether a case expects its blueprint to render.
pub fn renders(case: &Map) -> bool {
    case.get("output").is_some() || case.get("expect").is_some()
}

/// How many cases of `file` expect their blueprint to render.
pub fn rendering(file: &CaseFile) -> usize {
    match file.get("cases") {
        Some(Value::List(cases)) => cases.iter().filter_map(Value::as_map).filter(|c| renders(c)).count(),
        _ => 0,
    }
}

/// Where a case states the document it expects.
enum Stated {
    /// In its `output`.
    Inline,
    /// In the file its `expect` names.
    InFile(PathBuf),
}

/// How `got` differs from what the case in `dir` expects.
pub fn compare(case: &Case, dir: &Path, got: Rendered) -> Failure {
    let mut failure = Failure::default();
    let expected = match (case.get("output"), case.text("expect")) {
        (Some(v), _) => Some((v.clone(), Stated::Inline)),
        (None, Some(file)) => match std::fs::read_to_string(dir.join(file)) {
            Ok(body) => match Value::from_yaml(&body) {
                Ok(v) => Some((v, Stated::InFile(dir.join(file)))),
                Err(e) => return Failure::problem(format!("{file}: {e}")),
            },
            Err(e) => return Failure::problem(format!("cannot read {file}: {e}")),
        },
        (None, None) => None,
    };
    let errors: Option<Vec<String>> = match case.get("error") {
        Some(Value::Str(s)) => Some(vec![s.to_string()]),
        Some(Value::List(items)) => Some(items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect()),
        _ => None,
    };
    let mut differs =
        |what: &str, expected: String, actual: String, fix: Option<Fix>| failure.differs(what, expected, actual, fix);
    match (got, expected, errors) {
        (Ok((doc, deferred)), Some((want, stated)), None) => {
            if doc != want {
                let fix = written(case, stated, &doc);
                differs("the document", pretty(&want), pretty(&doc), fix);
            }
            let want_deferred: Vec<String> = match case.get("deferred") {
                Some(Value::List(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
                _ => Vec::new(),
            };
            if deferred != want_deferred {
                let fix = Fix::Field("deferred".into(), texts(&deferred));
                differs("deferred", want_deferred.join("\n"), deferred.join("\n"), Some(fix));
            }
        }
        (Err(lines), None, Some(want)) => {
            if lines.len() != want.len() || lines.iter().zip(&want).any(|(l, w)| !l.contains(w.as_str())) {
                let fix = match &lines[..] {
                    [line] => Value::from(line.as_str()),
                    _ => texts(&lines),
                };
                // Each expected line is text its error line contains.
                differs(
                    "error",
                    want.join("\n"),
                    lines.join("\n"),
                    Some(Fix::Field("error".into(), fix)),
                );
            }
        }
        (Ok((doc, _)), None, Some(want)) => {
            differs("error", want.join("\n"), format!("rendered:\n{}", to_yaml(&doc)), None);
        }
        (Err(lines), Some((want, _)), None) => {
            differs(
                "the document",
                pretty(&want),
                format!("failed:\n{}", lines.join("\n")),
                None,
            );
        }
        _ => failure
            .problems
            .push("a case has exactly one of output/expect and error".into()),
    }
    failure
}

/// How blessing writes the document `doc`: as the case's `output`, or as
/// the `expect` file of a fixture folder (a file written from the case's
/// `files` is the case's to change by hand) when YAML reads it back as is.
fn written(case: &Case, stated: Stated, doc: &Value) -> Option<Fix> {
    match stated {
        Stated::Inline => Some(Fix::Field("output".into(), doc.clone())),
        Stated::InFile(path) if case.get("dir").is_some() => {
            let text = to_yaml(doc);
            let same = Value::from_yaml(&text).is_ok_and(|v| v.to_json() == doc.to_json());
            same.then_some(Fix::File(path, text))
        }
        Stated::InFile(_) => None,
    }
}

fn texts(lines: &[String]) -> Value {
    Value::List(lines.iter().map(|l| Value::from(l.as_str())).collect())
}

/// Adds the findings of `check` on the case's blueprint in `dir` (there
/// should be none) to `failure`.
pub fn no_findings(case: &Case, dir: &Path, failure: &mut Failure) {
    let name = blueprint_name(case, dir);
    let found: Vec<String> = check(&dir.join(&name), &name).iter().map(ToString::to_string).collect();
    if !found.is_empty() {
        failure.differences.push(Difference {
            what: "the findings of check".into(),
            expected: String::new(),
            actual: found.join("\n"),
            fix: None,
        });
    }
}

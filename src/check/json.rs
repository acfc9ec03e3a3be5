//! `bpvm check`'s report for programs: one JSON object per finding.

use super::report::Report;
use serde::Serialize;

/// One finding as `json` writes it (fields in this order).
#[derive(Serialize)]
struct Entry<'a> {
    rule: &'a str,
    severity: &'a str,
    file: String,
    line: usize,
    column: usize,
    path: &'a str,
    message: &'a str,
    suggestion: Option<&'a str>,
}

/// The report as a JSON array, one object per finding in report order:
/// `rule` (its id), `severity` (`"error"` or `"warning"`), `file` (as the
/// user names it: the template's folder joined with the file), `line` and
/// `column` (1-based; 0 when unknown), `path` (the YAML path, empty for
/// the file as a whole), `message`, and `suggestion` (`null` when there is
/// none). Pretty-printed, ending with a newline; `[]` when nothing was found.
///
/// ```
/// use bpvm::check::{Checked, Finding, Report, json};
/// use bpvm::checker::rules::UNKNOWN_PATH;
///
/// let finding = Finding::new(&UNKNOWN_PATH, "facets/aws.yaml", "when", "cluster.wokers: no such property")
///     .at(3, 7)
///     .suggest("cluster.workers");
/// let report = Report {
///     templates: vec![Checked { language: "windsor", folder: "infra".into(), findings: vec![finding] }],
/// };
/// let parsed: serde_json::Value = serde_json::from_str(&json(&report)).unwrap();
/// assert_eq!(parsed[0]["file"], "infra/facets/aws.yaml");
/// assert_eq!(parsed[0]["suggestion"], "cluster.workers");
/// assert_eq!(json(&Report::default()), "[]\n");
/// ```
pub fn json(report: &Report) -> String {
    let entries: Vec<Entry> = report
        .findings()
        .map(|(file, f)| Entry {
            rule: f.rule.id,
            severity: f.severity().name(),
            file,
            line: f.line,
            column: f.column,
            path: &f.path,
            message: &f.message,
            suggestion: f.suggestion.as_deref(),
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&entries).expect("findings serialize to JSON");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::report::Checked;
    use bpvm_checker::Finding;
    use bpvm_checker::rules::{INVALID_TEMPLATE, UNKNOWN_PATH};

    #[test]
    fn one_object_per_finding_in_report_order() {
        let typo = Finding::new(
            &UNKNOWN_PATH,
            "facets/aws.yaml",
            "inputs.cidr",
            "cluster.wokers: no such \"property\"",
        )
        .at(9, 15)
        .suggest("cluster.workers");
        let broken = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "", "not a mapping");
        let report = Report {
            templates: vec![
                Checked {
                    language: "windsor",
                    folder: "infra/windsor/".into(),
                    findings: vec![typo],
                },
                Checked {
                    language: "bluelink",
                    folder: "".into(),
                    findings: vec![broken],
                },
            ],
        };
        let expected = r#"[
  {
    "rule": "unknown-path",
    "severity": "warning",
    "file": "infra/windsor/facets/aws.yaml",
    "line": 9,
    "column": 15,
    "path": "inputs.cidr",
    "message": "cluster.wokers: no such \"property\"",
    "suggestion": "cluster.workers"
  },
  {
    "rule": "invalid-template",
    "severity": "error",
    "file": "blueprint.yaml",
    "line": 0,
    "column": 0,
    "path": "",
    "message": "not a mapping",
    "suggestion": null
  }
]
"#;
        assert_eq!(json(&report), expected);
    }

    #[test]
    fn nothing_found_is_an_empty_array() {
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: "infra".into(),
                findings: vec![],
            }],
        };
        assert_eq!(json(&report), "[]\n");
    }
}

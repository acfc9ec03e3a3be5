//! `bpvm check`'s report for programs: each finding as a JSON object,
//! and how many there were of each rule.

use super::report::{Report, Tally};
use bpvm_checker::{Finding, Severity};
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
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

/// The whole document.
#[derive(Serialize)]
struct Document<'a> {
    findings: Vec<Entry<'a>>,
    suppressed: Vec<Entry<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct Summary {
    templates: usize,
    errors: usize,
    warnings: usize,
    notes: usize,
    suppressed: usize,
    rules: Vec<Tally>,
}

/// The report as a JSON object: `findings`, one object per finding in
/// report order — `rule` (its id), `severity` (`"error"`, `"warning"` or
/// `"note"`), `file` (as the user names it: the template's folder joined
/// with the file), `line` and `column` (1-based; 0 when unknown), `path`
/// (the YAML path, empty for the file as a whole), `message`, and
/// `suggestion` (`null` when there is none); `suppressed`, the findings a
/// `bpvm:ignore` comment suppressed, each with its `reason` too; and
/// `summary`: how many `templates`, `errors`, `warnings`, `notes` and
/// `suppressed`, and per rule (`rules`, the most reported first) the
/// same counts. Pretty-printed, ending with a newline.
///
/// ```
/// use bpvm::check::{Checked, Finding, Report, json};
/// use bpvm::checker::rules::UNKNOWN_PATH;
///
/// let finding = Finding::new(&UNKNOWN_PATH, "facets/aws.yaml", "when", "cluster.wokers: no such property")
///     .at(3, 7)
///     .suggest("cluster.workers");
/// let report = Report {
///     templates: vec![Checked { language: "windsor", folder: "infra".into(), findings: vec![finding], suppressed: vec![] }],
/// };
/// let parsed: serde_json::Value = serde_json::from_str(&json(&report)).unwrap();
/// assert_eq!(parsed["findings"][0]["file"], "infra/facets/aws.yaml");
/// assert_eq!(parsed["findings"][0]["suggestion"], "cluster.workers");
/// assert_eq!(parsed["summary"]["rules"][0]["rule"], "unknown-path");
/// assert_eq!(parsed["summary"]["rules"][0]["warnings"], 1);
/// ```
pub fn json(report: &Report) -> String {
    fn entry(file: String, f: &Finding) -> Entry<'_> {
        Entry {
            rule: f.rule.id,
            severity: f.severity().name(),
            file,
            line: f.line,
            column: f.column,
            path: &f.path,
            message: &f.message,
            suggestion: f.suggestion.as_deref(),
            reason: None,
        }
    }
    let findings = report.findings().map(|(file, f)| entry(file, f)).collect();
    let suppressed = report
        .suppressed()
        .map(|(file, s)| Entry {
            reason: Some(&s.reason),
            ..entry(file, &s.finding)
        })
        .collect();
    let rules = report.by_rule();
    let summary = Summary {
        templates: report.templates.len(),
        errors: report.count(Severity::Error),
        warnings: report.count(Severity::Warning),
        notes: report.count(Severity::Note),
        suppressed: rules.iter().map(|t| t.suppressed).sum(),
        rules,
    };
    let document = Document {
        findings,
        suppressed,
        summary,
    };
    let mut out = serde_json::to_string_pretty(&document).expect("findings serialize to JSON");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::report::{Checked, Suppressed};
    use bpvm_checker::rules::{INVALID_TEMPLATE, UNKNOWN_PATH};

    #[test]
    fn each_finding_then_the_suppressed_then_the_counts() {
        let typo = Finding::new(
            &UNKNOWN_PATH,
            "facets/aws.yaml",
            "inputs.cidr",
            "cluster.wokers: no such \"property\"",
        )
        .at(9, 15)
        .suggest("cluster.workers");
        let mut broken = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "", "not a mapping");
        broken.level = Severity::Note;
        let quiet = Finding::new(&UNKNOWN_PATH, "facets/aws.yaml", "when", "null: no such property").at(3, 7);
        let report = Report {
            templates: vec![
                Checked {
                    language: "windsor",
                    folder: "infra/windsor/".into(),
                    findings: vec![typo],
                    suppressed: vec![Suppressed {
                        finding: quiet,
                        reason: "nil".into(),
                    }],
                },
                Checked {
                    language: "bluelink",
                    folder: "".into(),
                    findings: vec![broken],
                    ..Checked::default()
                },
            ],
        };
        let expected = r#"{
  "findings": [
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
      "severity": "note",
      "file": "blueprint.yaml",
      "line": 0,
      "column": 0,
      "path": "",
      "message": "not a mapping",
      "suggestion": null
    }
  ],
  "suppressed": [
    {
      "rule": "unknown-path",
      "severity": "warning",
      "file": "infra/windsor/facets/aws.yaml",
      "line": 3,
      "column": 7,
      "path": "when",
      "message": "null: no such property",
      "suggestion": null,
      "reason": "nil"
    }
  ],
  "summary": {
    "templates": 2,
    "errors": 0,
    "warnings": 1,
    "notes": 1,
    "suppressed": 1,
    "rules": [
      {
        "rule": "unknown-path",
        "errors": 0,
        "warnings": 1,
        "notes": 0,
        "suppressed": 1
      },
      {
        "rule": "invalid-template",
        "errors": 0,
        "warnings": 0,
        "notes": 1,
        "suppressed": 0
      }
    ]
  }
}
"#;
        assert_eq!(json(&report), expected);
    }

    #[test]
    fn nothing_found_has_empty_lists() {
        let parsed: serde_json::Value = serde_json::from_str(&json(&Report::default())).unwrap();
        assert_eq!(parsed["findings"], serde_json::json!([]));
        assert_eq!(parsed["summary"]["rules"], serde_json::json!([]));
    }
}

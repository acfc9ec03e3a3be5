//! `bpvm check`'s report for a person: each finding as the command's other
//! errors are printed (where, what, and the line with a caret under it),
//! then how many there were.

use super::report::Report;
use bpvm_checker::{Finding, Severity};
use bpvm_runtime::excerpt;
use std::fmt::Write;

/// The report as text for a terminal: per finding, a heading
/// `path:line:col: severity[rule]: message` (without `:line:col` when the
/// line is unknown, and then with the YAML path before the message), a
/// `help: did you mean X?` line when there is a suggestion, and the source
/// line under a gutter with a caret under the columns at fault, then a
/// blank line; last, a summary line. Plain text: the command adds colour.
///
/// ```
/// use bpvm::check::{Checked, Finding, Report, human};
/// use bpvm::checker::rules::UNKNOWN_PATH;
///
/// let mut finding = Finding::new(&UNKNOWN_PATH, "facets/aws.yaml", "when", "cluster.wokers: no such property")
///     .at(3, 7)
///     .suggest("cluster.workers");
/// finding.width = 14;
/// finding.source = Some("when: cluster.wokers".into());
/// let report = Report {
///     templates: vec![Checked { language: "windsor", folder: "infra".into(), findings: vec![finding], suppressed: vec![] }],
/// };
/// assert_eq!(
///     human(&report),
///     "infra/facets/aws.yaml:3:7: warning[unknown-path]: cluster.wokers: no such property\n\
///      help: did you mean cluster.workers?\n  \
///        |\n\
///      3 | when: cluster.wokers\n  \
///        |       ^^^^^^^^^^^^^^\n\
///      \n\
///      1 warning in 1 template: unknown-path 1\n"
/// );
/// ```
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    for (file, finding) in report.findings() {
        heading(&mut out, &file, finding);
        if let Some(suggestion) = &finding.suggestion {
            let _ = writeln!(out, "help: did you mean {suggestion}?");
        }
        source(&mut out, finding);
        out.push('\n');
    }
    out.push_str(&summary(report));
    out.push('\n');
    out
}

/// `path:line:col: severity[rule]: message`.
fn heading(out: &mut String, file: &str, f: &Finding) {
    out.push_str(file);
    if f.line > 0 {
        let _ = write!(out, ":{}", f.line);
        if f.column > 0 {
            let _ = write!(out, ":{}", f.column);
        }
    }
    let _ = writeln!(out, ": {}[{}]: {}", f.severity().name(), f.rule.id, f.statement());
}

/// The finding's line under an `N |` gutter, and a caret under its columns
/// (no caret when the column is unknown; nothing when the line is).
fn source(out: &mut String, f: &Finding) {
    let (Some(text), true) = (&f.source, f.line > 0) else {
        return;
    };
    // A tab is shown as one space, so the caret stays under its character.
    let text = text.trim_end_matches(['\n', '\r']).replace('\t', " ");
    let gutter = " ".repeat(f.line.to_string().len());
    let col = f.column.saturating_sub(1);
    // A long line is shown as a window around the caret.
    let shown = excerpt::window(&text, col);
    let _ = writeln!(out, "{gutter} |");
    let _ = writeln!(out, "{} | {shown}", f.line);
    if f.column > 0 {
        let width = shown.visible(col, f.width).max(1);
        let _ = writeln!(out, "{gutter} | {}{}", " ".repeat(shown.column(col)), "^".repeat(width));
    }
}

/// `2 errors, 1 warning in 3 templates: unknown-path 2, type-mismatch 1`
/// (the rules most reported first), or `no problems in 3 templates`;
/// then `; 4 suppressed: unknown-path 4` when comments suppressed any.
fn summary(report: &Report) -> String {
    let counted = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut parts = Vec::new();
    for (severity, what) in [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Note, "note"),
    ] {
        let n = report.count(severity);
        if n > 0 {
            parts.push(counted(n, what));
        }
    }
    let tallies = report.by_rule();
    let mut out = if parts.is_empty() {
        format!("no problems in {}", counted(report.templates.len(), "template"))
    } else {
        let rules: Vec<String> = tallies
            .iter()
            .filter(|t| t.reported() > 0)
            .map(|t| format!("{} {}", t.rule, t.reported()))
            .collect();
        format!(
            "{} in {}: {}",
            parts.join(", "),
            counted(report.templates.len(), "template"),
            rules.join(", ")
        )
    };
    let mut quiet: Vec<_> = tallies.iter().filter(|t| t.suppressed > 0).collect();
    if !quiet.is_empty() {
        quiet.sort_by(|a, b| (b.suppressed, a.rule).cmp(&(a.suppressed, b.rule)));
        let total: usize = quiet.iter().map(|t| t.suppressed).sum();
        let rules: Vec<String> = quiet.iter().map(|t| format!("{} {}", t.rule, t.suppressed)).collect();
        out.push_str(&format!("; {total} suppressed: {}", rules.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Checked;
    use bpvm_checker::Rule;
    use bpvm_checker::rules::{INVALID_TEMPLATE, TYPE_MISMATCH, UNKNOWN_PATH};

    fn finding(rule: &'static Rule, file: &str, path: &str, message: &str) -> Finding {
        Finding::new(rule, file, path, message)
    }

    fn report() -> Report {
        let mut mismatch = finding(
            &TYPE_MISMATCH,
            "facets/aws.yaml",
            "when",
            "'1' + 2: a text and a number",
        )
        .at(12, 9);
        mismatch.width = 7;
        mismatch.source = Some("  when: '1' + 2\n".into());
        let mut typo = finding(
            &UNKNOWN_PATH,
            "facets/aws.yaml",
            "inputs.cidr",
            "cluster.wokers: no such property",
        )
        .at(9, 15)
        .suggest("cluster.workers");
        typo.width = 14;
        typo.source = Some("    cidr: ${{\tcluster.wokers }}".into());
        let broken = finding(&INVALID_TEMPLATE, "blueprint.yaml", "resources", "not a mapping");
        Report {
            templates: vec![
                Checked {
                    language: "windsor",
                    folder: "infra/windsor".into(),
                    findings: vec![typo, mismatch],
                    ..Checked::default()
                },
                Checked {
                    language: "bluelink",
                    folder: ".".into(),
                    findings: vec![broken],
                    ..Checked::default()
                },
                Checked {
                    language: "bluelink",
                    folder: "apps".into(),
                    findings: vec![],
                    ..Checked::default()
                },
            ],
        }
    }

    #[test]
    fn prints_each_finding_with_its_line_and_a_summary() {
        let expected = "\
infra/windsor/facets/aws.yaml:9:15: warning[unknown-path]: cluster.wokers: no such property
help: did you mean cluster.workers?
  |
9 |     cidr: ${{ cluster.wokers }}
  |               ^^^^^^^^^^^^^^

infra/windsor/facets/aws.yaml:12:9: error[type-mismatch]: '1' + 2: a text and a number
   |
12 |   when: '1' + 2
   |         ^^^^^^^

blueprint.yaml: error[invalid-template]: resources: not a mapping

2 errors, 1 warning in 3 templates: invalid-template 1, type-mismatch 1, unknown-path 1
";
        assert_eq!(human(&report()), expected);
    }

    #[test]
    fn the_summary_counts_notes_and_what_comments_suppressed_by_rule() {
        let mut relaxed = finding(&UNKNOWN_PATH, "a.yaml", "x", "m");
        relaxed.level = Severity::Note;
        let quiet = |rule| crate::check::Suppressed {
            finding: finding(rule, "a.yaml", "x", "m"),
            reason: "why".into(),
        };
        let report = Report {
            templates: vec![Checked {
                findings: vec![relaxed.clone(), relaxed, finding(&TYPE_MISMATCH, "a.yaml", "x", "m")],
                suppressed: vec![quiet(&UNKNOWN_PATH), quiet(&TYPE_MISMATCH), quiet(&TYPE_MISMATCH)],
                ..Checked::default()
            }],
        };
        let text = human(&report);
        assert!(text.contains("a.yaml: note[unknown-path]: x: m\n"), "{text}");
        assert!(
            text.ends_with(
                "1 error, 2 notes in 1 template: unknown-path 2, type-mismatch 1; 3 suppressed: type-mismatch 2, unknown-path 1\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn says_when_there_is_nothing() {
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: "".into(),
                findings: vec![],
                ..Checked::default()
            }],
        };
        assert_eq!(human(&report), "no problems in 1 template\n");
        assert_eq!(human(&Report::default()), "no problems in 0 templates\n");
    }

    #[test]
    fn an_unknown_column_or_source_shows_what_is_known() {
        let no_column = finding(&UNKNOWN_PATH, "a.yaml", "x", "m").at(4, 0);
        let mut no_source = finding(&UNKNOWN_PATH, "a.yaml", "x", "m").at(5, 2);
        no_source.width = 3;
        let mut no_column = no_column;
        no_column.source = Some("x: y".into());
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: "".into(),
                findings: vec![no_column, no_source],
                ..Checked::default()
            }],
        };
        assert_eq!(
            human(&report),
            "a.yaml:4: warning[unknown-path]: m\n  |\n4 | x: y\n\na.yaml:5:2: warning[unknown-path]: m\n\n2 warnings in 1 template: unknown-path 2\n"
        );
    }

    #[test]
    fn a_long_line_is_a_window_around_the_caret() {
        let mut f = finding(&TYPE_MISMATCH, "a.yaml", "x", "bad").at(1, 501);
        f.width = 3;
        f.source = Some(format!("{}abc{}", "x".repeat(500), "y".repeat(500)));
        let report = Report {
            templates: vec![Checked {
                language: "windsor",
                folder: "".into(),
                findings: vec![f],
                ..Checked::default()
            }],
        };
        let text = human(&report);
        let lines: Vec<&str> = text.lines().collect();
        let shown = format!("…{}abc{}…", "x".repeat(50), "y".repeat(47));
        assert_eq!(lines[2], format!("1 | {shown}"));
        assert_eq!(lines[3], format!("  | {}^^^", " ".repeat(51)));
    }
}

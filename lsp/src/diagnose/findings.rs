//! A template checked as `bpvm check` checks it (its `bpvm.yaml`
//! configuration applied), each finding a diagnostic at its range.

use super::template::Template;
use crate::text::Lines;
use bpvm::check::{Finding, Severity};
use bpvm::runtime::root::Root;
use lsp_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Range};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The diagnostics of a template, by file (absolute).
pub type Diagnosed = BTreeMap<PathBuf, Vec<Diagnostic>>;

/// What the checks of each Windsor project (by folder) keep for the
/// next: an edit to one facet parses and compiles that facet again, not
/// the project (see [`bpvm::check::check_windsor_reusing`]).
pub type Kept = BTreeMap<PathBuf, bpvm::check::Kept>;

/// Checks `template` and gives each file's diagnostics, taking from
/// `kept` what the last check of the same project found that cannot
/// have changed. A check that cannot run (a folder that cannot be
/// searched) or a configuration with mistakes is reported on the file
/// that has them, or on the template.
pub fn diagnose(template: &Template, kept: &mut Kept) -> Diagnosed {
    let path = template.path();
    let mut out = Diagnosed::new();
    let tunings = match bpvm::check::tunings(&[path]) {
        Ok(t) => t,
        Err(errors) => {
            for e in errors {
                let file = absolute(Path::new(&e.file));
                let d = at(&file, e.line, e.column, e.message);
                out.entry(file).or_default().push(d);
            }
            return out;
        }
    };
    let report = match template {
        Template::Windsor(dir) => {
            let kept = kept.entry(dir.clone()).or_default();
            let tuning = tunings.first().and_then(Option::as_ref);
            Ok(bpvm::check::check_windsor_reusing(dir, tuning, kept))
        }
        Template::Bluelink(_) => {
            let search = bpvm::batch::Search::default();
            bpvm::check::check_searching(&[path], &search, &tunings, &|_, _| {}).0
        }
    };
    let report = match report {
        Ok(r) => r,
        Err(problems) => {
            let file = match template {
                Template::Windsor(dir) => dir.join("windsor.yaml"),
                Template::Bluelink(file) => file.clone(),
            };
            let said: Vec<String> = problems.0.iter().map(|p| p.printed()).collect();
            let d = at(&file, 0, 0, said.join("\n"));
            out.insert(file, vec![d]);
            return out;
        }
    };
    for checked in &report.templates {
        let root = Root::new(&checked.folder, "project").ok();
        let mut texts: BTreeMap<&str, Option<String>> = BTreeMap::new();
        for f in &checked.findings {
            let text = texts
                .entry(f.file.as_str())
                .or_insert_with(|| root.as_ref().and_then(|r| r.read_string(r.dir(), &f.file).ok()));
            let file = absolute(&checked.folder.join(&f.file));
            out.entry(file)
                .or_default()
                .push(diagnostic(f, text.as_deref().unwrap_or("")));
        }
    }
    out
}

/// `f` as a diagnostic in its file, whose text is `text`.
fn diagnostic(f: &Finding, text: &str) -> Diagnostic {
    let severity = match f.severity() {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Note => DiagnosticSeverity::INFORMATION,
    };
    let lines = Lines::new(text);
    let start = lines.at_column(text, f.line, f.column);
    let end = lines.at_column(text, f.line, f.column + f.width.max(1));
    let data = f.suggestion.as_deref().and_then(|s| {
        let from = lines.offset(text, start)?;
        let name = name_at(&text[from..]);
        let meant = replacement(s, name)?;
        let to = lines.position(text, from + name.len());
        Some(serde_json::json!({ "replacement": meant, "range": Range::new(start, to) }))
    });
    Diagnostic {
        range: Range::new(start, end),
        severity: Some(severity),
        code: Some(NumberOrString::String(f.rule.id.to_string())),
        source: Some("bpvm".to_string()),
        message: f.text(),
        data,
        ..Diagnostic::default()
    }
}

/// The name `text` starts with: letters, digits, `_`, `-` and `.` (a
/// finding may give only where the name starts).
fn name_at(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(text.len());
    &text[..end]
}

/// The text that replaces `name` (the name a finding is about) by its
/// suggestion: the suggestion, unquoted when it is quoted (a name
/// written in a message); none when the two are not names of as many
/// dotted parts, or the text would not change.
fn replacement(suggestion: &str, name: &str) -> Option<String> {
    let meant = match suggestion.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        Some(unquoted) => unquoted,
        None => suggestion,
    };
    let parts = |t: &str| t.split('.').count();
    let fits = !name.is_empty() && name_at(meant) == meant && parts(meant) == parts(name);
    (fits && meant != name).then(|| meant.to_string())
}

/// An error of no rule at `line`:`column` of `file` (read through the
/// file layer for its columns).
fn at(file: &Path, line: usize, column: usize, message: String) -> Diagnostic {
    let text = file
        .parent()
        .zip(file.file_name())
        .and_then(|(dir, name)| {
            Root::new(dir, "project")
                .ok()
                .map(|r| (r, name.to_string_lossy().into_owned()))
        })
        .and_then(|(r, name)| r.read_string(r.dir(), &name).ok())
        .unwrap_or_default();
    let lines = Lines::new(&text);
    let range = Range::new(
        lines.at_column(&text, line, column),
        lines.at_column(&text, line, column + 1),
    );
    Diagnostic {
        range,
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("bpvm".to_string()),
        message,
        ..Diagnostic::default()
    }
}

/// `path` made absolute against the working folder, symlinks resolved
/// when it exists (as open documents name their files).
fn absolute(path: &Path) -> PathBuf {
    let joined = std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path));
    joined.canonicalize().unwrap_or(joined)
}

#[cfg(test)]
mod tests {
    use super::{name_at, replacement};

    #[test]
    fn a_suggestion_replaces_a_name_of_as_many_parts() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("\"network\"", "netwrk", Some("network")),
            ("nil", "null", Some("nil")),
            (
                "variables.environment",
                "variables.enviroment",
                Some("variables.environment"),
            ),
            ("variables.environment", "enviroment", None),
            ("a b", "ab", None),
            ("nil", "", None),
            ("nil", "nil", None),
        ];
        for &(suggestion, name, want) in cases {
            assert_eq!(
                replacement(suggestion, name).as_deref(),
                want,
                "{suggestion} for {name}"
            );
        }
    }

    #[test]
    fn a_name_runs_to_the_first_character_no_name_has() {
        for (text, name) in [
            ("netwrk]", "netwrk"),
            ("variables.env}", "variables.env"),
            ("é-1 x", "é-1"),
            (" x", ""),
        ] {
            assert_eq!(name_at(text), name);
        }
    }
}

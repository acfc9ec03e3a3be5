//! `bpvm check --list-rules`: each rule's id, default severity and what
//! it finds.

use bpvm_checker::Rule;
use serde::Serialize;
use std::fmt::Write;

/// The rules as aligned columns: id, default severity, summary; one rule
/// a line.
///
/// ```
/// use bpvm::checker::rules::{TYPE_MISMATCH, UNKNOWN_PATH};
/// let text = bpvm::check::listing(&[&UNKNOWN_PATH, &TYPE_MISMATCH]);
/// assert!(text.starts_with("unknown-path   warning  An expression reads a path"));
/// assert!(text.lines().nth(1).unwrap().starts_with("type-mismatch  error    An operation"));
/// ```
pub fn listing(rules: &[&Rule]) -> String {
    let width = rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
    let mut out = String::new();
    for r in rules {
        let _ = writeln!(out, "{:width$}  {:7}  {}", r.id, r.severity.name(), r.summary);
    }
    out
}

/// One rule as `listing_json` writes it.
#[derive(Serialize)]
struct Entry<'a> {
    id: &'a str,
    severity: &'a str,
    summary: &'a str,
}

/// The rules as a JSON array of `{id, severity, summary}` (the severity
/// a rule has unless a configuration sets another), pretty-printed,
/// ending with a newline.
///
/// ```
/// use bpvm::checker::rules::UNKNOWN_PATH;
/// let parsed: serde_json::Value = serde_json::from_str(&bpvm::check::listing_json(&[&UNKNOWN_PATH])).unwrap();
/// assert_eq!(parsed[0]["id"], "unknown-path");
/// assert_eq!(parsed[0]["severity"], "warning");
/// ```
pub fn listing_json(rules: &[&Rule]) -> String {
    let entries: Vec<Entry> = rules
        .iter()
        .map(|r| Entry {
            id: r.id,
            severity: r.severity.name(),
            summary: r.summary,
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&entries).expect("rules serialize to JSON");
    out.push('\n');
    out
}

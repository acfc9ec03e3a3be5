//! What a failed case prints: where the case is, its problems, and a
//! unified diff of each expectation against the outcome.

use crate::case::Failure;
use similar::TextDiff;
use std::fmt::Write;

/// The report of `failure` of the case at `place` (`file:line`).
pub fn report(place: &str, failure: &Failure, blessing: bool) -> String {
    let mut out = format!("{place}\n");
    for problem in &failure.problems {
        let _ = writeln!(out, "{problem}");
    }
    for d in &failure.differences {
        let _ = writeln!(out, "{} differs:", d.what);
        out.push_str(&diff(&d.expected, &d.actual));
    }
    if blessing {
        out.push_str("BPVM_BLESS cannot write this outcome: the case needs changing by hand\n");
    } else if failure.blessable() {
        out.push_str("BPVM_BLESS=1 writes the actual outcome into the case file\n");
    }
    out
}

/// A unified diff of `expected` against `actual`, line by line.
pub fn diff(expected: &str, actual: &str) -> String {
    let (expected, actual) = (with_newline(expected), with_newline(actual));
    TextDiff::from_lines(&expected, &actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
}

/// `text` ending in a newline (when it has any text), so that a last line
/// is not reported as differing only in having none.
fn with_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_marks_the_lines_that_differ() {
        let shown = diff("[\n  1,\n  2\n]", "[\n  1,\n  3\n]");
        assert!(shown.starts_with("--- expected\n+++ actual\n"), "{shown}");
        assert!(shown.contains("\n-  2\n+  3\n"), "{shown}");
    }
}

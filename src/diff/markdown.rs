//! A [`Diff`] as Markdown for a pull-request comment: a heading, a table
//! of the targets that changed, were added or removed or failed, the
//! counts, then each target's diff folded in a `<details>` block, all
//! cut to fit a size (a GitHub comment holds at most 65,536
//! characters), saying so when anything was cut.

use super::{Change, Diff, Entry};
use std::fmt::Write as _;

/// The most characters a GitHub comment holds.
///
/// ```
/// assert_eq!(bpvm::diff::COMMENT_LIMIT, 65_536);
/// ```
pub const COMMENT_LIMIT: usize = 65_536;

/// Room kept for the note that says what was cut.
const NOTE_ROOM: usize = 400;

impl Diff {
    /// The diff as Markdown of at most `limit` characters (not bytes:
    /// GitHub counts characters). The table lists every target that is
    /// not unchanged while it fits; the diffs follow in id order, each
    /// whole while it fits, then the first that does not fit cut at a
    /// line, then none; a final note says how many were cut or left out
    /// and how to see them all.
    ///
    /// ```
    /// use bpvm::diff::{Change, Diff, Entry};
    /// let change = Change::Added { after: "a: 1\n".into() };
    /// let d = Diff { rev: "HEAD".into(), entries: vec![Entry { id: "api".into(), source: "api.yaml".into(), change }], unchanged: 1, warnings: vec![] };
    /// let md = d.markdown(bpvm::diff::COMMENT_LIMIT);
    /// assert!(md.starts_with("### Rendered diff against `HEAD`\n"));
    /// assert!(md.contains("| <code>api</code> | <code>api.yaml</code> | added |"));
    /// assert!(md.contains("```diff\n@@ -0,0 +1 @@\n+a: 1\n```"));
    /// ```
    pub fn markdown(&self, limit: usize) -> String {
        let mut out = format!("### Rendered diff against {}\n\n", code_span(&self.rev));
        if self.entries.is_empty() {
            let n = self.unchanged;
            let _ = writeln!(out, "No rendered output changed ({n} target{} compared).", plural(n));
            return clip(out, limit);
        }
        let budget = limit.saturating_sub(NOTE_ROOM);
        let listed = self.table(&mut out, budget);
        let c = self.counts();
        let _ = writeln!(
            out,
            "\n{} changed, {} added, {} removed, {} failed, {} unchanged.\n",
            c.changed, c.added, c.removed, c.failed, c.unchanged
        );
        let (whole, cut) = self.sections(&mut out, budget);
        let total = self.entries.len();
        if listed < total || whole < total {
            let left_out = total - whole - usize::from(cut);
            let mut note = format!("---\n*Cut to fit a comment ({} characters at most):", thousands(limit));
            if listed < total {
                let _ = write!(note, " the table lists {listed} of {total} targets;");
            }
            let _ = write!(note, " {whole} of {total} diffs are shown whole");
            if cut {
                note.push_str(", 1 is cut");
            }
            if left_out > 0 {
                let _ = write!(note, ", {left_out} left out");
            }
            let _ = writeln!(
                note,
                ". Run {} to see them all.*",
                code_span(&format!("bpvm diff {}", self.rev))
            );
            out.push_str(&note);
        }
        clip(out, limit)
    }

    /// The table's rows while they fit in `budget`: how many were listed.
    fn table(&self, out: &mut String, budget: usize) -> usize {
        out.push_str("| Target | Source | Change |\n|---|---|---|\n");
        let mut used = chars(out);
        for (i, e) in self.entries.iter().enumerate() {
            let cell = |text: &str| html_code(text).replace('|', "&#124;");
            let row = format!("| {} | {} | {} |\n", cell(&e.id), cell(&e.source), e.change.word());
            // Half the room at most for the table: diffs are the point.
            if used + chars(&row) > budget / 2 {
                let _ = writeln!(out, "| … | | {} more |", self.entries.len() - i);
                return i;
            }
            used += chars(&row);
            out.push_str(&row);
        }
        self.entries.len()
    }

    /// The entries' sections while they fit in `budget`: how many were
    /// shown whole, and whether one more was shown cut.
    fn sections(&self, out: &mut String, budget: usize) -> (usize, bool) {
        let mut used = chars(out);
        for (i, e) in self.entries.iter().enumerate() {
            let body = body(e, &self.rev);
            let whole = section(e, &body, None);
            if used + chars(&whole) <= budget {
                used += chars(&whole);
                out.push_str(&whole);
                continue;
            }
            let cut = cut_section(e, &body, budget.saturating_sub(used));
            if let Some(cut) = &cut {
                out.push_str(cut);
            }
            return (i, cut.is_some());
        }
        (self.entries.len(), false)
    }
}

/// What a target's block shows, and the fence's language: its hunks, or
/// what changed about a secret, or the errors.
fn body(e: &Entry, rev: &str) -> (String, &'static str) {
    match &e.change {
        Change::Changed { secrets, .. } if !secrets.is_empty() => {
            let note = format!("secret changed: {} (values masked)\n", secrets.join(", "));
            (note + &e.hunks(), "diff")
        }
        Change::Secret { .. } | Change::Failed { .. } => {
            // The unified section without its header lines (the id and
            // the source are in the table).
            let text = e.unified(rev);
            let rest = text
                .split_inclusive('\n')
                .filter(|l| !l.starts_with("diff --bpvm ") && !l.starts_with("source: "))
                .collect();
            (rest, "text")
        }
        _ => (e.hunks(), "diff"),
    }
}

/// A target's `<details>` block with `body` (or its first lines, and a
/// line saying how many more were cut).
fn section(e: &Entry, (text, language): &(String, &str), cut: Option<(usize, usize)>) -> String {
    let fence = fence(text);
    let summary = format!("{}: {}", html_code(&e.id), e.change.word());
    let shown: String = match cut {
        None => text.clone(),
        Some((lines, _)) => text.split_inclusive('\n').take(lines).collect(),
    };
    let mut out = format!("<details><summary>{summary}</summary>\n\n{fence}{language}\n{shown}");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}");
    if let Some((lines, total)) = cut {
        let _ = writeln!(out, "\n*… {} more lines cut.*", total - lines);
    }
    out.push_str("\n</details>\n\n");
    out
}

/// The block for `e` with as many of its lines as fit in `room`, or
/// `None` when not even one does.
fn cut_section(e: &Entry, body: &(String, &'static str), room: usize) -> Option<String> {
    let total = body.0.split_inclusive('\n').count();
    let empty = chars(&section(e, body, Some((0, total))));
    if empty >= room {
        return None;
    }
    let mut used = empty;
    let mut lines = 0;
    for line in body.0.split_inclusive('\n') {
        // The count in "… N more lines cut" may gain a digit.
        if used + chars(line) + 2 > room {
            break;
        }
        used += chars(line);
        lines += 1;
    }
    (lines > 0).then(|| section(e, body, Some((lines, total))))
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// `text` as an inline code span, whatever backticks it holds.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` as HTML `<code>`, escaped.
fn html_code(text: &str) -> String {
    let escaped = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!("<code>{escaped}</code>")
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `n` with a comma between each group of three digits.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `text` cut to `limit` characters, whatever it holds (only a limit
/// too small for the heading and the note needs it).
fn clip(text: String, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((at, _)) => text[..at].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diff(n: usize, lines: usize) -> Diff {
        let entries = (0..n)
            .map(|i| {
                let after: String = (0..lines).map(|l| format!("line {l}: é\n")).collect();
                Entry {
                    id: format!("t{i:03}"),
                    source: format!("t{i:03}.yaml"),
                    change: Change::Added { after },
                }
            })
            .collect();
        Diff {
            rev: "HEAD".into(),
            entries,
            unchanged: 0,
            warnings: vec![],
        }
    }

    #[test]
    fn what_fits_is_shown_whole() {
        let md = diff(3, 5).markdown(COMMENT_LIMIT);
        assert_eq!(md.matches("<details>").count(), 3);
        assert!(!md.contains("Cut to fit"), "{md}");
        assert!(md.contains("0 changed, 3 added, 0 removed, 0 failed, 0 unchanged."));
    }

    #[test]
    fn a_long_diff_is_cut_at_a_line_and_the_rest_left_out_with_a_note() {
        for limit in [2_000, 5_000, COMMENT_LIMIT] {
            let d = diff(40, 200);
            let md = d.markdown(limit);
            assert!(chars(&md) <= limit, "{limit}: {}", chars(&md));
            let whole = md.matches("</details>").count() - 1;
            assert!(md.contains("more lines cut.*"), "{md}");
            let note = format!(
                "{whole} of 40 diffs are shown whole, 1 is cut, {} left out. Run `bpvm diff HEAD` to see them all.*\n",
                40 - whole - 1
            );
            assert!(md.ends_with(&note), "{limit}: {md}");
            // Every fence that opens closes.
            assert_eq!(md.matches("```diff\n").count(), md.matches("\n```\n").count());
        }
    }

    #[test]
    fn the_table_is_cut_too_when_there_are_very_many_targets() {
        let md = diff(3_000, 1).markdown(COMMENT_LIMIT);
        assert!(chars(&md) <= COMMENT_LIMIT);
        assert!(md.contains("| … | | "), "the table says how many it leaves out");
        assert!(md.contains("the table lists "), "the note says so");
    }

    #[test]
    fn a_limit_smaller_than_the_heading_still_holds() {
        assert!(chars(&diff(2, 2).markdown(10)) <= 10);
    }

    #[test]
    fn fences_and_spans_survive_backticks_and_numbers_get_commas() {
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(html_code("<x>&"), "<code>&lt;x&gt;&amp;</code>");
        assert_eq!(thousands(65_536), "65,536");
        assert_eq!(thousands(999), "999");
    }

    #[test]
    fn nothing_changed_says_so() {
        let d = Diff {
            rev: "main".into(),
            entries: vec![],
            unchanged: 1,
            warnings: vec![],
        };
        assert_eq!(
            d.markdown(COMMENT_LIMIT),
            "### Rendered diff against `main`\n\nNo rendered output changed (1 target compared).\n"
        );
    }
}

//! A [`Diff`] as a unified diff, one section per target as git prints
//! one per file: `diff --bpvm a/<id> b/<id>`, `source:` and what it
//! renders (its template and context or variable file), a line saying what is
//! special about it (a new or deleted target, a secret that changed, a
//! render that failed), then `---`/`+++` and the hunks.

use super::{Change, Diff, Entry};
use std::fmt::Write as _;

/// Lines of context around each change.
const CONTEXT: usize = 3;

impl Diff {
    /// Every entry's section ([`Entry::unified`]), by id; `""` when
    /// nothing differs.
    ///
    /// ```
    /// use bpvm::diff::{Change, Diff, Entry};
    /// let change = Change::Changed { before: "a: 1\nb: 2\n".into(), after: "a: 1\nb: 3\n".into(), secrets: vec![] };
    /// let d = Diff { rev: "HEAD".into(), entries: vec![Entry { id: "infra/dev".into(), source: "infra (context dev)".into(), change }], unchanged: 0, warnings: vec![] };
    /// assert_eq!(
    ///     d.unified(),
    ///     "diff --bpvm a/infra/dev b/infra/dev\nsource: infra (context dev)\n--- a/infra/dev\n+++ b/infra/dev\n@@ -1,2 +1,2 @@\n a: 1\n-b: 2\n+b: 3\n"
    /// );
    /// ```
    pub fn unified(&self) -> String {
        self.entries.iter().map(|e| e.unified(&self.rev)).collect()
    }
}

impl Entry {
    /// This target's section of the unified diff against revision `rev`.
    ///
    /// ```
    /// use bpvm::diff::{Change, Entry};
    /// let e = Entry { id: "api".into(), source: "api.yaml".into(), change: Change::Secret { names: vec!["token".into()] } };
    /// assert_eq!(
    ///     e.unified("HEAD"),
    ///     "diff --bpvm a/api b/api\nsource: api.yaml\nsecret changed: token (values masked; the output is otherwise the same)\n"
    /// );
    /// ```
    pub fn unified(&self, rev: &str) -> String {
        let id = &self.id;
        let mut out = format!("diff --bpvm a/{id} b/{id}\n");
        if !self.source.is_empty() {
            let _ = writeln!(out, "source: {}", self.source);
        }
        match &self.change {
            Change::Changed { before, after, secrets } => {
                if !secrets.is_empty() {
                    let _ = writeln!(out, "secret changed: {} (values masked)", secrets.join(", "));
                }
                hunks(&mut out, before, after, &format!("a/{id}"), &format!("b/{id}"));
            }
            Change::Secret { names } => {
                let which = if names.is_empty() {
                    "a secret value".to_string()
                } else {
                    names.join(", ")
                };
                let _ = writeln!(
                    out,
                    "secret changed: {which} (values masked; the output is otherwise the same)"
                );
            }
            Change::Added { after } => {
                out.push_str("new target\n");
                hunks(&mut out, "", after, "/dev/null", &format!("b/{id}"));
            }
            Change::Removed { before } => {
                out.push_str("deleted target\n");
                hunks(&mut out, before, "", &format!("a/{id}"), "/dev/null");
            }
            Change::Failed { before, after } => {
                for (error, side) in [(before, format!("at {rev}")), (after, "in the work tree".to_string())] {
                    if let Some(error) = error {
                        let _ = writeln!(out, "render failed {side}:");
                        out.push_str(error.trim_end());
                        out.push('\n');
                    }
                }
            }
        }
        out
    }

    /// The hunks of this target's output alone (`""` for a secret's
    /// change or a failure): what the Markdown and JSON forms show.
    ///
    /// ```
    /// use bpvm::diff::{Change, Entry};
    /// let e = Entry { id: "api".into(), source: "api.yaml".into(), change: Change::Removed { before: "a: 1\n".into() } };
    /// assert_eq!(e.hunks(), "@@ -1 +0,0 @@\n-a: 1\n");
    /// ```
    pub fn hunks(&self) -> String {
        let mut out = String::new();
        match &self.change {
            Change::Changed { before, after, .. } => only_hunks(&mut out, before, after),
            Change::Added { after } => only_hunks(&mut out, "", after),
            Change::Removed { before } => only_hunks(&mut out, before, ""),
            Change::Secret { .. } | Change::Failed { .. } => {}
        }
        out
    }
}

/// `---`, `+++` and the hunks turning `before` into `after`.
fn hunks(out: &mut String, before: &str, after: &str, from: &str, to: &str) {
    let _ = writeln!(out, "--- {from}\n+++ {to}");
    only_hunks(out, before, after);
}

fn only_hunks(out: &mut String, before: &str, after: &str) {
    let diff = similar::TextDiff::from_lines(before, after);
    for hunk in diff.unified_diff().context_radius(CONTEXT).iter_hunks() {
        let _ = write!(out, "{hunk}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(change: Change) -> Entry {
        Entry {
            id: "x".into(),
            source: "x.yaml".into(),
            change,
        }
    }

    #[test]
    fn each_change_has_its_section() {
        let cases = [
            (
                Change::Added { after: "a: 1\n".into() },
                "diff --bpvm a/x b/x\nsource: x.yaml\nnew target\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+a: 1\n",
            ),
            (
                Change::Removed {
                    before: "a: 1\n".into(),
                },
                "diff --bpvm a/x b/x\nsource: x.yaml\ndeleted target\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a: 1\n",
            ),
            (
                Change::Failed {
                    before: None,
                    after: Some("x.yaml:1:2: error: no\n".into()),
                },
                "diff --bpvm a/x b/x\nsource: x.yaml\nrender failed in the work tree:\nx.yaml:1:2: error: no\n",
            ),
            (
                Change::Secret { names: vec![] },
                "diff --bpvm a/x b/x\nsource: x.yaml\nsecret changed: a secret value (values masked; the output is otherwise the same)\n",
            ),
            (
                Change::Changed {
                    before: "a: 1\n".into(),
                    after: "a: 2\n".into(),
                    secrets: vec!["t".into()],
                },
                "diff --bpvm a/x b/x\nsource: x.yaml\nsecret changed: t (values masked)\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a: 1\n+a: 2\n",
            ),
        ];
        for (change, want) in cases {
            assert_eq!(entry(change).unified("HEAD"), want);
        }
    }
}

//! A [`Diff`] as one JSON document, for programs: the counts, then each
//! target that is not unchanged with its change, its hunks or errors.

use super::{Change, Diff};
use serde_json::{Value, json};

impl Diff {
    /// The diff as indented JSON, with a final line break:
    /// `{"revision", "counts", "targets": [{"id", "source", "change",
    /// …}]}`; a
    /// target has `diff` (its hunks) when its output changed, `secrets`
    /// (names) when a secret value did, `errors` (`before`, `after`)
    /// when a render failed.
    ///
    /// ```
    /// use bpvm::diff::{Change, Diff, Entry};
    /// let d = Diff {
    ///     rev: "HEAD".into(),
    ///     entries: vec![Entry { id: "api".into(), source: "api.yaml".into(), change: Change::Secret { names: vec!["token".into()] } }],
    ///     unchanged: 1,
    ///     warnings: vec![],
    /// };
    /// let doc: serde_json::Value = serde_json::from_str(&d.json()).unwrap();
    /// assert_eq!(doc["targets"][0]["secrets"][0], "token");
    /// assert_eq!(doc["counts"]["unchanged"], 1);
    /// ```
    pub fn json(&self) -> String {
        let targets: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                let mut t = json!({"id": e.id, "source": e.source, "change": e.change.word()});
                match &e.change {
                    Change::Changed { secrets, .. } => {
                        t["diff"] = json!(e.hunks());
                        t["secrets"] = json!(secrets);
                    }
                    Change::Secret { names } => {
                        t["diff"] = json!("");
                        t["secrets"] = json!(names);
                    }
                    Change::Added { .. } | Change::Removed { .. } => t["diff"] = json!(e.hunks()),
                    Change::Failed { before, after } => t["errors"] = json!({"before": before, "after": after}),
                }
                t
            })
            .collect();
        let doc = json!({
            "revision": self.rev,
            "counts": self.counts(),
            "targets": targets,
        });
        let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        text.push('\n');
        text
    }
}

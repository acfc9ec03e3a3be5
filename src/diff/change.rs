//! What became of each target's rendered output (a leaf: the types the
//! comparison makes and every printer reads).

/// What became of one target's rendered output. Texts are masked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Rendered at both sides, with different output.
    Changed {
        /// The output at the revision.
        before: String,
        /// The output in the work tree.
        after: String,
        /// Secrets whose values changed too (names only).
        secrets: Vec<String>,
    },
    /// The same output once masked, but a secret value changed: the
    /// secrets' names.
    Secret {
        /// The secrets that changed (may be empty when the renderer
        /// masked the change and the secret's name is not known).
        names: Vec<String>,
    },
    /// Only in the work tree.
    Added {
        /// Its output.
        after: String,
    },
    /// Only at the revision.
    Removed {
        /// Its output there.
        before: String,
    },
    /// The render failed at one side or both: each error as `bpvm
    /// render` prints it (`file:line:column: error: …`).
    Failed {
        /// The error at the revision, if it failed there.
        before: Option<String>,
        /// The error in the work tree, if it failed there.
        after: Option<String>,
    },
}

impl Change {
    /// One word for it: `changed`, `added`, `removed` or `failed` (a
    /// secret's change is `changed`).
    ///
    /// ```
    /// use bpvm::diff::Change;
    /// assert_eq!(Change::Secret { names: vec!["token".into()] }.word(), "changed");
    /// ```
    pub fn word(&self) -> &'static str {
        match self {
            Change::Changed { .. } | Change::Secret { .. } => "changed",
            Change::Added { .. } => "added",
            Change::Removed { .. } => "removed",
            Change::Failed { .. } => "failed",
        }
    }
}

/// One target that is not unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The target's id, under the PATH it was found in (`platform/aws/prod`).
    pub id: String,
    /// What it renders, under that PATH too: `platform/aws (context
    /// prod)`, `apps/api.yaml (variables apps/api.eu.vars.yaml)`.
    pub source: String,
    /// What became of it.
    pub change: Change,
}

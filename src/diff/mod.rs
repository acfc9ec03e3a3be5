//! The rendered diff of a change: every target (Windsor context,
//! Bluelink blueprint with a variable set) the change can affect
//! rendered at a git revision and in the work tree, and what changed in
//! the output, target by target.
//!
//! The repository is opened once ([`vcs::Revision`](crate::vcs::Revision)):
//! the revision's files are read from git without a checkout into a
//! temporary folder, removed when the diff returns, with an error or
//! not (nothing is written in the work tree), and the files the work
//! tree changed since choose the targets to render.
//! Each side's targets are found as `bpvm batch` finds them (the same
//! exclusions, `bpvm-batch.yaml`); those `bpvm batch --affected-by`
//! would run are rendered as it renders them, the others counted as
//! unchanged. A
//! target found only at the revision is [removed](Change::Removed), only
//! in the work tree [added](Change::Added).
//!
//! Secrets stay masked at both sides: each renderer masks as `********`
//! what it computes from a secret (a Windsor value the schema marks
//! `sensitive: true`, a Bluelink `secret: true` variable), decided by
//! what each expression reads. When the masked outputs are the same but
//! a secret value changed, the target's change is [`Change::Secret`],
//! naming the secrets and never their values.
//!
//! Here: `error` and `change` (leaves), `sides` (the two folders and
//! their targets), `secrets`, `render`, `compare` (pairing the renders),
//! and the three
//! ways to print a [`Diff`]: `unified`, `markdown` (for a pull-request
//! comment, cut to a size) and `json`.
//!
//! ```no_run
//! use bpvm::diff::{Request, diff};
//! let request = Request { rev: "origin/main...HEAD".into(), ..Request::default() };
//! let d = diff(&request)?;
//! print!("{}", d.unified());
//! # Ok::<(), bpvm::diff::Error>(())
//! ```

mod change;
mod compare;
mod error;
mod json;
mod markdown;
mod render;
mod secrets;
mod sides;
mod unified;

pub use change::{Change, Entry};
pub use error::Error;
pub use markdown::COMMENT_LIMIT;
pub use secrets::MASK;

use crate::batch::Target;
use std::path::PathBuf;

/// What to compare.
///
/// ```
/// let r = bpvm::diff::Request::default();
/// assert_eq!(r.rev, "HEAD");
/// assert_eq!(r.paths, [std::path::PathBuf::from(".")]);
/// ```
#[derive(Debug, Clone)]
pub struct Request {
    /// The revision, as git reads it: `HEAD`, `main`, `HEAD~1`, a hash,
    /// `origin/main...HEAD` (the merge base).
    pub rev: String,
    /// The folders whose targets are compared (each in the same
    /// repository), as the user gave them: ids and messages show paths
    /// under them.
    pub paths: Vec<PathBuf>,
    /// Globs of files and folders not searched, as `bpvm batch
    /// --exclude` takes them.
    pub exclude: Vec<String>,
    /// Render threads; 0: one per core.
    pub jobs: usize,
    /// An empty folder to write the revision's files into, which the
    /// caller made and removes (a command line removes it on an
    /// interrupt too); `None`: a temporary folder made here and removed
    /// when the diff returns, with an error or not.
    pub scratch: Option<PathBuf>,
}

impl Default for Request {
    fn default() -> Request {
        Request {
            rev: "HEAD".into(),
            paths: vec![PathBuf::from(".")],
            exclude: Vec::new(),
            jobs: 0,
            scratch: None,
        }
    }
}

/// The rendered diff: every target that is not unchanged, by id.
///
/// ```
/// use bpvm::diff::{Change, Diff, Entry};
/// let d = Diff {
///     rev: "HEAD".into(),
///     entries: vec![Entry { id: "api".into(), source: "api.yaml".into(), change: Change::Added { after: "a: 1\n".into() } }],
///     unchanged: 2,
///     warnings: vec![],
/// };
/// assert_eq!(d.counts().added, 1);
/// assert!(d.differs() && !d.failed());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// The revision compared with, as given.
    pub rev: String,
    /// The targets that changed, were added or removed, or failed, by id.
    pub entries: Vec<Entry>,
    /// How many targets rendered the same at both sides, or were not
    /// rendered because the change cannot affect them.
    pub unchanged: usize,
    /// What discovery warned about (an exclusion that matched nothing).
    pub warnings: Vec<String>,
}

/// How many targets each change has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Output differs (a secret's change included).
    pub changed: usize,
    /// Only in the work tree.
    pub added: usize,
    /// Only at the revision.
    pub removed: usize,
    /// Failed to render at one side or both.
    pub failed: usize,
    /// The same at both sides.
    pub unchanged: usize,
}

impl Diff {
    /// The counts of each change.
    ///
    /// ```
    /// use bpvm::diff::{Change, Counts, Diff, Entry};
    /// let failed = Change::Failed { before: None, after: Some("api.yaml:1:1: error: x".into()) };
    /// let d = Diff { rev: "HEAD".into(), entries: vec![Entry { id: "api".into(), source: "api.yaml".into(), change: failed }], unchanged: 3, warnings: vec![] };
    /// assert_eq!(d.counts(), Counts { failed: 1, unchanged: 3, ..Counts::default() });
    /// assert!(d.failed());
    /// ```
    pub fn counts(&self) -> Counts {
        let mut c = Counts {
            unchanged: self.unchanged,
            ..Counts::default()
        };
        for e in &self.entries {
            match e.change {
                Change::Changed { .. } | Change::Secret { .. } => c.changed += 1,
                Change::Added { .. } => c.added += 1,
                Change::Removed { .. } => c.removed += 1,
                Change::Failed { .. } => c.failed += 1,
            }
        }
        c
    }

    /// `true` when any target changed, was added or removed, or failed.
    pub fn differs(&self) -> bool {
        !self.entries.is_empty()
    }

    /// `true` when a target failed to render at either side.
    pub fn failed(&self) -> bool {
        self.entries.iter().any(|e| matches!(e.change, Change::Failed { .. }))
    }
}

/// The rendered diff `request` asks for: the targets found at both
/// sides that the change can affect rendered and compared (the others
/// counted as unchanged).
///
/// # Errors
///
/// Git cannot be read or the revision names nothing ([`Error::Vcs`]),
/// a PATH is outside the work tree, discovery met a problem at either
/// side. A target that fails to render is not an error here: it is
/// that target's [`Change::Failed`].
pub fn diff(request: &Request) -> Result<Diff, Error> {
    diff_with(request, &|targets: &[Target]| targets.to_vec())
}

/// [`diff`], rendering at each side only the targets `select` keeps of
/// those found there and the change can affect (a target left out at
/// both sides is not compared).
///
/// ```no_run
/// use bpvm::diff::{Request, diff_with};
/// let only_windsor = |ts: &[bpvm::batch::Target]| ts.iter().filter(|t| t.language() == "windsor").cloned().collect();
/// let d = diff_with(&Request::default(), &only_windsor)?;
/// println!("{} targets differ", d.entries.len());
/// # Ok::<(), bpvm::diff::Error>(())
/// ```
pub fn diff_with(request: &Request, select: &dyn Fn(&[Target]) -> Vec<Target>) -> Result<Diff, Error> {
    let paths = if request.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        request.paths.clone()
    };
    // A PATH gone from the work tree still has its repository above.
    let here = paths
        .iter()
        .find(|p| p.exists())
        .map_or(std::path::Path::new("."), PathBuf::as_path);
    // One opening of the repository serves the revision's files, its
    // top and the files the work tree changed since.
    let revision = crate::vcs::Revision::open(here, &request.rev)?;
    let then = sides::Side::revision(&revision, &paths, request.scratch.as_deref())?;
    let now = sides::Side::work_tree(&paths);
    let (found_then, _) = then.targets(&request.exclude, select)?;
    let (found_now, warnings) = now.targets(&request.exclude, select)?;
    let changes = crate::batch::Changes::of(revision)?;
    let (found_then, found_now, unaffected) = affected_only(&changes, found_then, found_now);
    let before = render::render(&then, found_then, request.jobs);
    let after = render::render(&now, found_now, request.jobs);
    let (entries, unchanged) = compare::compare(before, after);
    Ok(Diff {
        rev: request.rev.clone(),
        entries,
        unchanged: unchanged + unaffected,
        warnings,
    })
}

/// The targets of each side the change can affect, as `bpvm batch
/// --affected-by` chooses them in the work tree (its rule never leaves
/// out one whose output the change may alter), with those gone from the
/// work tree; and how many were left out, which render the same at both
/// sides.
fn affected_only(
    changes: &crate::batch::Changes,
    then: Vec<sides::Found>,
    now: Vec<sides::Found>,
) -> (Vec<sides::Found>, Vec<sides::Found>, usize) {
    use std::collections::BTreeSet;
    let targets: Vec<Target> = now.iter().map(|f| f.target.clone()).collect();
    let why = crate::batch::affected(&targets, changes, &crate::batch::Options::default());
    let present: BTreeSet<String> = now.iter().map(|f| f.shown.clone()).collect();
    let (now, left_out): (Vec<_>, Vec<_>) = now.into_iter().zip(why).partition(|(_, why)| why.is_some());
    let kept: BTreeSet<&str> = now.iter().map(|(f, _)| f.shown.as_str()).collect();
    let then = then
        .into_iter()
        .filter(|f| kept.contains(f.shown.as_str()) || !present.contains(&f.shown))
        .collect();
    (then, now.into_iter().map(|(f, _)| f).collect(), left_out.len())
}

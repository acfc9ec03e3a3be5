//! Reading git: the files a revision and the work tree differ in, and a
//! revision's files written out without a checkout. What the batch's
//! affected targets and the rendered diff of a change are built on.
//!
//! Git is read with a library ([gix](https://docs.rs/gix)), never by
//! running `git`: no `git` binary is needed, and nothing in a
//! repository's configuration (hooks, aliases, external diff or filter
//! commands) runs.
//!
//! - [`changed_files`]: the paths that differ between a revision and
//!   the work tree, by content.
//! - [`read_changed_files`]: the same set from a list a CI system made.
//! - [`tree_at`]: a revision's files under a folder, written into a new
//!   folder, bounded and never outside it.
//! - [`Revision`]: a revision's files opened once, to ask which it has,
//!   read one as it was, list what the work tree changed since and write
//!   its files out: one opening of the repository serves all four (the
//!   functions above each open it anew).
//! - [`top`]: the top of the work tree holding a folder, which a
//!   revision's paths are relative to.
//!
//! Revisions are read as git reads them (`HEAD`, `HEAD~1`, `main`,
//! `v1.2`, `origin/main`, a full or short hash, `origin/main...HEAD` for
//! the merge base); a misspelt branch or tag gets a did-you-mean, and a
//! shallow clone missing the history asks for more of it ([`Error`]).
//!
//! Here: `error` (the leaf), `revision` (opening and resolving),
//! `worktree` (the work tree's files), `changed`, `links` (whether a
//! link stays inside), `tree`, `list`, `revision_files`.

mod changed;
mod error;
mod links;
mod list;
mod revision;
mod revision_files;
mod tree;
mod worktree;

pub use changed::changed_files;
pub use error::Error;
pub use list::read_changed_files;
pub use revision_files::Revision;
pub use tree::{TREE_BYTES, TREE_FILES, Written, tree_at};
pub use worktree::{FOLDER_DEPTH, top};

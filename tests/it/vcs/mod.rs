//! Reading git (`bpvm::vcs`) on repositories made here with the `git`
//! binary (the library itself never runs git): `repo` makes them,
//! `changed` and `revisions` compare revisions with the work tree,
//! `tree` writes revisions out.

mod changed;
pub mod repo;
mod revisions;
mod tree;

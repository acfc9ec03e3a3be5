//! The v0.9 test runner's checks on a composed blueprint (§10.6–10.8):
//! the structural checks every case gets, what a case's `expect` says
//! must be there (a partial match), what its `exclude` says must not be,
//! and warnings for expectation keys Windsor's runner would silently
//! drop. Diff texts are Windsor's, values printed the way Go's `%v` and
//! `%q` print them.
//!
//! Each check has its module; `read` is how they all read the blueprint,
//! `go_text` how they print values. They import only the leaves and
//! `flux::tiers`: all they read is the composed blueprint.

mod go_text;
mod matching;
mod read;
mod structural;
mod unknown_keys;

pub(crate) use matching::check;
pub(crate) use structural::structural;
pub(crate) use unknown_keys::unknown_keys;

#[cfg(test)]
mod tests;

//! The case harness: YAML case files run as tests, one test per case.
//!
//! A crate's case binary (`tests/harness/main.rs`, with `harness = false`)
//! builds a [`Suite`]: it lists its case files ([`Suite::files`]), reads
//! each ([`Suite::file`]) and adds its cases ([`Suite::cases`]) with the
//! function that runs one; checks of the cases as a whole (that every rule
//! has cases, that a folder has as many as it promises) are added with
//! [`Suite::check`]. Then:
//!
//! - a case's test is named `<kind>::<file>::<case>`: the file's path
//!   under its kind's folder without `.yaml` (folders joined by `::`),
//!   and the case's `name:`, else its `expr:` or `template:` with its
//!   operators spelt out (and `_in_<env>` when it names an environment),
//!   else its number — letters, digits and `_`, unique in its file (a
//!   repeat gets `_2`, `_3`, …). So
//!   `cargo test -p bpvm --test cases -- windsor::ranges::1_to_3` runs
//!   one case, and `-- windsor::ranges` a file's;
//! - a case that fails prints `file:line`, its problems, and a unified
//!   diff of each expectation against the outcome;
//! - with `BPVM_BLESS=1`, a case whose expectations can be written from
//!   its outcome passes and its file is rewritten to expect that outcome
//!   (only the text of the values that differ changes; the `bless` module
//!   says how). Problems — a case written wrongly, an outcome of another kind than
//!   the expected one (a result where an error was expected) — still fail.

mod bless;
mod case;
mod discover;
mod fixture;
mod naming;
mod report;
mod spans;
mod suite;
mod yaml_text;

pub use case::{Case, CaseFile, Difference, Failure, Fix, pretty};
pub use discover::yaml_files;
pub use fixture::copy_tree;
pub use report::diff;
pub use suite::{Runner, Suite};

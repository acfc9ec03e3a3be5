//! The integration tests of `bpvm`, one module per subject, in one binary:
//! a change to the library relinks one test binary, not one per file.
//! Helpers more than one module uses are in `support`.
//!
//! Two kinds of test have binaries of their own: the YAML cases
//! (`tests/harness`, with a harness of its own) and the timings of
//! `tests/linear.rs` (the allocator the `bpvm` command uses, installed
//! for the whole process, and no other test running beside them).

mod affected;
mod architecture;
mod batch;
mod batch_discovery;
mod batch_hardening;
mod bounds;
mod check;
mod check_sarif;
mod corpus;
mod env_hashes;
mod errors;
mod hardening;
mod http_resource;
mod render_cache;
mod robustness;
mod root;
mod schema;
mod support;
mod threads;
mod vcs;

//! The integration tests of `bpvm-bluelink`, one module per subject, in one
//! binary (linked once). The YAML cases are in `tests/harness`.

mod examples;
mod hardening;

//! The runtime's integration tests, in one binary (one link instead of one
//! per file): the YAML event scanner and the YAML reader, each compared
//! with what it stands in for.

// `../shared` (corpus and seeds), as every crate's tests find it.
#[path = "../../../tests/support/shared.rs"]
mod shared;

// The reader bpvm had before, the reference `yaml_reader` compares with.
mod old_yaml;

mod yaml_events;
mod yaml_reader;

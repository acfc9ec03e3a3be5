//! The `bpvm` command as users and scripts run it, in one test binary: a
//! module per command or concern, sharing `support` (the built binary,
//! the repository's folders, scratch folders). Every test runs `bpvm` in
//! a child process, so none sets anything global in this one.

mod support;

// `../shared` (the corpus beside the repository), as every crate's tests read it.
#[path = "../../../tests/support/shared.rs"]
mod shared;

mod affected;
mod allow_env;
mod batch;
mod bench;
mod blueprint;
mod check;
mod check_tuning;
mod colour;
mod context;
mod convert;
mod corpus;
mod diff;
mod discovery;
mod docs;
mod empty;
mod eval;
mod excerpts;
mod explain;
mod fmt;
mod governed;
mod graph;
mod habits;
mod help;
mod lsp;
mod matcher;
mod newer_fields;
mod now;
mod output;
mod positions;
mod provenance;
mod render;
mod schema;
mod secrets;
mod shard_index;
mod test_keys;
mod test_report;
mod timings;
mod values;
mod watch;
mod wording;

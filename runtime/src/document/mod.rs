//! Reading YAML and JSON documents into values.
//!
//! YAML is built into values straight from the parser's events: scalars
//! typed by the YAML 1.2 core schema as bpvm has always read them, or as
//! Windsor's YAML library does (`go_number`) when the reader asks;
//! anchors and aliases, merge keys (`<<`) and the core tags honoured.
//! Every limit holds for both: at most [`VALUE_DEPTH`] levels (reading,
//! printing, comparing and dropping a value all recurse once per level),
//! at most a given number of values (aliases count what they expand to,
//! so an alias bomb stops at the limit, not after it has been built), one
//! document, no key given twice.
//!
//! `read` is the entry; `events` yields the parser's events (quickly
//! where the text allows), `build` makes a value of them with `scalar`
//! and `tag`; `json` reads JSON through serde; `place` and `words` say
//! where and what went wrong. These import the value model and the
//! limits, never the environment or the builtins.
//!
//! [`VALUE_DEPTH`]: crate::bounds::limits::VALUE_DEPTH

mod build;
pub mod events;
mod go_number;
mod json;
mod place;
mod read;
mod scalar;
mod tag;
mod words;

/// How plain scalars are typed: each reader of documents chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Typing {
    /// The YAML 1.2 core schema, as bpvm has always read it (`010` is
    /// the float 10, `1e3` the float 1000).
    #[default]
    Core,
    /// As goccy/go-yaml v1.19.2 (Windsor's reader) types them: `0644`
    /// is octal 420, `1e3` is text, `_` anywhere after the first
    /// character; integers are never floats, and one past `i64` is an
    /// error (go-yaml reads it unsigned).
    GoYaml,
}

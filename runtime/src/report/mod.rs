//! What bpvm tells people: an expression's error with its place and a
//! caret ([`Diagnostic`](diag::Diagnostic)), every problem of a run,
//! excerpts of long text, where a value of a document is written, and
//! "did you mean …?".
//!
//! These import nothing of the value model or the evaluator (`locate`
//! reads the document's text itself), so any part of the runtime may
//! report through them.

pub(crate) mod diag;
pub mod excerpt;
pub(crate) mod headline;
pub mod locate;
pub(crate) mod problems;
pub mod scalar;
pub mod suggest;

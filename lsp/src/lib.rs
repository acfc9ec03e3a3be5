//! `bpvm lsp`: a language server for Windsor projects and Bluelink
//! blueprints. Documents are evaluated as the editor holds them (their
//! unsaved text replaces the file for every read, through the file
//! layer's overlay); each edit, once edits pause, checks the template as
//! `bpvm check` does and publishes its findings where they are. A Windsor
//! project's check reuses what its last check kept: an edit to one facet
//! parses and compiles that facet only.
//!
//! Rooms, each importing only those before it: `text` (documents and
//! positions), then `diagnose` (checks as diagnostics, quick fixes),
//! `symbols` (what a file declares) and `complete` (what may be written
//! at a place), then `hover` (expressions evaluated in a context, keys
//! described by their schema), then `navigate` (definitions and
//! references), then
//! `server` (the protocol's loop). The protocol runs on plain threads and
//! channels (`lsp-server`): the engine is synchronous, and a check runs
//! on the loop's thread between messages.
//!
//! ```no_run
//! bpvm_lsp::serve().unwrap();
//! ```

#![warn(missing_docs)]

pub mod complete;
pub mod diagnose;
pub mod hover;
pub mod navigate;
pub mod server;
pub mod symbols;
pub mod text;

pub use server::serve;

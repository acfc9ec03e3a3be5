//! A blueprint document as written, and the reader that makes it.
//!
//! `tree` is the document (nodes with positions) and imports nothing of
//! this crate but [`Pos`](crate::error::Pos); `keys` finds duplicate keys
//! in a mapping's entries; `read` reads YAML or JSON into the tree with
//! both. Nothing here imports the loader or the renderer.

mod keys;
mod read;
mod tree;

pub(crate) use keys::Keys;
pub(crate) use read::read_keys;
pub use read::{ReadError, read};
pub use tree::{Entry, KeyText, Kind, Node};

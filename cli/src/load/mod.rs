//! Opening what the command line names: a Windsor project and its
//! context, a Bluelink blueprint and the render options its flags give,
//! an `--env` file. Each failure is the message the command prints.
//!
//! Imports the shared arguments (`crate::args`) and nothing else of this
//! crate; the commands import it.

pub mod bluelink;
mod environment;
pub mod windsor;

pub use environment::environment;

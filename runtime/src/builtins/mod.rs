//! The function libraries of the two dialects.

pub mod args;
pub mod bluelink;
mod extreme;
pub mod windsor;

use crate::func::Library;

/// The Windsor (expr-lang) dialect's functions.
pub static WINDSOR: Library = Library {
    builtins: windsor::FUNCTIONS,
};

/// The Bluelink dialect's core functions.
pub static BLUELINK: Library = Library {
    builtins: bluelink::FUNCTIONS,
};

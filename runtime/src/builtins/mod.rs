//! The function libraries of the two dialects.
//!
//! One file per family of functions (text, numbers, encodings, pointers,
//! higher-order, effects); `args` reads arguments for all of them. They
//! import the value model (`val`, `func`, `ops`) and, for the functions
//! that read files, `root`; never the documents or the environment.

/// A `Builtin` table entry: name, fewest and most arguments, implementation;
/// `effect` marks a function whose result is not its arguments' alone.
macro_rules! builtin {
    ($name:literal, $min:expr, $max:expr, $f:expr) => {
        Builtin {
            name: $name,
            min: $min,
            max: $max,
            f: $f,
            pure: true,
        }
    };
    (effect $name:literal, $min:expr, $max:expr, $f:expr) => {
        Builtin {
            name: $name,
            min: $min,
            max: $max,
            f: $f,
            pure: false,
        }
    };
}

pub mod args;
pub mod bits;
pub mod bluelink;
mod case;
pub mod cidr;
pub mod effects;
pub mod encoding;
mod extreme;
mod go_json;
mod go_yaml;
pub mod higher;
pub mod http;
pub mod pointer;
mod sized;
pub mod windsor;

use crate::func::Library;

/// The Windsor (expr-lang) dialect's functions.
pub static WINDSOR: Library = Library::new(&[
    windsor::FUNCTIONS,
    bits::FUNCTIONS,
    cidr::FUNCTIONS,
    crate::time::functions::FUNCTIONS,
]);

/// The Bluelink dialect's core functions.
pub static BLUELINK: Library = Library::new(&[
    bluelink::FUNCTIONS,
    higher::FUNCTIONS,
    encoding::FUNCTIONS,
    effects::FUNCTIONS,
    cidr::CIDRSUBNET,
]);

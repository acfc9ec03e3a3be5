//! Where a YAML reader's error is, and the error itself. A leaf.

use crate::bounds::limits::VALUE_DEPTH;
use saphyr_parser_bw::Marker;

/// What a reader is told when a document goes past [`VALUE_DEPTH`].
pub(crate) const TOO_DEEP: &str = "document nested too deeply";

/// The message for a document nested past [`VALUE_DEPTH`], at `line:column`.
pub(crate) fn too_deep(line: usize, column: usize) -> String {
    format!("{line}:{column}: {TOO_DEEP} (more than {VALUE_DEPTH} levels)")
}

/// The words for a document nested past [`VALUE_DEPTH`], without a place.
pub(super) fn too_deep_words() -> String {
    format!("{TOO_DEEP} (more than {VALUE_DEPTH} levels)")
}

/// A place in the text: line and column, both from 1.
#[derive(Clone, Copy, Debug)]
pub(super) struct At {
    pub(super) line: usize,
    pub(super) col: usize,
}

impl At {
    pub(super) fn of(m: &Marker) -> At {
        At {
            line: m.line(),
            col: m.col() + 1,
        }
    }
}

/// An error at a place; shown as `line:column: message`.
pub(super) struct Error {
    at: At,
    message: String,
}

impl Error {
    pub(super) fn new(at: At, message: impl Into<String>) -> Error {
        Error {
            at,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.at.line, self.at.col, self.message)
    }
}

pub(super) type Built<T> = Result<T, Error>;

/// The place of byte `at`, at or after `from`.
pub(super) fn at_byte(text: &str, from: &Marker, at: usize) -> At {
    let start = from.byte_offset().unwrap_or(0);
    let mut place = At::of(from);
    for c in text.get(start..at).unwrap_or("").chars() {
        if c == '\n' {
            place.line += 1;
            place.col = 1;
        } else {
            place.col += 1;
        }
    }
    place
}

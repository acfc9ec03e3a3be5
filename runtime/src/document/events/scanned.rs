//! What the scanner yields, and how far it reads before leaving a text to
//! the parser. A leaf.

use saphyr_parser_bw::{Event, Span};

/// The events the scanner read, in order.
pub(super) type Scanned<'t> = Vec<(Event<'t>, Span)>;

/// How many collections deep the scanner goes; deeper documents are the
/// parser's (past every reader's own limit in any case).
pub(super) const MAX_DEPTH: usize = 60;

/// Longest key the scanner reads, in bytes; the parser stops looking for a
/// key's `:` 1024 characters on.
pub(super) const KEY_LENGTH: usize = 1000;

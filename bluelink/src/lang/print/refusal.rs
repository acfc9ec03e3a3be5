//! What cannot be written in `.bp`, and where: a leaf every printer
//! module shares.

use crate::error::Pos;
use crate::node::ReadError;

/// What cannot be written in the target syntax, and where.
pub type Refused = ReadError;

/// The refusal `message` at `at`.
pub(super) fn refused(at: Pos, message: impl Into<String>) -> Refused {
    ReadError {
        at,
        message: message.into(),
    }
}

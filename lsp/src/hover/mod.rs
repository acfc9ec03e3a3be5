//! Hover on a `${…}` or a `when:` of a Windsor facet: the expression's
//! value in the current context, each path it reads with its value and
//! where that was set, and whether the facet is included. The context is
//! chosen as `bpvm render` chooses it, unless the editor selected one.
//! Imports `text`.

mod evaluated;
mod expression;
mod shown;

pub use evaluated::{Evaluated, evaluate};
pub use expression::{Expression, expression_at};
pub use shown::shown;

//! Hover. On a `${…}` or a `when:` of a Windsor facet: the expression's
//! value in the current context, each path it reads with its value and
//! where that was set, and whether the facet is included (the context is
//! chosen as `bpvm render` chooses it, unless the editor selected one).
//! On a `${…}` of a Bluelink blueprint: its value as the blueprint renders
//! with the files beside it, or why it has none before deployment. On a
//! key of a context's `values.yaml`: what the schema says of it. Imports
//! `text` and `complete` (the schema's walk).

mod evaluated;
mod expression;
mod rendered;
mod shown;
mod substitution;
mod values_key;

pub use evaluated::{Evaluated, evaluate};
pub use expression::{Expression, expression_at};
pub use shown::shown;
pub use substitution::substitution_shown;
pub use values_key::{ValuesKey, key_shown, values_key_at};

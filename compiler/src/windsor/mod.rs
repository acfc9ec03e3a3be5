//! The Windsor dialect: expr-lang as Windsor facets write it.
//!
//! Here: the lexer and the parser. They import the shared syntax tree
//! (`ast`), tokens and the cursor over them; nothing of the code
//! generator.

pub mod escape;
pub mod lex;
mod names;
pub mod parse;

pub use names::is_keyword;
